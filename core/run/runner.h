/* What the runner's own files share (core/run/ only): a phase's jobs, their sync, and the seams. */
#ifndef IOPATH_RUNNER_H
#define IOPATH_RUNNER_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "base/err.h"
#include "io/flow.h"
#include "io/zbd.h"
#include "run/phase.h"
#include "run/run.h"
#include "run/worker.h"

/* What the workers of a run share: the lock their start conditions wait under. */
/* An interim report's state between reports: each running worker's last snapshot (collect.c). */
struct status_state {
	const struct group_job *phase;	/* the phase last[] belongs to */
	struct worker_snap **last;
	unsigned nr;
	unsigned gen;
};

struct phase_sync {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct group_job *gjs;	/* the running phase's jobs (exitall ends some of them) */
	unsigned nr_gjs;
	bool exitall;		/* exitall was given for some job: it holds for every job */
	atomic_bool end_all;	/* exit_what=all has fired: later jobs run nothing */
	uint64_t genesis_ns;	/* the run's start: fio counts startdelay from there */
	bool steady;		/* a job of the phase judges steady state (ss_dur=) */
	bool space;		/* a job of the phase grows files: the free-space reserve is watched */
	run_progress_fn progress;
	void *progress_arg;
	unsigned phase, nr_phases;
	/* interim reports: when, to whom, the jobs from the running phase on, the results so far */
	run_status_fn status;
	void *status_arg;
	uint64_t status_ns, status_next_ns;
	struct group_job *rest;
	unsigned nr_rest;
	struct run_results *out;
	struct status_state snaps;
};

struct group_job {
	struct job_plan plan;
	struct worker *workers;
	int refused;
	char why[sizeof(((struct iop_err *)0)->msg)];
	unsigned *space_paths;	/* its files that grow, one a filesystem: it ends when one of */
	unsigned nr_space;	/* those filesystems falls to the reserve (none: not watched) */
	unsigned space_at;	/* the path whose filesystem did */
	char space_hit[160];	/* why it was ended so ("": it was not) */
	unsigned nr_targets;
	const struct probed_dir *targets[4];
	bool direct_suspect;
	char direct_note[320];
	struct phase_sync *sync;
	struct group_job *waitee;	/* wait_for in this phase, or NULL */
	unsigned done;			/* workers that have ended (under sync->lock) */
};

/* Files a plan names: one set shared by its workers, or one per worker. */
static inline unsigned plan_nr_paths(const struct job_plan *plan)
{
	return plan->shared ? plan->nr_files : plan->nr_files * plan->nr_workers;
}

/* ---- the worker's own files (worker.c, loop.c with the offload pool, verify.c, account.c) ---- */

/* A rate-limited request's scheduled start (0: not paced), cleared for the slot's next use. */
static inline uint64_t sched_take(struct worker *w, const struct io_req *r)
{
	uint64_t s = w->rate.sched_ns[r->index];

	w->rate.sched_ns[r->index] = 0;
	return s;
}

/*
 * An interim report's snapshot of the worker's figures at t, taken by the worker itself when
 * the runner has asked (snap_want): what collect would make of it had it ended at t (collect.c).
 */
void worker_snapshot(struct worker *w, uint64_t t);

/*
 * The progress counters, for the MPI runner's samples (every millisecond or more) and the
 * progress line (about once a second): published at most every PROGRESS_NS by the loop, one
 * plain store each, and when it ends.
 */
#define PROGRESS_NS 100000ull

static inline void progress_publish(struct worker *w, uint64_t t)
{
	atomic_store_explicit(&w->progress_bytes, w->st[STAT_READ].bytes + w->st[STAT_WRITE].bytes +
			      w->st[STAT_TRIM].bytes, memory_order_relaxed);
	atomic_store_explicit(&w->progress_ios, w->st[STAT_READ].ios + w->st[STAT_WRITE].ios +
			      w->st[STAT_TRIM].ios, memory_order_relaxed);
	w->next_progress_ns = t + PROGRESS_NS;
	if (__builtin_expect(atomic_load_explicit(&w->snap_want, memory_order_relaxed) !=
			     w->snap_gen, 0))
		worker_snapshot(w, t);
}

/* The job's clock, in CLOCK_MONOTONIC nanoseconds either way. */
static inline uint64_t worker_now(const struct worker *w)
{
	return w->tsc ? tsc_to_ns(w->tsc, tsc_ticks()) : mono_ns();
}

/* dedupe_mode=working_set: run-wide worker g's stream of unique buffer seeds, from its start. */
static inline void dedupe_stream(struct rng *stream, uint64_t base, unsigned g)
{
	rng_seed(stream, base ^ (0x9e3779b97f4a7c15ull * (g + 1)));
}

/* The stat direction of a request direction: fsync and fdatasync share one. */
static inline unsigned stat_dir(unsigned ddir)
{
	return ddir < STAT_SYNC ? ddir : STAT_SYNC;
}

/* ---- mix.c: a mixed job's directions as fio draws them (struct worker_mix) ---- */

/* Seeded from fio's thread number of the worker (fresh: the seed when runs do not repeat). */
void mix_setup(struct worker *w, uint64_t fresh);

/* A new loop of the job (a verify round): the stream starts again, as fio's clear_io_state. */
void mix_new_loop(struct worker *w);

/* The measured time starts (ramp_time ended): the counts of I/Os issued start again. */
void mix_measure_start(struct worker *w);

/* A loop of the job has ended (mix_dir saw its bytes issued): the next one's stream. */
void mix_loop_end(struct worker *w);

/*
 * A mixed job's next direction, as fio's get_rw_ddir draws it: a new draw once the direction
 * held has caught up (fio's rwmix_issues), held until then. Inline, as the draw it replaced:
 * a call here would cost every job's loop its registers.
 */
static inline unsigned mix_dir(struct worker *w)
{
	struct worker_mix *m = &w->mix;
	unsigned rmix = w->job->rwmixread, d;

	if (__builtin_expect(m->pass_bytes && w->bytes_issued >= m->pass_end, 0))
		mix_loop_end(w);
	if (m->issues[m->dir] >= m->until) {
		d = frand32_pct(&m->rand) <= rmix ? DDIR_READ : DDIR_WRITE;
		/* a new direction holds until its I/Os reach the other's times its share */
		if (d != m->dir)
			m->until = m->issues[m->dir] * (d == DDIR_READ ? rmix : 100 - rmix) / 100;
		m->dir = d;
	}
	m->issues[m->dir]++;
	return m->dir;
}

/* The direction issued was not the one drawn (the rate's or a zone's choice): as fio counts it. */
void mix_moved(struct worker *w, unsigned from, unsigned to, bool hold);

/*
 * The direction of the next request. A job that is not mixed has one, set once (trims take
 * the write direction's, make_trim): no switch on rw per I/O.
 */
static inline unsigned pick_dir(struct worker *w)
{
	if (__builtin_expect(w->mixed, 0))
		return mix_dir(w);
	return w->fixed_dir;
}

/* fio's depth bucket of a submission at depth (>= 1): floor(log2), capped at ">= 64". */
static inline unsigned depth_bucket(unsigned depth)
{
	unsigned b = 31u - (unsigned)__builtin_clz(depth | 1u);

	return b < DEPTH_BUCKETS - 1 ? b : DEPTH_BUCKETS - 1;
}

/*
 * fio's bucket of a submit or reap call that took n I/Os (0, 1-4, 5-8, 9-16, 17-32, 33-64,
 * more), for fio's submit and complete lines: a table, as it is counted on every call.
 */
static inline unsigned batch_bucket(unsigned n)
{
	static const uint8_t bucket[65] = {
		0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3,
		4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4,
		5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5,
		5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5,
	};

	return n < 65 ? bucket[n] : DEPTH_BUCKETS - 1;
}

/* Count a call that took n I/Os: the common single I/O on its own (cheapest), the rest by bucket. */
static inline __attribute__((always_inline)) void count_call(uint64_t *one, uint64_t *hist,
							      unsigned n)
{
	if (__builtin_expect(n == 1, 1))
		(*one)++;
	else
		hist[batch_bucket(n)]++;
}

#define BUF_ALIGN 4096u	/* request buffers' alignment */

/* fio's td_error_type: EILSEQ is a verify error whatever the direction. */
static inline unsigned err_type(unsigned ddir, int err)
{
	return err == EILSEQ ? ERR_VERIFY : ddir == DDIR_READ ? ERR_READ : ERR_WRITE;
}

/* fio's update_error_count. */
static inline void err_count(struct worker *w, int err)
{
	if (!w->total_err++)
		w->first_error = err;
}

/* The worker has failed: its error and message, the first one kept. */
void worker_fail(struct worker *w, int error, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* ---- wopts.c ---- */

/*
 * The per-I/O options' state, decided once at set-up (after the files), and whether the
 * worker needs the full loop (w->full); 0 or -errno, the worker failed with its line.
 */
int setup_options(struct worker *w, uint64_t seed);
/* What setup_offsets allocated for w->off (the distributions, sprandom's regions). */
void offsets_free(struct worker *w);

/*
 * The worker's engine parameters completed (once: unlink_each_loop's restart reuses them), its
 * engine started with them, and each file opened by it (core/run/wengine.c).
 */
int worker_engine_start(struct worker *w);
/* unlink_each_loop: the job's files removed, created again, the engine started on them. */
int worker_unlink_loop(struct worker *w);

/* ---- wthread.c ---- */

/* The thread's CPUs, NUMA policy and priority, then its buffers under them; 0 or -errno. */
int worker_place(struct worker *w);

/* ---- phase.c ---- */

/* Under MPI, agree with the other ranks before the phase; false: do not start it. */
bool phase_enter(struct group_job *gjs, unsigned n);

/* The phase's time origin: every worker (of every rank) is set up. */
uint64_t phase_origin(void);
void phase_layout_turn(bool done);

/* While the phase runs: the other ranks' sampling (a no-op for one process). */
void phase_watch(struct group_job *gjs, unsigned n, unsigned total);

/* Each worker's times on the phase's clock; under MPI, the window every rank ran in. */
void phase_spans(struct group_job *gjs, unsigned n, unsigned total, uint64_t origin);

/* ---- collect.c ---- */

int collect(struct run_results *out, struct group_job *gjs, unsigned n, uint64_t elapsed);

/*
 * A worker's figures as its snapshot holds them: its result had it ended then (blank before
 * its measured start), its group_reporting progress and its latencies per priority, copied.
 */
struct worker_snap {
	unsigned gen;			/* the request it answered */
	struct job_result one;
	bool measured;
	uint64_t runtime_ns;
	struct progress_log progress;
	struct prio_stats *prios;
	uint16_t ioprio;
};

void worker_snap_free(struct worker_snap *s);

/*
 * An interim report of jobs gjs[0..n) (the running phase and those after it) into out, which
 * holds the earlier phases' results: each running worker asked for a snapshot and waited for
 * up to wait_ns (one that does not answer in time is reported as its last snapshot held it),
 * an ended worker as it ended, one not started yet (or of a later phase) blank. last[] holds
 * each running worker's last snapshot between reports (freed by collect_status_free).
 */

int collect_status(struct run_results *out, struct group_job *gjs, unsigned n, uint64_t elapsed,
		   uint64_t wait_ns, struct status_state *st);
void collect_status_free(struct status_state *st);

/* How long an interim report waits for the running workers' snapshots. */
#define STATUS_WAIT_NS 250000000ull

/* ---- plan.c ---- */

int check_capabilities(struct group_job *gj, struct iop_err *err);

int create_logs(const struct job_plan *plan, struct iop_err *err);

/*
 * Every file a job will write besides its data (write_*_log, write_iolog) checked before
 * the run's first I/O, as outputs are (atomic_check_as): a new name, or a file of iopath's,
 * or an empty one; never a directory, device, link, stream or FIFO, nor a user's file; and
 * verify_state_save's state file when its name holds anything but a regular file (a state
 * that cannot be saved costs only a line, as in fio). -errno with one line naming the option.
 */
int check_job_outputs(const struct job_plan *plan, struct iop_err *err);

/* write_iolog's name for worker clone; verify_state_save's state file for clone. */
int trace_path(const struct job_spec *job, unsigned clone, char *out, size_t len);
int vstate_path(const struct job_spec *job, unsigned clone, char *out, size_t len);
/* Is path a verify state file (fio's version-3 layout: its header and one thread's list)? */
bool vstate_file(const char *path);

int fit_nofile(const struct job_list *jobs, const struct group_job *gjs, struct iop_err *err);

/* ---- space.c ---- */

/*
 * The free space a layout or write job must leave on its filesystem: SPACE_RESERVE_PCT of
 * it, at most SPACE_RESERVE_MAX. fit_space refuses a run (before anything is laid out) whose
 * files would take more than the free space above that (-ENOSPC, naming the job, the space
 * free and the space asked for), unless --allow-fill (policy.allow_fill) or the job's
 * fill_device=1 says to fill it.
 */
#define SPACE_RESERVE_PCT 5
#define SPACE_RESERVE_MAX (1ull << 30)
uint64_t space_reserve(uint64_t total);
/*
 * Is the job's growth held to the reserve while it runs (files it lays out or writes, no
 * fill_device)? *idx (to free) the paths watched, one on each filesystem its growing files are
 * on, *n of them (none: not held). 0 or -ENOMEM.
 */
int space_watched(const struct job_spec *job, const struct job_plan *plan, unsigned **idx,
		  unsigned *n);
/* Has path's filesystem fallen below the reserve? what says how much is left then. */
bool space_low(const char *path, char *what, size_t len);
int fit_space(const struct job_list *jobs, const struct group_job *gjs, struct iop_err *err);

/* ---- targetcheck.c ---- */

/* path opens for reading (and writing, write), by the process's own rights; -errno with a line. */
int check_access(const struct job_spec *job, const char *path, bool write,
		 struct iop_err *err);

/*
 * atomic=1: the file open on fd must have atomic writes, and the job's write size and its
 * workers' starts must suit its limits (found, when not NULL, gets them). 0 or -errno.
 */
int check_atomic(const struct job_spec *job, const struct job_plan *plan, const char *path,
		 int fd, struct atomic_limits *found, struct iop_err *err);

/*
 * Refuse what a job must not or cannot do to one of its files (see targetcheck.c); fd >= 0:
 * decided on that descriptor, else by name.
 */
int check_target(const struct job_spec *job, const struct job_plan *plan,
		 const struct target_policy *pol, const char *path, int fd, struct iop_err *err);

/* overwrite=1, --allow-overwrite or IOPATH_ALLOW_OVERWRITE covers path. */
bool may_overwrite(const struct job_spec *job, const struct target_policy *pol, const char *path);

/* ---- plan.c ---- */

/* The end of what path i must hold: the last worker's start (offset_increment) + region. */
uint64_t layout_end(const struct job_plan *plan, unsigned i);

/* ---- layout.c ---- */

int layout_job(struct job_plan *plan, struct iop_err *err);

/*
 * After its group ran: a file a write job's layout left marked incomplete (sized, not yet
 * written) loses the mark once one of its workers has written it whole (wrote_whole).
 */
struct worker;
void layout_settle(struct job_plan *plan, const struct worker *workers);

/* Close the descriptors layout_job checked the job's files on (after its group ran). */
void unbind_job(struct job_plan *plan);

int plan_clock(const struct job_spec *job, struct job_plan *plan, struct iop_err *err);

int plan_disks(const struct job_list *jobs, const struct group_job *gjs,
		struct run_results *out, struct iop_err *err);

int plan_flows(const struct job_list *jobs, struct group_job *gjs, struct flow_set *s,
		struct iop_err *err);

int plan_job(const struct job_spec *job, const struct target_policy *pol,
		struct job_plan *plan, struct iop_err *err);

int plan_zbd(const struct job_list *jobs, struct group_job *gjs, struct zbd_set *s,
		struct iop_err *err);

void probe_job(struct group_job *gj, struct probe_set *s);

void unlink_job_files(const struct job_plan *plan);

/* ---- loop.c: the submit/reap loop ---- */

/* Run the job's I/O: the loop specialised for its options, the offload pool, or a file-op loop
 * (ioloop.c). */
void io_loop(struct worker *w);
/* The submit/reap loop itself, the copy specialised for the job's options. */
void io_loop_engine(struct worker *w);
/* verify_only: the phase's requests made and none issued, their blocks marked as written. */
void io_dry_run(struct worker *w);

/* The offload pool's: the next request as the full loop makes it (1, 0 at the end, REQ_WAIT
 * when the rate holds it back), and one completion at time t accounted as the loop does. */
int io_next_request(struct worker *w, struct io_req *r, uint64_t now);
void io_complete_at(struct worker *w, struct io_req *r, uint64_t t);

#define REQ_WAIT (-1)	/* next_request_full: nothing may be issued before w->rate.wait_ns */

/* A line for error_dump and non-fatal verify failures, in the worker's error log. */
void errlog_add(struct worker *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* continue_on_error: is this error (of the ignore_error type) one the job goes on after? */
bool err_non_fatal(const struct job_spec *job, unsigned type, int err);

/* Completions that carry no figure of their own (their requests are done all the same). */
void count_done(struct worker *w, struct io_req **reqs, unsigned n);

/* Measured time starts now (after ramp_time): figures so far are dropped. */
void measure_start(struct worker *w, uint64_t t);
/* log_unix_epoch / log_alternate_epoch: the job's clock now in ms, added to log times (else 0). */
uint64_t log_time_base_ms(const struct job_spec *job);

/*
 * A completion that moved other than its full length (core/run/complete.c): an error, end
 * of file or a short transfer. false when it must not be counted.
 */
bool complete_odd(struct worker *w, const struct io_req *r, struct dir_stat *d);

/* latency_target (core/run/lattgt.c): one completion's latency, and the window's check. */
void lat_target_io(struct worker *w, uint64_t lat_ns, uint64_t t);

/*
 * max_latency=: a completion of r whose latency (fio's lat: submission to completion)
 * exceeds its direction's limit fails the job with ETIMEDOUT and fio's message.
 */
void max_latency_io(struct worker *w, const struct io_req *r, uint64_t lat_ns);
void lat_target_check(struct worker *w, uint64_t t);

/* A sample for the bandwidth/IOPS logs and steady state, when one is due at t. */
void take_sample(struct worker *w, uint64_t t);

/* ---- cmdprio.c ---- */

/* The worker's cmdprio choices and per-priority statistics; 0 or -ENOMEM (worker failed). */
int cmdprio_setup(struct worker *w, uint64_t seed);
void cmdprio_free(struct worker *w);
/* The priority of r (set in r->ioprio: its own, or 0 for the worker's), as fio's cmdprio picks. */
void cmdprio_pick(struct worker *w, struct io_req *r);
/* A counted completion of stat direction sd into its priority's latencies. */
void cmdprio_record(struct worker *w, const struct io_req *r, unsigned sd, uint64_t clat,
		    bool async);

/* ---- offload.c ---- */

/* io_submit_mode=offload: requests made here, submitted by a pool of iodepth I/O threads. */
void io_loop_offload(struct worker *w);

/* ---- fileop.c ---- */

/* The file-operation engines' loop: a file at a time, round robin. */
void io_loop_fileop(struct worker *w);

/* ---- iosched.c: ioscheduler= ---- */

/*
 * Switch the disk under the job's first file to its ioscheduler= (nothing without one, or for
 * a diskless engine), remembering what it ran; a name the disk does not offer, or a file on no
 * disk, is refused (-errno, err says why). Where the switch is not allowed it is said and the
 * job goes on, as fio's.
 */
int iosched_switch(struct job_plan *plan, struct iop_err *err);

/* Put back the scheduler iosched_switch replaced (said, not failed, when it cannot). */
void iosched_restore(struct job_plan *plan);

/* ---- execrun.c: exec_prerun, exec_postrun ---- */

/*
 * Run the job's exec_prerun (post: exec_postrun) in a shell, its output in NAME.prerun.txt
 * (NAME.postrun.txt). A prerun that cannot run or fails fails the worker (-errno); a failing
 * postrun is said and is not a failure, as fio ignores it. 0 without one.
 */
int worker_exec(struct worker *w, bool post);

/* NAME.prerun.txt (post: NAME.postrun.txt), exec_prerun's (exec_postrun's) output. 0 or -errno. */
int exec_path(const struct job_spec *job, bool post, char *path, size_t len);

/* Make (empty, iopath's) the output files of the job's exec_prerun and exec_postrun. */
int exec_outputs_make(const struct job_spec *job, struct iop_err *err);

/* ---- trace.c: write_iolog and read_iolog ---- */

/* write_iolog: open the log (header, the files' add and open lines); 0 or -errno, worker failed. */
int trace_open(struct worker *w);
/* n requests submitted at time t, one line each. */
void trace_issued(struct worker *w, struct io_req *const *reqs, unsigned n, uint64_t t);
/* The files' close lines, and the log closed (a write error fails the worker). */
void trace_close(struct worker *w);
/* read_iolog: the worker's copy of the log's entries; 0 or -errno, worker failed. */
int replay_setup(struct worker *w);
void replay_done(struct worker *w);

/* ---- verify.c ---- */

/* verify_async: start, feed, collect from, drain and stop the checker threads. */
int vfy_start(struct worker *w);
void vfy_push(struct worker *w, struct io_req *r);
void vfy_collect(struct worker *w, bool wait);
void vfy_drain(struct worker *w);
void vfy_stop(struct worker *w);

/*
 * verify_state_save: record the writes the worker issued (a failure is noted in its error log);
 * verify_state_load: how many writes the saved state holds (0, or -errno with the worker failed).
 */
void vstate_save(struct worker *w);
int vstate_load(struct worker *w, uint64_t *writes);

/* Check one read that came back: header, checksum, and what a failure does. */
void check_read(struct worker *w, const struct io_req *r);

#endif
