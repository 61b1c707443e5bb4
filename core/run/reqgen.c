/*
 * Request generation for the I/O loop: the next direction, file, offset and length, rate and
 * zones, verify and copy, for the full loop (next_request_full) and the parts the plain loop
 * shares; the plain loop's own generator is next_request_plain in core/run/loop.c.
 */
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

/* Block sizes varying: the block written at unit s of file fi is dropped, unread. */
static void drop_block(struct worker *w, unsigned fi, uint64_t s)
{
	uint32_t *bl = w->verify.blen[fi];
	uint64_t x, e = s + bl[s];

	for (x = s; x < e; x++)
		w->verify.written[fi][x >> 3] &= (unsigned char)~(1u << (x & 7));
	bl[s] = 0;
}

/*
 * A block of units [u, end) written over what was written before: as fio's log of written
 * pieces, every earlier block it overlaps is dropped whole (a block begun before u first).
 */
static void drop_overlapped(struct worker *w, unsigned fi, uint64_t u, uint64_t end)
{
	const uint32_t *bl = w->verify.blen[fi];
	const unsigned char *map = w->verify.written[fi];
	uint64_t s;

	if (map[u >> 3] & (1u << (u & 7)) && !bl[u]) {
		s = u;
		while (s && !bl[--s])
			;
		if (bl[s] && s + bl[s] > u)
			drop_block(w, fi, s);
	}
	for (s = u; s < end; s++)
		if (bl[s])
			drop_block(w, fi, s);
}

/* The block of r is written, as the seq-th write (verify_write_sequence keeps the number). */
static void mark_written(struct worker *w, const struct io_req *r, uint64_t seq)
{
	const struct io_file *f = r->file;
	uint64_t u = (r->offset - f->start) / w->plan->unit;
	uint64_t end = u + r->len / w->plan->unit, units = f->len / w->plan->unit;
	uint16_t *nums = w->verify.wseq[f->index];
	uint32_t *bl = w->verify.blen[f->index];

	/* zonemode=strided in a file longer than the region goes past it: not verified there */
	if (end > units)
		end = units;
	if (bl && u < end) {
		drop_overlapped(w, f->index, u, end);
		bl[u] = (uint32_t)(end - u);
	}
	for (; u < end; u++) {
		w->verify.written[f->index][u >> 3] |= (unsigned char)(1u << (u & 7));
		if (nums)
			nums[u] = (uint16_t)seq;
	}
}

/*
 * The next block to read back in the verify pass, in each file's order of offsets; false when
 * all were read. Each is read as it was written (fio's verify reads each written piece): with
 * block sizes that vary, its length; else a unit.
 */
bool next_verify(struct worker *w, struct io_req *r)
{
	while (w->verify.file < w->nr_files) {
		const unsigned char *map = w->verify.written[w->verify.file];
		const uint32_t *bl = w->verify.blen[w->verify.file];
		uint64_t units = w->files[w->verify.file].len / w->plan->unit;

		while (w->verify.pos < units) {
			uint64_t u = w->verify.pos++;
			uint64_t n = bl && bl[u] ? bl[u] : 1;

			if (!(map[u >> 3] & (1u << (u & 7))))
				continue;
			w->verify.pos = u + n;
			r->file = &w->files[w->verify.file];
			/* openfiles: a file closed when its range was used up, opened again (as fio) */
			if (r->file->fd < 0 && w->open.limit && open_files_reopen(w, w->verify.file))
				return false;
			r->ddir = DDIR_READ;
			r->len = (uint32_t)(n * w->plan->unit);
			r->offset = r->file->start + u * w->plan->unit;
			return true;
		}
		w->verify.file++;
		w->verify.pos = 0;
	}
	return false;
}

/* rw=copy: the next block of the source, in order; its write follows its completion. */
bool next_copy_read(struct worker *w, struct io_req *r)
{
	uint64_t left = w->plan->region - w->copy.next;

	if (!left)
		return false;
	r->file = &w->files[COPY_SRC];
	r->ddir = DDIR_READ;
	r->len = left < w->job->bs[DDIR_READ] ? (uint32_t)left : w->job->bs[DDIR_READ];
	r->offset = w->copy.next;
	w->copy.next += r->len;
	return true;
}

/* rw=copy: a block has been read; queue the write of the same buffer to the destination. */
void copy_queue_write(struct worker *w, struct io_req *r)
{
	unsigned tail = (w->copy.head + w->copy.nr_ready) % w->params.iodepth;

	r->ddir = DDIR_WRITE;
	r->file = &w->files[COPY_DST];
	w->copy.ready[tail] = r;
	w->copy.nr_ready++;
}

struct io_req *copy_take_write(struct worker *w)
{
	struct io_req *r = w->copy.ready[w->copy.head];

	w->copy.head = (w->copy.head + 1) % w->params.iodepth;
	w->copy.nr_ready--;
	return r;
}

/* The file for the next request of len bytes (file_service_type). */
static inline unsigned pick_file(struct worker *w, uint32_t len)
{
	const struct job_spec *job = w->job;
	unsigned f = w->cur_file;

	if (w->open.limit) {
		/* picked before the request was drawn (open_files_pick) */
		w->open.ready = false;
		w->open.left[f] -= len < w->open.left[f] ? len : w->open.left[f];
		return f;
	}
	if (job->file_service == FSVC_SEQUENTIAL) {
		if (w->fsel.bytes_left < len) {
			f = f + 1 == w->nr_files ? 0 : f + 1;
			w->fsel.bytes_left = w->files[f].len;
		}
		w->fsel.bytes_left -= len;
		return w->cur_file = f;
	}
	if (w->fsel.left) {
		w->fsel.left--;
		return f;
	}
	switch (job->file_service) {
	case FSVC_RANDOM:
		f = (unsigned)rng_below(&w->fsel.rng, w->nr_files);
		break;
	case FSVC_ZIPF:
	case FSVC_PARETO:
	case FSVC_NORMAL:
		f = (unsigned)(dist_next(&w->fsel.dist) >> FSVC_DIST_SHIFT);
		break;
	default:
		f = f + 1 == w->nr_files ? 0 : f + 1;
		break;
	}
	w->fsel.left = job->file_service_nr - 1;
	return w->cur_file = f;
}

/* dedupe_mode=working_set: a dedupe draw takes a random buffer of the set, else a new one. */
static void dedupe_fill_ws(struct worker *w, struct io_req *r)
{
	struct rng fill;
	uint64_t seed;

	if (rng_below(&w->buf.dedupe_rng, 100) < w->job->buf.dedupe_pct)
		seed = w->buf.dedupe_ws[rng_below(&w->buf.dedupe_rng, w->buf.nr_dedupe_ws)];
	else
		seed = rng_next(&w->buf.dedupe_uniq) | 1;
	rng_seed(&fill, seed);
	buf_fill(w->job, &fill, r->buf, r->len);
}

/* dedupe_percentage: that share of writes repeats the last unique buffer (fio's "repeat"). */
static void dedupe_fill(struct worker *w, struct io_req *r)
{
	struct rng fill;

	if (w->buf.dedupe_ws) {
		dedupe_fill_ws(w, r);
		return;
	}

	if (!w->buf.dedupe_seed || rng_below(&w->buf.dedupe_rng, 100) >= w->job->buf.dedupe_pct)
		w->buf.dedupe_seed = rng_next(&w->buf.dedupe_rng) | 1;
	rng_seed(&fill, w->buf.dedupe_seed);
	buf_fill(w->job, &fill, r->buf, r->len);
}

/* verify_backlog: remember a written block; the oldest is dropped (unverified) when full. */
static void backlog_push(struct worker *w, const struct io_req *r)
{
	uint64_t cap = w->job->verify.backlog;
	struct backlog_entry *e;

	if (w->verify.backlog_nr == cap) {
		w->verify.backlog_head = (w->verify.backlog_head + 1) % cap;
		w->verify.backlog_nr--;
	}
	e = &w->verify.backlog[(w->verify.backlog_head + w->verify.backlog_nr) % cap];
	e->offset = r->offset;
	e->len = r->len;
	e->file = r->file->index;
	w->verify.backlog_nr++;
}

/* serialize_overlap: does r touch bytes of a request in flight or waiting in the batch? */
bool overlaps_inflight(const struct worker *w, const struct io_req *r)
{
	unsigned i;

	for (i = 0; i < w->params.iodepth; i++) {
		const struct io_req *o = &w->params.reqs[i];

		if (o == r || !(o->flags & REQF_INFLIGHT) || o->file != r->file)
			continue;
		if (o->offset < r->offset + r->len && r->offset < o->offset + o->len)
			return true;
	}
	for (i = 0; i < w->nr_batch; i++) {
		const struct io_req *o = w->batch[i];

		if (o->file == r->file && o->offset < r->offset + r->len &&
		    r->offset < o->offset + o->len)
			return true;
	}
	return false;
}

/*
 * verify_backlog: once verify_backlog blocks are written, the next verify_backlog_batch of
 * them (oldest first) are read back and checked before more is issued, once every I/O in
 * flight has completed; they leave the end-of-job verify pass. 1 with r filled, REQ_DRAIN
 * while I/O is in flight, 0 when nothing is due.
 */
static int backlog_next(struct worker *w, struct io_req *r)
{
	const struct backlog_entry *e;
	uint64_t u, end;

	if (!w->verify.backlog_left) {
		if (w->verify.backlog_nr < w->job->verify.backlog)
			return 0;
		w->verify.backlog_left = w->job->verify.backlog_batch;
	}
	if (!w->verify.backlog_nr) {
		w->verify.backlog_left = 0;
		return 0;
	}
	if (w->inflight || w->nr_batch)
		return REQ_DRAIN;
	e = &w->verify.backlog[w->verify.backlog_head];
	w->verify.backlog_head = (w->verify.backlog_head + 1) % w->job->verify.backlog;
	w->verify.backlog_nr--;
	w->verify.backlog_left--;
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
	for (; u < end; u++) {
		w->verify.written[e->file][u >> 3] &= (unsigned char)~(1u << (u & 7));
		if (w->verify.blen[e->file])
			w->verify.blen[e->file][u] = 0;
	}
	return 1;
}

void __attribute__((noinline)) sync_range_note(struct worker *w, const struct io_req *r)
{
	struct sfr_range *s = &w->sfr[r->file - w->files];

	if (s->first == UINT64_MAX || r->offset < s->first)
		s->first = r->offset;
	if (r->offset + r->len > s->last)
		s->last = r->offset + r->len;
}

bool __attribute__((noinline)) next_sync_range(struct worker *w, struct io_req *r)
{
	const struct job_spec *job = w->job;
	struct sfr_range *s = &w->sfr[w->cur_file];

	/* fio's do_io ends at its size before the next I/O, so before a sync then due */
	if (!job->time.based && w->bytes_issued >= w->bytes_target)
		return false;
	r->ddir = DDIR_SYNC_FILE_RANGE;
	/* fio's first_write to last_write; a range past 4 GiB goes to the file's end (len 0) */
	r->offset = s->first == UINT64_MAX ? 0 : s->first;
	r->len = s->first == UINT64_MAX || s->last - s->first > UINT32_MAX ? 0 :
		 (uint32_t)(s->last - s->first);
	s->first = UINT64_MAX;
	s->last = 0;
	w->writes_since_sync = 0;
	return true;
}

/* What every write does before it is issued: sync accounting, buffer contents, verify. */
void prepare_write(struct worker *w, struct io_req *r)
{
	const struct job_spec *job = w->job;

	w->writes_since_sync++;
	if (__builtin_expect(w->sfr != NULL, 0))
		sync_range_note(w, r);
	if (job->buf.dedupe_pct)
		dedupe_fill(w, r);
	else if (job->buf.refill)
		buf_fill(job, &w->buf.rng, r->buf, r->len);
	else if (w->buf.scramble)
		buf_scramble(r->buf, r->len, r->offset, ++w->buf.write_seq);
	if (job->verify.kind != VERIFY_NONE) {
		/* fio's numberio: the worker's writes counted from 0 */
		uint64_t seq = w->verify.seq++;

		if (job->verify.pattern_len)
			verify_pattern_fill(job, r->buf, r->len, r->offset);
		verify_stamp(job, r->buf, r->offset, r->len, job_verify_unit(job, w->plan->unit),
			     seq, worker_thread_number(w->plan, w->clone));
		mark_written(w, r, seq);
		if (w->verify.backlog)
			backlog_push(w, r);
	}
}

/* A block of the zone a draw of 1..100 lands in (fio's zoned / zoned_abs). */
static uint64_t zoned_block(struct worker *w, const struct zoned *z, uint64_t nblocks,
			    uint64_t unit)
{
	unsigned i = z->pick[rng_below(&w->off.zone_rng, 100)];
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

/*
 * random_distribution=sequence: the worker's k-th random I/O goes to index k of the sequence
 * (cycling), moved on by the sequence's length each cycle with random_sequence_stride; an
 * index past the file's last block wraps to its start.
 */
static uint64_t __attribute__((noinline)) sequence_block(struct worker *w, uint64_t nblocks)
{
	const struct job_spec *job = w->job;
	uint64_t k = w->off.seq_dist_k++, n = job->nr_dist_seq, b = job->dist_seq[k % n];

	if (job->random_sequence_stride)
		b += k / n * n;
	return nblocks ? b % nblocks : 0;
}

/*
 * A random offset in file f as random_distribution asks, for a request of *len bytes; cut:
 * the random map may cut it short, as fio does (gen_rand_cut), and *len says how long it is.
 */
static inline __attribute__((always_inline)) uint64_t rand_offset(struct worker *w, unsigned f,
								   unsigned dir, uint32_t *len,
								   bool cut)
{
	struct file_gen *g = &w->gens[f];
	uint64_t blk, off;

	/* the common case first: uniform offsets, one block of a fixed size (nothing to cut) */
	if (__builtin_expect(w->rand_plain, 1) &&
	    !(cut && (*len > g->unit || w->bsg[dir].min != w->bsg[dir].max)))
		return gen_rand(g, *len);
	if (w->off.spr) {
		if (sprandom_next(w->off.spr, &blk))
			return GEN_END;	/* its regions or the file's blocks are used up */
	} else if (w->off.fdist)
		blk = dist_next(&w->off.fdist[f]);
	else if (w->off.zoned && w->off.zoned[dir].nr)
		blk = zoned_block(w, &w->off.zoned[dir], g->nblocks, g->unit);
	else if (w->job->random_distribution == DIST_SEQUENCE)
		blk = sequence_block(w, g->nblocks);
	else if (cut && w->fio_units)
		return gen_rand_units(g, len, w->bsg[dir].min, w->job->time.based, w->debug_random);
	else if (cut)
		return gen_rand_cut(g, len, w->bsg[dir].min != w->bsg[dir].max, w->debug_random);
	else if (__builtin_expect(w->debug_random, 0))
		return gen_rand_traced(g, *len);
	else
		return gen_rand(g, *len);
	off = blk * g->unit;
	if (off + *len > g->region)
		off = (g->region - *len) / g->unit * g->unit;
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

	if (w->zone.bytes >= job->zone.size) {
		w->zone.bytes = 0;
		g->start += job->zone.range + job->zone.skip;
		if (g->start >= g->real)
			g->start = g->origin;
		g->seq[dir] = 0;
		/* the other direction keeps its place in the file, as fio's last_pos does */
		g->seq[dir ^ 1] = old + g->seq[dir ^ 1] - g->start;
	}
	if (g->seq[dir] >= job->zone.range)
		g->seq[dir] = 0;
}

/*
 * percentage_random: is this I/O of a random job's one at the direction's last end (fio's
 * should_do_random said no: its draw in 1..100 above the percentage)? No draw at 100.
 */
static inline bool perc_sequential(struct worker *w, unsigned dir)
{
	unsigned perc = w->job->perc_rand[dir];

	return perc < 100 && frand32_pct(&w->off.seq_rand[dir]) > perc;
}

static bool seq_step_offset(struct worker *w, unsigned f, unsigned dir, uint32_t len,
			    uint64_t *out)
{
	const struct job_spec *job = w->job;
	struct file_gen *g = &w->gens[f];
	bool mark = false;	/* a random job's I/O not drawn from its random map */
	uint64_t pos;
	unsigned i;

	for (;;) {
		mark = false;
		if (job->zone.strided)
			zone_step(w, g, dir);
		if (job->zone.strided && job_rw_random(job->rw)) {
			pos = gen_rand(&w->zone.gen, len);
		} else if (!job_rw_random(job->rw)) {
			pos = gen_seq_step(g, dir, job->seq_add, job->time.based);
		} else if (!--w->off.seq_left) {
			w->off.seq_left = job->seq_nr;
			pos = perc_sequential(w, dir) ? gen_seq_step(g, dir, 0, job->time.based) :
							GEN_END;
			mark = pos != GEN_END;
			if (pos == GEN_END)
				pos = rand_offset(w, f, dir, &len, false);
		} else if (job->seq_identical) {
			pos = g->last_start[dir];
			mark = true;
		} else {
			pos = gen_seq_step(g, dir, 0, job->time.based);
			mark = pos != GEN_END;
			if (pos == GEN_END)
				pos = rand_offset(w, f, dir, &len, false);
		}
		if (gen_seq_fits(g, pos, len))
			break;
		if (!job->time.based && !w->passes_left) {
			w->seq_ran_off = true;
			return false;
		}
		if (!job->time.based)
			w->passes_left--;
		for (i = 0; i < w->nr_files; i++)
			gen_new_pass(&w->gens[i]);
		w->zone.bytes = 0;
	}
	gen_seq_done(g, dir, pos, len);
	/* fio's fill_io_u marks every I/O of a random job in its random map */
	if (mark)
		gen_mark(g, pos, len);
	w->zone.bytes += len;
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
	if (!w->trim.write)
		return;
	w->trim.pending = true;
	w->trim.file = r->file;
	w->trim.offset = r->offset;
	w->trim.len = r->len;
}

/* trimwrite: the write of the block just trimmed (its bytes were counted with the trim). */
static bool __attribute__((noinline)) trimwrite_write(struct worker *w, struct io_req *r)
{
	w->trim.pending = false;
	r->file = w->trim.file;
	r->ddir = DDIR_WRITE;
	r->offset = w->trim.offset;
	r->len = w->trim.len;
	prepare_write(w, r);
	return true;
}

/*
 * read_iolog: the log's next I/O, when its time has come (the log's times from its first I/O,
 * scaled by replay_time_scale; at once with replay_no_stall). false at the log's end.
 */
static int __attribute__((noinline)) replay_next(struct worker *w, struct io_req *r, uint64_t now)
{
	const struct job_spec *job = w->job;
	const struct replay_entry *e;

	if (w->replay_pos == w->replay->nr)
		return false;
	e = &w->replay->e[w->replay_pos];
	if (!job->replay_no_stall) {
		uint64_t at = e->t_us * 1000 * 100 / job->replay_time_scale, due;

		/* the log's clock starts at its first I/O, issued at once */
		if (!w->replay_pos)
			w->replay_base_ns = now - at;
		due = w->replay_base_ns + at;

		if (now < due) {
			w->rate.wait_ns = due;
			return REQ_WAIT;
		}
	}
	w->replay_pos++;
	r->file = &w->files[e->file];
	r->ddir = e->ddir;
	r->offset = e->offset;
	r->len = e->len;
	if (e->ddir >= DDIR_SYNC) {
		w->cur_file = e->file;
		return true;
	}
	w->issued_ios++;
	w->bytes_issued += e->len;
	if (e->ddir == DDIR_WRITE)
		prepare_write(w, r);
	return true;
}

/* When dir's next I/O is due by its rate; 0 (always) when the direction is not limited. */
static inline uint64_t rate_next(const struct worker *w, unsigned dir)
{
	return w->rate.dir[dir].bps ? rate_due(&w->rate.dir[dir]) : 0;
}

/*
 * rate, rate_iops, per direction (fio's rate_ddir), when dir is not yet due (at due): in a
 * mixed job the other direction when that one is due instead, or else whichever is due
 * first, waited for. A direction held back by its rate so leaves the job's time to the
 * other. dir, or REQ_WAIT with w->rate.wait_ns and the direction to issue then (w->rate.held).
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
	w->rate.wait_ns = due;
	w->rate.held = dir + 1;
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
	struct zbd_view *v = &w->zone.zbd[f];
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
			if (!job->time.based && w->bytes_issued + *len > w->bytes_target)
				return 0;
		}
		*off = random ? rand_offset(w, f, *dir, len, false) : gen_seq_pass(g, *dir, *len);
		zr.dir = *dir;
		zr.offset = file->start + *off;
		zr.len = *len;
		zr.min_bs = w->bsg[*dir].min;
		zr.min_bs_write = w->bsg[DDIR_WRITE].min;
		ret = zbd_adjust(v, job, &w->zone.own, random, &zr, &quiesce, why, sizeof(why));
		if (ret < 0) {
			worker_fail(w, -ret, "%s: %s", file->path, why);
			return -1;
		}
		/*
		 * a sequential time_based read that found no more data starts again from the
		 * region's start, as fio's next loop does (once: a region without data ends it)
		 */
		if (ret == ZBD_EOF && !random && job->time.based && !tries) {
			g->seq[*dir] = 0;
			continue;
		}
		if (ret == ZBD_EOF)
			return 0;
		break;
	}
	w->zone.quiesce |= quiesce;
	*len = zr.len;
	/* relative to the region; a read may find data in a zone starting before it */
	*off = zr.offset - file->start;
	if (!random)
		g->seq[*dir] = zr.offset >= file->start ? *off + *len : *len;
	return 1;
}

/*
 * Block sizes that vary (bsrange, bssplit) drawn where fio draws them, after the offset:
 * sequential offsets, and uniform random ones (with or without the random map); other offset
 * choices (distributions, rw=...:N, zones) take the size first.
 */
static inline bool sized_in_fios_order(const struct worker *w, unsigned dir)
{
	const struct job_spec *job = w->job;

	if (w->bsg[dir].min == w->bsg[dir].max || w->off.seq_step || w->zone.zbd)
		return false;
	return !job_rw_random(job->rw) ||
	       (!w->off.spr && !w->off.fdist && !(w->off.zoned && w->off.zoned[dir].nr) && !w->fio_units &&
		job->random_distribution != DIST_SEQUENCE);
}

/*
 * fio's order for sizes that vary: the file, the offset, then a size that fits from there,
 * drawn again until it does (get_next_buflen); the job issues while it has issued less than
 * its size, so that its last I/O may end past it, as fio's does. r's file and direction, *len
 * and *off (relative to the file's region) set; false when the job has nothing more to issue.
 */
static bool place_sized(struct worker *w, struct io_req *r, unsigned dir, uint32_t *len,
			uint64_t *off)
{
	const struct job_spec *job = w->job;
	const struct bs_gen *bg = &w->bsg[dir];
	bool random = job_rw_random(job->rw);
	struct file_gen *g;
	uint64_t blk = 0;
	unsigned f;

	if (!job->time.based && w->bytes_issued >= w->bytes_target)
		return false;
	w->issued_ios++;
	f = pick_file(w, bg->min);
	g = &w->gens[f];
	r->file = &w->files[f];
	r->ddir = (uint8_t)dir;
	if (random) {
		blk = gen_rand_first(g, w->debug_random);
		*off = blk * g->unit;
	} else {
		*off = gen_seq_peek(g, dir, bg->min);
	}
	*len = bs_gen_next(bg, &w->bsr.rand[dir], *off < g->region ? g->region - *off : 0);
	if (!*len)
		return false;
	if (random)
		*off = gen_rand_rest(g, blk, len);
	else
		gen_seq_take(g, dir, *len);
	if (job->file_service == FSVC_SEQUENTIAL)
		w->fsel.bytes_left = w->fsel.bytes_left > *len - bg->min ? w->fsel.bytes_left - (*len - bg->min) : 0;
	return true;
}

/*
 * loops= (floop.c): has this loop ended where fio's do_io ends it, before dir's next I/O? Its
 * bytes queued, the random map full, or no block of dir's smallest size left before the end
 * of the file.
 */
static inline bool floop_ended(const struct worker *w, unsigned dir)
{
	const struct file_gen *g = &w->gens[0];

	if (w->floop.bytes && w->bytes_issued - w->floop.start >= w->floop.bytes)
		return true;
	if (job_rw_random(w->job->rw))
		return g->map.nlvl && !g->map.left;
	return g->seq[dir] + w->bsg[dir].min > g->region;
}

/*
 * The loop ended before dir's I/O: that direction drawn issues nothing in it, as fio's failed
 * get_io_u; the next loop's first request, or 0 when no loop is left.
 */
static int __attribute__((noinline)) floop_next_request(struct worker *w, struct io_req *r,
							unsigned dir, uint64_t now)
{
	if (w->mixed)
		w->mix.issues[dir]--;
	if (!floop_next(w))
		return false;
	return next_request_full(w, r, now);
}

/* A request placed (file, direction, len bytes at off in its region): counted and filled. */
static inline bool issue_placed(struct worker *w, struct io_req *r, unsigned dir, uint32_t len,
				uint64_t off)
{
	if (w->rate.dir[dir].bps) {
		/* the schedule's start for this I/O, before the schedule moves past it */
		w->rate.sched_ns[r->index] = rate_due(&w->rate.dir[dir]);
		rate_issue(&w->rate.dir[dir], len);
	}
	r->len = len;
	r->offset = r->file->start + off;
	w->bytes_issued += len;
	if (dir == DDIR_WRITE) {
		if (w->trim.on)
			make_trim(w, r);
		else
			prepare_write(w, r);
	}
	return true;
}

/*
 * Sizes that vary on a sequential job with fio's step (rw=read:N, write:N), which place_sized
 * does not place: fio takes the offset first, then draws a size that fits from there
 * (place_drawn). Offset distributions keep the size first: their offsets are not fio's
 * stream's, and fio's redraw at the file's end would follow offsets fio does not take.
 */
static inline bool size_after_offset(const struct worker *w, unsigned dir)
{
	const struct job_spec *job = w->job;

	return w->bsg[dir].min != w->bsg[dir].max && w->off.seq_step && !job_rw_random(job->rw) &&
	       !w->zone.zbd && !job->zone.strided;
}

/*
 * A request of dir, of len bytes (late: the smallest size, the size drawn once the offset
 * is known, again until it fits before the region's end, as fio's get_next_buflen), placed
 * in its file and issued; 0 when the job (or with loops=, the loop) has nothing more to issue.
 */
static inline int place_drawn(struct worker *w, struct io_req *r, unsigned dir, uint32_t len,
			      bool late, uint64_t now)
{
	const struct job_spec *job = w->job;
	struct file_gen *g;
	uint64_t off;
	unsigned f;

	w->issued_ios++;
	f = pick_file(w, len);
	g = &w->gens[f];
	r->file = &w->files[f];
	r->ddir = (uint8_t)dir;
	if (w->off.seq_step) {
		if (!seq_step_offset(w, f, dir, len, &off))
			return false;
	} else if (w->zone.zbd) {
		unsigned drawn = dir;
		int z = zbd_place(w, f, &dir, &len, &off);

		mix_moved(w, drawn, dir, false);
		if (z <= 0)
			return z;
		r->ddir = (uint8_t)dir;
		r->len = len;
	} else {
		off = job_rw_random(job->rw) ? rand_offset(w, f, dir, &len, true) :
					       gen_seq_pass(g, dir, len);
		if (__builtin_expect(off == GEN_END, 0)) {
			/* fio_units: no block of this size left, the loop's end (floop.c) */
			if (!w->floop.on)
				return false;
			w->issued_ios--;
			return floop_next_request(w, r, dir, now);
		}
	}
	if (late) {
		uint32_t l = bs_gen_next(&w->bsg[dir], &w->bsr.rand[dir],
					 off < g->region ? g->region - off : 0);

		if (!l)
			return false;
		if (w->off.seq_step)
			g->seq[dir] += l - len;
		if (job->file_service == FSVC_SEQUENTIAL)
			w->fsel.bytes_left = w->fsel.bytes_left > l - len ? w->fsel.bytes_left - (l - len) : 0;
		len = l;
	}
	return issue_placed(w, r, dir, len, off);
}

/*
 * The same with the per-I/O options the job set up: block sizes, file choice, offset
 * distributions, rate. now is the loop's latest timestamp. Returns 1 with r filled, 0 when
 * the job has nothing more to issue, REQ_WAIT when the rate says not yet.
 */
int next_request_full(struct worker *w, struct io_req *r, uint64_t now)
{
	const struct job_spec *job = w->job;
	unsigned dir;
	uint32_t len;
	uint64_t off;
	bool late;

	if (w->verify.pass)
		return next_verify(w, r);
	if (job->rw == RW_COPY)
		return next_copy_read(w, r);
	if (w->trim.pending)
		return trimwrite_write(w, r);
	if (w->verify.backlog) {
		int b;

		r->flags &= (uint8_t)~REQF_BACKLOG;
		b = backlog_next(w, r);
		if (b)
			return b;
	}
	if (w->replay)
		return replay_next(w, r, now);
	if (next_sync(w, r))
		return true;
	if (w->ios_limit && w->issued_ios >= w->ios_limit)
		return false;
	if (w->open.limit) {
		int o = open_files_pick(w);

		if (o != 1)
			return o;
	}
	if (w->rate.held) {
		/* what the rate was waited for: checked again, the wait may have been cut short */
		dir = w->rate.held - 1;
		w->rate.held = 0;
	} else {
		dir = pick_dir(w);
	}
	if (w->rate.on) {
		int d;

		/* the size is used up: no rate to wait for (fio checks this before it waits) */
		if (!job->time.based && w->bytes_issued >= w->bytes_target)
			return false;
		d = rate_dir(w, dir, now);
		/* the direction issued is fio's rwmix_ddir from now on */
		mix_moved(w, dir, d < 0 ? w->rate.held - 1 : (unsigned)d, true);
		if (d < 0)
			return d;
		dir = (unsigned)d;
	}
	if (__builtin_expect(w->floop.on, 0) && floop_ended(w, dir))
		return floop_next_request(w, r, dir, now);
	if (sized_in_fios_order(w, dir))
		return place_sized(w, r, dir, &len, &off) && issue_placed(w, r, dir, len, off);
	late = size_after_offset(w, dir);
	len = late ? w->bsg[dir].min : bs_gen_next(&w->bsg[dir], &w->bsr.rand[dir], UINT64_MAX);
	if (!job->time.based && w->bytes_issued + len > w->bytes_target) {
		uint64_t left = w->bytes_issued < w->bytes_target ? w->bytes_target - w->bytes_issued : 0;
		uint64_t min = w->bsg[dir].min;

		if (min != w->bsg[dir].max) {
			/* sizes that vary: fio issues while it has issued less than the size
			 * (io_issue_bytes_exceeded), its last I/O whole */
			if (!left)
				return false;
		} else {
			/* one size: end on the target exactly */
			if (left < min)
				return false;
			len = (uint32_t)(w->bsg[dir].unaligned ? left : left / min * min);
		}
	}
	return place_drawn(w, r, dir, len, late, now);
}
