/*
 * A sweep's cells: every combination of its lists (engines innermost) on every target,
 * planned as cell jobs (cells.h) before anything runs, then run with repeats interleaved
 * (every cell once, then every cell again) into a struct results. Under MPI the ranks plan
 * from their own probes and go on, skip or stop together. The command (core/cli/cmd_sweep.c)
 * parses the lists and prints; the progress it shows comes through the hooks below.
 */
#ifndef IOPATH_SWEEP_CELLS_H
#define IOPATH_SWEEP_CELLS_H

#include <limits.h>
#include <stdbool.h>

#include "base/err.h"
#include "iopath/probe.h"
#include "results/cells.h"
#include "results/explain.h"
#include "results/results.h"
#include "run/refwork.h"

#define SWEEP_LIST_MAX 64
#define SWEEP_TARGETS_MAX 16
#define SWEEP_SETS_MAX 32

/* One swept dimension: its values (pointing into buf when parsed from a comma list). */
struct sweep_list {
	unsigned n;
	const char *v[SWEEP_LIST_MAX];
	char *buf;
};

struct sweep_target {
	char role[128];
	char dir[PATH_MAX];
	char file[PATH_MAX];		/* the file its cells use */
	const struct probe_path *probe;	/* NULL when the probe failed; owned by the probe set */
	bool prepared;
	char prep_err[600];		/* why its file could not be laid out */
};

struct sweep_grid {
	struct sweep_list engine, direct, bs, iodepth, numjobs, rw, workload;
	unsigned nr_targets;
	struct sweep_target targets[SWEEP_TARGETS_MAX];
	const char *size, *runtime, *ramp;
	unsigned nr_sets;
	struct cell_opt sets[SWEEP_SETS_MAX];	/* --set KEY=VALUE, for every cell */
	char set_keys[SWEEP_SETS_MAX][64];
	struct probe_set probes;		/* shared by every cell's run: each path probed once */
	unsigned repeat;
	/*
	 * Adaptive repeats: after repeat rounds, every cell whose IOPS are not yet known to
	 * within se_target (the standard error of the mean of their logarithms) runs again,
	 * round after round, up to repeat_max; 0 (or repeat_max <= repeat): exactly repeat.
	 */
	unsigned repeat_max;
	double se_target;
	unsigned repeated;	/* after the run: cells run beyond repeat */
	unsigned unsettled;	/* of them, still not known within se_target at repeat_max */
	bool explain;				/* under MPI: keep each rank's own runs too */
	/*
	 * sweep --compare KEY=BASE,CUR: each cell of one value and its partner of the other (the
	 * same identity but for KEY) repeat together, while either is not yet known, so that
	 * they stay paired repeat by repeat; NULL pair_key: each cell repeats on its own.
	 */
	const char *pair_key, *pair_val[2];
	/*
	 * --references: the control references (core/run/refwork.h) timed before and after every
	 * repeat, recorded in its iopath.machine; refw their buffer, made at the first repeat
	 */
	bool references;
	struct ref_work refw;
};

/* --save's repeats: 3, then more while a cell's IOPS are not known to within 4%, up to 20 */
#define SWEEP_SE_TARGET 0.04
#define SWEEP_REPEAT_MAX 20

/*
 * Does a cell with these repeats (the logs of its IOPS: n, their sum and sum of squares)
 * need another, to know its mean within se_target? Not below 2 repeats (no spread yet).
 */
bool sweep_needs_repeat(unsigned n, double sum, double sumsq, double se_target);

/*
 * --compare's partners: partner[i] the cell differing from cells[i] only in key, one having
 * val[0] and the other val[1]; -1 where there is none (or key is NULL).
 */
void sweep_pair_cells(const struct cell_job *cells, unsigned n, const char *key,
		      const char *const val[2], int *partner);

/* Past the repeat rounds: does cell i, or its partner (partner[i], -1: none), need another? */
bool sweep_pair_needs_repeat(const unsigned *nr, const double *sum, const double *sumsq,
			     const int *partner, unsigned i, double se_target);

/* Add a --set KEY=VALUE (kv has its '='; checked by the caller). */
int sweep_add_set(struct sweep_grid *g, const char *kv, struct iop_err *err);

/* Every cell of the grid, built and refused (a refused one keeps its reason): *out, *nr. */
int sweep_plan(struct sweep_grid *g, struct cell_job **out, unsigned *nr, struct iop_err *err);

/* Under MPI: a cell one rank must skip is skipped by all, with that rank's reason. */
void sweep_agree_skips(struct cell_job *cells, unsigned n);

/* What the command shows while the cells run, and its interrupts (Ctrl-C presses so far). */
struct sweep_hooks {
	void (*start)(void *arg, const char *label, unsigned rep, unsigned repeats);
	void (*end)(void *arg);
	void (*skipped)(void *arg);	/* a runnable cell skipped after all (its target failed) */
	unsigned (*interrupts)(void *arg);
	explain_progress_fn explain;	/* before each of --explain's cells */
	void *arg;
};

/* The number of cells not skipped. */
unsigned sweep_runnable(const struct cell_job *cells, unsigned n);

/*
 * Run the cells repeat times, interleaved, into res: each target's file laid out filled
 * before its first cell that touches it. One interrupt stops after the running cell, two
 * (or a stop request) at once; res is then marked interrupted.
 */
int sweep_run(struct sweep_grid *g, struct cell_job *cells, unsigned n, struct results *res,
	      const struct sweep_hooks *h, struct iop_err *err);

/*
 * --explain after the cells (ret: how they ended): explain's cells on every target into res.
 * Under MPI the ranks agree first, and each runs them on its own path as its own target.
 */
int sweep_explain(struct sweep_grid *g, struct results *res, int ret,
		  const struct sweep_hooks *h, struct iop_err *err);

void sweep_grid_free(struct sweep_grid *g);

#endif
