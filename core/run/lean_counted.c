/*
 * The lean loop by count (io_loop_counted): a lean read phase that measures no latency, on an
 * engine instance whose requests carry nothing of their own (e->counted), runs with counts
 * in place of requests.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "base/stop.h"
#include "run/lean.h"
#include "run/runner.h"
#include "run/worker.h"
#include "stats/stats.h"

/*
 * A lean phase that measures no latency goes by count where its engine instance takes
 * requests so (e->counted) and it reads: a NOP write would have its buffers filled for
 * nothing, so writes keep the lean loop, and so does a phase whose passes drop the file's
 * cache (invalidate=1: the lean loop's offsets start each pass, counts have none).
 */
static bool loop_is_counted(const struct worker *w)
{
	return w->eng.counted && w->eng.ops->submit_counted && w->eng.ops->reap_counted &&
	       w->fixed_dir == DDIR_READ && !w->gens[0].inval && !w->sync_at_qd1 &&
	       !(w->eng.ops->flags & ENGINE_SYNC);
}

/*
 * A counted phase's completions at time t: n whole but for the nf results in fails[]. Each
 * failure is settled as a request of the phase (a stand-in taken from the pool and given
 * back), so that it is counted and reported as any failed I/O is; the rest are counted at
 * once, as complete_lean_none counts a lean batch. During ramp_time they count as
 * complete_uncounted's do, until measure_start drops them.
 */
static void complete_counted(struct worker *w, const struct lean *l, unsigned n,
			     const int32_t *fails, unsigned nf, uint64_t t)
{
	struct dir_stat *d = &w->st[l->dir];
	uint64_t odd = 0, odd_bytes = 0;
	unsigned i;

	if (__builtin_expect(w->time.in_ramp, 0) && t >= w->time.ramp_end_ns)
		measure_start(w, t);
	for (i = 0; __builtin_expect(nf != 0, 0) && i < nf; i++) {
		struct io_req *r = w->free_reqs[--w->nr_free];

		r->file = l->file;
		r->ddir = l->dir;
		r->len = l->len;
		r->offset = l->file->start;
		r->res = fails[i];
		/* settled as the lean loop settles one: counted when complete_odd says so */
		if (complete_odd(w, r, d)) {
			odd++;
			odd_bytes += (uint64_t)r->res;
		}
		w->free_reqs[w->nr_free++] = r;
	}
	d->ios += n - nf + odd;
	d->bytes += (uint64_t)(n - nf) * l->len + odd_bytes;
	if (__builtin_expect(t >= w->next_progress_ns, 0)) {
		progress_publish(w, t);
		if (t >= w->next_sample_ns)
			take_sample(w, t);
	}
}

/*
 * The lean loop of an engine instance that takes its requests by count (e->counted: an
 * io_uring NOP ring) in a read phase that measures no latency: no request is made, filled or
 * handed back per I/O; what is in flight, issued and done are counts, kept as the lean loop
 * keeps them (iodepth, the batches, iodepth_batch_complete_min/max, io_size or runtime, the
 * depth and call histograms, ramp_time, progress and samples).
 */
static void run_counted(struct worker *w)
{
	const struct job_spec *job = w->job;
	const struct engine_ops *ops = w->eng.ops;
	const struct lean ln = lean_of(w);
	const unsigned depth = w->params.iodepth;
	const unsigned batch_max = job->iodepth_batch_submit ? job->iodepth_batch_submit : 1;
	const unsigned min_done = job->iodepth_batch_complete_min;
	const unsigned max_done = job->iodepth_batch_complete_max;
	const bool poll = !min_done && !max_done;
	int32_t *fails = calloc(depth, sizeof(*fails));
	unsigned reap_errors = 0, nf;
	bool more = true;
	uint64_t t = worker_now(w);
	int ret;

	if (!fails) {
		worker_fail(w, ENOMEM, "engine %s: %s", ops->name, strerror(ENOMEM));
		return;
	}
	if (w->time.deadline_ns && t >= w->time.deadline_ns && !w->time.in_ramp)
		more = false;
	while (more || w->inflight) {
		if (__builtin_expect(run_stop_requested() |
				     atomic_load_explicit(&w->terminate, memory_order_relaxed), 0)) {
			if (run_stop_requested()) {
				w->aborted = true;
				w->interrupted = true;
			}
			more = false;
		}
		if (w->aborted) {
			more = false;
			if (!w->inflight)
				break;
		}
		if (more && w->inflight < depth) {
			unsigned n = depth - w->inflight;

			n = n < batch_max ? n : batch_max;
			/* as the lean loop: a request is made while it fits in what the job issues */
			if (!ln.time_based && w->bytes_issued + (uint64_t)n * ln.len > w->bytes_target) {
				n = w->bytes_issued < w->bytes_target ?
				    (unsigned)((w->bytes_target - w->bytes_issued) / ln.len) : 0;
				more = false;
			}
			ret = n ? ops->submit_counted(&w->eng, n) : 0;
			t = worker_now(w);
			if (ret < 0) {
				worker_fail(w, -ret, "engine %s: submit: %s", ops->name, strerror(-ret));
				ret = 0;
			}
			if (ret) {
				w->depth_hist[depth_bucket(w->inflight + (unsigned)ret)] += (unsigned)ret;
				count_call(&w->submit_one, w->submit_hist, (unsigned)ret);
				w->inflight += (unsigned)ret;
			}
			/* what was not taken is offered again, as the lean loop's batch is */
			if ((unsigned)ret < n)
				more = true;
			w->bytes_issued += (uint64_t)(unsigned)ret * ln.len;
			if (!ln.time_based && w->bytes_issued + ln.len > w->bytes_target)
				more = false;
		}
		if (w->inflight && (w->inflight >= depth || !more || poll)) {
			unsigned want = !min_done ? 1 : min_done < w->inflight ? min_done : w->inflight;
			unsigned take = max_done < w->inflight ? max_done : w->inflight;

			if (take < want)
				take = want;
			ret = ops->reap_counted(&w->eng, want, take, fails, &nf);
			count_call(&w->reap_one, w->reap_hist, ret > 0 ? (unsigned)ret : 0);
			if (ret < 0) {
				worker_fail(w, -ret, "engine %s: reap: %s", ops->name, strerror(-ret));
				if (++reap_errors < REAP_RETRIES)
					continue;
				w->bufs_in_flight = w->inflight;
				break;
			}
			if (ret) {
				t = worker_now(w);
				w->inflight -= (unsigned)ret;
				complete_counted(w, &ln, (unsigned)ret, fails, nf, t);
			}
		}
		if (w->time.deadline_ns && t >= w->time.deadline_ns && !w->time.in_ramp)
			more = false;
	}
	free(fails);
	progress_publish(w, t);
	w->time.end_ns = t;
}

bool io_loop_counted(struct worker *w)
{
	if (!loop_is_counted(w))
		return false;
	run_counted(w);
	return true;
}
