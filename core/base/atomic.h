/* Result files replaced atomically: a temporary next to them, fsync, rename. */
#ifndef IOPATH_ATOMIC_H
#define IOPATH_ATOMIC_H

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>

#include "base/err.h"

/* A result file being written: a temporary next to it until commit renames it in place. */
struct atomic_file {
	FILE *f;
	char path[PATH_MAX];
	char tmp[PATH_MAX];
	bool direct;		/* path is a device, FIFO or socket: written in place, no rename */
};

/*
 * Can a result be written to path at all? Checked before any job runs, so that a run's
 * results are not lost at the end: the directory exists and is writable, path is not a
 * directory. 0 or -errno with a one-line reason.
 */
int atomic_check(const char *path, struct iop_err *err);

/*
 * Start writing path: creates "path.tmp.PID" exclusively, registered with tempfiles so that
 * an interrupt removes it. A path that is a symbolic link is written through (the temporary
 * goes next to the file it names); one that is not a regular file (/dev/null, a FIFO, a
 * terminal) is written in place, as renaming over it would replace the device. 0 or -errno.
 */
int atomic_open(struct atomic_file *a, const char *path);

/*
 * Finish: flush, fsync, close, rename over path, fsync the directory. On failure the
 * temporary is removed and path keeps its old content. 0 or -errno.
 */
int atomic_commit(struct atomic_file *a);

/* Give up: close and remove the temporary; path is untouched. */
void atomic_abort(struct atomic_file *a);

#endif
