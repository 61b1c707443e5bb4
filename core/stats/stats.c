/* Latency histograms and sample statistics: recorded per thread, merged at the end. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/stats.h"

const double default_percentiles[] = {
	1.0, 5.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0, 90.0, 95.0,
	99.0, 99.5, 99.9, 99.95, 99.99,
};
const unsigned nr_default_percentiles = sizeof(default_percentiles) / sizeof(default_percentiles[0]);

uint64_t hist_lo(unsigned idx)
{
	unsigned err_bits;

	if (idx < (HIST_VAL << 1))
		return idx;
	err_bits = (idx >> HIST_BITS) - 1;
	return (1ull << (err_bits + HIST_BITS)) + (uint64_t)(idx % HIST_VAL) * (1ull << err_bits);
}

uint64_t hist_val(unsigned idx)
{
	unsigned err_bits;

	if (idx < (HIST_VAL << 1))
		return idx;
	err_bits = (idx >> HIST_BITS) - 1;
	return hist_lo(idx) + (uint64_t)((0.5) * (double)(1ull << err_bits));
}

void lat_init(struct lat_stat *s)
{
	memset(s, 0, sizeof(*s));
	s->min = UINT64_MAX;
}

void lat_merge(struct lat_stat *dst, const struct lat_stat *src)
{
	unsigned i;

	if (!src->n)
		return;
	dst->n += src->n;
	dst->sum += src->sum;
	dst->sumsq += src->sumsq;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	for (i = 0; i < HIST_NR; i++)
		dst->hist[i] += src->hist[i];
}

double lat_mean(const struct lat_stat *s)
{
	return s->n ? (double)s->sum / (double)s->n : 0.0;
}

/* Sample standard deviation (n - 1), as fio reports it. */
double lat_stddev(const struct lat_stat *s)
{
	long double n = (long double)s->n, mean, var;

	if (s->n < 2)
		return 0.0;
	mean = (long double)s->sum / n;
	var = ((long double)s->sumsq - n * mean * mean) / (n - 1);
	return var > 0 ? (double)sqrtl(var) : 0.0;
}

void lat_percentiles(const struct lat_stat *s, const double *pcts, unsigned n, uint64_t *out)
{
	uint64_t sum = 0;
	unsigned i, j = 0;

	memset(out, 0, n * sizeof(*out));
	if (!s->n)
		return;
	for (i = 0; i < HIST_NR && j < n; i++) {
		sum += s->hist[i];
		while (j < n && (double)sum >= pcts[j] / 100.0 * (double)s->n) {
			out[j] = hist_val(i);
			j++;
		}
	}
}

void sample_init(struct sample_stat *s)
{
	memset(s, 0, sizeof(*s));
}

void sample_add(struct sample_stat *s, double v)
{
	if (!s->n || v < s->min)
		s->min = v;
	if (!s->n || v > s->max)
		s->max = v;
	s->n++;
	s->sum += v;
	s->sumsq += v * v;
}

void sample_merge(struct sample_stat *dst, const struct sample_stat *src)
{
	if (!src->n)
		return;
	if (!dst->n || src->min < dst->min)
		dst->min = src->min;
	if (!dst->n || src->max > dst->max)
		dst->max = src->max;
	dst->n += src->n;
	dst->sum += src->sum;
	dst->sumsq += src->sumsq;
}

double sample_mean(const struct sample_stat *s)
{
	return s->n ? s->sum / (double)s->n : 0.0;
}

double sample_stddev(const struct sample_stat *s)
{
	double mean, var;

	if (s->n < 2)
		return 0.0;
	mean = s->sum / (double)s->n;
	var = (s->sumsq - (double)s->n * mean * mean) / (double)(s->n - 1);
	return var > 0 ? sqrt(var) : 0.0;
}

int progress_log_add(struct progress_log *l, uint64_t t, const struct dir_stat *st)
{
	struct progress_point *pt;
	unsigned d, k;

	if (l->nomem)
		return -ENOMEM;
	if (l->n == PROGRESS_MAX) {
		/* keep the odd points: the last one stays, the spacing doubles */
		for (k = 0; 2 * k + 1 < l->n; k++)
			l->p[k] = l->p[2 * k + 1];
		l->n = k;
	}
	if (l->n == l->cap) {
		unsigned cap = l->cap ? 2 * l->cap : 64;

		pt = realloc(l->p, (cap < PROGRESS_MAX ? cap : PROGRESS_MAX) * sizeof(*pt));
		if (!pt) {
			l->nomem = true;
			return -ENOMEM;
		}
		l->p = pt;
		l->cap = cap < PROGRESS_MAX ? cap : PROGRESS_MAX;
	}
	pt = &l->p[l->n++];
	pt->t = t;
	for (d = 0; d < 2; d++) {
		pt->bytes[d] = st[d].bytes;
		pt->ios[d] = st[d].ios;
	}
	return 0;
}

void progress_log_reset(struct progress_log *l)
{
	l->n = 0;
}

void progress_log_free(struct progress_log *l)
{
	free(l->p);
	memset(l, 0, sizeof(*l));
}

/* A member's point k: its log's, then its end (k == n). */
static const struct progress_point *member_point(const struct group_member *m, unsigned k)
{
	return m->log && k < m->log->n ? &m->log->p[k] : &m->end;
}

/*
 * What member m had moved in direction d by time x (bytes, I/Os), linear between its points;
 * *k is its cursor: x never decreases between calls.
 */
static void member_at(const struct group_member *m, unsigned *k, uint64_t x, unsigned d,
		      double *bytes, double *ios)
{
	static const struct progress_point origin;
	unsigned n = m->log ? m->log->n : 0;
	const struct progress_point *a, *b;
	double frac;

	while (*k <= n && member_point(m, *k)->t < x)
		(*k)++;
	if (*k > n) {
		*bytes = (double)m->end.bytes[d];
		*ios = (double)m->end.ios[d];
		return;
	}
	a = *k ? member_point(m, *k - 1) : &origin;
	b = member_point(m, *k);
	frac = b->t > a->t ? (double)(x - a->t) / (double)(b->t - a->t) : 1.0;
	*bytes = (double)a->bytes[d] + frac * ((double)b->bytes[d] - (double)a->bytes[d]);
	*ios = (double)a->ios[d] + frac * ((double)b->ios[d] - (double)a->ios[d]);
}

int group_series(const struct group_member *m, unsigned n, unsigned d, uint64_t period_ns,
		 group_slot_fn fn, void *arg)
{
	const double secs = (double)period_ns / 1e9;
	uint64_t slots = 0, s, last;
	unsigned i, *cur;
	double *prev_b, *prev_i;
	int ret = -ENOMEM;

	for (i = 0; i < n; i++) {
		if (!m[i].log || !m[i].log->n)
			continue;
		last = m[i].log->p[m[i].log->n - 1].t / period_ns;
		if (last > slots)
			slots = last;
	}
	if (!slots)
		return 0;
	cur = calloc(n, sizeof(*cur));
	prev_b = calloc(n, sizeof(*prev_b));
	prev_i = calloc(n, sizeof(*prev_i));
	if (!cur || !prev_b || !prev_i)
		goto out;
	for (s = 1; s <= slots; s++) {
		double sum_b = 0, sum_i = 0, b, io;

		for (i = 0; i < n; i++) {
			member_at(&m[i], &cur[i], s * period_ns, d, &b, &io);
			sum_b += b - prev_b[i];
			sum_i += io - prev_i[i];
			prev_b[i] = b;
			prev_i[i] = io;
		}
		fn(arg, s * period_ns, sum_b / secs, sum_i / secs);
	}
	ret = 0;
out:
	free(cur);
	free(prev_b);
	free(prev_i);
	return ret;
}

struct slot_samples {
	struct sample_stat *bw, *iops;
};

static void add_slot(void *arg, uint64_t t, double bps, double iops)
{
	struct slot_samples *ss = arg;

	(void)t;
	if (ss->bw)
		sample_add(ss->bw, bps);
	if (ss->iops)
		sample_add(ss->iops, iops);
}

int group_samples(const struct group_member *m, unsigned n, unsigned d, uint64_t bw_ns,
		  uint64_t iops_ns, struct sample_stat *bw, struct sample_stat *iops)
{
	struct slot_samples ss = { bw, iops };
	int ret;

	sample_init(bw);
	sample_init(iops);
	if (bw_ns == iops_ns)
		return group_series(m, n, d, bw_ns, add_slot, &ss);
	ss.iops = NULL;
	ret = group_series(m, n, d, bw_ns, add_slot, &ss);
	ss.bw = NULL;
	ss.iops = iops;
	return ret ? ret : group_series(m, n, d, iops_ns, add_slot, &ss);
}

void dir_stat_init(struct dir_stat *d)
{
	memset(d, 0, sizeof(*d));
	lat_init(&d->slat);
	lat_init(&d->clat);
	lat_init(&d->lat);
	lat_init(&d->sched);
}

void dir_stat_merge(struct dir_stat *dst, const struct dir_stat *src)
{
	dst->bytes += src->bytes;
	dst->ios += src->ios;
	dst->short_ios += src->short_ios;
	if (src->runtime_ns > dst->runtime_ns)
		dst->runtime_ns = src->runtime_ns;
	lat_merge(&dst->slat, &src->slat);
	lat_merge(&dst->clat, &src->clat);
	lat_merge(&dst->lat, &src->lat);
	lat_merge(&dst->sched, &src->sched);
	sample_merge(&dst->bw, &src->bw);
	sample_merge(&dst->iops, &src->iops);
}

const char *const meta_op_names[META_NR] = { "create", "stat", "open_read", "unlink" };
