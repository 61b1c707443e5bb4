/* What the runner's own files share (core/run/ only): a phase's jobs, their sync, and the seams. */
#ifndef IOPATH_RUNNER_H
#define IOPATH_RUNNER_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "base/err.h"
#include "io/flow.h"
#include "io/zbd.h"
#include "run/phase.h"
#include "run/run.h"
#include "run/worker.h"

/* What the workers of a run share: the lock their start conditions wait under. */
struct phase_sync {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct group_job *gjs;	/* the running phase's jobs (exitall ends some of them) */
	unsigned nr_gjs;
	bool exitall;		/* exitall was given for some job: it holds for every job */
	atomic_bool end_all;	/* exit_what=all has fired: later jobs run nothing */
	uint64_t genesis_ns;	/* the run's start: fio counts startdelay from there */
	bool steady;		/* a job of the phase judges steady state (ss_dur=) */
	run_progress_fn progress;
	void *progress_arg;
	unsigned phase, nr_phases;
};

struct group_job {
	struct job_plan plan;
	struct worker *workers;
	int refused;
	char why[sizeof(((struct iop_err *)0)->msg)];
	unsigned nr_targets;
	const struct probed_dir *targets[4];
	bool direct_suspect;
	char direct_note[320];
	struct phase_sync *sync;
	struct group_job *waitee;	/* wait_for in this phase, or NULL */
	unsigned done;			/* workers that have ended (under sync->lock) */
};

/* Files a plan names: one set shared by its workers, or one per worker. */
static inline unsigned plan_nr_paths(const struct job_plan *plan)
{
	return plan->shared ? plan->nr_files : plan->nr_files * plan->nr_workers;
}

/* ---- phase.c ---- */

/* Under MPI, agree with the other ranks before the phase; false: do not start it. */
bool phase_enter(struct group_job *gjs, unsigned n);

/* The phase's time origin: every worker (of every rank) is set up. */
uint64_t phase_origin(void);

/* While the phase runs: the other ranks' sampling (a no-op for one process). */
void phase_watch(struct group_job *gjs, unsigned n, unsigned total);

/* Each worker's times on the phase's clock; under MPI, the window every rank ran in. */
void phase_spans(struct group_job *gjs, unsigned n, unsigned total, uint64_t origin);

#endif
