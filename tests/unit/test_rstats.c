/* Unit tests: repeat statistics against known vectors (R's results, hand and brute-force checks). */
#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <stdlib.h>

#include "stats/rstats.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

Test(rstats_quantile, matches_r_type7)
{
	static const double x[] = { 10, 9, 8, 7, 6, 5, 4, 3, 2, 1 };
	static const double y[] = { 15, 1, 7, 3 };

	/* R: quantile(1:10, c(.5, .9)) = 5.5 9.1; quantile(c(1,3,7,15), .25) = 2.5 */
	cr_assert_float_eq(rstats_quantile(x, NELEM(x), 0.5), 5.5, 1e-12);
	cr_assert_float_eq(rstats_quantile(x, NELEM(x), 0.9), 9.1, 1e-12);
	cr_assert_float_eq(rstats_quantile(y, NELEM(y), 0.25), 2.5, 1e-12);
	cr_assert_float_eq(rstats_quantile(y, NELEM(y), 0.0), 1.0, 1e-12);
	cr_assert_float_eq(rstats_quantile(y, NELEM(y), 1.0), 15.0, 1e-12);
}

Test(rstats_summary, t_interval_matches_r)
{
	static const double x[] = { 3, 1, 5, 2, 4 };
	struct rsummary s;

	/* R: t.test(1:5)$conf.int = 1.036757 4.963243; sd(1:5) = 1.581139 */
	cr_assert_eq(rstats_summary(x, NELEM(x), &s), 0);
	cr_assert_eq(s.n, 5);
	cr_assert_float_eq(s.median, 3, 1e-12);
	cr_assert_float_eq(s.min, 1, 1e-12);
	cr_assert_float_eq(s.max, 5, 1e-12);
	cr_assert_float_eq(s.sd, 1.581139, 1e-6);
	cr_assert_float_eq(s.cv, 1.581139 / 3, 1e-6);
	cr_assert_float_eq(s.ci_lo, 1.036757, 1e-6);
	cr_assert_float_eq(s.ci_hi, 4.963243, 1e-6);
}

Test(rstats_summary, single_sample_has_no_spread)
{
	static const double x[] = { 42 };
	struct rsummary s;

	cr_assert_eq(rstats_summary(x, 1, &s), 0);
	cr_assert_float_eq(s.median, 42, 1e-12);
	cr_assert_float_eq(s.cv, 0, 1e-12);
	cr_assert_float_eq(s.ci_lo, 42, 1e-12);
	cr_assert_float_eq(s.ci_hi, 42, 1e-12);
}

Test(rstats_summary, refuses_no_samples)
{
	struct rsummary s;

	cr_assert_lt(rstats_summary(NULL, 0, &s), 0);
}

Test(rstats_mw, separated_three_by_three)
{
	static const double x[] = { 1, 2, 3 }, y[] = { 4, 5, 6 };
	struct mw_result r;

	/* R: wilcox.test(1:3, 4:6): W = 0, p-value = 0.1 (one arrangement in C(6,3) = 20, doubled) */
	cr_assert_eq(rstats_mann_whitney(x, 3, y, 3, RSTATS_TWO_SIDED, &r), 0);
	cr_assert(r.exact);
	cr_assert_float_eq(r.w, 0, 1e-12);
	cr_assert_float_eq(r.p, 0.1, 1e-12);
	cr_assert_eq(rstats_mann_whitney(x, 3, y, 3, RSTATS_LESS, &r), 0);
	cr_assert_float_eq(r.p, 0.05, 1e-12);
	cr_assert_eq(rstats_mann_whitney(x, 3, y, 3, RSTATS_GREATER, &r), 0);
	cr_assert_float_eq(r.p, 1.0, 1e-12);
}

Test(rstats_mw, separated_four_by_five)
{
	static const double x[] = { 1.1, 2.2, 3.3, 4.4 }, y[] = { 5.5, 6.6, 7.7, 8.8, 9.9 };
	struct mw_result r;

	/* R: W = 0, p-value = 0.01587 = 2 / C(9,4) */
	cr_assert_eq(rstats_mann_whitney(x, 4, y, 5, RSTATS_TWO_SIDED, &r), 0);
	cr_assert_float_eq(r.p, 2.0 / 126, 1e-12);
	cr_assert_float_eq(rstats_mw_min_p(4, 5, RSTATS_TWO_SIDED), 2.0 / 126, 1e-12);
}

Test(rstats_mw, r_documentation_example)
{
	/* ?wilcox.test (Hollander & Wolfe): W = 35, p-value = 0.1272 for alternative "greater" */
	static const double x[] = { 0.80, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46 };
	static const double y[] = { 1.15, 0.88, 0.90, 0.74, 1.21 };
	struct mw_result r;

	cr_assert_eq(rstats_mann_whitney(x, NELEM(x), y, NELEM(y), RSTATS_GREATER, &r), 0);
	cr_assert(r.exact);
	cr_assert_float_eq(r.w, 35, 1e-12);
	cr_assert_float_eq(r.p, 0.1272, 5e-5);
}

/* P(U <= u) by listing every way of choosing which m of the m+n ranks belong to x. */
static double brute_lower_tail(unsigned m, unsigned n, double u)
{
	unsigned N = m + n, mask, hits = 0, total = 0;

	for (mask = 0; mask < (1u << N); mask++) {
		unsigned i, j, U = 0;

		if ((unsigned)__builtin_popcount(mask) != m)
			continue;
		for (i = 0; i < N; i++)
			for (j = 0; j < N; j++)
				if ((mask & (1u << i)) && !(mask & (1u << j)) && i > j)
					U++;
		total++;
		hits += U <= u;
	}
	return (double)hits / total;
}

Test(rstats_mw, exact_tail_agrees_with_enumeration)
{
	static const double x[] = { 3.1, 7.4, 1.2, 9.8, 5.5, 6.1 };
	static const double y[] = { 2.2, 4.8, 8.3, 0.7, 6.6, 4.1, 10.2 };
	struct mw_result r;
	unsigned m, n;

	for (m = 1; m <= NELEM(x); m++) {
		for (n = 1; n <= NELEM(y); n++) {
			cr_assert_eq(rstats_mann_whitney(x, m, y, n, RSTATS_LESS, &r), 0);
			cr_assert_float_eq(r.p, brute_lower_tail(m, n, r.w), 1e-12,
					   "m=%u n=%u W=%g", m, n, r.w);
		}
	}
}

Test(rstats_mw, ties_use_corrected_normal_approximation)
{
	static const double x[] = { 1, 2, 3, 4, 5 }, y[] = { 3, 4, 5, 6, 7 };
	struct mw_result r;

	/*
	 * R: wilcox.test(1:5, 3:7): W = 4.5, p-value = 0.1138 (with the ties warning).
	 * By hand: z = (4.5 - 12.5 + 0.5) / sqrt(25/12 * (11 - 18/90)) = -1.5811.
	 */
	cr_assert_eq(rstats_mann_whitney(x, 5, y, 5, RSTATS_TWO_SIDED, &r), 0);
	cr_assert_not(r.exact);
	cr_assert_float_eq(r.w, 4.5, 1e-12);
	cr_assert_float_eq(r.p, 0.113846, 1e-5);
}

Test(rstats_mw, identical_samples_are_not_significant)
{
	static const double x[] = { 5, 5, 5, 5 };
	struct mw_result r;

	cr_assert_eq(rstats_mann_whitney(x, 4, x, 4, RSTATS_TWO_SIDED, &r), 0);
	cr_assert_float_eq(r.p, 1.0, 1e-12);
}

Test(rstats_mw, min_p_says_when_samples_are_too_small)
{
	/* 2 vs 2 can never reach 0.05 two-sided: 2/6; 3 vs 3 one-sided reaches 1/20 */
	cr_assert_float_eq(rstats_mw_min_p(2, 2, RSTATS_TWO_SIDED), 1.0 / 3, 1e-12);
	cr_assert_float_eq(rstats_mw_min_p(3, 3, RSTATS_LESS), 0.05, 1e-12);
	cr_assert_float_eq(rstats_mw_min_p(1, 1, RSTATS_LESS), 0.5, 1e-12);
}

Test(rstats_bootstrap, fixed_seed_is_repeatable)
{
	static const double x[] = { 100, 102, 98, 101, 99 }, y[] = { 80, 82, 79, 81, 78 };
	double lo1, hi1, lo2, hi2;

	cr_assert_eq(rstats_bootstrap_change(x, 5, y, 5, 2000, 7, 0.95, &lo1, &hi1), 0);
	cr_assert_eq(rstats_bootstrap_change(x, 5, y, 5, 2000, 7, 0.95, &lo2, &hi2), 0);
	cr_assert_eq(lo1, lo2);
	cr_assert_eq(hi1, hi2);
	/* the change is -20%: the interval holds it and stays clear of zero */
	cr_assert_leq(lo1, -0.20);
	cr_assert_geq(hi1, -0.20);
	cr_assert_lt(hi1, 0);
	/* bounds can only be ratios of sample values: between 78/102 - 1 and 82/98 - 1 */
	cr_assert_geq(lo1, 78.0 / 102 - 1 - 1e-12);
	cr_assert_leq(hi1, 82.0 / 98 - 1 + 1e-12);
}

Test(rstats_bootstrap, constant_samples_give_a_point)
{
	static const double x[] = { 10, 10, 10 }, y[] = { 12, 12, 12, 12 };
	double lo, hi;

	cr_assert_eq(rstats_bootstrap_change(x, 3, y, 4, 500, 1, 0.95, &lo, &hi), 0);
	cr_assert_float_eq(lo, 0.2, 1e-12);
	cr_assert_float_eq(hi, 0.2, 1e-12);
}

Test(rstats_bootstrap, overlapping_samples_straddle_zero)
{
	static const double x[] = { 90, 130, 70, 110, 100, 120, 80 };
	static const double y[] = { 85, 125, 72, 104, 98, 115, 76 };
	double lo, hi;

	cr_assert_eq(rstats_bootstrap_change(x, 7, y, 7, 4000, 3, 0.95, &lo, &hi), 0);
	cr_assert_lt(lo, 0);
	cr_assert_gt(hi, 0);
}

Test(rstats_welch, statistic_and_degrees_of_freedom)
{
	static const double x[] = { 1, 2, 3, 4, 5 }, y[] = { 2, 4, 6 };
	struct welch_result r;

	/* var(x)/5 = 0.5, var(y)/3 = 4/3: se = sqrt(11/6), df = (11/6)^2 / (0.25/4 + (16/9)/2) */
	cr_assert_eq(rstats_welch(x, 5, y, 3, 0, RSTATS_GREATER, 0.95, &r), 0);
	cr_assert_float_eq(r.diff, 1, 1e-12);
	cr_assert_float_eq(r.se, sqrt(11.0 / 6), 1e-12);
	cr_assert_float_eq(r.df, (121.0 / 36) / (0.0625 + 8.0 / 9), 1e-12);
	cr_assert_float_eq(r.t, 1 / sqrt(11.0 / 6), 1e-12);
	cr_assert(r.p > 0.2 && r.p < 0.35, "p %g", r.p);
	cr_assert(r.ci_lo < 0 && r.ci_hi > 2, "[%g, %g]", r.ci_lo, r.ci_hi);
}

Test(rstats_welch, p_is_the_t_tail_against_the_margin)
{
	/* equal spreads and sizes: df = 2n - 2 = 4; t = diff / se */
	static const double x[] = { 9, 10, 11 }, y[] = { 11, 12, 13 };
	struct welch_result r;

	cr_assert_eq(rstats_welch(x, 3, y, 3, 0, RSTATS_GREATER, 0.95, &r), 0);
	cr_assert_float_eq(r.df, 4, 1e-12);
	cr_assert_float_eq(r.t, 2 / sqrt(2.0 / 3), 1e-12);
	/* t(4) upper tail at 2.449490: 0.03516 (tables) */
	cr_assert_float_eq(r.p, 0.0351, 2e-4);
	/* against a margin of 2 the difference is no evidence at all */
	cr_assert_eq(rstats_welch(x, 3, y, 3, 2, RSTATS_GREATER, 0.95, &r), 0);
	cr_assert_float_eq(r.p, 0.5, 1e-12);
	cr_assert_eq(rstats_welch(x, 3, y, 3, 0, RSTATS_LESS, 0.95, &r), 0);
	cr_assert_float_eq(r.p, 1 - 0.0351, 2e-4);
	/* 95% interval: 2 +- 2.776445 * 0.816497 */
	cr_assert_float_eq(r.ci_lo, 2 - 2.776445 * sqrt(2.0 / 3), 1e-5);
	cr_assert_float_eq(r.ci_hi, 2 + 2.776445 * sqrt(2.0 / 3), 1e-5);
}

Test(rstats_welch, needs_two_values_a_side)
{
	static const double x[] = { 1, 2 };
	struct welch_result r;

	cr_assert_eq(rstats_welch(x, 1, x, 2, 0, RSTATS_LESS, 0.95, &r), -EINVAL);
	cr_assert_eq(rstats_welch(x, 2, x, 2, 0, RSTATS_LESS, 0.95, &r), 0);
	cr_assert_float_eq(r.p, 0.5, 1e-12);
}

Test(rstats_paired, the_shared_level_cancels_in_each_pair)
{
	/* levels 10, 20, 30 shared by both sides; y is 1-2 above x in each pair */
	static const double x[] = { 10, 20, 30 }, y[] = { 11, 22, 32 };
	struct welch_result r, w;

	/* d = 1, 2, 2: mean 5/3, var 1/3, se 1/3, t 5 on 2 df */
	cr_assert_eq(rstats_paired(x, y, 3, 0, RSTATS_GREATER, 0.95, &r), 0);
	cr_assert_float_eq(r.diff, 5.0 / 3, 1e-12);
	cr_assert_float_eq(r.se, 1.0 / 3, 1e-12);
	cr_assert_float_eq(r.df, 2, 1e-12);
	cr_assert_float_eq(r.t, 5, 1e-12);
	/* t(2) upper tail: (1 - t / sqrt(t^2 + 2)) / 2 */
	cr_assert_float_eq(r.p, (1 - 5 / sqrt(27.0)) / 2, 1e-9);
	/* 95% interval: 5/3 +- 4.302653 / 3 */
	cr_assert_float_eq(r.ci_lo, 5.0 / 3 - 4.302653 / 3, 1e-5);
	/* unpaired, the levels' spread hides it */
	cr_assert_eq(rstats_welch(x, 3, y, 3, 0, RSTATS_GREATER, 0.95, &w), 0);
	cr_assert_gt(w.p, 0.4);
	/* against a margin of 5/3 no evidence; the other way, none */
	cr_assert_eq(rstats_paired(x, y, 3, 5.0 / 3, RSTATS_GREATER, 0.95, &r), 0);
	cr_assert_float_eq(r.p, 0.5, 1e-12);
	cr_assert_eq(rstats_paired(x, y, 3, 0, RSTATS_LESS, 0.95, &r), 0);
	cr_assert_float_eq(r.p, 1 - (1 - 5 / sqrt(27.0)) / 2, 1e-9);
	cr_assert_eq(rstats_paired(x, y, 1, 0, RSTATS_LESS, 0.95, &r), -EINVAL);
}

Test(rstats_rank, the_shift_is_the_median_of_every_pairs_difference)
{
	/* y - x over the 9 pairs: -1 0 1 1 2 3 4 5 6: median 2 */
	static const double x[] = { 1, 2, 3 }, y[] = { 2, 4, 7 };
	struct rank_shift r;

	cr_assert_eq(rstats_rank_shift(x, 3, y, 3, 0.5, RSTATS_GREATER, &r), 0);
	cr_assert_float_eq(r.shift, 2, 1e-12);
	cr_assert_float_eq(r.d[0], -1, 1e-12);
	cr_assert_float_eq(r.d[8], 6, 1e-12);
	/* 7 of the 9 differences above 0.5; exact for 3 and 3: P(W >= 7) = 4/20 */
	cr_assert(r.exact);
	cr_assert_float_eq(r.w, 7, 1e-12);
	cr_assert_float_eq(r.p, 0.2, 1e-12);
	rstats_rank_shift_free(&r);
	cr_assert_null(r.d);
	cr_assert_eq(rstats_rank_shift(x, 0, y, 3, 0, RSTATS_LESS, &r), -EINVAL);
	cr_assert_eq(rstats_rank_shift(x, 3, y, 3, 0, RSTATS_TWO_SIDED, &r), -EINVAL);
}

/* R's exact interval for 3 and 3: at 90% one-sided the bound is the largest difference (qu 1). */
Test(rstats_rank, the_exact_bound_is_rs_interval)
{
	static const double x[] = { 1, 2, 3 }, y[] = { 2, 4, 7 };
	struct rank_shift r;

	cr_assert_eq(rstats_rank_shift(x, 3, y, 3, 0.5, RSTATS_LESS, &r), 0);
	cr_assert_float_eq(rstats_rank_bound(&r, RSTATS_LESS, 0.90), 6, 1e-12);
	cr_assert_float_eq(rstats_rank_bound(&r, RSTATS_GREATER, 0.90), -1, 1e-12);
	/* P(W <= 1) = 2/20: at 85% qu is 2, the second from either end */
	cr_assert_float_eq(rstats_rank_bound(&r, RSTATS_LESS, 0.85), 5, 1e-12);
	cr_assert_float_eq(rstats_rank_bound(&r, RSTATS_GREATER, 0.85), 0, 1e-12);
	/* 1 in 20 at best: at 95% and beyond nothing can be shown */
	cr_assert(isinf(rstats_rank_bound(&r, RSTATS_LESS, 0.96)));
	cr_assert_gt(rstats_rank_bound(&r, RSTATS_LESS, 0.96), 0);
	rstats_rank_shift_free(&r);
}

/*
 * The bound is the test inverted: a margin just beyond it is shown at 1 - level, one just
 * inside is not, for the exact distribution (8 and 9) and the normal approximation (60
 * and 55), both ways.
 */
static void bound_inverts_test(unsigned nx, unsigned ny, unsigned long seed)
{
	static const double levels[] = { 0.9, 0.95, 0.99, 0.999 };
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	double x[64], y[64];
	unsigned i, l, a;

	cr_assert_not_null(rng);
	gsl_rng_set(rng, seed);
	for (i = 0; i < nx; i++)
		x[i] = gsl_ran_gaussian(rng, 1);
	for (i = 0; i < ny; i++)
		y[i] = gsl_ran_gaussian(rng, 1) - 1;
	for (a = 0; a < 2; a++) {
		enum rstats_alt alt = a ? RSTATS_GREATER : RSTATS_LESS;

		for (l = 0; l < NELEM(levels); l++) {
			struct rank_shift r, in, out;
			double b, gap = INFINITY;
			unsigned k;

			cr_assert_eq(rstats_rank_shift(x, nx, y, ny, 0, alt, &r), 0);
			b = rstats_rank_bound(&r, alt, levels[l]);
			cr_assert(isfinite(b), "%u/%u at %g", nx, ny, levels[l]);
			for (k = 1; k < nx * ny; k++)
				if (r.d[k] > r.d[k - 1])
					gap = fmin(gap, r.d[k] - r.d[k - 1]);
			/* beyond the bound: below it for a shift below, above it for one above */
			cr_assert_eq(rstats_rank_shift(x, nx, y, ny, b + (a ? -1 : 1) * gap / 4, alt, &out), 0);
			cr_assert_eq(rstats_rank_shift(x, nx, y, ny, b + (a ? 1 : -1) * gap / 4, alt, &in), 0);
			cr_assert_eq(out.exact, nx < 50 && ny < 50);
			cr_assert_lt(out.p, 1 - levels[l], "%u/%u alt %u level %g: beyond p %g", nx, ny, a,
				     levels[l], out.p);
			cr_assert_geq(in.p, 1 - levels[l], "%u/%u alt %u level %g: inside p %g", nx, ny, a,
				      levels[l], in.p);
			rstats_rank_shift_free(&r);
			rstats_rank_shift_free(&in);
			rstats_rank_shift_free(&out);
		}
	}
	gsl_rng_free(rng);
}

Test(rstats_rank, the_bound_is_the_test_inverted)
{
	bound_inverts_test(8, 9, 3);
	bound_inverts_test(60, 55, 5);
}

/* One value 20 times out moves the shift by at most one rank's worth; the means' by far more. */
Test(rstats_rank, a_far_outlier_moves_the_shift_little)
{
	double x[] = { 0.1, -0.2, 0.05, 0.3, -0.1, 0.0, 0.2, -0.05 };
	double y[] = { 0.12, -0.1, 0.0, 0.25, -0.15, 0.1, 0.05, -0.02 };
	struct rank_shift a, b;
	struct welch_result wa, wb;

	cr_assert_eq(rstats_rank_shift(x, 8, y, 8, 0, RSTATS_LESS, &a), 0);
	cr_assert_eq(rstats_welch(x, 8, y, 8, 0, RSTATS_LESS, 0.95, &wa), 0);
	y[0] = -3;	/* one repeat 20 times slower, in logs */
	cr_assert_eq(rstats_rank_shift(x, 8, y, 8, 0, RSTATS_LESS, &b), 0);
	cr_assert_eq(rstats_welch(x, 8, y, 8, 0, RSTATS_LESS, 0.95, &wb), 0);
	cr_assert_lt(fabs(b.shift - a.shift), 0.1, "shift %g -> %g", a.shift, b.shift);
	cr_assert_gt(fabs(wb.diff - wa.diff), 0.3, "mean difference %g -> %g", wa.diff, wb.diff);
	rstats_rank_shift_free(&a);
	rstats_rank_shift_free(&b);
}

/*
 * R's example (Hollander & Wolfe's depression scale, ?wilcox.test): wilcox.test(x, y,
 * paired = TRUE, alternative = "greater") gives V = 40, p = 0.01953 (10 of the 512 sign
 * patterns); the pseudo-median is the median of the 45 Walsh averages.
 */
Test(rstats_signed_rank, matches_rs_example)
{
	static const double x[] = { 1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.30 };
	static const double y[] = { 0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29 };
	double d[9];
	struct rank_shift r;
	unsigned i;

	for (i = 0; i < 9; i++)
		d[i] = x[i] - y[i];
	cr_assert_eq(rstats_signed_rank(d, 9, 0, RSTATS_GREATER, &r), 0);
	cr_assert(r.exact);
	cr_assert_eq(r.pairs, 9);
	cr_assert_float_eq(r.w, 40, 1e-12);
	cr_assert_float_eq(r.p, 10.0 / 512, 1e-12);
	cr_assert_float_eq(r.shift, r.d[22], 1e-12);
	cr_assert_float_eq(r.d[0], -0.147, 1e-12);
	cr_assert_float_eq(r.d[44], 1.022, 1e-12);
	rstats_rank_shift_free(&r);
	/* the other way: P(V <= 40) = 1 - P(V >= 41) = 1 - 7/512 */
	cr_assert_eq(rstats_signed_rank(d, 9, 0, RSTATS_LESS, &r), 0);
	cr_assert_float_eq(r.p, 1 - 7.0 / 512, 1e-12);
	rstats_rank_shift_free(&r);
	cr_assert_eq(rstats_signed_rank(d, 0, 0, RSTATS_LESS, &r), -EINVAL);
	cr_assert_eq(rstats_signed_rank(d, 9, 0, RSTATS_TWO_SIDED, &r), -EINVAL);
}

/*
 * The tables' counts: n = 6, P(V <= 3) = 5/64 (the 5% critical value is 2, 3/64); n = 10,
 * P(V <= 8) = 25/1024 (the sums of distinct parts up to 8); and every p of random pairs against
 * all 2^n sign patterns, counted (n 1..12).
 */
Test(rstats_signed_rank, the_exact_distribution_is_the_tables_and_brute_force)
{
	static const double six[] = { -1, -2, 3, -4, -5, -6 };	/* V = 3: P(V <= 3) = 5/64 */
	static const double ten[] = { 1, -2, 3, 4, -5, -6, -7, -8, -9, -10 };	/* V = 8 */
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	struct rank_shift r;
	double d[12];
	unsigned n, i, s;

	cr_assert_eq(rstats_signed_rank(six, 6, 0, RSTATS_LESS, &r), 0);
	cr_assert_float_eq(r.w, 3, 1e-12);
	cr_assert_float_eq(r.p, 5.0 / 64, 1e-12);
	rstats_rank_shift_free(&r);
	cr_assert_eq(rstats_signed_rank(ten, 10, 0, RSTATS_LESS, &r), 0);
	cr_assert_float_eq(r.w, 8, 1e-12);
	cr_assert_float_eq(r.p, 25.0 / 1024, 1e-12);
	rstats_rank_shift_free(&r);
	cr_assert_float_eq(rstats_signed_rank_min_p(6), 1.0 / 64, 1e-15);
	cr_assert_not_null(rng);
	gsl_rng_set(rng, 11);
	for (n = 1; n <= 12; n++) {
		for (i = 0; i < n; i++)
			d[i] = gsl_ran_gaussian(rng, 1) + 0.3;
		cr_assert_eq(rstats_signed_rank(d, n, 0, RSTATS_GREATER, &r), 0);
		{
			unsigned below = 0, above = 0;

			/* V of each sign pattern: the ranks 1..n chosen by its bits */
			for (s = 0; s < (1u << n); s++) {
				unsigned v = 0;

				for (i = 0; i < n; i++)
					v += (s >> i & 1) ? i + 1 : 0;
				above += v >= r.w;
				below += v <= r.w;
			}
			cr_assert_float_eq(r.p, (double)above / (1u << n), 1e-12, "n %u", n);
			rstats_rank_shift_free(&r);
			cr_assert_eq(rstats_signed_rank(d, n, 0, RSTATS_LESS, &r), 0);
			cr_assert_float_eq(r.p, (double)below / (1u << n), 1e-12, "n %u", n);
		}
		rstats_rank_shift_free(&r);
	}
	gsl_rng_free(rng);
}

/*
 * With ties (or differences at the margin) the normal approximation, R's: V = 32.5 from the
 * midranks of 1 1 2 -2 3 3 3 4, sigma^2 = 8 9 17 / 24 - (6 + 6 + 24) / 48 = 50.25, z = (32.5 -
 * 18 - 0.5) / sigma: p 0.024136.
 */
Test(rstats_signed_rank, ties_take_the_corrected_normal_approximation)
{
	static const double d[] = { 1, 1, 2, -2, 3, 3, 3, 4 };
	static const double z[] = { 0.5, 1, 2, -2, 3, 4, 0.5 };
	struct rank_shift r;

	cr_assert_eq(rstats_signed_rank(d, 8, 0, RSTATS_GREATER, &r), 0);
	cr_assert_not(r.exact);
	cr_assert_float_eq(r.w, 32.5, 1e-12);
	cr_assert_float_eq(r.sigma, sqrt(50.25), 1e-12);
	cr_assert_float_eq(r.p, 0.0241359054, 1e-9);
	rstats_rank_shift_free(&r);
	/* two at the margin are dropped (5 pairs left): the approximation, not the exact counts */
	cr_assert_eq(rstats_signed_rank(z, 7, 0.5, RSTATS_GREATER, &r), 0);
	cr_assert_not(r.exact);
	rstats_rank_shift_free(&r);
}

/* The bound is the signed-rank test inverted, exact (8 pairs) and approximated (60), both ways. */
static void sr_bound_inverts_test(unsigned n, unsigned long seed)
{
	static const double levels[] = { 0.9, 0.95, 0.99 };
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	double d[64];
	unsigned i, l, a;

	cr_assert_not_null(rng);
	gsl_rng_set(rng, seed);
	for (i = 0; i < n; i++)
		d[i] = gsl_ran_gaussian(rng, 1) - 0.5;
	for (a = 0; a < 2; a++) {
		enum rstats_alt alt = a ? RSTATS_GREATER : RSTATS_LESS;

		for (l = 0; l < NELEM(levels); l++) {
			struct rank_shift r, in, out;
			double b, gap = INFINITY;
			unsigned k, nw = n * (n + 1) / 2;

			cr_assert_eq(rstats_signed_rank(d, n, 0, alt, &r), 0);
			b = rstats_rank_bound(&r, alt, levels[l]);
			cr_assert(isfinite(b), "%u at %g", n, levels[l]);
			for (k = 1; k < nw; k++)
				if (r.d[k] > r.d[k - 1])
					gap = fmin(gap, r.d[k] - r.d[k - 1]);
			cr_assert_eq(rstats_signed_rank(d, n, b + (a ? -1 : 1) * gap / 4, alt, &out), 0);
			cr_assert_eq(rstats_signed_rank(d, n, b + (a ? 1 : -1) * gap / 4, alt, &in), 0);
			cr_assert_eq(out.exact, n < 50);
			cr_assert_lt(out.p, 1 - levels[l], "%u alt %u level %g: beyond p %g", n, a, levels[l], out.p);
			cr_assert_geq(in.p, 1 - levels[l], "%u alt %u level %g: inside p %g", n, a, levels[l], in.p);
			rstats_rank_shift_free(&r);
			rstats_rank_shift_free(&in);
			rstats_rank_shift_free(&out);
		}
	}
	gsl_rng_free(rng);
}

Test(rstats_signed_rank, the_bound_is_the_test_inverted)
{
	sr_bound_inverts_test(8, 3);
	sr_bound_inverts_test(60, 5);
	{
		/* 6 pairs: 1 in 64 at best, nothing shown at 99% */
		static const double d[] = { -1, -2, -3, -4, -5, -6 };
		struct rank_shift r;

		cr_assert_eq(rstats_signed_rank(d, 6, 0, RSTATS_LESS, &r), 0);
		cr_assert_float_eq(r.p, 1.0 / 64, 1e-12);
		cr_assert(isinf(rstats_rank_bound(&r, RSTATS_LESS, 0.99)));
		cr_assert_float_eq(rstats_rank_bound(&r, RSTATS_LESS, 0.98), -1, 1e-12);
		rstats_rank_shift_free(&r);
	}
}

/*
 * Nine pairs 30% slower (in logs) and one 10 times faster: the paired t's mean is pulled to
 * nothing and its spread blown up, the signed-rank test still shows the drop beyond 5% (V = 10,
 * the outlier's rank alone: P(V <= 10) = 43/1024).
 */
Test(rstats_signed_rank, an_outlier_pair_does_not_hide_a_shift)
{
	double d[10], zero[10] = { 0 };
	struct rank_shift r;
	struct welch_result w;
	unsigned i;

	for (i = 0; i < 9; i++)
		d[i] = log(0.7) + 0.02 * ((double)i - 4);
	d[9] = log(10);
	cr_assert_eq(rstats_signed_rank(d, 10, log(0.95), RSTATS_LESS, &r), 0);
	cr_assert_float_eq(r.p, 43.0 / 1024, 1e-12, "signed rank p %g", r.p);
	cr_assert_lt(r.shift, log(0.75));
	cr_assert_eq(rstats_paired(zero, d, 10, log(0.95), RSTATS_LESS, 0.95, &w), 0);
	cr_assert_gt(w.p, 0.3, "paired t p %g", w.p);
	rstats_rank_shift_free(&r);
}
