/* One worker thread of a job: set-up, the phases it runs, and teardown. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <pthread.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "io/buffer.h"
#include "io/vhdr.h"
#include "run/machine.h"
#include "run/run.h"
#include "stats/stats.h"
#include "base/msg.h"
#include "run/worker.h"
#include "run/runner.h"


/* The region of file f (plan path p) this worker uses: filesize, offset_increment... */
static int file_region(struct worker *w, struct io_file *f, unsigned p)
{
	const struct job_plan *plan = w->plan;
	const struct job_spec *job = w->job;

	f->len = plan->file_len[p];
	if (job->sizes.size || job->filesize_range[0] || !plan->file_have[p] ||
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

	if (!w->zone.zbd) {
		w->zone.zbd = calloc(w->nr_files, sizeof(*w->zone.zbd));
		if (!w->zone.zbd) {
			worker_fail(w, ENOMEM, "zonemode=zbd: out of memory");
			return -ENOMEM;
		}
	}
	ret = zbd_view_init(&w->zone.zbd[i], dev, f->start, f->len, writes, why, sizeof(why));
	if (ret) {
		worker_fail(w, -ret, "%s: zonemode=zbd: %s (zonesize %llu)", f->path, why,
			    (unsigned long long)dev->zone_size);
		return ret;
	}
	if (w->zone.zbd[i].lo != f->start || w->zone.zbd[i].hi != f->start + f->len) {
		/* the bytes it moves shrink with the region, as fio's io_size does */
		uint64_t cut = (f->len - (w->zone.zbd[i].hi - w->zone.zbd[i].lo)) * w->target_loops;

		if (!job->sizes.io_size)
			w->bytes_target = w->bytes_target > cut ? w->bytes_target - cut : 0;
		f->start = w->zone.zbd[i].lo;
		f->len = w->zone.zbd[i].hi - w->zone.zbd[i].lo;
	}
	if (writes)
		zbd_job_start(&w->zone.zbd[i], job, &w->zone.own);
	return 0;
}

int worker_alloc_files(struct worker *w, unsigned n)
{
	unsigned i;

	w->files = calloc(n, sizeof(*w->files));
	w->gens = calloc(n, sizeof(*w->gens));
	w->nlink_at_open = calloc(n, sizeof(*w->nlink_at_open));
	w->verify.written = calloc(n, sizeof(*w->verify.written));
	w->verify.wseq = calloc(n, sizeof(*w->verify.wseq));
	w->verify.blen = calloc(n, sizeof(*w->verify.blen));
	if (!w->files || !w->gens || !w->nlink_at_open || !w->verify.written || !w->verify.wseq ||
	    !w->verify.blen)
		return -ENOMEM;
	w->nr_files = n;
	for (i = 0; i < n; i++)
		w->files[i].fd = -1;
	return 0;
}

/* A seed from the kernel's random source for sequences that differ on every run. */
static uint64_t fresh_seed(void)
{
	uint64_t x;

	if (getrandom(&x, sizeof(x), 0) != (ssize_t)sizeof(x))
		x = now_ns() * 0x9e3779b97f4a7c15ull;
	return x;
}

/* The offset generator's seed of the worker's file i. */
static uint64_t file_seed(const struct worker *w, uint64_t seed, unsigned i)
{
	return seed + w->clone * 7919u + i;
}

/*
 * invalidate=1 at each new pass of a file (gen_pass_invalidate), where fio drops the cache
 * then: it reopens a file for each loop and each pass over several files (td_io_open_file,
 * direct or not); a time_based pass that wraps inside the open file (one file sequential, or
 * a full random map) drops it only without direct=1 (loop_cache_invalidate).
 */
static bool pass_invalidates(const struct job_spec *job, unsigned nr_files)
{
	if (!job->invalidate)
		return false;
	return !(job->direct && job->time.based && (job_rw_random(job->rw) || nr_files == 1));
}

/*
 * fio's smallest block of any direction (rw_min_bs: reads, writes and trims, done or not) where
 * a direction the job does has larger blocks and fio's random map then numbers its blocks in
 * their own size (gen_rand_units); 0 elsewhere. Fixed sizes, uniform offsets of a
 * Tausworthe generator with the map, no blockalign, no verify, no zones.
 */
static uint32_t fio_dir_units(const struct job_spec *job)
{
	uint32_t trim = job->bs_trim ? job->bs_trim : job->bs[1], min = trim;
	unsigned d;

	if (job->norandommap || job->rand_gen == RAND_GEN_LFSR ||
	    (job->rw != RW_RANDREAD && job->rw != RW_RANDWRITE && job->rw != RW_RANDRW) ||
	    job->random_distribution != DIST_RANDOM || job->sprandom || job->seq_nr > 1 ||
	    job->ba[0] || job->ba[1] || job->verify.kind != VERIFY_NONE || job->zone.strided ||
	    job->zone.zbd || job->nr_dist_seq)
		return 0;
	for (d = 0; d < 2; d++) {
		if (job->nr_bssplit[d] || job->bs_max[d] != job->bs[d])
			return 0;
		if (job->bs[d] < min)
			min = job->bs[d];
	}
	if ((job_reads(job->rw) && job->bs[0] > min) || (job_writes(job->rw) && job->bs[1] > min))
		return min;
	return 0;
}

/*
 * fio_dir_units' offsets come from fio's own stream, so that the job ends where fio's does:
 * its random_state, seeded FIO_RANDSEED x thread number with randrepeat (fio's default, a
 * randseed given or not), else from randseed as its other streams (FIO_RAND_BLOCK_OFF). One file (fio's stream is the
 * job's, not a file's), the 32-bit generator; randrepeat=0 keeps iopath's fresh seed. The
 * same seed starts fio's LFSR of each file (random_generator=lfsr).
 */
/*
 * Random jobs whose block sizes vary (bsrange, bssplit), with one smallest size for every
 * direction and uniform offsets: their sizes are drawn after each offset from fio's own
 * streams (next_request_full), so their offsets come from fio's stream too, and such a job
 * moves the blocks fio's does.
 */
static bool fio_sized_offsets(const struct job_spec *job)
{
	bool sized = job->nr_bssplit[0] || job->nr_bssplit[1] || job->bs_max[0] != job->bs[0] ||
		     job->bs_max[1] != job->bs[1];

	return sized && job_rw_random(job->rw) && job->random_distribution == DIST_RANDOM &&
	       !job->sprandom && !job->nr_dist_seq && job->seq_nr <= 1 &&
	       !job->zone.zbd && !job->zone.strided && !job->ba[0] && !job->ba[1] &&
	       job->bs[0] == job->bs[1];
}

static void fio_block_seed(struct worker *w)
{
	const struct job_spec *job = w->job;
	unsigned tn = worker_thread_number(w->plan, w->clone);
	struct frand32 r;
	uint64_t seed;
	unsigned i;

	if (!job_rand_repeatable(job))
		return;
	seed = job->randrepeat ? 0xb1899bedull * tn :
	       fio_stream_seed(job->randseed_set ? job->randseed : 0x89, tn, 6);
	/* random_generator=lfsr: fio's, each file's from the job's seed (fio's init_random_map) */
	for (i = 0; job->rand_gen == RAND_GEN_LFSR && job_rw_random(job->rw) && !job->sprandom &&
		    i < w->nr_files; i++)
		offrand_lfsr_fio(&w->gens[i].rand, w->gens[i].nblocks, seed);
	if ((!w->fio_units && !fio_sized_offsets(job)) || w->nr_files != 1 ||
	    job->rand_gen != RAND_GEN_TAUSWORTHE)
		return;
	frand32_seed(&r, (uint32_t)seed);
	memcpy(w->gens[0].rand.t32, r.s, sizeof(r.s));
	/* each loop starts it again (floop_next) */
	w->floop.fio_offsets = true;
	w->floop.fio_rand = r;
}

/*
 * verify: what the worker writes to file i, kept for the read-back: a bit per unit, each
 * block's length where write sizes differ from the unit, verify_write_sequence's numbers.
 */
static int setup_verify_maps(struct worker *w, unsigned i)
{
	const struct job_plan *plan = w->plan;
	const struct job_spec *job = w->job;
	uint64_t units = w->files[i].len / plan->unit;

	w->verify.written[i] = calloc(units / 8 + 1, 1);
	if (!w->verify.written[i])
		return -ENOMEM;
	if (job->bs[DDIR_WRITE] != plan->unit || job->bs_max[DDIR_WRITE] != plan->unit) {
		w->verify.blen[i] = calloc(units + 1, sizeof(**w->verify.blen));
		if (!w->verify.blen[i])
			return -ENOMEM;
	}
	if (job->verify.write_sequence && vhdr_size(job->verify.kind)) {
		w->verify.wseq[i] = calloc(units + 1, sizeof(**w->verify.wseq));
		if (!w->verify.wseq[i]) {
			worker_fail(w, ENOMEM, "verify_write_sequence: no memory for the write numbers of %llu blocks of %s (verify_write_sequence=0 does without)",
				    (unsigned long long)units, w->files[i].path);
			return -ENOMEM;
		}
	}
	return 0;
}

static int setup_files(struct worker *w, uint64_t seed)
{
	const struct job_plan *plan = w->plan;
	const struct job_spec *job = w->job;
	bool diskless = job->engine->flags & ENGINE_DISKLESS;
	bool writes = job_changes_files(job);
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
		iop_debugf(DBG_FILE, "add file %s", f->path ? f->path : "");
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
		ret = gen_init(&w->gens[i], f->len, w->fio_units ? w->fio_units : plan->align,
			       !job->norandommap, job->rand_gen,
			       file_seed(w, seed, i));
		if (ret)
			return ret;
		w->gens[i].start = w->gens[i].origin = f->start;
		w->gens[i].real = file_end(w, f, plan_path(plan, w->clone, i));
		if (pass_invalidates(job, w->nr_files))
			w->gens[i].inval = f;
		if (job->verify.kind != VERIFY_NONE && (writes || job->verify.only)) {
			ret = setup_verify_maps(w, i);
			if (ret)
				return ret;
		}
		if (diskless || (job->engine->flags & ENGINE_FILE_OP))
			continue;	/* a file-operation engine's operation is its open */
		/* openfiles below nrfiles: each file is opened as its turn comes */
		if (job->openfiles && job->openfiles < w->nr_files)
			continue;
		ret = worker_open_file(w, i);
		if (ret)
			return ret;
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
		w->time.end_ns = t1;
	}
}

/*
 * fsync_on_close: fio's put_file() flushes each file of a job that writes as it closes it,
 * after the measured time and outside the counts, and not after a sync just made (end_fsync).
 */
static void close_fsync(struct worker *w)
{
	unsigned i;

	if (!w->job->fsync_on_close || !job_writes(w->job->rw) || w->job->end_fsync)
		return;
	for (i = 0; i < w->nr_files; i++) {
		if (w->files[i].fd < 0 || w->files[i].read_only)
			continue;
		if (fsync(w->files[i].fd)) {
			worker_fail(w, errno, "fsync_on_close %s: %s", w->files[i].path,
				    strerror(errno));
			return;
		}
	}
}

/*
 * rw=copy with verify: read both files back from storage (caches dropped first) and compare
 * their crc32c and sizes. Outside the timed interval, like fio's verify phase.
 */
static void copy_verify(struct worker *w)
{
	const size_t chunk = 1u << 20;
	struct copy_check *c = &w->copy.check;
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

	w->copy.check.bytes = w->plan->region;
	if (!fstat(w->files[COPY_DST].fd, &st))
		w->copy.check.dst_size = S_ISREG(st.st_mode) ? (uint64_t)st.st_size : w->plan->region;
	if (!w->aborted && w->job->verify.kind != VERIFY_NONE)
		copy_verify(w);
}

/* Append the worker's logs to their files (created empty by the runner). */

static void write_logs(struct worker *w)
{
	const struct job_spec *job = w->job;
	char path[PATH_MAX];
	unsigned k;
	int ret;

	struct log_columns cols = {
		.offset = job->log.offset,
		.prio_value = job->log.prio,
		.time_base_ms = w->logs->time_base_ms,
	};

	iologs_finish(w->logs, w->time.end_ns);
	if (w->logs->error) {
		worker_fail(w, -w->logs->error, "logs: out of memory for log entries");
		return;
	}
	for (k = 0; k < LOG_KINDS; k++) {
		if (!w->logs->want[k])
			continue;
		/* fio: the issue time is in the latency logs only */
		cols.issue_time = job->log.issue_time && k >= LOG_SLAT;
		cols.compressed = job->log.store_compressed;
		ret = iolog_path(job, worker_thread_number(w->plan, w->clone), k, path,
				 sizeof(path));
		if (!ret)
			ret = k == LOG_HIST ? iolog_append_hist(w->logs, path, job->log.hist_coarseness) :
					      iolog_append(&w->logs->log[k], path, &cols);
		if (ret) {
			worker_fail(w, -ret, "log %s: %s", path, strerror(-ret));
			return;
		}
	}
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

	if (w->aborted || run_terminated(w) || job->verify.kind == VERIFY_NONE)
		return false;
	if (w->loops_left) {
		/* the next loop: a fresh pass over the files, then its own verify */
		w->loops_left--;
		w->issued_ios = 0;
	} else {
		if (!w->seq_ran_off)
			return false;
		limit = job->sizes.io_size ? job->sizes.io_size : plan_worker_bytes(plan, w->clone);
		if (done >= limit || limit - done < plan->max_bs)
			return false;
	}
	w->seq_ran_off = false;
	w->verify.pass = false;
	w->verify.file = 0;
	w->verify.pos = 0;
	w->bytes_issued = 0;
	w->zone.bytes = 0;
	/* the verify pass has read back what the backlog still held */
	w->verify.backlog_head = w->verify.backlog_nr = w->verify.backlog_left = 0;
	open_files_new_pass(w);
	for (i = 0; i < w->nr_files; i++) {
		gen_new_pass(&w->gens[i]);
		if (w->verify.written[i])
			memset(w->verify.written[i], 0, w->files[i].len / plan->unit / 8 + 1);
		if (w->verify.blen[i])
			memset(w->verify.blen[i], 0,
			       (w->files[i].len / plan->unit + 1) * sizeof(*w->verify.blen[i]));
	}
	if (w->mixed)
		mix_new_loop(w);
	if (w->bsr.reseed)
		worker_bs_seed(w);
	return true;
}

/*
 * unlink_each_loop: the next loop, on files removed and created again (worker_unlink_loop);
 * true when one is set up.
 */
static bool unlink_round_again(struct worker *w)
{
	unsigned i;

	if (!job_unlinks_each_loop(w->job) || !w->loops_left || w->aborted || run_terminated(w))
		return false;
	w->loops_left--;
	w->issued_ios = 0;
	w->bytes_issued = 0;
	w->zone.bytes = 0;
	w->seq_ran_off = false;
	for (i = 0; i < w->nr_files; i++)
		gen_rewind(&w->gens[i]);
	return !worker_unlink_loop(w);
}

/*
 * A phase of the job ended at w->time.end_ns (from: its start): its time counts for the
 * directions it did, as fio's update_runtime counts it. An I/O phase counts for the
 * directions the job does (reads also for verify_backlog's); the verify pass only for reads.
 */
static void phase_done(struct worker *w, uint64_t from, bool verify)
{
	const struct job_spec *job = w->job;
	uint64_t span;
	unsigned d;

	/* ramp_time (or latency_target's final window) began the measured time within it */
	if (w->time.start_ns > from)
		from = w->time.start_ns;
	span = w->time.end_ns > from ? w->time.end_ns - from : 0;
	if (verify) {
		w->time.dir_ns[STAT_READ] += span;
		return;
	}
	for (d = 0; d < STAT_NR; d++) {
		if (!w->st[d].ios || (d == STAT_READ && !job_reads(job->rw) && !w->verify.backlog) ||
		    (d == STAT_WRITE && !job_writes(job->rw)))
			continue;
		w->time.dir_ns[d] += span;
	}
}

/* An I/O phase and, as in fio's do_io, its end_fsync. */
static void io_phase(struct worker *w, uint64_t from)
{
	if (w->job->create_only)
		return;		/* fio's create_only: the layout was the job */
	if (w->job->verify.only) {
		io_dry_run(w);
		return;
	}
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

/* The worker's two seeds (offsets and buffers, files' own), and fio's debug lines on them. */
static void worker_seeds(struct worker *w, uint64_t *seed, uint64_t *fseed)
{
	const struct job_spec *job = w->job;
	unsigned i, nf;

	*seed = job->randseed_set ? job->randseed : 0x10ba7;
	*fseed = job->randseed_set ? job->randseed : 0x5eed;
	/* randrepeat=0 (and no randseed): other sequences on every run, as fio */
	if (!job_rand_repeatable(job)) {
		*seed ^= fresh_seed();
		*fseed ^= fresh_seed();
	}
	rng_seed(&w->rng, *seed + w->clone);
	rng_seed(&w->buf.rng, *seed * 31 + w->clone);
	if (!iop_debug_on(DBG_RANDOM))
		return;
	/* fio's lines: the seeds of the worker's streams (iopath's, not fio's generators) */
	nf = w->plan->nr_files + (job->rw == RW_COPY);
	if (!job_rand_repeatable(job))
		iop_debugf(DBG_RANDOM, "using system RNG for random seeds");
	iop_debugf(DBG_RANDOM, "FIO_RAND_NR_OFFS=%u", 2 + nf);
	iop_debugf(DBG_RANDOM, "rand_seeds[0]=%llu", (unsigned long long)(*seed + w->clone));
	iop_debugf(DBG_RANDOM, "rand_seeds[1]=%llu", (unsigned long long)(*seed * 31 + w->clone));
	for (i = 0; i < nf; i++)
		iop_debugf(DBG_RANDOM, "rand_seeds[%u]=%llu", 2 + i,
			   (unsigned long long)file_seed(w, *fseed, i));
}

/* What the job's rw and verify make of the worker: directions, rounds, the bytes to move. */
static void worker_shape(struct worker *w)
{
	const struct job_spec *job = w->job;

	w->verify.check_reads = job->verify.kind != VERIFY_NONE && job->verify.after_write && job->rw != RW_COPY;
	w->verify.job_writes = job_writes(job->rw);
	w->trim.on = job_trims(job->rw);
	w->trim.write = job->rw == RW_TRIMWRITE || job->rw == RW_RANDTRIMWRITE;
	set_dir(w);
	/*
	 * fio verifies after every loop (thread_main: do_io, then do_verify, loops times): a
	 * writing job with verify runs its loops as rounds of one pass and its verify
	 */
	w->target_loops = job->loops;
	if (w->verify.check_reads && job_writes_data(job->rw) && !job->time.based && !job->sizes.io_size &&
	    job->loops > 1) {
		w->target_loops = 1;
		w->loops_left = job->loops - 1;
	} else if (job_unlinks_each_loop(job)) {
		/* unlink_each_loop: a pass per loop, the files made anew between them */
		w->target_loops = 1;
		w->loops_left = job->loops - 1;
	}
	w->bytes_target = io_target(plan_worker_bytes(w->plan, w->clone), job->sizes.io_size, w->target_loops);
}

/* Everything before the start gate: placement, files, options, replay, the engine. */
static int worker_setup(struct worker *w)
{
	const struct job_spec *job = w->job;
	uint64_t seed, fseed;
	int ret;

	worker_seeds(w, &seed, &fseed);
	worker_shape(w);
	if (w->mixed)
		mix_setup(w, seed);
	ret = worker_place(w);	/* CPUs, NUMA policy, priority, then the buffers */
	if (!ret)
		iop_debugf(DBG_JOB, "job %s: worker %u starts (%s, iodepth=%u)", job->name, w->clone,
			   job->engine->name, w->params.iodepth);
	w->fio_units = fio_dir_units(w->job);
	if (!ret)
		ret = setup_files(w, fseed);
	if (!ret)
		fio_block_seed(w);
	if (!ret)
		ret = worker_exec(w, false);
	if (!ret)
		ret = pre_read_files(w);
	if (!ret)
		ret = setup_options(w, seed + w->clone);
	if (!ret)
		floop_setup(w);
	w->flow = w->plan->flow;
	/* trims (make_trim, trimwrite), I/O logs and replays: the full loop only; the plain one is lean */
	w->serialize = job->serialize_overlap && !(job->engine->flags & ENGINE_SYNC) && w->params.iodepth > 1;
	if (w->flow || job->submit_offload || w->zone.zbd || w->trim.on || job->write_iolog[0] ||
	    job->read_iolog[0] || w->serialize)
		w->full = true;
	if (!ret && job->verify.state_load && w->verify.check_reads && job_reads(job->rw)) {
		uint64_t writes;

		/* fio's verify_state_should_stop: no more reads than the writer completed */
		ret = vstate_load(w, &writes);
		if (!ret && (!w->ios_limit || writes < w->ios_limit))
			w->ios_limit = writes;
	}
	if (!ret && job->read_iolog[0])
		ret = replay_setup(w);
	if (!ret)
		ret = worker_engine_start(w);
	if (!ret && w->verify.check_reads && job->verify.async)
		ret = vfy_start(w);
	return ret;
}

/* Past the gate: the measured time starts, with the clocks of rate, thinktime, logs, ramp. */
static int worker_begin(struct worker *w)
{
	const struct job_spec *job = w->job;
	unsigned i;

	if (run_gate_wait(w) && job->invalidate && !run_terminated(w)) {
		/* started late: drop what earlier jobs left cached, as fio's later set-up would */
		for (i = 0; i < w->nr_files; i++)
			if (w->files[i].fd >= 0)
				file_invalidate(w->files[i].fd, w->files[i].start, w->files[i].len);
	}
	measure_start(w, worker_now(w));
	atomic_store(&w->epoch_ns, now_ns());
	if (job->write_iolog[0] && trace_open(w))
		return -1;
	for (i = 0; i < 2; i++)
		rate_shift(&w->rate.dir[i], w->time.start_ns);
	w->think_last_ns = w->time.start_ns;
	if (w->logs)
		iologs_init(w->logs, job, w->time.start_ns, log_time_base_ms(job));
	w->rate.min_last_ns = w->time.start_ns;
	w->rate.min_next_ns = w->time.start_ns + 2000000000ull;	/* fio lets a job settle 2 s */
	if (job->time.ramp_ns) {
		w->time.in_ramp = true;
		w->time.ramp_end_ns = w->time.start_ns + job->time.ramp_ns;
		w->time.deadline_ns = job->time.runtime_ns ?
				      w->time.ramp_end_ns + job->time.runtime_ns : 0;
	}
	atomic_store(&w->running, true);
	return 0;
}

/* The I/O phases: the first, then each round's verify pass and the next round's I/O. */
static void worker_phases(struct worker *w)
{
	const struct job_spec *job = w->job;
	unsigned i;

	if (!run_terminated(w))
		io_phase(w, w->time.start_ns);
	else
		w->time.end_ns = w->time.start_ns;	/* ended by exitall before it started: nothing ran */
	for (;;) {
		if (!w->aborted && !run_terminated(w) && job->verify.kind != VERIFY_NONE && !job->create_only &&
		    job->verify.after_write && job_writes_data(job->rw) && job->rw != RW_COPY) {
			uint64_t from = w->time.end_ns;

			/*
			 * fio's do_verify: drop the file's cached pages first (invalidate=1), so the
			 * reads come from the storage, not from the pages the writes left behind
			 */
			for (i = 0; job->invalidate && i < w->nr_files; i++)
				if (w->files[i].fd >= 0)
					file_invalidate(w->files[i].fd, w->files[i].start, w->files[i].len);
			w->verify.pass = true;
			io_loop(w);
			phase_done(w, from, true);
		}
		if (!verify_round_again(w) && !unlink_round_again(w))
			break;
		io_phase(w, w->time.end_ns);
	}
}

/* After the measured time: verify's state, copy's check, close-time syncs, CPU, logs. */
static void worker_finish(struct worker *w)
{
	const struct job_spec *job = w->job;

	if (job->verify.kind != VERIFY_NONE && job->verify.state_save && job_writes_data(job->rw) &&
	    job->rw != RW_COPY && !job->verify.only && !w->aborted)
		vstate_save(w);
	if (job->rw == RW_COPY)
		copy_finish(w);
	if (!w->aborted)
		close_fsync(w);
	getrusage(RUSAGE_THREAD, &w->ru_end);
	w->sched_valid = w->sched_valid && machine_thread_sched(w->sched_end);
	if (w->kt_valid)
		w->kt_valid = !w->eng.ops->kthread_cpu(&w->eng, &w->kt_end[0], &w->kt_end[1]);
	if (w->logs)
		write_logs(w);
}

void *worker_main(void *arg)
{
	struct worker *w = arg;
	int ret = worker_setup(w);

	gate_arrive(w->start);
	if (!ret)
		ret = worker_begin(w);
	if (!ret) {
		worker_phases(w);
		worker_finish(w);
		worker_exec(w, true);
	}
	trace_close(w);
	replay_done(w);
	vfy_stop(w);
	run_worker_ended(w);
	if (w->flow) {
		flow_leave(w->flow, w->flow_ios, w->job->flow);
		w->flow_left = true;
	}
	run_gate_done(w);
	return NULL;
}

void worker_free(struct worker *w)
{
	unsigned i;

	vfy_stop(w);
	worker_snap_free(atomic_exchange(&w->snap, NULL));
	if (w->eng_ready) {
		for (i = 0; w->eng.ops->close_file && i < w->nr_files; i++)
			w->eng.ops->close_file(&w->eng, &w->files[i]);
		w->eng.ops->exit(&w->eng);
		w->eng_ready = false;
	}
	for (i = 0; w->files && i < w->nr_files; i++) {
		/* a file of the worker's own that it changed: its mark records it as left */
		if (w->files[i].fd >= 0 && !w->plan->shared && job_changes_files(w->job) &&
		    !w->files[i].read_only)
			(void)target_mark_refresh(w->files[i].fd, w->files[i].path);
		if (w->files[i].fd >= 0)
			close(w->files[i].fd);
		w->files[i].fd = -1;
		free(w->verify.written[i]);
		free(w->verify.wseq[i]);
		free(w->verify.blen[i]);
	}
	file_locks_release(w);
	free(w->sfr);
	w->sfr = NULL;
	for (i = 0; w->gens && i < w->nr_files; i++)
		gen_free(&w->gens[i]);
	gen_free(&w->zone.gen);
	free(w->files);
	free(w->gens);
	free(w->verify.written);
	free(w->verify.wseq);
	free(w->verify.blen);
	free(w->nlink_at_open);
	open_files_free(w);
	w->files = NULL;
	w->gens = NULL;
	w->verify.written = NULL;
	w->verify.wseq = NULL;
	w->verify.blen = NULL;
	w->nlink_at_open = NULL;
	/* never unmap buffers the kernel may still read or write: leak them instead */
	if (w->buf.map && !w->bufs_in_flight)
		munmap(w->buf.map, w->buf.map_len);
	else if (w->params.buf_base && w->params.buf_len && !w->bufs_in_flight)
		munmap(w->params.buf_base, w->params.buf_len);
	w->buf.map = NULL;
	if (w->mem_open) {
		struct stat fst, nst;

		/* the mem= file this worker made goes, if its name is still that file */
		if (w->mem_created && !fstat(w->mem_fd, &fst) && !lstat(w->job->mem_file, &nst) &&
		    fst.st_dev == nst.st_dev && fst.st_ino == nst.st_ino)
			(void)target_remove(w->job->mem_file);
		close(w->mem_fd);
		w->mem_open = false;
	}
	free(w->params.reqs);
	free(w->rate.sched_ns);
	w->rate.sched_ns = NULL;
	free(w->free_reqs);
	free(w->batch);
	free(w->done);
	free(w->copy.ready);
	w->copy.ready = NULL;
	free(w->meta);
	cmdprio_free(w);
	w->meta = NULL;
	free(w->st);
	progress_log_free(&w->progress);
	ss_free(&w->ss);
	free(w->buf.dedupe_ws);
	w->buf.dedupe_ws = NULL;
	for (i = 0; w->zone.zbd && i < w->nr_files; i++)
		if (w->zone.zbd[i].dev)
			zbd_owner_leave(&w->zone.zbd[i], &w->zone.own);
	free(w->zone.zbd);
	w->zone.zbd = NULL;
	free(w->verify.backlog);
	w->verify.backlog = NULL;
	if (w->logs)
		iologs_free(w->logs);
	free(w->logs);
	w->logs = NULL;
	offsets_free(w);
	w->params.buf_base = NULL;
	w->params.reqs = NULL;
	w->free_reqs = w->batch = w->done = NULL;
	w->st = NULL;
}
