/* io_submit_mode=offload: a pool of I/O threads submits for the worker, one request each. */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "run/run.h"
#include "run/worker.h"
#include "run/runner.h"

/*
 * io_submit_mode=offload: the worker generates (and paces) requests and hands them to a pool
 * of iodepth I/O threads, each with its own engine instance, which submit one request at a
 * time and wait for it; the worker accounts the completions. A request's submission latency
 * is the time it waited for an I/O thread, so a slow device delays the measured latency, not
 * the submission schedule (fio's answer to coordinated omission).
 */
struct offload_slot {
	struct offload *o;
	struct engine eng;
	bool eng_ready;
	struct io_file *files;		/* its engine's own copies of the worker's files */
	pthread_t tid;
	bool started;
	unsigned index;
	int ret;			/* its engine's set-up: 0, or -errno (then it has ended) */
	bool set_up;
};

struct offload {
	struct worker *w;
	pthread_mutex_t lock;
	pthread_cond_t work;		/* an I/O thread waits for a request */
	pthread_cond_t done;		/* the worker waits for completions (CLOCK_MONOTONIC) */
	struct io_req **queue;		/* requests waiting for an I/O thread, a FIFO ring */
	unsigned q_head, q_nr;
	struct io_req **fin;		/* completed, for the worker */
	unsigned nr_fin;
	uint64_t *gen_ns;		/* per request: when the worker handed it over */
	uint64_t *done_ns;		/* per request: when it completed */
	unsigned nr_set_up;
	bool stop;
	struct offload_slot *slots;
};

/*
 * An I/O thread's engine, set up on that thread (io_uring rings take a single issuer). It
 * gets its own copies of the files: an engine keeps per-file state in them (mmap's mapping),
 * which engine instances on other threads must not share.
 */
static int offload_engine(struct offload_slot *s)
{
	struct worker *w = s->o->w;
	const struct engine_ops *ops = s->eng.ops;
	/* the worker's own, its request pool too: engines index their state by request */
	struct engine_params p = w->params;
	unsigned f;
	int ret;

	s->files = calloc(w->nr_files, sizeof(*s->files));
	if (!s->files) {
		worker_fail(w, ENOMEM, "io_submit_mode=offload: out of memory");
		return -ENOMEM;
	}
	for (f = 0; f < w->nr_files; f++) {
		s->files[f] = w->files[f];
		s->files[f].engine_data = NULL;
	}
	p.files = s->files;
	s->eng.sync_range_flags = w->eng.sync_range_flags;
	ret = ops->init(&s->eng, &p);
	if (ret) {
		worker_fail(w, -ret, "engine %s (I/O thread %u): %s", ops->name, s->index,
			    s->eng.err[0] ? s->eng.err : strerror(-ret));
		return ret;
	}
	s->eng_ready = true;
	for (f = 0; ops->open_file && f < w->nr_files; f++) {
		ret = ops->open_file(&s->eng, &s->files[f]);
		if (ret) {
			worker_fail(w, -ret, "engine %s (I/O thread %u): %s: %s", ops->name, s->index,
				    s->files[f].path, s->eng.err[0] ? s->eng.err : strerror(-ret));
			return ret;
		}
	}
	return 0;
}

static void *offload_main(void *arg)
{
	struct offload_slot *s = arg;
	struct offload *o = s->o;
	struct worker *w = o->w;
	const struct engine_ops *ops = s->eng.ops;
	struct io_req *r, *done;
	struct io_file *file;
	uint64_t t0, t1;
	unsigned f;
	int ret;

	ret = offload_engine(s);
	pthread_mutex_lock(&o->lock);
	s->ret = ret;
	s->set_up = true;
	o->nr_set_up++;
	pthread_cond_broadcast(&o->done);
	for (;;) {
		if (s->ret)
			break;
		while (!o->q_nr && !o->stop)
			pthread_cond_wait(&o->work, &o->lock);
		if (!o->q_nr)
			break;
		r = o->queue[o->q_head];
		o->q_head = (o->q_head + 1) % w->params.iodepth;
		o->q_nr--;
		pthread_mutex_unlock(&o->lock);
		/* through this engine's copy of the file, handed back as the worker's own */
		file = r->file;
		r->file = &s->files[file->index];
		t0 = worker_now(w);
		ret = w->flocks ? file_lock_submit_one(w, &s->eng, r, file) : ops->submit(&s->eng, &r, 1);
		/* an engine synchronous at this depth (ENGINE_SYNC_AT_QD1) keeps none for reap */
		if (ret == 1 && !(ops->flags & ENGINE_SYNC) && !w->sync_at_qd1) {
			do
				ret = ops->reap(&s->eng, &done, 1, 1);
			while (ret == 0);
			if (ret < 0)
				r->res = ret;
		} else if (ret <= 0) {
			r->res = ret ? ret : -EAGAIN;
		}
		t1 = worker_now(w);
		r->file = file;
		r->slat_ns = t0 - o->gen_ns[r->index] > UINT32_MAX ? UINT32_MAX :
			     (uint32_t)(t0 - o->gen_ns[r->index]);
		r->issue_ns = t0;
		o->done_ns[r->index] = t1;
		pthread_mutex_lock(&o->lock);
		o->fin[o->nr_fin++] = r;
		pthread_cond_signal(&o->done);
	}
	pthread_mutex_unlock(&o->lock);
	/* the engine goes with the thread that made it */
	for (f = 0; s->eng_ready && ops->close_file && f < w->nr_files; f++)
		ops->close_file(&s->eng, &s->files[f]);
	if (s->eng_ready)
		ops->exit(&s->eng);
	s->eng_ready = false;
	free(s->files);
	s->files = NULL;
	return NULL;
}

/* Account completed requests, each at its own completion time. */
static void offload_collect(struct offload *o, struct io_req **got, unsigned n)
{
	struct worker *w = o->w;
	unsigned i;

	for (i = 0; i < n; i++)
		io_complete_at(w, got[i], o->done_ns[got[i]->index]);
	w->inflight -= n;
}

static void offload_run(struct offload *o, struct io_req **got)
{
	struct worker *w = o->w;
	uint64_t t = worker_now(w), until;
	unsigned n, tail;
	bool more = true;
	struct timespec ts;
	int res;

	while (more || w->inflight) {
		if (run_stop_requested()) {
			w->aborted = true;
			w->interrupted = true;
		}
		if (w->aborted || atomic_load_explicit(&w->terminate, memory_order_relaxed))
			more = false;
		until = 0;
		while (more && !w->aborted && w->inflight < w->params.iodepth) {
			struct io_req *r = w->free_reqs[--w->nr_free];

			t = worker_now(w);
			res = io_next_request(w, r, t);
			if (res <= 0) {
				w->free_reqs[w->nr_free++] = r;
				if (res == REQ_WAIT)
					until = w->rate.wait_ns;
				else
					more = false;
				break;
			}
			if (r->ddir >= DDIR_SYNC)
				r->file = &w->files[w->cur_file];
			if (w->cmdprio)
				cmdprio_pick(w, r);
			w->depth_hist[depth_bucket(w->inflight + 1)]++;
			w->submit_one++, w->reap_one++;	/* one at a time, by an I/O thread */
			o->gen_ns[r->index] = t;
			pthread_mutex_lock(&o->lock);
			tail = (o->q_head + o->q_nr) % w->params.iodepth;
			o->queue[tail] = r;
			o->q_nr++;
			pthread_cond_signal(&o->work);
			pthread_mutex_unlock(&o->lock);
			w->inflight++;
		}
		pthread_mutex_lock(&o->lock);
		if (!o->nr_fin && (w->inflight || until)) {
			/* wake for a completion, the pace, or (at the latest) 10 ms on */
			uint64_t now = mono_ns(), wake = now + 10000000ull;

			if (until && until < wake)
				wake = until > now ? until : now;
			ts.tv_sec = (time_t)(wake / 1000000000ull);
			ts.tv_nsec = (long)(wake % 1000000000ull);
			pthread_cond_timedwait(&o->done, &o->lock, &ts);
		}
		n = o->nr_fin;
		memcpy(got, o->fin, n * sizeof(*got));
		o->nr_fin = 0;
		pthread_mutex_unlock(&o->lock);
		offload_collect(o, got, n);
		t = worker_now(w);
		if (w->time.deadline_ns && t >= w->time.deadline_ns && !w->time.in_ramp)
			more = false;
	}
	progress_publish(w, t);
	w->time.end_ns = t;
}

static int offload_start(struct offload *o, struct worker *w)
{
	const struct job_spec *job = w->job;
	const struct engine_ops *ops = job->engine;
	pthread_condattr_t ca;
	unsigned i;
	int ret = 0;

	o->w = w;
	pthread_mutex_init(&o->lock, NULL);
	pthread_cond_init(&o->work, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&o->done, &ca);
	pthread_condattr_destroy(&ca);
	o->queue = calloc(w->params.iodepth, sizeof(*o->queue));
	o->fin = calloc(w->params.iodepth, sizeof(*o->fin));
	o->gen_ns = calloc(w->params.iodepth, sizeof(*o->gen_ns));
	o->done_ns = calloc(w->params.iodepth, sizeof(*o->done_ns));
	o->slots = calloc(w->params.iodepth, sizeof(*o->slots));
	if (!o->queue || !o->fin || !o->gen_ns || !o->done_ns || !o->slots) {
		worker_fail(w, ENOMEM, "io_submit_mode=offload: out of memory");
		return -ENOMEM;
	}
	for (i = 0; i < w->params.iodepth; i++) {
		struct offload_slot *s = &o->slots[i];

		s->o = o;
		s->index = i;
		s->eng.ops = ops;
		if (pthread_create(&s->tid, NULL, offload_main, s)) {
			worker_fail(w, EAGAIN, "io_submit_mode=offload: cannot start I/O thread %u", i);
			ret = -EAGAIN;
			break;
		}
		s->started = true;
	}
	/* every started thread has set its engine up (or failed) before any I/O */
	pthread_mutex_lock(&o->lock);
	for (;;) {
		unsigned started = 0;

		for (i = 0; i < w->params.iodepth; i++)
			started += o->slots[i].started;
		if (o->nr_set_up >= started)
			break;
		pthread_cond_wait(&o->done, &o->lock);
	}
	for (i = 0; i < w->params.iodepth && !ret; i++)
		ret = o->slots[i].started ? o->slots[i].ret : 0;
	pthread_mutex_unlock(&o->lock);
	return ret;
}

static void offload_stop(struct offload *o)
{
	struct worker *w = o->w;
	unsigned i;

	pthread_mutex_lock(&o->lock);
	o->stop = true;
	pthread_cond_broadcast(&o->work);
	pthread_mutex_unlock(&o->lock);
	for (i = 0; o->slots && i < w->params.iodepth; i++) {
		struct offload_slot *s = &o->slots[i];

		if (s->started)
			pthread_join(s->tid, NULL);
	}
	pthread_cond_destroy(&o->done);
	pthread_cond_destroy(&o->work);
	pthread_mutex_destroy(&o->lock);
	free(o->queue);
	free(o->fin);
	free(o->gen_ns);
	free(o->done_ns);
	free(o->slots);
}

void io_loop_offload(struct worker *w)
{
	struct offload o = { 0 };
	struct io_req **got = calloc(w->params.iodepth, sizeof(*got));

	if (!got)
		worker_fail(w, ENOMEM, "io_submit_mode=offload: out of memory");
	else if (!offload_start(&o, w))
		offload_run(&o, got);
	if (o.slots || o.queue)
		offload_stop(&o);
	free(got);
}
