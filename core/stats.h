/* Latency histograms and sample statistics: recorded per thread, merged at the end. */
#ifndef IOPATH_STATS_H
#define IOPATH_STATS_H

#include <stdint.h>

#include "iopath/result.h"

static inline unsigned hist_idx(uint64_t v)
{
	unsigned msb, err_bits, base, off, idx;

	if (v < (HIST_VAL << 1))
		return (unsigned)v;
	msb = 63u - (unsigned)__builtin_clzll(v);
	err_bits = msb - HIST_BITS;
	base = (err_bits + 1) << HIST_BITS;
	off = (HIST_VAL - 1) & (unsigned)(v >> err_bits);
	idx = base + off;
	return idx < HIST_NR - 1 ? idx : HIST_NR - 1;
}

/* The value a bucket stands for: exact below 128, else the middle of the bucket. */
uint64_t hist_val(unsigned idx);

/* The smallest value that falls into bucket idx. */
uint64_t hist_lo(unsigned idx);

static inline void lat_add(struct lat_stat *s, uint64_t v)
{
	s->n++;
	s->sum += v;
	s->sumsq += (unsigned __int128)v * v;
	if (v < s->min)
		s->min = v;
	if (v > s->max)
		s->max = v;
	s->hist[hist_idx(v)]++;
}

void lat_init(struct lat_stat *s);
void lat_merge(struct lat_stat *dst, const struct lat_stat *src);
double lat_mean(const struct lat_stat *s);
double lat_stddev(const struct lat_stat *s);

/*
 * Percentiles as fio computes them: walk the buckets and report, for each wanted
 * percentile p, the value of the first bucket where the running count reaches p% of n.
 * pcts must be ascending. out[i] is 0 when there are no samples.
 */
void lat_percentiles(const struct lat_stat *s, const double *pcts, unsigned n, uint64_t *out);

void sample_init(struct sample_stat *s);
void sample_add(struct sample_stat *s, double v);
void sample_merge(struct sample_stat *dst, const struct sample_stat *src);
double sample_mean(const struct sample_stat *s);
double sample_stddev(const struct sample_stat *s);

void dir_stat_init(struct dir_stat *d);
void dir_stat_merge(struct dir_stat *dst, const struct dir_stat *src);

/* fio's default percentile list. */
extern const double default_percentiles[];
extern const unsigned nr_default_percentiles;

/* The percentiles a job reports: its percentile_list, else fio's default list. */
static inline unsigned job_percentile_list(const struct job_spec *job, const double **list)
{
	if (job && job->nr_percentiles) {
		*list = job->percentiles;
		return job->nr_percentiles;
	}
	*list = default_percentiles;
	return nr_default_percentiles;
}

#endif
