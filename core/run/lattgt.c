/* latency_target: the depth search of fio's lat_target_* (windows, ramping up and down). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "run/run.h"
#include "run/worker.h"
#include "run/runner.h"
#include "run/reqgen.h"

static inline uint64_t done_ios(const struct worker *w)
{
	return w->st[STAT_READ].ios + w->st[STAT_WRITE].ios + w->st[STAT_TRIM].ios;
}

/* latency_target: a new window at the current depth (fio's lat_new_cycle). */
static void lat_new_window(struct worker *w, uint64_t t)
{
	w->lat_tgt.ios = done_ios(w);
	w->lat_tgt.failed = 0;
	w->lat_tgt.ts = t;
}

/* The window (or, at 100%, one I/O) missed the target: try a lower depth. false at depth 1. */
static bool lat_ramp_down(struct worker *w, uint64_t t)
{
	if (w->qd_cap == 1)
		return false;
	w->lat_tgt.qd_high = w->qd_cap;
	if (w->qd_cap == w->lat_tgt.qd_low)
		w->lat_tgt.qd_low--;
	w->qd_cap = (w->qd_cap + w->lat_tgt.qd_low) / 2;
	w->lat_tgt.quiesce = true;
	lat_new_window(w, t);
	return true;
}

/* The window met the target: a higher depth, or, when it stays, the final measured window. */
static void lat_ramp_up(struct worker *w, uint64_t t)
{
	unsigned qd = w->qd_cap;

	w->lat_tgt.qd_low = w->qd_cap;
	if (w->lat_tgt.qd_high != w->params.iodepth)
		w->qd_cap = (w->qd_cap + w->lat_tgt.qd_high) / 2;
	else
		w->qd_cap *= 2;
	if (w->qd_cap > w->params.iodepth)
		w->qd_cap = w->params.iodepth;
	if (w->qd_cap == qd) {
		if (w->lat_tgt.end_run) {
			w->lat_tgt.done = true;
		} else {
			w->lat_tgt.quiesce = true;
			w->lat_tgt.end_run = true;
			measure_start(w, t);
			w->bytes_issued = 0;	/* the final window moves the job's size afresh */
			w->mix.pass_end = w->mix.pass_bytes;
		}
	}
	lat_new_window(w, t);
}

/* One completion's latency against latency_target (fio's lat_target_failed). */
void lat_target_io(struct worker *w, uint64_t lat_ns, uint64_t t)
{
	const struct job_spec *job = w->job;

	if (lat_ns <= job->lat_target.ns)
		return;
	if (job->lat_target.percentile < 100.0) {
		w->lat_tgt.failed++;
		return;
	}
	if (!lat_ramp_down(w, t))
		worker_fail(w, ETIMEDOUT, "latency of %llu nsec exceeds specified max (%llu nsec)",
			    (unsigned long long)lat_ns, (unsigned long long)job->lat_target.ns);
}

/* Once the window has run: did enough of its I/Os meet the target? (fio's lat_target_check) */
void lat_target_check(struct worker *w, uint64_t t)
{
	uint64_t ios;
	double ok;

	if (t - w->lat_tgt.ts < w->job->lat_target.window_ns)
		return;
	ios = done_ios(w) - w->lat_tgt.ios;
	ok = 100.0 * (double)(ios - w->lat_tgt.failed) / (double)ios;
	if (ios && ok >= w->job->lat_target.percentile)
		lat_ramp_up(w, t);
	else
		lat_ramp_down(w, t);
}

void max_latency_io(struct worker *w, const struct io_req *r, uint64_t lat_ns)
{
	static const char *const dir_name[] = { "read", "write", "trim" };
	unsigned d = r->ddir;
	uint64_t max;

	if (d > DDIR_TRIM)
		return;
	max = w->job->max_lat_ns[d];
	if (!max || lat_ns <= max)
		return;
	/* fio's lat_fatal: the first such I/O named, the job's error ETIMEDOUT */
	worker_fail(w, ETIMEDOUT, "latency of %llu nsec exceeds specified max (%llu nsec): %s %s %llu %u",
		    (unsigned long long)lat_ns, (unsigned long long)max, r->file->path, dir_name[d],
		    (unsigned long long)r->offset, r->len);
}
