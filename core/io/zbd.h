/*
 * zonemode=zbd on targets that are not zoned devices (fio's ZBD_NONE model): zones of
 * zonesize are emulated in memory over a regular file or an ordinary block device, each with
 * a write pointer that starts at the zone's start, as fio 3.33 does.
 */
#ifndef IOPATH_ZBD_H
#define IOPATH_ZBD_H

#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "base/err.h"
#include "iopath/job.h"

#define ZBD_MAX_OPEN_ZONES 4096u	/* fio's limit on max_open_zones */

struct zbd_owner;

struct zbd_zone {
	uint64_t start;
	uint64_t wp;
	bool open;
	bool reset;			/* zone_reset_threshold chose it for a reset */
	struct zbd_owner *opener;	/* the worker that opened it (job_max_open_zones) */
};

/* One emulated device: the zones of one path, shared by every job of the run that uses it. */
struct zbd_dev {
	pthread_mutex_t lock;
	char path[PATH_MAX];
	uint64_t zone_size;
	uint64_t zone_cap;
	uint32_t nr_zones;
	unsigned max_open;		/* 0: open zones are not tracked */
	unsigned nr_open;
	uint32_t *open;			/* open zones, in the order they were opened */
	struct zbd_zone *z;		/* nr_zones, then a sentinel holding the end */
	uint64_t with_data;		/* bytes below the write pointers */
	uint32_t write_cnt;		/* zone_reset_frequency: writes until the next reset */
	struct zbd_dev *next;
};

/* Every emulated device of a run. */
struct zbd_set {
	struct zbd_dev *head;
};

/* Per worker: the zones it holds open, the zones it reset. */
struct zbd_owner {
	atomic_uint nr_open;
	uint64_t resets;
};

/* A worker's view of one file: its region, whole zones [min_zone, max_zone). */
struct zbd_view {
	struct zbd_dev *dev;
	uint64_t lo, hi;
	uint32_t min_zone, max_zone;
};

/* One I/O to place: dir, offset (in the file) and len in; offset and len out. */
struct zbd_req {
	unsigned dir;
	uint64_t offset;
	uint32_t len;
	uint32_t min_bs;		/* the direction's smallest block size */
	uint32_t min_bs_write;
};

enum { ZBD_ACCEPT = 0, ZBD_EOF = 1 };

/*
 * The device for path, made on first use with size bytes of zones (or checked against the
 * job's zone options when another job made it). 0 or -errno with err set.
 */
int zbd_set_get(struct zbd_set *s, const char *path, uint64_t size, const struct job_spec *job,
		struct zbd_dev **out, struct iop_err *err);
void zbd_set_free(struct zbd_set *s);

/*
 * The view of a worker's region [start, start + len): a job that writes works on whole zones
 * (offset rounded up, end rounded down, as fio's zbd_verify_sizes). 0, or -EINVAL with why.
 */
int zbd_view_init(struct zbd_view *v, struct zbd_dev *d, uint64_t start, uint64_t len,
		  bool writes, char *why, size_t why_len);

/* A writing worker's start (fio's zbd_file_reset): with verify its zones start empty. */
void zbd_job_start(struct zbd_view *v, const struct job_spec *job, struct zbd_owner *me);

/* A worker ends: the zones it opened stay open, no longer counted as its own. */
void zbd_owner_leave(struct zbd_view *v, struct zbd_owner *me);

/* A random mixed job reads nothing before anything is written (fio's zbd_adjust_ddir). */
bool zbd_read_to_write(struct zbd_view *v, const struct job_spec *job);

/*
 * Place one I/O as fio's zbd_adjust_block does: writes at the write pointer of an open zone
 * (resetting a full one), reads below write pointers unless read_beyond_wp. ZBD_ACCEPT (with
 * *quiesce set when in-flight I/O must complete first, as before fio's resets), ZBD_EOF
 * when nothing more can be done, or -errno with why.
 */
int zbd_adjust(struct zbd_view *v, const struct job_spec *job, struct zbd_owner *me, bool random,
	       struct zbd_req *r, bool *quiesce, char *why, size_t why_len);

/* zonecapacity < zonesize, sequential writes: a position at a zone's capacity moves to its end. */
uint64_t zbd_seq_skip_capacity(const struct zbd_view *v, uint64_t pos);

/* A real zoned block device (sysfs queue/zoned other than none): its model, or NULL. */
const char *zbd_zoned_model(const char *path);

#endif
