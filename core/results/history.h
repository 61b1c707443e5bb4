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
 * emptied); without `by` every run is its own group. *nr_groups gets the number of groups,
 * whose pointers go to groups[] (room for n); members[g], when members is not NULL, gets how
 * many runs group g pools (consecutive in runs[]). 0, or -errno when a merge failed (out of
 * memory: the error in err, and the groups made so far in groups[]).
 */
int history_group(struct results **runs, unsigned n, const char *by, struct results **groups,
		  unsigned *members, unsigned *nr_groups, struct iop_err *err);

/*
 * A name per run (or group) of runs[0..n), the shortest that tells them apart, into names[i]
 * (len bytes each): with `by`, BY=value ("qemu=9.0"); else its start time in UTC without what
 * all of them share (the year, the day), to the minute, second or millisecond at which no two
 * are the same ("14:45", "12-02 14:45:04", "14:45:04.510"), and runs of the same millisecond
 * numbered in their order ("14:45:04.510 #2"). shared (slen bytes, or NULL) gets what the
 * times left out: "2026-12-02", "2026" or "".
 */
void history_names(struct results *const *runs, unsigned n, const char *by, char **names, size_t len,
		   char *shared, size_t slen);

/*
 * compare_results between each two adjacent groups, with o (its metrics, threshold, alpha
 * and correction, the newest step judged exactly as compare judges it): *reps (free it
 * with history_reports_free(*reps, n - 1)) gets n - 1 reports, reps[k - 1] for the step
 * into groups[k].
 */
int history_judge(struct results *const *groups, unsigned n, const struct cmp_opts *o,
		  struct cmp_report **reps, struct iop_err *err);
void history_reports_free(struct cmp_report *reps, unsigned nr);

/*
 * Every step of metric m: for each cell, between each pair of adjacent groups, a
 * regression or an improvement in that step's report. *steps (free it) gets *nr of them,
 * in cell then group order.
 */
int history_steps(struct results *const *groups, unsigned n, enum metric_id m,
		  const struct cmp_report *reps, struct hist_step **steps, unsigned *nr,
		  struct iop_err *err);

/*
 * history's exit status, as compare's: the newest group against the one before it; 3
 * (unless o->allow_inconclusive) when there is no such step or no cell in common.
 */
int history_exit_code(const struct cmp_report *reps, unsigned n, const struct cmp_opts *o);

#endif
