/* Collecting: each worker's figures into its job's result, and the group's into the run's. */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/resource.h>
#include <sys/statvfs.h>
#include <unistd.h>
#include <sys/time.h>

#include "io/file.h"
#include "io/flow.h"
#include "run/meta.h"
#include "base/cpulist.h"
#include "run/run.h"
#include "stats/merge.h"
#include "stats/prio.h"
#include "stats/stats.h"
#include "stats/steady.h"
#include "run/worker.h"
#include "io/iolog.h"
#include "run/runner.h"


static uint64_t tv_ns(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000000000ull + (uint64_t)tv->tv_usec * 1000ull;
}

static void result_init(struct job_result *r, const struct job_spec *job, unsigned clone)
{
	unsigned i;

	memset(r, 0, sizeof(*r));
	r->spec = job;
	r->clone = clone;
	for (i = 0; i < STAT_NR; i++)
		dir_stat_init(&r->dir[i]);
	snprintf(r->engine_name, sizeof(r->engine_name), "%s", job->engine->name);
}

/* The steady-state window of the worker that holds it, oldest sample first, as fio prints it. */
static int worker_ss(struct ss_result *out, const struct worker *w)
{
	const struct ss_data *ss = &w->ss;
	unsigned i, j;

	out->bw = calloc(ss->dur ? ss->dur : 1, sizeof(uint64_t));
	out->iops = calloc(ss->dur ? ss->dur : 1, sizeof(uint64_t));
	if (!out->bw || !out->iops)
		return -ENOMEM;
	out->dur = ss->dur;
	out->attained = ss->attained;
	out->criterion = ss->criterion;
	out->deviation = ss->deviation;
	out->slope = ss->slope;
	/*
	 * head is the oldest sample of the window judged last when that judgement attained steady
	 * state or the window never filled; otherwise it has moved on to the next window's (fio)
	 */
	j = ss->head;
	if (ss->full && !ss->attained && ss->dur)
		j = j ? j - 1 : ss->dur - 1;
	for (i = 0; i < ss->dur; i++, j = (j + 1) % ss->dur) {
		out->bw[i] = ss->bw[j];
		out->iops[i] = ss->iops[j];
	}
	return 0;
}

/* The CPUs the worker ran on, as the applied setting "cpus" (a list, "0-3,5"). */
static void worker_cpus(struct job_result *one, const struct worker *w)
{
	unsigned k = one->nr_applied;

	memcpy(one->cpus, w->cpus_applied, sizeof(one->cpus));
	if (k == ENGINE_APPLIED_MAX)
		return;
	one->nr_applied++;
	snprintf(one->applied[k][0], sizeof(one->applied[k][0]), "cpus");
	iop_cpus_format(one->cpus, one->applied[k][1], sizeof(one->applied[k][1]));
}

/* atomic=1: the atomic write limits its files were checked against, as applied settings. */
static void worker_atomic(struct job_result *one, const struct atomic_limits *a)
{
	const struct {
		const char *key;
		uint32_t v;
	} set[] = {
		{ "atomic_write_unit_min", a->unit_min },
		{ "atomic_write_unit_max", a->unit_max },
		{ "atomic_write_segments_max", a->segments_max },
	};
	unsigned i, k;

	for (i = 0; i < sizeof(set) / sizeof(set[0]) && one->nr_applied < ENGINE_APPLIED_MAX; i++) {
		k = one->nr_applied++;
		snprintf(one->applied[k][0], sizeof(one->applied[k][0]), "%s", set[i].key);
		snprintf(one->applied[k][1], sizeof(one->applied[k][1]), "%u", set[i].v);
	}
}

/* One worker's figures as a result of its own: what result_merge folds into its job's. */
static void worker_result(struct job_result *one, const struct worker *w, struct ss_result *ss)
{
	uint64_t runtime = w->time.end_ns > w->time.start_ns ? w->time.end_ns - w->time.start_ns : 0;
	const struct fleet_worker *f = &w->fleet;
	unsigned i;

	result_init(one, w->job, w->clone);
	one->nr_workers = 1;
	one->error = w->error;
	one->nr_failed = w->error != 0;
	snprintf(one->errmsg, sizeof(one->errmsg), "%s", w->errmsg);
	one->interrupted = w->interrupted;
	one->verify_errors = w->verify.errors;
	one->zone_resets = w->zone.own.resets;
	one->total_err = w->total_err;
	one->first_error = w->first_error;
	memcpy(one->err_ios, w->err_ios, sizeof(one->err_ios));
	memcpy(one->errlog, w->errlog, (size_t)w->errlog_len);
	one->errlog[w->errlog_len] = '\0';
	one->errlog_dropped = w->errlog_dropped;
	if (w->job->rw == RW_COPY) {
		one->copy = w->copy.check;
		snprintf(one->copy_src, sizeof(one->copy_src), "%s", w->plan->copy_src);
		snprintf(one->copy_dst, sizeof(one->copy_dst), "%s", w->plan->paths[0]);
	}
	one->start_ns = f->start_ns;
	one->end_ns = f->end_ns;
	one->window_start_ns = f->window_start_ns;
	one->window_end_ns = f->window_end_ns;
	one->window_bytes = f->window_bytes;
	one->window_ios = f->window_ios;
	one->meta = w->meta;
	if (!w->st)
		return;
	one->runtime_ns = runtime;
	one->run_sum_ns = runtime;
	for (i = 0; i < STAT_NR; i++) {
		one->dir[i] = w->st[i];
		/* each direction its own time: a write job's verify reads are not its writes' */
		if (one->dir[i].ios)
			one->dir[i].runtime_ns = w->time.dir_ns[i] ? w->time.dir_ns[i] : runtime;
	}
	if (w->ru_end.ru_utime.tv_sec || w->ru_end.ru_utime.tv_usec || w->ru_end.ru_stime.tv_sec ||
	    w->ru_end.ru_stime.tv_usec) {
		one->usr_ns = tv_ns(&w->ru_end.ru_utime) - tv_ns(&w->ru_start.ru_utime);
		one->sys_ns = tv_ns(&w->ru_end.ru_stime) - tv_ns(&w->ru_start.ru_stime);
		one->ctx = (uint64_t)(w->ru_end.ru_nvcsw - w->ru_start.ru_nvcsw) +
			   (uint64_t)(w->ru_end.ru_nivcsw - w->ru_start.ru_nivcsw);
		one->majf = (uint64_t)(w->ru_end.ru_majflt - w->ru_start.ru_majflt);
		one->minf = (uint64_t)(w->ru_end.ru_minflt - w->ru_start.ru_minflt);
	}
	if (w->sched_valid && w->sched_end[0] >= w->sched_start[0] &&
	    w->sched_end[1] >= w->sched_start[1] && w->sched_end[2] >= w->sched_start[2]) {
		one->sched_workers = 1;
		one->oncpu_ns = w->sched_end[0] - w->sched_start[0];
		one->runq_wait_ns = w->sched_end[1] - w->sched_start[1];
		one->sched_in = w->sched_end[2] - w->sched_start[2];
	}
	one->buf_huge = w->buf.huge;
	if (w->kt_valid) {
		one->kt_workers = 1;
		one->kt_usr_ns = w->kt_end[0] - w->kt_start[0];
		one->kt_sys_ns = w->kt_end[1] - w->kt_start[1];
	}
	memcpy(one->depth, w->depth_hist, sizeof(one->depth));
	memcpy(one->submit, w->submit_hist, sizeof(one->submit));
	memcpy(one->reaped, w->reap_hist, sizeof(one->reaped));
	one->submit[1] += w->submit_one;
	one->reaped[1] += w->reap_one;
	if (w->job->engine && (w->job->engine->flags & ENGINE_SYNC)) {
		/* fio counts a synchronous engine's I/Os as submitted and completed one by one */
		memset(one->submit, 0, sizeof(one->submit));
		for (i = 0; i < DEPTH_BUCKETS; i++)
			one->submit[1] += w->depth_hist[i];
		memcpy(one->reaped, one->submit, sizeof(one->reaped));
	}
	one->latency_depth = w->lat_tgt.on ? w->qd_cap : w->params.iodepth;
	if (w->ss_holder && ss)
		one->ss = ss;
	one->nr_applied = w->eng.nr_applied;
	memcpy(one->applied, w->eng.applied, sizeof(one->applied));
	if (w->job->atomic && w->plan->atomic.unit_max)
		worker_atomic(one, &w->plan->atomic);
	if (w->cpus_pinned)
		worker_cpus(one, w);
	if (w->numa_measured) {
		one->numa_measured = true;
		memcpy(one->numa_pages, w->numa_pages, sizeof(one->numa_pages));
		one->numa_pages_elsewhere = w->numa_pages_elsewhere;
	}
}

/*
 * A worker's figures into its job's result, through the one merge every result goes through;
 * in an interim report's view, its snapshot's (blank where it has none, or is not measuring).
 */
static void result_add_worker(struct job_result *r, const struct worker *w)
{
	struct ss_result ss = { 0 };
	struct job_result *one = malloc(sizeof(*one));
	int ret = -ENOMEM;

	if (one && w->snap_view && w->snap_view->measured) {
		ret = result_merge(r, &w->snap_view->one);
	} else if (one && w->snap_view) {
		result_init(one, w->job, w->clone);
		one->nr_workers = 1;
		ret = result_merge(r, one);
	} else if (one && (!w->ss_holder || !worker_ss(&ss, w))) {
		worker_result(one, w, &ss);
		ret = result_merge(r, one);
	}
	if (ret && !r->error) {
		r->error = ENOMEM;
		snprintf(r->errmsg, sizeof(r->errmsg), "out of memory merging results");
	}
	free(ss.bw);
	free(ss.iops);
	free(one);
}

static struct job_result *results_grow(struct run_results *out, unsigned n)
{
	struct job_result *res = realloc(out->res, (out->nr + n) * sizeof(*res));

	if (!res)
		return NULL;
	out->res = res;
	out->nr += n;
	return &res[out->nr - n];
}

static void result_targets(struct job_result *r, const struct group_job *gj, uint64_t elapsed)
{
	r->elapsed_ns = elapsed;
	r->nr_targets = gj->nr_targets;
	memcpy(r->targets, gj->targets, sizeof(r->targets));
	r->direct_suspect = gj->direct_suspect;
	snprintf(r->direct_note, sizeof(r->direct_note), "%s", gj->direct_note);
	r->tsc_mhz = gj->plan.tsc ? tsc_mhz(gj->plan.tsc) : 0.0;
}

/*
 * A reporting group's bandwidth and IOPS samples: what all its members moved in each 500 ms,
 * summed interval by interval (so bw_mean is the group's bandwidth, as bw is), in place of
 * the members' own samples pooled.
 */
static void result_group_samples(struct job_result *r, struct worker *const *ws, unsigned n,
				 struct group_member *m)
{
	unsigned i, d, nm = 0;

	if (n < 2)
		return;
	for (i = 0; i < n; i++) {
		const struct worker *w = ws[i];

		if (!w->st)
			continue;
		if (w->progress.nomem) {
			if (!r->error) {
				r->error = ENOMEM;
				snprintf(r->errmsg, sizeof(r->errmsg),
					 "out of memory for the group's bandwidth samples");
			}
			return;
		}
		m[nm].log = &w->progress;
		m[nm].end.t = w->time.end_ns > w->time.start_ns ? w->time.end_ns - w->time.start_ns : 0;
		for (d = 0; d < 2; d++) {
			m[nm].end.bytes[d] = w->st[d].bytes;
			m[nm].end.ios[d] = w->st[d].ios;
		}
		nm++;
	}
	for (d = 0; d < 2; d++) {
		if (!r->dir[d].bw.n)
			continue;
		if (group_samples(m, nm, d, ws[0]->job->bw_avg_ms * 1000000ull,
				  ws[0]->job->iops_avg_ms * 1000000ull, &r->dir[d].bw,
				  &r->dir[d].iops) && !r->error) {
			r->error = ENOMEM;
			snprintf(r->errmsg, sizeof(r->errmsg),
				 "out of memory for the group's bandwidth samples");
		}
	}
}

/*
 * A reporting unit's latencies per priority (cmdprio), as fio 3.33 reports them: a direction
 * has them where a member gave its I/Os priorities of their own, or where its members' I/Os
 * had different priorities (prio, prioclass). A member without priorities of its own there
 * adds all its I/Os of the direction under its priority: completion latency, total latency
 * with lat_percentiles=1.
 */
static void result_unit_prios(struct job_result *r, struct worker *const *ws, unsigned n)
{
	unsigned i, d;
	int ret = 0;

	for (d = 0; d < PRIO_DIRS && !ret; d++) {
		bool own = false, differ = false, seen = false;
		uint16_t first = 0;

		for (i = 0; i < n; i++) {
			const struct worker *w = ws[i];
			const struct lat_stat *l;

			if (!w->st)
				continue;
			own |= w->prios && w->prios->nr[d];
			l = w->job->lat_percentiles ? &w->st[d].lat : &w->st[d].clat;
			if (!l->n)
				continue;
			differ |= seen && w->ioprio != first;
			if (!seen)
				first = w->ioprio;
			seen = true;
		}
		if (!own && !differ)
			continue;
		if (!r->prios && !(r->prios = calloc(1, sizeof(*r->prios)))) {
			ret = -ENOMEM;
			break;
		}
		for (i = 0; i < n && !ret; i++) {
			const struct worker *w = ws[i];
			unsigned k;

			if (!w->st)
				continue;
			for (k = 0; w->prios && k < w->prios->nr[d] && !ret; k++)
				ret = prio_stats_add_lat(r->prios, d, w->prios->p[d][k].ioprio,
							 &w->prios->p[d][k].lat);
			if ((!w->prios || !w->prios->nr[d]) && !ret)
				ret = prio_stats_add_lat(r->prios, d, w->ioprio,
							 w->job->lat_percentiles ? &w->st[d].lat :
										   &w->st[d].clat);
		}
	}
	if (ret && !r->error) {
		r->error = ENOMEM;
		snprintf(r->errmsg, sizeof(r->errmsg), "out of memory merging the latencies per priority");
	}
}

/* A reporting unit is complete: what is merged from all its members at once. */
static void result_unit_done(struct job_result *r, struct worker *const *ws, unsigned n,
			     struct group_member *m)
{
	result_group_samples(r, ws, n, m);
	result_unit_prios(r, ws, n);
}

/* --bandwidth-log: a line per 500 ms of what every worker of the phase moved, as fio's agg logs. */
struct agg_out {
	FILE *f;
	unsigned d;
	uint64_t base_ms;
};

static void agg_line(void *arg, uint64_t t, double bps, double iops)
{
	struct agg_out *a = arg;

	(void)iops;
	fprintf(a->f, "%llu, %llu, %u, 0, 0\n", (unsigned long long)(a->base_ms + t / 1000000),
		(unsigned long long)(bps / 1024 + 0.5), a->d);
}

/* When the phase began, in ms from the run's start (its entries' times are the run's). */
static uint64_t phase_start_ms(const struct run_results *out, uint64_t elapsed)
{
	struct timespec ts;
	uint64_t now_ms;

	clock_gettime(CLOCK_REALTIME, &ts);
	now_ms = (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
	now_ms -= elapsed / 1000000;
	return now_ms > out->start_unix_ms ? now_ms - out->start_unix_ms : 0;
}

static int agg_logs(struct worker *const *ws, unsigned n, struct group_member *m,
		    uint64_t base_ms)
{
	static const char *const names[] = { AGG_BW_LOG_READ, AGG_BW_LOG_WRITE };
	struct agg_out a = { NULL, 0, base_ms };
	unsigned i, d, nm = 0;
	int ret = 0;

	for (i = 0; i < n; i++) {
		unsigned k;

		if (!ws[i]->st || !ws[i]->job->log.agg_bw || ws[i]->progress.nomem)
			continue;
		m[nm].log = &ws[i]->progress;
		m[nm].end.t = ws[i]->time.end_ns > ws[i]->time.start_ns ?
			      ws[i]->time.end_ns - ws[i]->time.start_ns : 0;
		for (k = 0; k < 2; k++) {
			m[nm].end.bytes[k] = ws[i]->st[k].bytes;
			m[nm].end.ios[k] = ws[i]->st[k].ios;
		}
		nm++;
	}
	for (d = 0; nm && d < 2 && !ret; d++) {
		a.f = iolog_open(names[d]);
		a.d = d;
		if (!a.f)
			return -errno;
		ret = group_series(m, nm, d, SAMPLE_NS, agg_line, &a);
		if (ferror(a.f) && !ret)
			ret = -EIO;
		if (fclose(a.f) && !ret)
			ret = -errno;
	}
	return ret;
}

/*
 * Results of one phase, fio's way: each worker is reported alone, except that consecutive
 * workers with group_reporting in the same reporting group are merged into one result. The
 * workers are seen through wv: job i's worker c is wv[first + c], first the workers of the
 * jobs before it (the live workers, or an interim report's views of them).
 */
static int collect_units(struct run_results *out, struct group_job *gjs, unsigned n,
			 uint64_t elapsed, struct worker *const *wv, struct worker **ws,
			 struct group_member *m)
{
	unsigned i, c, k, first = 0, last_group = UINT_MAX, nw = 0;
	struct job_result *r;
	long cur = -1;

	for (i = 0; i < n; i++) {
		const struct job_spec *job = gjs[i].plan.job;

		if (gjs[i].refused) {
			if (cur >= 0)
				result_unit_done(&out->res[cur], ws, nw, m);
			r = results_grow(out, 1);
			if (!r)
				return -ENOMEM;
			result_init(r, job, 0);
			result_targets(r, &gjs[i], elapsed);
			r->error = -gjs[i].refused;
			r->nr_failed = job->numjobs;	/* fio counts each of its workers */
			snprintf(r->errmsg, sizeof(r->errmsg), "%s", gjs[i].why);
			cur = -1;
			nw = 0;
			continue;
		}
		/* in fio's order, its thread numbers': clone 0, then the last clone to clone 1 */
		for (k = 0; k < job->numjobs; k++) {
			c = k ? job->numjobs - k : 0;
			if (cur < 0 || !job->group_reporting || last_group != job->groupid) {
				if (cur >= 0)
					result_unit_done(&out->res[cur], ws, nw, m);
				r = results_grow(out, 1);
				if (!r)
					return -ENOMEM;
				result_init(r, job, c);
				result_targets(r, &gjs[i], elapsed);
				cur = (long)out->nr - 1;
				nw = 0;
			}
			result_add_worker(&out->res[cur], wv[first + c]);
			out->res[cur].opts_spec = job;
			ws[nw++] = wv[first + c];
			last_group = job->groupid;
			if (wv[first + c]->interrupted)
				out->interrupted = true;
		}
		first += job->numjobs;
	}
	if (cur >= 0)
		result_unit_done(&out->res[cur], ws, nw, m);
	return 0;
}

/* Workers of the jobs not refused. */
static unsigned nr_workers(const struct group_job *gjs, unsigned n)
{
	unsigned i, total = 0;

	for (i = 0; i < n; i++)
		total += gjs[i].refused ? 0 : gjs[i].plan.job->numjobs;
	return total;
}

int collect(struct run_results *out, struct group_job *gjs, unsigned n, uint64_t elapsed)
{
	unsigned i, c, total = nr_workers(gjs, n), nw = 0;
	struct group_member *m = NULL;
	struct worker **ws = NULL, **wv = NULL;
	struct job_result *r;
	int ret = -ENOMEM;

	if (total) {
		ws = calloc(total, sizeof(*ws));
		wv = calloc(total, sizeof(*wv));
		m = calloc(total, sizeof(*m));
		if (!ws || !wv || !m)
			goto out;
	}
	for (i = 0; i < n; i++)
		for (c = 0; !gjs[i].refused && c < gjs[i].plan.job->numjobs; c++)
			wv[nw++] = &gjs[i].workers[c];
	ret = collect_units(out, gjs, n, elapsed, wv, ws, m);
	if (ret)
		goto out;
	/* every worker of the phase, for the run's agg logs */
	if (nw && agg_logs(wv, nw, m, phase_start_ms(out, elapsed)) && out->nr &&
	    !out->res[out->nr - 1].error) {
		r = &out->res[out->nr - 1];
		r->error = EIO;
		snprintf(r->errmsg, sizeof(r->errmsg), "--bandwidth-log: cannot write the agg logs");
	}
out:
	free(ws);
	free(wv);
	free(m);
	return ret;
}

/* ---- interim reports: the workers' snapshots and the report made of them ---- */

void worker_snap_free(struct worker_snap *s)
{
	if (!s)
		return;
	free(s->progress.p);
	prio_stats_free(s->prios);
	free(s);
}

/* What the snapshot copies of the worker beside its result: progress points, priorities. */
static int snap_copy_parts(struct worker_snap *s, const struct worker *w)
{
	unsigned d, k;

	if (w->progress.n) {
		s->progress.p = malloc(w->progress.n * sizeof(*s->progress.p));
		if (!s->progress.p)
			return -ENOMEM;
		memcpy(s->progress.p, w->progress.p, w->progress.n * sizeof(*s->progress.p));
		s->progress.n = s->progress.cap = w->progress.n;
	}
	s->progress.nomem = w->progress.nomem;
	s->ioprio = w->ioprio;
	if (!w->prios)
		return 0;
	s->prios = calloc(1, sizeof(*s->prios));
	if (!s->prios)
		return -ENOMEM;
	for (d = 0; d < PRIO_DIRS; d++)
		for (k = 0; k < w->prios->nr[d]; k++)
			if (prio_stats_add_lat(s->prios, d, w->prios->p[d][k].ioprio,
					       &w->prios->p[d][k].lat))
				return -ENOMEM;
	return 0;
}

/*
 * fio's __show_running_run_stats, taken by the worker itself so that nothing it counts is read
 * while it counts: its result as collect would make it had the worker ended at t (runtime and
 * CPU so far); before its measured start (ramp_time, not started) a blank one.
 */
void worker_snapshot(struct worker *w, uint64_t t)
{
	unsigned want = atomic_load_explicit(&w->snap_want, memory_order_acquire);
	struct worker_snap *s = calloc(1, sizeof(*s));
	uint64_t end = w->time.end_ns;
	struct rusage ru = w->ru_end;
	bool kt = w->kt_valid, sched = w->sched_valid;

	w->snap_gen = want;
	if (!s)
		return;	/* the report keeps this worker's last snapshot */
	s->gen = want;
	if (w->st && !w->time.in_ramp && t > w->time.start_ns) {
		w->time.end_ns = t;
		getrusage(RUSAGE_THREAD, &w->ru_end);
		w->kt_valid = w->sched_valid = false;	/* read at the end only */
		worker_result(&s->one, w, NULL);
		s->one.meta = NULL;	/* rw=metadata's counts are the worker's own until it ends */
		w->time.end_ns = end;
		w->ru_end = ru;
		w->kt_valid = kt;
		w->sched_valid = sched;
		s->measured = true;
		s->runtime_ns = t - w->time.start_ns;
		if (snap_copy_parts(s, w)) {
			worker_snap_free(s);
			return;
		}
	}
	worker_snap_free(atomic_exchange_explicit(&w->snap, s, memory_order_acq_rel));
}

void collect_status_free(struct status_state *st)
{
	unsigned i;

	for (i = 0; i < st->nr; i++)
		worker_snap_free(st->last[i]);
	free(st->last);
	st->last = NULL;
	st->nr = 0;
	st->phase = NULL;
}

/* Has the worker answered request gen (or has nothing to answer with: ended, not started)? */
static bool snap_answered(struct worker *w, unsigned gen, struct worker_snap **last)
{
	struct worker_snap *s;

	if (atomic_load_explicit(&w->finished, memory_order_acquire))
		return true;
	s = atomic_exchange_explicit(&w->snap, NULL, memory_order_acq_rel);
	if (s) {
		worker_snap_free(*last);
		*last = s;
	}
	return (*last && (*last)->gen == gen) ||
	       !atomic_load_explicit(&w->running, memory_order_acquire);
}

/* The running phase's workers asked for a snapshot, and their answers waited for. */
static void snapshots_take(struct group_job *gjs, unsigned n, uint64_t wait_ns,
			   struct status_state *st)
{
	const struct timespec tick = { 0, 2000000 };
	uint64_t until = mono_ns() + wait_ns;
	unsigned i, c, k, gen = ++st->gen;
	bool all;

	for (i = 0; i < n; i++)
		for (c = 0; gjs[i].workers && c < gjs[i].plan.nr_workers; c++)
			atomic_store_explicit(&gjs[i].workers[c].snap_want, gen, memory_order_release);
	for (;;) {
		all = true;
		for (i = 0, k = 0; i < n; i++)
			for (c = 0; !gjs[i].refused && c < gjs[i].plan.job->numjobs; c++, k++)
				if (gjs[i].workers && k < st->nr)
					all &= snap_answered(&gjs[i].workers[c], gen, &st->last[k]);
		if (all || mono_ns() >= until)
			return;
		nanosleep(&tick, NULL);
	}
}

/*
 * A view of each worker for the report: a shadow holding its snapshot (blank without one) while
 * it runs or before it starts, the worker itself once it has ended.
 */
static struct worker *status_view(struct group_job *gj, unsigned c, struct worker *sh,
				  const struct worker_snap *s)
{
	struct worker *w = gj->workers ? &gj->workers[c] : NULL;
	static const struct worker_snap blank;

	if (w && atomic_load_explicit(&w->finished, memory_order_acquire))
		return w;
	memset(sh, 0, sizeof(*sh));
	sh->job = gj->plan.job;
	sh->plan = &gj->plan;
	sh->clone = c;
	sh->snap_view = s ? s : &blank;
	if (s && s->measured) {
		sh->st = (struct dir_stat *)s->one.dir;
		sh->progress = s->progress;
		sh->time.end_ns = s->runtime_ns;
		sh->prios = s->prios;
		sh->ioprio = s->ioprio;
	}
	return sh;
}

/* A new phase: the last snapshots kept are of its workers. */
static int status_phase(struct group_job *gjs, unsigned total, struct status_state *st)
{
	if (st->phase == gjs && st->nr == total)
		return 0;
	collect_status_free(st);
	st->last = calloc(total ? total : 1, sizeof(*st->last));
	if (!st->last)
		return -ENOMEM;
	st->nr = total;
	st->phase = gjs;
	return 0;
}

int collect_status(struct run_results *out, struct group_job *gjs, unsigned n, uint64_t elapsed,
		   uint64_t wait_ns, struct status_state *st)
{
	unsigned i, c, k, total = nr_workers(gjs, n), running = 0;
	struct worker **ws = NULL, **wv = NULL, *sh = NULL;
	struct group_member *m = NULL;
	int ret = -ENOMEM;

	/* the running phase's workers exist; those of the phases after it, not yet */
	while (running < n && gjs[running].workers)
		running++;
	if (status_phase(gjs, nr_workers(gjs, running), st))
		return -ENOMEM;
	snapshots_take(gjs, running, wait_ns, st);
	if (total) {
		ws = calloc(total, sizeof(*ws));
		wv = calloc(total, sizeof(*wv));
		m = calloc(total, sizeof(*m));
		sh = calloc(total, sizeof(*sh));
		if (!ws || !wv || !m || !sh)
			goto out;
	}
	for (i = 0, k = 0; i < n; i++)
		for (c = 0; !gjs[i].refused && c < gjs[i].plan.job->numjobs; c++, k++)
			wv[k] = status_view(&gjs[i], c, &sh[k], k < st->nr ? st->last[k] : NULL);
	ret = collect_units(out, gjs, n, elapsed, wv, ws, m);
out:
	free(ws);
	free(wv);
	free(m);
	free(sh);
	return ret;
}
