/*
 * A suite's table as text, CSV and JSON: the types of its rows (filled by core/results/suite.c)
 * and their writers, which read what is declared here and print nothing of their own.
 */
#ifndef IOPATH_REPORT_SUITE_H
#define IOPATH_REPORT_SUITE_H

#include <jansson.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>

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
	char not_direct[320];		/* direct=1 asked and a cache answered: the evidence */
	bool failed;			/* no repeat succeeded */
	char implausible[400];		/* contradicted by its neighbours: why (report.h), else "" */
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

/* Under MPI: how many ranks on how many hosts (ranks 1: none), for the table's note. */
struct suite_fleet {
	unsigned ranks, hosts;
};

/* The table: targets with their probes, one row per cell, the notes under it. */
void report_suite_table(FILE *f, const struct suite_opts *o, const struct suite_result *res,
			const struct suite_fleet *fl);

/* One line per cell (test, from, to, metric, n, median, min, max, ratio, values, note). */
int report_suite_csv(FILE *f, const struct suite_opts *o, const struct suite_result *res);

/*
 * The suite's JSON: {"fio version", "iopath": {version, kernel, hostname, command_line,
 * host, targets, suite, explain, mpi}, "jobs"}. own: a rank's own file under MPI (its
 * unmerged jobs, no rows); mpi (NULL without MPI) and explain are added as given.
 * NULL on ENOMEM.
 */
json_t *report_suite_json(const struct suite_opts *o, struct suite_result *res, int argc,
			  char **argv, bool own, const json_t *explain, json_t *mpi);

#endif
