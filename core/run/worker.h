/* One worker thread of a job: its engine instance, request pool, offsets and statistics. */
#ifndef IOPATH_WORKER_H
#define IOPATH_WORKER_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/resource.h>

#include "io/dist.h"
#include "io/sprandom.h"
#include "base/clock.h"
#include "io/file.h"
#include "run/phase.h"
#include "io/flow.h"
#include "stats/stats.h"
#include "stats/steady.h"
#include "io/gen.h"
#include "io/iolog.h"
#include "io/rate.h"
#include "iopath/result.h"
#include "job/target.h"
#include "io/zbd.h"

/*
 * cmdprio: the priorities a worker gives its I/Os (core/run/cmdprio.c). Per direction, the
 * choices of each block size in turn (bs 0: any size, cmdprio_percentage); one draw in 0-99
 * per I/O takes the first choice of its size whose cumulative share it is below.
 */
struct cmdprio_choice {
	uint32_t bs;
	uint16_t upto;
	uint16_t prio;
};

struct cmdprio_run {
	unsigned nr[2];
	struct cmdprio_choice c[2][BSSPLIT_MAX];
	struct rng rng;
};

/* What the runner decided for a job before any I/O: its files, sizes and units. */
struct job_plan {
	const struct job_spec *job;
	const struct target_policy *pol;
	unsigned nr_workers;
	unsigned nr_files;		/* per worker */
	char **paths;			/* nr_files per worker, or nr_files shared by all */
	struct path_set names;		/* where paths point */
	bool shared;
	bool blockdev;
	uint64_t offset;		/* the first worker's start in each file (offset=, N%) */
	uint64_t region;		/* bytes of each file a worker uses (filesize: the largest) */
	uint64_t *file_len;		/* per path: the region a worker uses in that file */
	uint64_t *file_have;		/* per path: its size before the run, 0 when missing */
	bool *file_missing;		/* per path: it did not exist when planned (its creator marks it) */
	bool *file_link;		/* per path: the name was a symbolic link when planned */
	int *fds;			/* per path (+ the copy's source last): the descriptor checked
					   right before the group ran, which workers reopen; -1 none */
	uint64_t worker_bytes;		/* bytes a worker moves per loop when io_size is not given */
	uint64_t *worker_total;		/* filesize= on each worker's own files: per worker, its files' bytes */
	uint32_t unit;			/* verify granularity: the smallest block size */
	uint32_t align;			/* random-offset granularity (blockalign) */
	uint32_t max_bs;
	uint64_t offset_increment;	/* offset_increment, a percentage made bytes */
	uint64_t start_align;		/* offset=N%, offset_increment=N%: each worker's start aligned
					   up to this (offset_align, else the smallest bs); 0: none */
	unsigned first_thread;		/* fio's thread number of worker 0 (log names), from 1 */
	char copy_src[PATH_MAX];	/* rw=copy: the source; paths[0] is the destination */
	/* ioscheduler=: the queue/scheduler file switched and what it held, put back after */
	char iosched_file[PATH_MAX];
	char iosched_prev[64];
	bool copy_src_blockdev;
	const struct tsc_clock *tsc;	/* the job's clock: the TSC, or NULL for CLOCK_MONOTONIC */
	struct flow *flow;		/* flow=: the job's flow (its workers joined at set-up) */
	struct zbd_dev **zbd;		/* zonemode=zbd: per path, its emulated zones */
	unsigned first_worker;		/* the run-wide number of the job's first worker */
	unsigned laid_files;		/* files layout_job created or extended, and their sizes */
	uint64_t laid_bytes;
	unsigned run_workers;		/* workers of every job of the run (fio's thread_number) */
	/* atomic=1: the narrowest atomic write limits of its files, as checked on their
	 * descriptors before the run (unit_max 0: none checked) */
	struct atomic_limits atomic;
};

/* The bytes worker c moves per loop when io_size is not given. */
static inline uint64_t plan_worker_bytes(const struct job_plan *plan, unsigned c)
{
	if (plan->worker_total)
		return plan->worker_total[c];
	return plan->worker_bytes ? plan->worker_bytes : plan->region * plan->nr_files;
}

/*
 * All workers of a group start together: each arrives when set up and waits; the runner
 * waits until every one has arrived (or it knows how many really started), then opens.
 */
struct start_gate {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	unsigned arrived;
	unsigned expected;
	bool open;
};

void gate_init(struct start_gate *g, unsigned expected);
void gate_destroy(struct start_gate *g);
void gate_arrive(struct start_gate *g);		/* a worker: set up, wait for the start */
void gate_expect(struct start_gate *g, unsigned expected);
void gate_wait_ready(struct start_gate *g);	/* the runner: every worker has arrived */
void gate_open(struct start_gate *g);

/* rw=copy: the source is files[COPY_SRC], the destination files[COPY_DST]. */
#define COPY_DST 0
#define COPY_SRC 1

/* Where worker clone's region of a file starts: offset + offset_increment * clone (fio). */
static inline uint64_t worker_start(const struct job_plan *plan, unsigned clone)
{
	uint64_t s = plan->offset + plan->offset_increment * clone;

	/* fio's get_start_offset: a percentage's start at the next boundary of start_align */
	if (plan->start_align && s % plan->start_align)
		s += plan->start_align - s % plan->start_align;
	return s;
}

/*
 * fio's thread number of worker clone (log file names): the job's first worker takes the
 * job's first number, and fio creates the other clones last to first, so clone 1 gets the
 * job's last number.
 */
static inline unsigned worker_thread_number(const struct job_plan *plan, unsigned clone)
{
	return plan->first_thread + (clone ? plan->nr_workers - clone : 0);
}

/* Index of a worker's file i in the plan's per-path arrays. */
static inline unsigned plan_path(const struct job_plan *plan, unsigned clone, unsigned i)
{
	return (plan->shared ? 0 : clone * plan->nr_files) + i;
}

/* Non-uniform file choice draws over nr_files << this, as fio does (FIO_FSERVICE_SHIFT). */
#define FSVC_DIST_SHIFT 10

/* random_distribution=zoned / zoned_abs for one direction, decided at setup. */
struct zoned {
	unsigned nr;
	bool absolute;
	uint8_t pick[100];		/* the zone of each percent of the draws */
	uint64_t lo[ZONES_MAX];		/* zone start: percent of the region, or bytes */
	uint64_t hi[ZONES_MAX];		/* zone end, likewise */
};

/*
 * latency_target= (fio's lat_target_*): the depth being tried and its bounds, the window
 * (set up by setup_queue in core/run/wopts.c, run by lat_target_check in loop.c).
 */
struct lat_tgt {
	bool on;
	bool quiesce;			/* let every in-flight I/O complete before issuing more */
	bool end_run;			/* the depth is found: one last window, measured afresh */
	bool done;
	bool max_lat;			/* max_latency=: a completion over it fails the job */
	unsigned qd_low, qd_high;
	uint64_t failed;		/* I/Os over the target in this window */
	uint64_t ios;			/* completions when the window began */
	uint64_t ts;			/* when the window began */
};

/*
 * rate, rate_iops (the pace per direction) and rate_min, rate_iops_min (the floor), set up by
 * setup_rate in core/run/wopts.c; paced in core/run/reqgen.c, the floor checked in loop.c.
 */
struct worker_rate {
	struct rate dir[2];		/* rate / rate_iops per direction */
	bool on;			/* either direction is paced */
	/*
	 * Per request (by its index), when the schedule said it should start; 0 for one the
	 * schedule did not pace. Its completion less this is the latency from the intended start
	 * (lat_sched), which a stall cannot hide as fio's latency does.
	 */
	uint64_t *sched_ns;
	uint64_t wait_ns;		/* the next I/O is due then (set when it is not yet) */
	unsigned held;			/* 1 + the direction waited for (0: none), issued next */
	bool min_on;			/* rate_min / rate_iops_min is checked */
	uint64_t min_next_ns;
	uint64_t min_last_ns;
	uint64_t min_bytes[2];
	uint64_t min_ios[2];
};

/*
 * rw=rw, randrw: the directions as fio draws them (its get_rw_ddir): a stream of their own,
 * seeded from fio's thread number of the worker, each draw rwmixread out of 100; a direction
 * drawn anew holds until its I/Os issued reach the other's times its share (set_rwmix_bytes),
 * and every loop of a repeatable job starts the stream again. Set by setup_mix
 * (core/run/worker.c), drawn by mix_dir (core/run/runner.h).
 */
struct worker_mix {
	struct frand32 rand;
	uint32_t seed;
	bool reseed;			/* each loop starts the stream again (randrepeat) */
	bool pass_draw;			/* a loop's end draws once more (fio's failed last try) */
	unsigned dir;			/* fio's rwmix_ddir: the direction held */
	uint64_t issues[2];		/* fio's io_issues: I/Os issued per direction */
	uint64_t until;			/* fio's rwmix_issues: held while issues[dir] is below */
	uint64_t pass_bytes;		/* a loop's bytes (0: one loop); the next loop begins at */
	uint64_t pass_end;
};

/*
 * loops= as fio's thread_main runs them (core/run/floop.c): each loop is one do_io, which
 * ends where fio's get_io_u finds nothing (the random map full, a sequential direction at the
 * file's end) or, with an engine that queues, once the loop has queued its size; every loop
 * counts towards size x loops, the whole run's limit (fio's io_issue_bytes_exceeded).
 */
struct worker_floop {
	bool on;
	bool reseed;			/* randrepeat: every stream starts again at each loop */
	uint64_t bytes;			/* a loop's bytes when the engine queues (0: no such end) */
	uint64_t start;			/* bytes_issued when this loop began */
	uint64_t io_size;		/* io_size= (0: none): loops go on until it is moved */
	bool fio_offsets;		/* the file's offsets come from fio's stream, seeded so: */
	struct frand32 fio_rand;
};

struct verifier;

/*
 * verify=: what the worker wrote and reads back (set up in core/run/worker.c: worker_alloc_files,
 * worker_shape; the backlog by setup_options in wopts.c; stamped and read back by reqgen.c,
 * checked by verify.c).
 */
struct worker_verify {
	unsigned char **written;	/* blocks written, one bit per unit */
	uint16_t **wseq;		/* verify_write_sequence: each unit's last write number */
	/* writes of other sizes than the unit: each block's length in units at its first unit
	 * (0: no block starts there), so that the verify pass reads each block as written */
	uint32_t **blen;
	uint64_t seq;			/* fio's numberio: the next write's number */
	/* verify_backlog: written blocks not yet read back, a FIFO ring (file, offset, length) */
	struct backlog_entry {
		uint64_t offset;
		uint32_t len;
		uint32_t file;
	} *backlog;
	uint64_t backlog_head, backlog_nr, backlog_left;
	bool pass;			/* in the verify pass: reading back what was written */
	bool check_reads;		/* verify every read against its block header */
	bool job_writes;		/* job_writes(job->rw), for verify_read */
	struct verifier *async;		/* verify_async: the threads that check reads */
	unsigned async_out;		/* requests with them (they count against iodepth) */
	unsigned file;			/* the verify pass's place: file, unit */
	uint64_t pos;
	uint64_t errors;		/* blocks that failed */
};

/*
 * openfiles below nrfiles (set up by open_files_setup, kept by open_files_pick in
 * core/run/openfiles.c): as fio's get_next_file, files are opened as their turn comes, at
 * most limit at once, and each is closed when its range is used up.
 */
enum { FO_SHUT, FO_OPEN, FO_DONE };
struct worker_open {
	unsigned limit;			/* openfiles; 0: every file open from the start */
	unsigned nr_open;		/* files open for I/O now */
	unsigned char *state;		/* per file: FO_SHUT (not yet opened), FO_OPEN, FO_DONE */
	uint64_t *left;			/* per file: bytes left in its range this pass */
	bool ends;			/* a range can be used up: sequential, or random with the
					 * map, and not time_based (else only the first files run) */
	bool ready;			/* cur_file is picked for the next request */
	unsigned passes_left;		/* loops' passes over the files still to start */
	uint32_t min_len;		/* the smallest request: less left and the file is done */
};

/*
 * Where the next offset comes from, past the files' own generators (w->gens): the random
 * distributions, sprandom, rw=...:N's steps. Set up by setup_offsets (core/run/wopts.c), drawn
 * by core/run/reqgen.c, freed by offsets_free (core/run/wopts.c).
 */
struct worker_offsets {
	struct dist *fdist;		/* random_distribution zipf/pareto/normal: one per file */
	struct sprandom *spr;		/* sprandom: its offsets (one file) */
	struct zoned *zoned;		/* random_distribution zoned/zoned_abs: [2] */
	uint64_t seq_dist_k;		/* random_distribution=sequence: random I/Os so far */
	struct rng zone_rng;		/* zoned/zoned_abs: which zone */
	bool seq_step;			/* rw=...:N, rw_sequencer, percentage_random (seq_step_offset) */
	unsigned seq_left;		/* random modes: I/Os until the next random offset */
	/* percentage_random below 100: fio's seq_rand_state per direction, whose draw in 1..100
	 * says whether the I/O is random (at or below the percentage) or sequential */
	bool perc_rand;
	struct frand32 seq_rand[3];
};

/*
 * file_service_type: how the file of the next request is chosen (the chosen one is
 * w->cur_file, which the loops read). Set up by setup_offsets and setup_file_dist
 * (core/run/wopts.c); kept by pick_file (core/run/reqgen.c) and, below nrfiles,
 * open_files_pick (core/run/openfiles.c).
 */
struct worker_fsel {
	unsigned left;			/* I/Os left on cur_file before choosing again */
	uint64_t bytes_left;		/* file_service_type=sequential: bytes left in cur_file */
	struct rng rng;			/* file_service_type=random */
	struct dist dist;		/* file_service_type=zipf/pareto/normal */
};

/*
 * The bandwidth and IOPS samples (write_bw_log, write_iops_log, the bw_ and iops_ statistics):
 * when each is next due, when each was last taken and the counts then. Started by
 * measure_start (the counts zeroed by its stats_reset), taken by take_sample
 * (core/run/account.c); the earlier of the two due times is w->next_sample_ns, which the loops
 * read.
 */
struct worker_sample {
	uint64_t next_bw_ns, next_iops_ns;	/* each every bwavgtime, iopsavgtime */
	uint64_t last_bw_ns, last_iops_ns;
	uint64_t last_bytes[3];		/* st[].bytes at the last bw sample, st[].ios at the IOPS one */
	uint64_t last_ios[3];
};

/*
 * rw=trim and trimwrite: the write direction's requests go out as trims, and trimwrite writes
 * each block after its trim (set up by worker_shape in core/run/worker.c; issued by
 * core/run/reqgen.c). Such jobs run the full loop.
 */
struct worker_trim {
	bool on;			/* the job trims */
	bool write;			/* trimwrite: each trimmed block is written next */
	bool pending;			/* trimwrite: the block just trimmed (below) is written next */
	struct io_file *file;
	uint64_t offset;
	uint32_t len;
};

/*
 * rw=copy: blocks read and waiting to be written, a FIFO ring of iodepth slots (allocated by
 * setup_buffers in core/run/wthread.c, run by core/run/reqgen.c), and the check of the copy
 * when it ends (copy_finish in core/run/worker.c).
 */
struct worker_copy {
	struct io_req **ready;
	unsigned head;
	unsigned nr_ready;
	uint64_t next;			/* next source offset to read */
	struct copy_check check;
};

/*
 * zonemode=zbd: the worker's view of each file's zones and those it holds (set up by setup_zbd
 * in core/run/worker.c, kept by zbd_place in core/run/reqgen.c); zonemode=strided: its place
 * in the current zone (zone_step in reqgen.c).
 */
struct worker_zone {
	struct zbd_view *zbd;		/* zonemode=zbd: per file, its zones as this worker sees them */
	struct zbd_owner own;		/* zonemode=zbd: the zones it holds open, those it reset */
	bool quiesce;			/* zonemode=zbd: in-flight I/O completes before the next */
	uint64_t bytes;			/* zonemode=strided: bytes moved in the current zone */
	struct file_gen gen;		/* zonemode=strided: random offsets within a zone */
};

/*
 * The request buffers' mapping (setup_buffers in core/run/wthread.c; params.buf_base lies in
 * it) and what writes fill them with: scramble_buffers, dedupe's seeds and working set (set up
 * by setup_options in core/run/wopts.c, seeded by worker_seeds in core/run/worker.c; filled by
 * core/run/reqgen.c).
 */
struct worker_buf {
	void *map;			/* the mapping buf_base lies in (aligned inside it) */
	size_t map_len;
	bool huge;			/* transparent huge pages were advised for the buffers */
	struct rng rng;			/* the buffers' contents */
	bool scramble;			/* scramble_buffers applies to this job's writes */
	uint64_t write_seq;
	uint64_t dedupe_seed;		/* dedupe_percentage: the last unique buffer's seed */
	struct rng dedupe_rng;
	uint64_t *dedupe_ws;		/* dedupe_mode=working_set: the seeds of its buffers */
	uint64_t nr_dedupe_ws;
	struct rng dedupe_uniq;		/* working_set: this worker's unique buffers' seeds */
};

/*
 * fio's bsrange streams, reads' and writes' (its FIO_RAND_BS_OFF and BS1_OFF), the block
 * sizes that vary are drawn from; their seeds, and whether each loop starts them again
 * (randrepeat, as fio's clear_io_state).
 */
struct worker_bsrand {
	struct frand rand[2];
	uint64_t seed[2];
	bool use64, reseed;
};

/*
 * A worker's clock marks: started and the deadline set by measure_start (core/run/account.c),
 * as its I/O begins and again as a ramp ends; the ramp by worker_begin (core/run/worker.c);
 * end_ns written by the loop that ends it, dir_ns summed by worker.c, read by collect.c.
 */
struct worker_time {
	uint64_t start_ns;
	uint64_t end_ns;
	uint64_t dir_ns[STAT_NR];	/* measured time per direction (fio's runtime[ddir]) */
	uint64_t ramp_end_ns;		/* ramp_time's end (in_ramp until then) */
	uint64_t deadline_ns;		/* runtime's end; 0: none */
	bool in_ramp;
};

struct worker {
	const struct job_spec *job;
	const struct job_plan *plan;
	unsigned clone;
	struct start_gate *start;
	void *gate;			/* the runner's start conditions (startdelay, wait_for) */
	const struct tsc_clock *tsc;	/* plan->tsc, kept with the hot fields */

	struct engine eng;
	bool eng_ready;
	struct io_file *files;		/* nr_files of each (worker_alloc_files) */
	unsigned nr_files;
	struct file_gen *gens;
	struct worker_verify verify;	/* verify= */
	struct worker_open open;	/* openfiles below nrfiles */
	struct worker_mix mix;		/* rw=rw, randrw: fio's direction draws */
	bool *nlink_at_open;		/* the file had links when opened */

	/*
	 * What its engine instances are set up with, built once at set-up: the request pool, its
	 * depth (iodepth: params.iodepth is the one the runner reads too) and the buffers by
	 * setup_buffers (core/run/wthread.c), the files and the job's settings by worker_params
	 * (core/run/wengine.c); the engine and the offload pool's threads take it as it is.
	 */
	struct engine_params params;
	struct io_req **free_reqs;
	unsigned nr_free;
	struct io_req **batch;
	unsigned nr_batch;
	unsigned nr_stamped;
	struct io_req **done;
	unsigned inflight;
	struct worker_buf buf;		/* the buffers' mapping and what they are filled with */
	int mem_fd;			/* mem=mmap:FILE / mmapshared:FILE: FILE, when mem_open */
	bool mem_open, mem_created;	/* ... and whether this worker created it (it removes it) */

	struct rng rng;

	/*
	 * Set up once per job: full is false when the job needs none of the per-I/O extras
	 * below (fixed bs, uniform offsets, round-robin files...), and the loop then runs
	 * without looking at any of them.
	 */
	bool full;
	bool stamp_submit;		/* the reduced loop reads the clock before submit too */
	struct bs_gen bsg[2];
	struct worker_bsrand bsr;
	unsigned cur_file;		/* file of the last request (full loop) */
	struct worker_fsel fsel;	/* file_service_type: choosing cur_file */
	struct worker_offsets off;	/* distributions, sprandom, rw=...:N */
	struct flow *flow;		/* flow=: held back while ahead of its weight's share */
	uint64_t flow_ios;		/* its I/Os counted in the flow */
	bool flow_left;			/* it has left its flow */
	unsigned passes_left;		/* loops still to run after a pass ran off its files */
	bool seq_ran_off;		/* the last pass ran off its files (verify_round_again) */
	unsigned target_loops;		/* loops the I/O phase's target holds: 1 when each is verified */
	unsigned loops_left;		/* verified loops still to run after this one (fio: verify per loop) */
	uint64_t ios_limit;		/* number_ios * loops (0: none): against issued_ios */
	struct lat_tgt lat_tgt;		/* latency_target= */
	bool low_wait;			/* iodepth_low: draining a full queue, queue nothing */
	unsigned depth_low;		/* iodepth_low when below iodepth, else 0 */
	unsigned qd_cap;		/* requests allowed in flight (full loop) */
	struct ss_data ss;		/* ss_dur=: the unit's window (the runner samples it) */
	bool ss_holder;			/* this worker holds its unit's window */
	_Atomic uint64_t epoch_ns;	/* when its I/O began (ramp included): ss_ramp counts from it */
	struct worker_zone zone;	/* zonemode=zbd, zonemode=strided */
	struct worker_rate rate;	/* rate, rate_iops, rate_min, rate_iops_min */
	uint64_t issued_ios;		/* reads and writes issued (full loop) */
	uint64_t done_ios;		/* reads and writes completed (full loop, count_done) */
	bool count_done;
	uint64_t done_dir_bytes[2];
	uint64_t done_dir_ios[2];
	uint64_t think_last;		/* issued_ios or done_ios at the last thinktime stall */
	uint64_t think_last_ns;
	bool think_blocks_given;
	struct iologs *logs;		/* write_bw/iops/lat_log; NULL when none */
	bool hist_lat;			/* lat_percentiles: lat gets histogram buckets too */
	bool hist_slat;			/* slat_percentiles, likewise */
	bool sync_at_qd1;		/* its engine is synchronous at this iodepth: no slat */
	bool debug_io;			/* --debug=io: a line per I/O queued and completed */
	bool debug_random;		/* --debug=random: a line per random value drawn (full loop) */
	bool rand_plain;		/* uniform random offsets, untraced: rand_offset's fast path */
	uint32_t fio_units;		/* fio's rw_min_bs where its map numbers blocks per direction */
	uint64_t bytes_target;
	uint64_t bytes_issued;
	unsigned next_file;
	uint64_t writes_since_sync;
	FILE *trace;			/* write_iolog: every issued I/O, fio's iolog v3 */
	bool serialize;			/* serialize_overlap: overlapping requests wait (full loop) */
	struct replay *replay;		/* read_iolog: the I/O to issue, in order */
	uint64_t replay_pos;
	uint64_t replay_base_ns;	/* when the log's time 0 falls */
	bool mixed;			/* rw=rw, randrw: pick_dir draws each direction */
	unsigned char fixed_dir;	/* otherwise its one direction (trims: DDIR_WRITE) */
	struct worker_trim trim;	/* rw=trim, randtrim, trimwrite, randtrimwrite */
	struct worker_copy copy;	/* rw=copy */

	struct dir_stat *st;		/* STAT_NR entries */
	struct meta_stat *meta;		/* rw=metadata (core/run/meta.c) */
	uint16_t ioprio;		/* the priority of the worker's I/Os (prio, prioclass; 0) */
	struct cmdprio_run *cmdprio;	/* cmdprio_*: NULL when the job gives none */
	struct prio_stats *prios;	/* cmdprio_*: latencies per priority (NULL: none) */
	uint64_t depth_hist[DEPTH_BUCKETS];
	uint64_t submit_hist[DEPTH_BUCKETS];	/* submit calls by I/Os taken (batch_bucket) */
	uint64_t reap_hist[DEPTH_BUCKETS];	/* reap calls by I/Os returned */
	uint64_t submit_one, reap_one;		/* those of one I/O, kept apart (count_call) */
	/* continue_on_error: errors gone on after, and what error_dump reports */
	uint64_t total_err;
	int first_error;
	uint64_t err_ios[3];		/* failed reads, writes, trims (fio counts them issued) */
	char errlog[ERRLOG_MAX];
	size_t errlog_len;
	uint64_t errlog_dropped;	/* lines that did not fit */

	struct worker_time time;	/* when it started, ramped, must end, ended */
	uint64_t next_sample_ns;	/* the next bw or IOPS sample's time, whichever is first */
	struct worker_sample sample;	/* the bw and IOPS samples */
	struct progress_log progress;	/* group_reporting: its progress at each sample */
	struct rusage ru_start;
	struct rusage ru_end;
	/* schedstat at measure start and end: on a CPU, waiting on a run queue (ns), times put
	 * on a CPU */
	uint64_t sched_start[3], sched_end[3];
	bool sched_valid;		/* read at both ends */
	uint64_t kt_start[2];		/* engine kernel thread usr/sys ns at measure start */
	uint64_t kt_end[2];
	bool kt_valid;			/* the engine reported kernel-thread time at both ends */

	/* What it has measured so far, and whether it is done: read while it runs. */
	uint64_t next_progress_ns;	/* when the loop next publishes the two below */
	_Atomic uint64_t progress_bytes;
	_Atomic uint64_t progress_ios;
	atomic_bool finished;
	atomic_bool terminate;		/* exitall: another worker's end ends this one */
	atomic_bool running;		/* past its start conditions (fio's TD_RUNNING) */
	/*
	 * Interim reports (--status-interval, SIGUSR1): the runner asks by raising snap_want;
	 * the worker answers from its loop's periodic work (progress_publish) or its sleeps with
	 * a snapshot of its own figures in snap (worker_snapshot, collect.c), noting the request
	 * it answered in snap_gen. snap_view is set only in a report's view of a worker.
	 */
	_Atomic unsigned snap_want;
	unsigned snap_gen;
	struct worker_snap *_Atomic snap;
	const struct worker_snap *snap_view;
	struct fleet_worker fleet;	/* its times on the phase's clock, and its MPI window */

	int error;			/* positive errno */
	char errmsg[512];
	bool aborted;
	bool interrupted;
	unsigned bufs_in_flight;	/* requests the engine could not reap: buffers not freed */
	pthread_t tid;
	/* cpus_allowed, cpumask, numa_cpu_nodes: the CPUs the thread was left on, for the result */
	bool cpus_pinned;
	uint64_t cpus_applied[JOB_CPUS_MAX / 64];
	/* numa_cpu_nodes, numa_mem_policy: the buffers' pages per node, once filled */
	bool numa_measured;
	uint64_t numa_pages[RESULT_NUMA_NODES];
	uint64_t numa_pages_elsewhere;
	struct worker_floop floop;	/* loops= ended where fio's do_io ends them (cold) */
	struct file_lock **flocks;	/* lockfile=: each file's shared lock (filelock.c); NULL: none */
	/* sync_file_range=: per file, the range written since its last sync (first = UINT64_MAX:
	 * none), as fio's first_write and last_write; NULL without the option */
	struct sfr_range { uint64_t first, last; } *sfr;
};

void *worker_main(void *arg);

/* Bytes one worker moves for a region of size bytes, io_size (0 = not given) and loops. */
uint64_t io_target(uint64_t size, uint64_t io_size, unsigned loops);
void worker_free(struct worker *w);

/* The worker's file tables for n files (fds -1), freed by worker_free. 0 or -ENOMEM. */
int worker_alloc_files(struct worker *w, unsigned n);

/*
 * core/run/openfiles.c: open the worker's file i for I/O (from the descriptor checked before the group ran, where
 * there is one): the job's flags, invalidate, fadvise. 0, or -errno with the worker failed.
 */
int worker_open_file(struct worker *w, unsigned i);

/* openfiles below nrfiles (core/run/openfiles.c): the state, 0 or -errno (worker failed). */
int open_files_setup(struct worker *w);
/*
 * The file the next request goes to, in w->cur_file, as fio's get_next_file takes it: 1, or
 * 0 when every file's range is used up, REQ_DRAIN while a used-up file still has requests out.
 */
int open_files_pick(struct worker *w);
/* Close file i as fio closes a file whose range is used up (fsync_on_close, the engine's). */
void open_files_close(struct worker *w, unsigned i);
/* The verify pass's read of file i, closed when its range was used up: opened again. */
int open_files_reopen(struct worker *w, unsigned i);
/* A new pass (loops): every file closed, each opened again as its turn comes. */
void open_files_new_pass(struct worker *w);
void open_files_free(struct worker *w);

/* CLOCK_MONOTONIC nanoseconds, for the runner (workers stamp I/O with their job's clock). */
static inline uint64_t now_ns(void)
{
	return mono_ns();
}

struct file_lock;

/* filelock.c: file i's shared lock (lockfile=), from its opened descriptor; 0 or -errno. */
int file_lock_take(struct worker *w, unsigned i);

/* filelock.c: the worker's file locks given back (the last user frees each). */
void file_locks_release(struct worker *w);

/* filelock.c: the batch's first n requests submitted one by one, each under its file's lock. */
int file_lock_submit(struct worker *w, unsigned n);

/* filelock.c: r submitted through eng (an offload thread's) under the lock of the worker's file. */
int file_lock_submit_one(struct worker *w, struct engine *eng, struct io_req *r,
			 const struct io_file *file);

/* floop.c: set up once the options are (loops=, the engine, the sizes). */
void floop_setup(struct worker *w);

/*
 * The loop has ended where fio's do_io ends it (floop_ended): the next loop begins, its
 * streams and random map from the start; false when no loop is left (the job is done).
 */
bool floop_next(struct worker *w);

/* The block-size streams from their seeds (set up, and again at a loop with randrepeat). */
static inline void worker_bs_seed(struct worker *w)
{
	frand_seed(&w->bsr.rand[0], w->bsr.seed[0], w->bsr.use64);
	frand_seed(&w->bsr.rand[1], w->bsr.seed[1], w->bsr.use64);
}

#endif
