/* Result files replaced atomically: a temporary next to them, fsync, rename. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <dirent.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "base/atomic.h"
#include "base/tempfiles.h"
#include "base/testhold.h"

static bool overwrite_allowed;

void atomic_allow_overwrite(bool allow)
{
	overwrite_allowed = allow;
}

static void dir_of(const char *path, char *dir, size_t len)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		snprintf(dir, len, ".");
	else
		snprintf(dir, len, "%.*s", slash == path ? 1 : (int)(slash - path), path);
}

/*
 * The process's own streams and the null device: -1 for /dev/null (opened), else the
 * descriptor the name stands for (duplicated, so a shell's >> keeps appending).
 */
static bool stream_name(const char *path, int *fdno)
{
	const char *n = NULL;
	char *end;
	long v;

	if (!strcmp(path, "/dev/null")) {
		*fdno = -1;
		return true;
	}
	if (!strcmp(path, "-") || !strcmp(path, "/dev/stdout")) {
		*fdno = 1;
		return true;
	}
	if (!strcmp(path, "/dev/stderr")) {
		*fdno = 2;
		return true;
	}
	if (!strncmp(path, "/dev/fd/", 8))
		n = path + 8;
	else if (!strncmp(path, "/proc/self/fd/", 14))
		n = path + 14;
	if (!n || *n < '0' || *n > '9')
		return false;
	v = strtol(n, &end, 10);
	if (*end || v < 0 || v > INT_MAX)
		return false;
	*fdno = (int)v;
	return true;
}

enum out_kind { OUT_NEW, OUT_REPLACE, OUT_STREAM, OUT_FIFO };

static bool marked(const char *path)
{
	return iop_marked_path(path, false);
}

static bool marked_fd(int fd)
{
	return iop_marked_fd(fd);
}

static const char *const only_files =
	"iopath writes outputs only to regular files (or -, /dev/stdout, /dev/null, a FIFO)";

/* What writing path would do: 0 with its kind, or -errno with the reason in err. */
static int classify(const char *opt, const char *path, enum out_kind *kind, struct iop_err *err)
{
	struct stat st;
	int fdno;

	if (stream_name(path, &fdno)) {
		*kind = OUT_STREAM;
		if (fdno >= 0 && fstat(fdno, &st))
			return iop_errf(err, -errno, "%s=%s: %s", opt, path, strerror(errno));
		if (fdno >= 0 && S_ISBLK(st.st_mode))
			return iop_errf(err, -EPERM, "%s=%s: that descriptor is a block device; %s",
					opt, path, only_files);
		return 0;
	}
	if (lstat(path, &st)) {
		if (errno != ENOENT)
			return iop_errf(err, -errno, "%s=%s: %s", opt, path, strerror(errno));
		*kind = OUT_NEW;
		return 0;
	}
	if (S_ISLNK(st.st_mode))
		return iop_errf(err, -ELOOP,
				"%s=%s is a symbolic link; iopath does not write through links it did not create (give the file it names)",
				opt, path);
	if (S_ISBLK(st.st_mode) || S_ISCHR(st.st_mode))
		return iop_errf(err, -EPERM, "%s=%s is a %s device; %s, never onto a device", opt,
				path, S_ISBLK(st.st_mode) ? "block" : "character", only_files);
	if (S_ISDIR(st.st_mode))
		return iop_errf(err, -EISDIR, "%s=%s is a directory; give a file name", opt, path);
	if (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)) {
		*kind = OUT_FIFO;
		return 0;
	}
	if (!S_ISREG(st.st_mode))
		return iop_errf(err, -EPERM, "%s=%s is not a regular file; %s", opt, path,
				only_files);
	if (st.st_size && !marked(path) && !overwrite_allowed)
		return iop_errf(err, -EEXIST,
				"%s=%s exists and was not written by iopath; iopath does not replace it (remove it or name another file; --allow-overwrite allows it)",
				opt, path);
	*kind = OUT_REPLACE;
	return 0;
}

int atomic_check_as(const char *opt, const char *path, struct iop_err *err)
{
	char dir[PATH_MAX];
	enum out_kind kind;
	struct stat st;
	int ret;

	if (!path[0])
		return iop_errf(err, -EINVAL, "%s needs a file name", opt);
	if (strlen(path) >= PATH_MAX - 32)
		return iop_errf(err, -ENAMETOOLONG, "%s: file name longer than %d bytes", opt,
				PATH_MAX - 32);
	ret = classify(opt, path, &kind, err);
	if (ret || kind == OUT_STREAM || kind == OUT_FIFO)
		return ret;
	dir_of(path, dir, sizeof(dir));
	if (stat(dir, &st))
		return iop_errf(err, -errno, "%s=%s: directory %s: %s", opt, path, dir,
				strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return iop_errf(err, -ENOTDIR, "%s=%s: %s is not a directory", opt, path, dir);
	if (faccessat(AT_FDCWD, dir, W_OK | X_OK, AT_EACCESS))
		return iop_errf(err, -errno, "%s=%s: cannot create files in %s: %s", opt, path, dir,
				strerror(errno));
	return 0;
}

int atomic_check(const char *path, struct iop_err *err)
{
	return atomic_check_as("--output", path, err);
}

static int open_stream(struct atomic_file *a, const char *path, enum out_kind kind)
{
	struct stat st;
	int fdno, fd;

	if (kind == OUT_STREAM && stream_name(path, &fdno) && fdno >= 0)
		fd = fcntl(fdno, F_DUPFD_CLOEXEC, 3);
	else
		fd = open(path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* what was opened, not what the name said a moment ago */
	if (fstat(fd, &st) || S_ISBLK(st.st_mode) ||
	    (S_ISCHR(st.st_mode) && kind != OUT_STREAM) || S_ISDIR(st.st_mode)) {
		close(fd);
		return -EPERM;
	}
	a->direct = true;
	a->f = fdopen(fd, "w");
	if (!a->f) {
		close(fd);
		return -errno;
	}
	return 0;
}

/* What a temporary records about its writer: the host and the process, "HOST:PID". */
#define TMP_XATTR "user.iopath.tmp"

static void tmp_owner(char *out, size_t len)
{
	char host[256] = "";

	gethostname(host, sizeof(host) - 1);
	snprintf(out, len, "%s:%d", host, (int)getpid());
}

/*
 * A SIGKILL (or a crash) between a temporary's creation and its rename leaves path.tmp.PID
 * behind. Such a temporary of a writer on this host that no longer runs is removed when path
 * is written again; one without the record (not iopath's), of another host (a shared
 * directory) or of a live process is left alone.
 */
static void remove_stale_temporaries(const char *path)
{
	const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
	char dir[PATH_MAX], name[PATH_MAX + 256], rec[300], mine[300], *colon, *end;
	size_t blen = strlen(base);
	struct dirent *de;
	DIR *d;

	dir_of(path, dir, sizeof(dir));
	d = opendir(dir);
	if (!d)
		return;
	tmp_owner(mine, sizeof(mine));
	*strrchr(mine, ':') = '\0';
	while ((de = readdir(d))) {
		ssize_t n;
		long pid;

		if (strncmp(de->d_name, base, blen) || strncmp(de->d_name + blen, ".tmp.", 5))
			continue;
		pid = strtol(de->d_name + blen + 5, &end, 10);
		if (*end || pid <= 0 || pid == getpid())
			continue;
		snprintf(name, sizeof(name), "%s/%s", dir, de->d_name);
		n = lgetxattr(name, TMP_XATTR, rec, sizeof(rec) - 1);
		if (n <= 0)
			continue;
		rec[n] = '\0';
		colon = strrchr(rec, ':');
		if (!colon || strtol(colon + 1, NULL, 10) != pid)
			continue;
		*colon = '\0';
		if (!strcmp(rec, mine) && kill((pid_t)pid, 0) && errno == ESRCH)
			unlink(name);
	}
	closedir(d);
}

int atomic_open(struct atomic_file *a, const char *path)
{
	char owner[300];
	enum out_kind kind;
	struct iop_err e;
	int fd, ret;

	memset(a, 0, sizeof(*a));
	ret = classify("output", path, &kind, &e);
	if (ret)
		return ret;
	if (snprintf(a->path, sizeof(a->path), "%s", path) >= (int)sizeof(a->path))
		return -ENAMETOOLONG;
	if (kind == OUT_STREAM || kind == OUT_FIFO)
		return open_stream(a, path, kind);
	if (snprintf(a->tmp, sizeof(a->tmp), "%s.tmp.%d", path, (int)getpid()) >= (int)sizeof(a->tmp))
		return -ENAMETOOLONG;
	remove_stale_temporaries(path);
	fd = open(a->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	/* registered only once it is ours: an interrupt must never remove someone else's file */
	tempfiles_register(a->tmp);
	tmp_owner(owner, sizeof(owner));
	(void)fsetxattr(fd, TMP_XATTR, owner, strlen(owner), 0);
	a->f = fdopen(fd, "w");
	if (!a->f) {
		ret = -errno;
		close(fd);
		atomic_abort(a);
		return ret;
	}
	return 0;
}

static void sync_dir(const char *path)
{
	char dir[PATH_MAX];
	int fd;

	dir_of(path, dir, sizeof(dir));
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
}

static void mark_fd(int fd)
{
	/* a filesystem without user xattrs leaves it unmarked: a later run asks before replacing */
	(void)iop_mark_fd(fd);
}

/*
 * Move tmp to path only if path is still free. Filesystems without RENAME_NOREPLACE (9p,
 * some FUSE and network filesystems answer EINVAL) get link()+unlink(), which fails with
 * EEXIST just as atomically; where hard links are refused too (vboxsf, FAT), the name is
 * looked at once more right before a plain rename: the only window left is that last step.
 */
static int place_noreplace(const char *tmp, const char *path)
{
	struct stat st;

	if (!renameat2(AT_FDCWD, tmp, AT_FDCWD, path, RENAME_NOREPLACE))
		return 0;
	if (errno != EINVAL && errno != ENOSYS && errno != EOPNOTSUPP)
		return -errno;
	if (!link(tmp, path)) {
		(void)unlink(tmp);
		return 0;
	}
	if (errno != EPERM && errno != EOPNOTSUPP && errno != ENOSYS && errno != EMLINK)
		return -errno;
	if (!lstat(path, &st))
		return -EEXIST;
	if (errno != ENOENT)
		return -errno;
	return rename(tmp, path) ? -errno : 0;
}

/*
 * Replace path, a file of iopath's (or empty, or allowed) a moment ago, with tmp. The file is
 * checked on its descriptor, then exchanged with tmp (RENAME_EXCHANGE) and what came out is
 * checked to be the inode that was checked: a name swapped for someone else's file in
 * between is put back as it was, and -EEXIST. Where the filesystem cannot exchange names, a
 * plain rename after the check on the descriptor: the only window left is that last step.
 */
static int place_replace(const char *tmp, const char *path)
{
	struct stat before, after;
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		return errno == ENOENT ? place_noreplace(tmp, path) : -errno;
	if (fstat(fd, &before) || !S_ISREG(before.st_mode)) {
		close(fd);
		return -EPERM;
	}
	if (before.st_size && !marked_fd(fd) && !overwrite_allowed) {
		close(fd);
		return -EEXIST;
	}
	close(fd);
	test_hold("IOPATH_TEST_HOLD_REPLACE", "");
	if (renameat2(AT_FDCWD, tmp, AT_FDCWD, path, RENAME_EXCHANGE)) {
		if (errno != EINVAL && errno != ENOSYS && errno != EOPNOTSUPP)
			return -errno;
		return rename(tmp, path) ? -errno : 0;
	}
	if (lstat(tmp, &after) || after.st_dev != before.st_dev || after.st_ino != before.st_ino) {
		/* not the file checked: back where it was, and tmp is ours again */
		(void)renameat2(AT_FDCWD, tmp, AT_FDCWD, path, RENAME_EXCHANGE);
		return -EEXIST;
	}
	(void)unlink(tmp);
	return 0;
}

int atomic_place(const char *tmp, const char *path, bool exclusive)
{
	enum out_kind kind;
	struct iop_err e;
	int ret = classify("output", path, &kind, &e);

	if (ret)
		return ret;
	if (kind == OUT_STREAM || kind == OUT_FIFO)
		return -EPERM;	/* a FIFO appeared where a file was to go: leave it be */
	if (kind == OUT_NEW || exclusive) {
		/* nothing there a moment ago: and nothing that appeared since is replaced */
		return place_noreplace(tmp, path);
	}
	return place_replace(tmp, path);
}

int atomic_seal(struct atomic_file *a)
{
	int ret = 0;

	if (a->direct || !a->f)
		return 0;
	if (fflush(a->f) || ferror(a->f))
		ret = errno ? -errno : -EIO;
	if (!ret && fsync(fileno(a->f)))
		ret = -errno;
	if (!ret) {
		mark_fd(fileno(a->f));
		(void)fremovexattr(fileno(a->f), TMP_XATTR);	/* no temporary any more */
	}
	if (fclose(a->f) && !ret)
		ret = errno ? -errno : -EIO;
	a->f = NULL;
	if (ret)
		atomic_abort(a);
	return ret;
}

int atomic_commit(struct atomic_file *a)
{
	int ret = 0;

	if (a->direct) {
		if (fflush(a->f) || ferror(a->f))
			ret = errno ? -errno : -EIO;
		if (fclose(a->f) && !ret)
			ret = errno ? -errno : -EIO;
		a->f = NULL;
		return ret;
	}

	ret = atomic_seal(a);
	if (ret)
		return ret;
	ret = atomic_place(a->tmp, a->path, false);
	if (ret) {
		atomic_abort(a);
		return ret;
	}
	tempfiles_remove(a->tmp);	/* renamed away: this only forgets it */
	sync_dir(a->path);
	return 0;
}

void atomic_abort(struct atomic_file *a)
{
	if (a->f)
		fclose(a->f);
	a->f = NULL;
	if (!a->direct)
		tempfiles_remove(a->tmp);
}

int atomic_open_plain(const char *path, int *fdp)
{
	enum out_kind kind;
	struct iop_err e;
	struct stat st;
	int fd, ret = classify("output", path, &kind, &e);

	if (ret)
		return ret;
	if (kind == OUT_STREAM && !strcmp(path, "/dev/null")) {
		fd = open(path, O_WRONLY | O_CLOEXEC);
		if (fd < 0)
			return -errno;
		*fdp = fd;
		return 0;
	}
	if (kind != OUT_NEW && kind != OUT_REPLACE)
		return -EPERM;
	fd = open(path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC | (kind == OUT_NEW ? O_EXCL : 0),
		  0644);
	if (fd < 0)
		return -errno;
	/* the object opened must still be what was checked: a regular file, ours or empty */
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) ||
	    (kind == OUT_REPLACE && st.st_size && !overwrite_allowed && !marked_fd(fd))) {
		close(fd);
		return -EPERM;
	}
	if (ftruncate(fd, 0)) {
		ret = -errno;
		close(fd);
		return ret;
	}
	mark_fd(fd);
	*fdp = fd;
	return 0;
}
