/* zonemode=zbd: zones emulated in memory with fio 3.33's write-pointer and open-zone rules. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "io/zbd.h"

static uint32_t zone_idx(const struct zbd_dev *d, uint64_t off)
{
	uint64_t i = off / d->zone_size;

	return i < d->nr_zones ? (uint32_t)i : d->nr_zones;
}

static uint64_t cap_end(const struct zbd_dev *d, const struct zbd_zone *z)
{
	return z->start + d->zone_cap;
}

static bool zone_full(const struct zbd_dev *d, const struct zbd_zone *z, uint64_t need)
{
	return z->wp + need > cap_end(d, z);
}

static bool valid_offset(const struct zbd_view *v, uint64_t off)
{
	return off - v->lo < v->hi - v->lo;
}

int zbd_set_get(struct zbd_set *s, const char *path, uint64_t size, const struct job_spec *job,
		struct zbd_dev **out, struct iop_err *err)
{
	uint64_t cap = job->zone.capacity ? job->zone.capacity : job->zone.size;
	struct zbd_dev *d;
	uint32_t i;

	for (d = s->head; d; d = d->next) {
		if (strcmp(d->path, path))
			continue;
		if (d->zone_size != job->zone.size)
			return iop_errf(err, -EINVAL,
					"job %s: %s: zonesize %llu does not match the zone size %llu another job gave it",
					job->name, path, (unsigned long long)job->zone.size,
					(unsigned long long)d->zone_size);
		if (cap != d->zone_cap)
			return iop_errf(err, -EINVAL,
					"job %s: %s: zonecapacity %llu does not match the capacity %llu another job gave its zones",
					job->name, path, (unsigned long long)cap,
					(unsigned long long)d->zone_cap);
		if (job->zone.max_open && job->zone.max_open != d->max_open)
			return iop_errf(err, -EINVAL,
					"job %s: %s: max_open_zones=%u differs from the %u another job gave it (fio: different 'max_open_zones' values)",
					job->name, path, job->zone.max_open, d->max_open);
		*out = d;
		return 0;
	}
	if (!job->zone.size)
		return iop_errf(err, -EINVAL,
				"job %s: %s: zonemode=zbd needs zonesize= on a regular file or block device (fio: specifying the zone size is mandatory)",
				job->name, path);
	if (size < job->zone.size)
		return iop_errf(err, -EINVAL,
				"job %s: %s: file/device size %llu is smaller than zonesize %llu (zonemode=zbd emulates zones over what exists before the job: create the file first, as fio needs)",
				job->name, path, (unsigned long long)size,
				(unsigned long long)job->zone.size);
	d = calloc(1, sizeof(*d));
	if (!d)
		return iop_errf(err, -ENOMEM, "out of memory for zones");
	snprintf(d->path, sizeof(d->path), "%s", path);
	d->zone_size = job->zone.size;
	d->zone_cap = cap;
	d->nr_zones = (uint32_t)((size + job->zone.size - 1) / job->zone.size);
	d->max_open = job->zone.max_open;
	d->z = calloc((size_t)d->nr_zones + 1, sizeof(*d->z));
	d->open = calloc(ZBD_MAX_OPEN_ZONES, sizeof(*d->open));
	if (!d->z || !d->open) {
		free(d->z);
		free(d->open);
		free(d);
		return iop_errf(err, -ENOMEM, "out of memory for %llu zones",
				(unsigned long long)(size / job->zone.size));
	}
	for (i = 0; i <= d->nr_zones; i++)
		d->z[i].start = d->z[i].wp = (uint64_t)i * job->zone.size;
	pthread_mutex_init(&d->lock, NULL);
	d->write_cnt = UINT32_MAX;
	d->next = s->head;
	s->head = d;
	*out = d;
	return 0;
}

void zbd_set_free(struct zbd_set *s)
{
	struct zbd_dev *d, *next;

	for (d = s->head; d; d = next) {
		next = d->next;
		pthread_mutex_destroy(&d->lock);
		free(d->z);
		free(d->open);
		free(d);
	}
	s->head = NULL;
}

int zbd_view_init(struct zbd_view *v, struct zbd_dev *d, uint64_t start, uint64_t len,
		  bool writes, char *why, size_t why_len)
{
	uint64_t end = start + len;
	struct zbd_zone *z;

	v->dev = d;
	if (writes && start < d->z[d->nr_zones].start) {
		z = &d->z[zone_idx(d, start)];
		if (start != z->start) {
			if (z[1].start >= end) {
				snprintf(why, why_len, "io_size must be at least one zone");
				return -EINVAL;
			}
			start = z[1].start;
		}
		z = &d->z[zone_idx(d, end)];
		if (end != z->start) {
			if (z->start <= start) {
				snprintf(why, why_len, "io_size must be at least one zone");
				return -EINVAL;
			}
			end = z->start;
		}
	}
	v->lo = start;
	v->hi = end;
	v->min_zone = zone_idx(d, start);
	v->max_zone = zone_idx(d, end);
	return 0;
}

/* Caller holds d->lock. */
static void close_zone(struct zbd_dev *d, uint32_t idx)
{
	struct zbd_zone *z = &d->z[idx];
	unsigned i;

	for (i = 0; i < d->nr_open && d->open[i] != idx; i++)
		;
	if (i == d->nr_open)
		return;
	memmove(d->open + i, d->open + i + 1, (d->nr_open - i - 1) * sizeof(*d->open));
	d->nr_open--;
	z->open = false;
	if (z->opener)
		atomic_fetch_sub(&z->opener->nr_open, 1);
	z->opener = NULL;
}

/* Caller holds d->lock. */
static void reset_zone(struct zbd_dev *d, struct zbd_zone *z, struct zbd_owner *me)
{
	if (z->wp == z->start)
		return;
	d->with_data -= z->wp - z->start;
	z->wp = z->start;
	me->resets++;
}

void zbd_job_start(struct zbd_view *v, const struct job_spec *job, struct zbd_owner *me)
{
	struct zbd_dev *d = v->dev;
	double f = job->zone.reset_frequency;
	uint32_t i;

	pthread_mutex_lock(&d->lock);
	/* fio resets a writing job's zones first only with verify, so that no reset loses data */
	if (job->verify.kind != VERIFY_NONE) {
		for (i = v->min_zone; i < v->max_zone; i++) {
			close_zone(d, i);
			reset_zone(d, &d->z[i], me);
		}
	}
	d->write_cnt = f > 0 ? (1.0 / f < (double)UINT32_MAX ? (uint32_t)(1.0 / f) : UINT32_MAX) :
		       UINT32_MAX;
	pthread_mutex_unlock(&d->lock);
}

void zbd_owner_leave(struct zbd_view *v, struct zbd_owner *me)
{
	struct zbd_dev *d = v->dev;
	uint32_t i;

	pthread_mutex_lock(&d->lock);
	for (i = 0; i < d->nr_zones; i++)
		if (d->z[i].opener == me)
			d->z[i].opener = NULL;
	pthread_mutex_unlock(&d->lock);
}

bool zbd_read_to_write(struct zbd_view *v, const struct job_spec *job)
{
	bool empty;

	if (job->zone.read_beyond_wp)
		return false;
	pthread_mutex_lock(&v->dev->lock);
	empty = !v->dev->with_data;
	pthread_mutex_unlock(&v->dev->lock);
	return empty;
}

/*
 * Open zone idx for writing unless it is open already: false when the open-zone limits do not
 * allow another, or (with verify) when it is full. Caller holds d->lock.
 */
static bool open_zone(struct zbd_view *v, const struct job_spec *job, struct zbd_owner *me,
		      uint32_t idx, uint32_t min_bs_write)
{
	struct zbd_dev *d = v->dev;
	struct zbd_zone *z = &d->z[idx];

	if (job->verify.kind != VERIFY_NONE && zone_full(d, z, min_bs_write))
		return false;
	if (!d->max_open)
		return true;
	if (z->open)
		return z->wp < cap_end(d, z);	/* going to be full: handled as a full zone */
	if (job->zone.job_max_open && atomic_load(&me->nr_open) >= job->zone.job_max_open)
		return false;
	if (d->nr_open >= d->max_open)
		return false;
	d->open[d->nr_open++] = idx;
	atomic_fetch_add(&me->nr_open, 1);
	z->open = true;
	z->opener = me;
	return true;
}

/* fio's pick_random_zone_idx: the offset's place in the region picks among the open zones. */
static unsigned pick_open(const struct zbd_view *v, uint64_t off)
{
	return (unsigned)((unsigned __int128)(off - v->lo) * v->dev->nr_open / (v->hi - v->lo));
}

/*
 * fio's zbd_convert_to_open_zone: a write whose zone cannot be opened goes to an open zone of
 * the region with room, or opens the next zone that can be opened. NULL when none.
 * Caller holds d->lock.
 */
static struct zbd_zone *to_open_zone(struct zbd_view *v, const struct job_spec *job,
				     struct zbd_owner *me, struct zbd_req *r, bool *quiesce)
{
	struct zbd_dev *d = v->dev;
	bool limited = d->max_open || job->zone.job_max_open;
	uint32_t idx, n;
	struct zbd_zone *z;
	unsigned i, k;

	if (limited && d->nr_open)
		idx = d->open[pick_open(v, r->offset)];
	else
		idx = zone_idx(d, r->offset);
	if (idx < v->min_zone)
		idx = v->min_zone;
	else if (idx >= v->max_zone)
		idx = v->max_zone - 1;
	if (!limited)
		goto examine;
	if (!d->nr_open)
		goto open_other;
	/* an open zone of this region, from a quasi-random start among them */
	k = pick_open(v, r->offset);
	for (i = 0; i < d->nr_open; i++, k++) {
		if (k >= d->nr_open)
			k = 0;
		if (d->open[k] >= v->min_zone && d->open[k] < v->max_zone)
			break;
	}
	if (i == d->nr_open)
		return NULL;
	idx = d->open[k];
examine:
	z = &d->z[idx];
	if (z->wp + r->min_bs <= cap_end(d, z))
		goto out;
open_other:
	/* at a limit fio lets in-flight writes complete (and close their zones) first */
	if (d->nr_open == v->max_zone - v->min_zone ||
	    (d->max_open && d->nr_open == d->max_open) ||
	    (job->zone.job_max_open && atomic_load(&me->nr_open) == job->zone.job_max_open))
		*quiesce = true;
	for (n = (uint32_t)((v->hi - v->lo) / d->zone_size); n > 0; n--) {
		idx++;
		if (!valid_offset(v, d->z[idx].start))
			idx = v->min_zone;
		if (d->z[idx].open)
			continue;
		if (open_zone(v, job, me, idx, r->min_bs_write))
			goto out;
	}
	/* does the write fit in a zone already open? */
	for (i = 0; i < d->nr_open; i++) {
		idx = d->open[i];
		if (idx < v->min_zone || idx >= v->max_zone)
			continue;
		if (d->z[idx].wp + r->min_bs <= cap_end(d, &d->z[idx]))
			goto out;
	}
	return NULL;
out:
	r->offset = d->z[idx].start;
	return &d->z[idx];
}

/* fio's zbd_dec_and_reset_write_cnt. Caller holds d->lock. */
static bool reset_due(struct zbd_dev *d, const struct job_spec *job)
{
	double f = job->zone.reset_frequency;

	if (d->write_cnt)
		d->write_cnt--;
	if (d->write_cnt)
		return false;
	d->write_cnt = 1.0 / f < (double)UINT32_MAX ? (uint32_t)(1.0 / f) : UINT32_MAX;
	return true;
}

static int adjust_write(struct zbd_view *v, const struct job_spec *job, struct zbd_owner *me,
			struct zbd_req *r, bool *quiesce, char *why, size_t why_len)
{
	struct zbd_dev *d = v->dev;
	struct zbd_zone *z = &d->z[zone_idx(d, r->offset)];
	uint64_t len, end;

	if (r->len > d->zone_size) {
		snprintf(why, why_len, "zonemode=zbd: a %u-byte write is larger than zonesize %llu",
			 r->len, (unsigned long long)d->zone_size);
		return -EINVAL;
	}
	if (!open_zone(v, job, me, (uint32_t)(z - d->z), r->min_bs_write)) {
		z = to_open_zone(v, job, me, r, quiesce);
		if (!z)
			return ZBD_EOF;
	}
	if (job->zone.reset_frequency > 0 &&
	    d->with_data >= (uint64_t)((double)(v->hi - v->lo) * job->zone.reset_threshold) &&
	    reset_due(d, job))
		z->reset = true;
	if (z->reset || zone_full(d, z, r->min_bs)) {
		/* fio waits for the writes in flight before it resets a zone */
		*quiesce = true;
		z->reset = false;
		reset_zone(d, z, me);
		if (d->zone_cap < r->min_bs) {
			snprintf(why, why_len, "zonemode=zbd: zonecapacity %llu is smaller than the smallest block %u",
				 (unsigned long long)d->zone_cap, r->min_bs);
			return -EINVAL;
		}
	}
	r->offset = z->wp;
	if (!valid_offset(v, r->offset))
		return ZBD_EOF;
	len = cap_end(d, z) - r->offset;
	if (len > r->len)
		len = r->len;
	len = len / r->min_bs * r->min_bs;
	if (len < r->min_bs) {
		snprintf(why, why_len, "zonemode=zbd: zone remainder %llu is smaller than the smallest block %u",
			 (unsigned long long)(cap_end(d, z) - r->offset), r->min_bs);
		return -EIO;
	}
	r->len = (uint32_t)len;
	/* the write pointer moves at issue, as fio's zbd_queue_io; a zone it fills closes */
	end = r->offset + len;
	d->with_data += end - z->wp;
	z->wp = end;
	if (end >= cap_end(d, z))
		close_zone(d, (uint32_t)(z - d->z));
	return ZBD_ACCEPT;
}

/* fio's zbd_find_zone: the next zone (random: the nearest either way) with data to read. */
static struct zbd_zone *find_zone(struct zbd_view *v, bool random, uint64_t need,
				  struct zbd_zone *zb)
{
	struct zbd_dev *d = v->dev;
	struct zbd_zone *zl = &d->z[v->max_zone], *zf = &d->z[v->min_zone], *z1, *z2;

	for (z1 = zb + 1, z2 = zb - 1; z1 < zl || z2 >= zf; z1++, z2--) {
		if (z1 < zl) {
			if (z1->start + need <= z1->wp)
				return z1;
		} else if (!random) {
			break;
		}
		if (random && z2 >= zf && z2->start + need <= z2->wp)
			return z2;
	}
	return NULL;
}

static int adjust_read(struct zbd_view *v, bool random, struct zbd_req *r)
{
	struct zbd_dev *d = v->dev;
	struct zbd_zone *zb = &d->z[zone_idx(d, r->offset)], *orig = zb;
	uint64_t range = zb->wp - zb->start, len;

	if (range < r->min_bs || (!random && r->offset + r->min_bs > zb->wp)) {
		zb = find_zone(v, random, r->min_bs, zb);
		if (!zb)
			return ZBD_EOF;
		range = zb->wp - zb->start;
		if (!random)
			r->offset = zb->start;
	}
	/* within the zone's data, as large as it may be, keeping the offset random */
	if (range <= r->len)
		r->offset = zb->start;
	else if (random)
		r->offset = zb->start +
			    (r->offset - orig->start) % (range - r->len) / r->min_bs * r->min_bs;
	len = zb->wp - r->offset;
	if (len > r->len)
		len = r->len;
	r->len = (uint32_t)(len / r->min_bs * r->min_bs);
	return ZBD_ACCEPT;
}

int zbd_adjust(struct zbd_view *v, const struct job_spec *job, struct zbd_owner *me, bool random,
	       struct zbd_req *r, bool *quiesce, char *why, size_t why_len)
{
	int ret;

	if (r->dir == DDIR_READ && job->zone.read_beyond_wp)
		return ZBD_ACCEPT;
	pthread_mutex_lock(&v->dev->lock);
	if (r->dir == DDIR_WRITE)
		ret = adjust_write(v, job, me, r, quiesce, why, why_len);
	else
		ret = adjust_read(v, random, r);
	pthread_mutex_unlock(&v->dev->lock);
	return ret;
}

uint64_t zbd_seq_skip_capacity(const struct zbd_view *v, uint64_t pos)
{
	const struct zbd_dev *d = v->dev;
	const struct zbd_zone *z = &d->z[zone_idx(d, pos)];

	if (d->zone_cap < d->zone_size && z < &d->z[d->nr_zones] && pos >= cap_end(d, z))
		return z[1].start;
	return pos;
}

const char *zbd_zoned_model(const char *path)
{
	static const char *const models[] = { "host-managed", "host-aware" };
	char sys[128], val[32] = "";
	struct stat st;
	unsigned i, k;
	FILE *f;

	if (stat(path, &st) || !S_ISBLK(st.st_mode))
		return NULL;
	/* a partition's queue is its disk's */
	for (k = 0; k < 2; k++) {
		snprintf(sys, sizeof(sys), "/sys/dev/block/%u:%u/%squeue/zoned", major(st.st_rdev),
			 minor(st.st_rdev), k ? "../" : "");
		f = fopen(sys, "r");
		if (!f)
			continue;
		if (!fgets(val, sizeof(val), f))
			val[0] = '\0';
		fclose(f);
		break;
	}
	for (i = 0; i < 2; i++)
		if (!strncmp(val, models[i], strlen(models[i])))
			return models[i];
	return NULL;
}
