/* Disk utilization: the block devices under a run's files, their /sys/block stat from start to end. */
#ifndef IOPATH_DISKUTIL_H
#define IOPATH_DISKUTIL_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/* One reading of /sys/block/<dev>/stat (counters since boot; ticks in ms). */
struct disk_counters {
	uint64_t ios[2];		/* completed reads, writes */
	uint64_t merges[2];
	uint64_t sectors[2];
	uint64_t ticks[2];		/* ms spent on reads, writes */
	uint64_t io_ticks;		/* ms the device had I/O in flight */
	uint64_t in_queue;		/* ms of I/O in flight, weighted by how many */
};

#define DISK_SLAVES_MAX 16

struct disk_dev {
	char name[64];			/* vda, dm-0, md0, loop0: the sysfs name, as fio shows it */
	char sysdir[PATH_MAX];		/* its directory under /sys/devices */
	struct disk_counters start, end;
	bool have_start, have_end;
	uint64_t start_ns, end_ns;	/* CLOCK_MONOTONIC of the two readings */
	unsigned nr_slaves;		/* dm/md: the devices below it (indices in the set) */
	unsigned slaves[DISK_SLAVES_MAX];
};

/*
 * The devices of a run, in fio's order: each device as first met, then the devices below it
 * (a dm or md device's slaves, a partition's disk standing for the partition).
 */
struct disk_set {
	char sysfs[PATH_MAX];		/* where sysfs is: "/sys", or a test's copy */
	unsigned nr, cap;
	struct disk_dev *dev;
};

/* An empty set reading sysfs at root ("/sys" when NULL). */
void disk_set_init(struct disk_set *s, const char *root);
void disk_set_free(struct disk_set *s);

/*
 * Add the device holding path: a block device itself, else the filesystem's device of the file
 * (of its directory when it does not exist yet). Nothing is added, and 0 returned, when that
 * filesystem has no block device (tmpfs, 9p, virtiofs, FUSE, NFS, overlay). -ENOMEM only.
 */
int disk_set_add_path(struct disk_set *s, const char *path);

/* Add the block device major:minor (a partition: its disk) and what is below it. */
int disk_set_add_devnum(struct disk_set *s, unsigned major, unsigned minor);

/* Read every device's counters as the start, or the end, of the measured span. */
void disk_set_start(struct disk_set *s);
void disk_set_end(struct disk_set *s);

/* A device's activity over the span, as fio reports it. */
struct disk_util {
	const char *name;
	struct disk_counters d;		/* end minus start */
	uint64_t msec;			/* the span */
	double util;			/* io_ticks over the span, percent, at most 100 */
	/* dm/md: the mean of the slaves' counters and the busiest slave's util (fio's aggr_*) */
	unsigned slavecount;
	struct disk_counters aggr;
	double aggr_util;
};

/* Device i of the set (i < s->nr, read at start and end) into u; false when not read. */
bool disk_set_util(const struct disk_set *s, unsigned i, struct disk_util *u);

#endif
