/* Runs across MPI ranks: the one door from the runner and the commands to MPI. */
#ifndef IOPATH_FLEET_H
#define IOPATH_FLEET_H

/*
 * core/fleet/fleet_mpi.c holds every MPI call and is built only with `make MPI=1`;
 * core/fleet/fleet_none.c stands in otherwise, making this process rank 0 of 1 and every hook a
 * no-op, so the runner calls these unconditionally. core/fleet/fleet.c (always built) holds what
 * needs no MPI: the ${RANK}/${HOST} substitution, the per-rank result blob, and rank 0's merge
 * into one result in fio's client/server JSON shape.
 *
 * The protocol, for every stonewall group: all ranks exchange their next step (group number,
 * or "finished", plus a stop flag) and split off a communicator of those running that group;
 * they set up locally, pass a barrier whose exit is each rank's time origin for the group,
 * sample their own progress while the workers run, and after the group exchange start/end
 * times to learn the window in which every rank was running. At the end each rank sends rank 0
 * a blob of its results; rank 0 merges histograms bucket by bucket and writes the result.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "base/err.h"
#include "base/stop.h"
#include "iopath/job.h"
#include "iopath/result.h"

#include "run/phase.h"
#include "run/run.h"

struct output_opts;

/* Compiled with MPI? */
bool fleet_compiled(void);

/*
 * Take the MPI options out of argv (--mpi, --mpi-rank-output=DIR, --mpi-shared-files) and,
 * when asked for or when launched by mpirun, join the MPI job. Sets RANK and HOST in the
 * environment, so that ${RANK} and ${HOST} in job options name this rank and its host (the
 * job parser expands ${VAR} from the environment, as fio does; outside MPI they are set to
 * 0 and the hostname unless already set). Returns 0, or an exit code with a one-line message
 * on stderr (e.g. asked for MPI in a build without it: 2).
 */
int fleet_setup(int *argc, char **argv);

/* Leave the MPI job (joining the final gather first if this rank never did). */
int fleet_exit(int code);

/* Is this process one rank of an MPI job? */
bool fleet_active(void);
unsigned fleet_rank(void);
unsigned fleet_size(void);
const char *fleet_hostname(void);
bool fleet_hosts_unique(void);		/* no two ranks on one host */
bool fleet_shared_files_ok(void);	/* --mpi-shared-files */

/* This rank failed before it could run anything: say why in the merged result. */
void fleet_note_error(const char *msg);

/* ---- Runner hooks: installed into the runner (run/phase.h) when this rank joins MPI ---- */

/* ---- Output (fleet_mpi.c, fleet_none.c; the files themselves: core/report/report_fleet.c) ---- */

/*
 * Gather every rank's results to rank 0 and write the merged result there as o asks;
 * other ranks write only their own --mpi-rank-output file. Returns the exit code.
 */
int fleet_output(const struct run_results *r, int code, const struct output_opts *o, int argc,
		 char **argv);

/*
 * For commands that run many times and write their own output (sweep, suite): after each
 * run_jobs, every rank calls this; rank 0's results become every rank's, merged exactly as
 * above (its own job specs, paths and probes kept). Only rank 0 should then write anything:
 * fleet_rank() != 0 means "not the writer". Returns 0, or an exit code.
 */
int fleet_merge_run(struct run_results *r);

struct fleet_rank;

/* Rank 0's look at one rank's own results, before they are merged (fleet_gather_run). */
typedef int (*fleet_rank_fn)(void *arg, const struct fleet_rank *rk);

/*
 * As fleet_merge_run, for a command that keeps each rank's results apart too: every rank
 * sends note (JSON text saying what its run was, e.g. the cell and target of its own path;
 * may be NULL) with its results, and on rank 0 fn sees every rank, in rank order, with that
 * note as rk->probe_json, before the results are merged into r. Without MPI fn sees this
 * process alone. Returns 0, the first non-zero return of fn, or an exit code.
 */
int fleet_gather_run(struct run_results *r, const char *note, fleet_rank_fn fn, void *arg);

/* ---- Decisions every rank takes alike (suite, and any command that runs many times) ---- */

/* What the ranks said in one fleet_vote; every rank gets the same. */
struct fleet_vote {
	int choice;			/* the largest choice any rank made (0: every rank chose 0) */
	unsigned rank;			/* the lowest rank that made it */
	unsigned count;			/* ranks whose choice was not 0 */
	bool stop;			/* a rank was asked to stop: this one now stops too */
	bool key_differs;		/* a rank's key is not rank 0's */
	unsigned key_rank;		/* the first such rank */
	char why[640];			/* that rank's reason, "rank N (HOST): " first under MPI */
};

/*
 * A collective: every rank calls it at the same point, with its own choice (0: go on as
 * planned; larger: a stronger objection, e.g. 1 "retry differently", 2 "cannot run"), the
 * reason for it, and a key that must be the same on every rank (a hash of the plan; 0 when
 * none). Every rank gets the same answer, so a decision that changes which jobs run (skip,
 * retry with other options, stop) is taken alike everywhere and the ranks stay in step; a
 * stop asked of any rank becomes a stop on all. Without MPI the answer is this process's
 * own. Returns 0, or -ETIMEDOUT when, after a stop, a rank did not answer within the grace
 * period (v then says stop).
 */
int fleet_vote(int choice, const char *why, uint64_t key, struct fleet_vote *v);

/* Under fleet_vote: every rank's len bytes, in rank order, into all (core/fleet/fleet_mpi.c). */
int fleet_allgather(const void *mine, size_t len, void *all);

/* --mpi-rank-output=DIR, or NULL: where each rank also writes its own result. */
const char *fleet_rank_output(void);

/* The host of rank r (this host without MPI). */
const char *fleet_rank_hostname(unsigned r);

/* ---- What needs no MPI (core/fleet/fleet.c), shared by both builds and the unit tests ---- */

/* The MPI options, taken out of argv by fleet_take_args(). */
struct fleet_args {
	bool mpi;			/* --mpi */
	bool shared_files;		/* --mpi-shared-files */
	const char *rank_output;	/* --mpi-rank-output=DIR */
	bool any;			/* any option other than --mpi */
};

/* Returns 0, or 2 after a one-line message. */
int fleet_take_args(int *argc, char **argv, struct fleet_args *a);

/* The size of the MPI job a launcher started this process in (0 when none), and its rank. */
int fleet_launcher_size(unsigned *rank);


/* This rank's probe (host, and each job's path without trials) as JSON text; NULL on ENOMEM. */
char *fleet_probe_json(const struct run_results *r);

/* One rank's results, flattened for sending. */
struct fleet_blob {
	void *data;
	size_t len;
};

struct fleet_rank_info {
	unsigned rank;
	const char *hostname;
	int exit_code;			/* a rank that failed before running: its exit code */
	const char *error;		/* and why; NULL when it ran */
	const char *probe_json;		/* this rank's host and paths, as JSON text; may be NULL
					 * (fleet_gather_run: its note) */
};

int fleet_blob_pack(const struct run_results *r, const struct fleet_rank_info *info,
		   struct fleet_blob *b);
void fleet_blob_free(struct fleet_blob *b);

/* Rank 0's view of every rank, unpacked. */
struct fleet_rank {
	unsigned rank;
	char hostname[256];
	int exit_code;
	bool missing;			/* never reported: its results are lost */
	char error[512];
	char *probe_json;
	struct job_spec *specs;		/* one per result */
	struct run_results res;
};

int fleet_blob_unpack(const void *data, size_t len, struct fleet_rank *out);
void fleet_rank_free(struct fleet_rank *r);

/*
 * Merge every rank's results exactly: per job (by position), histograms summed bucket by
 * bucket, bytes and I/O counts summed, wall-clock and stonewall windows from the ranks' times.
 */
struct fleet_merged {
	struct run_results all;		/* the merged jobs; specs point into the ranks' */
	struct fleet_rank *ranks;
	unsigned nr_ranks;
	unsigned nr_failed;		/* ranks that failed before running or never reported */
};

int fleet_merge(struct fleet_rank *ranks, unsigned nr, struct fleet_merged *m);

/* What fleet_merge allocated (the merged jobs, their metadata statistics and priorities). */
void fleet_merged_free(struct fleet_merged *m);

/* Rank 0: merge every rank into its own results r, in place (sweep and suite). */
int fleet_merge_into(struct fleet_rank *ranks, unsigned nr, struct run_results *r);

/* fleet_gather_run in a process that is no rank of an MPI job: fn sees it alone, on host. */
int fleet_gather_alone(struct run_results *r, const char *host, const char *note, fleet_rank_fn fn,
		       void *arg);

/* Did this rank run the job (measured a span)? */
bool fleet_result_ran(const struct job_result *r);

/* A stand-in result for a rank that failed before running job spec, or never reported. */
void fleet_failed_result(struct job_result *r, const struct job_spec *spec,
			 const struct fleet_rank *rk);

/*
 * What rank 0 does with every rank's results, and how a rank writes its own file:
 * fleet/fleet_report.c supplies these and cli/ installs them before any run.
 */
struct fleet_writers {
	int (*rank_file)(const struct run_results *r, const char *dir,
			 const struct fleet_rank_info *info, int argc, char **argv,
			 struct iop_err *err);
	/* merge and write as o asks; returns the exit code */
	int (*merged)(struct fleet_rank *ranks, unsigned nr, const struct output_opts *o,
		      int argc, char **argv);
};

void fleet_set_writers(const struct fleet_writers *w);

#endif
