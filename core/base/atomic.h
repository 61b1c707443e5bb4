/* Result files replaced atomically: a temporary next to them, fsync, rename. */
#ifndef IOPATH_ATOMIC_H
#define IOPATH_ATOMIC_H

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>

#include "base/err.h"
#include "base/mark.h"


/* A result file being written: a temporary next to it until commit renames it in place. */
struct atomic_file {
	FILE *f;
	char path[PATH_MAX];
	char tmp[PATH_MAX];
	bool direct;		/* the process's stream, /dev/null, a FIFO or socket: in place */
};

/*
 * Outputs are regular files. A name iopath writes a result, chart, log or dump to must be
 * new, a regular file iopath wrote (its mark), or an empty regular file; never a block or
 * character device and never a symbolic link (iopath creates none). "-" is stdout, and
 * /dev/stdout, /dev/stderr, /dev/null, /dev/fd/N and FIFOs are written in place.
 * atomic_allow_overwrite (the command line's --allow-overwrite) lets a regular file of
 * someone else's be replaced too.
 */
void atomic_allow_overwrite(bool allow);

/*
 * Can a result be written to path at all? Checked before any job runs, so that a run's
 * results are not lost at the end, and so that a device or a foreign file is refused with
 * exit 2: the rules above, the directory exists and is writable. opt names the option in
 * the message ("--output", "--json"...). 0 or -errno with a one-line reason.
 */
int atomic_check_as(const char *opt, const char *path, struct iop_err *err);
int atomic_check(const char *path, struct iop_err *err);

/*
 * Start writing path: creates "path.tmp.PID" exclusively, registered with tempfiles so that
 * an interrupt removes it; a stream name (above) is written in place. The rules above are
 * checked again here (-ELOOP a link, -EPERM a device, -EEXIST a foreign file). 0 or -errno.
 */
int atomic_open(struct atomic_file *a, const char *path);

/*
 * Finish: flush, fsync, mark, close, and rename over path (the rules checked once more:
 * a name that turned into something else in the meantime is not replaced), fsync the
 * directory. On failure the temporary is removed and path keeps its old content. 0 or -errno.
 */
int atomic_commit(struct atomic_file *a);

/*
 * The first half of atomic_commit: flush, fsync, mark and close the temporary, which stays
 * (still removed on an interrupt) until atomic_commit moves it over path or atomic_abort
 * removes it. For several files written all or none: seal each, then commit each. 0 or
 * -errno (the temporary removed).
 */
int atomic_seal(struct atomic_file *a);

/* Give up: close and remove the temporary; path is untouched. */
void atomic_abort(struct atomic_file *a);

/*
 * Open path to write a file of iopath's own in place (a log, a dump, a chart's data) under
 * the same rules: never following a link, never a device, a foreign file only when allowed;
 * truncated and marked. *fd on success. 0 or -errno.
 */
int atomic_open_plain(const char *path, int *fd);

/* Move a finished file of iopath's (tmp) to path under the same rules. 0 or -errno. */
int atomic_place(const char *tmp, const char *path, bool exclusive);

#endif
