/*
 * The lean loops' view of a phase (core/run/loop.c, and the counted loop of core/run/lean_counted.c):
 * what a phase of one file and one direction knows for its whole length.
 */
#ifndef IOPATH_RUN_LEAN_H
#define IOPATH_RUN_LEAN_H

#include <stdbool.h>
#include <stdint.h>

#include "run/worker.h"

#define REAP_RETRIES 100	/* failed reaps in a row before in-flight requests are given up */

/*
 * What a lean loop (io_loop_engine: one file, one direction, no verify, copy or sync every N
 * blocks) knows for the whole phase, read once before the loop rather than per request.
 */
struct lean {
	struct io_file *file;
	struct file_gen *gen;
	uint32_t len;
	uint8_t dir;
	bool random;
	bool burst;	/* random offsets drawn a batch at a time (gen_burst_ok) */
	bool writes;
	bool time_based;
};

static inline struct lean lean_of(struct worker *w)
{
	const struct job_spec *job = w->job;
	struct lean l;

	l.file = &w->files[0];
	l.gen = &w->gens[0];
	l.dir = w->fixed_dir;
	l.len = job->bs[l.dir];
	l.random = job_rw_random(job->rw);
	l.burst = l.random && gen_burst_ok(l.gen, l.len);
	l.writes = l.dir == DDIR_WRITE;
	l.time_based = job->time.based;
	return l;
}

/*
 * Run a lean phase that measures no latency by count, where the worker's engine instance
 * takes requests so (e->counted) and the phase reads; true when it did, false (nothing done)
 * otherwise.
 */
bool io_loop_counted(struct worker *w);

#endif
