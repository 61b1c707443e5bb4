/* Latency histograms and sample statistics: recorded per thread, merged at the end. */
#ifndef IOPATH_STATS_H
#define IOPATH_STATS_H

#include <stdbool.h>
#include <stdint.h>

#include "iopath/result.h"

/* fio's bw_avg_time / iops_avg_time default: a bandwidth and IOPS sample every 500 ms. */
#define SAMPLE_NS 500000000ull

/*
 * A direction's runtime as fio reports it: its elapsed microseconds rounded up to whole
 * milliseconds (backend.c update_runtime), so a run under a millisecond reports 1, not 0.
 */
static inline uint64_t runtime_ms(uint64_t ns)
{
	return (ns / 1000 + 999) / 1000;
}

/* Bytes (or I/Os) per second over a runtime in ms, as fio divides: 0 without a runtime. */
static inline uint64_t per_sec(uint64_t n, uint64_t ms)
{
	return ms ? (uint64_t)((unsigned __int128)n * 1000 / ms) : 0;
}

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

/* A value into the summary alone (count, sum, squares, min, max): no histogram bucket. */
static inline void lat_add_summary(struct lat_stat *s, uint64_t v)
{
	s->n++;
	s->sum += v;
	s->sumsq += (unsigned __int128)v * v;
	if (v < s->min)
		s->min = v;
	if (v > s->max)
		s->max = v;
}

static inline void lat_add(struct lat_stat *s, uint64_t v)
{
	lat_add_summary(s, v);
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

/*
 * A worker's progress at each of its bandwidth samples (bytes and I/Os per data direction
 * since its measured start), kept while it reports in a group (group_reporting): the group's
 * samples are then what all its members moved in each 500 ms, summed interval by interval,
 * and not the members' samples pooled (which would make a group of four look like one).
 * Bounded: when full, every other point is dropped, which only coarsens the interpolation.
 */
struct progress_point {
	uint64_t t;			/* ns since the worker's measured start */
	uint64_t bytes[2];		/* read, write */
	uint64_t ios[2];
};

struct progress_log {
	struct progress_point *p;
	unsigned n, cap;
	bool nomem;			/* a point could not be kept: the group's samples are lost */
};

#define PROGRESS_MAX 8192u		/* points: about 68 minutes at one per 500 ms */

/* Note the worker's counters (st: its STAT_NR directions) at t; -ENOMEM sets nomem. */
int progress_log_add(struct progress_log *l, uint64_t t, const struct dir_stat *st);
void progress_log_reset(struct progress_log *l);
void progress_log_free(struct progress_log *l);

/* One member of a reporting group: its progress log and its totals when it ended. */
struct group_member {
	const struct progress_log *log;
	struct progress_point end;
};

/*
 * The samples of direction d (0 read, 1 write) of a reporting group: bandwidth one per bw_ns
 * (bwavgtime, 500 ms by default) and IOPS one per iops_ns (iopsavgtime) from the members'
 * start, for as long as any member took samples, each the sum of what every member moved in
 * it (between a member's samples, linearly; after its end, nothing). 0 or -ENOMEM.
 */
int group_samples(const struct group_member *m, unsigned n, unsigned d, uint64_t bw_ns,
		  uint64_t iops_ns, struct sample_stat *bw, struct sample_stat *iops);

/* The same sums slot by slot (period_ns each), in time order: fn(arg, slot end in ns, bytes/s,
 * I/Os per s). */
typedef void (*group_slot_fn)(void *arg, uint64_t t, double bps, double iops);
int group_series(const struct group_member *m, unsigned n, unsigned d, uint64_t period_ns,
		 group_slot_fn fn, void *arg);

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

/* rw=metadata: each operation's name, for the reports. */
extern const char *const meta_op_names[META_NR];

#endif
