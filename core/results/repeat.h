/*
 * Repeats for every command that runs jobs (run, suite, sweep): run a job list N times
 * through run_jobs and keep every repeat's result as a sample of its cell, so the reports
 * give median, min-max, a 95% interval and a warning when the spread is too wide.
 *
 * A command that runs one job list with --repeat N:
 *
 *	results_init(&res, "run", workload_name, argc, argv, &err);
 *	identity = json_pack("{s:s}", "workload", workload_name);   (+ overrides, target role)
 *	repeat_run(&res, &jobs, identity, label, n, NULL, NULL, &err);
 *	report_cells_table(stdout, &res, CV_WARN_DEFAULT);           (report_cells.h)
 *	store_save(&st, &res, NULL, &id, &err);                       (store.h, for --save)
 *
 * A command with several job lists (a suite's targets, a sweep's cells) should interleave
 * them, A B A B, rather than repeat each in turn: drift then hits every cell alike. It
 * calls run_jobs itself and results_add_run(&res, &run, identity, label, &err) per run.
 */
#ifndef IOPATH_REPEAT_H
#define IOPATH_REPEAT_H

#include <jansson.h>

#include "base/err.h"
#include "job/job.h"
#include "results/results.h"

/* Called before each repeat (rep counts from 0). */
typedef void (*repeat_progress_fn)(void *arg, unsigned rep, unsigned repeats);

/*
 * Run jobs `repeats` times; each job's result of each repeat becomes a sample of the cell
 * identity (plus {"job": name} when the list has several jobs). Stops early, marking res
 * interrupted, when a stop is requested (run_request_stop). 0, or -errno with err when a
 * run could not start at all.
 */
int repeat_run(struct results *res, const struct job_list *jobs, const json_t *identity,
	       const char *label, unsigned repeats, repeat_progress_fn progress, void *arg,
	       struct iop_err *err);

#endif
