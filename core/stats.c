/* Latency histograms and sample statistics: recorded per thread, merged at the end. */
#include <math.h>
#include <string.h>

#include "stats.h"

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

void dir_stat_init(struct dir_stat *d)
{
	memset(d, 0, sizeof(*d));
	lat_init(&d->slat);
	lat_init(&d->clat);
	lat_init(&d->lat);
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
	sample_merge(&dst->bw, &src->bw);
	sample_merge(&dst->iops, &src->iops);
}
