/* The runner: plans jobs, starts their workers group by group, and collects results. */
#ifndef IOPATH_RUN_H
#define IOPATH_RUN_H

#include <stdbool.h>

#include "probe/diskutil.h"
#include "base/err.h"
#include "base/stop.h"
#include "iopath/result.h"
#include "job/job.h"
#include "probe/pathprobe.h"

/*
 * Run every job of the list. Returns -errno (with err) when the jobs cannot start at all
 * (bad input found while planning); otherwise 0, with each job's own failure in its result.
 */
int run_jobs(const struct job_list *jobs, struct run_results *out, struct iop_err *err);

/* What a progress callback sees, about once a second while a phase runs. */
struct run_progress {
	unsigned running;	/* workers of the phase still running */
	unsigned phase;		/* stonewall phase, from 0 */
	unsigned nr_phases;
	uint64_t bytes;		/* measured bytes and I/Os of the phase so far */
	uint64_t ios;
	uint64_t elapsed_ns;	/* since the run started */
	uint64_t eta_ns;	/* estimated time left in this phase; 0 when unknown */
};

typedef void (*run_progress_fn)(const struct run_progress *p, void *arg);

/* run_jobs, calling fn (from the calling thread) about once a second while workers run. */
int run_jobs_progress(const struct job_list *jobs, struct run_results *out, run_progress_fn fn,
		      void *arg, struct iop_err *err);

/*
 * An interim report (fio's --status-interval and SIGUSR1): the run's results so far, as the
 * final report would give them had every running worker ended then; r holds them only for the
 * call. run_status_ask (base/stop.h) asks for one at once.
 */
typedef void (*run_status_fn)(const struct run_results *r, void *arg);

/* What the calling thread does while workers run. */
struct run_watch {
	run_progress_fn progress;	/* about once a second (NULL: none) */
	void *progress_arg;
	run_status_fn status;		/* every status_ns, and when asked (NULL: never) */
	void *status_arg;
	uint64_t status_ns;		/* 0: only when asked */
};

/* run_jobs, watched as asked. */
int run_jobs_watch(const struct job_list *jobs, struct run_results *out,
		   const struct run_watch *watch, struct iop_err *err);

void run_results_free(struct run_results *r);


struct worker;

/*
 * A worker's start conditions, called by the worker after the start barrier: its startdelay
 * (counted from the run's start, as fio does) and its wait_for job. True when it waited.
 */
bool run_gate_wait(struct worker *w);

/* Has exitall ended this worker (or, before it started, its job)? */
bool run_terminated(struct worker *w);

/* The worker's I/O has ended: with exitall (or exitall_on_error and an error), end others. */
void run_worker_ended(struct worker *w);

/* The worker has ended (successfully or not): release jobs waiting for its job. */
void run_gate_done(struct worker *w);

#endif
