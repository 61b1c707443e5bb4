/*
 * faultfs: a FUSE view of a directory that fails or slows I/O on demand, for iopath's fault
 * tests (device-mapper's dm-error is not available everywhere; FUSE is).
 *
 *   faultfs [--eio-read-after=N] [--eio-write-after=N] [--errno=E] [--fail-every=K]
 *           [--corrupt-read-after=N] [--delay-ms=N] [--fsync-delay-ms=N] [--parallel]
 *           [--stall-read-after=N --stall-ms=M] BACKING MOUNTPOINT
 *
 * After N successful reads (writes), every further read (write) of a regular file fails with
 * EIO, or with errno E (a number); with --fail-every=K only every Kth of them fails (the first
 * one included) and the others succeed. --corrupt-read-after=N: reads after the first N
 * return their data with the first byte inverted. --delay-ms sleeps before every read and
 * write, --fsync-delay-ms before every fsync and fdatasync. --stall-read-after=N with
 * --stall-ms=M: the read after the first N sleeps M ms, once (one slow I/O in a run of fast
 * ones: the stall a rate-limited job issues late behind). Every open is direct_io, so each
 * read and write of the test reaches this process, and it serves one request at a time (a
 * single thread): with a delay, a path whose requests are serialized by construction.
 * --parallel serves them from as many threads as libfuse starts (it starts one per waiting
 * request, up to its limit of about ten): with a delay, a path whose IOPS grow with the depth
 * by construction, whatever else runs on the machine; it takes no counting option (their
 * counters belong to one thread). Files have no extended attributes;
 * fallocate is passed through to the backing file.
 * Returns once mounted (it daemonizes); unmount with umount or fusermount3 -u.
 */
#define _GNU_SOURCE
#define FUSE_USE_VERSION 35
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fuse.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

static char backing[PATH_MAX];
static long eio_read_after = -1, eio_write_after = -1, delay_ms, fail_errno = EIO, fail_every = 1;
static long fsync_delay_ms, stall_read_after = -1, stall_ms;
static bool parallel;
static long nr_reads, nr_writes, past_reads, past_writes, corrupt_read_after = -1;

/* Does this read (write) fail? done: the successful ones so far, past: those after N. */
static bool fails(long done, long after, long *past)
{
	if (after < 0 || done < after)
		return false;
	return (*past)++ % fail_every == 0;
}

static void real(char *out, const char *path)
{
	snprintf(out, PATH_MAX, "%s%s", backing, path);
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	if (ms)
		nanosleep(&ts, NULL);
}

static void delay(void)
{
	sleep_ms(delay_ms);
}

static int ff_getattr(const char *path, struct stat *st, struct fuse_file_info *fi)
{
	char p[PATH_MAX];

	if (fi)
		return fstat((int)fi->fh, st) ? -errno : 0;
	real(p, path);
	return lstat(p, st) ? -errno : 0;
}

static int ff_access(const char *path, int mask)
{
	char p[PATH_MAX];

	real(p, path);
	return access(p, mask) ? -errno : 0;
}

static int ff_readdir(const char *path, void *buf, fuse_fill_dir_t fill, off_t off,
		      struct fuse_file_info *fi, enum fuse_readdir_flags flags)
{
	char p[PATH_MAX];
	struct dirent *de;
	DIR *d;

	(void)off, (void)fi, (void)flags;
	real(p, path);
	d = opendir(p);
	if (!d)
		return -errno;
	while ((de = readdir(d)))
		if (fill(buf, de->d_name, NULL, 0, 0))
			break;
	closedir(d);
	return 0;
}

static int ff_open(const char *path, struct fuse_file_info *fi)
{
	char p[PATH_MAX];
	int fd;

	real(p, path);
	fd = open(p, fi->flags & ~O_DIRECT);
	if (fd < 0)
		return -errno;
	fi->fh = (uint64_t)fd;
	fi->direct_io = 1;
	return 0;
}

static int ff_create(const char *path, mode_t mode, struct fuse_file_info *fi)
{
	char p[PATH_MAX];
	int fd;

	real(p, path);
	fd = open(p, (fi->flags & ~O_DIRECT) | O_CREAT, mode);
	if (fd < 0)
		return -errno;
	fi->fh = (uint64_t)fd;
	fi->direct_io = 1;
	return 0;
}

static int ff_read(const char *path, char *buf, size_t size, off_t off, struct fuse_file_info *fi)
{
	ssize_t n;

	(void)path;
	delay();
	if (nr_reads == stall_read_after)
		sleep_ms(stall_ms);
	if (fails(nr_reads, eio_read_after, &past_reads))
		return -(int)fail_errno;
	n = pread((int)fi->fh, buf, size, off);
	if (n < 0)
		return -errno;
	if (corrupt_read_after >= 0 && nr_reads >= corrupt_read_after && n > 0)
		buf[0] = (char)~buf[0];
	nr_reads++;
	return (int)n;
}

static int ff_write(const char *path, const char *buf, size_t size, off_t off,
		    struct fuse_file_info *fi)
{
	ssize_t n;

	(void)path;
	delay();
	if (fails(nr_writes, eio_write_after, &past_writes))
		return -(int)fail_errno;
	n = pwrite((int)fi->fh, buf, size, off);
	if (n < 0)
		return -errno;
	nr_writes++;
	return (int)n;
}

static int ff_release(const char *path, struct fuse_file_info *fi)
{
	(void)path;
	close((int)fi->fh);
	return 0;
}

static int ff_fsync(const char *path, int datasync, struct fuse_file_info *fi)
{
	(void)path;
	sleep_ms(fsync_delay_ms);
	return (datasync ? fdatasync((int)fi->fh) : fsync((int)fi->fh)) ? -errno : 0;
}

static int ff_truncate(const char *path, off_t size, struct fuse_file_info *fi)
{
	char p[PATH_MAX];

	if (fi)
		return ftruncate((int)fi->fh, size) ? -errno : 0;
	real(p, path);
	return truncate(p, size) ? -errno : 0;
}

/* Passed through, so a layout's preallocation sets the size as it does on a local disk. */
static int ff_fallocate(const char *path, int mode, off_t off, off_t len,
			struct fuse_file_info *fi)
{
	(void)path;
	if (!fi)
		return -EOPNOTSUPP;
	return fallocate((int)fi->fh, mode, off, len) ? -errno : 0;
}

static int ff_unlink(const char *path)
{
	char p[PATH_MAX];

	real(p, path);
	return unlink(p) ? -errno : 0;
}

static int ff_mkdir(const char *path, mode_t mode)
{
	char p[PATH_MAX];

	real(p, path);
	return mkdir(p, mode) ? -errno : 0;
}

static int ff_rmdir(const char *path)
{
	char p[PATH_MAX];

	real(p, path);
	return rmdir(p) ? -errno : 0;
}

static int ff_rename(const char *from, const char *to, unsigned flags)
{
	char a[PATH_MAX], b[PATH_MAX];

	if (flags)
		return -EINVAL;
	real(a, from);
	real(b, to);
	return rename(a, b) ? -errno : 0;
}

static int ff_statfs(const char *path, struct statvfs *st)
{
	char p[PATH_MAX];

	real(p, path);
	return statvfs(p, st) ? -errno : 0;
}

static int ff_utimens(const char *path, const struct timespec tv[2], struct fuse_file_info *fi)
{
	char p[PATH_MAX];

	(void)fi;
	real(p, path);
	return utimensat(AT_FDCWD, p, tv, AT_SYMLINK_NOFOLLOW) ? -errno : 0;
}

static void *ff_init(struct fuse_conn_info *conn, struct fuse_config *cfg)
{
	(void)conn;
	cfg->direct_io = 1;
	cfg->entry_timeout = 0;
	cfg->attr_timeout = 0;
	cfg->negative_timeout = 0;
	return NULL;
}

static const struct fuse_operations ops = {
	.init = ff_init,
	.getattr = ff_getattr,
	.access = ff_access,
	.readdir = ff_readdir,
	.open = ff_open,
	.create = ff_create,
	.read = ff_read,
	.write = ff_write,
	.release = ff_release,
	.fsync = ff_fsync,
	.truncate = ff_truncate,
	.fallocate = ff_fallocate,
	.unlink = ff_unlink,
	.mkdir = ff_mkdir,
	.rmdir = ff_rmdir,
	.rename = ff_rename,
	.statfs = ff_statfs,
	.utimens = ff_utimens,
};

#define USAGE "usage: faultfs [--eio-read-after=N] [--eio-write-after=N] [--errno=E] [--fail-every=K] " \
	"[--corrupt-read-after=N] [--delay-ms=N] [--fsync-delay-ms=N] [--parallel] " \
	"[--stall-read-after=N --stall-ms=M] BACKING MOUNTPOINT"

static void help(void)
{
	printf("%s\n"
	       "  Mounts at MOUNTPOINT a view of the directory BACKING whose I/O fails or slows on demand:\n"
	       "  --eio-read-after=N, --eio-write-after=N  after N good reads (writes) every further one fails\n"
	       "  --errno=E                                 ... with errno E (a number) instead of EIO\n"
	       "  --fail-every=K                            ... only every Kth of them (the first included)\n"
	       "  --corrupt-read-after=N                    reads after the first N get their first byte inverted\n"
	       "  --delay-ms=N, --fsync-delay-ms=N          sleep N ms before every read and write (fsync)\n"
	       "  --stall-read-after=N --stall-ms=M         the read after the first N sleeps M ms, once\n"
	       "  --parallel                                serve requests from up to about ten threads\n"
	       "                                            (with a delay: IOPS grow with depth; no counting option)\n"
	       "  One request at a time unless --parallel, every open direct_io. Returns once mounted; unmount with umount\n"
	       "  MOUNTPOINT (root) or fusermount3 -u MOUNTPOINT.\n", USAGE);
}

int main(int argc, char **argv)
{
	char *fargv[8];
	int i, fargc = 0;

	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		help();
		return 0;
	}
	for (i = 1; i < argc && !strncmp(argv[i], "--", 2); i++) {
		if (!strncmp(argv[i], "--eio-read-after=", 17))
			eio_read_after = atol(argv[i] + 17);
		else if (!strncmp(argv[i], "--eio-write-after=", 18))
			eio_write_after = atol(argv[i] + 18);
		else if (!strncmp(argv[i], "--delay-ms=", 11))
			delay_ms = atol(argv[i] + 11);
		else if (!strncmp(argv[i], "--fsync-delay-ms=", 17))
			fsync_delay_ms = atol(argv[i] + 17);
		else if (!strncmp(argv[i], "--errno=", 8))
			fail_errno = atol(argv[i] + 8);
		else if (!strncmp(argv[i], "--fail-every=", 13))
			fail_every = atol(argv[i] + 13);
		else if (!strncmp(argv[i], "--corrupt-read-after=", 21))
			corrupt_read_after = atol(argv[i] + 21);
		else if (!strcmp(argv[i], "--parallel"))
			parallel = true;
		else if (!strncmp(argv[i], "--stall-read-after=", 19))
			stall_read_after = atol(argv[i] + 19);
		else if (!strncmp(argv[i], "--stall-ms=", 11))
			stall_ms = atol(argv[i] + 11);
		else {
			fprintf(stderr, "faultfs: unknown option '%s' (faultfs --help lists them)\n", argv[i]);
			return 2;
		}
	}
	if (parallel && (eio_read_after >= 0 || eio_write_after >= 0 || corrupt_read_after >= 0 ||
			 stall_read_after >= 0)) {
		fprintf(stderr, "faultfs: --parallel takes only --delay-ms and --fsync-delay-ms\n");
		return 2;
	}
	if (fail_errno <= 0 || fail_every <= 0) {
		fprintf(stderr, "faultfs: --errno and --fail-every take a number from 1\n");
		return 2;
	}
	if (argc - i != 2 || !realpath(argv[i], backing)) {
		fprintf(stderr, "%s\n", USAGE);
		return 2;
	}
	fargv[fargc++] = argv[0];
	if (!parallel)
		fargv[fargc++] = (char *)"-s";
	fargv[fargc++] = (char *)"-o";
	fargv[fargc++] = (char *)"fsname=faultfs";
	fargv[fargc++] = argv[i + 1];
	fargv[fargc] = NULL;
	return fuse_main(fargc, fargv, &ops, NULL);
}
