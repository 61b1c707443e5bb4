/* fio's bandwidth, IOPS and latency logs: recorded per worker in memory, written at its end. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include <sys/stat.h>
#include <sys/xattr.h>

#include "base/atomic.h"
#include "io/iolog.h"

static const char *const kind_names[LOG_KINDS] = { "bw", "iops", "slat", "clat", "lat",
						    "clat_hist" };

/* Appends from the workers of a run, so that shared files (per_job_logs=0) stay whole. */
static pthread_mutex_t append_lock = PTHREAD_MUTEX_INITIALIZER;

bool iolog_wanted(const struct job_spec *job)
{
	return job->log.bw_set || job->log.iops_set || job->log.lat_set || job->log.hist_set;
}

int iolog_path(const struct job_spec *job, unsigned thread, enum log_kind kind, char *out,
	       size_t len)
{
	const char *name = kind == LOG_BW ? job->log.bw : kind == LOG_IOPS ? job->log.iops :
			   kind == LOG_HIST ? job->log.hist : job->log.lat;
	int n;

	if (!*name)
		name = job->name;
	/* log_store_compressed: fio's .fz (not for histogram logs, which fio stores plain too) */
	const char *fz = job->log.store_compressed && kind != LOG_HIST ? ".fz" : "";

	if (job->log.per_job)
		n = snprintf(out, len, "%s_%s.%u.log%s", name, kind_names[kind], thread, fz);
	else
		n = snprintf(out, len, "%s_%s.log%s", name, kind_names[kind], fz);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

void iologs_init(struct iologs *L, const struct job_spec *job, uint64_t epoch_ns,
		 uint64_t time_base_ms)
{
	memset(L, 0, sizeof(*L));
	L->want[LOG_BW] = job->log.bw_set;
	L->want[LOG_IOPS] = job->log.iops_set;
	L->want[LOG_SLAT] = L->want[LOG_CLAT] = L->want[LOG_LAT] = job->log.lat_set;
	L->want[LOG_HIST] = job->log.hist_set && job->log.hist_msec;	/* 0: none, as fio */
	L->hist_msec = job->log.hist_msec;
	L->epoch_ns = epoch_ns;
	L->time_base_ms = time_base_ms;
	L->avg_msec = job->log.avg_msec;
	L->max_value = job->log.max_value;
}

void iologs_rebase(struct iologs *L, uint64_t epoch_ns, uint64_t time_base_ms)
{
	L->epoch_ns = epoch_ns;
	L->time_base_ms = time_base_ms;
	L->lat_last_ms = L->hist_last_ms = 0;
}

/*
 * An array of size-byte elements with room for *cap, moved to one with room for twice as
 * many (first when empty); NULL, with the old one kept and the logs' error set to -ENOMEM,
 * when there is no memory.
 */
static void *grow(struct iologs *L, void *v, size_t *cap, size_t size, size_t first)
{
	size_t n = *cap ? *cap * 2 : first;
	void *p = realloc(v, n * size);

	if (p)
		*cap = n;
	else
		L->error = -ENOMEM;
	return p;
}

static void add(struct iologs *L, enum log_kind k, uint64_t ms, uint64_t val, unsigned ddir,
		uint32_t bs, uint64_t offset, uint64_t issue_ns, unsigned prio)
{
	struct iolog *l = &L->log[k];
	struct log_entry *e;

	if (l->nr == l->cap) {
		e = grow(L, l->e, &l->cap, sizeof(*e), 1024);
		if (!e)
			return;
		l->e = e;
	}
	e = &l->e[l->nr++];
	e->ms = ms;
	e->val = val;
	e->ddir = (uint16_t)ddir;
	e->prio = (uint16_t)prio;
	e->bs = bs;
	e->offset = offset;
	e->issue_ns = issue_ns;
}

/* The latency windows that hold samples, as one entry each (fio's __add_stat_to_log). */
static void flush_lat_window(struct iologs *L, uint64_t ms)
{
	unsigned k, d;

	for (k = 0; k < 3; k++) {
		for (d = 0; d < IOLOG_DIRS; d++) {
			uint64_t n = L->win_n[k][d];

			if (n && L->want[LOG_SLAT + k])
				add(L, LOG_SLAT + k, ms, L->max_value ? L->win_max[k][d] :
				    (L->win_sum[k][d] + n / 2) / n, d, 0, 0, 0, 0);
			L->win_n[k][d] = L->win_sum[k][d] = L->win_max[k][d] = 0;
		}
	}
}

static void window_lat(struct iologs *L, unsigned k, unsigned d, uint64_t v)
{
	L->win_sum[k][d] += v;
	L->win_n[k][d]++;
	if (v > L->win_max[k][d])
		L->win_max[k][d] = v;
}

/* The open histogram window's directions as entries (their non-empty bins), emptied. */
static void flush_hist(struct iologs *L, uint64_t ms)
{
	unsigned d, b;

	for (d = 0; d < IOLOG_DIRS; d++) {
		uint32_t *cur = L->hist_cur + (size_t)d * HIST_NR;
		struct hist_entry *e;

		if (!L->hist_any[d])
			continue;
		if (L->he_nr == L->he_cap) {
			e = grow(L, L->he, &L->he_cap, sizeof(*e), 64);
			if (!e)
				return;
			L->he = e;
		}
		e = &L->he[L->he_nr++];
		e->ms = ms;
		e->ddir = d;
		e->bs = L->hist_bs[d];
		e->first = L->hp_nr;
		for (b = 0; b < HIST_NR; b++) {
			if (!cur[b])
				continue;
			if (L->hp_nr == L->hp_cap) {
				struct hist_pair *p = grow(L, L->hp, &L->hp_cap, sizeof(*p), 1024);

				if (!p)
					return;
				L->hp = p;
			}
			L->hp[L->hp_nr].bin = b;
			L->hp[L->hp_nr++].n = cur[b];
			cur[b] = 0;
		}
		e->nr = L->hp_nr - e->first;
		L->hist_any[d] = false;
	}
}

/* fio's add_clat_sample with a histogram log: into the window, which is logged when done. */
static void hist_io(struct iologs *L, uint64_t ms, unsigned ddir, uint32_t bs, unsigned bin)
{
	if (!L->hist_cur) {
		L->hist_cur = calloc((size_t)IOLOG_DIRS * HIST_NR, sizeof(*L->hist_cur));
		if (!L->hist_cur) {
			L->error = -ENOMEM;
			return;
		}
	}
	L->hist_cur[(size_t)ddir * HIST_NR + (bin < HIST_NR ? bin : HIST_NR - 1)]++;
	L->hist_bs[ddir] = bs;
	L->hist_any[ddir] = true;
	if (ms - L->hist_last_ms >= L->hist_msec) {
		flush_hist(L, ms);
		L->hist_last_ms = ms;
	}
}

void iologs_clat(struct iologs *L, uint64_t t_ns, unsigned ddir, uint64_t clat, unsigned clat_bin)
{
	uint64_t ms = t_ns > L->epoch_ns ? (t_ns - L->epoch_ns) / 1000000 : 0;

	if (ddir >= IOLOG_DIRS)
		return;
	if (L->want[LOG_HIST])
		hist_io(L, ms, ddir, 0, clat_bin);
	if (!L->avg_msec) {
		if (L->want[LOG_CLAT])
			add(L, LOG_CLAT, ms, clat, ddir, 0, 0, 0, 0);
		return;
	}
	window_lat(L, 1, ddir, clat);
	if (ms - L->lat_last_ms >= L->avg_msec) {
		flush_lat_window(L, ms);
		L->lat_last_ms = ms - (ms - L->lat_last_ms - L->avg_msec);
	}
}

void iologs_io(struct iologs *L, uint64_t t_ns, unsigned ddir, uint32_t bs, uint64_t offset,
	       uint64_t bytes, uint64_t slat, uint64_t clat, bool has_slat, uint64_t issue_ns,
	       unsigned prio, unsigned clat_bin)
{
	uint64_t ms = t_ns > L->epoch_ns ? (t_ns - L->epoch_ns) / 1000000 : 0;
	uint64_t issued = issue_ns > L->epoch_ns ? issue_ns - L->epoch_ns : 0;
	uint64_t lat = has_slat ? slat + clat : clat, spent;
	unsigned d;

	if (ddir >= IOLOG_DIRS)
		return;
	if (L->want[LOG_HIST])
		hist_io(L, ms, ddir, bs, clat_bin);
	if (!L->avg_msec) {
		if (L->want[LOG_SLAT] && has_slat)
			add(L, LOG_SLAT, ms, slat, ddir, bs, offset, issued, prio);
		if (L->want[LOG_CLAT])
			add(L, LOG_CLAT, ms, clat, ddir, bs, offset, issued, prio);
		if (L->want[LOG_LAT])
			add(L, LOG_LAT, ms, lat, ddir, bs, offset, issued, prio);
		/* fio's per-I/O bandwidth: bytes * 10^6 / clat in ns */
		if (L->want[LOG_BW])
			add(L, LOG_BW, ms, clat ? bytes * 1000000 / clat : 0, ddir, bs, offset, issued,
			    prio);
		if (L->want[LOG_IOPS])
			add(L, LOG_IOPS, ms, 1, ddir, bs, offset, issued, prio);
		return;
	}
	if (has_slat)
		window_lat(L, 0, ddir, slat);
	window_lat(L, 1, ddir, clat);
	window_lat(L, 2, ddir, lat);
	if (ms - L->lat_last_ms >= L->avg_msec) {
		flush_lat_window(L, ms);
		/* keep the cadence: the next window starts where this one should have ended */
		L->lat_last_ms = ms - (ms - L->lat_last_ms - L->avg_msec);
	}
	L->bytes[ddir] += bytes;
	L->ios[ddir]++;
	spent = ms - L->rate_last_ms;
	if (spent < L->avg_msec)
		return;
	for (d = 0; d < IOLOG_DIRS; d++) {
		uint64_t db = L->bytes[d] - L->last_bytes[d], di = L->ios[d] - L->last_ios[d];

		if (!di)
			continue;
		/* fio: KiB/s over the window, and I/Os per second */
		if (L->want[LOG_BW])
			add(L, LOG_BW, ms, db * 1000 / spent / 1024, d, 0, 0, 0, 0);
		if (L->want[LOG_IOPS])
			add(L, LOG_IOPS, ms, di * 1000 / spent, d, 0, 0, 0, 0);
		L->last_bytes[d] = L->bytes[d];
		L->last_ios[d] = L->ios[d];
	}
	L->rate_last_ms = ms;
}

void iologs_finish(struct iologs *L, uint64_t t_ns)
{
	uint64_t ms = t_ns > L->epoch_ns ? (t_ns - L->epoch_ns) / 1000000 : 0;

	if (L->avg_msec)
		flush_lat_window(L, ms);
	if (L->hist_cur)
		flush_hist(L, ms);
}

int iolog_append_hist(const struct iologs *L, const char *path, unsigned coarseness)
{
	unsigned nb = HIST_NR >> coarseness, b;
	uint64_t *bins = calloc(nb, sizeof(*bins));
	FILE *f;
	size_t i, k;
	int ret = 0;

	if (!bins)
		return -ENOMEM;
	pthread_mutex_lock(&append_lock);
	f = iolog_open(path);
	if (!f) {
		ret = -errno;
		goto out_unlock;
	}
	for (i = 0; i < L->he_nr; i++) {
		const struct hist_entry *e = &L->he[i];

		memset(bins, 0, nb * sizeof(*bins));
		for (k = e->first; k < e->first + e->nr; k++)
			bins[L->hp[k].bin >> coarseness] += L->hp[k].n;
		fprintf(f, "%llu, %u, %u", (unsigned long long)(e->ms + L->time_base_ms), e->ddir,
			e->bs);
		for (b = 0; b < nb; b++)
			fprintf(f, ", %llu", (unsigned long long)bins[b]);
		fputc('\n', f);
	}
	if (ferror(f))
		ret = -EIO;
	if (fclose(f) && !ret)
		ret = -errno;
out_unlock:
	pthread_mutex_unlock(&append_lock);
	free(bins);
	return ret;
}

int iolog_create(const char *path)
{
	int fd, ret = atomic_open_plain(path, &fd);

	if (ret)
		return ret;
	return close(fd) ? -errno : 0;
}

FILE *iolog_open(const char *path)
{
	char val[64];
	struct stat st;
	FILE *f;
	int fd = open(path, O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) || (!S_ISREG(st.st_mode) && !S_ISCHR(st.st_mode)) ||
	    (S_ISCHR(st.st_mode) && strcmp(path, "/dev/null")) ||
	    (S_ISREG(st.st_mode) && (fgetxattr(fd, IOPATH_MARK_XATTR, val, sizeof(val)) >= 0 ||
				     errno != ENOTSUP) && !iop_marked_fd(fd))) {
		close(fd);
		errno = EPERM;
		return NULL;
	}
	f = fdopen(fd, "a");
	if (!f)
		close(fd);
	return f;
}

/*
 * fio's stored sample (struct io_sample, and io_sample_offset with log_offset=1), as
 * --inflate-log reads it back: native byte order, the direction's top bit saying an offset
 * follows.
 */
struct fio_sample {
	uint64_t time;
	uint64_t val;
	uint32_t ddir;
	uint16_t priority;
	uint64_t bs;
	uint64_t offset;
};

#define FIO_SAMPLE_LEN 32		/* sizeof(struct io_sample) in fio 3.33 */
#define FIO_SAMPLE_OFFSET_LEN 40	/* with its offset */
#define FIO_SAMPLE_OFFSET_BIT (1u << 31)
#define FIO_SAMPLE_PRIO_BIT (1u << 30)	/* log_prio=1: the priority value, not only RT or not */

/* log_store_compressed: the entries as fio's samples, one zlib stream, appended to path. */
static int append_compressed(const struct iolog *l, const char *path, const struct log_columns *c)
{
	bool offsets = c->offset;
	size_t one = offsets ? FIO_SAMPLE_OFFSET_LEN : FIO_SAMPLE_LEN, i;
	unsigned char *raw = calloc(l->nr ? l->nr : 1, one), *z = NULL;
	uLongf zlen;
	FILE *f = NULL;
	int ret = 0;

	if (!raw)
		return -ENOMEM;
	for (i = 0; i < l->nr; i++) {
		const struct log_entry *e = &l->e[i];
		struct fio_sample s = { .time = e->ms + c->time_base_ms, .val = e->val, .bs = e->bs,
					.ddir = e->ddir | (offsets ? FIO_SAMPLE_OFFSET_BIT : 0) |
						(c->prio_value ? FIO_SAMPLE_PRIO_BIT : 0),
					/* the value itself: without log_prio fio prints whether it is RT */
					.priority = (uint16_t)e->prio, .offset = e->offset };
		unsigned char *p = raw + i * one;

		memcpy(p, &s.time, 8);
		memcpy(p + 8, &s.val, 8);
		memcpy(p + 16, &s.ddir, 4);
		memcpy(p + 20, &s.priority, 2);
		memcpy(p + 24, &s.bs, 8);
		if (offsets)
			memcpy(p + 32, &s.offset, 8);
	}
	zlen = compressBound(l->nr * one);
	z = malloc(zlen);
	if (!z) {
		ret = -ENOMEM;
		goto out;
	}
	if (compress2(z, &zlen, raw, l->nr * one, Z_DEFAULT_COMPRESSION) != Z_OK) {
		ret = -EIO;
		goto out;
	}
	pthread_mutex_lock(&append_lock);
	f = iolog_open(path);
	if (!f)
		ret = -errno;
	else if (l->nr && fwrite(z, 1, zlen, f) != zlen)
		ret = -EIO;
	if (f && fclose(f) && !ret)
		ret = -errno;
	pthread_mutex_unlock(&append_lock);
out:
	free(z);
	free(raw);
	return ret;
}

int iolog_append(const struct iolog *l, const char *path, const struct log_columns *c)
{
	FILE *f;
	size_t i;
	int ret = 0;

	if (c->compressed)
		return append_compressed(l, path, c);
	pthread_mutex_lock(&append_lock);
	f = iolog_open(path);
	if (!f) {
		ret = -errno;
		goto out_unlock;
	}
	for (i = 0; i < l->nr; i++) {
		const struct log_entry *e = &l->e[i];

		fprintf(f, "%llu, %llu, %u, %u", (unsigned long long)(e->ms + c->time_base_ms),
			(unsigned long long)e->val, e->ddir, e->bs);
		if (c->offset)
			fprintf(f, ", %llu", (unsigned long long)e->offset);
		if (c->prio_value)
			fprintf(f, ", 0x%04x", e->prio);
		else
			fprintf(f, ", %u", e->prio >> IOPRIO_CLASS_SHIFT == IOPRIO_CLASS_RT);
		if (c->issue_time)
			fprintf(f, ", %llu", (unsigned long long)e->issue_ns);
		fputc('\n', f);
	}
	if (ferror(f))
		ret = -EIO;
	if (fclose(f) && !ret)
		ret = -errno;
out_unlock:
	pthread_mutex_unlock(&append_lock);
	return ret;
}

void iologs_free(struct iologs *L)
{
	unsigned k;

	for (k = 0; k < LOG_KINDS; k++) {
		free(L->log[k].e);
		L->log[k].e = NULL;
		L->log[k].nr = L->log[k].cap = 0;
	}
	free(L->hist_cur);
	free(L->he);
	free(L->hp);
	L->hist_cur = NULL;
	L->he = NULL;
	L->hp = NULL;
	L->he_nr = L->he_cap = L->hp_nr = L->hp_cap = 0;
}
