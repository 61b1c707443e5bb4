/* The runner: plans jobs, starts their workers group by group, and collects results. */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/resource.h>
#include <sys/statvfs.h>
#include <unistd.h>
#include <sys/time.h>
#include <time.h>

#include "io/file.h"
#include "io/flow.h"
#include "run/meta.h"
#include "run/machine.h"
#include "base/cpulist.h"
#include "base/testhold.h"
#include "run/idleprof.h"
#include "run/run.h"
#include "stats/merge.h"
#include "stats/stats.h"
#include "stats/steady.h"
#include "run/worker.h"
#include "run/runner.h"

/* Estimate, and hand to the callback, how far the phase has come. */
static void report_progress(struct group_job *gjs, unsigned n, struct phase_sync *sync,
			    uint64_t t0, unsigned running)
{
	struct run_progress p = { .running = running, .phase = sync->phase,
				  .nr_phases = sync->nr_phases };
	uint64_t now = mono_ns(), target = 0, eta = 0, end;
	bool sized = false;
	unsigned i, c;

	for (i = 0; i < n; i++) {
		const struct job_spec *job = gjs[i].plan.job;

		for (c = 0; gjs[i].workers && c < gjs[i].plan.nr_workers; c++) {
			struct worker *w = &gjs[i].workers[c];

			p.bytes += atomic_load_explicit(&w->progress_bytes, memory_order_relaxed);
			p.ios += atomic_load_explicit(&w->progress_ios, memory_order_relaxed);
			if (!job->time.based && job->rw != RW_METADATA) {
				target += w->bytes_target;
				sized = true;
			}
		}
		if (job->time.runtime_ns) {
			end = t0 + job->time.startdelay_max_ns + job->time.ramp_ns + job->time.runtime_ns;
			eta = end > now && end - now > eta ? end - now : eta;
		}
	}
	if (sized && p.bytes && target > p.bytes && now > t0) {
		end = (uint64_t)((double)(target - p.bytes) * (double)(now - t0) / (double)p.bytes);
		eta = end > eta ? end : eta;
	}
	p.elapsed_ns = now - sync->genesis_ns;
	p.eta_ns = eta;
	sync->progress(&p, sync->progress_arg);
}

/* Wait for the phase's workers to end, reporting progress once a second. */
/* A worker's unit of steady state: its own, or its reporting group's (group_reporting). */
static bool ss_same_unit(const struct worker *a, const struct worker *b)
{
	if (!a->job->group_reporting)
		return a == b;
	return b->job->group_reporting && a->job->groupid == b->job->groupid;
}

/*
 * ss_dur=: which worker holds each unit's window (fio's steadystate_setup: every worker its
 * own, or the last worker of each run of a reporting group); false when out of memory.
 */
static bool ss_setup(struct group_job *gjs, unsigned n)
{
	struct worker *prev = NULL, *w;
	unsigned i, c;

	for (i = 0; i < n; i++) {
		for (c = 0; gjs[i].workers && c < gjs[i].plan.nr_workers; c++) {
			w = &gjs[i].workers[c];
			if (w->job->ss_dur_ns < 1000000000ull)
				continue;
			if (prev && prev->job->group_reporting && !ss_same_unit(prev, w))
				prev->ss_holder = true;
			if (!w->job->group_reporting)
				w->ss_holder = true;
			prev = w;
		}
	}
	if (prev && prev->job->group_reporting)
		prev->ss_holder = true;
	for (i = 0; i < n; i++)
		for (c = 0; gjs[i].workers && c < gjs[i].plan.nr_workers; c++)
			if (gjs[i].workers[c].ss_holder &&
			    ss_alloc(&gjs[i].workers[c].ss,
				     (unsigned)(gjs[i].workers[c].job->ss_dur_ns / 1000000000ull)))
				return false;
	return true;
}

/* A unit has attained steady state: its workers end (as fio's fio_mark_td_terminate). */
static void ss_attained(struct group_job *gjs, unsigned n, struct worker *holder)
{
	unsigned i, c;

	for (i = 0; i < n; i++) {
		for (c = 0; gjs[i].workers && c < gjs[i].plan.nr_workers; c++) {
			struct worker *o = &gjs[i].workers[c];

			if (!ss_same_unit(holder, o) || o->job->ss_dur_ns < 1000000000ull)
				continue;
			o->ss.attained = true;
			atomic_store(&o->terminate, true);
		}
	}
}

/*
 * Once a second (fio's steadystate_check): each unit's IOPS and bandwidth over the last
 * second, summed over the unit's workers past ss_ramp + 1 s, go into its window; a unit whose
 * criterion is met has attained steady state, and its workers end.
 */
static void ss_check(struct group_job *gjs, unsigned n, uint64_t now)
{
	uint64_t bw = 0, iops = 0, bytes, ios, ms;
	struct worker *first = NULL, *w;
	unsigned i, c, over = 0;

	for (i = 0; i < n; i++) {
		for (c = 0; gjs[i].workers && c < gjs[i].plan.nr_workers; c++) {
			const struct job_spec *job;
			uint64_t epoch;

			w = &gjs[i].workers[c];
			job = w->job;
			epoch = atomic_load(&w->epoch_ns);
			if (job->ss_dur_ns < 1000000000ull || !epoch ||
			    atomic_load(&w->finished) || w->ss.attained)
				continue;
			if (!first || !ss_same_unit(first, w)) {
				bw = iops = 0;
				over = 0;
				first = w;
			}
			if (!w->ss.prev_ns)
				w->ss.prev_ns = epoch;
			if (!w->ss.ramp_over && now - epoch >= job->ss_ramp_ns +
			    (job->ss_ramp_ns ? 1000000000ull : 0))
				w->ss.ramp_over = true;
			bytes = atomic_load_explicit(&w->progress_bytes, memory_order_relaxed);
			ios = atomic_load_explicit(&w->progress_ios, memory_order_relaxed);
			ms = (now - w->ss.prev_ns) / 1000000;
			w->ss.prev_ns = now;
			if (w->ss.ramp_over && ms && bytes >= w->ss.prev_bytes) {
				bw += 1000 * (bytes - w->ss.prev_bytes) / ms;
				iops += 1000 * (ios - w->ss.prev_ios) / ms;
				over++;
			}
			w->ss.prev_bytes = bytes;
			w->ss.prev_ios = ios;
			if (!w->ss_holder || !over ||
			    !ss_add(&w->ss, job->ss_state, job->ss_limit, iops, bw))
				continue;
			ss_attained(gjs, n, w);
		}
	}
}

/*
 * The free-space reserve while the group runs (another program filling the disk, a file
 * growing as it is written): a job whose filesystem has fallen below it ends, and says so.
 */
static void space_watch(struct group_job *gjs, unsigned n)
{
	unsigned i, c, k;

	for (i = 0; i < n; i++) {
		struct group_job *g = &gjs[i];

		for (k = 0; !g->refused && !g->space_hit[0] && k < g->nr_space; k++) {
			if (!space_low(g->plan.paths[g->space_paths[k]], g->space_hit,
				       sizeof(g->space_hit)))
				continue;
			g->space_at = g->space_paths[k];
			for (c = 0; g->workers && c < g->plan.nr_workers; c++)
				atomic_store(&g->workers[c].terminate, true);
		}
	}
}

/* What space_watch looks at: each job's growing files, one on each filesystem. 0 or -ENOMEM. */
static int space_setup(struct group_job *gjs, unsigned n, struct phase_sync *sync)
{
	unsigned i;

	sync->space = false;
	for (i = 0; i < n; i++) {
		gjs[i].space_hit[0] = '\0';
		if (!gjs[i].refused && space_watched(gjs[i].plan.job, &gjs[i].plan,
						     &gjs[i].space_paths, &gjs[i].nr_space))
			return -ENOMEM;
		sync->space |= gjs[i].nr_space > 0;
	}
	return 0;
}

/*
 * After the join: the workers a full filesystem ended carry the error, their numbers kept;
 * what was watched is let go.
 */
static void space_errors(struct group_job *gjs, unsigned n)
{
	unsigned i, c;

	for (i = 0; i < n; i++) {
		for (c = 0; gjs[i].space_hit[0] && gjs[i].workers && c < gjs[i].plan.nr_workers; c++) {
			struct worker *w = &gjs[i].workers[c];

			if (w->error)
				continue;
			w->error = ENOSPC;
			snprintf(w->errmsg, sizeof(w->errmsg),
				 "stopped: the filesystem of %s has %s (--allow-fill lets it fill)",
				 gjs[i].plan.paths[gjs[i].space_at], gjs[i].space_hit);
		}
		free(gjs[i].space_paths);
		gjs[i].space_paths = NULL;
		gjs[i].nr_space = 0;
	}
}

/*
 * An interim report: the earlier phases' results (shared, not copied) and a view of the jobs
 * from the running phase on, handed to the status callback and freed.
 */
static void report_status(struct phase_sync *sync, uint64_t t0)
{
	struct run_results r = *sync->out;
	unsigned before = sync->out->nr, i;
	struct timeval tv;

	r.res = before ? malloc(before * sizeof(*r.res)) : NULL;
	if (before && !r.res)
		return;	/* a report less, not a reason to disturb the run */
	if (before)
		memcpy(r.res, sync->out->res, before * sizeof(*r.res));
	r.layouts = NULL;
	r.nr_layouts = 0;
	r.disks = NULL;
	r.own_probes = false;
	memset(&r.idle, 0, sizeof(r.idle));
	memset(&r.machine, 0, sizeof(r.machine));
	gettimeofday(&tv, NULL);
	r.report_unix_ms = (uint64_t)tv.tv_sec * 1000 + (uint64_t)tv.tv_usec / 1000;
	if (!collect_status(&r, sync->rest, sync->nr_rest, mono_ns() - t0, STATUS_WAIT_NS,
			    &sync->snaps))
		sync->status(&r, sync->status_arg);
	for (i = before; i < r.nr; i++)
		result_free_owned(&r.res[i]);
	free(r.res);
}

/* How long the watch may sleep: a second, less when a status report or the space check is due. */
static void watch_deadline(const struct phase_sync *sync, struct timespec *ts)
{
	uint64_t now = mono_ns(), wait = sync->space ? 100000000ull : 1000000000ull;

	if (sync->status && sync->status_ns && sync->status_next_ns < now + wait)
		wait = sync->status_next_ns > now ? sync->status_next_ns - now : 0;
	clock_gettime(CLOCK_REALTIME, ts);
	ts->tv_nsec += (long)(wait % 1000000000ull);
	ts->tv_sec += (time_t)(wait / 1000000000ull) + ts->tv_nsec / 1000000000;
	ts->tv_nsec %= 1000000000;
}

/* Is an interim report due (its period, or one asked for)? The next period is set. */
static bool status_due(struct phase_sync *sync, uint64_t now)
{
	bool due = run_status_take();

	if (sync->status_ns && now >= sync->status_next_ns) {
		due = true;
		sync->status_next_ns += sync->status_ns;
		if (sync->status_next_ns <= now)
			sync->status_next_ns = now + sync->status_ns;
	}
	return due && sync->status;
}

static void watch_phase(struct group_job *gjs, unsigned n, struct phase_sync *sync,
			uint64_t t0, unsigned started)
{
	unsigned i, done;
	struct timespec ts;
	uint64_t ss_next = mono_ns() + 1000000000ull, now;

	for (;;) {
		pthread_mutex_lock(&sync->lock);
		for (i = 0, done = 0; i < n; i++)
			done += gjs[i].done;
		if (done < started) {
			watch_deadline(sync, &ts);
			pthread_cond_timedwait(&sync->cond, &sync->lock, &ts);
			for (i = 0, done = 0; i < n; i++)
				done += gjs[i].done;
		}
		pthread_mutex_unlock(&sync->lock);
		if (done >= started)
			return;
		now = mono_ns();
		if (sync->steady && now >= ss_next) {
			ss_check(gjs, n, now);
			ss_next += 1000000000ull;
			if (ss_next <= now)
				ss_next = now + 1000000000ull;
		}
		if (sync->space)
			space_watch(gjs, n);
		if (status_due(sync, now))
			report_status(sync, t0);
		if (sync->progress)
			report_progress(gjs, n, sync, t0, started - done);
	}
}

/* Workers that never ran leave their flow (those that ran have left it themselves). */
static void leave_flows(struct group_job *gj)
{
	unsigned c;

	if (!gj->plan.flow)
		return;
	for (c = 0; c < gj->plan.nr_workers; c++)
		if (!gj->workers || !gj->workers[c].flow_left)
			flow_leave(gj->plan.flow, 0, gj->plan.job->flow);
}

/*
 * A hold for tests that must change a file at an exact point of a run: with
 * IOPATH_TEST_HOLD=P in the environment, the runner stops before and after each group's
 * layout (the checks on the opened files), creates P.N (N = 1, 2, ... in that order) and
 * goes on once P.N.go exists (or a stop is requested).
 */
static void run_hold(void)
{
	static unsigned n;
	char suffix[16];

	snprintf(suffix, sizeof(suffix), ".%u", ++n);
	test_hold("IOPATH_TEST_HOLD", suffix);
}

/* What fio says as "Laying out IO file" for the job, when its layout made or grew files. */
static void note_layout(struct run_results *out, const struct job_plan *plan)
{
	struct run_layout *l;

	if (!plan->laid_files)
		return;
	l = realloc(out->layouts, (out->nr_layouts + 1) * sizeof(*l));
	if (!l)
		return;	/* a line of the normal output less, not a reason to fail the run */
	out->layouts = l;
	l[out->nr_layouts++] = (struct run_layout){ plan->job, plan->laid_files, plan->laid_bytes };
}

/*
 * A hold for tests that must act while a group's workers move data (send a signal, remove a
 * file under a job): with IOPATH_TEST_HOLD_RUNNING=P in the environment, once every started
 * worker of the group has completed an I/O (or ended), this thread creates P and waits for
 * P.go (or a stop) while the workers go on. Looked at once per group, here, never per I/O.
 */
static void running_hold(struct group_job *gjs, unsigned n)
{
	static const char var[] = "IOPATH_TEST_HOLD_RUNNING";
	const struct timespec tick = { 0, 5000000 };
	unsigned i, c;
	bool all;

	if (!getenv(var))
		return;
	for (;;) {
		all = true;
		for (i = 0; i < n; i++)
			for (c = 0; gjs[i].workers && c < gjs[i].plan.nr_workers; c++)
				all &= atomic_load(&gjs[i].workers[c].progress_ios) > 0 ||
				       atomic_load(&gjs[i].workers[c].finished);
		if (all || run_stop_requested())
			break;
		nanosleep(&tick, NULL);
	}
	test_hold(var, "");
}

/*
 * Before a group starts: each job not refused has its capabilities checked, its files laid
 * out and its logs created; a failure refuses that job only (the group's result must survive).
 * Returns the number of workers to start.
 */
static unsigned group_lay_out(struct group_job *gjs, unsigned n, struct phase_sync *sync,
			      struct run_results *out)
{
	unsigned i, total = 0;

	for (i = 0; i < n; i++) {
		struct iop_err e;

		gjs[i].sync = sync;
		if (!gjs[i].refused && check_capabilities(&gjs[i], &e)) {
			gjs[i].refused = -EINVAL;
			snprintf(gjs[i].why, sizeof(gjs[i].why), "%s", e.msg);
		}
		if (!gjs[i].refused) {
			int lret = layout_job(&gjs[i].plan, &e);

			if (!lret)
				note_layout(out, &gjs[i].plan);
			if (!lret)
				lret = create_logs(&gjs[i].plan, &e);
			if (lret) {
				gjs[i].refused = lret;
				snprintf(gjs[i].why, sizeof(gjs[i].why), "%s", e.msg);
			}
		}
		if (!gjs[i].refused)
			total += gjs[i].plan.nr_workers;
	}
	return total;
}

/* A job waits for a waitee of this phase that runs; an earlier or refused one has ended. */
static void group_waitees(struct group_job *gjs, unsigned n)
{
	unsigned i, c;

	for (i = 0; i < n; i++) {
		const struct job_spec *job = gjs[i].plan.job;

		gjs[i].waitee = NULL;
		for (c = 0; job->wait_for[0] && c < i; c++)
			if (!strcmp(gjs[c].plan.job->name, job->wait_for) && !gjs[c].refused)
				gjs[i].waitee = &gjs[c];
	}
}

/*
 * The group's worker threads, each waiting at the start gate: *started counts those that
 * exist. On a failure no more are started and a stop is requested of those that were.
 */
static int group_start(struct group_job *gjs, unsigned n, struct start_gate *start,
		       unsigned *started, struct iop_err *err)
{
	unsigned i, c;

	for (i = 0; i < n; i++) {
		if (gjs[i].refused)
			continue;
		gjs[i].workers = calloc(gjs[i].plan.nr_workers, sizeof(struct worker));
		if (!gjs[i].workers)
			return iop_errf(err, -ENOMEM, "out of memory for workers");
	}
	for (i = 0; i < n; i++) {
		for (c = 0; !gjs[i].refused && c < gjs[i].plan.nr_workers; c++) {
			struct worker *w = &gjs[i].workers[c];

			w->job = gjs[i].plan.job;
			w->plan = &gjs[i].plan;
			w->clone = c;
			w->start = start;
			w->gate = &gjs[i];
			w->tsc = gjs[i].plan.tsc;
			if (pthread_create(&w->tid, NULL,
					   w->job->rw == RW_METADATA ? meta_main : worker_main, w)) {
				/* start only those that exist, and stop them at once */
				run_request_stop();
				return iop_errf(err, -EAGAIN, "cannot start worker thread %u of job %s",
						c, w->job->name);
			}
			(*started)++;
		}
	}
	return 0;
}

/* After a group: flows left, files settled or removed, workers freed, jobs unbound. */
static void group_release(struct group_job *gjs, unsigned n)
{
	unsigned i, c;

	for (i = 0; i < n; i++) {
		leave_flows(&gjs[i]);
		if (!gjs[i].refused)
			layout_settle(&gjs[i].plan, gjs[i].workers);
		for (c = 0; gjs[i].workers && c < gjs[i].plan.nr_workers; c++)
			worker_free(&gjs[i].workers[c]);
		if (!gjs[i].refused)
			unlink_job_files(&gjs[i].plan);
		unbind_job(&gjs[i].plan);
		free(gjs[i].workers);
		gjs[i].workers = NULL;
	}
	/* the last switched first, so that the disk ends as it was before the group */
	for (i = n; i-- > 0;)
		iosched_restore(&gjs[i].plan);
}

/* Start every worker of the phase together, wait for all, collect their results. */
static int run_group(struct group_job *gjs, unsigned n, struct phase_sync *sync,
		     struct run_results *out, struct iop_err *err)
{
	struct start_gate start;
	sigset_t block, old_mask;
	unsigned i, c, total = 0, started = 0;
	uint64_t t0 = mono_ns(), origin;
	int ret = 0;

	run_hold();
	phase_layout_turn(false);
	total = group_lay_out(gjs, n, sync, out);
	phase_layout_turn(true);
	run_hold();
	group_waitees(gjs, n);
	/*
	 * Workers are born with SIGINT/SIGTERM/SIGHUP blocked: the handler runs on this thread,
	 * and no worker's system call is cut short with EINTR (a failed I/O, not a stop).
	 */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigaddset(&block, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &block, &old_mask);
	if (total) {
		gate_init(&start, total);
		ret = group_start(gjs, n, &start, &started, err);
	}
	pthread_sigmask(SIG_SETMASK, &old_mask, NULL);
	if (total) {
		gate_expect(&start, started);
		gate_wait_ready(&start);
	}
	sync->steady = false;
	for (i = 0; i < n && total; i++)
		sync->steady |= gjs[i].plan.job->ss_dur_ns >= 1000000000ull && !gjs[i].refused;
	if (total && !ret && space_setup(gjs, n, sync))
		ret = iop_errf(err, -ENOMEM, "out of memory");
	if (sync->steady && !ret && !ss_setup(gjs, n))
		ret = iop_errf(err, -ENOMEM, "out of memory for steady state");
	/* workers without start conditions run from the gate on (exit_what=stonewall ends them) */
	for (i = 0; i < n && total; i++)
		for (c = 0; gjs[i].workers && c < gjs[i].plan.nr_workers; c++)
			if (!gjs[i].plan.job->time.startdelay_max_ns && !gjs[i].waitee)
				atomic_store(&gjs[i].workers[c].running, true);
	/* under MPI, every rank's workers are set up too: the phase's clock starts here */
	origin = phase_origin();
	if (total)
		gate_open(&start);
	if (total && !ret)
		running_hold(gjs, n);
	if (total && (sync->progress || sync->steady || sync->status) && !ret)
		watch_phase(gjs, n, sync, mono_ns(), started);
	else if (total && sync->space && !ret)
		watch_phase(gjs, n, sync, mono_ns(), started);
	if (!ret)
		phase_watch(gjs, n, total);
	for (i = 0; i < n && total; i++)
		for (c = 0; gjs[i].workers && c < gjs[i].plan.nr_workers && started; c++, started--)
			pthread_join(gjs[i].workers[c].tid, NULL);
	if (total)
		gate_destroy(&start);
	space_errors(gjs, n);
	phase_spans(gjs, n, total, origin);
	if (!ret)
		ret = collect(out, gjs, n, mono_ns() - t0);
	group_release(gjs, n);
	return ret;
}

/*
 * Every job planned before anything runs (files, sizes, clock, descriptors, space, the path's
 * probe, disks, flows, zones), and the run's worker numbers; a refusal here stops the run
 * before any I/O.
 */
static int plan_all(const struct job_list *jobs, struct group_job *gjs, struct run_results *out,
		    struct flow_set *flows, struct zbd_set *zbds, struct iop_err *err)
{
	unsigned i, first;
	int ret = 0;

	for (i = 0; i < jobs->nr && !ret; i++) {
		ret = plan_job(&jobs->jobs[i], &jobs->policy, &gjs[i].plan, err);
		if (!ret)
			ret = plan_clock(&jobs->jobs[i], &gjs[i].plan, err);
		/* fio numbers the workers of a run from 1, in job order (log file names) */
		gjs[i].plan.first_thread = i ? gjs[i - 1].plan.first_thread +
					       jobs->jobs[i - 1].numjobs : 1;
	}
	for (i = 0; i < jobs->nr && !ret; i++)
		ret = check_job_outputs(&gjs[i].plan, err);
	if (!ret)
		ret = fit_nofile(jobs, gjs, err);
	if (!ret)
		ret = fit_space(jobs, gjs, err);
	out->probes = jobs->probes;
	if (!out->probes) {
		out->probes = calloc(1, sizeof(*out->probes));
		out->own_probes = true;
		if (!out->probes)
			ret = iop_errf(err, -ENOMEM, "out of memory");
	}
	for (i = 0; i < jobs->nr && !ret; i++)
		probe_job(&gjs[i], out->probes);
	/* --bandwidth-log: the run's agg logs exist, empty, before it starts (as fio's) */
	for (i = 0; i < jobs->nr && !ret; i++) {
		static const char *const agg[] = { AGG_BW_LOG_READ, AGG_BW_LOG_WRITE, AGG_BW_LOG_TRIM };
		unsigned k;

		if (!jobs->jobs[i].log.agg_bw)
			continue;
		for (k = 0; k < 3 && !ret; k++) {
			ret = iolog_create(agg[k]);
			if (ret)
				iop_errf(err, ret, "--bandwidth-log: cannot create %s: %s", agg[k],
					 strerror(-ret));
		}
		break;
	}
	if (!ret)
		ret = plan_disks(jobs, gjs, out, err);
	if (!ret)
		ret = plan_flows(jobs, gjs, flows, err);
	if (!ret)
		ret = plan_zbd(jobs, gjs, zbds, err);
	/* run-wide worker numbers (fio's thread numbers), for dedupe_global */
	for (i = 0, first = 0; i < jobs->nr && !ret; i++) {
		gjs[i].plan.first_worker = first;
		first += gjs[i].plan.nr_workers;
	}
	for (i = 0; i < jobs->nr && !ret; i++)
		gjs[i].plan.run_workers = first;
	return ret;
}

/* The run's phases in turn (jobs of one phase run together), until one fails or a stop. */
static int run_phases(const struct job_list *jobs, struct group_job *gjs, struct phase_sync *sync,
		      struct run_results *out, struct iop_err *err)
{
	unsigned first;
	int ret = 0;

	for (first = 0; !ret && first < jobs->nr;) {
		unsigned last = first;

		while (last + 1 < jobs->nr && jobs->jobs[last + 1].phase == jobs->jobs[first].phase)
			last++;
		if (!phase_enter(&gjs[first], last - first + 1) || run_stop_requested()) {
			out->interrupted = true;
			break;
		}
		sync->phase = jobs->jobs[first].phase;
		pthread_mutex_lock(&sync->lock);
		sync->gjs = &gjs[first];
		sync->nr_gjs = last - first + 1;
		sync->rest = &gjs[first];
		sync->nr_rest = jobs->nr - first;
		pthread_mutex_unlock(&sync->lock);
		ret = run_group(&gjs[first], last - first + 1, sync, out, err);
		pthread_mutex_lock(&sync->lock);
		sync->gjs = NULL;
		sync->nr_gjs = 0;
		pthread_mutex_unlock(&sync->lock);
		first = last + 1;
	}
	return ret;
}

/* What the plans hold. */
static void plans_free(const struct job_list *jobs, struct group_job *gjs)
{
	unsigned i;

	for (i = 0; i < jobs->nr; i++) {
		paths_free(&gjs[i].plan.names);
		free(gjs[i].plan.file_len);
		free(gjs[i].plan.worker_total);
		free(gjs[i].plan.file_have);
		free(gjs[i].plan.file_missing);
		free(gjs[i].plan.file_link);
		free(gjs[i].plan.zbd);
		unbind_job(&gjs[i].plan);
	}
}

int run_jobs(const struct job_list *jobs, struct run_results *out, struct iop_err *err)
{
	return run_jobs_progress(jobs, out, NULL, NULL, err);
}

int run_jobs_progress(const struct job_list *jobs, struct run_results *out, run_progress_fn fn,
		      void *arg, struct iop_err *err)
{
	const struct run_watch watch = { .progress = fn, .progress_arg = arg };

	return run_jobs_watch(jobs, out, &watch, err);
}

int run_jobs_watch(const struct job_list *jobs, struct run_results *out,
		   const struct run_watch *watch, struct iop_err *err)
{
	struct phase_sync sync = { .progress = watch->progress, .progress_arg = watch->progress_arg,
				   .status = watch->status, .status_arg = watch->status_arg,
				   .status_ns = watch->status_ns, .out = out };
	struct machine_snap m0 = { 0 }, m1;
	struct flow_set flows = { 0 };
	struct zbd_set zbds = { 0 };
	struct group_job *gjs;
	struct timeval tv;
	unsigned i;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	gettimeofday(&tv, NULL);
	out->start_unix_ms = (uint64_t)tv.tv_sec * 1000 + (uint64_t)tv.tv_usec / 1000;
	gjs = calloc(jobs->nr ? jobs->nr : 1, sizeof(*gjs));
	if (!gjs)
		return iop_errf(err, -ENOMEM, "out of memory");
	ret = plan_all(jobs, gjs, out, &flows, &zbds, err);
	pthread_mutex_init(&sync.lock, NULL);
	pthread_cond_init(&sync.cond, NULL);
	sync.genesis_ns = mono_ns();
	sync.status_next_ns = sync.genesis_ns + sync.status_ns;
	atomic_init(&sync.end_all, false);
	for (i = 0; i < jobs->nr; i++)
		sync.exitall |= jobs->jobs[i].exitall;
	sync.nr_phases = jobs->nr ? jobs->jobs[jobs->nr - 1].phase + 1 : 0;
	/* as fio: from before the first layout to after the last worker has ended */
	if (!ret && out->disks)
		disk_set_start(out->disks);
	machine_snap(&m0);
	if (!ret)
		ret = run_phases(jobs, gjs, &sync, out, err);
	if (out->disks)
		disk_set_end(out->disks);
	machine_snap(&m1);
	machine_span(&m0, &m1, &out->machine);
	collect_status_free(&sync.snaps);
	pthread_cond_destroy(&sync.cond);
	pthread_mutex_destroy(&sync.lock);
	plans_free(jobs, gjs);
	flow_set_free(&flows);
	zbd_set_free(&zbds);
	free(gjs);
	if (run_stop_requested())
		out->interrupted = true;
	return ret;
}

void run_results_free(struct run_results *r)
{
	unsigned i;

	for (i = 0; i < r->nr; i++)
		result_free_owned(&r->res[i]);
	free(r->res);
	free(r->layouts);
	r->layouts = NULL;
	run_idle_free(&r->idle);
	r->nr_layouts = 0;
	if (r->disks) {
		disk_set_free(r->disks);
		free(r->disks);
		r->disks = NULL;
	}
	if (r->own_probes && r->probes) {
		probe_set_free(r->probes);
		free(r->probes);
	}
	r->probes = NULL;
	r->own_probes = false;
	r->res = NULL;
	r->nr = 0;
}

