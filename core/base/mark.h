/* iopath's mark on a file it wrote or created, tied to that file so that a copy is not iopath's. */
#ifndef IOPATH_MARK_H
#define IOPATH_MARK_H

#include <stdbool.h>

/* The extended attribute that marks a file iopath wrote (a result) or created (a job file). */
#define IOPATH_MARK_XATTR "user.iopath"
#define IOPATH_MARK_VALUE "created-by-iopath"

/*
 * Mark the file open on fd: IOPATH_MARK_VALUE followed by the file's inode and, where the
 * kernel reports one, its birth time ("created-by-iopath ino=N btime=S.NS"). cp -a, rsync -X
 * and tar --xattrs copy the attribute, but the copy is another inode born later: it does not
 * match, and is not iopath's. 0 or -errno (-ENOTSUP: no user xattrs here).
 */
int iop_mark_fd(int fd);

/* Does the file open on fd carry a mark that names it (not a copy's, not an older constant)? */
bool iop_marked_fd(int fd);

/* The same by name (follow: through a symbolic link), for a file iopath may not open. */
bool iop_marked_path(const char *path, bool follow);

#endif
