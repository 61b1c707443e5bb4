/* The submit/reap loop of a worker: requests out, completions in, every figure counted. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "io/buffer.h"
#include "base/numapol.h"
#include "run/run.h"
#include "stats/stats.h"
#include "base/cpulist.h"
#include "base/msg.h"
#include "run/worker.h"
#include "run/runner.h"
#include "io/vhdr.h"
#include "job/replay.h"
#include "run/reqgen.h"
#include "run/lean.h"

/*
 * Check a completed request and hand it on: back to the pool, or (rw=copy) on to its write,
 * or (full loop: verify_async) to the verify threads. false when it failed and must not be
 * counted.
 */
static inline __attribute__((always_inline)) bool settle(struct worker *w, struct io_req *r,
							 struct dir_stat *d, bool copy,
							 const bool full, const bool lean)
{
	if (__builtin_expect((uint64_t)r->res != r->len, 0) && !complete_odd(w, r, d)) {
		w->free_reqs[w->nr_free++] = r;
		return false;
	}
	if (__builtin_expect(copy, 0) && r->ddir == DDIR_READ && !w->aborted) {
		copy_queue_write(w, r);
	} else if (full && __builtin_expect(w->verify.async != NULL, 0) && r->ddir == DDIR_READ &&
		   verify_read(w, r)) {
		vfy_push(w, r);		/* back to the pool once checked */
		return true;
	} else {
		w->free_reqs[w->nr_free++] = r;
	}
	if (!lean && __builtin_expect(w->verify.check_reads, 0) && r->ddir == DDIR_READ &&
	    verify_read(w, r))
		check_read(w, r);
	return true;
}

/*
 * Completions during ramp_time: checked and handed on; their I/Os and bytes are counted and
 * their latencies are not, as fio counts io_bytes and keeps account_io_completion for after
 * the ramp. When ramp_time ends, measure_start drops these counts; a job that ends within
 * ramp_time reports them (fio 3.33 reports such a job's whole size and runtime, no latency).
 */
static void __attribute__((noinline)) complete_uncounted(struct worker *w, struct io_req **reqs,
							 unsigned n)
{
	bool copy = w->job->rw == RW_COPY;
	unsigned i;

	for (i = 0; i < n; i++) {
		struct io_req *r = reqs[i];
		struct dir_stat *d = &w->st[stat_dir(r->ddir)];

		if (w->rate.sched_ns)
			sched_take(w, r);
		if (!settle(w, r, d, copy, true, false) || r->ddir >= DDIR_SYNC)
			continue;
		d->ios++;
		d->bytes += (uint64_t)r->res;
	}
}

/* The latencies a job with some of fio's disable_* options still measures. */
static inline void complete_reduced(struct worker *w, struct dir_stat *d, const struct io_req *r,
				    uint64_t clat, bool async)
{
	const struct job_spec *job = w->job;

	if (!job->disable_clat)
		lat_add(&d->clat, clat);
	if (async && !job->disable_slat)
		lat_add_summary(&d->slat, r->slat_ns);
	if (!job->disable_lat)
		lat_add_summary(&d->lat, async ? clat + r->slat_ns : clat);
}

/* --debug=io: fio's line for a request queued or completed. */
static void __attribute__((noinline, cold)) debug_io(const char *what, const struct io_req *r)
{
	iop_debugf(DBG_IO, "%s: io_u %p: off=0x%llx,len=0x%llx,ddir=%u,file=%s", what,
		   (const void *)r, (unsigned long long)r->offset, (unsigned long long)r->len,
		   (unsigned)r->ddir, r->file && r->file->path ? r->file->path : "");
}

/* Full loop, per counted completion: lat/slat_percentiles buckets, log entries. */
static inline void complete_extra(struct worker *w, struct dir_stat *d, const struct io_req *r,
				  uint64_t clat, bool async, uint64_t t)
{
	if (__builtin_expect(w->debug_io, 0))
		debug_io("complete", r);
	if (w->logs && r->ddir <= DDIR_TRIM && !w->verify.pass)
		iologs_io(w->logs, t, r->ddir, r->len, r->offset, (uint64_t)r->res, r->slat_ns,
			  clat, async, r->issue_ns, r->ioprio ? r->ioprio : w->ioprio,
			  w->logs->want[LOG_HIST] ? hist_idx(clat) : 0);
	if (w->hist_lat)
		d->lat.hist[hist_idx(async ? clat + r->slat_ns : clat)]++;
	if (w->hist_slat && async)
		d->slat.hist[hist_idx(r->slat_ns)]++;
}

/* Full loop: completions as thinktime and rate_min count them (ramp_time included). */
void count_done(struct worker *w, struct io_req **reqs, unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++) {
		const struct io_req *r = reqs[i];

		if (r->ddir > DDIR_WRITE || r->res <= 0)
			continue;
		w->done_ios++;
		w->done_dir_ios[r->ddir]++;
		w->done_dir_bytes[r->ddir] += (uint64_t)r->res;
	}
}

/*
 * The loop's periodic work, at most every PROGRESS_NS (one test per accounting): the progress
 * counters, and a bandwidth/IOPS sample once one is due (so at most PROGRESS_NS late).
 */
static void __attribute__((noinline)) loop_tick(struct worker *w, uint64_t t)
{
	progress_publish(w, t);
	if (t >= w->next_sample_ns)
		take_sample(w, t);
}

/*
 * A lean phase's completions where no latency is measured (gtod_reduce): one direction, so
 * one dir_stat, counted once for all n; only a completion of other than its full length goes
 * through settle one by one.
 */
static inline __attribute__((always_inline)) void complete_lean_none(struct worker *w,
								     struct io_req **reqs,
								     unsigned n)
{
	struct dir_stat *d = &w->st[w->fixed_dir];
	struct io_req **pool = w->free_reqs;
	/* every request of a lean phase is of the phase's one length */
	const uint64_t len = w->job->bs[w->fixed_dir];
	unsigned nf = w->nr_free, i;
	uint64_t whole = 0, odd = 0, odd_bytes = 0;

	for (i = 0; i < n; i++) {
		struct io_req *r = reqs[i];

		if (__builtin_expect((uint64_t)r->res != len, 0)) {
			w->nr_free = nf;
			if (settle(w, r, d, false, false, true)) {
				odd++;
				odd_bytes += (uint64_t)r->res;
			}
			nf = w->nr_free;
			continue;
		}
		pool[nf++] = r;
		whole++;
	}
	w->nr_free = nf;
	d->ios += whole + odd;
	d->bytes += whole * len + odd_bytes;
}

/*
 * Account n completions seen at time t. Decisions that hold for the whole job are made once:
 * lat is false in the loop of jobs that leave some latency unmeasured (fio's disable_*), and
 * none is true in the plain loop of jobs that measure no latency at all (gtod_reduce), whose
 * requests carry no time stamps. Completions done inside submit by a synchronous engine
 * (async_engine false) have lat equal to clat: with every latency measured, their lat
 * summary is not kept per I/O but copied from clat's when the loop ends (lat_from_clat).
 */
static inline __attribute__((always_inline)) void
complete_as(struct worker *w, struct io_req **reqs, unsigned n, uint64_t t, bool async_engine,
	    const bool full, const bool lat, const bool none, const bool lean)
{
	bool copy = !lean && w->job->rw == RW_COPY;
	/* an engine synchronous at this depth: all its time is clat, none slat (as in fio) */
	const bool inline_done = async_engine && w->sync_at_qd1;
	unsigned i;

	if (full && w->count_done)
		count_done(w, reqs, n);
	if (__builtin_expect(w->time.in_ramp, 0)) {
		if (t < w->time.ramp_end_ns) {
			complete_uncounted(w, reqs, n);
			return;
		}
		measure_start(w, t);
	}
	if (lean && none) {
		complete_lean_none(w, reqs, n);
		n = 0;
	}
	for (i = 0; i < n; i++) {
		struct io_req *r = reqs[i];
		struct dir_stat *d = &w->st[lean ? w->fixed_dir : stat_dir(r->ddir)];
		uint64_t clat = none ? 0 : t - r->issue_ns;
		bool async = async_engine;
		uint64_t sched = full && w->rate.sched_ns ? sched_take(w, r) : 0;

		/*
		 * Trims (full loop only) are done inside submit by every engine: as fio's inline
		 * completions, all their time is clat, none slat
		 */
		if (inline_done || (full && async && r->ddir == DDIR_TRIM)) {
			clat += r->slat_ns;
			async = false;
		}
		if (!settle(w, r, d, copy, full, lean))
			continue;
		d->ios++;
		d->bytes += (uint64_t)r->res;
		if (full && sched)
			lat_add(&d->sched, t > sched ? t - sched : 0);
		if (full)
			complete_extra(w, d, r, clat, async, t);
		if (full && __builtin_expect(w->lat_tgt.on, 0) && !w->job->disable_lat)
			lat_target_io(w, async ? clat + r->slat_ns : clat, t);
		if (full && __builtin_expect(w->lat_tgt.max_lat, 0))
			max_latency_io(w, r, async ? clat + r->slat_ns : clat);
		if (full && __builtin_expect(w->prios != NULL, 0))
			cmdprio_record(w, r, stat_dir(r->ddir), clat, async);
		if (none)
			continue;
		if (!lat) {
			complete_reduced(w, d, r, clat, async);
			continue;
		}
		lat_add(&d->clat, clat);
		if (async) {
			lat_add_summary(&d->slat, r->slat_ns);
			lat_add_summary(&d->lat, clat + r->slat_ns);
		} else if (async_engine) {
			lat_add_summary(&d->lat, clat);
		}
	}
	if (t >= w->next_progress_ns)
		loop_tick(w, t);
}

static inline __attribute__((always_inline)) void
complete(struct worker *w, struct io_req **reqs, unsigned n, uint64_t t, bool async_engine,
	 const bool full, const bool lat, const bool none)
{
	complete_as(w, reqs, n, t, async_engine, full, lat, none, false);
}

int io_next_request(struct worker *w, struct io_req *r, uint64_t now)
{
	return next_request_full(w, r, now);
}

void io_complete_at(struct worker *w, struct io_req *r, uint64_t t)
{
	const struct job_spec *job = w->job;

	if (job->disable_lat || job->disable_clat || job->disable_slat)
		complete(w, &r, 1, t, true, true, false, false);
	else
		complete(w, &r, 1, t, true, true, true, false);
}

/* Submit the prepared batch; returns the time after submit. none: no request is stamped. */
static inline __attribute__((always_inline)) uint64_t
submit_batch(struct worker *w, bool sync_engine, const bool full, const bool lat, const bool none,
	     const bool lean)
{
	const struct engine_ops *ops = w->eng.ops;
	/*
	 * Where the job measures no latency that needs it (gtod_reduce) the submit stamp
	 * serves nothing: one clock read per batch
	 */
	uint64_t t0 = lat || w->stamp_submit ? worker_now(w) : 0, t1;
	unsigned i, n = w->nr_batch, done, old;
	uint32_t slat;
	int ret;

	/*
	 * Requests an engine left over from an earlier call (nr_stamped of them, first in the
	 * batch) keep the time of their first offer; the rest were first offered at t0, which
	 * is stamped only when needed rather than before every call.
	 */
	if (full && __builtin_expect(w->flocks != NULL, 0))
		ret = file_lock_submit(w, n);
	else
		ret = ops->submit(&w->eng, w->batch, n);
	t1 = worker_now(w);
	if (ret < 0) {
		worker_fail(w, -ret, "engine %s: submit: %s", ops->name, strerror(-ret));
		ret = 0;
	}
	done = (unsigned)ret;
	if (full && __builtin_expect(w->trace != NULL, 0))
		trace_issued(w, w->batch, done, t1);
	for (i = 0; full && w->serialize && !sync_engine && i < done; i++)
		w->batch[i]->flags |= REQF_INFLIGHT;
	old = w->nr_stamped < done ? w->nr_stamped : done;
	if (done)
		w->depth_hist[depth_bucket(w->inflight + done)] += done;
	if (sync_engine) {
		for (i = old; !none && i < done; i++)
			w->batch[i]->issue_ns = t0;
		complete_as(w, w->batch, done, t1, false, full, lat, none, lean);
	} else if (none) {
		count_call(&w->submit_one, w->submit_hist, done);
		w->inflight += done;
	} else {
		count_call(&w->submit_one, w->submit_hist, done);
		slat = t1 - t0 > UINT32_MAX ? UINT32_MAX : (uint32_t)(t1 - t0);
		for (i = 0; i < old; i++) {
			struct io_req *r = w->batch[i];

			r->slat_ns = t1 - r->issue_ns > UINT32_MAX ? UINT32_MAX :
				     (uint32_t)(t1 - r->issue_ns);
			r->issue_ns = t1;
		}
		for (; i < done; i++) {
			w->batch[i]->slat_ns = slat;
			w->batch[i]->issue_ns = t1;
		}
		w->inflight += done;
	}
	if (__builtin_expect(done < n, 0)) {
		for (i = w->nr_stamped > done ? w->nr_stamped : done; !none && i < n; i++)
			w->batch[i]->issue_ns = t0;
		memmove(w->batch, w->batch + done, (n - done) * sizeof(*w->batch));
		w->nr_stamped = n - done;
	} else {
		w->nr_stamped = 0;
	}
	w->nr_batch = n - done;
	return t1;
}

/* Return prepared but unsubmitted requests to the pool (on abort): the batch, held, copies. */
static void drop_unsent(struct worker *w, struct io_req **held)
{
	while (w->nr_batch)
		w->free_reqs[w->nr_free++] = w->batch[--w->nr_batch];
	w->nr_stamped = 0;
	if (*held) {
		w->free_reqs[w->nr_free++] = *held;
		*held = NULL;
	}
	while (w->copy.nr_ready)
		w->free_reqs[w->nr_free++] = copy_take_write(w);
}

/*
 * Sleep until the monotonic time until, in short steps so that a stop request is seen, and an
 * interim report's request answered (nothing is in flight: the figures stand still).
 */
static void sleep_until(struct worker *w, uint64_t until)
{
	uint64_t now = worker_now(w), step;
	struct timespec ts;

	while (now < until && !run_stop_requested()) {
		step = until - now < 100000000ull ? until : now + 100000000ull;
		ts.tv_sec = (time_t)(step / 1000000000ull);
		ts.tv_nsec = (long)(step % 1000000000ull);
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		now = worker_now(w);
		if (atomic_load_explicit(&w->snap_want, memory_order_relaxed) != w->snap_gen)
			worker_snapshot(w, now);
	}
}

/* Complete everything in flight (fio's io_u_quiesce, before it sleeps). */
static uint64_t quiesce(struct worker *w, uint64_t t)
{
	const struct engine_ops *ops = w->eng.ops;
	const struct job_spec *job = w->job;
	bool lat = !(job->disable_lat || job->disable_clat || job->disable_slat);
	int n;

	while (w->inflight && !(ops->flags & ENGINE_SYNC)) {
		n = ops->reap(&w->eng, w->done, w->inflight, w->inflight);
		count_call(&w->reap_one, w->reap_hist, n > 0 ? (unsigned)n : 0);
		if (n < 0) {
			worker_fail(w, -n, "engine %s: reap: %s", ops->name, strerror(-n));
			break;
		}
		if (n) {
			t = worker_now(w);
			w->inflight -= (unsigned)n;
			complete(w, w->done, (unsigned)n, t, true, true, lat, false);
		}
	}
	return t;
}

/* rate / rate_iops: wait, with nothing in flight, until the next I/O is due. */
static uint64_t rate_wait(struct worker *w, uint64_t t)
{
	uint64_t until = w->rate.wait_ns;

	t = quiesce(w, t);
	if (w->time.deadline_ns && !w->time.in_ramp && until > w->time.deadline_ns)
		until = w->time.deadline_ns;
	t = worker_now(w);
	if (t < until) {
		sleep_until(w, until);
		t = worker_now(w);
	}
	return t;
}

/* Is a thinktime stall due (thinktime_blocks I/Os, or thinktime_iotime of I/O, since)? */
static bool think_due(const struct worker *w, uint64_t t)
{
	const struct job_spec *job = w->job;
	uint64_t b = job->think.issue ? w->issued_ios : w->done_ios;

	if (job->think.iotime_ns) {
		if (t - w->think_last_ns >= job->think.iotime_ns)
			return true;
		/* fio: with thinktime_iotime, thinktime_blocks counts only when given */
		if (!w->think_blocks_given)
			return false;
	}
	return b >= w->think_last + job->think.blocks;
}

/* The thinktime stall: drain, spin thinktime_spin, sleep the rest (not past runtime). */
static uint64_t think(struct worker *w, uint64_t t)
{
	const struct job_spec *job = w->job;
	uint64_t b = job->think.issue ? w->issued_ios : w->done_ios, start, end;
	unsigned d;

	t = quiesce(w, t);
	start = worker_now(w);
	end = start + job->think.ns;
	if (w->time.deadline_ns && !w->time.in_ramp && end > w->time.deadline_ns)
		end = w->time.deadline_ns;
	if (job->think.spin_ns) {
		uint64_t spin_end = start + job->think.spin_ns < end ?
				    start + job->think.spin_ns : end;

		while (worker_now(w) < spin_end)
			;
	}
	sleep_until(w, end);
	t = worker_now(w);
	if (job->rate.ignore_thinktime)
		for (d = 0; d < 2; d++)
			rate_shift(&w->rate.dir[d], t - start);
	w->think_last = b;
	w->think_last_ns = t;
	return t;
}

/* rate_min / rate_iops_min: after fio's 2 s settling, every rate_cycle, or the job fails. */
static void check_rate_min(struct worker *w, uint64_t t)
{
	const struct job_spec *job = w->job;
	uint64_t spent = t - w->rate.min_last_ns, got;
	unsigned d;

	w->rate.min_next_ns = t + job->rate.cycle_ms * 1000000ull;
	if (!spent)
		return;
	for (d = 0; d < 2; d++) {
		if (d == DDIR_READ ? !job_reads(job->rw) : !job_writes(job->rw))
			continue;
		got = (uint64_t)((unsigned __int128)(w->done_dir_bytes[d] - w->rate.min_bytes[d]) *
				 1000000000u / spent);
		if (job->rate.min_bps[d] && got < job->rate.min_bps[d])
			worker_fail(w, EIO, "%s: rate_min=%lluB/s not met, got %lluB/s",
				    d == DDIR_READ ? "read" : "write",
				    (unsigned long long)job->rate.min_bps[d], (unsigned long long)got);
		got = (uint64_t)((unsigned __int128)(w->done_dir_ios[d] - w->rate.min_ios[d]) *
				 1000000000u / spent);
		if (job->rate.min_iops[d] && got < job->rate.min_iops[d])
			worker_fail(w, EIO, "%s: rate_iops_min=%llu not met, got %llu IOPS",
				    d == DDIR_READ ? "read" : "write",
				    (unsigned long long)job->rate.min_iops[d], (unsigned long long)got);
		w->rate.min_bytes[d] = w->done_dir_bytes[d];
		w->rate.min_ios[d] = w->done_dir_ios[d];
	}
	w->rate.min_last_ns = t;
}

/*
 * Fill r with the next I/O of a plain job. false when the job has nothing more to issue.
 * Trims, zbd and verify_async run the full loop: none of their branches here.
 */
static inline __attribute__((always_inline)) bool next_request_plain(struct worker *w,
								     struct io_req *r)
{
	const struct job_spec *job = w->job;
	struct file_gen *g;
	unsigned dir, f;
	uint32_t len;

	if (w->verify.pass)
		return next_verify(w, r);
	if (job->rw == RW_COPY)
		return next_copy_read(w, r);
	if (next_sync(w, r))
		return true;
	dir = pick_dir(w);
	len = job->bs[dir];
	if (!job->time.based && w->bytes_issued + len > w->bytes_target)
		return false;
	f = w->next_file;
	w->next_file = f + 1 == w->nr_files ? 0 : f + 1;
	g = &w->gens[f];
	r->file = &w->files[f];
	r->ddir = (uint8_t)dir;
	r->len = len;
	r->offset = r->file->start +
		    (job_rw_random(job->rw) ? gen_rand(g, len) : gen_seq_pass(g, dir, len));
	w->bytes_issued += len;
	if (dir == DDIR_WRITE)
		prepare_write(w, r);
	return true;
}

/*
 * The lean loop's next request: next_request_plain with the branches that cannot be taken
 * in a lean phase left out. false when the job has nothing more to issue.
 */
static inline __attribute__((always_inline)) bool next_request_lean(struct worker *w,
								    const struct lean *l,
								    struct io_req *r)
{
	if (!l->time_based && w->bytes_issued + l->len > w->bytes_target)
		return false;
	r->file = l->file;
	r->ddir = l->dir;
	r->len = l->len;
	r->offset = l->file->start + (l->random ? gen_rand(l->gen, l->len) :
					gen_seq(l->gen, l->dir, l->len));
	w->bytes_issued += l->len;
	if (l->writes)
		prepare_write(w, r);
	return true;
}

/*
 * Up to room requests of a lean phase into the batch; false when the job has no more. How
 * many the job still has is worked out once for the batch, and the pool's and the batch's
 * counts, the bytes issued and a sequential offset stay in registers while it fills and are
 * written back once, not after every request; one request at a time (fio's default batch of
 * one) goes the short way, and so do writes (prepare_write may read them). Out of line:
 * inlined, its registers cost the loop's one-at-a-time path more than it saves.
 */
static bool __attribute__((noinline)) lean_fill_batch(struct worker *w, const struct lean *l,
						      unsigned room)
{
	struct io_req **pool = w->free_reqs + w->nr_free, **batch = w->batch + w->nr_batch;
	struct io_file *const file = l->file;
	const uint64_t start = file->start, issued = w->bytes_issued, len = l->len;
	const uint8_t dir = l->dir;
	unsigned n = room, i;
	bool more = true;
	struct gen_burst b;

	/* as next_request_lean: a request is made while it fits in what the job issues */
	if (!l->time_based && issued + (uint64_t)room * len > w->bytes_target) {
		n = issued < w->bytes_target ? (unsigned)((w->bytes_target - issued) / len) : 0;
		more = false;
	}
	if (l->burst) {
		gen_burst_begin(l->gen, &b);
		for (i = 0; i < n; i++) {
			struct io_req *r = *--pool;

			r->file = file;
			r->ddir = dir;
			r->len = (uint32_t)len;
			r->offset = start + gen_burst_next(&b);
			batch[i] = r;
		}
		gen_burst_end(l->gen, &b);
	} else if (l->random) {
		for (i = 0; i < n; i++) {
			struct io_req *r = *--pool;

			r->file = file;
			r->ddir = dir;
			r->len = (uint32_t)len;
			r->offset = start + gen_rand(l->gen, (uint32_t)len);
			batch[i] = r;
		}
	} else {
		/* gen_seq's steps with its offset held here */
		struct file_gen *g = l->gen;
		const uint64_t region = g->region;
		uint64_t off = g->seq[dir];

		for (i = 0; i < n; i++) {
			struct io_req *r = *--pool;

			if (off + len > region)
				off = 0;
			r->file = file;
			r->ddir = dir;
			r->len = (uint32_t)len;
			r->offset = start + off;
			off += len;
			batch[i] = r;
		}
		g->seq[dir] = off;
	}
	w->nr_free -= n;
	w->nr_batch += n;
	w->bytes_issued = issued + n * len;
	return more;
}

static inline __attribute__((always_inline)) bool lean_fill(struct worker *w,
							    const struct lean *l, unsigned room)
{
	if (room > 1 && !l->writes)
		return lean_fill_batch(w, l, room);
	while (room--) {
		struct io_req *r = w->free_reqs[--w->nr_free];

		if (!next_request_lean(w, l, r)) {
			w->free_reqs[w->nr_free++] = r;
			return false;
		}
		w->batch[w->nr_batch++] = r;
	}
	return true;
}

/*
 * The lean loop's requests for this pass, as the plain loop makes them: up to the depth, a
 * batch at a time (at least one). false when the job has no more.
 */
static inline __attribute__((always_inline)) bool lean_top_up(struct worker *w,
							      const struct lean *l,
							      unsigned batch_max)
{
	unsigned room = w->params.iodepth - w->inflight - w->nr_batch;
	unsigned bmax = w->nr_batch < batch_max ? batch_max - w->nr_batch : 1;

	if (w->inflight + w->nr_batch >= w->params.iodepth)
		room = 0;
	return lean_fill(w, l, room < bmax ? room : bmax);
}

/*
 * A synchronous engine's completions are done inside submit, so their lat is their clat:
 * complete() keeps clat's summary alone, and lat becomes a copy of it when the loop ends.
 */
static void lat_from_clat(struct worker *w)
{
	unsigned d;

	for (d = 0; d < STAT_NR; d++) {
		struct lat_stat *l = &w->st[d].lat;
		const struct lat_stat *c = &w->st[d].clat;

		l->n = c->n;
		l->min = c->min;
		l->max = c->max;
		l->sum = c->sum;
		l->sumsq = c->sumsq;
	}
}

/*
 * The submit/reap loop, instantiated seven times: full, lat, none and lean are constants, so
 * the plain instance carries none of the per-I/O options a job did not ask for, only jobs
 * that leave latencies unmeasured (fio's disable_*, gtod_reduce) look at which, a plain job
 * that measures none stamps no request, and a lean one (loop_is_lean) makes its requests
 * without asking what it cannot need.
 */
static inline __attribute__((always_inline)) void io_loop_body(struct worker *w, const bool full,
							       const bool lat, const bool none,
							       const bool lean)
{
	const struct job_spec *job = w->job;
	const struct engine_ops *ops = w->eng.ops;
	/* an engine done inside submit at this depth runs as a synchronous one: no reap */
	bool sync_engine = (ops->flags & ENGINE_SYNC) || w->sync_at_qd1;
	unsigned batch_max = job->iodepth_batch_submit, min_done = job->iodepth_batch_complete_min;
	unsigned max_done = job->iodepth_batch_complete_max;
	/*
	 * fio's io_in_polling: iodepth_batch_complete_min=0 with no maximum reaps after every
	 * submission, as fio 3.33 does (which keeps one I/O in flight)
	 */
	const bool poll = !min_done && !max_done;
	struct io_req *held = NULL;	/* a sync request waiting for writes to drain */
	bool more = true, stalled, quiesce, drain = false;
	uint64_t t = worker_now(w);
	unsigned reap_errors = 0;
	bool wait = false;	/* full: the rate holds the next I/O back */
	const struct lean ln = lean_of(w);	/* read once; the lean instances use it */
	int n;

	/*
	 * A phase that would start at or past the runtime issues nothing (fio checks the
	 * runtime before each I/O): a time_based write job so does no verify reads
	 */
	if (w->time.deadline_ns && t >= w->time.deadline_ns && !w->time.in_ramp)
		more = false;
	while (more || w->inflight || w->nr_batch || held || w->copy.nr_ready ||
	       (full && w->verify.async_out)) {
		/* one test for both stops in the common case */
		if (__builtin_expect(run_stop_requested() |
				     atomic_load_explicit(&w->terminate, memory_order_relaxed), 0)) {
			if (run_stop_requested()) {
				w->aborted = true;
				w->interrupted = true;
			}
			/* exitall: issue no more, let in-flight I/O complete */
			more = false;
		}
		if (full && __builtin_expect(w->verify.async_out, 0))
			vfy_collect(w, !w->inflight && !w->nr_batch && !held &&
				    (w->aborted || !more || !w->nr_free ||
				     w->inflight + w->nr_batch + w->verify.async_out >= w->qd_cap));
		if (w->aborted) {
			more = false;
			drop_unsent(w, &held);
			if (!w->inflight && !(full && w->verify.async_out))
				break;
		}
		stalled = false;
		if (lean && more)
			more = lean_top_up(w, &ln, batch_max);
		while (!lean && (more || w->copy.nr_ready) && !held &&
		       w->inflight + w->nr_batch + (full ? w->verify.async_out : 0) <
		       (full ? w->qd_cap : w->params.iodepth) &&
		       !(full && (w->lat_tgt.quiesce || w->low_wait))) {
			struct io_req *r;

			if (full && w->flow && flow_held(w->flow, w->flow_ios, job->flow)) {
				stalled = true;
				break;
			}
			if (w->copy.nr_ready) {
				r = copy_take_write(w);
			} else {
				int got;

				r = w->free_reqs[--w->nr_free];
				got = full ? next_request_full(w, r, t) : next_request_plain(w, r);
				if (got <= 0) {
					w->free_reqs[w->nr_free++] = r;
					if (got == REQ_WAIT)
						wait = true;
					else if (got == REQ_DRAIN)
						drain = true;
					else
						more = false;
					break;
				}
			}
			if (full && w->flow)
				flow_count(w->flow, &w->flow_ios);
			if (full && __builtin_expect(w->cmdprio != NULL, 0))
				cmdprio_pick(w, r);
			if (full && __builtin_expect(w->debug_io, 0))
				debug_io("queue", r);
			if (full && w->zone.quiesce) {
				/* a zone reset (or a full set of open zones) waits for in-flight I/O */
				w->zone.quiesce = false;
				if (w->inflight || w->nr_batch) {
					held = r;
					break;
				}
			}
			/* serialize_overlap: a request that overlaps one in flight waits for it */
			if (full && w->serialize && r->ddir <= DDIR_TRIM && overlaps_inflight(w, r)) {
				held = r;
				break;
			}
			if (r->ddir >= DDIR_SYNC) {
				r->file = full ? &w->files[w->cur_file] :
					  &w->files[w->next_file ? w->next_file - 1 : w->nr_files - 1];
				if (w->inflight || w->nr_batch) {
					held = r;
					break;
				}
			}
			w->batch[w->nr_batch++] = r;
			if (r->ddir >= DDIR_SYNC || w->nr_batch >= batch_max)
				break;
		}
		if (held && !w->inflight && !w->nr_batch) {
			w->batch[w->nr_batch++] = held;
			held = NULL;
		}
		if (w->nr_batch && !w->aborted)
			t = submit_batch(w, sync_engine, full, lat, none, lean);
		/* held back by flow= with flow_sleep: every in-flight I/O completes first (fio) */
		quiesce = full && ((stalled && job->flow_sleep_us) || w->lat_tgt.quiesce || drain);
		drain = false;
		if (!sync_engine && w->inflight &&
		    (w->inflight + w->nr_batch + (full ? w->verify.async_out : 0) >=
		     (full ? w->qd_cap : w->params.iodepth) || !more || held ||
		     w->nr_batch || quiesce || poll || (full && (w->trim.on || w->low_wait)))) {
			/*
			 * Wait for iodepth_batch_complete_min, or for one when it is 0 (fio's
			 * wait_for_completions): a full queue always gives at least one back.
			 * Trims complete inside submit (BLKDISCARD): taken at once, as fio takes
			 * an engine's completed queue call, so a failed one stops the next
			 */
			unsigned want = !min_done ? 1 : min_done < w->inflight ? min_done : w->inflight;
			unsigned take;

			if (quiesce)
				want = w->inflight;
			/*
			 * At most iodepth_batch_complete_max per call, as fio: by default one, so
			 * each completion is followed by a new submission and the queue stays full
			 */
			take = max_done < w->inflight ? max_done : w->inflight;
			if (take < want || quiesce)
				take = want;
			/*
			 * iodepth_low (fio's wait_for_completions): a full queue is reaped until
			 * no more than iodepth_low are in flight before anything is queued again
			 */
			if (full && w->depth_low &&
			    w->inflight + w->nr_batch + w->verify.async_out >= w->qd_cap)
				w->low_wait = true;
			n = ops->reap(&w->eng, w->done, want, take);
			count_call(&w->reap_one, w->reap_hist, n > 0 ? (unsigned)n : 0);
			if (n < 0) {
				worker_fail(w, -n, "engine %s: reap: %s", ops->name, strerror(-n));
				/*
				 * Requests still in flight own their buffers: keep trying to reap
				 * them, and if the engine cannot, leave the buffers to the kernel.
				 */
				if (++reap_errors < REAP_RETRIES)
					continue;
				w->bufs_in_flight = w->inflight;
				break;
			}
			if (n) {
				unsigned k;

				for (k = 0; full && w->serialize && k < (unsigned)n; k++)
					w->done[k]->flags &= (uint8_t)~REQF_INFLIGHT;
				t = worker_now(w);
				w->inflight -= (unsigned)n;
				complete_as(w, w->done, (unsigned)n, t, true, full, lat, none, lean);
			}
		}
		if (full && w->low_wait && w->inflight <= w->depth_low)
			w->low_wait = false;
		if (full && !w->aborted) {
			if (wait) {
				t = rate_wait(w, t);
				wait = false;
			}
			if (job->think.ns && more && think_due(w, t))
				t = think(w, t);
			if (w->rate.min_on && t >= w->rate.min_next_ns && !w->time.in_ramp)
				check_rate_min(w, t);
			if (w->lat_tgt.on && !w->time.in_ramp) {
				if (!w->inflight)
					w->lat_tgt.quiesce = false;
				lat_target_check(w, t);
				if (w->lat_tgt.done)
					more = false;
			}
		}
		if (quiesce && !w->inflight && !w->aborted && stalled) {
			usleep(job->flow_sleep_us);
			t = worker_now(w);
		} else if (full && stalled) {
			sched_yield();	/* held back: let the flow's others run (fio spins) */
			t = worker_now(w);
		}
		if (w->time.deadline_ns && t >= w->time.deadline_ns && !w->time.in_ramp)
			more = false;
	}
	if (lat && sync_engine)
		lat_from_clat(w);
	progress_publish(w, t);
	w->time.end_ns = t;
}

static void __attribute__((noinline)) io_loop_plain(struct worker *w)
{
	io_loop_body(w, false, true, false, false);
}

static void __attribute__((noinline)) io_loop_full(struct worker *w)
{
	io_loop_body(w, true, true, false, false);
}

static void __attribute__((noinline)) io_loop_reduced(struct worker *w)
{
	io_loop_body(w, true, false, false, false);
}

static void __attribute__((noinline)) io_loop_plain_reduced(struct worker *w)
{
	io_loop_body(w, false, false, false, false);
}

static void __attribute__((noinline)) io_loop_plain_unstamped(struct worker *w)
{
	io_loop_body(w, false, false, true, false);
}

static void __attribute__((noinline)) io_loop_lean(struct worker *w)
{
	io_loop_body(w, false, true, false, true);
}

static void __attribute__((noinline)) io_loop_lean_unstamped(struct worker *w)
{
	io_loop_body(w, false, false, true, true);
}

/*
 * A plain phase is lean when none of the plain loop's per-request choices can be taken: one
 * file, one direction, no verify (neither its pass nor checked reads), no copy, no fsync or
 * fdatasync every N blocks. Its loop makes requests from what lean_of read once.
 */
static bool loop_is_lean(const struct worker *w)
{
	const struct job_spec *job = w->job;

	return !w->full && w->nr_files == 1 && !w->mixed && !w->verify.pass &&
	       !w->verify.check_reads && job->rw != RW_COPY && !job->fsync_blocks &&
	       !job->fdatasync_blocks && w->fixed_dir <= DDIR_WRITE &&
	       !(w->gens[0].inval && !job_rw_random(job->rw));	/* its passes: gen_seq_pass */
}

/*
 * verify_only (fio's do_dry_run): the write phase's requests made in order and none issued,
 * so that the verify pass reads back the blocks they would have written. Paced jobs are not
 * held: only the order matters.
 */
void io_dry_run(struct worker *w)
{
	struct io_req *r = w->free_reqs[w->nr_free - 1];
	uint64_t t = worker_now(w);
	int got;

	while (!w->aborted && !run_stop_requested()) {
		got = next_request_full(w, r, t);
		if (got == REQ_WAIT)
			t = w->rate.wait_ns > t ? w->rate.wait_ns : t + 1;
		else if (got <= 0)
			break;
	}
	w->time.end_ns = worker_now(w);
}

void io_loop_engine(struct worker *w)
{
	const struct job_spec *job = w->job;

	if (!w->full && !w->stamp_submit && job->disable_lat && job->disable_clat &&
	    job->disable_slat) {
		/* a lean phase goes by count where the engine instance takes requests so */
		if (!loop_is_lean(w))
			io_loop_plain_unstamped(w);
		else if (!io_loop_counted(w))
			io_loop_lean_unstamped(w);
	} else if (job->disable_lat || job->disable_clat || job->disable_slat)
		w->full ? io_loop_reduced(w) : io_loop_plain_reduced(w);
	else if (w->full)
		io_loop_full(w);
	else if (loop_is_lean(w))
		io_loop_lean(w);
	else
		io_loop_plain(w);
}

