/* Comparing two results cell by cell: matching, per-metric change, significance, verdicts. */
#ifndef IOPATH_COMPARE_H
#define IOPATH_COMPARE_H

#include <stdbool.h>

#include "results/envcmp.h"
#include "results/results.h"
#include "stats/rstats.h"

/* The repeats a result needs on each side for compare to judge it (the --save default). */
#define CMP_REPEAT_DEFAULT 3

struct cmp_opts {
	double threshold;	/* relative change that matters, 0.05 = 5% */
	double alpha;		/* significance level of the one-sided test */
	unsigned metrics;	/* mask of (1 << enum metric_id) */
	bool strict;		/* a metric that cannot be judged counts as a regression */
	bool allow_inconclusive; /* cells that cannot be judged do not make the exit code 3 */
	bool metrics_given;	/* --metric named them: a tail that cannot be judged is inconclusive */
	bool ignore_env;	/* a regression stands however different the environment was */
};

/*
 * A tail percentile is judged only when every repeat on both sides completed at least
 * CMP_TAIL_BEYOND I/Os beyond it (p99: 1,000 I/Os a repeat, p99.9: 10,000), and p99.9 only
 * with CMP_P999_REPEATS repeats a side or more.
 */
#define CMP_TAIL_BEYOND 10
#define CMP_P999_REPEATS 5

/*
 * Samples of BASE and CUR taken in alternation (A B A B, each sample's start time known)
 * are judged in pairs, each BASE run with the CUR run beside it in time, when there are at
 * least CMP_PAIRS_MIN such pairs: what the machine did at that time is shared by the pair
 * and cancels in its ratio.
 */
#define CMP_PAIRS_MIN 3

/*
 * From CMP_SIGNED_RANK_MIN pairs the pairs are judged by Wilcoxon's signed-rank test of their
 * log differences at the threshold (the Hodges-Lehmann shift, the median of their Walsh
 * averages), not the paired t: a pair or two far out (a stall on one side) count as one rank
 * each, where they can carry the t's mean past the threshold or blow up its spread and hide a
 * change every other pair shows. Fewer keep the paired t: 5 pairs cannot go below p = 1/32.
 */
#define CMP_SIGNED_RANK_MIN 6

/*
 * Samples not taken in alternation with at least CMP_RANK_MIN repeats on each side (a sweep
 * repeats a cell while its IOPS spread: a noisy cell) are judged by ranks, the
 * Hodges-Lehmann shift of the log repeats with the Mann-Whitney test at the threshold,
 * which a few very slow repeats cannot move; fewer, by Welch's t on the logs (the exact
 * rank test cannot reach a small p from 3 repeats a side: 1 in 20 at best).
 */
#define CMP_RANK_MIN 6

/* In the order rows are sorted (and a row's worst verdict chosen). */
enum cmp_verdict {
	CMP_FAILED,		/* the cell failed in CUR (not in BASE): fails the comparison */
	CMP_REGRESSION,		/* worse beyond the threshold, and significant */
	CMP_IMPROVEMENT,	/* better beyond the threshold, and significant */
	CMP_UNJUDGED,		/* too few repeats (or zeros) to judge */
	CMP_BASE_FAILED,	/* the cell failed in BASE: nothing to judge against */
	CMP_NOISE,		/* beyond the threshold, but not significantly */
	CMP_UNCHANGED,		/* within the threshold */
	CMP_NO_DATA,		/* one side has no sample of this metric */
};

struct cmp_metric {
	enum metric_id m;
	unsigned nb, nc;	/* samples on each side */
	double base, cur;	/* medians */
	double change;		/* cur / base - 1, of the medians */
	double gm_change;	/* the same of the geometric means: what the test judges */
	/*
	 * The one-sided bound the test decides by, at the compare's level (cmp_report.level):
	 * for a drop of the geometric means (-INFINITY, ci_hi], for a rise [ci_lo, +INFINITY).
	 * The change is shown beyond the threshold exactly when the bound lies beyond it. NAN
	 * when not tested.
	 */
	double ci_lo, ci_hi;
	double level;		/* that bound's confidence level */
	double p;		/* one-sided p of a change beyond the threshold; NAN when none */
	double p_adj;		/* p adjusted over the compare (Benjamini-Hochberg) */
	double df;		/* the test's degrees of freedom */
	double diff, se;	/* the test's log difference of the means and its standard error */
	unsigned pairs;		/* the test paired this many alternating runs (0: Welch's) */
	/* tested by ranks (CMP_RANK_MIN; with pairs, CMP_SIGNED_RANK_MIN): diff is the
	 * Hodges-Lehmann shift of the logs, rank keeps its differences (or the pairs' Walsh
	 * averages) for the bound (released by cmp_metric_release) */
	bool ranked;
	struct rank_shift rank;
	/*
	 * The smallest change (a drop or a rise, the way the means moved) the test could show
	 * beyond the threshold at the spread it saw, at the compare's level; NAN when not
	 * tested. Beyond the change measured, the verdict could not have fired.
	 */
	double detectable;
	bool tested;		/* p was computed: one of the compare's family of tests */
	bool worse;		/* the geometric means moved for the worse */
	bool tail_unjudged;	/* a tail percentile with too few I/Os or repeats to test */
	bool env_explained;	/* a regression the difference in the environment explains */
	double cv_base, cv_cur;
	enum cmp_verdict verdict;
	bool inconclusive;	/* could not be judged: the comparison is incomplete */
	char note[160];
};

struct cmp_row {
	const struct cell *base, *cur;
	unsigned nr;			/* metrics compared */
	struct cmp_metric met[MET_NR];
	enum cmp_verdict worst;		/* the row's most important verdict */
	/* IOPS or bandwidth varied more than CV_WARN_DEFAULT across repeats (sweep's rule) */
	bool unreliable_base, unreliable_cur;
	double cv_base, cv_cur;		/* the larger of their coefficients of variation */
	/* what else used the machine while each side's repeats ran, and whether it explains
	 * the row's regression or improvement (envcmp.h) */
	struct env_side env_base, env_cur;
	bool env_differed;
	char env_why[200];
};

#define CMP_NOTES_MAX 24

struct cmp_report {
	struct cmp_row *rows;
	unsigned nr;
	const struct cell **only_base, **only_cur;
	unsigned nr_only_base, nr_only_cur;
	/* differences that can invalidate the comparison */
	unsigned nr_warn;
	char warn[CMP_NOTES_MAX][320];
	/* differences that are usually the point (kernel, hypervisor, labels) */
	unsigned nr_changed;
	char changed[CMP_NOTES_MAX][320];
	unsigned regressions, improvements, unjudged, noise;
	unsigned inconclusive;		/* metrics that could not be judged (see cmp_metric) */
	unsigned inconclusive_cells;	/* matched cells with one such metric or more */
	unsigned failed, base_failed;	/* cells failed in CUR (not in BASE), failed in BASE */
	unsigned tested;		/* metrics tested: the family the correction is over */
	unsigned paired;		/* of them, tested in pairs of alternating runs */
	unsigned signed_ranked;		/* of those, by the signed-rank test (CMP_SIGNED_RANK_MIN) */
	unsigned ranked;		/* of them, tested by ranks, unpaired (Mann-Whitney) */
	double level;			/* the one-sided bounds' confidence level */
	unsigned tails_unjudged;	/* tail percentiles left unjudged for want of I/Os or repeats */
	unsigned unreliable_cells;	/* matched cells unreliable on either side */
	struct env_side env_base, env_cur;	/* over every sample of each side */
	unsigned env_explained;		/* regressions the environment explains */
	char env_why[200];		/* the first such cell's reason */
};

/*
 * Judge one metric from its values on each side (all present, none NAN): fills out's
 * medians, change, bound, p, verdict and note (out->m is left alone), as a family of one
 * test. compare_results tests every metric so, then settles them together with
 * cmp_settle; the tests also drive it with simulated samples. A metric tested by ranks
 * holds memory until cmp_metric_release (cmp_report_free releases a report's).
 */
int cmp_judge_values(const double *xb, unsigned nb, const double *xc, unsigned nc,
		     bool higher_better, const struct cmp_opts *o, struct cmp_metric *out);

/*
 * The same with each value's start time (milliseconds; tb/tc NULL or any NAN: unknown):
 * values taken in alternation are tested in pairs (CMP_PAIRS_MIN).
 */
int cmp_judge_timed(const double *xb, const double *tb, unsigned nb, const double *xc,
		    const double *tc, unsigned nc, bool higher_better, const struct cmp_opts *o,
		    struct cmp_metric *out);

/*
 * Pairs of alternating runs: sorted by time, each maximal stretch of one side's values is
 * one run (its log values' mean), and runs are paired in order, (1st, 2nd), (3rd, 4th)...
 * Fills lb[k] (BASE's) and lc[k] (CUR's) and returns the number of pairs; 0 when a time is
 * unknown or a value is not positive.
 */
unsigned cmp_pairs(const double *xb, const double *tb, unsigned nb, const double *xc,
		   const double *tc, unsigned nc, double *lb, double *lc);

/*
 * The verdicts of a family of n tested metrics (those with tested set; the others are left
 * alone): Benjamini-Hochberg over their p at o->alpha, so that when nothing changed the
 * chance that any of them is flagged is at most alpha however many there are. Each bound
 * is then computed at the one level the rejections imply, 1 - alpha * max(R, 1) / n for R
 * rejections, so that a bound lies beyond the threshold exactly for the metrics flagged.
 * Returns that level.
 */
double cmp_settle(struct cmp_metric *const *v, unsigned n, const struct cmp_opts *o);

/* What a tested metric holds for its bound (a rank test's differences); its figures stay. */
void cmp_metric_release(struct cmp_metric *m);

int compare_results(const struct results *base, const struct results *cur,
		    const struct cmp_opts *o, struct cmp_report *rep, struct iop_err *err);
void cmp_report_free(struct cmp_report *rep);

const char *cmp_verdict_name(enum cmp_verdict v);

/* Does this metric's verdict fail the comparison under these options? */
bool cmp_fails(const struct cmp_metric *m, const struct cmp_opts *o);

/* compare's exit status besides 2 (bad input): */
#define CMP_EXIT_REGRESSED 1		/* something regressed or failed in CUR */
#define CMP_EXIT_INCONCLUSIVE 3		/* nothing did, but some cells could not be judged */
#define CMP_EXIT_ENVIRONMENT 3		/* the regressions found came with a different
					 * environment enough to explain them */

/* 0 when every compared cell was judged and none regressed or failed; else one of the above. */
int cmp_exit_code(const struct cmp_report *rep, const struct cmp_opts *o);

#endif
