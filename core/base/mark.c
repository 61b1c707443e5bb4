/* iopath's mark on a file it wrote or created, tied to that file so that a copy is not iopath's. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>

#include "base/mark.h"

/* The mark's value for the file stx describes. */
static int mark_value(const struct statx *stx, char *out, size_t len)
{
	int n = snprintf(out, len, IOPATH_MARK_VALUE " ino=%llu", (unsigned long long)stx->stx_ino);

	if (stx->stx_mask & STATX_BTIME)
		n += snprintf(out + n, len - (size_t)n, " btime=%lld.%09u",
			      (long long)stx->stx_btime.tv_sec, stx->stx_btime.tv_nsec);
	return n;
}

static bool matches(const char *val, ssize_t n, const struct statx *stx)
{
	char want[128];
	int w = mark_value(stx, want, sizeof(want));

	return n == w && !memcmp(val, want, (size_t)n);
}

int iop_mark_fd(int fd)
{
	struct statx stx;
	char val[128];
	int n;

	if (statx(fd, "", AT_EMPTY_PATH, STATX_INO | STATX_BTIME, &stx))
		return -errno;
	n = mark_value(&stx, val, sizeof(val));
	return fsetxattr(fd, IOPATH_MARK_XATTR, val, (size_t)n, 0) ? -errno : 0;
}

bool iop_marked_fd(int fd)
{
	struct statx stx;
	char val[128];
	ssize_t n = fgetxattr(fd, IOPATH_MARK_XATTR, val, sizeof(val));

	return n > 0 && !statx(fd, "", AT_EMPTY_PATH, STATX_INO | STATX_BTIME, &stx) &&
	       matches(val, n, &stx);
}

bool iop_marked_path(const char *path, bool follow)
{
	struct statx stx;
	char val[128];
	ssize_t n = follow ? getxattr(path, IOPATH_MARK_XATTR, val, sizeof(val)) :
			     lgetxattr(path, IOPATH_MARK_XATTR, val, sizeof(val));

	return n > 0 &&
	       !statx(AT_FDCWD, path, follow ? 0 : AT_SYMLINK_NOFOLLOW, STATX_INO | STATX_BTIME, &stx) &&
	       matches(val, n, &stx);
}
