/* The phase gate: the start barrier, startdelay, wait_for, exitall, and the phase hooks. */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/clock.h"
#include "run/runner.h"

static bool local_enter(unsigned phase, const uint64_t *write_hash, unsigned nr, bool *shared)
{
	(void)phase;
	(void)write_hash;
	(void)nr;
	(void)shared;
	return true;
}

static uint64_t local_start(void)
{
	return mono_ns();
}

static void local_watch(unsigned nr, bool (*progress)(void *arg, struct fleet_progress *p),
			void *arg)
{
	(void)nr;
	(void)progress;
	(void)arg;
}

static void local_leave(struct fleet_worker *w, unsigned nr, unsigned nr_jobs)
{
	(void)w;
	(void)nr;
	(void)nr_jobs;
}

static const struct run_phase_ops local_ops = {
	.enter = local_enter,
	.start = local_start,
	.watch = local_watch,
	.leave = local_leave,
};

static const struct run_phase_ops *phase_ops = &local_ops;

void run_set_phase_ops(const struct run_phase_ops *ops)
{
	phase_ops = ops ? ops : &local_ops;
}

void gate_init(struct start_gate *g, unsigned expected)
{
	pthread_mutex_init(&g->lock, NULL);
	pthread_cond_init(&g->cond, NULL);
	g->arrived = 0;
	g->expected = expected;
	g->open = false;
}

void gate_destroy(struct start_gate *g)
{
	pthread_cond_destroy(&g->cond);
	pthread_mutex_destroy(&g->lock);
}

void gate_arrive(struct start_gate *g)
{
	pthread_mutex_lock(&g->lock);
	g->arrived++;
	pthread_cond_broadcast(&g->cond);
	while (!g->open)
		pthread_cond_wait(&g->cond, &g->lock);
	pthread_mutex_unlock(&g->lock);
}

void gate_expect(struct start_gate *g, unsigned expected)
{
	pthread_mutex_lock(&g->lock);
	g->expected = expected;
	pthread_cond_broadcast(&g->cond);
	pthread_mutex_unlock(&g->lock);
}

void gate_wait_ready(struct start_gate *g)
{
	pthread_mutex_lock(&g->lock);
	while (g->arrived < g->expected)
		pthread_cond_wait(&g->cond, &g->lock);
	pthread_mutex_unlock(&g->lock);
}

void gate_open(struct start_gate *g)
{
	pthread_mutex_lock(&g->lock);
	g->open = true;
	pthread_cond_broadcast(&g->cond);
	pthread_mutex_unlock(&g->lock);
}

/* A worker's pick in a startdelay range: spread by worker, fixed by the seed (splitmix64). */
static uint64_t pick_delay(const struct job_spec *job, unsigned clone)
{
	uint64_t span = job->time.startdelay_max_ns - job->time.startdelay_ns, x;

	if (!span)
		return job->time.startdelay_ns;
	x = (job->randseed_set ? job->randseed : 0x5eedULL) + (clone + 1) * 0x9e3779b97f4a7c15ULL;
	if (!job_rand_repeatable(job))
		x ^= mono_ns();
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	x ^= x >> 31;
	return job->time.startdelay_ns + x % (span + 1);
}

bool run_terminated(struct worker *w)
{
	struct group_job *gj = w->gate;

	if (atomic_load_explicit(&w->terminate, memory_order_relaxed))
		return true;
	if (gj && atomic_load_explicit(&gj->sync->end_all, memory_order_relaxed)) {
		atomic_store(&w->terminate, true);
		return true;
	}
	return false;
}

/*
 * fio's fio_terminate_threads(groupid, exit_what): group ends every worker of the reporting
 * group (those still waiting to start too), stonewall every running worker, all every worker
 * of this phase and of every later one.
 */
static void terminate_others(struct phase_sync *sync, unsigned groupid, enum exit_what what)
{
	unsigned i, c;

	pthread_mutex_lock(&sync->lock);
	if (what == EXIT_ALL)
		atomic_store(&sync->end_all, true);
	for (i = 0; i < sync->nr_gjs; i++) {
		struct group_job *gj = &sync->gjs[i];

		for (c = 0; gj->workers && c < gj->plan.nr_workers; c++) {
			struct worker *o = &gj->workers[c];

			if (what == EXIT_ALL || (what == EXIT_GROUP && gj->plan.job->groupid == groupid) ||
			    (what == EXIT_STONEWALL && atomic_load(&o->running)))
				atomic_store(&o->terminate, true);
		}
	}
	pthread_cond_broadcast(&sync->cond);
	pthread_mutex_unlock(&sync->lock);
}

void run_worker_ended(struct worker *w)
{
	struct group_job *gj = w->gate;
	const struct job_spec *job = w->job;

	if (gj && (gj->sync->exitall || (job->exitall_on_error && w->error)))
		terminate_others(gj->sync, job->groupid, job->exit_what);
}

bool run_gate_wait(struct worker *w)
{
	struct group_job *gj = w->gate;
	const struct job_spec *job = w->job;
	bool waited = false;
	struct timespec ts;

	if (!gj)
		return false;
	if (job->time.startdelay_max_ns) {
		uint64_t until = gj->sync->genesis_ns + pick_delay(job, w->clone), t;

		while ((t = mono_ns()) < until && !run_stop_requested() && !run_terminated(w)) {
			uint64_t step = until - t < 50000000ull ? until - t : 50000000ull;

			ts.tv_sec = (time_t)(step / 1000000000ull);
			ts.tv_nsec = (long)(step % 1000000000ull);
			nanosleep(&ts, NULL);
		}
		waited = true;
	}
	if (gj->waitee) {
		pthread_mutex_lock(&gj->sync->lock);
		while (gj->waitee->done < gj->waitee->plan.nr_workers && !run_stop_requested() &&
		       !atomic_load_explicit(&w->terminate, memory_order_relaxed) &&
		       !atomic_load_explicit(&gj->sync->end_all, memory_order_relaxed)) {
			clock_gettime(CLOCK_REALTIME, &ts);
			ts.tv_nsec += 50000000;
			if (ts.tv_nsec >= 1000000000) {
				ts.tv_sec++;
				ts.tv_nsec -= 1000000000;
			}
			pthread_cond_timedwait(&gj->sync->cond, &gj->sync->lock, &ts);
		}
		pthread_mutex_unlock(&gj->sync->lock);
		waited = true;
	}
	return waited;
}

void run_gate_done(struct worker *w)
{
	struct group_job *gj = w->gate;

	atomic_store_explicit(&w->finished, true, memory_order_release);
	if (!gj)
		return;
	pthread_mutex_lock(&gj->sync->lock);
	gj->done++;
	pthread_cond_broadcast(&gj->sync->cond);
	pthread_mutex_unlock(&gj->sync->lock);
}

struct phase_run {
	struct group_job *gjs;
	unsigned n;
};

/* For the MPI runner's sampling (core/fleet/fleet.h): what each worker has moved; true if done. */
static bool phase_progress(void *arg, struct fleet_progress *p)
{
	const struct phase_run *pr = arg;
	unsigned i, c, k = 0;
	bool done = true;

	for (i = 0; i < pr->n; i++) {
		const struct group_job *gj = &pr->gjs[i];

		for (c = 0; !gj->refused && gj->workers && c < gj->plan.nr_workers; c++, k++) {
			struct worker *w = &gj->workers[c];

			p[k].bytes = atomic_load_explicit(&w->progress_bytes, memory_order_relaxed);
			p[k].ios = atomic_load_explicit(&w->progress_ios, memory_order_relaxed);
			done &= atomic_load_explicit(&w->finished, memory_order_acquire);
		}
	}
	return done;
}

/* Each worker's times on the phase's clock; under MPI, the window every rank ran in. */
void phase_spans(struct group_job *gjs, unsigned n, unsigned total, uint64_t origin)
{
	struct fleet_worker *fw = calloc(total ? total : 1, sizeof(*fw));
	unsigned i, c, d, k = 0;

	for (i = 0; i < n; i++) {
		for (c = 0; !gjs[i].refused && gjs[i].workers && c < gjs[i].plan.nr_workers; c++) {
			struct worker *w = &gjs[i].workers[c];
			struct fleet_worker *f = fw ? &fw[k++] : &w->fleet;

			memset(f, 0, sizeof(*f));
			f->job = i;
			if (w->st && w->time.end_ns > w->time.start_ns) {
				f->start_ns = (int64_t)(w->time.start_ns - origin);
				f->end_ns = (int64_t)(w->time.end_ns - origin);
			}
			for (d = 0; w->st && d <= STAT_TRIM; d++) {
				f->bytes += w->st[d].bytes;
				f->ios += w->st[d].ios;
			}
			w->fleet = *f;
		}
	}
	if (!fw)
		return;
	phase_ops->leave(fw, k, n);
	for (i = 0, k = 0; i < n; i++)
		for (c = 0; !gjs[i].refused && gjs[i].workers && c < gjs[i].plan.nr_workers; c++)
			gjs[i].workers[c].fleet = fw[k++];
	free(fw);
}

/*
 * Under MPI, agree with the other ranks before the phase (core/fleet/fleet.h), and refuse a job
 * that would write the very files another rank writes.
 */
bool phase_enter(struct group_job *gjs, unsigned n)
{
	uint64_t hash[FLEET_CHECK_MAX] = { 0 };
	bool shared[FLEET_CHECK_MAX] = { false };
	unsigned i;

	for (i = 0; i < n && i < FLEET_CHECK_MAX; i++)
		if (!gjs[i].refused && job_changes_files(gjs[i].plan.job) &&
		    !(gjs[i].plan.job->engine->flags & ENGINE_DISKLESS))
			hash[i] = fleet_paths_hash((const char *const *)gjs[i].plan.paths,
						   plan_nr_paths(&gjs[i].plan));
	if (!phase_ops->enter(gjs[0].plan.job->phase, hash, n, shared))
		return false;
	for (i = 0; i < n && i < FLEET_CHECK_MAX; i++) {
		if (!shared[i])
			continue;
		gjs[i].refused = -EEXIST;
		snprintf(gjs[i].why, sizeof(gjs[i].why),
			 "job %s: another rank would write the same file %s; put ${RANK} in filename= or directory= (or ${HOST}, one rank per host), or pass --mpi-shared-files if sharing it is intended",
			 gjs[i].plan.job->name, gjs[i].plan.paths[0]);
	}
	return true;
}

uint64_t fleet_paths_hash(const char *const *paths, unsigned n)
{
	uint64_t h = 0xcbf29ce484222325ull;	/* FNV-1a over the names, each with its NUL */
	const unsigned char *c;
	unsigned i;

	for (i = 0; i < n; i++) {
		c = (const unsigned char *)paths[i];
		do {
			h = (h ^ *c) * 0x100000001b3ull;
		} while (*c++);
	}
	return h ? h : 1;
}

void phase_layout_turn(bool done)
{
	if (phase_ops->layout_turn)
		phase_ops->layout_turn(done);
}

uint64_t phase_origin(void)
{
	return phase_ops->start();
}

void phase_watch(struct group_job *gjs, unsigned n, unsigned total)
{
	struct phase_run pr = { gjs, n };

	phase_ops->watch(total, phase_progress, &pr);
}
