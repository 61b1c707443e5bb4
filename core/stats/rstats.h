/* Statistics over repeated runs: summaries, Welch's t, Mann-Whitney U, bootstrap intervals. */
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
