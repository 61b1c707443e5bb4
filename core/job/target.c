/* What iopath checks about a job's files before it writes: ownership, devices, alignment. */
#include <blkid/blkid.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "base/mark.h"
#include "job/target.h"

#define OWNER_XATTR IOPATH_MARK_XATTR
#define SIDECAR_SUFFIX ".iopath"

int target_policy_option(struct target_policy *pol, const char *key, const char *val,
			 struct iop_err *err)
{
	struct stat st;

	if (!strcmp(key, "readonly")) {
		if (val)
			return iop_errf(err, -EINVAL, "--readonly takes no value (it forbids every write and trim)");
		pol->readonly = true;
		return 1;
	}
	if (!strcmp(key, "allow-fill")) {
		if (val)
			return iop_errf(err, -EINVAL, "--allow-fill takes no value (it lets layouts and writes fill a filesystem past iopath's free-space reserve)");
		pol->allow_fill = true;
		return 1;
	}
	if (!strcmp(key, "allow-overwrite")) {
		if (val)
			return iop_errf(err, -EINVAL,
					"--allow-overwrite takes no value (it allows writing to every existing file the jobs name)");
		pol->allow_overwrite = true;
		return 1;
	}
	if (strcmp(key, "allow-destructive"))
		return 0;
	if (!val || !*val)
		return iop_errf(err, -EINVAL,
				"--allow-destructive needs the block device it allows writing to (--allow-destructive=/dev/sdX)");
	if (stat(val, &st))
		return iop_errf(err, -errno, "--allow-destructive=%s: %s", val, strerror(errno));
	if (!S_ISBLK(st.st_mode))
		return iop_errf(err, -EINVAL,
				"--allow-destructive=%s: not a block device (it names a device whose contents a write job may destroy)",
				val);
	if (pol->nr_destructive == TARGET_DESTRUCTIVE_MAX)
		return iop_errf(err, -E2BIG, "--allow-destructive: at most %d devices",
				TARGET_DESTRUCTIVE_MAX);
	pol->destructive[pol->nr_destructive++] = val;
	return 1;
}

/* path's absolute, resolved name (or, where it cannot be resolved, its directory's + name). */
static bool resolved(const char *path, char *out)
{
	char dir[PATH_MAX], *slash;

	if (realpath(path, out))
		return true;
	if (snprintf(dir, sizeof(dir), "%s", path) >= (int)sizeof(dir))
		return false;
	slash = strrchr(dir, '/');
	if (!slash)
		return getcwd(dir, sizeof(dir)) &&
		       snprintf(out, PATH_MAX, "%s/%s", dir, path) < PATH_MAX;
	*slash = '\0';
	if (!realpath(*dir ? dir : "/", out))
		return false;
	return strlen(out) + strlen(slash + 1) + 2 <= PATH_MAX &&
	       strcat(strcat(out, "/"), slash + 1);
}

bool target_policy_allows_overwrite(const struct target_policy *pol, const char *path)
{
	char want[PATH_MAX], item[PATH_MAX], full[PATH_MAX];
	const char *p, *colon;
	size_t n;

	if (pol->allow_overwrite)
		return true;
	if (!pol->allow_overwrite_paths || !path || !resolved(path, want))
		return false;
	for (p = pol->allow_overwrite_paths; *p; p = *colon ? colon + 1 : colon) {
		colon = strchrnul(p, ':');
		n = (size_t)(colon - p);
		if (!n || n >= sizeof(item))
			continue;
		memcpy(item, p, n);
		item[n] = '\0';
		if (!resolved(item, full))
			continue;
		n = strlen(full);
		if (!strcmp(want, full) ||
		    (!strncmp(want, full, n) && (want[n] == '/' || (n == 1 && full[0] == '/'))))
			return true;
	}
	return false;
}

int target_sidecar_path(const char *path, char *out, size_t len)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	int dirlen = slash ? (int)(slash - path + 1) : 0;
	int n;

	n = snprintf(out, len, "%.*s.%s" SIDECAR_SUFFIX, dirlen, path, base);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

#define SIDECAR_HEAD "This records that iopath created "
#define LAYOUT_XATTR "user.iopath.layout"
#define LAYOUT_PENDING "incomplete"

/*
 * Read the sidecar side into text (NUL-terminated): its length, -ENOENT when there is none,
 * -EPERM when the name holds something that is not iopath's (a user's own .NAME.iopath, a
 * link, a device): iopath never rewrites or removes that.
 */
static ssize_t read_sidecar(const char *side, char *text, size_t len)
{
	struct stat st;
	ssize_t n;
	int fd = open(side, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		return errno == ELOOP ? -EPERM : -errno;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return -EPERM;
	}
	n = read(fd, text, len - 1);
	close(fd);
	if (n < 0)
		return -EPERM;
	text[n] = '\0';
	return strncmp(text, SIDECAR_HEAD, sizeof(SIDECAR_HEAD) - 1) ? -EPERM : n;
}

/* The identity a sidecar records: the inode, its birth time where the kernel has one. */
static void identity_of(int fd, const struct stat *st, char *out, size_t len)
{
	struct statx stx;
	int n = snprintf(out, len, "ino=%llu\n", (unsigned long long)st->st_ino);

	if (!statx(fd, "", AT_EMPTY_PATH, STATX_BTIME, &stx) && (stx.stx_mask & STATX_BTIME))
		snprintf(out + n, len - (size_t)n, "btime=%lld.%09u\n", (long long)stx.stx_btime.tv_sec,
			 stx.stx_btime.tv_nsec);
}

/*
 * Write (or rewrite) path's sidecar for the file open on fd: created exclusively, or
 * replacing only a sidecar of iopath's own. -EEXIST when the name holds a user's file.
 */
/*
 * Where inode numbers are not stable (FUSE, 9p, vboxsf) and there is no birth time, the file
 * as iopath last left it (its mtime and size) is what binds the sidecar to it: iopath records
 * that whenever it has changed the file.
 */
static void state_of(const struct stat *st, char *out, size_t len)
{
	snprintf(out, len, "state=%lld.%09ld:%lld\n", (long long)st->st_mtim.tv_sec,
		 (long)st->st_mtim.tv_nsec, (long long)st->st_size);
}

static int write_sidecar(int fd, const char *path, bool pending)
{
	char side[PATH_MAX], tmp[PATH_MAX + 32], text[PATH_MAX + 256], old[PATH_MAX + 256], id[96];
	char state[96];
	struct stat st;
	ssize_t had;
	int tfd, n, ret = 0;

	ret = target_sidecar_path(path, side, sizeof(side));
	if (ret)
		return ret;
	if (fstat(fd, &st))
		return -errno;
	had = read_sidecar(side, old, sizeof(old));
	if (had == -EPERM)
		return -EEXIST;
	if (had < 0 && had != -ENOENT)
		return (int)had;
	identity_of(fd, &st, id, sizeof(id));
	state_of(&st, state, sizeof(state));
	n = snprintf(text, sizeof(text),
		     SIDECAR_HEAD "%s; iopath may overwrite and remove it.\n%s%s%s", path, id, state,
		     pending ? "layout=" LAYOUT_PENDING "\n" : "");
	/* a new sidecar takes a free name only; an old one of iopath's is replaced whole */
	if (had < 0)
		snprintf(tmp, sizeof(tmp), "%s", side);
	else if (snprintf(tmp, sizeof(tmp), "%s.tmp.%d", side, (int)getpid()) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	tfd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (tfd < 0)
		return errno == EEXIST && had < 0 ? -EEXIST : -errno;
	if (write(tfd, text, (size_t)n) != n)
		ret = errno ? -errno : -EIO;
	if (close(tfd) && !ret)
		ret = -errno;
	if (!ret && had >= 0 && rename(tmp, side))
		ret = -errno;
	if (ret)
		unlink(tmp);
	return ret;
}

static bool has_xattrs(int fd)
{
	char val[64];

	return fgetxattr(fd, OWNER_XATTR, val, sizeof(val)) >= 0 || errno != ENOTSUP;
}

static int mark(int fd, const char *path, bool pending)
{
	if (!iop_mark_fd(fd))
		return pending && fsetxattr(fd, LAYOUT_XATTR, LAYOUT_PENDING,
					    sizeof(LAYOUT_PENDING) - 1, 0) ? -errno : 0;
	/* no user xattrs here (9p, vboxsf, some FUSE, ramfs): a sidecar file records it */
	return write_sidecar(fd, path, pending);
}

int target_mark_owned(int fd, const char *path)
{
	return mark(fd, path, false);
}

int target_mark_created_for_layout(int fd, const char *path)
{
	return mark(fd, path, true);
}

int target_layout_begin(int fd, const char *path)
{
	if (has_xattrs(fd))
		return fsetxattr(fd, LAYOUT_XATTR, LAYOUT_PENDING, sizeof(LAYOUT_PENDING) - 1, 0) ?
		       -errno : 0;
	return write_sidecar(fd, path, true);
}

int target_layout_done(int fd, const char *path)
{
	char side[PATH_MAX], text[PATH_MAX + 256];

	if (has_xattrs(fd))
		return fremovexattr(fd, LAYOUT_XATTR) && errno != ENODATA ? -errno : 0;
	if (target_sidecar_path(path, side, sizeof(side)) ||
	    read_sidecar(side, text, sizeof(text)) < 0 || !strstr(text, "\nlayout=" LAYOUT_PENDING))
		return 0;
	return write_sidecar(fd, path, false);
}

/*
 * A write job's file, laid out and not yet written whole: still incomplete, and known to hold
 * what the writer wrote so far (a verifying reader takes it as it is). Where files have no
 * user xattrs the sidecar keeps only "incomplete", and such a file is laid out again.
 */
#define LAYOUT_UNWRITTEN "unwritten"

int target_layout_unwritten_mark(int fd)
{
	if (!has_xattrs(fd))
		return 0;
	return fsetxattr(fd, LAYOUT_XATTR, LAYOUT_UNWRITTEN, sizeof(LAYOUT_UNWRITTEN) - 1, 0) ?
	       -errno : 0;
}

bool target_layout_unwritten(int fd)
{
	char text[32];
	ssize_t n;

	if (!has_xattrs(fd))
		return false;
	n = fgetxattr(fd, LAYOUT_XATTR, text, sizeof(text) - 1);
	if (n < 0)
		return false;
	text[n] = '\0';
	return !strcmp(text, LAYOUT_UNWRITTEN);
}

bool target_layout_incomplete(int fd, const char *path)
{
	char side[PATH_MAX], text[PATH_MAX + 256];

	if (has_xattrs(fd))
		return fgetxattr(fd, LAYOUT_XATTR, text, sizeof(text)) >= 0;
	return !target_sidecar_path(path, side, sizeof(side)) &&
	       read_sidecar(side, text, sizeof(text)) >= 0 &&
	       strstr(text, "\nlayout=" LAYOUT_PENDING) != NULL;
}

/*
 * Filesystems whose inode numbers are not stable across lookups (FUSE without use_ino, 9p,
 * vboxsf): there the sidecar's presence has to speak for the file, whatever its inode says.
 */
static bool unstable_inodes(const char *path)
{
	static const unsigned long magics[] = {
		0x65735546,	/* FUSE */
		0x01021997,	/* 9p */
		0x786f4256,	/* vboxsf */
	};
	struct statfs sf;
	unsigned i;

	if (statfs(path, &sf))
		return false;
	for (i = 0; i < sizeof(magics) / sizeof(magics[0]); i++)
		if ((unsigned long)sf.f_type == magics[i])
			return true;
	return false;
}

/* Does path's sidecar speak for the file open on fd (its inode, and birth time if recorded)? */
static bool sidecar_says_owned(int fd, const char *path)
{
	char side[PATH_MAX], text[PATH_MAX + 256], id[96], state[96], *at;
	struct stat st;

	if (fstat(fd, &st) || target_sidecar_path(path, side, sizeof(side)) ||
	    read_sidecar(side, text, sizeof(text)) < 0)
		return false;
	identity_of(fd, &st, id, sizeof(id));
	at = strstr(text, "\nino=");
	if (!at)
		return false;
	if (!unstable_inodes(path))
		return !strncmp(at + 1, id, strlen(id));
	/*
	 * The inode number means nothing there (FUSE reuses its node ids): the birth time binds
	 * the sidecar to the file, or else the file as iopath left it.
	 */
	if (strstr(text, "\nbtime="))
		return strstr(id, "btime=") && strstr(text, strstr(id, "btime="));
	state_of(&st, state, sizeof(state));
	return strstr(text, state) != NULL;
}

int target_mark_refresh(int fd, const char *path)
{
	char side[PATH_MAX], text[PATH_MAX + 256];
	struct stat st;

	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || has_xattrs(fd) ||
	    target_sidecar_path(path, side, sizeof(side)) || read_sidecar(side, text, sizeof(text)) < 0)
		return 0;
	return write_sidecar(fd, path, strstr(text, "\nlayout=" LAYOUT_PENDING) != NULL);
}

bool target_owned_fd(int fd, const char *path)
{
	struct stat st;

	if (fstat(fd, &st) || !S_ISREG(st.st_mode))
		return false;
	if (iop_marked_fd(fd))
		return true;
	return sidecar_says_owned(fd, path);
}

bool target_owned(const char *path)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	bool owned;

	if (fd < 0) {
		/* a file iopath may not read (0200, or another user's 0600): ask by name */
		struct stat st;

		if (stat(path, &st) || !S_ISREG(st.st_mode))
			return false;
		return iop_marked_path(path, true);
	}
	owned = target_owned_fd(fd, path);
	close(fd);
	return owned;
}

int target_remove(const char *path)
{
	char side[PATH_MAX], text[PATH_MAX + 256];
	int ret = 0;

	if (unlink(path) && errno != ENOENT)
		ret = -errno;
	/* a .NAME.iopath of the user's own is no sidecar of iopath's: it stays */
	if (!target_sidecar_path(path, side, sizeof(side)) &&
	    read_sidecar(side, text, sizeof(text)) >= 0 && unlink(side) && errno != ENOENT && !ret)
		ret = -errno;
	return ret;
}

/* Where the device dev is mounted, from /proc/self/mountinfo; false when nowhere. */
static bool mounted_at(dev_t dev, char *where, size_t len)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char line[4096], mnt[2048];
	unsigned maj, min;
	bool found = false;

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%*u %*u %u:%u %*s %2047s", &maj, &min, mnt) != 3)
			continue;
		if (makedev(maj, min) == dev) {
			snprintf(where, len, "%s", mnt);
			found = true;
		}
	}
	fclose(f);
	return found;
}

/* A filesystem, partition table, LVM, RAID or swap signature on the device, as blkid names it. */
static int probe_signature(int fd, char *what, size_t len)
{
	blkid_probe pr = blkid_new_probe();
	const char *type = NULL, *usage = NULL;
	int rc;

	if (!pr)
		return -ENOMEM;
	if (blkid_probe_set_device(pr, fd, 0, 0)) {
		blkid_free_probe(pr);
		return -EIO;
	}
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_USAGE);
	blkid_probe_enable_partitions(pr, 1);
	blkid_probe_set_partitions_flags(pr, BLKID_PARTS_MAGIC);
	rc = blkid_do_safeprobe(pr);
	if (rc == 0) {
		if (!blkid_probe_lookup_value(pr, "TYPE", &type, NULL)) {
			blkid_probe_lookup_value(pr, "USAGE", &usage, NULL);
			snprintf(what, len, "%s%s%s", type,
				 usage && strcmp(usage, "other") ? " " : "",
				 usage && strcmp(usage, "other") ? usage : "");
		} else if (!blkid_probe_lookup_value(pr, "PTTYPE", &type, NULL)) {
			snprintf(what, len, "%s partition table", type);
		} else {
			snprintf(what, len, "a signature");
		}
	} else if (rc == -2) {
		snprintf(what, len, "several conflicting signatures");
		rc = 0;
	}
	blkid_free_probe(pr);
	if (rc < 0)
		return -EIO;
	return rc == 0 ? 1 : 0;
}

int target_check_blockdev(const char *path, const struct target_policy *pol, const char *job,
			  struct iop_err *err)
{
	return target_check_blockdev_fd(-1, path, pol, job, err);
}

int target_check_blockdev_fd(int dfd, const char *path, const struct target_policy *pol,
			     const char *job, struct iop_err *err)
{
	char what[256], where[2048];
	struct stat st, allowed;
	unsigned i;
	int fd, ret;

	if (dfd >= 0 ? fstat(dfd, &st) : stat(path, &st))
		return iop_errf(err, -errno, "job %s: %s: %s", job, path, strerror(errno));
	for (i = 0; i < pol->nr_destructive; i++)
		if (!stat(pol->destructive[i], &allowed) && S_ISBLK(allowed.st_mode) &&
		    allowed.st_rdev == st.st_rdev)
			return 0;
	if (mounted_at(st.st_rdev, where, sizeof(where)))
		return iop_errf(err, -EBUSY,
				"job %s: %s is mounted on %s; iopath will not write to it (read-only jobs are fine; --allow-destructive=%s overrides)",
				job, path, where, path);
	/*
	 * An exclusive open fails while a filesystem, swap, LVM, MD or a partition holds it; a
	 * descriptor given here was opened so (and holds the device until the job ends).
	 */
	fd = dfd >= 0 ? dup(dfd) : open(path, O_RDONLY | O_EXCL | O_CLOEXEC);
	if (fd < 0 && errno == EBUSY)
		return iop_errf(err, -EBUSY,
				"job %s: %s is in use (mounted, active swap, or held by LVM, RAID or device-mapper); iopath will not write to it (--allow-destructive=%s overrides)",
				job, path, path);
	if (fd < 0)
		return iop_errf(err, -errno, "job %s: %s: %s", job, path, strerror(errno));
	ret = probe_signature(fd, what, sizeof(what));
	close(fd);
	if (ret < 0)
		return iop_errf(err, ret,
				"job %s: %s: cannot read it to look for a filesystem or partition table: %s",
				job, path, strerror(-ret));
	if (ret)
		return iop_errf(err, -EEXIST,
				"job %s: %s holds data (blkid finds: %s); a write job would destroy it (read-only jobs are fine; --allow-destructive=%s overrides)",
				job, path, what, path);
	return 0;
}

/* One number of the block device's queue in sysfs (a partition's: its disk's); 0 when absent. */
static uint32_t sysfs_queue_u32(dev_t dev, const char *name)
{
	char p[160], num[32];
	unsigned long v = 0;
	FILE *f;

	snprintf(p, sizeof(p), "/sys/dev/block/%u:%u/queue/%s", major(dev), minor(dev), name);
	f = fopen(p, "re");
	if (!f) {
		snprintf(p, sizeof(p), "/sys/dev/block/%u:%u/../queue/%s", major(dev), minor(dev),
			 name);
		f = fopen(p, "re");
	}
	if (!f)
		return 0;
	if (fgets(num, sizeof(num), f))
		v = strtoul(num, NULL, 10);
	fclose(f);
	return v <= UINT32_MAX ? (uint32_t)v : 0;
}

static uint32_t sysfs_lbs(dev_t dev, char *source, size_t len)
{
	char p[128], link[PATH_MAX];
	uint32_t v = sysfs_queue_u32(dev, "logical_block_size");
	const char *name;
	ssize_t n;

	if (!v)
		return 0;
	snprintf(p, sizeof(p), "/sys/dev/block/%u:%u", major(dev), minor(dev));
	n = readlink(p, link, sizeof(link) - 1);
	link[n > 0 ? n : 0] = '\0';
	name = strrchr(link, '/') ? strrchr(link, '/') + 1 : p + 15;
	snprintf(source, len, "the logical block size of %s", name);
	return v <= (1u << 20) ? v : 0;
}

uint32_t target_dio_align(const char *path, bool exists, char *source, size_t len)
{
	char dir[PATH_MAX];
	struct statx stx;
	struct stat st;
	int fd, lbs;

	source[0] = '\0';
	if (exists && !statx(AT_FDCWD, path, 0, STATX_TYPE | STATX_DIOALIGN, &stx) &&
	    (stx.stx_mask & STATX_DIOALIGN) && stx.stx_dio_offset_align) {
		snprintf(source, len, "as statx reports for it");
		return stx.stx_dio_offset_align;
	}
	if (exists && !stat(path, &st) && S_ISBLK(st.st_mode)) {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return 0;
		if (ioctl(fd, BLKSSZGET, &lbs) || lbs <= 0)
			lbs = 0;
		close(fd);
		snprintf(source, len, "its logical block size");
		return (uint32_t)lbs;
	}
	if (!exists) {
		snprintf(dir, sizeof(dir), "%s", path);
		path = dirname(dir);
	}
	if (stat(path, &st) || major(st.st_dev) == 0)
		return 0;
	return sysfs_lbs(st.st_dev, source, len);
}

/*
 * struct statx's atomic write fields (Linux 6.11), at their fixed offsets: older C libraries'
 * struct statx keeps them as padding of the same 256 bytes.
 */
#define STATX_WRITE_ATOMIC_MASK 0x00010000u
#define STATX_ATTR_WRITE_ATOMIC_BIT 0x00400000u
#define STATX_ATOMIC_UNIT_MIN_AT 168
#define STATX_ATOMIC_UNIT_MAX_AT 172
#define STATX_ATOMIC_SEGMENTS_MAX_AT 176

static uint32_t statx_u32(const struct statx *stx, size_t at)
{
	uint32_t v;

	memcpy(&v, (const unsigned char *)stx + at, sizeof(v));
	return v;
}

int target_atomic_limits(int fd, struct atomic_limits *out)
{
	struct statx stx;

	_Static_assert(sizeof(struct statx) >= STATX_ATOMIC_SEGMENTS_MAX_AT + 4,
		       "struct statx holds the atomic write fields");
	memset(out, 0, sizeof(*out));
	memset(&stx, 0, sizeof(stx));
	if (statx(fd, "", AT_EMPTY_PATH, STATX_TYPE | STATX_WRITE_ATOMIC_MASK, &stx))
		return -errno;
	out->source = "statx";
	if ((stx.stx_mask & STATX_WRITE_ATOMIC_MASK) &&
	    (stx.stx_attributes & STATX_ATTR_WRITE_ATOMIC_BIT)) {
		out->unit_min = statx_u32(&stx, STATX_ATOMIC_UNIT_MIN_AT);
		out->unit_max = statx_u32(&stx, STATX_ATOMIC_UNIT_MAX_AT);
		out->segments_max = statx_u32(&stx, STATX_ATOMIC_SEGMENTS_MAX_AT);
	} else if (S_ISBLK(stx.stx_mode) && !(stx.stx_mask & STATX_WRITE_ATOMIC_MASK)) {
		/* a kernel whose statx does not answer for devices: the queue's own limits */
		dev_t dev = makedev(stx.stx_rdev_major, stx.stx_rdev_minor);

		out->unit_max = sysfs_queue_u32(dev, "atomic_write_unit_max_bytes");
		if (out->unit_max) {
			out->unit_min = sysfs_queue_u32(dev, "atomic_write_unit_min_bytes");
			out->segments_max = 1;
			out->source = "sysfs";
		}
	}
	if (!out->unit_min || out->unit_max < out->unit_min)
		out->unit_min = out->unit_max = out->segments_max = 0;
	return 0;
}
