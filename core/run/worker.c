/* One worker thread of a job: set-up, the submit/reap loop, verification and teardown. */
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
#include "run/worker.h"

#define BUF_ALIGN 4096u
#define REAP_RETRIES 100	/* failed reaps in a row before in-flight requests are given up */

static const char *const ddir_names[] = { "read", "write", "trim", "fsync", "fdatasync" };

static void worker_fail(struct worker *w, int error, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The job's clock, in CLOCK_MONOTONIC nanoseconds either way. */
static inline uint64_t worker_now(const struct worker *w)
{
	return w->tsc ? tsc_to_ns(w->tsc, tsc_ticks()) : mono_ns();
}

static void worker_fail(struct worker *w, int error, const char *fmt, ...)
{
	va_list ap;

	w->aborted = true;
	if (w->error)
		return;
	w->error = error > 0 ? error : EIO;
	va_start(ap, fmt);
	vsnprintf(w->errmsg, sizeof(w->errmsg), fmt, ap);
	va_end(ap);
}

/* One line of the job's error log (error_dump; non-fatal verify failures). */
static void __attribute__((format(printf, 2, 3))) errlog_add(struct worker *w, const char *fmt, ...)
{
	size_t room = sizeof(w->errlog) - w->errlog_len;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = room > 1 ? vsnprintf(w->errlog + w->errlog_len, room - 1, fmt, ap) : -1;
	va_end(ap);
	if (n < 0 || (size_t)n >= room - 1) {
		w->errlog[w->errlog_len] = '\0';
		w->errlog_dropped++;
		return;
	}
	w->errlog_len += (size_t)n;
	w->errlog[w->errlog_len++] = '\n';
	w->errlog[w->errlog_len] = '\0';
}

/* fio's td_error_type: EILSEQ is a verify error whatever the direction. */
static inline unsigned err_type(unsigned ddir, int err)
{
	return err == EILSEQ ? ERR_VERIFY : ddir == DDIR_READ ? ERR_READ : ERR_WRITE;
}

/* fio's td_non_fatal_error: continue_on_error covers the type, and its list has the error. */
static bool err_non_fatal(const struct job_spec *job, unsigned type, int err)
{
	unsigned i;

	if (!(job->continue_on_error & (1u << type)))
		return false;
	if (!job->nr_ignore_error[type])
		return err == EIO || err == EILSEQ;
	for (i = 0; i < job->nr_ignore_error[type]; i++)
		if (job->ignore_error[type][i] == err)
			return true;
	return false;
}

/* fio's update_error_count. */
static inline void err_count(struct worker *w, int err)
{
	if (!w->total_err++)
		w->first_error = err;
}

static void lat_add_summary(struct lat_stat *s, uint64_t v)
{
	s->n++;
	s->sum += v;
	s->sumsq += (unsigned __int128)v * v;
	if (v < s->min)
		s->min = v;
	if (v > s->max)
		s->max = v;
}

static void stats_reset(struct worker *w)
{
	unsigned i;

	for (i = 0; i < STAT_NR; i++)
		dir_stat_init(&w->st[i]);
	memset(w->depth_hist, 0, sizeof(w->depth_hist));
	memset(w->dir_ns, 0, sizeof(w->dir_ns));
	memset(w->sample_last_bytes, 0, sizeof(w->sample_last_bytes));
	memset(w->sample_last_ios, 0, sizeof(w->sample_last_ios));
	progress_log_reset(&w->progress);
}

/*
 * Start of the measured interval: after the start barrier, or when ramp_time ends. The I/O
 * done in the ramp counts against the job's size: as in fio 3.33, a size-based job measures
 * what is left of it after ramp_time, not its whole size again.
 */
static void measure_start(struct worker *w, uint64_t t)
{
	stats_reset(w);
	atomic_store_explicit(&w->progress_bytes, 0, memory_order_relaxed);
	atomic_store_explicit(&w->progress_ios, 0, memory_order_relaxed);
	w->in_ramp = false;
	w->start_ns = t;
	w->last_sample_ns = t;
	w->next_sample_ns = t + SAMPLE_NS;
	if (w->job->runtime_ns)
		w->deadline_ns = t + w->job->runtime_ns;
	getrusage(RUSAGE_THREAD, &w->ru_start);
	w->kt_valid = w->eng_ready && w->eng.ops->kthread_cpu &&
		      !w->eng.ops->kthread_cpu(&w->eng, &w->kt_start[0], &w->kt_start[1]);
}

/* A file deleted under a running job (st_nlink 0) fails the job: its numbers mean little now. */
static void check_files_present(struct worker *w)
{
	struct stat st;
	unsigned i;

	for (i = 0; i < w->nr_files; i++) {
		/* only where links are counted at all: some FUSE and network filesystems say 0 */
		if (w->files[i].fd < 0 || !w->nlink_at_open[i] || fstat(w->files[i].fd, &st) ||
		    st.st_nlink)
			continue;
		worker_fail(w, ENOENT, "%s was deleted while the job ran", w->files[i].path);
	}
}

static void take_sample(struct worker *w, uint64_t t)
{
	double secs = (double)(t - w->last_sample_ns) / 1e9;
	unsigned d;

	check_files_present(w);

	for (d = 0; d < 3 && !w->job->disable_bw; d++) {
		if (d == DDIR_READ ? !job_reads(w->job->rw) :
		    d == DDIR_WRITE ? !job_writes_data(w->job->rw) : !w->trims)
			continue;
		sample_add(&w->st[d].bw, (double)(w->st[d].bytes - w->sample_last_bytes[d]) / secs);
		sample_add(&w->st[d].iops, (double)(w->st[d].ios - w->sample_last_ios[d]) / secs);
		w->sample_last_bytes[d] = w->st[d].bytes;
		w->sample_last_ios[d] = w->st[d].ios;
	}
	/* in a reporting group: the runner sums the members' progress interval by interval */
	if (w->job->group_reporting && !w->job->disable_bw)
		progress_log_add(&w->progress, t - w->start_ns, w->st);
	w->last_sample_ns = t;
	w->next_sample_ns += SAMPLE_NS;
	if (w->next_sample_ns <= t)
		w->next_sample_ns = t + SAMPLE_NS;
}

/* The stat direction of a request direction: fsync and fdatasync share one. */
static inline unsigned stat_dir(unsigned ddir)
{
	return ddir < STAT_SYNC ? ddir : STAT_SYNC;
}

static void mark_written(struct worker *w, const struct io_req *r)
{
	const struct io_file *f = r->file;
	uint64_t u = (r->offset - f->start) / w->plan->unit;
	uint64_t end = u + r->len / w->plan->unit, units = f->len / w->plan->unit;

	/* zonemode=strided in a file longer than the region goes past it: not verified there */
	if (end > units)
		end = units;

	for (; u < end; u++)
		w->written[f->index][u >> 3] |= (unsigned char)(1u << (u & 7));
}

/* The next block to read back in the verify pass; false when all were read. */
static bool next_verify(struct worker *w, struct io_req *r)
{
	while (w->verify_file < w->nr_files) {
		const unsigned char *map = w->written[w->verify_file];
		uint64_t units = w->files[w->verify_file].len / w->plan->unit;

		while (w->verify_pos < units) {
			uint64_t u = w->verify_pos++;

			if (!(map[u >> 3] & (1u << (u & 7))))
				continue;
			r->file = &w->files[w->verify_file];
			r->ddir = DDIR_READ;
			r->len = w->plan->unit;
			r->offset = r->file->start + u * w->plan->unit;
			return true;
		}
		w->verify_file++;
		w->verify_pos = 0;
	}
	return false;
}

/*
 * The direction of the next request. A job that is not mixed has one, set once (trims take
 * the write direction's, make_trim): no switch on rw per I/O.
 */
static inline unsigned pick_dir(struct worker *w)
{
	if (__builtin_expect(w->mixed, 0))
		return rng_below(&w->rng, 100) < w->job->rwmixread ? DDIR_READ : DDIR_WRITE;
	return w->fixed_dir;
}

/* rw=copy: the next block of the source, in order; its write follows its completion. */
static bool next_copy_read(struct worker *w, struct io_req *r)
{
	uint64_t left = w->plan->region - w->copy_next;

	if (!left)
		return false;
	r->file = &w->files[COPY_SRC];
	r->ddir = DDIR_READ;
	r->len = left < w->job->bs[DDIR_READ] ? (uint32_t)left : w->job->bs[DDIR_READ];
	r->offset = w->copy_next;
	w->copy_next += r->len;
	return true;
}

/* rw=copy: a block has been read; queue the write of the same buffer to the destination. */
static void copy_queue_write(struct worker *w, struct io_req *r)
{
	unsigned tail = (w->copy_head + w->nr_copy_ready) % w->depth;

	r->ddir = DDIR_WRITE;
	r->file = &w->files[COPY_DST];
	w->copy_ready[tail] = r;
	w->nr_copy_ready++;
}

static struct io_req *copy_take_write(struct worker *w)
{
	struct io_req *r = w->copy_ready[w->copy_head];

	w->copy_head = (w->copy_head + 1) % w->depth;
	w->nr_copy_ready--;
	return r;
}

/* The file for the next request of len bytes (file_service_type). */
static inline unsigned pick_file(struct worker *w, uint32_t len)
{
	const struct job_spec *job = w->job;
	unsigned f = w->cur_file;

	if (job->file_service == FSVC_SEQUENTIAL) {
		if (w->file_left < len) {
			f = f + 1 == w->nr_files ? 0 : f + 1;
			w->file_left = w->files[f].len;
		}
		w->file_left -= len;
		return w->cur_file = f;
	}
	if (w->fsvc_left) {
		w->fsvc_left--;
		return f;
	}
	switch (job->file_service) {
	case FSVC_RANDOM:
		f = (unsigned)rng_below(&w->file_rng, w->nr_files);
		break;
	case FSVC_ZIPF:
	case FSVC_PARETO:
	case FSVC_NORMAL:
		f = (unsigned)(dist_next(&w->file_dist) >> FSVC_DIST_SHIFT);
		break;
	default:
		f = f + 1 == w->nr_files ? 0 : f + 1;
		break;
	}
	w->fsvc_left = job->file_service_nr - 1;
	return w->cur_file = f;
}

/* Start r as an fsync/fdatasync when one is due; true when it did. */
static inline bool next_sync(struct worker *w, struct io_req *r)
{
	const struct job_spec *job = w->job;

	if ((job->fsync_blocks && w->writes_since_sync >= job->fsync_blocks) ||
	    (job->fdatasync_blocks && w->writes_since_sync >= job->fdatasync_blocks)) {
		r->ddir = job->fsync_blocks ? DDIR_SYNC : DDIR_DATASYNC;
		r->len = 0;
		r->offset = 0;
		w->writes_since_sync = 0;
		return true;
	}
	return false;
}

/* dedupe_mode=working_set: run-wide worker g's stream of unique buffer seeds, from its start. */
static void dedupe_stream(struct rng *stream, uint64_t base, unsigned g)
{
	rng_seed(stream, base ^ (0x9e3779b97f4a7c15ull * (g + 1)));
}

/*
 * fio's init_dedupe_working_set_seeds: the working set is the first size * percent / bs
 * unique buffers; with dedupe_global it is spread evenly over every worker of the run, each
 * block of it the first unique buffers of the next worker in turn.
 */
static int setup_dedupe_ws(struct worker *w, uint64_t base)
{
	const struct job_spec *job = w->job;
	const struct job_plan *plan = w->plan;
	unsigned me = plan->first_worker + w->clone, t = plan->run_workers ? plan->run_workers : 1;
	uint64_t n = job->size * job->dedupe_ws_percentage / 100 / job->bs[DDIR_WRITE], per, i;
	struct rng stream;

	if (!n)
		n = 1;
	if (n > (1ull << 27)) {
		worker_fail(w, EINVAL, "dedupe_working_set_percentage: %llu buffers in the working set (at most %llu)",
			    (unsigned long long)n, 1ull << 27);
		return -EINVAL;
	}
	w->dedupe_ws = malloc(n * sizeof(*w->dedupe_ws));
	if (!w->dedupe_ws) {
		worker_fail(w, ENOMEM, "dedupe working set: out of memory");
		return -ENOMEM;
	}
	w->nr_dedupe_ws = n;
	per = job->dedupe_global ? (n / t ? n / t : 1) : n;
	for (i = 0; i < n; i++) {
		/* block k of the set: worker (me + k) mod t's first buffers, as fio rotates them */
		if (i % per == 0)
			dedupe_stream(&stream, base, (unsigned)((me + i / per) % t));
		w->dedupe_ws[i] = rng_next(&stream) | 1;
	}
	dedupe_stream(&w->dedupe_uniq, base, me);
	return 0;
}

/* dedupe_mode=working_set: a dedupe draw takes a random buffer of the set, else a new one. */
static void dedupe_fill_ws(struct worker *w, struct io_req *r)
{
	struct rng fill;
	uint64_t seed;

	if (rng_below(&w->dedupe_rng, 100) < w->job->dedupe_percentage)
		seed = w->dedupe_ws[rng_below(&w->dedupe_rng, w->nr_dedupe_ws)];
	else
		seed = rng_next(&w->dedupe_uniq) | 1;
	rng_seed(&fill, seed);
	buf_fill(w->job, &fill, r->buf, r->len);
}

/* dedupe_percentage: that share of writes repeats the last unique buffer (fio's "repeat"). */
static void dedupe_fill(struct worker *w, struct io_req *r)
{
	struct rng fill;

	if (w->dedupe_ws) {
		dedupe_fill_ws(w, r);
		return;
	}

	if (!w->dedupe_seed || rng_below(&w->dedupe_rng, 100) >= w->job->dedupe_percentage)
		w->dedupe_seed = rng_next(&w->dedupe_rng) | 1;
	rng_seed(&fill, w->dedupe_seed);
	buf_fill(w->job, &fill, r->buf, r->len);
}

/* verify_backlog: remember a written block; the oldest is dropped (unverified) when full. */
static void backlog_push(struct worker *w, const struct io_req *r)
{
	uint64_t cap = w->job->verify_backlog;
	struct backlog_entry *e;

	if (w->backlog_nr == cap) {
		w->backlog_head = (w->backlog_head + 1) % cap;
		w->backlog_nr--;
	}
	e = &w->backlog[(w->backlog_head + w->backlog_nr) % cap];
	e->offset = r->offset;
	e->len = r->len;
	e->file = r->file->index;
	w->backlog_nr++;
}

/*
 * verify_backlog: once verify_backlog blocks are written, the next verify_backlog_batch of
 * them (oldest first) are read back and checked before more is issued, once every I/O in
 * flight has completed; they leave the end-of-job verify pass. 1 with r filled, REQ_DRAIN
 * while I/O is in flight, 0 when nothing is due.
 */
#define REQ_DRAIN (-2)
#define REQF_BACKLOG 1u		/* io_req flags: a verify_backlog read */

static int backlog_next(struct worker *w, struct io_req *r)
{
	const struct backlog_entry *e;
	uint64_t u, end;

	if (!w->backlog_left) {
		if (w->backlog_nr < w->job->verify_backlog)
			return 0;
		w->backlog_left = w->job->verify_backlog_batch;
	}
	if (!w->backlog_nr) {
		w->backlog_left = 0;
		return 0;
	}
	if (w->inflight || w->nr_batch)
		return REQ_DRAIN;
	e = &w->backlog[w->backlog_head];
	w->backlog_head = (w->backlog_head + 1) % w->job->verify_backlog;
	w->backlog_nr--;
	w->backlog_left--;
	r->flags |= REQF_BACKLOG;
	r->file = &w->files[e->file];
	r->ddir = DDIR_READ;
	r->len = e->len;
	r->offset = e->offset;
	/* verified now: not again at the end */
	u = (e->offset - r->file->start) / w->plan->unit;
	end = u + e->len / w->plan->unit;
	if (end > r->file->len / w->plan->unit)
		end = r->file->len / w->plan->unit;
	for (; u < end; u++)
		w->written[e->file][u >> 3] &= (unsigned char)~(1u << (u & 7));
	return 1;
}

/* What every write does before it is issued: sync accounting, buffer contents, verify. */
static inline void prepare_write(struct worker *w, struct io_req *r)
{
	const struct job_spec *job = w->job;

	w->writes_since_sync++;
	if (job->dedupe_percentage)
		dedupe_fill(w, r);
	else if (job->refill_buffers)
		buf_fill(job, &w->buf_rng, r->buf, r->len);
	else if (w->scramble)
		buf_scramble(r->buf, r->len, r->offset, ++w->write_seq);
	if (job->verify != VERIFY_NONE) {
		if (job->verify_pattern_len)
			verify_pattern_fill(job, r->buf, r->len);
		verify_stamp(r->buf, r->offset, r->len, job_verify_unit(job, w->plan->unit),
			     ++w->verify_seq);
		mark_written(w, r);
		if (w->backlog)
			backlog_push(w, r);
	}
}

/* A block of the zone a draw of 1..100 lands in (fio's zoned / zoned_abs). */
static uint64_t zoned_block(struct worker *w, const struct zoned *z, uint64_t nblocks,
			    uint64_t unit)
{
	unsigned i = z->pick[rng_below(&w->zone_rng, 100)];
	uint64_t lo, len;

	if (z->absolute) {
		lo = z->lo[i] / unit;
		len = z->hi[i] / unit - lo;
	} else {
		lo = z->lo[i] * nblocks / 100;
		len = nblocks * (z->hi[i] - z->lo[i]) / 100;
	}
	return lo + (len ? rng_below(&w->rng, len) : 0);
}

/* A random offset in file f as random_distribution asks. */
static inline uint64_t rand_offset(struct worker *w, unsigned f, unsigned dir, uint32_t len)
{
	struct file_gen *g = &w->gens[f];
	uint64_t blk, off;

	if (w->fdist)
		blk = dist_next(&w->fdist[f]);
	else if (w->zoned && w->zoned[dir].nr)
		blk = zoned_block(w, &w->zoned[dir], g->nblocks, g->unit);
	else
		return gen_rand(g, &w->rng, len);
	off = blk * g->unit;
	if (off + len > g->region)
		off = (g->region - len) / g->unit * g->unit;
	return off;
}

/*
 * rw=...:N (fio's get_next_offset with ddir_seq_add / ddir_seq_nr): the next offset in file f,
 * relative to its region; false when the job is done. A pass that runs off the file ends the
 * loop, as in fio (rw=read:8k reads a third of the file per loop); time_based and further
 * loops start again from the region's start.
 */
/*
 * zonemode=strided (fio's setup_strided_zone_mode): after zonesize bytes, the next zone starts
 * zonerange + zoneskip further on (back at the region's start past the file's end); within a
 * zone, sequential I/O that reaches zonerange starts the zone again.
 */
static void zone_step(struct worker *w, struct file_gen *g, unsigned dir)
{
	const struct job_spec *job = w->job;
	uint64_t old = g->start;

	if (w->zone_bytes >= job->zone_size) {
		w->zone_bytes = 0;
		g->start += job->zone_range + job->zone_skip;
		if (g->start >= g->real)
			g->start = g->origin;
		g->seq[dir] = 0;
		/* the other direction keeps its place in the file, as fio's last_pos does */
		g->seq[dir ^ 1] = old + g->seq[dir ^ 1] - g->start;
	}
	if (g->seq[dir] >= job->zone_range)
		g->seq[dir] = 0;
}

static bool seq_step_offset(struct worker *w, unsigned f, unsigned dir, uint32_t len,
			    uint64_t *out)
{
	const struct job_spec *job = w->job;
	struct file_gen *g = &w->gens[f];
	uint64_t pos;
	unsigned i;

	for (;;) {
		if (job->zone_strided)
			zone_step(w, g, dir);
		if (job->zone_strided && job_rw_random(job->rw)) {
			pos = gen_rand(&w->zone_gen, &w->rng, len);
		} else if (!job_rw_random(job->rw)) {
			pos = gen_seq_step(g, dir, job->seq_add, job->time_based);
		} else if (!--w->seq_left) {
			w->seq_left = job->seq_nr;
			pos = rand_offset(w, f, dir, len);
		} else if (job->seq_identical) {
			pos = g->last_start[dir];
		} else {
			pos = gen_seq_step(g, dir, 0, job->time_based);
			if (pos == GEN_END)
				pos = rand_offset(w, f, dir, len);
		}
		if (gen_seq_fits(g, pos, len))
			break;
		if (!job->time_based && !w->passes_left) {
			w->seq_ran_off = true;
			return false;
		}
		if (!job->time_based)
			w->passes_left--;
		for (i = 0; i < w->nr_files; i++)
			gen_rewind(&w->gens[i]);
		w->zone_bytes = 0;
	}
	gen_seq_done(g, dir, pos, len);
	w->zone_bytes += len;
	/* relative to the file's region, whose start a zone may have moved away from */
	*out = g->start - g->origin + pos;
	return true;
}

/*
 * A request of the write direction of a trim job goes out as a trim; trimwrite then writes
 * the same block as its next request (fio's trimwrite: a trim, then a write, per block).
 */
static void __attribute__((noinline)) make_trim(struct worker *w, struct io_req *r)
{
	r->ddir = DDIR_TRIM;
	if (!w->trimwrite)
		return;
	w->tw_pending = true;
	w->tw_file = r->file;
	w->tw_offset = r->offset;
	w->tw_len = r->len;
}

/* trimwrite: the write of the block just trimmed (its bytes were counted with the trim). */
static bool __attribute__((noinline)) trimwrite_write(struct worker *w, struct io_req *r)
{
	w->tw_pending = false;
	r->file = w->tw_file;
	r->ddir = DDIR_WRITE;
	r->offset = w->tw_offset;
	r->len = w->tw_len;
	prepare_write(w, r);
	return true;
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

	if (w->verifying)
		return next_verify(w, r);
	if (job->rw == RW_COPY)
		return next_copy_read(w, r);
	if (next_sync(w, r))
		return true;
	dir = pick_dir(w);
	len = job->bs[dir];
	if (!job->time_based && w->bytes_issued + len > w->bytes_target)
		return false;
	f = w->next_file;
	w->next_file = f + 1 == w->nr_files ? 0 : f + 1;
	g = &w->gens[f];
	r->file = &w->files[f];
	r->ddir = (uint16_t)dir;
	r->len = len;
	r->offset = r->file->start +
		    (job_rw_random(job->rw) ? gen_rand(g, &w->rng, len) : gen_seq(g, dir, len));
	w->bytes_issued += len;
	if (dir == DDIR_WRITE)
		prepare_write(w, r);
	return true;
}

#define REQ_WAIT (-1)	/* next_request_full: nothing may be issued before w->rate_wait_ns */

/* When dir's next I/O is due by its rate; 0 (always) when the direction is not limited. */
static inline uint64_t rate_next(const struct worker *w, unsigned dir)
{
	return w->rate[dir].bps ? rate_due(&w->rate[dir]) : 0;
}

/*
 * rate, rate_iops, per direction (fio's rate_ddir), when dir is not yet due (at due): in a
 * mixed job the other direction when that one is due instead, or else whichever is due
 * first, waited for. A direction held back by its rate so leaves the job's time to the
 * other. dir, or REQ_WAIT with w->rate_wait_ns and the direction to issue then (w->rate_held).
 */
static int __attribute__((noinline)) rate_dir_held(struct worker *w, unsigned dir, uint64_t now,
						   uint64_t due)
{
	const struct job_spec *job = w->job;
	uint64_t odue;
	unsigned odir = dir ^ 1;

	if (job_reads(job->rw) && job_writes(job->rw) &&
	    (odir == DDIR_READ ? job->rwmixread > 0 : job->rwmixread < 100)) {
		odue = rate_next(w, odir);
		if (odue <= now)
			return (int)odir;
		if (odue < due) {
			due = odue;
			dir = odir;
		}
	}
	w->rate_wait_ns = due;
	w->rate_held = dir + 1;
	return REQ_WAIT;
}

/* The direction to issue by the rate: dir when it is due (inline, the common case). */
static inline int rate_dir(struct worker *w, unsigned dir, uint64_t now)
{
	uint64_t due = rate_next(w, dir);

	if (__builtin_expect(due <= now, 1))
		return (int)dir;
	return rate_dir_held(w, dir, now, due);
}

/*
 * zonemode=zbd: the offset drawn as without zones, then placed as fio's zbd_adjust_block
 * places it (a write at its zone's write pointer, a read below one); a sequential job goes on
 * from where the I/O was placed. 1 with *off (in the region) and *len set, 0 when no zone
 * can take it (the job ends, as at fio's io_u_eof), -1 on an error (the job fails).
 */
static int zbd_place(struct worker *w, unsigned f, unsigned *dir, uint32_t *len, uint64_t *off)
{
	const struct job_spec *job = w->job;
	const struct io_file *file = &w->files[f];
	struct file_gen *g = &w->gens[f];
	struct zbd_view *v = &w->zbd[f];
	bool random = job_rw_random(job->rw), quiesce = false;
	struct zbd_req zr;
	char why[160];
	unsigned tries;
	int ret;

	if (*dir == DDIR_READ && job_reads(job->rw) && job_writes(job->rw) &&
	    zbd_read_to_write(v, job))
		*dir = DDIR_WRITE;
	for (tries = 0;; tries++) {
		if (!random && *dir == DDIR_WRITE) {
			/* the bytes skipped past a zone's capacity count as moved, as fio's */
			uint64_t to = zbd_seq_skip_capacity(v, file->start + g->seq[*dir]) -
				      file->start;

			w->bytes_issued += to - g->seq[*dir];
			g->seq[*dir] = to;
			if (!job->time_based && w->bytes_issued + *len > w->bytes_target)
				return 0;
		}
		*off = random ? rand_offset(w, f, *dir, *len) : gen_seq(g, *dir, *len);
		zr.dir = *dir;
		zr.offset = file->start + *off;
		zr.len = *len;
		zr.min_bs = w->bsg[*dir].min;
		zr.min_bs_write = w->bsg[DDIR_WRITE].min;
		ret = zbd_adjust(v, job, &w->zown, random, &zr, &quiesce, why, sizeof(why));
		if (ret < 0) {
			worker_fail(w, -ret, "%s: %s", file->path, why);
			return -1;
		}
		/*
		 * a sequential time_based read that found no more data starts again from the
		 * region's start, as fio's next loop does (once: a region without data ends it)
		 */
		if (ret == ZBD_EOF && !random && job->time_based && !tries) {
			g->seq[*dir] = 0;
			continue;
		}
		if (ret == ZBD_EOF)
			return 0;
		break;
	}
	w->zbd_quiesce |= quiesce;
	*len = zr.len;
	/* relative to the region; a read may find data in a zone starting before it */
	*off = zr.offset - file->start;
	if (!random)
		g->seq[*dir] = zr.offset >= file->start ? *off + *len : *len;
	return 1;
}

/*
 * The same with the per-I/O options the job set up: block sizes, file choice, offset
 * distributions, rate. now is the loop's latest timestamp. Returns 1 with r filled, 0 when
 * the job has nothing more to issue, REQ_WAIT when the rate says not yet.
 */
static inline __attribute__((always_inline)) int next_request_full(struct worker *w, struct io_req *r, uint64_t now)
{
	const struct job_spec *job = w->job;
	struct file_gen *g;
	unsigned dir, f;
	uint32_t len;
	uint64_t off;

	if (w->verifying)
		return next_verify(w, r);
	if (job->rw == RW_COPY)
		return next_copy_read(w, r);
	if (w->tw_pending)
		return trimwrite_write(w, r);
	if (w->backlog) {
		int b;

		r->flags &= (uint16_t)~REQF_BACKLOG;
		b = backlog_next(w, r);
		if (b)
			return b;
	}
	if (next_sync(w, r))
		return true;
	if (w->ios_limit && w->issued_ios >= w->ios_limit)
		return false;
	if (w->rate_held) {
		/* what the rate was waited for: checked again, the wait may have been cut short */
		dir = w->rate_held - 1;
		w->rate_held = 0;
	} else {
		dir = pick_dir(w);
	}
	if (w->rated) {
		int d;

		/* the size is used up: no rate to wait for (fio checks this before it waits) */
		if (!job->time_based && w->bytes_issued >= w->bytes_target)
			return false;
		d = rate_dir(w, dir, now);

		if (d < 0)
			return d;
		dir = (unsigned)d;
	}
	len = bs_gen_next(&w->bsg[dir], &w->bs_rng);
	if (!job->time_based && w->bytes_issued + len > w->bytes_target) {
		/* end on the target exactly, as fio's trimmed last block does */
		uint64_t left = w->bytes_target - w->bytes_issued, min = w->bsg[dir].min;

		if (left < min)
			return false;
		len = (uint32_t)(w->bsg[dir].unaligned ? left : left / min * min);
	}
	if (w->rate[dir].bps)
		rate_issue(&w->rate[dir], len);
	w->issued_ios++;
	f = pick_file(w, len);
	g = &w->gens[f];
	r->file = &w->files[f];
	r->ddir = (uint16_t)dir;
	r->len = len;
	if (w->seq_step) {
		if (!seq_step_offset(w, f, dir, len, &off))
			return false;
	} else if (w->zbd) {
		int z = zbd_place(w, f, &dir, &len, &off);

		if (z <= 0)
			return z;
		r->ddir = (uint16_t)dir;
		r->len = len;
	} else {
		off = job_rw_random(job->rw) ? rand_offset(w, f, dir, len) : gen_seq(g, dir, len);
	}
	r->offset = r->file->start + off;
	w->bytes_issued += len;
	if (dir == DDIR_WRITE) {
		if (w->trims)
			make_trim(w, r);
		else
			prepare_write(w, r);
	}
	return true;
}

/* fio's depth bucket of a submission at depth (>= 1): floor(log2), capped at ">= 64". */
static inline unsigned depth_bucket(unsigned depth)
{
	unsigned b = 31u - (unsigned)__builtin_clz(depth | 1u);

	return b < DEPTH_BUCKETS - 1 ? b : DEPTH_BUCKETS - 1;
}

/*
 * verify_dump: the block as read goes to PATH.OFFSET.received (fio's name for it). fio also
 * writes the block it expected; iopath checks a header and checksum and cannot regenerate the
 * expected data, so there is no .expected file.
 */
static void __attribute__((noinline)) verify_dump(struct worker *w, const struct io_req *r)
{
	char name[PATH_MAX + 48];
	ssize_t n;
	int fd;

	snprintf(name, sizeof(name), "%s.%llu.received", r->file->path,
		 (unsigned long long)r->offset);
	fd = open(name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	/* best effort: the verify failure is reported either way */
	n = write(fd, r->buf, r->len);
	(void)n;
	(void)w;
	close(fd);
}

/*
 * A block failed verify. The job stops there whatever verify_fatal says (in fio 3.33 the
 * failed completion ends the job too), unless continue_on_error covers verify errors (EILSEQ):
 * then it is counted, reported, and the job goes on.
 */
static void __attribute__((noinline)) verify_failed(struct worker *w, const struct io_req *r,
						    uint64_t bad, const char *why)
{
	w->verify_errors++;
	if (w->job->verify_dump)
		verify_dump(w, r);
	if (err_non_fatal(w->job, ERR_VERIFY, EILSEQ)) {
		err_count(w, EILSEQ);
		errlog_add(w, "verify: %s at offset %llu: %s", r->file->path,
			   (unsigned long long)bad, why);
		return;
	}
	if ((w->job->continue_on_error & (1u << ERR_VERIFY)) && (w->eng.ops->flags & ENGINE_SYNC))
		err_count(w, EILSEQ);
	worker_fail(w, EILSEQ, "verify: %s at offset %llu: %s", r->file->path,
		    (unsigned long long)bad, why);
}

static void check_read(struct worker *w, const struct io_req *r)
{
	uint64_t bad;
	char why[160];

	if (verify_check_job(w->job, r->buf, r->offset, r->len,
			     job_verify_unit(w->job, w->plan->unit), &bad, why, sizeof(why)))
		verify_failed(w, r, bad, why);
}

/*
 * verify_async=N (fio's): N threads check completed verify reads instead of the worker. A read
 * stays with them until checked, its request counted against iodepth as fio's io_u is, so the
 * worker keeps other I/O in flight meanwhile. The worker takes the verdicts back in its own
 * thread and acts on a failure exactly as on an inline check (verify_failed).
 */
struct verifier {
	struct worker *w;
	pthread_mutex_t lock;
	pthread_cond_t work;		/* a thread waits for a read to check */
	pthread_cond_t done;		/* the worker waits for checked reads */
	struct io_req **queue;		/* reads to check, a FIFO ring of depth slots */
	unsigned q_head, q_nr;
	struct io_req **fin;		/* checked, for the worker */
	unsigned nr_fin;
	struct io_req **take;		/* the worker's copy of fin */
	struct vfy_verdict {
		bool failed;
		uint64_t bad;
		char why[160];
	} *verdict;			/* per request slot */
	pthread_t *tids;
	unsigned nr_threads;
	bool stop;
};

static void *verifier_main(void *arg)
{
	struct verifier *v = arg;
	const struct worker *w = v->w;
	uint32_t unit = job_verify_unit(w->job, w->plan->unit);
	struct vfy_verdict *d;
	struct io_req *r;

	pthread_mutex_lock(&v->lock);
	for (;;) {
		while (!v->q_nr && !v->stop)
			pthread_cond_wait(&v->work, &v->lock);
		if (!v->q_nr)
			break;
		r = v->queue[v->q_head];
		v->q_head = (v->q_head + 1) % w->depth;
		v->q_nr--;
		pthread_mutex_unlock(&v->lock);
		d = &v->verdict[r->index];
		d->failed = verify_check_job(w->job, r->buf, r->offset, r->len, unit, &d->bad, d->why,
					     sizeof(d->why));
		pthread_mutex_lock(&v->lock);
		v->fin[v->nr_fin++] = r;
		pthread_cond_signal(&v->done);
	}
	pthread_mutex_unlock(&v->lock);
	return NULL;
}

static void vfy_push(struct worker *w, struct io_req *r)
{
	struct verifier *v = w->vfy;

	pthread_mutex_lock(&v->lock);
	v->queue[(v->q_head + v->q_nr) % w->depth] = r;
	v->q_nr++;
	pthread_cond_signal(&v->work);
	pthread_mutex_unlock(&v->lock);
	w->vq_out++;
}

/* Take checked reads back (waiting for one when wait) and act on their verdicts. */
static void __attribute__((noinline)) vfy_collect(struct worker *w, bool wait)
{
	struct verifier *v = w->vfy;
	unsigned i, n;

	pthread_mutex_lock(&v->lock);
	while (wait && !v->nr_fin)
		pthread_cond_wait(&v->done, &v->lock);
	n = v->nr_fin;
	memcpy(v->take, v->fin, n * sizeof(*v->take));
	v->nr_fin = 0;
	pthread_mutex_unlock(&v->lock);
	for (i = 0; i < n; i++) {
		struct io_req *r = v->take[i];
		const struct vfy_verdict *d = &v->verdict[r->index];

		if (d->failed)
			verify_failed(w, r, d->bad, d->why);
		w->free_reqs[w->nr_free++] = r;
	}
	w->vq_out -= n;
}

static void vfy_drain(struct worker *w)
{
	while (w->vq_out)
		vfy_collect(w, true);
}

static void vfy_stop(struct worker *w)
{
	struct verifier *v = w->vfy;
	unsigned i;

	if (!v)
		return;
	pthread_mutex_lock(&v->lock);
	v->stop = true;
	pthread_cond_broadcast(&v->work);
	pthread_mutex_unlock(&v->lock);
	for (i = 0; i < v->nr_threads; i++)
		pthread_join(v->tids[i], NULL);
	pthread_cond_destroy(&v->done);
	pthread_cond_destroy(&v->work);
	pthread_mutex_destroy(&v->lock);
	free(v->queue);
	free(v->fin);
	free(v->take);
	free(v->verdict);
	free(v->tids);
	free(v);
	w->vfy = NULL;
}

static int vfy_start(struct worker *w)
{
	unsigned n = w->job->verify_async;
	struct verifier *v = calloc(1, sizeof(*v));

	if (!v)
		goto nomem;
	w->vfy = v;
	v->w = w;
	pthread_mutex_init(&v->lock, NULL);
	pthread_cond_init(&v->work, NULL);
	pthread_cond_init(&v->done, NULL);
	v->queue = calloc(w->depth, sizeof(*v->queue));
	v->fin = calloc(w->depth, sizeof(*v->fin));
	v->take = calloc(w->depth, sizeof(*v->take));
	v->verdict = calloc(w->depth, sizeof(*v->verdict));
	v->tids = calloc(n, sizeof(*v->tids));
	if (!v->queue || !v->fin || !v->take || !v->verdict || !v->tids)
		goto nomem;
	for (v->nr_threads = 0; v->nr_threads < n; v->nr_threads++) {
		if (pthread_create(&v->tids[v->nr_threads], NULL, verifier_main, v)) {
			worker_fail(w, EAGAIN, "verify_async: cannot start verify thread %u",
				    v->nr_threads);
			return -EAGAIN;
		}
	}
	/* the loop that watches vq_out */
	w->full = true;
	return 0;
nomem:
	worker_fail(w, ENOMEM, "verify_async: out of memory");
	return -ENOMEM;
}

/*
 * Is this read one to verify? As in fio's do_io, the reads of the verify pass and of
 * verify_backlog, and every read of a job that only reads; a mixed job's own reads are not
 * checked (they may find blocks it has not written).
 */
static inline bool verify_read(const struct worker *w, const struct io_req *r)
{
	return w->verifying || !w->job_writes || (r->flags & REQF_BACKLOG);
}

/*
 * A failed request of a job with continue_on_error (or ignore_error): true when the error is
 * non-fatal (counted, reported under error_dump, and the job goes on); false when it ends the
 * job. A fatal error counts in total_err too where it completed inside submit (sync engines,
 * trims), as fio's break_on_this_error counts it; fio's async completions do not count it.
 */
static bool __attribute__((noinline)) complete_error(struct worker *w, const struct io_req *r)
{
	int err = (int)-r->res;
	unsigned type = err_type(r->ddir, err);

	if (!err_non_fatal(w->job, type, err)) {
		if ((w->job->continue_on_error & (1u << type)) &&
		    ((w->eng.ops->flags & ENGINE_SYNC) || r->ddir == DDIR_TRIM))
			err_count(w, err);
		return false;
	}
	if (r->ddir <= DDIR_TRIM)
		w->err_ios[r->ddir]++;
	err_count(w, err);
	if (w->job->error_dump)
		errlog_add(w, "io_u error on file %s: %s: %s offset=%llu, buflen=%u", r->file->path,
			   strerror(err), ddir_names[r->ddir], (unsigned long long)r->offset, r->len);
	return true;
}

/*
 * A completion that moved other than its full length: an error, end of file or a short
 * transfer. Returns false when it must not be counted. Kept out of line: the common case
 * is one comparison.
 */
static bool __attribute__((noinline)) complete_odd(struct worker *w, const struct io_req *r,
						   struct dir_stat *d)
{
	if (r->res < 0 && w->job->continue_on_error && complete_error(w, r))
		return false;
	if (r->res < 0 && w->job->fill_device && r->ddir == DDIR_WRITE &&
	    (r->res == -ENOSPC || r->res == -EDQUOT)) {
		/* fill_device: full is the end of the job, not an error (fio) */
		atomic_store(&w->terminate, true);
		return false;
	}
	if (r->res < 0) {
		if (r->ddir <= DDIR_TRIM)
			w->err_ios[r->ddir]++;
		worker_fail(w, (int)-r->res, "%s %s at offset %llu (%u bytes): %s%s",
			    ddir_names[r->ddir], r->file->path, (unsigned long long)r->offset, r->len,
			    strerror((int)-r->res),
			    r->ddir == DDIR_TRIM && r->res == -ENOTTY ?
			    " (trims are BLKDISCARD, for block devices only, as in fio 3.33)" : "");
		return false;
	}
	if (r->ddir >= DDIR_SYNC)
		return true;
	/*
	 * fio: an asynchronous read past the end of the file (a file created on open and not
	 * yet written there) is an I/O that moved nothing, not an error; a sync engine's is
	 * one ("full resid"), and so is a read that is to be verified
	 */
	if (r->res == 0 && r->ddir == DDIR_READ && w->job->rw != RW_COPY &&
	    !(w->eng.ops->flags & ENGINE_SYNC) && !(w->check_reads && verify_read(w, r)))
		return true;
	if (r->res == 0 || w->job->rw == RW_COPY) {
		worker_fail(w, EIO, "%s %s at offset %llu: %s", ddir_names[r->ddir], r->file->path,
			    (unsigned long long)r->offset,
			    r->res ? "short transfer in a copy (did the source change?)"
				   : "unexpected end of file");
		return false;
	}
	d->short_ios++;
	return true;
}

/*
 * Check a completed request and hand it on: back to the pool, or (rw=copy) on to its write,
 * or (full loop: verify_async) to the verify threads. false when it failed and must not be
 * counted.
 */
static inline __attribute__((always_inline)) bool settle(struct worker *w, struct io_req *r,
							 struct dir_stat *d, bool copy,
							 const bool full)
{
	if (__builtin_expect((uint64_t)r->res != r->len, 0) && !complete_odd(w, r, d)) {
		w->free_reqs[w->nr_free++] = r;
		return false;
	}
	if (__builtin_expect(copy, 0) && r->ddir == DDIR_READ && !w->aborted) {
		copy_queue_write(w, r);
	} else if (full && __builtin_expect(w->vfy != NULL, 0) && r->ddir == DDIR_READ &&
		   verify_read(w, r)) {
		vfy_push(w, r);		/* back to the pool once checked */
		return true;
	} else {
		w->free_reqs[w->nr_free++] = r;
	}
	if (__builtin_expect(w->check_reads, 0) && r->ddir == DDIR_READ && verify_read(w, r))
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

		if (!settle(w, r, d, copy, true) || r->ddir >= DDIR_SYNC)
			continue;
		d->ios++;
		d->bytes += (uint64_t)r->res;
	}
}

static inline uint64_t done_ios(const struct worker *w)
{
	return w->st[STAT_READ].ios + w->st[STAT_WRITE].ios + w->st[STAT_TRIM].ios;
}

/* latency_target: a new window at the current depth (fio's lat_new_cycle). */
static void lat_new_window(struct worker *w, uint64_t t)
{
	w->lat_ios = done_ios(w);
	w->lat_failed = 0;
	w->lat_ts = t;
}

/* The window (or, at 100%, one I/O) missed the target: try a lower depth. false at depth 1. */
static bool lat_ramp_down(struct worker *w, uint64_t t)
{
	if (w->qd_cap == 1)
		return false;
	w->lat_qd_high = w->qd_cap;
	if (w->qd_cap == w->lat_qd_low)
		w->lat_qd_low--;
	w->qd_cap = (w->qd_cap + w->lat_qd_low) / 2;
	w->lat_quiesce = true;
	lat_new_window(w, t);
	return true;
}

/* The window met the target: a higher depth, or, when it stays, the final measured window. */
static void lat_ramp_up(struct worker *w, uint64_t t)
{
	unsigned qd = w->qd_cap;

	w->lat_qd_low = w->qd_cap;
	if (w->lat_qd_high != w->depth)
		w->qd_cap = (w->qd_cap + w->lat_qd_high) / 2;
	else
		w->qd_cap *= 2;
	if (w->qd_cap > w->depth)
		w->qd_cap = w->depth;
	if (w->qd_cap == qd) {
		if (w->lat_end_run) {
			w->lat_done = true;
		} else {
			w->lat_quiesce = true;
			w->lat_end_run = true;
			measure_start(w, t);
			w->bytes_issued = 0;	/* the final window moves the job's size afresh */
		}
	}
	lat_new_window(w, t);
}

/* One completion's latency against latency_target (fio's lat_target_failed). */
static void __attribute__((noinline)) lat_target_io(struct worker *w, uint64_t lat_ns, uint64_t t)
{
	const struct job_spec *job = w->job;

	if (lat_ns <= job->latency_target_ns)
		return;
	if (job->latency_percentile < 100.0) {
		w->lat_failed++;
		return;
	}
	if (!lat_ramp_down(w, t))
		worker_fail(w, ETIMEDOUT, "latency of %llu nsec exceeds specified max (%llu nsec)",
			    (unsigned long long)lat_ns, (unsigned long long)job->latency_target_ns);
}

/* Once the window has run: did enough of its I/Os meet the target? (fio's lat_target_check) */
static void lat_target_check(struct worker *w, uint64_t t)
{
	uint64_t ios;
	double ok;

	if (t - w->lat_ts < w->job->latency_window_ns)
		return;
	ios = done_ios(w) - w->lat_ios;
	ok = 100.0 * (double)(ios - w->lat_failed) / (double)ios;
	if (ios && ok >= w->job->latency_percentile)
		lat_ramp_up(w, t);
	else
		lat_ramp_down(w, t);
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

/* Full loop, per counted completion: lat/slat_percentiles buckets, log entries. */
static inline void complete_extra(struct worker *w, struct dir_stat *d, const struct io_req *r,
				  uint64_t clat, bool async, uint64_t t)
{
	if (w->logs && r->ddir <= DDIR_WRITE && !w->verifying)
		iologs_io(w->logs, t, r->ddir, r->len, r->offset, (uint64_t)r->res, r->slat_ns,
			  clat, async);
	if (w->hist_lat)
		d->lat.hist[hist_idx(async ? clat + r->slat_ns : clat)]++;
	if (w->hist_slat && async)
		d->slat.hist[hist_idx(r->slat_ns)]++;
}

/* Full loop: completions as thinktime and rate_min count them (ramp_time included). */
static void count_done(struct worker *w, struct io_req **reqs, unsigned n)
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
 * Account n completions seen at time t. Decisions that hold for the whole job are made once:
 * lat is false in the loop of jobs that leave some latency unmeasured (fio's disable_*).
 */
static inline __attribute__((always_inline)) void
complete(struct worker *w, struct io_req **reqs, unsigned n, uint64_t t, bool async_engine,
	 const bool full, const bool lat)
{
	bool copy = w->job->rw == RW_COPY;
	unsigned i;

	if (full && w->count_done)
		count_done(w, reqs, n);
	if (__builtin_expect(w->in_ramp, 0)) {
		if (t < w->ramp_end_ns) {
			complete_uncounted(w, reqs, n);
			return;
		}
		measure_start(w, t);
	}
	for (i = 0; i < n; i++) {
		struct io_req *r = reqs[i];
		struct dir_stat *d = &w->st[stat_dir(r->ddir)];
		uint64_t clat = t - r->issue_ns;
		bool async = async_engine;

		/*
		 * Trims (full loop only) are done inside submit by every engine: as fio's inline
		 * completions, all their time is clat, none slat
		 */
		if (full && async && r->ddir == DDIR_TRIM) {
			clat += r->slat_ns;
			async = false;
		}
		if (!settle(w, r, d, copy, full))
			continue;
		d->ios++;
		d->bytes += (uint64_t)r->res;
		if (full)
			complete_extra(w, d, r, clat, async, t);
		if (full && __builtin_expect(w->lat_on, 0) && !w->job->disable_lat)
			lat_target_io(w, async ? clat + r->slat_ns : clat, t);
		if (!lat) {
			complete_reduced(w, d, r, clat, async);
			continue;
		}
		lat_add(&d->clat, clat);
		if (async) {
			lat_add_summary(&d->slat, r->slat_ns);
			lat_add_summary(&d->lat, clat + r->slat_ns);
		} else {
			lat_add_summary(&d->lat, clat);
		}
	}
	/* for the MPI runner's window and the progress line: one plain store each, read by the
	 * main thread about once a second */
	atomic_store_explicit(&w->progress_bytes, w->st[STAT_READ].bytes + w->st[STAT_WRITE].bytes +
			      w->st[STAT_TRIM].bytes, memory_order_relaxed);
	atomic_store_explicit(&w->progress_ios, w->st[STAT_READ].ios + w->st[STAT_WRITE].ios +
			      w->st[STAT_TRIM].ios, memory_order_relaxed);
	if (t >= w->next_sample_ns)
		take_sample(w, t);
}

/* Submit the prepared batch; returns the time after submit. */
static inline __attribute__((always_inline)) uint64_t
submit_batch(struct worker *w, bool sync_engine, const bool full, const bool lat)
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
	ret = ops->submit(&w->eng, w->batch, n);
	t1 = worker_now(w);
	if (ret < 0) {
		worker_fail(w, -ret, "engine %s: submit: %s", ops->name, strerror(-ret));
		ret = 0;
	}
	done = (unsigned)ret;
	old = w->nr_stamped < done ? w->nr_stamped : done;
	if (done)
		w->depth_hist[depth_bucket(w->inflight + done)] += done;
	if (sync_engine) {
		for (i = old; i < done; i++)
			w->batch[i]->issue_ns = t0;
		complete(w, w->batch, done, t1, false, full, lat);
	} else {
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
		for (i = w->nr_stamped > done ? w->nr_stamped : done; i < n; i++)
			w->batch[i]->issue_ns = t0;
		memmove(w->batch, w->batch + done, (n - done) * sizeof(*w->batch));
		w->nr_stamped = n - done;
	} else {
		w->nr_stamped = 0;
	}
	w->nr_batch = n - done;
	return t1;
}

/* Return prepared but unsubmitted requests to the pool (on abort). */
static void drop_batch(struct worker *w)
{
	while (w->nr_batch)
		w->free_reqs[w->nr_free++] = w->batch[--w->nr_batch];
	w->nr_stamped = 0;
}

/* Sleep until the monotonic time until, in short steps so that a stop request is seen. */
static void sleep_until(const struct worker *w, uint64_t until)
{
	uint64_t now = worker_now(w), step;
	struct timespec ts;

	while (now < until && !run_stop_requested()) {
		step = until - now < 100000000ull ? until : now + 100000000ull;
		ts.tv_sec = (time_t)(step / 1000000000ull);
		ts.tv_nsec = (long)(step % 1000000000ull);
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		now = worker_now(w);
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
		if (n < 0) {
			worker_fail(w, -n, "engine %s: reap: %s", ops->name, strerror(-n));
			break;
		}
		if (n) {
			t = worker_now(w);
			w->inflight -= (unsigned)n;
			complete(w, w->done, (unsigned)n, t, true, true, lat);
		}
	}
	return t;
}

/* rate / rate_iops: wait, with nothing in flight, until the next I/O is due. */
static uint64_t rate_wait(struct worker *w, uint64_t t)
{
	uint64_t until = w->rate_wait_ns;

	t = quiesce(w, t);
	if (w->deadline_ns && !w->in_ramp && until > w->deadline_ns)
		until = w->deadline_ns;
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
	uint64_t b = job->thinktime_issue ? w->issued_ios : w->done_ios;

	if (job->thinktime_iotime_ns) {
		if (t - w->think_last_ns >= job->thinktime_iotime_ns)
			return true;
		/* fio: with thinktime_iotime, thinktime_blocks counts only when given */
		if (!w->think_blocks_given)
			return false;
	}
	return b >= w->think_last + job->thinktime_blocks;
}

/* The thinktime stall: drain, spin thinktime_spin, sleep the rest (not past runtime). */
static uint64_t think(struct worker *w, uint64_t t)
{
	const struct job_spec *job = w->job;
	uint64_t b = job->thinktime_issue ? w->issued_ios : w->done_ios, start, end;
	unsigned d;

	t = quiesce(w, t);
	start = worker_now(w);
	end = start + job->thinktime_ns;
	if (w->deadline_ns && !w->in_ramp && end > w->deadline_ns)
		end = w->deadline_ns;
	if (job->thinktime_spin_ns) {
		uint64_t spin_end = start + job->thinktime_spin_ns < end ?
				    start + job->thinktime_spin_ns : end;

		while (worker_now(w) < spin_end)
			;
	}
	sleep_until(w, end);
	t = worker_now(w);
	if (job->rate_ignore_thinktime)
		for (d = 0; d < 2; d++)
			rate_shift(&w->rate[d], t - start);
	w->think_last = b;
	w->think_last_ns = t;
	return t;
}

/* rate_min / rate_iops_min: after fio's 2 s settling, every rate_cycle, or the job fails. */
static void check_rate_min(struct worker *w, uint64_t t)
{
	const struct job_spec *job = w->job;
	uint64_t spent = t - w->ratemin_last_ns, got;
	unsigned d;

	w->ratemin_next_ns = t + job->rate_cycle_ms * 1000000ull;
	if (!spent)
		return;
	for (d = 0; d < 2; d++) {
		if (d == DDIR_READ ? !job_reads(job->rw) : !job_writes(job->rw))
			continue;
		got = (uint64_t)((unsigned __int128)(w->done_dir_bytes[d] - w->ratemin_bytes[d]) *
				 1000000000u / spent);
		if (job->rate_min[d] && got < job->rate_min[d])
			worker_fail(w, EIO, "%s: rate_min=%lluB/s not met, got %lluB/s",
				    d == DDIR_READ ? "read" : "write",
				    (unsigned long long)job->rate_min[d], (unsigned long long)got);
		got = (uint64_t)((unsigned __int128)(w->done_dir_ios[d] - w->ratemin_ios[d]) *
				 1000000000u / spent);
		if (job->rate_iops_min[d] && got < job->rate_iops_min[d])
			worker_fail(w, EIO, "%s: rate_iops_min=%llu not met, got %llu IOPS",
				    d == DDIR_READ ? "read" : "write",
				    (unsigned long long)job->rate_iops_min[d], (unsigned long long)got);
		w->ratemin_bytes[d] = w->done_dir_bytes[d];
		w->ratemin_ios[d] = w->done_dir_ios[d];
	}
	w->ratemin_last_ns = t;
}

/*
 * The submit/reap loop, instantiated three times: full and lat are constants, so the plain
 * instance carries none of the per-I/O options a job did not ask for, and only jobs that
 * leave latencies unmeasured (fio's disable_*, gtod_reduce) look at which.
 */
static inline __attribute__((always_inline)) void io_loop_body(struct worker *w, const bool full,
							       const bool lat)
{
	const struct job_spec *job = w->job;
	const struct engine_ops *ops = w->eng.ops;
	bool sync_engine = ops->flags & ENGINE_SYNC;
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
	int n;

	/*
	 * A phase that would start at or past the runtime issues nothing (fio checks the
	 * runtime before each I/O): a time_based write job so does no verify reads
	 */
	if (w->deadline_ns && t >= w->deadline_ns && !w->in_ramp)
		more = false;
	while (more || w->inflight || w->nr_batch || held || w->nr_copy_ready ||
	       (full && w->vq_out)) {
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
		if (full && __builtin_expect(w->vq_out, 0))
			vfy_collect(w, !w->inflight && !w->nr_batch && !held &&
				    (w->aborted || !more || !w->nr_free ||
				     w->inflight + w->nr_batch + w->vq_out >= w->qd_cap));
		if (w->aborted) {
			more = false;
			drop_batch(w);
			if (held) {
				w->free_reqs[w->nr_free++] = held;
				held = NULL;
			}
			while (w->nr_copy_ready)
				w->free_reqs[w->nr_free++] = copy_take_write(w);
			if (!w->inflight && !(full && w->vq_out))
				break;
		}
		stalled = false;
		while ((more || w->nr_copy_ready) && !held &&
		       w->inflight + w->nr_batch + (full ? w->vq_out : 0) <
		       (full ? w->qd_cap : w->depth) &&
		       !(full && (w->lat_quiesce || w->low_wait))) {
			struct io_req *r;

			if (full && w->flow && flow_held(w->flow, &w->flow_ios, job->flow)) {
				stalled = true;
				break;
			}
			if (w->nr_copy_ready) {
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
			if (full && w->zbd_quiesce) {
				/* a zone reset (or a full set of open zones) waits for in-flight I/O */
				w->zbd_quiesce = false;
				if (w->inflight || w->nr_batch) {
					held = r;
					break;
				}
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
			t = submit_batch(w, sync_engine, full, lat);
		/* held back by flow= with flow_sleep: every in-flight I/O completes first (fio) */
		quiesce = full && ((stalled && job->flow_sleep_us) || w->lat_quiesce || drain);
		drain = false;
		if (!sync_engine && w->inflight &&
		    (w->inflight + w->nr_batch + (full ? w->vq_out : 0) >=
		     (full ? w->qd_cap : w->depth) || !more || held ||
		     w->nr_batch || quiesce || poll || (full && (w->trims || w->low_wait)))) {
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
			    w->inflight + w->nr_batch + w->vq_out >= w->qd_cap)
				w->low_wait = true;
			n = ops->reap(&w->eng, w->done, want, take);
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
				t = worker_now(w);
				w->inflight -= (unsigned)n;
				complete(w, w->done, (unsigned)n, t, true, full, lat);
			}
		}
		if (full && w->low_wait && w->inflight <= w->depth_low)
			w->low_wait = false;
		if (full && !w->aborted) {
			if (wait) {
				t = rate_wait(w, t);
				wait = false;
			}
			if (job->thinktime_ns && more && think_due(w, t))
				t = think(w, t);
			if (w->ratemin && t >= w->ratemin_next_ns && !w->in_ramp)
				check_rate_min(w, t);
			if (w->lat_on && !w->in_ramp) {
				if (!w->inflight)
					w->lat_quiesce = false;
				lat_target_check(w, t);
				if (w->lat_done)
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
		if (w->deadline_ns && t >= w->deadline_ns && !w->in_ramp)
			more = false;
	}
	w->end_ns = t;
}

static void __attribute__((noinline)) io_loop_plain(struct worker *w)
{
	io_loop_body(w, false, true);
}

static void __attribute__((noinline)) io_loop_full(struct worker *w)
{
	io_loop_body(w, true, true);
}

static void __attribute__((noinline)) io_loop_reduced(struct worker *w)
{
	io_loop_body(w, true, false);
}

static void __attribute__((noinline)) io_loop_plain_reduced(struct worker *w)
{
	io_loop_body(w, false, false);
}

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
	const struct engine_params *params;
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
	struct engine_params p = *s->o->params;
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
		o->q_head = (o->q_head + 1) % w->depth;
		o->q_nr--;
		pthread_mutex_unlock(&o->lock);
		/* through this engine's copy of the file, handed back as the worker's own */
		file = r->file;
		r->file = &s->files[file->index];
		t0 = worker_now(w);
		ret = ops->submit(&s->eng, &r, 1);
		if (ret == 1 && !(ops->flags & ENGINE_SYNC)) {
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
	const struct job_spec *job = w->job;
	bool reduced = job->disable_lat || job->disable_clat || job->disable_slat;
	unsigned i;

	for (i = 0; i < n; i++) {
		uint64_t t = o->done_ns[got[i]->index];

		if (reduced)
			complete(w, &got[i], 1, t, true, true, false);
		else
			complete(w, &got[i], 1, t, true, true, true);
	}
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
		while (more && !w->aborted && w->inflight < w->depth) {
			struct io_req *r = w->free_reqs[--w->nr_free];

			t = worker_now(w);
			res = next_request_full(w, r, t);
			if (res <= 0) {
				w->free_reqs[w->nr_free++] = r;
				if (res == REQ_WAIT)
					until = w->rate_wait_ns;
				else
					more = false;
				break;
			}
			if (r->ddir >= DDIR_SYNC)
				r->file = &w->files[w->cur_file];
			w->depth_hist[depth_bucket(w->inflight + 1)]++;
			o->gen_ns[r->index] = t;
			pthread_mutex_lock(&o->lock);
			tail = (o->q_head + o->q_nr) % w->depth;
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
		if (w->deadline_ns && t >= w->deadline_ns && !w->in_ramp)
			more = false;
	}
	w->end_ns = t;
}

/* What an engine instance of this worker is set up with: its requests, buffers and files. */
static struct engine_params engine_params_of(const struct worker *w)
{
	const struct job_spec *job = w->job;

	return (struct engine_params){
		.opts = job->engine_opts,
		.iodepth = w->depth,
		.reqs = w->reqs,
		.nr_reqs = w->depth,
		.buf_base = w->buf_base,
		.buf_len = w->buf_len,
		.buf_size = w->buf_size,
		.files = w->files,
		.nr_files = w->nr_files,
		.direct = job->direct,
		.writes = job_changes_files(job),
		.advise = job_fadvise(job),
	};
}

static int offload_start(struct offload *o, struct worker *w)
{
	const struct job_spec *job = w->job;
	const struct engine_ops *ops = job->engine;
	/* sized as the worker's own: engines index their per-request state by request */
	struct engine_params p = engine_params_of(w);
	pthread_condattr_t ca;
	unsigned i;
	int ret = 0;

	o->w = w;
	o->params = &p;
	pthread_mutex_init(&o->lock, NULL);
	pthread_cond_init(&o->work, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&o->done, &ca);
	pthread_condattr_destroy(&ca);
	o->queue = calloc(w->depth, sizeof(*o->queue));
	o->fin = calloc(w->depth, sizeof(*o->fin));
	o->gen_ns = calloc(w->depth, sizeof(*o->gen_ns));
	o->done_ns = calloc(w->depth, sizeof(*o->done_ns));
	o->slots = calloc(w->depth, sizeof(*o->slots));
	if (!o->queue || !o->fin || !o->gen_ns || !o->done_ns || !o->slots) {
		worker_fail(w, ENOMEM, "io_submit_mode=offload: out of memory");
		return -ENOMEM;
	}
	for (i = 0; i < w->depth; i++) {
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

		for (i = 0; i < w->depth; i++)
			started += o->slots[i].started;
		if (o->nr_set_up >= started)
			break;
		pthread_cond_wait(&o->done, &o->lock);
	}
	for (i = 0; i < w->depth && !ret; i++)
		ret = o->slots[i].started ? o->slots[i].ret : 0;
	pthread_mutex_unlock(&o->lock);
	o->params = NULL;
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
	for (i = 0; o->slots && i < w->depth; i++) {
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

static void __attribute__((noinline)) io_loop_offload(struct worker *w)
{
	struct offload o = { 0 };
	struct io_req **got = calloc(w->depth, sizeof(*got));

	if (!got)
		worker_fail(w, ENOMEM, "io_submit_mode=offload: out of memory");
	else if (!offload_start(&o, w))
		offload_run(&o, got);
	if (o.slots || o.queue)
		offload_stop(&o);
	free(got);
}

/*
 * A file-operation engine (filecreate, filestat, filedelete): each file's operation (the
 * engine's open_file) is timed as a completion latency of the job's direction, once per pass,
 * when the file gets its first block of the pass.
 */
static bool fileop_open(struct worker *w, struct io_file *f, unsigned i, unsigned sd)
{
	const struct job_spec *job = w->job;
	const struct engine_ops *ops = w->eng.ops;
	uint64_t t0, t1;
	int ret;

	w->eng.err[0] = '\0';
	t0 = worker_now(w);
	ret = ops->open_file(&w->eng, f);
	t1 = worker_now(w);
	if (ret) {
		worker_fail(w, -ret, "engine %s: %s", ops->name,
			    w->eng.err[0] ? w->eng.err : strerror(-ret));
		return false;
	}
	if (!job->disable_lat)		/* fio: disable_clat does not stop these */
		lat_add(&w->st[sd].clat, t1 - t0);
	/* after the timing: a file this job created is iopath's, one it removed leaves no mark */
	if (f->fd >= 0 && w->plan->file_missing && w->plan->file_missing[plan_path(w->plan, w->clone, i)])
		target_mark_owned(f->fd, f->path);
	if (ops->flags & ENGINE_REMOVES)
		target_remove(f->path);
	if (ops->close_file)
		ops->close_file(&w->eng, f);
	if (t1 >= w->next_sample_ns)
		take_sample(w, t1);
	return true;
}

/* Stop the loop? (a signal, exitall, the runtime) */
static bool fileop_stop(struct worker *w, uint64_t *left)
{
	uint64_t t = worker_now(w);

	if (run_stop_requested()) {
		w->aborted = w->interrupted = true;
		return true;
	}
	if (atomic_load_explicit(&w->terminate, memory_order_relaxed) ||
	    (w->deadline_ns && t >= w->deadline_ns)) {
		*left = 0;
		return true;
	}
	return false;
}

/*
 * Passes over the files, one block of each file in turn (fio's round robin), every block an
 * I/O neither submitted nor timed (fio's FAKEIO and NOSTATS), each file's operation timed when
 * it gets its first block of the pass: a size below the files' total spreads over all of them.
 */
static void __attribute__((noinline)) io_loop_fileop(struct worker *w)
{
	const struct job_spec *job = w->job;
	unsigned sd = job_reads(job->rw) ? STAT_READ : STAT_WRITE, i, d;
	uint32_t bs = job->bs[sd == STAT_READ ? DDIR_READ : DDIR_WRITE];
	uint64_t left = job->time_based ? UINT64_MAX : w->bytes_target;
	uint64_t *rest = calloc(w->nr_files ? w->nr_files : 1, sizeof(*rest));
	bool any, moved, mixed = job_reads(job->rw) && job_writes(job->rw);

	if (!rest) {
		worker_fail(w, ENOMEM, "out of memory for %u files", w->nr_files);
		w->end_ns = worker_now(w);
		return;
	}
	while (left >= bs && !w->aborted) {
		for (i = 0; i < w->nr_files; i++)
			rest[i] = w->files[i].len;
		moved = false;
		do {
			any = false;
			for (i = 0; i < w->nr_files && left >= bs && !w->aborted; i++) {
				if (rest[i] < bs)
					continue;
				if (rest[i] == w->files[i].len) {
					if (fileop_stop(w, &left) || !fileop_open(w, &w->files[i], i, sd))
						break;
				}
				d = mixed ? stat_dir(pick_dir(w)) : sd;
				w->st[d].ios++;
				w->st[d].bytes += bs;
				w->depth_hist[depth_bucket(1)]++;
				rest[i] -= bs;
				left -= bs;
				any = moved = true;
			}
			atomic_store_explicit(&w->progress_bytes,
					      w->st[STAT_READ].bytes + w->st[STAT_WRITE].bytes,
					      memory_order_relaxed);
			atomic_store_explicit(&w->progress_ios,
					      w->st[STAT_READ].ios + w->st[STAT_WRITE].ios,
					      memory_order_relaxed);
		} while (any && left >= bs && !w->aborted);
		if (!moved)
			break;		/* no file holds a whole block */
	}
	free(rest);
	w->end_ns = worker_now(w);
}

static void io_loop(struct worker *w)
{
	const struct job_spec *job = w->job;

	if (job->engine->flags & ENGINE_FILE_OP)
		io_loop_fileop(w);
	else if (job->submit_offload)
		io_loop_offload(w);
	else if (job->disable_lat || job->disable_clat || job->disable_slat)
		w->full ? io_loop_reduced(w) : io_loop_plain_reduced(w);
	else if (w->full)
		io_loop_full(w);
	else
		io_loop_plain(w);
	/* a reap failure can leave the loop with reads still being checked */
	if (w->vfy)
		vfy_drain(w);
}

#define HUGE_ALIGN (2ul << 20)

/*
 * One mapping holds every request buffer of the worker. With huge pages wanted and a pool of
 * at least 2 MiB it starts on a 2 MiB boundary and is advised MADV_HUGEPAGE: a large request
 * then lies in physically contiguous memory, which the block layer passes on as one segment
 * instead of one per 4 KiB page (fewer split requests, less pinning work per I/O).
 */
static int map_buffers(struct worker *w, bool huge)
{
	size_t len = w->buf_len;
	uintptr_t base;

	huge = huge && len >= HUGE_ALIGN;
	if (huge)
		len += HUGE_ALIGN;
	w->buf_map = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (w->buf_map == MAP_FAILED) {
		w->buf_map = NULL;
		return -ENOMEM;
	}
	w->buf_map_len = len;
	base = (uintptr_t)w->buf_map;
	if (huge)
		base = (base + HUGE_ALIGN - 1) & ~(HUGE_ALIGN - 1);
	w->buf_base = (void *)base;
	w->buf_huge = huge && !madvise(w->buf_base, w->buf_len, MADV_HUGEPAGE);
	return 0;
}

static int setup_buffers(struct worker *w)
{
	const struct job_spec *job = w->job;
	unsigned i;
	int ret;
	size_t sz = ((size_t)w->plan->max_bs + BUF_ALIGN - 1) / BUF_ALIGN * BUF_ALIGN;

	w->depth = job->iodepth;
	w->buf_size = sz;
	w->buf_len = sz * w->depth;
	ret = map_buffers(w, job->mem == MEM_THP);
	if (ret)
		return ret;
	w->reqs = calloc(w->depth, sizeof(*w->reqs));
	w->free_reqs = calloc(w->depth, sizeof(*w->free_reqs));
	w->batch = calloc(w->depth, sizeof(*w->batch));
	w->done = calloc(w->depth, sizeof(*w->done));
	w->st = calloc(STAT_NR, sizeof(*w->st));
	if (!w->reqs || !w->free_reqs || !w->batch || !w->done || !w->st)
		return -ENOMEM;
	if (job->rw == RW_COPY) {
		w->copy_ready = calloc(w->depth, sizeof(*w->copy_ready));
		if (!w->copy_ready)
			return -ENOMEM;
	}
	buf_fill(job, &w->buf_rng, w->buf_base, w->buf_len);
	for (i = 0; i < w->depth; i++) {
		w->reqs[i].index = i;
		w->reqs[i].buf = (char *)w->buf_base + (size_t)i * sz;
		w->free_reqs[w->depth - 1 - i] = &w->reqs[i];
	}
	w->nr_free = w->depth;
	return 0;
}

/* The region of file f (plan path p) this worker uses: filesize, offset_increment... */
static int file_region(struct worker *w, struct io_file *f, unsigned p)
{
	const struct job_plan *plan = w->plan;
	const struct job_spec *job = w->job;

	f->len = plan->file_len[p];
	if (job->size || job->filesize_range[0] || !plan->file_have[p] ||
	    f->start + f->len <= plan->file_have[p])
		return 0;
	/* no size given: the file's own end bounds this worker's region */
	f->len = plan->file_have[p] > f->start ? plan->file_have[p] - f->start : 0;
	f->len = f->len / plan->unit * plan->unit;
	if (f->len >= plan->max_bs)
		return 0;
	worker_fail(w, EINVAL, "%s: offset %llu leaves less than bs=%u before the end of the file",
		    f->path, (unsigned long long)f->start, plan->max_bs);
	return -EINVAL;
}

/* fio's real_file_size: the file's size when larger than what the job lays out in it. */
static uint64_t file_end(const struct worker *w, const struct io_file *f, unsigned p)
{
	uint64_t have = w->plan->file_have ? w->plan->file_have[p] : 0;

	return have > f->start + f->len ? have : f->start + f->len;
}

/*
 * zonemode=zbd: the worker's region of file i becomes whole zones when it writes (as fio's
 * zbd_verify_sizes), and a writing worker starts its zones as fio's zbd_file_reset does.
 */
static int setup_zbd(struct worker *w, unsigned i, struct zbd_dev *dev)
{
	const struct job_spec *job = w->job;
	struct io_file *f = &w->files[i];
	bool writes = job_writes(job->rw);
	char why[96];
	int ret;

	if (!w->zbd) {
		w->zbd = calloc(w->nr_files, sizeof(*w->zbd));
		if (!w->zbd) {
			worker_fail(w, ENOMEM, "zonemode=zbd: out of memory");
			return -ENOMEM;
		}
	}
	ret = zbd_view_init(&w->zbd[i], dev, f->start, f->len, writes, why, sizeof(why));
	if (ret) {
		worker_fail(w, -ret, "%s: zonemode=zbd: %s (zonesize %llu)", f->path, why,
			    (unsigned long long)dev->zone_size);
		return ret;
	}
	if (w->zbd[i].lo != f->start || w->zbd[i].hi != f->start + f->len) {
		/* the bytes it moves shrink with the region, as fio's io_size does */
		uint64_t cut = (f->len - (w->zbd[i].hi - w->zbd[i].lo)) * w->target_loops;

		if (!job->io_size)
			w->bytes_target = w->bytes_target > cut ? w->bytes_target - cut : 0;
		f->start = w->zbd[i].lo;
		f->len = w->zbd[i].hi - w->zbd[i].lo;
	}
	if (writes)
		zbd_job_start(&w->zbd[i], job, &w->zown);
	return 0;
}

int worker_alloc_files(struct worker *w, unsigned n)
{
	unsigned i;

	w->files = calloc(n, sizeof(*w->files));
	w->gens = calloc(n, sizeof(*w->gens));
	w->nlink_at_open = calloc(n, sizeof(*w->nlink_at_open));
	w->written = calloc(n, sizeof(*w->written));
	if (!w->files || !w->gens || !w->nlink_at_open || !w->written)
		return -ENOMEM;
	w->nr_files = n;
	for (i = 0; i < n; i++)
		w->files[i].fd = -1;
	return 0;
}

static int setup_files(struct worker *w)
{
	const struct job_plan *plan = w->plan;
	const struct job_spec *job = w->job;
	bool diskless = job->engine->flags & ENGINE_DISKLESS;
	bool writes = job_changes_files(job);
	struct iop_err err;
	struct stat st;
	uint64_t seed = job->randseed_set ? job->randseed : 0x5eed;
	unsigned i;
	int ret;

	ret = worker_alloc_files(w, plan->nr_files + (job->rw == RW_COPY));
	if (ret) {
		worker_fail(w, ENOMEM, "out of memory for the tables of %u files",
			    plan->nr_files + (job->rw == RW_COPY));
		return ret;
	}
	for (i = 0; i < w->nr_files; i++) {
		struct io_file *f = &w->files[i];

		if (job->rw == RW_COPY && i == COPY_SRC) {
			f->path = plan->copy_src;
			f->read_only = true;
		} else {
			f->path = plan->paths[plan_path(plan, w->clone, i)];
		}
		f->index = i;
		f->start = worker_start(plan, w->clone);
		f->len = plan->region;
		if (plan->file_len) {
			ret = file_region(w, f, plan_path(plan, w->clone, i));
			if (ret)
				return ret;
		}
		if (plan->zbd) {
			ret = setup_zbd(w, i, plan->zbd[plan_path(plan, w->clone, i)]);
			if (ret)
				return ret;
		}
		gen_init(&w->gens[i], f->len, plan->align, !job->norandommap || job->rand_lfsr,
			 seed + w->clone * 7919u + i);
		w->gens[i].start = w->gens[i].origin = f->start;
		w->gens[i].real = file_end(w, f, plan_path(plan, w->clone, i));
		if (job->verify != VERIFY_NONE && writes) {
			w->written[i] = calloc(f->len / plan->unit / 8 + 1, 1);
			if (!w->written[i])
				return -ENOMEM;
		}
		if (diskless || (job->engine->flags & ENGINE_FILE_OP))
			continue;	/* a file-operation engine's operation is its open */
		f->fd = file_open(job, f->path, writes && !f->read_only, &err);
		if (f->fd < 0) {
			worker_fail(w, -f->fd, "engine %s: %s", job->engine->name, err.msg);
			return f->fd;
		}
		if (job->file_append) {
			/* appends start at the file's end, whatever it holds already */
			if (fstat(f->fd, &st)) {
				worker_fail(w, errno, "%s: %s", f->path, strerror(errno));
				return -errno;
			}
			f->start = (uint64_t)st.st_size + plan->offset;
		}
		if (job->invalidate)
			file_invalidate(f->fd, f->start, f->len);
		file_advise(f->fd, f->start, f->len, job_fadvise(job));
		if (!fstat(f->fd, &st))
			w->nlink_at_open[i] = st.st_nlink > 0;
	}
	return 0;
}

/*
 * pre_read: read each file's region once, before the timed run, so it starts from the page
 * cache, as fio's pre_read_files (read() in chunks of the largest block). Engines without
 * file descriptors (null) and character devices have no cache to fill: skipped.
 */
static int pre_read_files(struct worker *w)
{
	size_t bs = w->plan->max_bs;
	unsigned i;
	char *b;

	if (!w->job->pre_read)
		return 0;
	b = malloc(bs);
	if (!b) {
		worker_fail(w, ENOMEM, "pre_read: out of memory");
		return -ENOMEM;
	}
	for (i = 0; i < w->nr_files && !run_terminated(w); i++) {
		const struct io_file *f = &w->files[i];
		uint64_t pos = f->start, end = f->start + f->len;
		struct stat st;

		if (f->fd < 0 || fstat(f->fd, &st) || S_ISCHR(st.st_mode))
			continue;
		while (pos < end && !run_terminated(w)) {
			size_t n = end - pos < bs ? (size_t)(end - pos) : bs;
			ssize_t r = pread(f->fd, b, n, (off_t)pos);

			if (r <= 0) {
				int e = r < 0 ? errno : EIO;

				worker_fail(w, e, "pre_read %s at %llu: %s", f->path,
					    (unsigned long long)pos, r < 0 ? strerror(e) : "end of file");
				free(b);
				return -e;
			}
			pos += (uint64_t)r;
		}
	}
	free(b);
	return 0;
}

static int setup_engine(struct worker *w)
{
	const struct job_spec *job = w->job;
	const struct engine_ops *ops = job->engine;
	struct engine_params p = engine_params_of(w);
	unsigned i;
	int ret;

	w->eng.ops = ops;
	ret = ops->init(&w->eng, &p);
	if (ret) {
		worker_fail(w, -ret, "engine %s: %s", ops->name,
			    w->eng.err[0] ? w->eng.err : strerror(-ret));
		return ret;
	}
	w->eng_ready = true;
	for (i = 0; ops->open_file && !(ops->flags & ENGINE_FILE_OP) && i < w->nr_files; i++) {
		ret = ops->open_file(&w->eng, &w->files[i]);
		if (ret) {
			worker_fail(w, -ret, "engine %s: %s: %s", ops->name, w->files[i].path,
				    w->eng.err[0] ? w->eng.err : strerror(-ret));
			return ret;
		}
	}
	return 0;
}

static int setup_zones(struct worker *w, unsigned d)
{
	const struct job_spec *job = w->job;
	struct zoned *z = &w->zoned[d];
	uint64_t at = 0;
	unsigned i, k, v = 0;

	z->nr = job->nr_zones[d];
	z->absolute = job->random_distribution == DIST_ZONED_ABS;
	for (i = 0; i < z->nr; i++) {
		const struct zone_split *zs = &job->zones[d][i];

		z->lo[i] = at;
		at += z->absolute ? zs->size : zs->size_perc;
		z->hi[i] = at;
		for (k = 0; k < zs->access && v < 100; k++)
			z->pick[v++] = (uint8_t)i;
	}
	for (i = 0; z->absolute && z->nr && i < w->nr_files; i++) {
		if (at > w->files[i].len) {
			worker_fail(w, EINVAL, "random_distribution=zoned_abs: the zones (%llu bytes) exceed the %llu bytes of %s",
				    (unsigned long long)at, (unsigned long long)w->files[i].len,
				    w->files[i].path);
			return -EINVAL;
		}
	}
	return 0;
}

/* random_distribution: zipf/pareto/normal generators per file, or the zone tables. */
static int setup_distribution(struct worker *w, uint64_t seed)
{
	const struct job_spec *job = w->job;
	unsigned i;
	int ret;

	rng_seed(&w->zone_rng, seed ^ 0x2011eull);
	if (job->random_distribution == DIST_ZONED || job->random_distribution == DIST_ZONED_ABS) {
		w->zoned = calloc(2, sizeof(*w->zoned));
		if (!w->zoned) {
			worker_fail(w, ENOMEM, "random_distribution: out of memory");
			return -ENOMEM;
		}
		for (i = 0; i < 2; i++) {
			ret = setup_zones(w, i);
			if (ret)
				return ret;
		}
		return 0;
	}
	w->fdist = calloc(w->nr_files, sizeof(*w->fdist));
	if (!w->fdist) {
		worker_fail(w, ENOMEM, "random_distribution: out of memory");
		return -ENOMEM;
	}
	for (i = 0; i < w->nr_files; i++) {
		ret = dist_init(&w->fdist[i], job->random_distribution, w->gens[i].nblocks,
				job->dist_arg, job->dist_center, true, seed ^ (0xf00dull * (i + 1)));
		if (ret) {
			worker_fail(w, -ret, "random_distribution: bad value %g", job->dist_arg);
			return ret;
		}
	}
	return 0;
}

/* a * b, or UINT64_MAX when it does not fit: a target that large ends on runtime, not on bytes */
static uint64_t mul_sat(uint64_t a, uint64_t b)
{
	uint64_t r;

	return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
}

/*
 * Decide, once, which per-I/O options this worker needs, and set up their state. A job
 * that needs none runs the plain loop.
 */
static int setup_options(struct worker *w, uint64_t seed)
{
	const struct job_spec *job = w->job;
	static const enum rand_dist fsvc_dist[] = {
		[FSVC_ZIPF] = DIST_ZIPF, [FSVC_PARETO] = DIST_PARETO, [FSVC_NORMAL] = DIST_NORMAL,
	};
	unsigned d;
	int ret;

	for (d = 0; d < 2; d++) {
		bs_gen_init(&w->bsg[d], job, d);
		if (w->bsg[d].min != w->bsg[d].max)
			w->full = true;
	}
	rng_seed(&w->bs_rng, seed ^ 0xb5b5b5b5ull);
	rng_seed(&w->file_rng, seed ^ 0xf1f1f1f1ull);
	if (job->file_service != FSVC_ROUNDROBIN || job->file_service_nr > 1)
		w->full = true;
	/* the first pick moves to file 0 */
	w->cur_file = w->nr_files - 1;
	if (job->file_service == FSVC_SEQUENTIAL) {
		w->cur_file = 0;
		w->file_left = w->files[0].len;
	}
	w->qd_cap = w->depth;
	/* iodepth_low below iodepth: the full loop drains a full queue down to it */
	if (job->iodepth_low && job->iodepth_low < w->depth &&
	    !(job->engine->flags & ENGINE_SYNC)) {
		w->depth_low = job->iodepth_low;
		w->full = true;
	}
	if (job->latency_target_ns) {
		/* fio's lat_target_init: from depth 1 up, bounded by iodepth */
		w->lat_on = w->full = true;
		w->qd_cap = 1;
		w->lat_qd_low = 1;
		w->lat_qd_high = w->depth;
	}
	w->seq_step = job->seq_add || (job_rw_random(job->rw) && job->seq_nr > 1) ||
		      job->zone_strided;
	if (job->zone_strided)
		gen_init(&w->zone_gen, job->zone_range, w->plan->align,
			 !job->norandommap || job->rand_lfsr,
			 seed ^ 0x20e5ull);
	w->seq_left = 1;	/* as in fio, the first I/O of rw=randread:N is a random one */
	w->passes_left = job->loops - 1;
	/* fio: number_ios counts every I/O issued, over all loops; time_based ignores it */
	w->ios_limit = job->time_based ? 0 : mul_sat(job->number_ios, w->target_loops);
	if (job->verify_backlog && job->do_verify && job_writes_data(job->rw) && job->rw != RW_COPY) {
		w->backlog = calloc(job->verify_backlog, sizeof(*w->backlog));
		if (!w->backlog) {
			worker_fail(w, ENOMEM, "verify_backlog: out of memory");
			return -ENOMEM;
		}
		w->full = true;
	}
	if (w->ios_limit)
		w->full = true;
	if (w->seq_step)
		w->full = true;
	if (job->random_distribution != DIST_RANDOM) {
		ret = setup_distribution(w, seed);
		if (ret)
			return ret;
		w->full = true;
	}
	for (d = 0; d < 2; d++) {
		uint64_t bps = job->rate[d] ? job->rate[d] : job->rate_iops[d] * w->bsg[d].min;

		rate_init(&w->rate[d], bps, w->bsg[d].min, job->rate_poisson, 0, seed ^ (0x9a7eull + d));
		w->rated |= bps != 0;
		w->ratemin |= job->rate_min[d] || job->rate_iops_min[d];
	}
	w->think_blocks_given = job->thinktime_blocks_given;
	/* completions are counted only for what reads the counts */
	w->count_done = w->ratemin || (job->thinktime_ns && !job->thinktime_issue);
	w->hist_lat = job->lat_percentiles && !job->disable_lat;
	w->hist_slat = job->slat_percentiles && !job->disable_slat;
	if (w->hist_lat || w->hist_slat)
		w->full = true;
	if (iolog_wanted(job)) {
		w->logs = calloc(1, sizeof(*w->logs));
		if (!w->logs) {
			worker_fail(w, ENOMEM, "logs: out of memory");
			return -ENOMEM;
		}
		w->full = true;
	}
	if (w->rated || w->ratemin || job->thinktime_ns)
		w->full = true;
	w->stamp_submit = job_stamps_submit(job, job->engine->flags & ENGINE_SYNC) || w->logs;
	w->scramble = job->scramble_buffers && !job->zero_buffers && !job->refill_buffers &&
		      !job->buffer_compress_percentage && !job->dedupe_percentage &&
		      job->verify == VERIFY_NONE;
	rng_seed(&w->dedupe_rng, seed ^ 0xdedeull);
	if (job->dedupe_percentage && job->dedupe_working_set && job_writes(job->rw)) {
		/* one base for the run, so that workers can draw each other's buffers */
		ret = setup_dedupe_ws(w, (job->randseed_set ? job->randseed : 0x10ba7) ^ 0xdede5e7ull);
		if (ret)
			return ret;
	}
	if (job->file_service >= FSVC_ZIPF) {
		ret = dist_init(&w->file_dist, fsvc_dist[job->file_service],
				(uint64_t)w->nr_files << FSVC_DIST_SHIFT, job->file_service_arg, -1.0,
				false, seed ^ 0xd15ull);
		if (ret) {
			worker_fail(w, -ret, "file_service_type: bad distribution value %g",
				    job->file_service_arg);
			return ret;
		}
	}
	return 0;
}

/*
 * Bytes a worker moves, as fio counts them: each of the loops passes moves min(size,
 * io_size); when io_size is larger than that, fio then keeps going in passes of size until
 * io_size is reached (one loop stops on io_size exactly, several end on a whole pass).
 */
uint64_t io_target(uint64_t size, uint64_t io_size, unsigned loops)
{
	uint64_t done;

	if (!io_size)
		return mul_sat(size, loops);
	done = mul_sat(io_size < size ? io_size : size, loops);
	if (done >= io_size)
		return done;
	if (loops == 1)
		return io_size;
	return (io_size + size - 1) / size * size;
}

/* end_fsync: part of the job's runtime (as in fio), each flush counted as a sync. */
static void end_fsync(struct worker *w)
{
	uint64_t t0, t1;
	unsigned i;

	for (i = 0; i < w->nr_files; i++) {
		if (w->files[i].fd < 0 || w->files[i].read_only)
			continue;
		t0 = worker_now(w);
		if (fsync(w->files[i].fd)) {
			worker_fail(w, errno, "end_fsync %s: %s", w->files[i].path, strerror(errno));
			return;
		}
		t1 = worker_now(w);
		w->st[STAT_SYNC].ios++;
		lat_add(&w->st[STAT_SYNC].clat, t1 - t0);
		lat_add_summary(&w->st[STAT_SYNC].lat, t1 - t0);
		w->end_ns = t1;
	}
}

/*
 * rw=copy with verify: read both files back from storage (caches dropped first) and compare
 * their crc32c and sizes. Outside the timed interval, like fio's verify phase.
 */
static void copy_verify(struct worker *w)
{
	const size_t chunk = 1u << 20;
	struct copy_check *c = &w->copy;
	unsigned char *buf = malloc(chunk);
	uint32_t crc[2] = { 0, 0 };
	unsigned k;

	if (!buf) {
		worker_fail(w, ENOMEM, "copy verify: out of memory");
		return;
	}
	for (k = 0; k < 2; k++) {
		const char *path = w->files[k ? COPY_SRC : COPY_DST].path;
		uint64_t off = 0;
		int fd = open(path, O_RDONLY | O_CLOEXEC);

		if (fd < 0) {
			worker_fail(w, errno, "copy verify: open %s: %s", path, strerror(errno));
			goto out;
		}
		posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
		while (off < c->bytes) {
			size_t want = c->bytes - off < chunk ? (size_t)(c->bytes - off) : chunk;
			ssize_t n = pread(fd, buf, want, (off_t)off);

			if (n <= 0) {
				if (n < 0 || k)
					worker_fail(w, n ? errno : EIO, "copy verify: read %s at offset %llu: %s",
						    path, (unsigned long long)off,
						    n ? strerror(errno) : "unexpected end of file");
				break;
			}
			crc[k] = crc32c(crc[k], buf, (uint64_t)n);
			off += (uint64_t)n;
		}
		close(fd);
	}
	c->checked = true;
	c->crc_dst = crc[0];
	c->crc_src = crc[1];
	c->match = c->crc_dst == c->crc_src && c->dst_size == c->bytes;
	if (!c->match)
		worker_fail(w, EILSEQ,
			    "copy verify: %s (%llu bytes, crc32c %08x) differs from %s (%llu bytes, crc32c %08x)",
			    w->files[COPY_DST].path, (unsigned long long)c->dst_size, c->crc_dst,
			    w->files[COPY_SRC].path, (unsigned long long)c->bytes, c->crc_src);
out:
	free(buf);
}

static void copy_finish(struct worker *w)
{
	struct stat st;

	w->copy.bytes = w->plan->region;
	if (!fstat(w->files[COPY_DST].fd, &st))
		w->copy.dst_size = S_ISREG(st.st_mode) ? (uint64_t)st.st_size : w->plan->region;
	if (!w->aborted && w->job->verify != VERIFY_NONE)
		copy_verify(w);
}

/* Append the worker's logs to their files (created empty by the runner). */
static void write_logs(struct worker *w)
{
	const struct job_spec *job = w->job;
	char path[PATH_MAX];
	unsigned k;
	int ret;

	iologs_finish(w->logs, w->end_ns);
	if (w->logs->error) {
		worker_fail(w, -w->logs->error, "logs: out of memory for log entries");
		return;
	}
	for (k = 0; k < LOG_KINDS; k++) {
		if (!w->logs->want[k])
			continue;
		ret = iolog_path(job, worker_thread_number(w->plan, w->clone), k, path,
				 sizeof(path));
		if (!ret)
			ret = iolog_append(&w->logs->log[k], path, job->log_offset);
		if (ret) {
			worker_fail(w, -ret, "log %s: %s", path, strerror(-ret));
			return;
		}
	}
}

/*
 * cpus_allowed, cpumask: this worker thread's CPUs, before anything is allocated. Under
 * cpus_allowed_policy=split the worker keeps one CPU of the set, chosen as fio's
 * fio_cpus_split does, by its thread number over the whole run.
 */
static int setup_cpus(struct worker *w)
{
	const struct job_spec *job = w->job;
	uint64_t set[JOB_CPUS_MAX / 64];
	cpu_set_t cs;
	unsigned c;
	int ret;

	if (!job->cpus_given)
		return 0;
	memcpy(set, job->cpus_allowed, sizeof(set));
	if (job->cpus_split)
		iop_cpus_split(set, worker_thread_number(w->plan, w->clone) - 1);
	CPU_ZERO(&cs);
	for (c = 0; c < JOB_CPUS_MAX && c < CPU_SETSIZE; c++)
		if (cpu_in(set, c))
			CPU_SET(c, &cs);
	ret = pthread_setaffinity_np(pthread_self(), sizeof(cs), &cs);
	if (ret) {
		char list[128];

		iop_cpus_format(set, list, sizeof(list));
		worker_fail(w, ret, "cpus_allowed: cannot run on CPUs %s: %s", list, strerror(ret));
		return -ret;
	}
	return 0;
}

/* The CPUs the thread runs on after cpus_allowed and numa_cpu_nodes, for the result. */
static void note_cpus(struct worker *w)
{
	cpu_set_t cs;
	unsigned c;

	if (!w->job->cpus_given && !w->job->numa_cpu_nodes[0])
		return;
	if (pthread_getaffinity_np(pthread_self(), sizeof(cs), &cs))
		return;
	memset(w->cpus_applied, 0, sizeof(w->cpus_applied));
	for (c = 0; c < JOB_CPUS_MAX && c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &cs))
			cpu_add(w->cpus_applied, c);
	w->cpus_pinned = true;
}

/*
 * prio, prioclass, nice: this worker thread's I/O priority and nice value, after its CPUs as
 * in fio's thread_main. Both calls name the thread (Linux applies them per thread), so one
 * job's setting leaves the run's other threads as they were, as fio's processes are.
 */
static int setup_priority(struct worker *w)
{
	const struct job_spec *job = w->job;
	pid_t tid = (pid_t)syscall(SYS_gettid);
	int cur;

	if (job->ioprio_given) {
		/* fio's ioprio_set: no class (0) is best-effort */
		unsigned cls = job->ioprio_class ? job->ioprio_class : 2;

		if (syscall(SYS_ioprio_set, 1 /* IOPRIO_WHO_PROCESS */, tid,
			    (int)(cls << 13 | job->ioprio))) {
			int e = errno;

			worker_fail(w, e, "prio=%u prioclass=%u: ioprio_set: %s", job->ioprio,
				    job->ioprio_class, strerror(e));
			return -e;
		}
	}
	if (job->nice) {
		errno = 0;
		cur = getpriority(PRIO_PROCESS, (id_t)tid);
		if ((cur == -1 && errno) || setpriority(PRIO_PROCESS, (id_t)tid, cur + job->nice)) {
			int e = errno;

			worker_fail(w, e, "nice=%d: setpriority: %s", job->nice, strerror(e));
			return -e;
		}
	}
	return 0;
}

/* numa_cpu_nodes, numa_mem_policy: this worker thread's CPUs and memory policy. */
static int setup_numa(struct worker *w)
{
	const struct job_spec *job = w->job;
	int ret;

	if (job->numa_cpu_nodes[0]) {
		ret = numa_bind_cpus(job->numa_cpu_nodes);
		if (ret) {
			worker_fail(w, -ret, "numa_cpu_nodes=%s: %s", job->numa_cpu_nodes,
				    strerror(-ret));
			return ret;
		}
	}
	ret = numa_set_policy((enum numa_mode)job->numa_mem_mode, job->numa_mem_nodes);
	if (ret)
		worker_fail(w, -ret, "numa_mem_policy: %s", strerror(-ret));
	return ret;
}

/*
 * A verify job whose sequence ran off the file before moving its size (rw=write:112k...):
 * fio's keep_running starts another round, a write pass and its verify, while the bytes
 * written and read stay at least a block short of io_size (or size). Without verify fio
 * finds its files done and stops, as iopath does. true when a new round is set up.
 */
static bool verify_round_again(struct worker *w)
{
	const struct job_spec *job = w->job;
	const struct job_plan *plan = w->plan;
	uint64_t limit, done = w->st[STAT_READ].bytes + w->st[STAT_WRITE].bytes;
	unsigned i;

	if (w->aborted || run_terminated(w) || job->verify == VERIFY_NONE)
		return false;
	if (w->loops_left) {
		/* the next loop: a fresh pass over the files, then its own verify */
		w->loops_left--;
		w->issued_ios = 0;
	} else {
		if (!w->seq_ran_off)
			return false;
		limit = job->io_size ? job->io_size : plan_worker_bytes(plan, w->clone);
		if (done >= limit || limit - done < plan->max_bs)
			return false;
	}
	w->seq_ran_off = false;
	w->verifying = false;
	w->verify_file = 0;
	w->verify_pos = 0;
	w->bytes_issued = 0;
	w->zone_bytes = 0;
	/* the verify pass has read back what the backlog still held */
	w->backlog_head = w->backlog_nr = w->backlog_left = 0;
	for (i = 0; i < w->nr_files; i++) {
		gen_rewind(&w->gens[i]);
		if (w->written[i])
			memset(w->written[i], 0, w->files[i].len / plan->unit / 8 + 1);
	}
	return true;
}

/*
 * A phase of the job ended at w->end_ns (from: its start): its time counts for the
 * directions it did, as fio's update_runtime counts it. An I/O phase counts for the
 * directions the job does (reads also for verify_backlog's); the verify pass only for reads.
 */
static void phase_done(struct worker *w, uint64_t from, bool verify)
{
	const struct job_spec *job = w->job;
	uint64_t span;
	unsigned d;

	/* ramp_time (or latency_target's final window) began the measured time within it */
	if (w->start_ns > from)
		from = w->start_ns;
	span = w->end_ns > from ? w->end_ns - from : 0;
	if (verify) {
		w->dir_ns[STAT_READ] += span;
		return;
	}
	for (d = 0; d < STAT_NR; d++) {
		if (!w->st[d].ios || (d == STAT_READ && !job_reads(job->rw) && !w->backlog) ||
		    (d == STAT_WRITE && !job_writes(job->rw)))
			continue;
		w->dir_ns[d] += span;
	}
}

/* An I/O phase and, as in fio's do_io, its end_fsync. */
static void io_phase(struct worker *w, uint64_t from)
{
	io_loop(w);
	if (!w->aborted && w->job->end_fsync && job_writes_data(w->job->rw))
		end_fsync(w);
	phase_done(w, from, false);
}

/* pick_dir's answer for a job of one direction, decided once; trims take the write's. */
static void set_dir(struct worker *w)
{
	switch (w->job->rw) {
	case RW_READ:
	case RW_RANDREAD:
		w->fixed_dir = DDIR_READ;
		break;
	case RW_WRITE:
	case RW_RANDWRITE:
	case RW_TRIM:
	case RW_RANDTRIM:
	case RW_TRIMWRITE:
	case RW_RANDTRIMWRITE:
		w->fixed_dir = DDIR_WRITE;
		break;
	default:
		w->mixed = true;
		break;
	}
}

void *worker_main(void *arg)
{
	struct worker *w = arg;
	const struct job_spec *job = w->job;
	uint64_t seed = job->randseed_set ? job->randseed : 0x10ba7;
	unsigned i;
	int ret;

	if (!job->randrepeat && !job->randseed_set)
		seed ^= now_ns();
	rng_seed(&w->rng, seed + w->clone);
	rng_seed(&w->buf_rng, seed * 31 + w->clone);
	w->check_reads = job->verify != VERIFY_NONE && job->do_verify && job->rw != RW_COPY;
	w->job_writes = job_writes(job->rw);
	w->trims = job_trims(job->rw);
	w->trimwrite = job->rw == RW_TRIMWRITE || job->rw == RW_RANDTRIMWRITE;
	set_dir(w);
	/*
	 * fio verifies after every loop (thread_main: do_io, then do_verify, loops times): a
	 * writing job with verify runs its loops as rounds of one pass and its verify
	 */
	w->target_loops = job->loops;
	if (w->check_reads && job_writes_data(job->rw) && !job->time_based && !job->io_size &&
	    job->loops > 1) {
		w->target_loops = 1;
		w->loops_left = job->loops - 1;
	}
	w->bytes_target = io_target(plan_worker_bytes(w->plan, w->clone), job->io_size, w->target_loops);
	/*
	 * CPU and NUMA placement first: the buffers are then allocated under the policy, as in
	 * fio. numa_cpu_nodes comes after cpus_allowed and replaces its set, as in fio.
	 */
	ret = setup_cpus(w);
	if (!ret)
		ret = setup_numa(w);
	if (!ret)
		note_cpus(w);
	if (!ret)
		ret = setup_priority(w);
	if (!ret)
		ret = setup_buffers(w);
	if (ret)
		worker_fail(w, -ret, "cannot allocate %u buffers of %u bytes", job->iodepth,
			    w->plan->max_bs);
	if (!ret)
		ret = setup_files(w);
	if (!ret)
		ret = pre_read_files(w);
	if (!ret)
		ret = setup_options(w, seed + w->clone);
	w->flow = w->plan->flow;
	/* trims (make_trim, trimwrite) are issued by the full loop only: the plain one is lean */
	if (w->flow || job->submit_offload || w->zbd || w->trims)
		w->full = true;
	if (!ret)
		ret = setup_engine(w);
	if (!ret && w->check_reads && job->verify_async)
		ret = vfy_start(w);
	gate_arrive(w->start);
	if (ret)
		goto done;
	if (run_gate_wait(w) && job->invalidate && !run_terminated(w)) {
		/* started late: drop what earlier jobs left cached, as fio's later set-up would */
		for (i = 0; i < w->nr_files; i++)
			if (w->files[i].fd >= 0)
				file_invalidate(w->files[i].fd, w->files[i].start, w->files[i].len);
	}

	measure_start(w, worker_now(w));
	atomic_store(&w->epoch_ns, now_ns());
	for (i = 0; i < 2; i++)
		rate_shift(&w->rate[i], w->start_ns);
	w->think_last_ns = w->start_ns;
	if (w->logs)
		iologs_init(w->logs, job, w->start_ns);
	w->ratemin_last_ns = w->start_ns;
	w->ratemin_next_ns = w->start_ns + 2000000000ull;	/* fio lets a job settle 2 s */
	if (job->ramp_ns) {
		w->in_ramp = true;
		w->ramp_end_ns = w->start_ns + job->ramp_ns;
		w->deadline_ns = job->runtime_ns ? w->ramp_end_ns + job->runtime_ns : 0;
	}
	atomic_store(&w->running, true);
	if (!run_terminated(w))
		io_phase(w, w->start_ns);
	else
		w->end_ns = w->start_ns;	/* ended by exitall before it started: nothing ran */
	for (;;) {
		if (!w->aborted && !run_terminated(w) && job->verify != VERIFY_NONE &&
		    job->do_verify && job_writes_data(job->rw) && job->rw != RW_COPY) {
			uint64_t from = w->end_ns;

			/*
			 * fio's do_verify: drop the file's cached pages first (invalidate=1), so the
			 * reads come from the storage, not from the pages the writes left behind
			 */
			for (i = 0; job->invalidate && i < w->nr_files; i++)
				if (w->files[i].fd >= 0)
					file_invalidate(w->files[i].fd, w->files[i].start, w->files[i].len);
			w->verifying = true;
			io_loop(w);
			phase_done(w, from, true);
		}
		if (!verify_round_again(w))
			break;
		io_phase(w, w->end_ns);
	}
	if (job->rw == RW_COPY)
		copy_finish(w);
	getrusage(RUSAGE_THREAD, &w->ru_end);
	if (w->kt_valid)
		w->kt_valid = !w->eng.ops->kthread_cpu(&w->eng, &w->kt_end[0], &w->kt_end[1]);
	if (w->logs)
		write_logs(w);
done:
	vfy_stop(w);
	run_worker_ended(w);
	if (w->flow) {
		flow_leave(w->flow, w->flow_ios, job->flow);
		w->flow_left = true;
	}
	run_gate_done(w);
	return NULL;
}

void worker_free(struct worker *w)
{
	unsigned i;

	vfy_stop(w);
	if (w->eng_ready) {
		for (i = 0; w->eng.ops->close_file && i < w->nr_files; i++)
			w->eng.ops->close_file(&w->eng, &w->files[i]);
		w->eng.ops->exit(&w->eng);
		w->eng_ready = false;
	}
	for (i = 0; w->files && i < w->nr_files; i++) {
		if (w->files[i].fd >= 0)
			close(w->files[i].fd);
		w->files[i].fd = -1;
		free(w->written[i]);
	}
	free(w->files);
	free(w->gens);
	free(w->written);
	free(w->nlink_at_open);
	w->files = NULL;
	w->gens = NULL;
	w->written = NULL;
	w->nlink_at_open = NULL;
	/* never unmap buffers the kernel may still read or write: leak them instead */
	if (w->buf_map && !w->bufs_in_flight)
		munmap(w->buf_map, w->buf_map_len);
	else if (w->buf_base && w->buf_len && !w->bufs_in_flight)
		munmap(w->buf_base, w->buf_len);
	w->buf_map = NULL;
	free(w->reqs);
	free(w->free_reqs);
	free(w->batch);
	free(w->done);
	free(w->copy_ready);
	w->copy_ready = NULL;
	free(w->meta);
	w->meta = NULL;
	free(w->st);
	progress_log_free(&w->progress);
	ss_free(&w->ss);
	free(w->dedupe_ws);
	w->dedupe_ws = NULL;
	for (i = 0; w->zbd && i < w->nr_files; i++)
		if (w->zbd[i].dev)
			zbd_owner_leave(&w->zbd[i], &w->zown);
	free(w->zbd);
	w->zbd = NULL;
	free(w->backlog);
	w->backlog = NULL;
	if (w->logs)
		iologs_free(w->logs);
	free(w->logs);
	w->logs = NULL;
	free(w->fdist);
	free(w->zoned);
	w->fdist = NULL;
	w->zoned = NULL;
	w->buf_base = NULL;
	w->reqs = NULL;
	w->free_reqs = w->batch = w->done = NULL;
	w->st = NULL;
}
