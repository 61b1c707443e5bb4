/* Suites: fixed sets of built-in workloads run on named targets, repeated, as one table. */
#ifndef IOPATH_SUITE_H
#define IOPATH_SUITE_H

#include <jansson.h>
#include <limits.h>
#include <stdbool.h>

#include "base/err.h"
#include "probe/pathprobe.h"
#include "stats/rstats.h"

#define SUITE_TARGETS_MAX 8
#define SUITE_REPEAT_MAX 100

struct suite_target {
	char name[32];
	char dir[PATH_MAX];		/* as given */
	char tmp[PATH_MAX];		/* the suite's temporary directory inside it */
};

/* One row of the table: a test on one target (or, for copies, from one to another). */
struct suite_cell {
	const char *test;		/* "copy", "cat-read", ..., "metadata stat" */
	const char *workload;		/* the built-in workload it runs */
	const char *metric;		/* "MiB/s", "IOPS", "ops/s" */
	unsigned from, to;		/* target indexes; to == from except for copies */
	int meta_op;			/* metadata: which operation, else -1 */
	unsigned n;			/* successful repeats */
	double *values;			/* one per successful repeat */
	struct rsummary sum;
	double ratio;			/* reference's median / this median: x times slower; 0 = none */
	bool wide;			/* the spread is too wide to judge */
	bool fell_back;			/* direct=1 was refused on the path: measured with direct=0 */
	char note[320];			/* why it failed, or why it fell back */
	bool failed;			/* no repeat succeeded */
};

struct suite_opts {
	unsigned nr_targets;
	struct suite_target targets[SUITE_TARGETS_MAX];
	unsigned reference;
	unsigned repeat;
	double scale;
};

struct suite_result {
	unsigned nr_cells;
	struct suite_cell *cells;
	struct probe_set probes;
	json_t *jobs;			/* every run's job, fio-shaped, in the order run */
	json_t *own_jobs;		/* under MPI with --mpi-rank-output: this rank's own, unmerged */
	bool interrupted;
	unsigned runs;
};

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
int suite_vm_paths(struct suite_opts *o, struct suite_result *res, struct iop_err *err);

void suite_result_free(struct suite_result *res);

#endif
