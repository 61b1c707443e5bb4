/* Unit tests: histogram bucketing, merging and fio's percentile rule. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "io/gen.h"
#include "stats/stats.h"

Test(hist, small_values_are_exact)
{
	unsigned v;

	for (v = 0; v < 128; v++) {
		cr_assert_eq(hist_idx(v), v);
		cr_assert_eq(hist_val(v), v);
	}
}

Test(hist, relative_error_below_one_percent)
{
	struct rng r;
	unsigned i;

	rng_seed(&r, 1);
	for (i = 0; i < 200000; i++) {
		uint64_t v = 128 + rng_below(&r, 1ull << (7 + i % 27));
		uint64_t m = hist_val(hist_idx(v));
		double err = (double)(m > v ? m - v : v - m) / (double)v;

		cr_assert_leq(err, 1.0 / 128 + 1e-12, "value %llu -> %llu, error %f",
			      (unsigned long long)v, (unsigned long long)m, err);
	}
}

Test(hist, bucket_bounds_match_fio)
{
	/* fio: 128..129 fall in bucket 128 (2 ns wide), value reported is the middle */
	cr_assert_eq(hist_idx(128), 128);
	cr_assert_eq(hist_idx(129), 128);
	cr_assert_eq(hist_idx(130), 129);
	cr_assert_eq(hist_val(128), 129);
	cr_assert_eq(hist_lo(192), 256);
	cr_assert_eq(hist_idx(1000000), hist_idx(hist_lo(hist_idx(1000000))));
}

Test(hist, huge_values_clamp_to_last_bucket)
{
	cr_assert_eq(hist_idx(UINT64_MAX), HIST_NR - 1);
}

static struct lat_stat *new_lat(void)
{
	struct lat_stat *s = malloc(sizeof(*s));

	cr_assert_not_null(s);
	lat_init(s);
	return s;
}

Test(percentiles, exact_vector_one_to_hundred)
{
	struct lat_stat *s = new_lat();
	const double p[] = { 1, 50, 90, 99, 100 };
	uint64_t out[5];
	unsigned v;

	for (v = 1; v <= 100; v++)
		lat_add(s, v);
	lat_percentiles(s, p, 5, out);
	cr_assert_eq(out[0], 1);
	cr_assert_eq(out[1], 50);
	cr_assert_eq(out[2], 90);
	cr_assert_eq(out[3], 99);
	cr_assert_eq(out[4], 100);
	free(s);
}

Test(percentiles, first_bucket_reaching_the_share)
{
	/* 90 samples of 10 and 10 of 1000000: p90 is 10, p91 lands on the large bucket */
	struct lat_stat *s = new_lat();
	const double p[] = { 90, 91 };
	uint64_t out[2];
	unsigned i;

	for (i = 0; i < 90; i++)
		lat_add(s, 10);
	for (i = 0; i < 10; i++)
		lat_add(s, 1000000);
	lat_percentiles(s, p, 2, out);
	cr_assert_eq(out[0], 10);
	cr_assert_eq(out[1], hist_val(hist_idx(1000000)));
	free(s);
}

Test(lat_stat, mean_and_sample_stddev)
{
	struct lat_stat *s = new_lat();
	const uint64_t v[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	unsigned i;

	for (i = 0; i < 8; i++)
		lat_add(s, v[i]);
	cr_assert_float_eq(lat_mean(s), 5.0, 1e-9);
	/* sample stddev (n - 1) of that vector is sqrt(32/7) */
	cr_assert_float_eq(lat_stddev(s), 2.138089935299395, 1e-9);
	cr_assert_eq(s->min, 2);
	cr_assert_eq(s->max, 9);
	free(s);
}

Test(lat_stat, merge_equals_recording_together)
{
	struct lat_stat *a = new_lat(), *b = new_lat(), *all = new_lat();
	struct rng r;
	unsigned i;

	rng_seed(&r, 7);
	for (i = 0; i < 10000; i++) {
		uint64_t v = rng_below(&r, 10000000);

		lat_add(i % 3 ? a : b, v);
		lat_add(all, v);
	}
	lat_merge(a, b);
	cr_assert_eq(a->n, all->n);
	cr_assert_eq(a->sum, all->sum);
	cr_assert(a->sumsq == all->sumsq);
	cr_assert_eq(a->min, all->min);
	cr_assert_eq(a->max, all->max);
	cr_assert_arr_eq(a->hist, all->hist, sizeof(a->hist));
	free(a);
	free(b);
	free(all);
}

Test(sample_stat, summary)
{
	struct sample_stat s;

	sample_init(&s);
	sample_add(&s, 10);
	sample_add(&s, 20);
	sample_add(&s, 30);
	cr_assert_float_eq(sample_mean(&s), 20.0, 1e-9);
	cr_assert_float_eq(sample_stddev(&s), 10.0, 1e-9);
	cr_assert_float_eq(s.min, 10.0, 1e-9);
	cr_assert_float_eq(s.max, 30.0, 1e-9);
}

/* A member of a reporting group with points (t in ms, bytes read) and its end. */
static void member_make(struct group_member *m, struct progress_log *l, const unsigned *ms,
			const uint64_t *bytes, unsigned n, unsigned end_ms, uint64_t end_bytes)
{
	struct dir_stat st[STAT_NR];
	unsigned i;

	memset(l, 0, sizeof(*l));
	memset(st, 0, sizeof(st));
	for (i = 0; i < n; i++) {
		st[STAT_READ].bytes = bytes[i];
		st[STAT_READ].ios = bytes[i] / 100;
		cr_assert_eq(progress_log_add(l, ms[i] * 1000000ull, st), 0);
	}
	memset(m, 0, sizeof(*m));
	m->log = l;
	m->end.t = end_ms * 1000000ull;
	m->end.bytes[0] = end_bytes;
	m->end.ios[0] = end_bytes / 100;
}

Test(group_samples, members_are_summed_interval_by_interval)
{
	static const unsigned ms[] = { 500, 1000, 1500 };
	static const uint64_t a[] = { 100, 200, 300 }, b[] = { 300, 600, 900 };
	struct progress_log la, lb;
	struct group_member m[2];
	struct sample_stat bw, iops;

	member_make(&m[0], &la, ms, a, 3, 1700, 340);
	member_make(&m[1], &lb, ms, b, 3, 1700, 1020);
	cr_assert_eq(group_samples(m, 2, 0, SAMPLE_NS, SAMPLE_NS, &bw, &iops), 0);
	/* three whole intervals of 400 bytes (4 I/Os) in 0.5 s: 800 B/s, not 200 and 600 pooled */
	cr_assert_eq(bw.n, 3);
	cr_assert_float_eq(bw.min, 800.0, 1e-9);
	cr_assert_float_eq(bw.max, 800.0, 1e-9);
	cr_assert_float_eq(sample_mean(&bw), 800.0, 1e-9);
	cr_assert_float_eq(sample_mean(&iops), 8.0, 1e-9);
	cr_assert_eq(group_samples(m, 2, 1, SAMPLE_NS, SAMPLE_NS, &bw, &iops), 0);
	cr_assert_float_eq(sample_mean(&bw), 0.0, 1e-9);	/* nothing written */
	progress_log_free(&la);
	progress_log_free(&lb);
}

Test(group_samples, a_member_that_ended_adds_nothing_later)
{
	static const unsigned ms[] = { 500, 1000, 1500 };
	static const uint64_t a[] = { 100, 200, 300 };
	struct progress_log la, lb;
	struct group_member m[2];
	struct sample_stat bw, iops;

	member_make(&m[0], &la, ms, a, 3, 1500, 300);
	/* ended at 250 ms before its first sample, having read 50 bytes */
	member_make(&m[1], &lb, ms, a, 0, 250, 50);
	cr_assert_eq(group_samples(m, 2, 0, SAMPLE_NS, SAMPLE_NS, &bw, &iops), 0);
	cr_assert_eq(bw.n, 3);
	cr_assert_float_eq(bw.max, 300.0, 1e-9);	/* (100 + 50) / 0.5 s */
	cr_assert_float_eq(bw.min, 200.0, 1e-9);
	cr_assert_float_eq(bw.sum, 700.0, 1e-9);
	progress_log_free(&la);
	progress_log_free(&lb);
}

Test(group_samples, samples_late_on_the_grid_are_interpolated)
{
	static const unsigned ms[] = { 510, 1020 }, ms2[] = { 500, 1000 };
	static const uint64_t a[] = { 510, 1020 }, b[] = { 500, 1000 };
	struct progress_log la, lb;
	struct group_member m[2];
	struct sample_stat bw, iops;

	/* both move 1000 B/s; a's samples come 10 and 20 ms late */
	member_make(&m[0], &la, ms, a, 2, 1100, 1100);
	member_make(&m[1], &lb, ms2, b, 2, 1100, 1100);
	cr_assert_eq(group_samples(m, 2, 0, SAMPLE_NS, SAMPLE_NS, &bw, &iops), 0);
	cr_assert_eq(bw.n, 2);
	cr_assert_float_eq(bw.min, 2000.0, 1e-6);
	cr_assert_float_eq(bw.max, 2000.0, 1e-6);
	progress_log_free(&la);
	progress_log_free(&lb);
}

Test(group_samples, a_full_log_keeps_every_other_point_and_the_last)
{
	struct dir_stat st[STAT_NR];
	struct progress_log l;
	unsigned i;

	memset(&l, 0, sizeof(l));
	memset(st, 0, sizeof(st));
	for (i = 1; i <= PROGRESS_MAX + 1; i++) {
		st[STAT_READ].bytes = i;
		cr_assert_eq(progress_log_add(&l, i * SAMPLE_NS, st), 0);
	}
	cr_assert_eq(l.n, PROGRESS_MAX / 2 + 1);
	cr_assert_eq(l.p[0].t, 2 * SAMPLE_NS);
	cr_assert_eq(l.p[l.n - 2].bytes[0], PROGRESS_MAX);
	cr_assert_eq(l.p[l.n - 1].bytes[0], PROGRESS_MAX + 1);
	progress_log_free(&l);
}
