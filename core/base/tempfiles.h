/* Temporary files and directories of a command: removed on success, failure and Ctrl-C. */
#ifndef IOPATH_TEMPFILES_H
#define IOPATH_TEMPFILES_H

#include <stddef.h>

#include "base/err.h"

/*
 * Create a fresh directory "<parent>/<prefix>.XXXXXX" and register it; its path goes to out
 * (len bytes). Everything the command puts inside goes with it.
 */
int tempdir_create(const char *parent, const char *prefix, char *out, size_t len,
		   struct iop_err *err);

/* Register an existing path (file or directory tree) for removal. */
int tempfiles_register(const char *path);

/* Remove one registered path now (recursively) and forget it. 0 or -errno. */
int tempfiles_remove(const char *path);

/*
 * Remove everything still registered. Async-signal-safe (only openat, getdents64, unlinkat
 * and close on fixed buffers), so the interrupt handler may call it before _exit.
 */
void tempfiles_remove_all(void);

#endif
