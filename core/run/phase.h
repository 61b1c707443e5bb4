/* The phase gate: workers start together, start conditions, exitall, and a run across ranks. */
#ifndef IOPATH_PHASE_H
#define IOPATH_PHASE_H

#include <stdbool.h>
#include <stdint.h>

/* Per worker of a phase: what it has moved so far (the runner fills these). */
struct fleet_progress {
	uint64_t bytes;
	uint64_t ios;
};

/* Per worker of a phase, after it: the runner fills the first part, the phase hooks the rest. */
struct fleet_worker {
	unsigned job;			/* its job's index in the phase */
	int64_t start_ns, end_ns;	/* its measured interval, ns after the phase's start */
	uint64_t bytes, ios;		/* what it measured in all */
	int64_t window_start_ns;	/* when every rank ran its job (MPI only) */
	int64_t window_end_ns;
	uint64_t window_bytes;		/* and what it moved in that window */
	uint64_t window_ios;
};

/* Jobs per phase whose files are checked for being written by several ranks. */
#define FLEET_CHECK_MAX 8

/*
 * How a phase (a stonewall group) meets the world outside this process. The default is one
 * process alone; a run across MPI ranks (core/fleet/) installs its own with run_set_phase_ops,
 * so the runner knows nothing of MPI.
 */
struct run_phase_ops {
	/*
	 * Before a phase: agree with the other ranks. False when this phase must not start (a
	 * rank was interrupted). write_hash[i] describes the files job i writes; shared[i] comes
	 * back true when another rank would write the same files: the job is refused.
	 */
	bool (*enter)(unsigned phase, const uint64_t *write_hash, unsigned nr, bool *shared);
	/* Every worker of the phase is set up: wait for the others; returns the time origin. */
	uint64_t (*start)(void);
	/* While the workers run: sample their progress until progress() says all have finished. */
	void (*watch)(unsigned nr_workers, bool (*progress)(void *arg, struct fleet_progress *p),
		      void *arg);
	/* After the phase: learn each job's window from every rank; fill the window fields. */
	void (*leave)(struct fleet_worker *w, unsigned nr, unsigned nr_jobs);
	/*
	 * Around the phase's layout (done false before it, true after; optional): ranks that
	 * share files lay out one after the other, so that each finds the file the one before
	 * created complete and marked as iopath's, never half made.
	 */
	void (*layout_turn)(bool done);
};

/* Install ops for the phases to come (NULL: back to one process alone). */
void run_set_phase_ops(const struct run_phase_ops *ops);

/* A hash of the files a job would write (0 when it writes none), for ops->enter. */
uint64_t fleet_paths_hash(const char *const *paths, unsigned n);

#endif
