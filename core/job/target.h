/* What iopath checks about a job's files before it writes: ownership, devices, alignment. */
#ifndef IOPATH_TARGET_H
#define IOPATH_TARGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/err.h"

#define TARGET_DESTRUCTIVE_MAX 16

/*
 * What the user allowed for the whole run. Zeroed means the safe default: write only files
 * iopath created, and no block device that holds anything.
 */
struct target_policy {
	bool allow_overwrite;			/* --allow-overwrite: any existing file */
	/* IOPATH_ALLOW_OVERWRITE: colon-separated files (or directories: the files in them) */
	const char *allow_overwrite_paths;
	bool readonly;				/* --readonly: no job writes, trims, creates or extends */
	bool allow_fill;			/* --allow-fill: below the free-space reserve too */
	unsigned nr_destructive;
	const char *destructive[TARGET_DESTRUCTIVE_MAX];	/* --allow-destructive=DEV */
};

/*
 * A run-wide command-line option of the policy: --allow-overwrite, --allow-destructive=DEV,
 * --allow-fill or --readonly.
 * Returns 1 when key was one of them, 0 when not, -errno (with err) on a bad value.
 */
int target_policy_option(struct target_policy *pol, const char *key, const char *val,
			 struct iop_err *err);

/*
 * May a job overwrite path although iopath did not create it? --allow-overwrite, or path is
 * (or is inside) one of allow_overwrite_paths: what a wrapper that asked its user for consent
 * passes on in IOPATH_ALLOW_OVERWRITE, as the effect of --allow-overwrite for those paths.
 */
bool target_policy_allows_overwrite(const struct target_policy *pol, const char *path);

/*
 * Mark a file iopath has just created: the extended attribute user.iopath, or where the
 * filesystem has none, a sidecar ".NAME.iopath" next to it recording the file's inode.
 */
int target_mark_owned(int fd, const char *path);

/*
 * A layout of a file iopath owns is under way on fd (begin) or finished and synced (done):
 * a layout cut short (SIGKILL, a crash) leaves it marked incomplete, and the next run lays
 * it out again rather than measure unwritten extents. 0 or -errno.
 */
int target_layout_begin(int fd, const char *path);
int target_layout_done(int fd, const char *path);
bool target_layout_incomplete(int fd, const char *path);
/* Incomplete because a write job has not yet written it whole (its data is the writer's). */
int target_layout_unwritten_mark(int fd);
bool target_layout_unwritten(int fd);

/* target_mark_owned for a file about to be laid out: marked with its layout under way. */
int target_mark_created_for_layout(int fd, const char *path);

/*
 * A job has changed the file open on fd: where its mark is a sidecar, the sidecar records the
 * file as iopath leaves it (what binds it where inode numbers are not stable). 0 or -errno.
 */
int target_mark_refresh(int fd, const char *path);

/* Does path carry iopath's mark? */
bool target_owned(const char *path);

/* The same for the file open on fd (its xattr, or the sidecar's inode against fd's). */
bool target_owned_fd(int fd, const char *path);

/* Remove a file iopath created, and its sidecar if it has one. 0 or -errno. */
int target_remove(const char *path);

/* The sidecar's name for path (for tests and cleanup). */
int target_sidecar_path(const char *path, char *out, size_t len);

/*
 * May a job write to the block device path? No when it holds a filesystem, partition
 * table, LVM, RAID or swap signature, or is in use (mounted, swap, held by another
 * device), unless the policy names it. 0 or -errno with a one-line reason in err.
 */
int target_check_blockdev(const char *path, const struct target_policy *pol, const char *job,
			  struct iop_err *err);

/*
 * The same, decided on the device open on fd, which the caller opened O_EXCL (so a mounted or
 * held device has failed that open already): its st_rdev, blkid on the descriptor. What the
 * job will write, not what the name pointed to earlier.
 */
int target_check_blockdev_fd(int fd, const char *path, const struct target_policy *pol,
			     const char *job, struct iop_err *err);

/*
 * The offset and size alignment direct I/O needs on path (or, when it does not exist yet,
 * in its directory): statx's STATX_DIOALIGN where the kernel reports it, else the logical
 * block size of the device beneath. 0 when unknown (no block device: tmpfs, FUSE, 9p...).
 * source says where the number came from, for messages.
 */
uint32_t target_dio_align(const char *path, bool exists, char *source, size_t len);

/*
 * What the file open on fd allows of atomic (untorn, RWF_ATOMIC) writes: each a power of 2
 * from unit_min to unit_max bytes, at a multiple of its size, in up to segments_max vectors.
 * statx's STATX_WRITE_ATOMIC on the descriptor; for a block device whose kernel's statx does
 * not answer, its queue's atomic_write_unit_*_bytes in sysfs. All 0: no atomic writes there.
 */
struct atomic_limits {
	uint32_t unit_min;
	uint32_t unit_max;
	uint32_t segments_max;
	const char *source;	/* "statx" or "sysfs" */
};

/* 0 (out filled, all 0 when the file has no atomic writes) or -errno when statx failed. */
int target_atomic_limits(int fd, struct atomic_limits *out);

#endif
