/*
 * History: runs ordered by time or by a label's version, runs of one version pooled, and
 * the steps where a cell changed between two adjacent versions, judged with compare's test.
 */
#ifndef IOPATH_HISTORY_H
#define IOPATH_HISTORY_H

#include "results/compare.h"
#include "results/results.h"

struct hist_step {
	const struct cell *from, *to;	/* the cell in groups[at - 1] and groups[at] */
	unsigned at;			/* the group where the change shows */
	struct cmp_metric m;		/* compare's verdict between the two groups */
};

/*
 * Pool runs[0..n) (sorted, by value of label `by` when by is set) into groups: runs with
 * the same value of `by` are merged into the first of them (the others are freed and
 * emptied); without `by` every run is its own group. Returns the number of groups, whose
 * pointers go to groups[] (room for n); members[g], when members is not NULL, gets how many
 * runs group g pools (consecutive in runs[]).
 */
unsigned history_group(struct results **runs, unsigned n, const char *by,
		       struct results **groups, unsigned *members);

/*
 * Every step of metric m: for each cell, between each pair of adjacent groups where both
 * have samples, a regression or an improvement by compare's test. *steps (free it) gets
 * *nr of them, in cell then group order.
 */
int history_steps(struct results *const *groups, unsigned n, enum metric_id m,
		  const struct cmp_opts *o, struct hist_step **steps, unsigned *nr,
		  struct iop_err *err);

#endif
