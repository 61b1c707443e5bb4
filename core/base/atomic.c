/* Result files replaced atomically: a temporary next to them, fsync, rename. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/atomic.h"
#include "base/tempfiles.h"

static void dir_of(const char *path, char *dir, size_t len)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		snprintf(dir, len, ".");
	else
		snprintf(dir, len, "%.*s", slash == path ? 1 : (int)(slash - path), path);
}

int atomic_check(const char *path, struct iop_err *err)
{
	char dir[PATH_MAX];
	struct stat st;

	if (!path[0])
		return iop_errf(err, -EINVAL, "--output needs a file name");
	if (!stat(path, &st) && S_ISDIR(st.st_mode))
		return iop_errf(err, -EISDIR, "--output=%s is a directory; give a file name", path);
	dir_of(path, dir, sizeof(dir));
	if (stat(dir, &st))
		return iop_errf(err, -errno, "--output=%s: directory %s: %s", path, dir,
				strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return iop_errf(err, -ENOTDIR, "--output=%s: %s is not a directory", path, dir);
	if (faccessat(AT_FDCWD, dir, W_OK | X_OK, AT_EACCESS))
		return iop_errf(err, -errno, "--output=%s: cannot create files in %s: %s", path, dir,
				strerror(errno));
	return 0;
}

int atomic_open(struct atomic_file *a, const char *path)
{
	char real[PATH_MAX];
	struct stat st;
	int fd, ret;

	memset(a, 0, sizeof(*a));
	if (!stat(path, &st) && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
		/* never rename over a device node or a FIFO: write to it as it is */
		a->direct = true;
		snprintf(a->path, sizeof(a->path), "%s", path);
		a->f = fopen(path, "w");
		return a->f ? 0 : -errno;
	}
	if (!lstat(path, &st) && S_ISLNK(st.st_mode) && realpath(path, real))
		path = real;	/* replace the file the link names, not the link */
	if (snprintf(a->path, sizeof(a->path), "%s", path) >= (int)sizeof(a->path) ||
	    snprintf(a->tmp, sizeof(a->tmp), "%s.tmp.%d", path, (int)getpid()) >= (int)sizeof(a->tmp))
		return -ENAMETOOLONG;
	fd = open(a->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	/* registered only once it is ours: an interrupt must never remove someone else's file */
	tempfiles_register(a->tmp);
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

	if (fflush(a->f) || ferror(a->f))
		ret = errno ? -errno : -EIO;
	if (!ret && fsync(fileno(a->f)))
		ret = -errno;
	if (fclose(a->f) && !ret)
		ret = errno ? -errno : -EIO;
	a->f = NULL;
	if (!ret && rename(a->tmp, a->path))
		ret = -errno;
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
