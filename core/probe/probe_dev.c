/* The block device chain below a mount: partition -> dm/md -> disk, with drivers and queue. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/nvme_ioctl.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "probe/probe_int.h"

/* Cut path at its last '/': "/a/b/c" -> "/a/b". */
static void parent_dir(char *path)
{
	char *slash = strrchr(path, '/');

	if (slash && slash != path)
		*slash = '\0';
	else if (slash)
		slash[1] = '\0';
}

static bool exists(const char *dir, const char *name)
{
	char p[PATH_MAX];
	struct stat st;

	if (snprintf(p, sizeof(p), "%s/%s", dir, name) >= (int)sizeof(p))
		return false;
	return stat(p, &st) == 0;
}

static int attr(const char *dir, const char *name, char *buf, size_t len)
{
	char p[PATH_MAX];

	if (snprintf(p, sizeof(p), "%s/%s", dir, name) >= (int)sizeof(p)) {
		buf[0] = '\0';
		return -ENAMETOOLONG;
	}
	return probe_read_abs(p, buf, len);
}

static unsigned attr_uint(const char *dir, const char *name)
{
	char buf[32];

	if (attr(dir, name, buf, sizeof(buf)) <= 0)
		return 0;
	return (unsigned)strtoul(buf, NULL, 10);
}

/* The last path component of a link target ("../../bus/virtio/drivers/virtio_blk"). */
static int link_name(const char *dir, const char *name, char *buf, size_t len)
{
	char p[PATH_MAX], target[PATH_MAX];
	const char *slash;
	ssize_t n;

	if (snprintf(p, sizeof(p), "%s/%s", dir, name) >= (int)sizeof(p))
		return -ENAMETOOLONG;
	n = readlink(p, target, sizeof(target) - 1);
	if (n < 0)
		return -errno;
	target[n] = '\0';
	slash = strrchr(target, '/');
	probe_fmt(buf, len, "%s", slash ? slash + 1 : target);
	return 0;
}

/* Drivers that say less than the one above them: keep looking past them. */
static bool driver_generic(const char *d)
{
	return !strcmp(d, "sd") || !strcmp(d, "sr") || !strcmp(d, "pcieport");
}

/* Sysfs driver names that differ from the module people know. */
static const char *driver_known_as(const char *d)
{
	if (!strcmp(d, "vbd"))
		return "xen_blkfront";	/* xen-blkfront registers its xenbus driver as "vbd" */
	return d;
}

/* Walk from a device's directory up to /sys/devices, noting every driver link. */
static void dev_drivers(const char *root, const char *dir, struct probe_dev *d)
{
	char top[PATH_MAX], cur[PATH_MAX], name[64];
	size_t n, toplen;

	probe_fmt(top, sizeof(top), "%s/sys/devices", root);
	toplen = strlen(top);
	probe_fmt(cur, sizeof(cur), "%s", dir);
	while (strlen(cur) > toplen && !strncmp(cur, top, toplen)) {
		if (link_name(cur, "driver", name, sizeof(name)) == 0) {
			const char *known = driver_known_as(name);

			n = strlen(d->drivers);
			probe_fmt(d->drivers + n, sizeof(d->drivers) - n, "%s%s", n ? " " : "", known);
			if (!d->driver[0] && !driver_generic(known))
				probe_fmt(d->driver, sizeof(d->driver), "%s", known);
		}
		parent_dir(cur);
	}
	if (!d->driver[0] && d->drivers[0])
		probe_fmt(d->driver, sizeof(d->driver), "%.*s", (int)strcspn(d->drivers, " "),
			 d->drivers);
	if (!d->driver[0])	/* virtual devices (loop, zram, nbd): the name says it */
		probe_fmt(d->driver, sizeof(d->driver), "%.*s", (int)strcspn(d->name, "0123456789"),
			 d->name);
}

static void dev_queue(const char *dir, struct probe_dev *d)
{
	char q[PATH_MAX], buf[128];
	char *l, *r;

	d->rotational = -1;
	if (snprintf(q, sizeof(q), "%s/queue", dir) >= (int)sizeof(q) || !exists(dir, "queue"))
		return;
	d->logical_bs = attr_uint(q, "logical_block_size");
	d->physical_bs = attr_uint(q, "physical_block_size");
	d->nr_requests = attr_uint(q, "nr_requests");
	d->max_sectors_kb = attr_uint(q, "max_sectors_kb");
	if (attr(q, "rotational", buf, sizeof(buf)) > 0)
		d->rotational = atoi(buf);
	attr(q, "write_cache", d->write_cache, sizeof(d->write_cache));
	if (attr(q, "scheduler", buf, sizeof(buf)) > 0) {
		l = strchr(buf, '[');
		r = l ? strchr(l, ']') : NULL;
		if (l && r)
			probe_fmt(d->scheduler, sizeof(d->scheduler), "%.*s", (int)(r - l - 1), l + 1);
		else
			probe_fmt(d->scheduler, sizeof(d->scheduler), "%s", buf);
	}
}

/* The first device a dm/md device sits on; count says how many there are. */
static int first_slave(const char *dir, char *next, size_t len, unsigned *count)
{
	char sl[PATH_MAX], p[PATH_MAX], first[256] = "";
	struct dirent *de;
	DIR *dh;

	*count = 0;
	probe_fmt(sl, sizeof(sl), "%s/slaves", dir);
	dh = opendir(sl);
	if (!dh)
		return -errno;
	while ((de = readdir(dh))) {
		if (de->d_name[0] == '.')
			continue;
		if (!*count || strcmp(de->d_name, first) < 0)
			probe_fmt(first, sizeof(first), "%s", de->d_name);
		(*count)++;
	}
	closedir(dh);
	if (!*count)
		return -ENOENT;
	if (snprintf(p, sizeof(p), "%s/%s", sl, first) >= (int)sizeof(p) || !realpath(p, sl))
		return -ENOENT;
	probe_fmt(next, len, "%s", sl);
	return 0;
}

static void dev_stacked(const char *dir, struct probe_dev *d, const char *what, char *next,
			size_t len, bool *more)
{
	char buf[128];
	unsigned count;

	probe_fmt(d->kind, sizeof(d->kind), "%s", what);
	if (!strcmp(what, "dm") && attr(dir, "dm/name", buf, sizeof(buf)) > 0)
		probe_fmt(d->extra, sizeof(d->extra), "name %s", buf);
	else if (!strcmp(what, "md") && attr(dir, "md/level", buf, sizeof(buf)) > 0)
		probe_fmt(d->extra, sizeof(d->extra), "level %s", buf);
	probe_fmt(d->driver, sizeof(d->driver), "%s", !strcmp(what, "dm") ? "device-mapper" : "md");
	*more = first_slave(dir, next, len, &count) == 0;
	if (count > 1) {
		size_t n = strlen(d->extra);

		probe_fmt(d->extra + n, sizeof(d->extra) - n, "%s%u devices below", n ? ", " : "",
			 count);
	}
}

/* "backing /img/file, dio off": a loop device without dio reads its file through the page cache. */
static void dev_loop(const char *dir, struct probe_dev *d)
{
	char file[160] = "", dio[8] = "";

	snprintf(d->kind, sizeof(d->kind), "loop");
	snprintf(d->driver, sizeof(d->driver), "loop");
	attr(dir, "loop/backing_file", file, sizeof(file));
	attr(dir, "loop/dio", dio, sizeof(dio));
	probe_fmt(d->extra, sizeof(d->extra), "backing %s, dio %s", file[0] ? file : "?",
		  !strcmp(dio, "1") ? "on" : !strcmp(dio, "0") ? "off" : "?");
}

/* Describe the device at dir; set next to the one below it, if any. */
static bool dev_fill(const char *root, const char *dir, struct probe_dev *d, char *next,
		     size_t len)
{
	bool more = false;

	memset(d, 0, sizeof(*d));
	probe_fmt(d->name, sizeof(d->name), "%s", strrchr(dir, '/') + 1);
	dev_queue(dir, d);
	if (exists(dir, "partition")) {
		probe_fmt(d->kind, sizeof(d->kind), "partition");
		probe_fmt(next, len, "%s", dir);
		parent_dir(next);
		return true;
	}
	if (exists(dir, "dm")) {
		dev_stacked(dir, d, "dm", next, len, &more);
		return more;
	}
	if (exists(dir, "md")) {
		dev_stacked(dir, d, "md", next, len, &more);
		return more;
	}
	if (exists(dir, "loop")) {
		probe_fmt(d->kind, sizeof(d->kind), "loop");
		probe_fmt(d->driver, sizeof(d->driver), "loop");
		dev_loop(dir, d);
		return false;
	}
	probe_fmt(d->kind, sizeof(d->kind), "%s", strstr(dir, "/devices/virtual/") ? "virtual" : "disk");
	dev_drivers(root, dir, d);
	attr(dir, "device/model", d->model, sizeof(d->model));
	attr(dir, "device/vendor", d->vendor, sizeof(d->vendor));
	return false;
}

/* The sysfs directory of the mount's block device, resolved. */
static int dev_start(const struct probe_env *env, const struct probe_path *p, char *dir,
		     size_t len)
{
	const char *root = probe_root(env);
	char link[PATH_MAX], real[PATH_MAX];
	const char *name;

	if (p->dev_major) {
		probe_fmt(link, sizeof(link), "%s/sys/dev/block/%u:%u", root, p->dev_major,
			 p->dev_minor);
	} else {
		/* No device number (btrfs shows an anonymous one): go by the source's name. */
		if (strncmp(p->mount_source, "/dev/", 5))
			return -ENODEV;
		if (probe_live(env) && realpath(p->mount_source, real))
			name = strrchr(real, '/') + 1;
		else
			name = strrchr(p->mount_source, '/') + 1;
		probe_fmt(link, sizeof(link), "%s/sys/class/block/%s", root, name);
	}
	if (!realpath(link, real))
		return -errno;
	probe_fmt(dir, len, "%s", real);
	return 0;
}

int probe_dev_chain(const struct probe_env *env, struct probe_path *p)
{
	char dir[PATH_MAX], next[PATH_MAX];
	char root[PATH_MAX];
	int ret;

	p->nr_chain = 0;
	ret = dev_start(env, p, dir, sizeof(dir));
	if (ret)
		return ret;
	/* realpath() the root too so the walk can tell where /sys/devices begins. */
	if (!probe_live(env)) {
		if (!realpath(probe_root(env), root))
			return -errno;
	} else {
		root[0] = '\0';
	}
	while (p->nr_chain < PROBE_CHAIN_MAX) {
		struct probe_dev *d = &p->chain[p->nr_chain++];

		if (!dev_fill(root, dir, d, next, sizeof(next)))
			break;
		probe_fmt(dir, sizeof(dir), "%s", next);
	}
	return 0;
}

/*
 * The kernel puts a namespace's generic device ngXnY beside its block device nvmeXnY, under
 * the same parent in sysfs (the controller, or the subsystem for a multipath head).
 */
int probe_nvme_block_of(const char *path, char *blk, size_t len)
{
	char link[64], real[PATH_MAX], attr[PATH_MAX + 80], line[32], node[80];
	unsigned maj, min;
	struct stat st;
	char *base;
	int fd, ret = 0;

	if (stat(path, &st))
		return -errno;
	if (!S_ISCHR(st.st_mode))
		return -ENODEV;
	snprintf(link, sizeof(link), "/sys/dev/char/%u:%u", major(st.st_rdev), minor(st.st_rdev));
	if (!realpath(link, real))
		return -ENODEV;
	base = strrchr(real, '/');
	*base++ = '\0';
	if (strncmp(base, "ng", 2) || !strchr(base + 2, 'n'))
		return -ENODEV;
	snprintf(attr, sizeof(attr), "%s/nvme%s/dev", real, base + 2);
	if (probe_read_abs(attr, line, sizeof(line)) < 0 || sscanf(line, "%u:%u", &maj, &min) != 2)
		return -ENODEV;
	snprintf(node, sizeof(node), "/dev/nvme%s", base + 2);
	fd = open(node, O_RDONLY | O_CLOEXEC | O_PATH);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || !S_ISBLK(st.st_mode) || st.st_rdev != makedev(maj, min))
		ret = -ENODEV;
	close(fd);
	if (!ret)
		probe_fmt(blk, len, "%s", node);
	return ret;
}

#define NVME_ADMIN_GET_LOG_PAGE	0x02
#define NVME_LOG_HEALTH		0x02
#define NVME_LOG_HEALTH_SIZE	512

/* The low 64 bits of the 128-bit little-endian counter at off. */
static uint64_t le64_at(const unsigned char *b, size_t off)
{
	uint64_t v = 0;
	int i;

	for (i = 7; i >= 0; i--)
		v = v << 8 | b[off + (size_t)i];
	return v;
}

void probe_nvme_health(struct probe_path *p)
{
	unsigned char log[NVME_LOG_HEALTH_SIZE] __attribute__((aligned(8)));
	struct nvme_admin_cmd cmd = { 0 };
	int fd, ret;

	if (!p->nr_chain || strcmp(p->chain[p->nr_chain - 1].driver, "nvme"))
		return;
	fd = open(p->resolved, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		probe_fmt(p->nvme_health_why, sizeof(p->nvme_health_why), "open: %s", strerror(errno));
		return;
	}
	memset(log, 0, sizeof(log));
	cmd.opcode = NVME_ADMIN_GET_LOG_PAGE;
	cmd.nsid = 0xffffffffu;		/* the controller as a whole */
	cmd.addr = (uint64_t)(uintptr_t)log;
	cmd.data_len = sizeof(log);
	cmd.cdw10 = (sizeof(log) / 4 - 1) << 16 | NVME_LOG_HEALTH;
	ret = ioctl(fd, NVME_IOCTL_ADMIN_CMD, &cmd);
	if (ret)
		probe_fmt(p->nvme_health_why, sizeof(p->nvme_health_why),
			  "Get Log Page (health): %s", ret < 0 ? strerror(errno) : "NVMe error status");
	close(fd);
	if (ret)
		return;
	/* Health Information: data units read/written at 32 and 48, host commands at 64 and 80 */
	p->nvme_units_read = le64_at(log, 32);
	p->nvme_units_written = le64_at(log, 48);
	p->nvme_host_reads = le64_at(log, 64);
	p->nvme_host_writes = le64_at(log, 80);
	p->nvme_health = true;
}
