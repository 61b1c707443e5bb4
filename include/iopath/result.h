/* Results: latency histograms and per-direction counters, as workers record and reports read them. */
#ifndef IOPATH_RESULT_H
#define IOPATH_RESULT_H

#include <stdbool.h>
#include <stdint.h>

#include "iopath/engine.h"
#include "iopath/job.h"

struct probed_dir;

#define RESULT_NUMA_NODES 64	/* nodes whose buffer pages a result counts one by one */

/*
 * Log-linear latency histogram in nanoseconds, bucketed exactly as fio's (PLAT_BITS = 6):
 * values below 128 ns are exact, above that each power of two is split into 64 buckets, so a
 * bucket's midpoint is within 1/128 (0.78%) of any value in it. Same bucket numbering as fio's
 * json+ "bins", so fio's json+ consumers read ours.
 */
#define HIST_BITS 6
#define HIST_VAL (1u << HIST_BITS)
#define HIST_GROUPS 29
#define HIST_NR (HIST_GROUPS * HIST_VAL)

struct lat_stat {
	uint64_t n;
	uint64_t min;
	uint64_t max;
	uint64_t sum;
	unsigned __int128 sumsq;	/* exact: mergeable and no per-sample division */
	uint64_t hist[HIST_NR];
};

/* Periodic samples (bandwidth in bytes/s, IOPS), summarised as fio does. */
struct sample_stat {
	uint64_t n;
	double min, max, sum, sumsq;
};

/* Stat directions: the three data directions plus sync (fsync/fdatasync). */
enum stat_dir {
	STAT_READ = 0,
	STAT_WRITE = 1,
	STAT_TRIM = 2,
	STAT_SYNC = 3,
	STAT_NR = 4,
};

struct dir_stat {
	uint64_t bytes;
	uint64_t ios;
	uint64_t short_ios;
	uint64_t runtime_ns;
	struct lat_stat slat;
	struct lat_stat clat;
	struct lat_stat lat;
	/*
	 * Rate-limited I/O: completion less when the rate's schedule said the I/O should start
	 * (not when it was issued), so time spent waiting behind a slow I/O counts; n is 0 where
	 * no I/O was paced. iopath's own, beside fio's slat/clat/lat, which stay as fio has them.
	 */
	struct lat_stat sched;
	struct sample_stat bw;
	struct sample_stat iops;
};

/*
 * cmdprio: the latencies of each priority the I/Os of a direction had (fio's clat_prio_stat):
 * completion latency, or total latency with lat_percentiles=1, as fio keeps them. The first
 * entry is the job's own priority (prio/prioclass, else 0).
 */
struct prio_lat {
	uint16_t ioprio;		/* class << 13 | level */
	struct lat_stat lat;
};

#define PRIO_DIRS 3			/* read, write, trim */

struct prio_stats {
	unsigned nr[PRIO_DIRS];		/* 0: no priorities kept (fio: no "prios") */
	struct prio_lat *p[PRIO_DIRS];
};

/* rw=copy: what was copied and whether the destination's checksum matches the source's. */
struct copy_check {
	uint64_t bytes;			/* the source's bytes to copy */
	uint64_t dst_size;		/* the destination's size afterwards */
	bool checked;			/* verify=crc32c: both files were read back */
	bool match;
	uint32_t crc_src;
	uint32_t crc_dst;
};

/* rw=metadata: the operations of the small-file loop, each with its own histogram. */
enum meta_op {
	META_CREATE,		/* open O_CREAT|O_EXCL + write filesize bytes + close */
	META_STAT,
	META_OPEN_READ,		/* open + read filesize bytes + close */
	META_UNLINK,
	META_NR,
};

struct meta_stat {
	struct lat_stat op[META_NR];
	uint64_t phase_ns[META_NR];	/* wall time of each phase (the longest worker's) */
	uint64_t files;			/* files in the tree, over all workers */
	uint64_t dirs;
	unsigned depth;			/* directory levels below each worker's root */
};

/* ss=: fio's steady-state verdict and window (oldest sample first), owned by the result. */
struct ss_result {
	unsigned dur;
	bool attained;
	double criterion, deviation, slope;
	uint64_t *bw;			/* bytes/s */
	uint64_t *iops;
};

#define ERRLOG_MAX 4096

/* fio's iodepth buckets: 1 2 4 8 16 32 >=64. */
#define DEPTH_BUCKETS 7

/* The result of one reported unit: one worker, or a job's workers merged (group_reporting). */
struct job_result {
	const struct job_spec *spec;
	const struct job_spec *opts_spec;	/* the last job merged in (fio reports its options); NULL: spec */
	unsigned clone;			/* first worker number in this result */
	unsigned nr_workers;
	int error;			/* positive errno, fio's "error" field; 0 when none */
	unsigned nr_failed;		/* workers that ended with an error (fio's exit status) */
	char errmsg[512];
	bool interrupted;
	uint64_t runtime_ns;		/* the longest worker's measured time */
	/* fio's total_run_time: the workers' measured times summed (its job_runtime, and
	 * what its CPU percentages divide the summed CPU times by) */
	uint64_t run_sum_ns;
	uint64_t elapsed_ns;		/* wall time including setup and ramp */
	struct dir_stat dir[STAT_NR];
	uint64_t usr_ns, sys_ns, ctx, majf, minf;
	/* CPU of the engines' own kernel threads (SQPOLL), not in usr/sys_ns; see kt_workers. */
	uint64_t kt_usr_ns, kt_sys_ns;
	unsigned kt_workers;		/* workers whose engine had such a thread */
	/* the workers' schedstat over the measured time, summed: on a CPU, and runnable but
	 * waiting on a run queue for one (what others' CPU work cost them), and the times they
	 * were put on a CPU (the waits' number: a wakeup or a preemption's end each);
	 * sched_workers counts those whose kernel reported it */
	uint64_t oncpu_ns, runq_wait_ns, sched_in;
	unsigned sched_workers;
	uint64_t depth[DEPTH_BUCKETS];	/* submissions seen at each in-flight depth */
	/* fio's submit and complete lines: calls by I/Os they took (0, 1-4, 5-8, ..., >64) */
	uint64_t submit[DEPTH_BUCKETS], reaped[DEPTH_BUCKETS];
	uint64_t verify_errors;
	uint64_t zone_resets;		/* zonemode=zbd: zones its writes reset */
	/* continue_on_error (fio's total_err, first_error): errors the job went on after */
	uint64_t total_err;
	int first_error;
	uint64_t err_ios[3];		/* failed reads, writes, trims: in total_ios, as fio */
	char errlog[ERRLOG_MAX];	/* error_dump and non-fatal verify failures, a line each */
	uint64_t errlog_dropped;	/* lines that did not fit */
	struct copy_check copy;		/* rw=copy only */
	struct meta_stat *meta;		/* rw=metadata only, owned by the result */
	struct ss_result *ss;		/* ss_dur= only, owned by the result */
	struct prio_stats *prios;	/* cmdprio only, owned by the result */
	unsigned latency_depth;		/* latency_target: the depth found (first worker's) */
	/* The probed directories of the job's files (owned by the run's probe set). */
	unsigned nr_targets;
	const struct probed_dir *targets[4];
	/* direct=1 ran, but the probe found a cache answering O_DIRECT: not direct I/O. */
	bool direct_suspect;
	char direct_note[320];
	char copy_src[PATH_MAX];	/* rw=copy: the files as opened */
	char copy_dst[PATH_MAX];
	bool buf_huge;			/* the request buffers were advised huge pages (mem=thp) */
	double tsc_mhz;			/* stamps from the TSC at this rate; 0: CLOCK_MONOTONIC */
	unsigned nr_applied;
	char applied[ENGINE_APPLIED_MAX][2][48];
	char engine_name[32];
	/* cpus_allowed, cpumask, numa_cpu_nodes: the CPUs the workers ran on (applied "cpus") */
	uint64_t cpus[JOB_CPUS_MAX / 64];
	/*
	 * numa_cpu_nodes, numa_mem_policy: where the workers' request buffers were, measured
	 * (move_pages) once per worker after they were filled: pages per node, summed over the
	 * workers, and those not present or on a node past RESULT_NUMA_NODES - 1
	 */
	bool numa_measured;
	uint64_t numa_pages[RESULT_NUMA_NODES];
	uint64_t numa_pages_elsewhere;

	/* When, on the group's clock: ns after the start every worker of the group waited for. */
	int64_t start_ns;		/* the first worker's measured start */
	int64_t end_ns;			/* the last worker's end */
	/* Under MPI: the window in which every rank ran this job, and what this rank moved in it. */
	int64_t window_start_ns;
	int64_t window_end_ns;
	uint64_t window_bytes;
	uint64_t window_ios;
};

/*
 * A finished run: every job's result and what the run found about its host, paths and disks.
 * The runner (core/run/) fills it; reports, the store and the fleet read it.
 */
struct probe_set;
struct disk_set;
struct run_layout;

/*
 * What else used the machine while the run ran: /proc/stat's CPU times (all CPUs, every
 * process) and this process's own (getrusage), read where the disks are, and the 1-minute
 * load at both ends. Seconds of CPU time; valid false where /proc could not be read.
 */
struct run_machine {
	bool valid;
	double wall_s;
	double total_s;		/* the machine's CPU time: every CPU, every state */
	double busy_s;		/* user, nice, system, irq, softirq: every process's work */
	double steal_s;		/* taken by the hypervisor for other guests */
	double iowait_s;
	double own_s;		/* this process's user + system time */
	double load1_start, load1_end;
	unsigned cpus;
	/* control references timed just before ([0]) and after ([1]) the run (sweep
	 * --references, core/run/refwork.h): CPU ns a round of the CPU-bound unit and a load of
	 * the memory-bound one; 0 where not timed */
	double ref_cpu_ns[2], ref_mem_ns[2];
};

/* fio's --idle-prof modes: none, calibrate (the unit of work timed, no jobs), system, percpu. */
enum run_idle_mode { IDLE_NONE, IDLE_CALIBRATE, IDLE_SYSTEM, IDLE_PERCPU };

/* --idle-prof's figures (core/run/idleprof.c), written as fio's "cpu_idleness". */
struct run_idle {
	unsigned mode;			/* enum run_idle_mode; IDLE_NONE: not asked */
	unsigned nr_cpus;		/* the configured CPUs, each profiled */
	double system;			/* percent: the CPUs' idleness, averaged */
	double *cpu;			/* nr_cpus percents */
	double unit_mean;		/* microseconds for a unit of work, over the CPUs */
	double unit_stddev;
};

struct run_results {
	struct job_result *res;
	unsigned nr;
	bool interrupted;
	uint64_t start_unix_ms;
	/* when the report was made (JSON "timestamp"): an interim report's time, or, where the
	   run reported while it ran, its end; 0: the run's start stands for it */
	uint64_t report_unix_ms;
	struct probe_set *probes;	/* the host and every path the jobs touched */
	bool own_probes;		/* made by run_jobs (freed with the results) */
	/* fio's disk_util: the block devices under the jobs' files, read at the run's start
	 * and end; NULL when no job has any (disk_util=0, diskless engines, no block device) */
	struct disk_set *disks;
	/* fio's "Laying out IO file" lines: each job that created or extended files, in order */
	struct run_layout *layouts;
	unsigned nr_layouts;
	struct run_machine machine;
	struct run_idle idle;		/* --idle-prof (fio invocation only) */
};

struct run_layout {
	const struct job_spec *job;
	unsigned files;
	uint64_t bytes;
};

/*
 * The workers that failed, as fio counts them for its exit status: each worker (clone) that
 * ended with an error, every worker of a job refused before it ran; a result that has an
 * error without a failed worker (its merge ran out of memory) counts once.
 */
static inline unsigned run_failed_workers(const struct run_results *r)
{
	unsigned i, n = 0;

	for (i = 0; i < r->nr; i++)
		n += r->res[i].nr_failed ? r->res[i].nr_failed : r->res[i].error ? 1 : 0;
	return n;
}

/* Did any result fail? */
static inline bool run_failed(const struct run_results *r)
{
	unsigned i;

	for (i = 0; i < r->nr; i++)
		if (r->res[i].error)
			return true;
	return false;
}

#endif
