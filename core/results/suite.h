/* Suites: fixed sets of built-in workloads run on named targets, repeated, as one table. */
#ifndef IOPATH_SUITE_H
#define IOPATH_SUITE_H

#include <jansson.h>
#include <limits.h>
#include <stdbool.h>

#include "base/err.h"
#include "report/report_suite.h"
#include "results/explain.h"

/* The suite's default scale: the whole vm-paths suite in about a minute on a fast disk. */
#define SUITE_DEFAULT_SCALE 0.1

/*
 * vm-paths: the copy matrix between every pair of targets (both ways, and each onto
 * itself), and per target cat-read, dd-zero, dd-urandom, the 4 KiB random workloads and the
 * metadata operations. Creates each target's temporary directory (removed on return, also
 * on failure; on Ctrl-C by the interrupt handler). Returns -errno with err only when the
 * suite could not start; failed cells are in the result.
 *
 * Under MPI every rank calls it with the same options (its own directories): all ranks run
 * every run together, rank 0's result holds every run merged over all ranks (bytes, I/Os,
 * files summed; over the wall clock from the first rank's start to the last one's end), and
 * a rank that cannot set up stops it on all (err names it).
 */
/* What the command shows while the suite runs: how many runs, and each as it starts and ends. */
struct suite_hooks {
	void (*begin)(void *arg, unsigned runs);
	void (*start)(void *arg, const char *label, unsigned rep, unsigned repeats);
	void (*end)(void *arg);
	void *arg;
};

int suite_vm_paths(struct suite_opts *o, struct suite_result *res, const struct suite_hooks *h,
		   struct iop_err *err);

/*
 * --explain: explain's cells on every target (fn(arg, ...) before each), explained into *out; their
 * jobs join the suite's, so that iopath explain can read the suite's JSON again.
 */
int suite_explain(const struct suite_opts *o, struct suite_result *res, int argc, char **argv,
		  explain_progress_fn fn, void *arg, json_t **out, struct iop_err *err);

/*
 * The table's numbers from the cells' values (suite_vm_paths calls it after the runs): each
 * cell's summary, whether its repeats spread too wide, its ratio to the reference, and whether
 * a cell of the same test on a target that is the same filesystem (res->probes) contradicts it.
 */
void suite_summarise(const struct suite_opts *o, struct suite_result *res);
void suite_result_free(struct suite_result *res);

#endif
