/* A worker's per-I/O options, decided once at set-up: their state, and whether it needs the full loop. */
#include <errno.h>
#include <stdlib.h>

#include "base/msg.h"
#include "io/buffer.h"
#include "run/run.h"
#include "run/runner.h"
#include "run/worker.h"

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
	uint64_t n = job->sizes.size * job->buf.dedupe_ws_pct / 100 / job->bs[DDIR_WRITE], per, i;
	struct rng stream;

	if (!n)
		n = 1;
	if (n > (1ull << 27)) {
		worker_fail(w, EINVAL, "dedupe_working_set_percentage: %llu buffers in the working set (at most %llu)",
			    (unsigned long long)n, 1ull << 27);
		return -EINVAL;
	}
	w->buf.dedupe_ws = malloc(n * sizeof(*w->buf.dedupe_ws));
	if (!w->buf.dedupe_ws) {
		worker_fail(w, ENOMEM, "dedupe working set: out of memory");
		return -ENOMEM;
	}
	w->buf.nr_dedupe_ws = n;
	per = job->buf.dedupe_global ? (n / t ? n / t : 1) : n;
	for (i = 0; i < n; i++) {
		/* block k of the set: worker (me + k) mod t's first buffers, as fio rotates them */
		if (i % per == 0)
			dedupe_stream(&stream, base, (unsigned)((me + i / per) % t));
		w->buf.dedupe_ws[i] = rng_next(&stream) | 1;
	}
	dedupe_stream(&w->buf.dedupe_uniq, base, me);
	return 0;
}

static int setup_zones(struct worker *w, unsigned d)
{
	const struct job_spec *job = w->job;
	struct zoned *z = &w->off.zoned[d];
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

/* sprandom: its regions over the file; the job writes the physical size (fio's io_size). */
static int setup_sprandom(struct worker *w, uint64_t seed)
{
	const struct job_spec *job = w->job;
	uint64_t phys, logical = w->gens[0].region;
	int ret;

	if (job->sizes.io_size && job->sizes.io_size < logical)
		logical = job->sizes.io_size;
	w->off.spr = calloc(1, sizeof(*w->off.spr));
	if (!w->off.spr) {
		worker_fail(w, ENOMEM, "sprandom: out of memory");
		return -ENOMEM;
	}
	ret = sprandom_init(w->off.spr, logical, job->bs[DDIR_WRITE], job->spr_num_regions, job->spr_op,
			    seed ^ 0x5e7a11dull, &phys);
	if (ret) {
		worker_fail(w, -ret, "sprandom: %s", ret == -ENOMEM ? "out of memory" :
			    "the file holds less than one block");
		return ret;
	}
	w->bytes_target = phys;
	w->full = true;
	return 0;
}

/* random_distribution: zipf/pareto/normal generators per file, or the zone tables. */
static int setup_distribution(struct worker *w, uint64_t seed)
{
	const struct job_spec *job = w->job;
	unsigned i;
	int ret;

	rng_seed(&w->off.zone_rng, seed ^ 0x2011eull);
	/* sequence: no generator, the worker counts through the job's indices (sequence_block) */
	if (job->random_distribution == DIST_SEQUENCE)
		return 0;
	if (job->random_distribution == DIST_ZONED || job->random_distribution == DIST_ZONED_ABS) {
		w->off.zoned = calloc(2, sizeof(*w->off.zoned));
		if (!w->off.zoned) {
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
	w->off.fdist = calloc(w->nr_files, sizeof(*w->off.fdist));
	if (!w->off.fdist) {
		worker_fail(w, ENOMEM, "random_distribution: out of memory");
		return -ENOMEM;
	}
	for (i = 0; i < w->nr_files; i++) {
		ret = dist_init(&w->off.fdist[i], job->random_distribution, w->gens[i].nblocks,
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

/* How many requests the full loop keeps in flight: iodepth, iodepth_low, latency_target. */
static void setup_queue(struct worker *w)
{
	const struct job_spec *job = w->job;

	w->qd_cap = w->params.iodepth;
	/* iodepth_low below iodepth: the full loop drains a full queue down to it */
	if (job->iodepth_low && job->iodepth_low < w->params.iodepth &&
	    !(job->engine->flags & ENGINE_SYNC)) {
		w->depth_low = job->iodepth_low;
		w->full = true;
	}
	/* max_latency=: each completion's latency checked (the full loop's accounting) */
	if ((job->max_lat_ns[0] || job->max_lat_ns[1] || job->max_lat_ns[2]) && !job->disable_lat)
		w->lat_tgt.max_lat = w->full = true;
	/* sync_file_range=: the range each file's writes cover (sync_range_note), the full loop's */
	if (job->sfr_blocks) {
		unsigned i;

		w->sfr = calloc(w->nr_files, sizeof(*w->sfr));
		if (!w->sfr) {
			worker_fail(w, ENOMEM, "sync_file_range: out of memory");
			return;
		}
		for (i = 0; i < w->nr_files; i++)
			w->sfr[i].first = UINT64_MAX;
		w->full = true;
	}
	/* lockfile=: each submission under its file's lock (file_lock_submit, the full loop) */
	if (job->lockfile != LOCKFILE_NONE)
		w->full = true;
	if (job->lat_target.ns) {
		/* fio's lat_target_init: from depth 1 up, bounded by iodepth */
		w->lat_tgt.on = w->full = true;
		w->qd_cap = 1;
		w->lat_tgt.qd_low = 1;
		w->lat_tgt.qd_high = w->params.iodepth;
	}
}

/* rate, rate_iops per direction (after the block sizes), rate_min; the schedule's stamps. */
static int setup_rate(struct worker *w, uint64_t seed)
{
	const struct job_spec *job = w->job;
	unsigned d;

	for (d = 0; d < 2; d++) {
		uint64_t bps = job->rate.bps[d] ? job->rate.bps[d] : job->rate.iops[d] * w->bsg[d].min;

		rate_init(&w->rate.dir[d], bps, w->bsg[d].min, job->rate.poisson, 0, seed ^ (0x9a7eull + d));
		w->rate.on |= bps != 0;
		w->rate.min_on |= job->rate.min_bps[d] || job->rate.min_iops[d];
	}
	if (w->rate.on) {
		w->rate.sched_ns = calloc(w->params.iodepth, sizeof(*w->rate.sched_ns));
		if (!w->rate.sched_ns) {
			worker_fail(w, ENOMEM, "rate: out of memory");
			return -ENOMEM;
		}
	}
	return 0;
}

/*
 * percentage_random below 100 in a random job: each direction's stream of fio's draws, seeded
 * as fio's td_fill_rand_seeds_internal seeds seq_rand_state (every direction from the
 * FIO_RAND_SEQ_RAND_READ_OFF seed); randrepeat=0 without randseed: a fresh seed.
 */
static void setup_perc_rand(struct worker *w, uint64_t seed)
{
	const struct job_spec *job = w->job;
	uint64_t s;
	unsigned d;

	w->off.perc_rand = job_rw_random(job->rw) &&
			   (job->perc_rand[0] < 100 || job->perc_rand[1] < 100 || job->perc_rand[2] < 100);
	if (!w->off.perc_rand)
		return;
	s = job_rand_repeatable(job) ?
	    fio_stream_seed(job->randseed_set ? job->randseed : 0x89,
			    worker_thread_number(w->plan, w->clone), FIO_STREAM_SEQ_RAND) :
	    seed ^ 0x5e05e05eull;
	for (d = 0; d < 3; d++)
		frand32_seed(&w->off.seq_rand[d], (uint32_t)s);
}

/* Block sizes, file choice and the offsets' sequence: bs ranges, file_service_type, rw=...:N. */
static int setup_offsets(struct worker *w, uint64_t seed)
{
	const struct job_spec *job = w->job;
	unsigned d;
	int ret;

	for (d = 0; d < 2; d++) {
		bs_gen_init(&w->bsg[d], job, d);
		if (w->bsg[d].min != w->bsg[d].max)
			w->full = true;
	}
	/*
	 * fio's bsrange streams: seeded from randseed (0x89 by default) as its rand_seeds
	 * FIO_RAND_BS_OFF and BS1_OFF; with verify the writes take the reads' seed, as fio's
	 * td_fill_rand_seeds_internal; randrepeat=0 without randseed: a fresh seed
	 */
	for (d = 0; d < 2; d++) {
		unsigned idx = d == DDIR_WRITE && job->verify.kind == VERIFY_NONE;

		w->bsr.seed[d] = job_rand_repeatable(job) ?
				fio_stream_seed(job->randseed_set ? job->randseed : 0x89,
						worker_thread_number(w->plan, w->clone), idx) :
				(seed ^ 0xb5b5b5b5ull) + idx;
	}
	w->bsr.use64 = job->rand_gen == RAND_GEN_TAUSWORTHE64;
	w->bsr.reseed = job->randrepeat && !job->randseed_set;
	worker_bs_seed(w);
	rng_seed(&w->fsel.rng, seed ^ 0xf1f1f1f1ull);
	if (job->file_service != FSVC_ROUNDROBIN || job->file_service_nr > 1)
		w->full = true;
	/* the first pick moves to file 0 */
	w->cur_file = w->nr_files - 1;
	if (job->file_service == FSVC_SEQUENTIAL) {
		w->cur_file = 0;
		w->fsel.bytes_left = w->files[0].len;
	}
	setup_perc_rand(w, seed);
	w->off.seq_step = job->seq_add || (job_rw_random(job->rw) && job->seq_nr > 1) ||
		      job->zone.strided || w->off.perc_rand;
	if (job->zone.strided &&
	    gen_init(&w->zone.gen, job->zone.range, w->plan->align, !job->norandommap,
		     job->rand_gen, seed ^ 0x20e5ull))
		return -ENOMEM;
	w->off.seq_left = 1;	/* as in fio, the first I/O of rw=randread:N is a random one */
	w->passes_left = job->loops - 1;
	/* fio: number_ios counts every I/O issued, over all loops; time_based ignores it */
	w->ios_limit = job->time.based ? 0 : mul_sat(job->number_ios, w->target_loops);
	if (w->ios_limit)
		w->full = true;
	if (w->off.seq_step)
		w->full = true;
	if (job->random_distribution != DIST_RANDOM) {
		ret = setup_distribution(w, seed);
		if (ret)
			return ret;
		w->full = true;
	}
	if (job->sprandom)
		return setup_sprandom(w, seed);
	return 0;
}

/* verify_backlog: the ring of written blocks waiting to be read back. */
static int setup_backlog(struct worker *w)
{
	const struct job_spec *job = w->job;

	if (!job->verify.backlog || !job->verify.after_write || !job_writes_data(job->rw) ||
	    job->rw == RW_COPY)
		return 0;
	w->verify.backlog = calloc(job->verify.backlog, sizeof(*w->verify.backlog));
	if (!w->verify.backlog) {
		worker_fail(w, ENOMEM, "verify_backlog: out of memory");
		return -ENOMEM;
	}
	w->full = true;
	return 0;
}

/* What the worker records of each I/O: completions counted, histograms, debug lines, logs. */
static int setup_records(struct worker *w)
{
	const struct job_spec *job = w->job;

	w->think_blocks_given = job->think.blocks_given;
	/* completions are counted only for what reads the counts */
	w->count_done = w->rate.min_on || (job->think.ns && !job->think.issue);
	w->hist_lat = job->lat_percentiles && !job->disable_lat;
	w->hist_slat = job->slat_percentiles && !job->disable_slat;
	w->sync_at_qd1 = (job->engine->flags & ENGINE_SYNC_AT_QD1) && w->params.iodepth == 1;
	if (w->hist_lat || w->hist_slat)
		w->full = true;
	w->debug_io = iop_debug_on(DBG_IO);
	w->debug_random = iop_debug_on(DBG_RANDOM) && job_rw_random(job->rw);
	w->rand_plain = !w->off.spr && !w->off.fdist && !w->off.zoned && !w->debug_random && !w->fio_units &&
			job->random_distribution != DIST_SEQUENCE;
	if (w->debug_io || w->debug_random || w->fio_units)
		w->full = true;
	if (iolog_wanted(job)) {
		w->logs = calloc(1, sizeof(*w->logs));
		if (!w->logs) {
			worker_fail(w, ENOMEM, "logs: out of memory");
			return -ENOMEM;
		}
		w->full = true;
	}
	if (w->rate.on || w->rate.min_on || job->think.ns)
		w->full = true;
	w->stamp_submit = job_stamps_submit(job, job->engine->flags & ENGINE_SYNC) || w->logs;
	return 0;
}

/* The buffers' contents: scramble_buffers, dedupe's working set. */
static int setup_contents(struct worker *w, uint64_t seed)
{
	const struct job_spec *job = w->job;

	w->buf.scramble = job->buf.scramble && !job->buf.zero && !job->buf.refill &&
		      !job->buf.compress_pct && !job->buf.dedupe_pct &&
		      job->verify.kind == VERIFY_NONE;
	rng_seed(&w->buf.dedupe_rng, seed ^ 0xdedeull);
	if (job->buf.dedupe_pct && job->buf.dedupe_ws && job_writes(job->rw))
		/* one base for the run, so that workers can draw each other's buffers */
		return setup_dedupe_ws(w, (job->randseed_set ? job->randseed : 0x10ba7) ^ 0xdede5e7ull);
	return 0;
}

/* file_service_type=zipf/pareto/normal: the distribution the next file is drawn from. */
static int setup_file_dist(struct worker *w, uint64_t seed)
{
	const struct job_spec *job = w->job;
	static const enum rand_dist fsvc_dist[] = {
		[FSVC_ZIPF] = DIST_ZIPF, [FSVC_PARETO] = DIST_PARETO, [FSVC_NORMAL] = DIST_NORMAL,
	};
	int ret;

	if (job->file_service < FSVC_ZIPF)
		return 0;
	ret = dist_init(&w->fsel.dist, fsvc_dist[job->file_service],
			(uint64_t)w->nr_files << FSVC_DIST_SHIFT, job->file_service_arg, -1.0,
			false, seed ^ 0xd15ull);
	if (ret)
		worker_fail(w, -ret, "file_service_type: bad distribution value %g",
			    job->file_service_arg);
	return ret;
}

void offsets_free(struct worker *w)
{
	free(w->off.fdist);
	free(w->off.zoned);
	if (w->off.spr)
		sprandom_free(w->off.spr);
	free(w->off.spr);
	w->off.spr = NULL;
	w->off.fdist = NULL;
	w->off.zoned = NULL;
}

/*
 * Decide, once, which per-I/O options this worker needs, and set up their state. A job
 * that needs none runs the plain loop.
 */
int setup_options(struct worker *w, uint64_t seed)
{
	const struct job_spec *job = w->job;
	int ret;

	setup_queue(w);
	ret = setup_offsets(w, seed);
	if (!ret)
		ret = setup_backlog(w);
	if (!ret)
		ret = setup_rate(w, seed);
	w->ioprio = job_ioprio(job);
	if (!ret && job_cmdprio(job)) {
		ret = cmdprio_setup(w, seed);
		w->full = true;
	}
	if (!ret)
		ret = setup_records(w);
	if (!ret)
		ret = setup_contents(w, seed);
	if (!ret)
		ret = setup_file_dist(w, seed);
	if (!ret)
		ret = open_files_setup(w);
	return ret;
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
