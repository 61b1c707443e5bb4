/* io_uring_cmd: NVMe I/O commands through IORING_OP_URING_CMD on a namespace's generic device (/dev/ngXnY), past the block layer. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/nvme_ioctl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/uio.h>
#include <unistd.h>

#include "iopath/engine.h"
#include "uring.h"

/* NVMe command set opcodes and fields (NVM Command Set Specification) */
#define NVME_CMD_FLUSH		0x00
#define NVME_CMD_WRITE		0x01
#define NVME_CMD_READ		0x02
#define NVME_CMD_DSM		0x09
#define NVME_DSM_ATTR_AD	(1u << 2)	/* dataset management: deallocate */
#define NVME_ADMIN_IDENTIFY	0x06
#define NVME_ID_CNS_NS		0x00
#define NVME_ID_SIZE		4096

struct cmd_opts {
	struct uring_opts ring;	/* first: the ring's options are the io_uring engine's */
	int cmd_type;
	int nonvectored;
	int force_async;
};

/* Engine options, fio's names (fio's io_uring_cmd shares io_uring's ring options alike). */
static const struct engine_option cmd_options[] = {
	URING_RING_OPTIONS,
	{ "cmd_type", EOPT_CHOICE, offsetof(struct cmd_opts, cmd_type), 0, 0, 0,
	  "the passthrough command set: nvme, NVMe I/O commands on /dev/ngXnY (fio's bsg is not supported)", "nvme" },
	{ "nonvectored", EOPT_INT, offsetof(struct cmd_opts, nonvectored), 0, 1, -1,
	  "1: NVME_URING_CMD_IO, the buffer in the command; 0: NVME_URING_CMD_IO_VEC, one iovec (default 1, as fio where the kernel has non-vectored I/O)", NULL },
	{ "force_async", EOPT_INT, offsetof(struct cmd_opts, force_async), 0, INT_MAX, 0,
	  "set IOSQE_ASYNC on every Nth command (0: never)", NULL },
	{ NULL, 0, 0, 0, 0, 0, NULL, NULL },
};

/* A dataset management range (one per trim) */
struct nvme_dsm_range {
	uint32_t cattr;
	uint32_t nlb;
	uint64_t slba;
};

/* One file's namespace, reached through its generic device. */
struct ns_file {
	int fd;			/* /dev/ngXnY, opened at init */
	uint32_t nsid;
	unsigned lba_shift;
	uint32_t lba_mask;
};

struct cmd_priv {
	struct uring_priv u;	/* first: the shared reap reads it */
	struct cmd_opts o;
	struct ns_file *ns;	/* by io_file.index */
	int *fds;		/* the generic devices, for registerfiles */
	unsigned nr_files;
	struct iovec *iov;	/* by io_req.index, vectored commands */
	struct nvme_dsm_range *dsm;	/* by io_req.index, trims */
	bool vectored;
	unsigned since_async;
};

/* The first line of a sysfs attribute; 0 or -errno. */
static int sysfs_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	int ret = 0;

	if (!f)
		return -errno;
	if (!fgets(buf, (int)len, f))
		ret = -EIO;
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
	return ret;
}

/*
 * The generic device of the namespace whose block device f is open on: the kernel puts the
 * namespace's ngXnY beside its nvmeXnY, under the same parent (the controller, or the
 * subsystem for a multipath head), so /sys/dev/block/M:m's parent holds it. name gets
 * "ngXnY", chr its device number, sys the block device's sysfs directory.
 */
static int generic_of(struct engine *e, const struct io_file *f, char *name, size_t len,
		      dev_t *chr, char *sys, size_t syslen)
{
	char link[64], real[PATH_MAX], attr[PATH_MAX + 80], line[32];
	unsigned maj, min;
	struct stat st;
	char *base;

	if (fstat(f->fd, &st))
		return engine_fail(e, -errno, "%s: %s", f->path, strerror(errno));
	if (!S_ISBLK(st.st_mode))
		return engine_fail(e, -ENODEV,
				   "%s is not a block device: NVMe passthrough needs an NVMe namespace (/dev/nvmeXnY, or its generic device /dev/ngXnY)",
				   f->path);
	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(st.st_rdev), minor(st.st_rdev));
	if (!realpath(link, real))
		return engine_fail(e, -ENODEV, "%s: %s: %s", f->path, link, strerror(errno));
	snprintf(sys, syslen, "%s", real);
	snprintf(attr, sizeof(attr), "%s/partition", real);
	if (!access(attr, F_OK))
		return engine_fail(e, -ENODEV,
				   "%s is a partition: NVMe passthrough addresses the whole namespace (give /dev/nvmeXnY)",
				   f->path);
	base = strrchr(real, '/');
	*base++ = 0;
	if (strncmp(base, "nvme", 4) || !strchr(base + 4, 'n'))
		return engine_fail(e, -ENODEV,
				   "%s (%s) is not an NVMe namespace: passthrough needs one (/dev/nvmeXnY)",
				   f->path, base);
	snprintf(name, len, "ng%s", base + 4);
	snprintf(attr, sizeof(attr), "%s/%s/dev", real, name);
	if (sysfs_line(attr, line, sizeof(line)) || sscanf(line, "%u:%u", &maj, &min) != 2)
		return engine_fail(e, -ENODEV,
				   "%s: the namespace has no generic character device (%s missing: a kernel before 5.13 has none)",
				   f->path, attr);
	*chr = makedev(maj, min);
	return 0;
}

/* Open /dev/<name> and check, on the opened descriptor, that it is the device sysfs named. */
static int open_generic(struct engine *e, const char *name, dev_t chr, bool writes)
{
	char path[80];
	struct stat st;
	int fd, ret;

	snprintf(path, sizeof(path), "/dev/%s", name);
	fd = open(path, (writes ? O_RDWR : O_RDONLY) | O_CLOEXEC);
	if (fd < 0 && (errno == EACCES || errno == EPERM))
		return engine_fail(e, -errno,
				   "%s: %s: NVMe passthrough needs %s access to the generic device (its owner or group, or root; Linux before 6.2 also needs CAP_SYS_ADMIN)",
				   path, strerror(errno), writes ? "read-write" : "read");
	if (fd < 0 && errno == ENOENT)
		return engine_fail(e, -ENOENT,
				   "%s: no such device node: the namespace's generic device is %u:%u in sysfs but has no node in /dev (devtmpfs or udev makes it; mknod %s c %u %u)",
				   path, major(chr), minor(chr), path, major(chr), minor(chr));
	if (fd < 0)
		return engine_fail(e, -errno, "%s: %s (the namespace's generic device, %u:%u)", path,
				   strerror(errno), major(chr), minor(chr));
	if (fstat(fd, &st) || !S_ISCHR(st.st_mode) || st.st_rdev != chr) {
		ret = engine_fail(e, -ENODEV, "%s is not the generic device %u:%u sysfs names", path,
				  major(chr), minor(chr));
		close(fd);
		return ret;
	}
	return fd;
}

/*
 * The namespace's LBA format from Identify Namespace: the data size (lba_shift) and the
 * metadata bytes per block, which plain commands cannot carry. -errno when Identify is refused.
 */
static int identify_lba(int fd, uint32_t nsid, unsigned *shift, unsigned *ms, bool *extended)
{
	struct nvme_admin_cmd cmd = { 0 };
	unsigned char *id;
	unsigned fmt;
	int ret;

	if (posix_memalign((void **)&id, 4096, NVME_ID_SIZE))
		return -ENOMEM;
	memset(id, 0, NVME_ID_SIZE);
	cmd.opcode = NVME_ADMIN_IDENTIFY;
	cmd.nsid = nsid;
	cmd.addr = (uint64_t)(uintptr_t)id;
	cmd.data_len = NVME_ID_SIZE;
	cmd.cdw10 = NVME_ID_CNS_NS;
	ret = ioctl(fd, NVME_IOCTL_ADMIN_CMD, &cmd);
	if (ret) {
		ret = ret < 0 ? -errno : -EIO;
		free(id);
		return ret;
	}
	/* FLBAS bits 3:0 index the format, bits 6:5 extend it past 16 formats; NLBAF is 0-based */
	fmt = id[26] & 0xf;
	if (id[25] >= 16)
		fmt |= ((id[26] >> 5) & 0x3u) << 4;
	*ms = id[128 + 4 * fmt] | (unsigned)id[129 + 4 * fmt] << 8;
	*shift = id[130 + 4 * fmt];
	*extended = id[26] & 0x10;
	free(id);
	return 0;
}

/* Settle one file's namespace: its generic device open, its nsid, LBA size and transfer limit. */
static int ns_setup(struct engine *e, const struct engine_params *p, const struct io_file *f,
		    struct ns_file *ns, const char **lba_from)
{
	char name[64], sys[PATH_MAX], attr[PATH_MAX + 40], line[32];
	unsigned ms = 0, shift = 0;
	bool extended = false;
	unsigned long kb;
	dev_t chr;
	int ret;

	ret = generic_of(e, f, name, sizeof(name), &chr, sys, sizeof(sys));
	if (ret)
		return ret;
	ns->fd = open_generic(e, name, chr, p->writes);
	if (ns->fd < 0)
		return ns->fd;
	ret = ioctl(ns->fd, NVME_IOCTL_ID);
	if (ret <= 0)
		return engine_fail(e, ret < 0 ? -errno : -ENODEV, "/dev/%s: NVME_IOCTL_ID: %s", name,
				   ret < 0 ? strerror(errno) : "no namespace id");
	ns->nsid = (uint32_t)ret;
	ret = identify_lba(ns->fd, ns->nsid, &shift, &ms, &extended);
	*lba_from = "identify";
	if (ret) {
		/* Identify may be refused without CAP_SYS_ADMIN: the block layer's view then */
		snprintf(attr, sizeof(attr), "%s/queue/logical_block_size", sys);
		if (sysfs_line(attr, line, sizeof(line)) || !(kb = strtoul(line, NULL, 10)) ||
		    (kb & (kb - 1)))
			return engine_fail(e, -ENODEV, "/dev/%s: Identify Namespace: %s, and %s unreadable",
					   name, strerror(-ret), attr);
		shift = (unsigned)__builtin_ctzl(kb);
		*lba_from = "sysfs (Identify refused)";
	}
	if (ms)
		return engine_fail(e, -ENOTSUP,
				   "/dev/%s: the namespace is formatted with %u bytes of %s metadata per block, which io_uring_cmd does not carry (format it without metadata)",
				   name, ms, extended ? "extended-LBA" : "separate");
	if (shift < 9 || shift > 16)
		return engine_fail(e, -ENODEV, "/dev/%s: LBA data size 2^%u bytes is out of range", name,
				   shift);
	ns->lba_shift = shift;
	ns->lba_mask = (1u << shift) - 1;
	if (p->buf_size & ns->lba_mask)
		return engine_fail(e, -EINVAL, "/dev/%s: bs=%zu is not a multiple of the namespace's %u-byte LBA",
				   name, p->buf_size, 1u << shift);
	/* a command's block count is 16 bits (cdw12, zero-based), whatever sysfs says */
	if (p->buf_size >> shift > 65536)
		return engine_fail(e, -EINVAL, "/dev/%s: bs=%zu is %zu blocks of %u bytes, beyond an NVMe command's 65536",
				   name, p->buf_size, p->buf_size >> shift, 1u << shift);
	snprintf(attr, sizeof(attr), "%s/queue/max_hw_sectors_kb", sys);
	if (!sysfs_line(attr, line, sizeof(line)) && (kb = strtoul(line, NULL, 10)) &&
	    p->buf_size > kb * 1024)
		return engine_fail(e, -EINVAL, "/dev/%s: bs=%zu is beyond the namespace's largest command, %lu KiB (%s)",
				   name, p->buf_size, kb, attr);
	engine_applied(e, "generic_device", "/dev/%s", name);
	return 0;
}

static void cmd_free(struct cmd_priv *c)
{
	unsigned i;

	for (i = 0; c->ns && i < c->nr_files; i++)
		if (c->ns[i].fd >= 0)
			close(c->ns[i].fd);
	free(c->ns);
	free(c->fds);
	free(c->iov);
	free(c->dsm);
	free(c->u.trimmed);
	free(c);
}

/* The per-file and per-request tables; -ENOMEM. */
static int cmd_alloc(struct cmd_priv *c, const struct engine_params *p)
{
	unsigned i;

	c->nr_files = p->nr_files;
	c->ns = calloc(p->nr_files, sizeof(*c->ns));
	c->fds = calloc(p->nr_files, sizeof(*c->fds));
	c->iov = calloc(p->nr_reqs, sizeof(*c->iov));
	c->dsm = aligned_alloc(64, ((p->nr_reqs * sizeof(*c->dsm) + 63) / 64) * 64);
	c->u.trimmed = calloc(p->iodepth, sizeof(*c->u.trimmed));
	if (!c->ns || !c->fds || !c->iov || !c->dsm || !c->u.trimmed)
		return -ENOMEM;
	for (i = 0; i < p->nr_files; i++)
		c->ns[i].fd = -1;
	return 0;
}

static int cmd_files(struct engine *e, struct cmd_priv *c, const struct engine_params *p)
{
	const char *lba_from = "";
	unsigned i;
	int ret;

	for (i = 0; i < p->nr_files; i++) {
		ret = ns_setup(e, p, &p->files[i], &c->ns[i], &lba_from);
		if (ret)
			return ret;
		c->fds[i] = c->ns[i].fd;
	}
	engine_applied(e, "nsid", "%u", c->ns[0].nsid);
	engine_applied(e, "lba_size", "%u (from %s)", 1u << c->ns[0].lba_shift, lba_from);
	return 0;
}

static int cmd_init(struct engine *e, const struct engine_params *p)
{
	struct cmd_priv *c = calloc(1, sizeof(*c));
	int ret;

	if (!c)
		return -ENOMEM;
	memcpy(&c->o, p->opts, sizeof(c->o));
	c->u.o = c->o.ring;
	c->u.res_is_status = true;
	c->vectored = c->o.nonvectored == 0;
	ret = cmd_alloc(c, p);
	if (!ret && c->vectored && c->o.ring.fixedbufs)
		ret = engine_fail(e, -EINVAL,
				  "fixedbufs with nonvectored=0: the kernel's registered buffers serve non-vectored commands only (set nonvectored=1)");
	if (!ret)
		ret = cmd_files(e, c, p);
	if (ret)
		goto fail;
	ret = uring_ring_setup(e, &c->u, p->iodepth, IORING_SETUP_SQE128 | IORING_SETUP_CQE32);
	if (ret == -EINVAL)
		engine_fail(e, ret, "io_uring_setup with 128-byte SQEs and 32-byte CQEs (IORING_SETUP_SQE128|CQE32): %s (NVMe passthrough through io_uring needs Linux 5.19 or later)",
			    strerror(-ret));
	if (ret)
		goto fail;
	e->priv = c;
	ret = uring_register_extras(e, &c->u, p, c->fds);
	if (ret) {
		io_uring_queue_exit(&c->u.ring);
		e->priv = NULL;
		goto fail;
	}
	engine_applied(e, "command", "%s", c->vectored ? "NVME_URING_CMD_IO_VEC" : "NVME_URING_CMD_IO");
	if (c->o.force_async)
		engine_applied(e, "force_async", "IOSQE_ASYNC every %d", c->o.force_async);
	return 0;
fail:
	cmd_free(c);
	return ret ? ret : -ENOMEM;
}

static void cmd_exit(struct engine *e)
{
	struct cmd_priv *c = e->priv;

	io_uring_queue_exit(&c->u.ring);
	cmd_free(c);
}

/* Fill sqe with r's NVMe command: read, write, deallocate (trim) or flush (sync). */
static void prep_cmd(struct cmd_priv *c, struct io_uring_sqe *sqe, struct io_req *r)
{
	const struct ns_file *ns = &c->ns[r->file->index];
	struct nvme_uring_cmd *cmd = (struct nvme_uring_cmd *)sqe->cmd;
	uint64_t slba = r->offset >> ns->lba_shift;
	uint32_t nlb = r->len >> ns->lba_shift;

	io_uring_prep_rw(IORING_OP_URING_CMD, sqe, c->u.fixed_files ? (int)r->file->index : ns->fd,
			 NULL, 0, 0);
	sqe->cmd_op = NVME_URING_CMD_IO;
	memset(cmd, 0, sizeof(*cmd));
	cmd->nsid = ns->nsid;
	if (r->ddir <= DDIR_WRITE) {
		cmd->opcode = r->ddir == DDIR_READ ? NVME_CMD_READ : NVME_CMD_WRITE;
		cmd->cdw10 = (uint32_t)slba;
		cmd->cdw11 = (uint32_t)(slba >> 32);
		cmd->cdw12 = nlb - 1;	/* 0-based */
		if (c->vectored) {
			struct iovec *iov = &c->iov[r->index];

			iov->iov_base = r->buf;
			iov->iov_len = r->len;
			sqe->cmd_op = NVME_URING_CMD_IO_VEC;
			cmd->addr = (uint64_t)(uintptr_t)iov;
			cmd->data_len = 1;
		} else {
			cmd->addr = (uint64_t)(uintptr_t)r->buf;
			cmd->data_len = r->len;
		}
		if (c->u.fixed_bufs) {
			sqe->uring_cmd_flags = IORING_URING_CMD_FIXED;
			sqe->buf_index = (uint16_t)r->index;
		}
	} else if (r->ddir == DDIR_TRIM) {
		struct nvme_dsm_range *d = &c->dsm[r->index];

		d->cattr = 0;
		d->nlb = nlb;	/* 1-based in a range */
		d->slba = slba;
		cmd->opcode = NVME_CMD_DSM;
		cmd->addr = (uint64_t)(uintptr_t)d;
		cmd->data_len = sizeof(*d);
		cmd->cdw10 = 0;	/* one range, 0-based */
		cmd->cdw11 = NVME_DSM_ATTR_AD;
	} else {
		cmd->opcode = NVME_CMD_FLUSH;
	}
	if (c->u.fixed_files)
		sqe->flags |= IOSQE_FIXED_FILE;
	if (c->o.force_async && ++c->since_async == (unsigned)c->o.force_async) {
		sqe->flags |= IOSQE_ASYNC;
		c->since_async = 0;
	}
	io_uring_sqe_set_data(sqe, r);
}

static int cmd_submit(struct engine *e, struct io_req **reqs, unsigned n)
{
	struct cmd_priv *c = e->priv;
	unsigned i;

	for (i = 0; i < n; i++) {
		struct io_req *r = reqs[i];
		struct io_uring_sqe *sqe;

		/* a command addresses whole blocks: a request that does not is refused alone */
		if (r->ddir <= DDIR_TRIM &&
		    ((r->offset | r->len) & c->ns[r->file->index].lba_mask || !r->len)) {
			r->res = -EINVAL;
			c->u.trimmed[c->u.nr_trimmed++] = r;
			continue;
		}
		sqe = io_uring_get_sqe(&c->u.ring);
		if (!sqe)
			break;
		prep_cmd(c, sqe, r);
	}
	return uring_submit_queued(&c->u, i);
}

const struct engine_ops io_uring_cmd_engine = {
	.name = "io_uring_cmd",
	.flags = ENGINE_PASSTHRU,
	.help = "NVMe passthrough: NVMe commands through IORING_OP_URING_CMD on /dev/ngXnY (cmd_type=nvme), with the io_uring ring options",
	.opts_size = sizeof(struct cmd_opts),
	.options = cmd_options,
	.max_depth = 32768,
	.max_depth_why = "the kernel's ring size limit, IORING_MAX_ENTRIES",
	.init = cmd_init,
	.exit = cmd_exit,
	.submit = cmd_submit,
	.reap = uring_reap,
	.kthread_cpu = uring_kthread_cpu,
};
