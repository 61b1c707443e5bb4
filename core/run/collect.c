/* Collecting: each worker's figures into its job's result, and the group's into the run's. */
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

#include "io/file.h"
#include "io/flow.h"
#include "run/meta.h"
#include "base/cpulist.h"
#include "run/run.h"
#include "stats/stats.h"
#include "stats/steady.h"
#include "run/worker.h"
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

/* The worker's times on the phase's clock, and under MPI what it moved while all ranks ran. */
static void result_add_span(struct job_result *r, const struct fleet_worker *f, bool first)
{
	if (f->end_ns <= f->start_ns)
		return;
	if (first || f->start_ns < r->start_ns)
		r->start_ns = f->start_ns;
	if (first || f->end_ns > r->end_ns)
		r->end_ns = f->end_ns;
	if (f->window_end_ns <= f->window_start_ns)
		return;
	if (!r->window_end_ns || f->window_start_ns > r->window_start_ns)
		r->window_start_ns = f->window_start_ns;
	if (!r->window_end_ns || f->window_end_ns < r->window_end_ns)
		r->window_end_ns = f->window_end_ns;
	r->window_bytes += f->window_bytes;
	r->window_ios += f->window_ios;
}

/* The steady-state window of the worker that holds it, oldest sample first, as fio prints it. */
static int result_add_ss(struct job_result *r, const struct worker *w)
{
	const struct ss_data *ss = &w->ss;
	unsigned i, j;

	r->ss = calloc(1, sizeof(*r->ss));
	if (!r->ss)
		return -ENOMEM;
	r->ss->bw = calloc(ss->dur, sizeof(uint64_t));
	r->ss->iops = calloc(ss->dur, sizeof(uint64_t));
	if (!r->ss->bw || !r->ss->iops)
		return -ENOMEM;
	r->ss->dur = ss->dur;
	r->ss->attained = ss->attained;
	r->ss->criterion = ss->criterion;
	r->ss->deviation = ss->deviation;
	r->ss->slope = ss->slope;
	for (i = 0, j = ss->head; i < ss->dur; i++, j = (j + 1) % ss->dur) {
		r->ss->bw[i] = ss->bw[j];
		r->ss->iops[i] = ss->iops[j];
	}
	return 0;
}

/* The union of the workers' CPUs, as the applied setting "cpus" (a list, "0-3,5"). */
static void result_note_cpus(struct job_result *r, const struct worker *w)
{
	unsigned i, k;

	for (i = 0; i < JOB_CPUS_MAX / 64; i++)
		r->cpus[i] |= w->cpus_applied[i];
	for (k = 0; k < r->nr_applied && strcmp(r->applied[k][0], "cpus"); k++)
		;
	if (k == ENGINE_APPLIED_MAX)
		return;
	if (k == r->nr_applied) {
		r->nr_applied++;
		snprintf(r->applied[k][0], sizeof(r->applied[k][0]), "cpus");
	}
	iop_cpus_format(r->cpus, r->applied[k][1], sizeof(r->applied[k][1]));
}

static void result_add_worker(struct job_result *r, const struct worker *w)
{
	uint64_t runtime = w->end_ns > w->start_ns ? w->end_ns - w->start_ns : 0;
	unsigned i;

	result_add_span(r, &w->fleet, !r->end_ns);
	r->nr_workers++;
	if (w->error && !r->error) {
		r->error = w->error;
		snprintf(r->errmsg, sizeof(r->errmsg), "%s", w->errmsg);
	}
	r->interrupted |= w->interrupted;
	r->verify_errors += w->verify_errors;
	r->zone_resets += w->zown.resets;
	if (w->total_err && !r->total_err)
		r->first_error = w->first_error;
	r->total_err += w->total_err;
	for (i = 0; i < 3; i++)
		r->err_ios[i] += w->err_ios[i];
	if (w->errlog_len) {
		size_t have = strlen(r->errlog), n = (size_t)w->errlog_len;

		if (have + n >= sizeof(r->errlog)) {
			r->errlog_dropped++;
			n = 0;
		}
		memcpy(r->errlog + have, w->errlog, n);
		r->errlog[have + n] = '\0';
	}
	r->errlog_dropped += w->errlog_dropped;
	if (w->job->rw == RW_COPY) {
		r->copy = w->copy;
		snprintf(r->copy_src, sizeof(r->copy_src), "%s", w->plan->copy_src);
		snprintf(r->copy_dst, sizeof(r->copy_dst), "%s", w->plan->paths[0]);
	}
	if (!w->st)
		return;
	if (runtime > r->runtime_ns)
		r->runtime_ns = runtime;
	for (i = 0; i < STAT_NR; i++) {
		struct dir_stat d = w->st[i];

		/* each direction its own time: a write job's verify reads are not its writes' */
		if (d.ios)
			d.runtime_ns = w->dir_ns[i] ? w->dir_ns[i] : runtime;
		dir_stat_merge(&r->dir[i], &d);
	}
	if (w->ru_end.ru_utime.tv_sec || w->ru_end.ru_utime.tv_usec || w->ru_end.ru_stime.tv_sec ||
	    w->ru_end.ru_stime.tv_usec) {
		r->usr_ns += tv_ns(&w->ru_end.ru_utime) - tv_ns(&w->ru_start.ru_utime);
		r->sys_ns += tv_ns(&w->ru_end.ru_stime) - tv_ns(&w->ru_start.ru_stime);
		r->ctx += (uint64_t)(w->ru_end.ru_nvcsw - w->ru_start.ru_nvcsw) +
			  (uint64_t)(w->ru_end.ru_nivcsw - w->ru_start.ru_nivcsw);
		r->majf += (uint64_t)(w->ru_end.ru_majflt - w->ru_start.ru_majflt);
		r->minf += (uint64_t)(w->ru_end.ru_minflt - w->ru_start.ru_minflt);
	}
	if (r->nr_workers == 1)
		r->buf_huge = w->buf_huge;
	if (w->kt_valid) {
		r->kt_workers++;
		r->kt_usr_ns += w->kt_end[0] - w->kt_start[0];
		r->kt_sys_ns += w->kt_end[1] - w->kt_start[1];
	}
	for (i = 0; i < DEPTH_BUCKETS; i++)
		r->depth[i] += w->depth_hist[i];
	if (w->meta) {
		/* fio's read and write stand for open-read and create: their own phase times */
		if (meta_merge(&r->meta, w->meta) && !r->error) {
			r->error = ENOMEM;
			snprintf(r->errmsg, sizeof(r->errmsg), "out of memory merging results");
		}
		if (r->meta) {
			r->dir[STAT_READ].runtime_ns = r->meta->phase_ns[META_OPEN_READ];
			r->dir[STAT_WRITE].runtime_ns = r->meta->phase_ns[META_CREATE];
		}
	}
	if (r->nr_workers == 1)
		r->latency_depth = w->lat_on ? w->qd_cap : w->job->iodepth;
	if (w->ss_holder && !r->ss && result_add_ss(r, w) && !r->error) {
		r->error = ENOMEM;
		snprintf(r->errmsg, sizeof(r->errmsg), "out of memory for the steady state");
	}
	if (!r->nr_applied && w->eng.nr_applied) {
		r->nr_applied = w->eng.nr_applied;
		memcpy(r->applied, w->eng.applied, sizeof(r->applied));
	}
	if (w->cpus_pinned)
		result_note_cpus(r, w);
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
		m[nm].end.t = w->end_ns > w->start_ns ? w->end_ns - w->start_ns : 0;
		for (d = 0; d < 2; d++) {
			m[nm].end.bytes[d] = w->st[d].bytes;
			m[nm].end.ios[d] = w->st[d].ios;
		}
		nm++;
	}
	for (d = 0; d < 2; d++) {
		if (!r->dir[d].bw.n)
			continue;
		if (group_samples(m, nm, d, &r->dir[d].bw, &r->dir[d].iops) && !r->error) {
			r->error = ENOMEM;
			snprintf(r->errmsg, sizeof(r->errmsg),
				 "out of memory for the group's bandwidth samples");
		}
	}
}

/*
 * Results of one phase, fio's way: each worker is reported alone, except that consecutive
 * workers with group_reporting in the same reporting group are merged into one result.
 */
int collect(struct run_results *out, struct group_job *gjs, unsigned n, uint64_t elapsed)
{
	unsigned i, c, last_group = UINT_MAX, total = 0, nw = 0;
	struct group_member *m = NULL;
	struct worker **ws = NULL;
	struct job_result *r;
	long cur = -1;
	int ret = -ENOMEM;

	for (i = 0; i < n; i++)
		total += gjs[i].refused ? 0 : gjs[i].plan.job->numjobs;
	if (total) {
		ws = calloc(total, sizeof(*ws));
		m = calloc(total, sizeof(*m));
		if (!ws || !m)
			goto out;
	}
	for (i = 0; i < n; i++) {
		const struct job_spec *job = gjs[i].plan.job;

		if (gjs[i].refused) {
			if (cur >= 0)
				result_group_samples(&out->res[cur], ws, nw, m);
			r = results_grow(out, 1);
			if (!r)
				goto out;
			result_init(r, job, 0);
			result_targets(r, &gjs[i], elapsed);
			r->error = -gjs[i].refused;
			snprintf(r->errmsg, sizeof(r->errmsg), "%s", gjs[i].why);
			cur = -1;
			nw = 0;
			continue;
		}
		for (c = 0; c < job->numjobs; c++) {
			if (cur < 0 || !job->group_reporting || last_group != job->groupid) {
				if (cur >= 0)
					result_group_samples(&out->res[cur], ws, nw, m);
				r = results_grow(out, 1);
				if (!r)
					goto out;
				result_init(r, job, c);
				result_targets(r, &gjs[i], elapsed);
				cur = (long)out->nr - 1;
				nw = 0;
			}
			result_add_worker(&out->res[cur], &gjs[i].workers[c]);
			ws[nw++] = &gjs[i].workers[c];
			last_group = job->groupid;
			if (gjs[i].workers[c].interrupted)
				out->interrupted = true;
		}
	}
	if (cur >= 0)
		result_group_samples(&out->res[cur], ws, nw, m);
	ret = 0;
out:
	free(ws);
	free(m);
	return ret;
}
