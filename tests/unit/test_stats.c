/* Unit tests: histogram bucketing, merging and fio's percentile rule. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "gen.h"
#include "stats.h"

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
