/* The common file path: naming a job's files, sizing, laying out, opening, invalidating. */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "io/buffer.h"
#include "io/vhdr.h"
#include "base/stop.h"
#include "base/testhold.h"
#include "io/file.h"
#include "job/target.h"

static int join(char *out, const char *dir, const char *name, struct iop_err *err)
{
	int n;

	if (name[0] == '/' || !dir[0])
		n = snprintf(out, PATH_MAX, "%s", name);
	else
		n = snprintf(out, PATH_MAX, "%s/%s", dir, name);
	if (n >= PATH_MAX)
		return iop_errf(err, -ENAMETOOLONG, "file name too long: %s/%s", dir, name);
	return 0;
}

int file_path(const struct job_spec *job, const char *name, char *out, struct iop_err *err)
{
	return join(out, job->directory, name, err);
}

int file_make_dirs(const char *path)
{
	char dir[PATH_MAX];
	char *p;

	if (snprintf(dir, sizeof(dir), "%s", path) >= (int)sizeof(dir))
		return -ENAMETOOLONG;
	for (p = strchr(dir + 1, '/'); p; p = strchr(p + 1, '/')) {
		*p = '\0';
		if (mkdir(dir, 0700) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	return 0;
}

/*
 * Open path for writing (accmode O_WRONLY or O_RDWR), creating it when it does not exist;
 * a file created here is marked as iopath's own, so re-runs may write it without asking.
 * Returns 0 with *fdp set, or a negative errno with err set.
 */
static int open_or_create(const char *path, int accmode, int *fdp, bool *created,
			  struct iop_err *err)
{
	int fd = open(path, accmode | O_CREAT | O_EXCL | O_CLOEXEC, 0644), ret;

	if (fd < 0 && errno == ENOENT && !file_make_dirs(path))
		fd = open(path, accmode | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	*created = fd >= 0;
	if (fd >= 0) {
		ret = target_mark_created_for_layout(fd, path);
		if (ret) {
			close(fd);
			unlink(path);
			return iop_errf(err, ret, "cannot mark %s as created by iopath: %s", path,
					strerror(-ret));
		}
	} else if (errno == EEXIST) {
		fd = open(path, accmode | O_CLOEXEC);
	}
	if (fd < 0)
		return iop_errf(err, -errno, "cannot create %s: %s", path, strerror(errno));
	*fdp = fd;
	return 0;
}

int file_truncate(const char *path, uint64_t len, struct iop_err *err)
{
	struct stat st;
	bool created;
	int fd, ret = open_or_create(path, O_WRONLY, &fd, &created, err);

	if (ret)
		return ret;
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && ftruncate(fd, (off_t)len))
		ret = iop_errf(err, -errno, "cannot truncate %s to %llu bytes: %s", path,
			       (unsigned long long)len, strerror(errno));
	close(fd);
	return ret;
}

/* A block of path names; a name never spans two. */
#define PATH_BLOCK_SIZE (64u * 1024u)

struct path_block {
	struct path_block *next;
	size_t used;
	char data[PATH_BLOCK_SIZE];
};

int paths_add(struct path_set *s, const char *path)
{
	size_t len = strlen(path) + 1;
	struct path_block *b = s->blocks;

	if (len > PATH_BLOCK_SIZE)
		return -ENAMETOOLONG;
	if (s->nr == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 16;
		char **v = realloc(s->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		s->v = v;
		s->cap = cap;
	}
	if (!b || PATH_BLOCK_SIZE - b->used < len) {
		b = malloc(sizeof(*b));
		if (!b)
			return -ENOMEM;
		b->next = s->blocks;
		b->used = 0;
		s->blocks = b;
	}
	s->v[s->nr++] = memcpy(b->data + b->used, path, len);
	b->used += len;
	return 0;
}

int paths_replace(struct path_set *s, size_t i, const char *path)
{
	int ret = paths_add(s, path);

	if (ret)
		return ret;
	s->v[i] = s->v[--s->nr];
	return 0;
}

void paths_free(struct path_set *s)
{
	struct path_block *b, *next;

	for (b = s->blocks; b; b = next) {
		next = b->next;
		free(b);
	}
	free(s->v);
	memset(s, 0, sizeof(*s));
}

static int add_name(const struct job_spec *job, struct path_set *out, const char *name,
		    struct iop_err *err)
{
	char path[PATH_MAX];
	int ret = join(path, job->directory, name, err);

	if (!ret && paths_add(out, path))
		ret = iop_errf(err, -ENOMEM, "job %s: out of memory for file names", job->name);
	return ret;
}

/*
 * fio's make_filename(): in filename_format, every $jobname, then every $jobnum, $filenum and
 * $clientuid (matched whatever their case) replaced by the job's name, the worker's number,
 * the file's number and the client's name (a rank's under MPI; empty alone).
 */
static int format_name(const struct job_spec *job, unsigned clone, unsigned nr, char *buf,
		       struct iop_err *err)
{
	static const char *const keys[] = { "$jobname", "$jobnum", "$filenum", "$clientuid" };
	char with[32], tmp[PATH_MAX];
	const char *client = fleet_file_suffix(), *val;
	size_t k, at;
	char *hit;
	int n;

	snprintf(buf, PATH_MAX, "%s", job->filename_format);
	for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
		for (at = 0; (hit = strcasestr(buf + at, keys[k]));) {
			if (k == 0)
				val = job->name;
			else if (k == 3)
				val = *client ? client + 1 : "";
			else
				snprintf(with, sizeof(with), "%u", k == 1 ? clone : nr), val = with;
			*hit = '\0';
			n = snprintf(tmp, sizeof(tmp), "%s%s%s", buf, val, hit + strlen(keys[k]));
			if (n < 0 || (size_t)n >= sizeof(tmp))
				return iop_errf(err, -ENAMETOOLONG,
						"job %s: filename_format=%s makes a name longer than %d bytes",
						job->name, job->filename_format, PATH_MAX - 1);
			at = (size_t)(hit - buf) + strlen(val);
			memcpy(buf, tmp, (size_t)n + 1);
		}
	}
	return 0;
}

bool file_names_shared(const struct job_spec *job)
{
	return job->filename[0] ||
	       (job->filename_format[0] && !strcasestr(job->filename_format, "$jobnum"));
}

int file_names(const struct job_spec *job, unsigned clone, struct path_set *out,
	       struct iop_err *err)
{
	char name[PATH_MAX];
	const char *s;
	unsigned nr = 0;
	size_t len = 0;
	int ret;

	if (!job->filename[0]) {
		/* fio's default names: <jobname>.<worker>.<file number>, or filename_format's */
		for (nr = 0; nr < job->nrfiles; nr++) {
			if (job->filename_format[0]) {
				ret = format_name(job, clone, nr, name, err);
				if (ret)
					return ret;
			} else {
				snprintf(name, sizeof(name), "%s.%u.%u%s", job->name, clone, nr,
					 fleet_file_suffix());
			}
			ret = add_name(job, out, name, err);
			if (ret)
				return ret;
		}
		return (int)nr;
	}
	for (s = job->filename;; s++) {
		if (*s == '\\' && s[1] == ':') {
			name[len++] = ':';
			s++;
			continue;
		}
		if (*s == ':' || !*s) {
			name[len] = '\0';
			if (len) {
				if (nr == FILES_MAX)
					return iop_errf(err, -E2BIG,
							"job %s: filename= names more than %u files (iopath's limit per worker)",
							job->name, FILES_MAX);
				ret = add_name(job, out, name, err);
				if (ret)
					return ret;
				nr++;
			}
			len = 0;
			if (!*s)
				break;
			continue;
		}
		name[len++] = *s;
	}
	if (!nr)
		return iop_errf(err, -EINVAL, "job %s: filename '%s' names no file", job->name,
				job->filename);
	return (int)nr;
}

int file_size_fd(int fd, uint64_t *size, bool *is_blockdev)
{
	struct stat st;

	*is_blockdev = false;
	if (fstat(fd, &st))
		return -errno;
	if (S_ISREG(st.st_mode)) {
		*size = (uint64_t)st.st_size;
		return 0;
	}
	if (!S_ISBLK(st.st_mode))
		return S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
	*is_blockdev = true;
	return ioctl(fd, BLKGETSIZE64, size) ? -errno : 0;
}

int file_size(const char *path, uint64_t *size, bool *is_blockdev)
{
	struct stat st;
	int fd, ret = 0;

	*is_blockdev = false;
	if (stat(path, &st))
		return -errno;
	if (S_ISREG(st.st_mode)) {
		*size = (uint64_t)st.st_size;
		return 0;
	}
	if (!S_ISBLK(st.st_mode))
		return S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
	*is_blockdev = true;
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	if (ioctl(fd, BLKGETSIZE64, size))
		ret = -errno;
	close(fd);
	return ret;
}

/* Write [from, end); *done is where the written data ends (from when the fsync failed). */
static int fill_range(const struct job_spec *job, int fd, const char *path, uint64_t from,
		      uint64_t end, uint32_t unit, uint64_t *done, struct iop_err *err)
{
	const size_t chunk = 1u << 20;
	unsigned char *buf = malloc(chunk);
	struct rng r;
	uint64_t off;
	int ret = 0;

	*done = from;
	if (!buf)
		return iop_errf(err, -ENOMEM, "laying out %s: out of memory", path);
	rng_seed(&r, 0x10a7 ^ from);
	buf_fill(job, &r, buf, chunk);
	for (off = from; off < end;) {
		size_t n = end - off < chunk ? (size_t)(end - off) : chunk;
		ssize_t w;

		if (run_stop_requested()) {
			ret = iop_errf(err, -EINTR, "laying out %s: interrupted at offset %llu", path,
				       (unsigned long long)off);
			break;
		}

		if (job->verify.kind != VERIFY_NONE) {
			uint32_t vu = job_verify_unit(job, unit);

			if (job->verify.pattern_len)
				verify_pattern_fill(job, buf, (uint32_t)n, off);
			verify_stamp(job, buf, off, (uint32_t)(n / vu * vu), vu, 0, 0);
		}
		w = pwrite(fd, buf, n, (off_t)off);
		if (w < 0) {
			ret = iop_errf(err, -errno, "laying out %s at offset %llu: %s", path,
				       (unsigned long long)off, strerror(errno));
			break;
		}
		off += (uint64_t)w;
	}
	*done = off;
	if (!ret && job->create_fsync && fsync(fd)) {
		ret = iop_errf(err, -errno, "laying out %s: fsync: %s", path, strerror(errno));
		*done = from;
	}
	free(buf);
	return ret;
}

/*
 * fallocate=: native tries fallocate(2) and carries on without it, as fio does; posix uses
 * posix_fallocate(3); keep allocates without changing the size; none and truncate leave the
 * extension to ftruncate. A failed preallocation is not an error (fio only warns).
 */
static void preallocate(enum fallocate_mode mode, int fd, uint64_t from, uint64_t end)
{
	off_t off = (off_t)from, len = (off_t)(end - from);

	switch (mode) {
	case FALLOC_NATIVE:
		(void)!fallocate(fd, 0, off, len);
		break;
	case FALLOC_POSIX:
		(void)!posix_fallocate(fd, off, len);
		break;
	case FALLOC_KEEP:
		(void)!fallocate(fd, FALLOC_FL_KEEP_SIZE, off, len);
		break;
	case FALLOC_NONE:
	case FALLOC_TRUNCATE:
		break;
	}
}

/*
 * A layout that failed or was interrupted must not leave a file that looks laid out: the
 * preallocation has already set its size, and a later run would read unwritten extents as
 * data. A file created by this layout is removed (with its mark); an existing one goes back
 * to the end of what was written.
 */
static void layout_undo(int fd, const char *path, bool created, uint64_t written)
{
	struct stat a, b;

	/* the name is removed only while it still names the file laid out here */
	if (created && !fstat(fd, &a) && !lstat(path, &b) && a.st_dev == b.st_dev &&
	    a.st_ino == b.st_ino) {
		target_remove(path);
		return;
	}
	/* what was written is whole: the next run carries on from there */
	if (!created && !ftruncate(fd, (off_t)written))
		(void)target_layout_done(fd, path);
}

int file_layout(const struct job_spec *job, const char *path, uint64_t end, bool fill,
		uint32_t unit, struct iop_err *err)
{
	bool created;
	int fd, ret = open_or_create(path, O_RDWR, &fd, &created, err);

	if (ret)
		return ret;
	ret = file_layout_fd(job, fd, path, created, end, fill, unit, err);
	close(fd);
	return ret;
}

int file_layout_fd(const struct job_spec *job, int fd, const char *path, bool created,
		   uint64_t end, bool fill, uint32_t unit, struct iop_err *err)
{
	struct stat st;
	uint64_t have;
	bool mine, redo;
	int ret = 0;

	if (fstat(fd, &st))
		return iop_errf(err, -errno, "%s: %s", path, strerror(errno));
	if (!S_ISREG(st.st_mode))
		return 0;
	mine = created || target_owned_fd(fd, path);
	/* a layout of iopath's cut short (SIGKILL, a crash) is no layout: done again, whole */
	redo = mine && !created && target_layout_incomplete(fd, path) &&
	       !(job_checks_written(job) && target_layout_unwritten(fd));
	have = redo ? 0 : (uint64_t)st.st_size;
	if (have >= end)
		return created ? target_layout_done(fd, path) : 0;
	if (mine && !created) {	/* a file created here was marked so already */
		ret = target_layout_begin(fd, path);
		if (ret)
			return iop_errf(err, ret, "cannot mark the layout of %s as under way: %s", path,
					strerror(-ret));
	}
	if (redo && ftruncate(fd, 0))
		return iop_errf(err, -errno, "cannot lay out %s again: %s", path, strerror(errno));
	preallocate(job->fallocate, fd, have, end);
	if (fill) {
		/*
		 * A test's hold (IOPATH_TEST_HOLD_LAYOUT=P): the file is preallocated, its whole
		 * length, none of its data yet. A test kills iopath there, as a crash would, or
		 * interrupts it.
		 */
		test_hold("IOPATH_TEST_HOLD_LAYOUT", "");
		/* restart at a unit boundary so every unit holds a whole verify header */
		uint64_t from = have / unit * unit, done;

		ret = fill_range(job, fd, path, from, end, unit, &done, err);
		if (ret)
			layout_undo(fd, path, created, done > have ? done : have);
	} else if (ftruncate(fd, (off_t)end)) {
		ret = iop_errf(err, -errno, "cannot extend %s to %llu bytes: %s", path,
			       (unsigned long long)end, strerror(errno));
		layout_undo(fd, path, created, have);
	}
	/* a write job's file holds no data yet: it stays incomplete until written whole */
	if (!ret && mine && (fill || !job_writes_data(job->rw)))
		ret = target_layout_done(fd, path);
	else if (!ret && mine)
		ret = target_layout_unwritten_mark(fd);
	return ret;
}

/* The flags a job's own descriptor for a file is opened with. */
static int job_open_flags(const struct job_spec *job, bool write)
{
	int flags = (write ? O_RDWR : O_RDONLY) | O_CLOEXEC;

	if (job->direct)
		flags |= O_DIRECT;
	return flags | job->sync_flags;	/* sync= (fio applies it to reads and writes alike) */
}

static int open_failed(const struct job_spec *job, const char *path, int e, struct iop_err *err)
{
	if (e == EINVAL && job->direct)
		return iop_errf(err, -e,
				"open %s with O_DIRECT: %s (this filesystem refuses direct I/O; try direct=0)",
				path, strerror(e));
	return iop_errf(err, -e, "open %s: %s", path, strerror(e));
}

bool file_same(int a, int b)
{
	struct stat sa, sb;

	return !fstat(a, &sa) && !fstat(b, &sb) && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino &&
	       sa.st_rdev == sb.st_rdev;
}

int file_reopen_fd(int bound, const char *path, int flags)
{
	char self[64];
	int fd, e;

	snprintf(self, sizeof(self), "/proc/self/fd/%d", bound);
	fd = open(self, flags);
	if (fd >= 0 || errno != ENOENT)
		return fd;
	/* no /proc: the name again, not followed, and only if it is still the checked object */
	fd = open(path, flags | O_NOFOLLOW);
	if (fd < 0)
		return fd;
	if (!file_same(fd, bound)) {
		e = ESTALE;
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

/*
 * As fio's file_open: a device (block or character) is read and written without its access
 * time kept (O_NOATIME: no atime check on every read), a regular file with it; where the
 * kernel refuses it (EPERM: not the device's owner), as fio, without.
 */
static int device_noatime(int fd)
{
	struct stat st;
	int fl;

	if (fd < 0 || fstat(fd, &st) || !(S_ISBLK(st.st_mode) || S_ISCHR(st.st_mode)))
		return fd;
	fl = fcntl(fd, F_GETFL);
	if (fl >= 0 && !(fl & O_NOATIME))
		(void)fcntl(fd, F_SETFL, fl | O_NOATIME);
	return fd;
}

int file_reopen(const struct job_spec *job, int bound, const char *path, bool write,
		struct iop_err *err)
{
	int fd = device_noatime(file_reopen_fd(bound, path, job_open_flags(job, write)));

	if (fd < 0 && errno == ESTALE)
		return iop_errf(err, -ESTALE,
				"open %s: it is no longer the file checked before the run (the name was replaced)",
				path);
	if (fd < 0)
		return open_failed(job, path, errno, err);
	return fd;
}

/* fd, just created at path, marked as iopath's; a file that cannot be marked is removed again. */
static int mark_created(int fd, const char *path, struct iop_err *err)
{
	int ret = target_mark_owned(fd, path);

	if (ret) {
		close(fd);
		unlink(path);
		return iop_errf(err, ret, "cannot mark %s as created by iopath: %s", path,
				strerror(-ret));
	}
	return fd;
}

/* A new file at path, for writing with the job's flags, marked as iopath's; its descriptor. */
static int create_marked(const char *path, int flags, struct iop_err *err)
{
	int fd = open(path, flags | O_CREAT | O_EXCL, 0644);

	if (fd < 0)
		return -errno;
	return mark_created(fd, path, err);
}

int file_create(const struct job_spec *job, const char *path, struct iop_err *err)
{
	int fd = create_marked(path, job_open_flags(job, true), err);

	if (fd < 0 && !err->msg[0])
		return open_failed(job, path, -fd, err);
	return fd;
}

int file_open(const struct job_spec *job, const char *path, bool write, bool foreign_ok,
	      struct iop_err *err)
{
	int flags = job_open_flags(job, write);
	int fd;

	fd = write && job->create_on_open ? open(path, flags | O_CREAT | O_EXCL, 0644) : -1;
	if (fd < 0 && write && job->create_on_open && errno == ENOENT && !file_make_dirs(path))
		fd = open(path, flags | O_CREAT | O_EXCL, 0644);
	if (fd >= 0) /* create_on_open: created here rather than laid out, and iopath's own as well */
		return mark_created(fd, path, err);
	/* create_on_open met an existing file: never through a new link, and only iopath's own */
	fd = device_noatime(open(path, flags | (write && job->create_on_open ? O_NOFOLLOW : 0)));
	if (fd < 0)
		return open_failed(job, path, errno, err);
	if (write && job->create_on_open && !foreign_ok && !target_owned_fd(fd, path)) {
		close(fd);
		return iop_errf(err, -EEXIST,
				"%s exists and was not created by iopath (it appeared after the checks); not written",
				path);
	}
	return fd;
}

int file_remove(const char *path)
{
	struct stat st;

	if (lstat(path, &st))
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -EINVAL;
	return unlink(path) ? -errno : 0;
}

void file_advise(int fd, uint64_t start, uint64_t len, unsigned hint)
{
	/* as fio, a hint the kernel refuses is no reason to stop */
	if (hint == FADV_HINT_RANDOM)
		(void)posix_fadvise(fd, (off_t)start, (off_t)len, POSIX_FADV_RANDOM);
	else if (hint == FADV_HINT_SEQUENTIAL)
		(void)posix_fadvise(fd, (off_t)start, (off_t)len, POSIX_FADV_SEQUENTIAL);
}

int file_invalidate(int fd, uint64_t start, uint64_t len)
{
	int ret = posix_fadvise(fd, (off_t)start, (off_t)len, POSIX_FADV_DONTNEED);

	return -ret;
}
