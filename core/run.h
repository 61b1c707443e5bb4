/* The runner: plans jobs, starts their workers group by group, and collects results. */
#ifndef IOPATH_RUN_H
#define IOPATH_RUN_H

#include <stdbool.h>

#include "err.h"
#include "iopath/result.h"
#include "job.h"
#include "pathprobe.h"

struct run_results {
	struct job_result *res;
	unsigned nr;
	bool interrupted;
	uint64_t start_unix_ms;
	struct probe_set *probes;	/* the host and every path the jobs touched */
	bool own_probes;		/* made by run_jobs (freed with the results) */
};

/*
 * Run every job of the list. Returns -errno (with err) when the jobs cannot start at all
 * (bad input found while planning); otherwise 0, with each job's own failure in its result.
 */
int run_jobs(const struct job_list *jobs, struct run_results *out, struct iop_err *err);

void run_results_free(struct run_results *r);

/* Ask running workers to stop soon; safe from a signal handler. */
void run_request_stop(void);
bool run_stop_requested(void);

struct worker;

/*
 * A worker's start conditions, called by the worker after the start barrier: its startdelay
 * (counted from the run's start, as fio does) and its wait_for job. True when it waited.
 */
bool run_gate_wait(struct worker *w);

/* The worker has ended (successfully or not): release jobs waiting for its job. */
void run_gate_done(struct worker *w);

/* Did any result fail? */
bool run_failed(const struct run_results *r);

#endif
