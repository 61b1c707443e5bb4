/* Statistics over repeated runs: summaries, Welch's t, Mann-Whitney U, Wilcoxon's signed rank,
 * bootstrap intervals. */
#ifndef IOPATH_RSTATS_H
#define IOPATH_RSTATS_H

#include <stdbool.h>

/* What a report says about one metric's repeats. */
struct rsummary {
	unsigned n;
	double median;
	double min, max;
	double mean, sd;
	double cv;		/* sd / mean; 0 when n < 2 or mean == 0 */
	double ci_lo, ci_hi;	/* 95% t-interval of the mean; both = mean when n < 2 */
};

/* Summarise x[0..n); 0, or -EINVAL for n == 0, -ENOMEM. */
int rstats_summary(const double *x, unsigned n, struct rsummary *s);

/* Quantile p (0..1) of x[0..n), R's default (type 7) interpolation; NAN when n == 0. */
double rstats_quantile(const double *x, unsigned n, double p);

enum rstats_alt {
	RSTATS_TWO_SIDED,
	RSTATS_LESS,		/* x tends to be smaller than y */
	RSTATS_GREATER,		/* x tends to be larger than y */
};

struct mw_result {
	double w;		/* R's W: pairs with x > y, plus half the ties */
	double p;
	bool exact;		/* exact distribution (no ties, both samples < 50) */
};

/* The Wilcoxon rank-sum / Mann-Whitney U test, as R's wilcox.test(x, y) computes it. */
int rstats_mann_whitney(const double *x, unsigned nx, const double *y, unsigned ny,
			enum rstats_alt alt, struct mw_result *r);

/*
 * Smallest p-value the exact test can give for these sample sizes: when it is above the
 * significance level, no data can show a significant difference.
 */
double rstats_mw_min_p(unsigned nx, unsigned ny, enum rstats_alt alt);

struct welch_result {
	double diff;		/* mean(y) - mean(x) */
	double se;		/* its standard error, sqrt(var(x)/nx + var(y)/ny) */
	double df;		/* Welch-Satterthwaite degrees of freedom */
	double t;		/* (diff - margin) / se; +-INFINITY when se == 0 */
	double p;		/* p-value of the alternative asked */
	double ci_lo, ci_hi;	/* two-sided interval of diff at the level asked */
};

/*
 * Welch's unequal-variance t-test of mean(y) - mean(x) against margin, as R's
 * t.test(y, x, mu = margin, alternative = ...) computes it: RSTATS_LESS asks whether the
 * difference is below margin, RSTATS_GREATER above it. Both samples need 2 values or more
 * (-EINVAL). With no spread at all (se 0) p is 0 when diff lies beyond margin, else 1.
 */
int rstats_welch(const double *x, unsigned nx, const double *y, unsigned ny, double margin,
		 enum rstats_alt alt, double level, struct welch_result *r);

/*
 * The paired t-test of mean(y[i] - x[i]) over n pairs against margin, as R's
 * t.test(y, x, paired = TRUE, mu = margin, alternative = ...) computes it, into the same
 * result (se the standard error of the mean difference, df n - 1). For samples taken in
 * alternation (x[i] and y[i] adjacent in time), what the two sides shared at that time
 * cancels in each difference. Needs 2 pairs or more (-EINVAL).
 */
int rstats_paired(const double *x, const double *y, unsigned n, double margin,
		  enum rstats_alt alt, double level, struct welch_result *r);

/*
 * The shift of y against x, judged by ranks: the Hodges-Lehmann estimate (the median of
 * y[j] - x[i] over every pair) and the Mann-Whitney test of a shift beyond margin (the test
 * of y - margin against x, as R's wilcox.test(y, x, mu = margin, alternative = ...)
 * computes it: exact without ties below 50 a side, else the normal approximation with the
 * tie and continuity corrections). A few values far out on either side move neither: each
 * counts as one rank whatever its size. d keeps every pair's difference, sorted, for the
 * bound; free it with rstats_rank_shift_free.
 */
struct rank_shift {
	double *d;		/* y[j] - x[i] for every pair, ascending: nx * ny of them */
	unsigned nx, ny;
	double shift;		/* the Hodges-Lehmann estimate: the median of d */
	double w;		/* Mann-Whitney's W at the margin: pairs with d > margin, half the ties */
	double p;		/* p of a shift beyond margin, the alternative asked */
	double sigma;		/* the normal approximation's standard deviation of W (tie-corrected) */
	bool exact;		/* p from the exact distribution */
	/* a signed-rank test's pairs (rstats_signed_rank): d then holds their n (n + 1) / 2
	 * Walsh averages; 0 for the rank-sum test of two samples */
	unsigned pairs;
};

/* alt RSTATS_LESS (a shift below margin) or RSTATS_GREATER; -EINVAL for an empty sample. */
int rstats_rank_shift(const double *x, unsigned nx, const double *y, unsigned ny, double margin,
		      enum rstats_alt alt, struct rank_shift *r);

/*
 * The one-sided bound of the shift at level (0.5..1) that the same test gives, inverted:
 * for RSTATS_LESS the upper bound, the smallest margin the test would call the shift
 * below; for RSTATS_GREATER the lower one. The test at a margin rejects at 1 - level
 * exactly when the margin lies beyond this bound (R's exact interval where the test is
 * exact; elsewhere the normal approximation with the spread of W at the margin tested).
 * +-INFINITY when no margin could be shown.
 */
double rstats_rank_bound(const struct rank_shift *r, enum rstats_alt alt, double level);

void rstats_rank_shift_free(struct rank_shift *r);

/*
 * Wilcoxon's signed-rank test of n pairs' differences d[0..n) against margin, as R's
 * wilcox.test(y, x, paired = TRUE, mu = margin, alternative = ...) computes it: V, the sum
 * of the ranks of |d - margin| where d lies above margin (differences equal to margin
 * dropped); exact below 50 pairs without ties or such zeros, else the normal approximation
 * with the tie and continuity corrections. The shift is the Hodges-Lehmann estimate, the
 * median of the Walsh averages (d[i] + d[j]) / 2 over i <= j, which r->d keeps sorted for
 * rstats_rank_bound (the signed-rank interval inverted, as for the rank-sum test). One pair
 * far out counts as one rank whatever its size, so it can neither hide a shift of the others
 * nor fake one. alt RSTATS_LESS or RSTATS_GREATER; -EINVAL for no pairs. Free with
 * rstats_rank_shift_free.
 */
int rstats_signed_rank(const double *d, unsigned n, double margin, enum rstats_alt alt,
		       struct rank_shift *r);

/* Smallest p the exact signed-rank test can give from n pairs (one-sided: 2^-n). */
double rstats_signed_rank_min_p(unsigned n);

/* The quantile p (0..1) of Student's t with df degrees of freedom. */
double rstats_t_quantile(double p, double df);

/*
 * Percentile bootstrap interval (level e.g. 0.95) of median(y)/median(x) - 1, the relative
 * change from x to y, with iters resamples from a generator seeded with seed.
 */
int rstats_bootstrap_change(const double *x, unsigned nx, const double *y, unsigned ny,
			    unsigned iters, unsigned long seed, double level, double *lo,
			    double *hi);

#endif
