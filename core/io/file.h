/* The common file path: naming a job's files, sizing, laying out, opening, invalidating. */
#ifndef IOPATH_FILE_H
#define IOPATH_FILE_H

#include <stdbool.h>
#include <stdint.h>

#include "base/err.h"
#include "iopath/job.h"

/*
 * Files one worker may use (nrfiles, or names in filename=). fio sets no limit; this one
 * keeps a worker's tables (some 250 bytes a file) and its descriptors within reason, and
 * under the kernel's registered-file table (IORING_MAX_FIXED_FILES, 1 << 20).
 */

/*
 * A job's path names, compactly: one pointer each into shared blocks (a name costs its
 * length, not PATH_MAX). Pointers stay valid until paths_free.
 */
struct path_set {
	char **v;
	size_t nr, cap;
	struct path_block *blocks;
};

/* Append a copy of path. 0 or -ENOMEM. */
int paths_add(struct path_set *s, const char *path);
/* Make path i a copy of path (the set's pointer array may move). 0 or -ENOMEM. */
int paths_replace(struct path_set *s, size_t i, const char *path);
void paths_free(struct path_set *s);

/*
 * Append the files worker `clone` of job uses to out: filename split at unescaped ':'
 * (shared by all workers), or "<jobname>.<clone>.<n>" for n < nrfiles when no filename is
 * given (fio's names; filename_format's when given); relative names go under directory. Returns the count or -errno.
 */
int file_names(const struct job_spec *job, unsigned clone, struct path_set *out,
	       struct iop_err *err);

/* Whether all workers of job use the same files: filename=, or a filename_format without $jobnum. */
bool file_names_shared(const struct job_spec *job);

/* name under the job's directory (unless absolute), into out (PATH_MAX bytes). */
int file_path(const struct job_spec *job, const char *name, char *out, struct iop_err *err);

/* The directories above path that are missing, made as fio makes them (mode 0700). 0 or -errno. */
int file_make_dirs(const char *path);

/* Create path if missing and, when it is a regular file, set its length to len. */
int file_truncate(const char *path, uint64_t len, struct iop_err *err);

/* Size of a regular file or block device; -ENOENT when missing. */
int file_size(const char *path, uint64_t *size, bool *is_blockdev);
int file_size_fd(int fd, uint64_t *size, bool *is_blockdev);

/*
 * Make sure path holds at least end bytes: create it if missing; when fill is set write
 * data (verify-stamped in units of unit bytes when the job verifies), else just extend.
 */
int file_layout(const struct job_spec *job, const char *path, uint64_t end, bool fill,
		uint32_t unit, struct iop_err *err);

/*
 * file_layout on the file open on fd (O_RDWR), created said when this run created it; on
 * success the file's mark says its layout is complete.
 */
int file_layout_fd(const struct job_spec *job, int fd, const char *path, bool created,
		   uint64_t end, bool fill, uint32_t unit, struct iop_err *err);

/*
 * A descriptor of its own for the object open on bound (checked there): /proc/self/fd/N
 * opened with flags, or where there is no /proc, path not followed and only when it is
 * still the same file (-1 with errno ESTALE when not). fd or -1 with errno.
 */
int file_reopen_fd(int bound, const char *path, int flags);

/* The job's descriptor for its file checked on bound (see file_open). fd or -errno. */
int file_reopen(const struct job_spec *job, int bound, const char *path, bool write,
		struct iop_err *err);

/* Are a and b open on the same object (device and inode)? */
bool file_same(int a, int b);

/*
 * Open for the job: O_RDWR or O_RDONLY, plus O_DIRECT when direct=1 (files that were not
 * checked on a descriptor before the run: create_on_open's). A create_on_open file that
 * exists already is written only when iopath owns it or foreign_ok. Returns fd or -errno.
 */
int file_open(const struct job_spec *job, const char *path, bool write, bool foreign_ok,
	      struct iop_err *err);

/* Remove path if it is a regular file (unlink=1); never a device. Returns 0 or -errno. */
int file_remove(const char *path);

/*
 * A new empty file at path (O_EXCL: never one that is there), opened for writing with the
 * job's flags and marked as created by iopath: its descriptor, or -errno with err set.
 */
int file_create(const struct job_spec *job, const char *path, struct iop_err *err);

/* Drop the page cache of [start, start + len). */
int file_invalidate(int fd, uint64_t start, uint64_t len);

/* fadvise_hint: tell the kernel hint (FADV_HINT_*, resolved) about [start, start + len). */
void file_advise(int fd, uint64_t start, uint64_t len, unsigned hint);

#endif
