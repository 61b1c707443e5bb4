/* fio's bandwidth, IOPS and latency logs: recorded per worker in memory, written at its end. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/stat.h>
#include <sys/xattr.h>

#include "base/atomic.h"
#include "io/iolog.h"

static const char *const kind_names[LOG_KINDS] = { "bw", "iops", "slat", "clat", "lat" };

/* Appends from the workers of a run, so that shared files (per_job_logs=0) stay whole. */
static pthread_mutex_t append_lock = PTHREAD_MUTEX_INITIALIZER;

bool iolog_wanted(const struct job_spec *job)
{
	return job->bw_log_set || job->iops_log_set || job->lat_log_set;
}

int iolog_path(const struct job_spec *job, unsigned thread, enum log_kind kind, char *out,
	       size_t len)
{
	const char *name = kind == LOG_BW ? job->bw_log : kind == LOG_IOPS ? job->iops_log :
			   job->lat_log;
	int n;

	if (!*name)
		name = job->name;
	if (job->per_job_logs)
		n = snprintf(out, len, "%s_%s.%u.log", name, kind_names[kind], thread);
	else
		n = snprintf(out, len, "%s_%s.log", name, kind_names[kind]);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

void iologs_init(struct iologs *L, const struct job_spec *job, uint64_t epoch_ns)
{
	memset(L, 0, sizeof(*L));
	L->want[LOG_BW] = job->bw_log_set;
	L->want[LOG_IOPS] = job->iops_log_set;
	L->want[LOG_SLAT] = L->want[LOG_CLAT] = L->want[LOG_LAT] = job->lat_log_set;
	L->epoch_ns = epoch_ns;
	L->avg_msec = job->log_avg_msec;
	L->max_value = job->log_max_value;
}

static void add(struct iologs *L, enum log_kind k, uint64_t ms, uint64_t val, unsigned ddir,
		uint32_t bs, uint64_t offset, uint64_t issue_ns)
{
	struct iolog *l = &L->log[k];
	struct log_entry *e;

	if (l->nr == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 1024;

		e = realloc(l->e, cap * sizeof(*e));
		if (!e) {
			L->error = -ENOMEM;
			return;
		}
		l->e = e;
		l->cap = cap;
	}
	e = &l->e[l->nr++];
	e->ms = ms;
	e->val = val;
	e->ddir = ddir;
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
				    (L->win_sum[k][d] + n / 2) / n, d, 0, 0, 0);
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

void iologs_io(struct iologs *L, uint64_t t_ns, unsigned ddir, uint32_t bs, uint64_t offset,
	       uint64_t bytes, uint64_t slat, uint64_t clat, bool has_slat, uint64_t issue_ns)
{
	uint64_t ms = t_ns > L->epoch_ns ? (t_ns - L->epoch_ns) / 1000000 : 0;
	uint64_t issued = issue_ns > L->epoch_ns ? issue_ns - L->epoch_ns : 0;
	uint64_t lat = has_slat ? slat + clat : clat, spent;
	unsigned d;

	if (ddir >= IOLOG_DIRS)
		return;
	if (!L->avg_msec) {
		if (L->want[LOG_SLAT] && has_slat)
			add(L, LOG_SLAT, ms, slat, ddir, bs, offset, issued);
		if (L->want[LOG_CLAT])
			add(L, LOG_CLAT, ms, clat, ddir, bs, offset, issued);
		if (L->want[LOG_LAT])
			add(L, LOG_LAT, ms, lat, ddir, bs, offset, issued);
		/* fio's per-I/O bandwidth: bytes * 10^6 / clat in ns */
		if (L->want[LOG_BW])
			add(L, LOG_BW, ms, clat ? bytes * 1000000 / clat : 0, ddir, bs, offset, issued);
		if (L->want[LOG_IOPS])
			add(L, LOG_IOPS, ms, 1, ddir, bs, offset, issued);
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
			add(L, LOG_BW, ms, db * 1000 / spent / 1024, d, 0, 0, 0);
		if (L->want[LOG_IOPS])
			add(L, LOG_IOPS, ms, di * 1000 / spent, d, 0, 0, 0);
		L->last_bytes[d] = L->bytes[d];
		L->last_ios[d] = L->ios[d];
	}
	L->rate_last_ms = ms;
}

void iologs_finish(struct iologs *L, uint64_t t_ns)
{
	if (L->avg_msec)
		flush_lat_window(L, t_ns > L->epoch_ns ? (t_ns - L->epoch_ns) / 1000000 : 0);
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
	    (S_ISREG(st.st_mode) && fgetxattr(fd, IOPATH_MARK_XATTR, val, sizeof(val)) < 0 &&
	     errno != ENOTSUP)) {
		close(fd);
		errno = EPERM;
		return NULL;
	}
	f = fdopen(fd, "a");
	if (!f)
		close(fd);
	return f;
}

int iolog_append(const struct iolog *l, const char *path, const struct log_columns *c)
{
	FILE *f;
	size_t i;
	int ret = 0;

	pthread_mutex_lock(&append_lock);
	f = iolog_open(path);
	if (!f) {
		ret = -errno;
		goto out_unlock;
	}
	for (i = 0; i < l->nr; i++) {
		const struct log_entry *e = &l->e[i];

		fprintf(f, "%llu, %llu, %u, %u", (unsigned long long)e->ms,
			(unsigned long long)e->val, e->ddir, e->bs);
		if (c->offset)
			fprintf(f, ", %llu", (unsigned long long)e->offset);
		if (c->prio_value)
			fprintf(f, ", 0x%04x", c->prio);
		else
			fprintf(f, ", %u", c->prio >> 13 == 1);
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
}
