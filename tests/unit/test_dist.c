/* Unit tests: zipf, pareto and normal distributions against their known properties. */
#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "io/dist.h"

#define SAMPLES 200000

static uint64_t *histogram(struct dist *d, uint64_t n)
{
	uint64_t *h = calloc(n, sizeof(*h));
	unsigned i;

	cr_assert_not_null(h);
	for (i = 0; i < SAMPLES; i++) {
		uint64_t v = dist_next(d);

		cr_assert_lt(v, n);
		h[v]++;
	}
	return h;
}

Test(zipf, first_two_ranks_have_their_exact_share)
{
	struct dist d;
	uint64_t *h, n = 1000;
	double zetan = 0;
	unsigned i;

	cr_assert_eq(dist_init(&d, DIST_ZIPF, n, 1.2, 0.0, false, 42), 0);
	for (i = 1; i <= n; i++)
		zetan += pow(1.0 / i, 1.2);
	h = histogram(&d, n);
	/* Gray's method gives rank 1 p = 1/zeta(n) and rank 2 p = 2^-theta/zeta(n) exactly */
	cr_assert_float_eq((double)h[0] / SAMPLES, 1.0 / zetan, 0.005);
	cr_assert_float_eq((double)h[1] / SAMPLES, pow(0.5, 1.2) / zetan, 0.005);
	free(h);
}

Test(zipf, hot_set_shrinks_as_theta_grows)
{
	struct dist lo, hi;
	uint64_t *a, *b, n = 10000, top_lo = 0, top_hi = 0;
	unsigned i;

	cr_assert_eq(dist_init(&lo, DIST_ZIPF, n, 0.8, 0.0, false, 7), 0);
	cr_assert_eq(dist_init(&hi, DIST_ZIPF, n, 1.4, 0.0, false, 7), 0);
	a = histogram(&lo, n);
	b = histogram(&hi, n);
	for (i = 0; i < n / 100; i++) {
		top_lo += a[i];
		top_hi += b[i];
	}
	cr_assert_gt(top_hi, top_lo);
	free(a);
	free(b);
}

Test(zipf, refuses_theta_one)
{
	struct dist d;

	cr_assert_eq(dist_init(&d, DIST_ZIPF, 100, 1.0, -1.0, true, 1), -EINVAL);
}

Test(pareto, h_of_point_two_puts_80_percent_in_the_first_20)
{
	struct dist d;
	uint64_t *h, n = 1000, low = 0;
	unsigned i;

	cr_assert_eq(dist_init(&d, DIST_PARETO, n, 0.2, 0.0, false, 3), 0);
	h = histogram(&d, n);
	for (i = 0; i < n / 5; i++)
		low += h[i];
	cr_assert_float_eq((double)low / SAMPLES, 0.8, 0.01);
	free(h);
}

Test(normal, mean_in_the_middle_and_deviation_one_twelfth)
{
	struct dist d;
	uint64_t n = 12000;
	double sum = 0, sumsq = 0, mean, sd;
	unsigned i;

	cr_assert_eq(dist_init(&d, DIST_NORMAL, n, 0.0, -1.0, false, 9), 0);
	for (i = 0; i < SAMPLES; i++) {
		double v = (double)dist_next(&d);

		sum += v;
		sumsq += v * v;
	}
	mean = sum / SAMPLES;
	sd = sqrt(sumsq / SAMPLES - mean * mean);
	/* the mean of twelve uniforms over [0, n]: n/2, deviation n/12 */
	cr_assert_float_eq(mean, n / 2.0, n * 0.005);
	cr_assert_float_eq(sd, n / 12.0, n / 12.0 * 0.03);
}

Test(normal, center_moves_the_peak)
{
	struct dist d;
	uint64_t n = 1000, *h, best = 0;
	unsigned i;

	cr_assert_eq(dist_init(&d, DIST_NORMAL, n, 0.0, 0.25, false, 5), 0);
	h = histogram(&d, n);
	for (i = 0; i < n; i++)
		if (h[i] > h[best])
			best = i;
	/* centre 0.25: the peak moves from n/2 to n/4 */
	cr_assert_lt(labs((long)best - 250), 60, "peak at %llu", (unsigned long long)best);
	free(h);
}

Test(dist, same_seed_same_sequence_with_hash)
{
	struct dist a, b;
	unsigned i;

	cr_assert_eq(dist_init(&a, DIST_ZIPF, 5000, 1.1, -1.0, true, 11), 0);
	cr_assert_eq(dist_init(&b, DIST_ZIPF, 5000, 1.1, -1.0, true, 11), 0);
	for (i = 0; i < 1000; i++)
		cr_assert_eq(dist_next(&a), dist_next(&b));
}
