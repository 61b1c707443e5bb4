/* Temporary files and directories of a command: removed on success, failure and Ctrl-C. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base/tempfiles.h"

#define TEMP_MAX 32
#define TREE_DEPTH_MAX 32

/*
 * The registry. Workers register and remove under the lock, so a slot is never shared and no
 * path is read while another thread writes it; a slot is live (SLOT_LIVE) only once its path
 * is whole, and the removal of all at exit or on a signal reads live slots alone, lock-free.
 */
enum { SLOT_FREE, SLOT_FILLING, SLOT_LIVE };
static char temp_paths[TEMP_MAX][PATH_MAX];
static atomic_int temp_live[TEMP_MAX];
static pthread_mutex_t temp_lock = PTHREAD_MUTEX_INITIALIZER;

static bool slot_live(unsigned i)
{
	return atomic_load(&temp_live[i]) == SLOT_LIVE;
}

struct linux_dirent64 {
	unsigned long long d_ino;
	long long d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

/* Remove name (relative to dirfd) and, when it is a directory, everything under it. */
static int remove_at(int dirfd, const char *name, unsigned depth)
{
	char buf[4096] __attribute__((aligned(8)));
	int fd, ret = 0;
	long n;

	if (!unlinkat(dirfd, name, 0))
		return 0;
	if (errno == ENOENT)
		return 0;
	if (errno != EISDIR && errno != EPERM)
		return -errno;
	if (depth >= TREE_DEPTH_MAX)
		return -ELOOP;
	fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* removing entries while reading: read again from the start until the directory is empty */
	for (;;) {
		long pos = 0;
		int removed = 0;

		lseek(fd, 0, SEEK_SET);
		n = syscall(SYS_getdents64, fd, buf, sizeof(buf));
		if (n <= 0)
			break;
		while (pos < n) {
			struct linux_dirent64 *d = (struct linux_dirent64 *)(buf + pos);

			pos += d->d_reclen;
			if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
				continue;
			ret = remove_at(fd, d->d_name, depth + 1);
			if (ret)
				goto out;
			removed++;
		}
		if (!removed)
			break;
	}
out:
	close(fd);
	if (!ret && unlinkat(dirfd, name, AT_REMOVEDIR) && errno != ENOENT)
		ret = -errno;
	return ret;
}

int tempfiles_register(const char *path)
{
	unsigned i;

	if (strlen(path) >= PATH_MAX)
		return -ENAMETOOLONG;
	pthread_mutex_lock(&temp_lock);
	for (i = 0; i < TEMP_MAX; i++) {
		int want = SLOT_FREE;

		if (!atomic_compare_exchange_strong(&temp_live[i], &want, SLOT_FILLING))
			continue;
		memcpy(temp_paths[i], path, strlen(path) + 1);
		atomic_store(&temp_live[i], SLOT_LIVE);
		break;
	}
	pthread_mutex_unlock(&temp_lock);
	return i < TEMP_MAX ? 0 : -ENOSPC;
}

int tempdir_create(const char *parent, const char *prefix, char *out, size_t len,
		   struct iop_err *err)
{
	int ret;

	if ((size_t)snprintf(out, len, "%s/%s.XXXXXX", parent, prefix) >= len)
		return iop_errf(err, -ENAMETOOLONG, "%s: path too long for a temporary directory", parent);
	if (!mkdtemp(out))
		return iop_errf(err, -errno, "cannot create a temporary directory in %s: %s", parent,
				strerror(errno));
	ret = tempfiles_register(out);
	if (ret) {
		rmdir(out);
		return iop_errf(err, ret, "too many temporary directories");
	}
	return 0;
}

int tempfiles_remove(const char *path)
{
	unsigned i;
	int ret = remove_at(AT_FDCWD, path, 0);

	pthread_mutex_lock(&temp_lock);
	for (i = 0; i < TEMP_MAX; i++) {
		int want = SLOT_LIVE;

		if (slot_live(i) && !strcmp(temp_paths[i], path))
			atomic_compare_exchange_strong(&temp_live[i], &want, SLOT_FREE);
	}
	pthread_mutex_unlock(&temp_lock);
	return ret;
}

void tempfiles_remove_all(void)
{
	unsigned i;

	for (i = 0; i < TEMP_MAX; i++) {
		int want = SLOT_LIVE;

		if (!slot_live(i))
			continue;
		remove_at(AT_FDCWD, temp_paths[i], 0);
		atomic_compare_exchange_strong(&temp_live[i], &want, SLOT_FREE);
	}
}
