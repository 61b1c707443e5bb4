/*
 * loops= as fio's thread_main runs them: struct worker_floop. Each loop is one of fio's do_io
 * calls; it ends where fio's get_io_u finds no I/O (the random map full, a sequential
 * direction at its file's end) or, with an engine that queues its I/O, once the loop has
 * queued its size (do_io's bytes_issued, which a synchronous engine's completions never
 * add to). The run's limit is size x loops over every loop together (io_issue_bytes_exceeded,
 * bytes_target here), so a synchronous norandommap job is one stream to it, and a synchronous
 * rw=rw job's loops end when one direction reaches the end of its file.
 */
#include <string.h>

#include "io/gen.h"
#include "run/worker.h"
#include "run/runner.h"

/* The job's sizes vary in a direction it does (bsrange, bssplit): sized in fio's order. */
static bool sizes_vary(const struct worker *w)
{
	const struct job_spec *job = w->job;

	return (job_reads(job->rw) && w->bsg[DDIR_READ].min != w->bsg[DDIR_READ].max) ||
	       (job_writes(job->rw) && w->bsg[DDIR_WRITE].min != w->bsg[DDIR_WRITE].max);
}

static bool plain_kind(const struct worker *w)
{
	const struct job_spec *job = w->job;

	switch (job->rw) {
	case RW_READ: case RW_WRITE: case RW_RW:
		return true;
	case RW_RANDREAD: case RW_RANDWRITE: case RW_RANDRW:
		return job->random_distribution == DIST_RANDOM && !w->off.spr && !w->off.fdist &&
		       !w->off.zoned;
	default:
		return false;
	}
}

void floop_setup(struct worker *w)
{
	const struct job_spec *job = w->job;
	struct worker_floop *l = &w->floop;
	bool sync = (job->engine->flags & ENGINE_SYNC) || w->sync_at_qd1;
	bool random = job_rw_random(job->rw);
	uint64_t size = plan_worker_bytes(w->plan, w->clone);

	l->on = false;
	if (job->time.based || w->target_loops < 2 || w->nr_files != 1 || w->off.seq_step ||
	    w->zone.zbd || w->replay || w->trim.on || w->open.limit || w->verify.check_reads ||
	    !plain_kind(w))
		return;
	if (!sizes_vary(w) && !w->fio_units && !(w->mixed && !random && sync))
		return;
	l->on = true;
	l->reseed = w->bsr.reseed;
	l->start = 0;
	/* do_io's total_bytes: a random write job without the map may write io_size first */
	if (job->rw == RW_RANDWRITE && job->norandommap && job->sizes.io_size > size)
		size = job->sizes.io_size;
	l->bytes = sync ? 0 : size;
	/* io_bytes_exceeded's limit: io_size (else size) x loops, over the whole run */
	l->io_size = job->sizes.io_size;
	if (__builtin_mul_overflow(l->io_size ? l->io_size : plan_worker_bytes(w->plan, w->clone),
				   (uint64_t)w->target_loops, &w->bytes_target))
		w->bytes_target = UINT64_MAX;
	/* the loops' ends are these, not the mix's share of the bytes */
	w->mix.pass_bytes = w->mix.pass_end = 0;
	w->full = true;
}

bool __attribute__((noinline, cold)) floop_next(struct worker *w)
{
	unsigned i;

	/*
	 * fio's keep_running: the loops done, a job with io_size goes on with further loops
	 * while it has moved less than io_size by at least its largest block
	 */
	if (!w->passes_left && (!w->floop.io_size || w->bytes_issued >= w->floop.io_size ||
				w->floop.io_size - w->bytes_issued < w->plan->max_bs))
		return false;
	if (w->passes_left)
		w->passes_left--;
	w->floop.start = w->bytes_issued;
	/* fio's clear_io_state: the files from their start, the streams seeded again */
	for (i = 0; i < w->nr_files; i++)
		gen_new_loop(&w->gens[i]);
	if (w->floop.reseed) {
		worker_bs_seed(w);
		if (w->floop.fio_offsets)
			memcpy(w->gens[0].rand.t32, w->floop.fio_rand.s, sizeof(w->floop.fio_rand.s));
	}
	if (w->mixed)
		mix_new_loop(w);
	return true;
}
