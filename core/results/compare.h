/* Comparing two results cell by cell: matching, per-metric change, significance, verdicts. */
#ifndef IOPATH_COMPARE_H
#define IOPATH_COMPARE_H

#include <stdbool.h>

#include "results/results.h"

struct cmp_opts {
	double threshold;	/* relative change that matters, 0.05 = 5% */
	double alpha;		/* significance level of the one-sided test */
	unsigned metrics;	/* mask of (1 << enum metric_id) */
	bool strict;		/* a change beyond the threshold that cannot be judged counts */
};

/* In the order rows are sorted (and a row's worst verdict chosen). */
enum cmp_verdict {
	CMP_FAILED,		/* the cell failed in CUR (not in BASE): fails the comparison */
	CMP_REGRESSION,		/* worse beyond the threshold, and significant */
	CMP_IMPROVEMENT,	/* better beyond the threshold, and significant */
	CMP_UNJUDGED,		/* beyond the threshold, too few repeats to judge */
	CMP_BASE_FAILED,	/* the cell failed in BASE: nothing to judge against */
	CMP_NOISE,		/* beyond the threshold, but within the repeats' noise */
	CMP_UNCHANGED,		/* within the threshold */
	CMP_NO_DATA,		/* one side has no sample of this metric */
};

struct cmp_metric {
	enum metric_id m;
	unsigned nb, nc;	/* samples on each side */
	double base, cur;	/* medians */
	double change;		/* cur / base - 1 */
	double ci_lo, ci_hi;	/* bootstrap 95% interval of the change; NAN when not computed */
	double p;		/* one-sided Mann-Whitney p in the direction seen; NAN when none */
	double cv_base, cv_cur;
	enum cmp_verdict verdict;
	char note[160];
};

struct cmp_row {
	const struct cell *base, *cur;
	unsigned nr;			/* metrics compared */
	struct cmp_metric met[MET_NR];
	enum cmp_verdict worst;		/* the row's most important verdict */
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
	unsigned failed, base_failed;	/* cells failed in CUR (not in BASE), failed in BASE */
};

int compare_results(const struct results *base, const struct results *cur,
		    const struct cmp_opts *o, struct cmp_report *rep, struct iop_err *err);
void cmp_report_free(struct cmp_report *rep);

const char *cmp_verdict_name(enum cmp_verdict v);

/* Does this verdict fail the comparison under these options? */
bool cmp_fails(enum cmp_verdict v, const struct cmp_opts *o);

#endif
