/*
 * The cell layer: a cell's job built from a recipe (a built-in workload or one named job, and
 * the options applied to every job of it), refused with a reason before it runs (the engine's
 * flags, what the path's probe saw), run and recorded into a struct results. Sweep, explain,
 * suite and the lab's loader make and keep their cells through it; a sweep's grid of cells
 * (every combination of its lists on every target) is planned here too.
 */
#ifndef IOPATH_CELLS_H
#define IOPATH_CELLS_H

#include <jansson.h>
#include <stdbool.h>

#include "base/err.h"
#include "iopath/probe.h"
#include "job/job.h"
#include "job/workloads.h"
#include "results/results.h"

/* An option of a cell's jobs, by fio's name. */
struct cell_opt {
	const char *key, *val;
};

/* What a cell's jobs are made of. */
struct cell_recipe {
	const char *workload;		/* a built-in workload's jobs, or NULL: one job, the label */
	const struct cell_opt *opts;	/* applied to every job, in order, after the workload's */
	unsigned nr_opts;
	const char *where;		/* names the options in messages ("sweep") */
	/* or: the workload through workload_load (directory, scale, its overrides), opts unused */
	const struct workload_setup *setup;
};

/* The job side of a cell (struct cell is the measured side, in results.h). */
struct cell_job {
	json_t *identity;		/* the cell's identity in the result; owned */
	char label[512];
	unsigned target;		/* the caller's index of the target it runs on */
	struct job_list jobs;
	bool skip;			/* refused before it starts: reason says why */
	char reason[800];
	bool disk;			/* some job touches the target's file */
};

/*
 * Build c's jobs from r (the jobs share probes, each path probed once): 0, or -errno with
 * err saying why (an option refused, a combination job_finish refuses, no jobs).
 */
int cell_build(struct cell_job *c, const struct cell_recipe *r, struct probe_set *probes,
	       struct iop_err *err);

/*
 * Is the built cell refused before it starts: direct=1 by an engine that cannot, or what
 * the target's probe (NULL when it failed) saw the path refuse? True with c->reason set.
 * Also sets c->disk.
 */
bool cell_refuse(struct cell_job *c, const struct probe_path *probe);

/* Build c and see whether it is refused; a cell that cannot be built is skipped, with why. */
void cell_plan(struct cell_job *c, const struct cell_recipe *r, struct probe_set *probes,
	       const struct probe_path *probe);

/* Record one run of c's jobs as samples of its cell in res (results_add_run). */
int cell_record(struct results *res, const struct cell_job *c, const struct run_results *run,
		struct iop_err *err);

/*
 * Keep the cell of identity (label NULL: made from it) in res with status st and why: a
 * sweep's skip, the QEMU lab's failed cell. 0, or -ENOMEM with err.
 */
int cell_record_status(struct results *res, const json_t *identity, const char *label,
		       enum cell_status st, const char *why, struct iop_err *err);

/* Keep c in res as skipped with why (its own reason when why is NULL). */
int cell_record_skip(struct results *res, const struct cell_job *c, const char *why,
		     struct iop_err *err);

/* Run c's jobs once through the runner and record the run. */
int cell_run(struct results *res, const struct cell_job *c, struct iop_err *err);

/* Every cell into res in plan order: the skipped ones with their reason, not dropped. */
int cells_enter(struct results *res, const struct cell_job *cells, unsigned n,
		struct iop_err *err);

/*
 * Mark the cells of res that have no sample and no status yet with st (interrupted when a
 * signal stopped the run, skipped when an error did), with why.
 */
void cells_mark_not_run(struct results *res, enum cell_status st, const char *why);

void cell_job_free(struct cell_job *c);
void cells_free(struct cell_job *cells, unsigned n);

#endif
