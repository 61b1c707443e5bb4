/* A mixed job's directions (rw=rw, randrw) as fio draws them: struct worker_mix. */
#include <string.h>

#include "io/gen.h"
#include "run/worker.h"
#include "run/runner.h"

#define FIO_RANDSEED_DEFAULT 0x89	/* fio's randseed when none is given */

void mix_setup(struct worker *w, uint64_t fresh)
{
	const struct job_spec *job = w->job;
	struct worker_mix *m = &w->mix;
	uint64_t base = job->randseed_set ? job->randseed : FIO_RANDSEED_DEFAULT;

	memset(m, 0, sizeof(*m));
	/* randrepeat=0 without randseed: a stream of its own on every run, as fio's */
	m->seed = job_rand_repeatable(job) ?
		  (uint32_t)fio_stream_seed(base, worker_thread_number(w->plan, w->clone),
					    FIO_STREAM_MIX) :
		  (uint32_t)fresh;
	/* fio: a randseed given overrides randrepeat, so its loops go on with the same stream */
	m->reseed = job->randrepeat && !job->randseed_set;
	frand32_seed(&m->rand, m->seed);
	m->dir = DDIR_READ;
	/*
	 * loops= of a job bound by its size: each loop is a pass of bytes_target / loops. A
	 * synchronous engine's loop ends in fio only when no block is left to draw: at the
	 * random map's end (or the LFSR's period), whose last try drew a direction too; with
	 * norandommap never, so that its loops are one pass of one stream.
	 */
	if (!job->time.based && w->target_loops > 1)
		m->pass_bytes = w->bytes_target / w->target_loops;
	if (job_rw_random(job->rw) && (job->engine->flags & ENGINE_SYNC)) {
		if (!job->norandommap || job->rand_gen == RAND_GEN_LFSR)
			m->pass_draw = true;
		else
			m->pass_bytes = 0;
	}
	m->pass_end = m->pass_bytes;
}

void mix_new_loop(struct worker *w)
{
	struct worker_mix *m = &w->mix;

	/* fio's clear_io_state: rwmix_issues from 0, the streams seeded again (randrepeat) */
	m->until = 0;
	if (m->reseed)
		frand32_seed(&m->rand, m->seed);
}

void mix_loop_end(struct worker *w)
{
	struct worker_mix *m = &w->mix;

	m->pass_end += m->pass_bytes;
	if (m->pass_draw)
		taus88(m->rand.s);
	mix_new_loop(w);
}

void mix_moved(struct worker *w, unsigned from, unsigned to, bool hold)
{
	struct worker_mix *m = &w->mix;

	if (!w->mixed || from == to || from > DDIR_WRITE || to > DDIR_WRITE)
		return;
	m->issues[from]--;
	m->issues[to]++;
	if (hold)
		m->dir = to;
}

void mix_measure_start(struct worker *w)
{
	/* fio's reset_all_stats when ramp_time ends: the issue counts start again */
	w->mix.issues[0] = w->mix.issues[1] = 0;
	w->mix.until = 0;
}
