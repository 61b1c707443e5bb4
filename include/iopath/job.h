/* The job spec: one parsed job, as the option table fills it and the runner reads it. */
#ifndef IOPATH_JOB_H
#define IOPATH_JOB_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "iopath/cpuset.h"
#include "iopath/engine.h"

/* lockfile=: fio's file_lock_mode (core/run/filelock.c) */
enum lockfile_mode { LOCKFILE_NONE, LOCKFILE_EXCLUSIVE, LOCKFILE_READWRITE };

enum job_rw {
	RW_READ,
	RW_WRITE,
	RW_RANDREAD,
	RW_RANDWRITE,
	RW_RW,
	RW_RANDRW,
	RW_COPY,	/* iopath: read copy_from, write each block to filename (cp) */
	RW_METADATA,	/* iopath: create/stat/open-read/unlink many small files (core/run/meta.c) */
	RW_TRIM,	/* fio's trims (BLKDISCARD), sequential */
	RW_RANDTRIM,
	RW_TRIMWRITE,	/* each block trimmed, then written */
	RW_RANDTRIMWRITE,
};

/* fadvise_hint: what iopath tells the kernel about a file's access pattern when it opens it. */
enum {
	FADV_HINT_NONE,		/* 0 */
	FADV_HINT_TYPE,		/* 1: random for random jobs, sequential for the others (fio's default) */
	FADV_HINT_RANDOM,
	FADV_HINT_SEQUENTIAL,
};

/* verify=: fio's family; every unit carries fio's header (core/io/vhdr.h) but with pattern and null. */
enum job_verify {
	VERIFY_NONE,
	VERIFY_CRC32C,
	VERIFY_META,		/* fio's meta: the headers only (offset, size), no data checksum */
	VERIFY_MD5,
	VERIFY_CRC64,
	VERIFY_CRC32,
	VERIFY_CRC16,
	VERIFY_CRC7,
	VERIFY_SHA256,
	VERIFY_SHA512,
	VERIFY_SHA3_224,
	VERIFY_SHA3_256,
	VERIFY_SHA3_384,
	VERIFY_SHA3_512,
	VERIFY_XXHASH,
	VERIFY_SHA1,
	VERIFY_PATTERN,		/* verify_pattern over the whole block, no header */
	VERIFY_NULL,		/* fio's: pretend (nothing stamped, nothing checked) */
	VERIFY_KINDS,
};

/* Random offset (and file) distributions, as fio's random_distribution names them. */
/* ss= criteria, as fio's FIO_SS_* flags */
#define SS_IOPS 1u	/* judge IOPS (else bandwidth) */
#define SS_SLOPE 2u	/* the least-squares slope (else the largest deviation from the mean) */
#define SS_PCT 4u	/* the limit is a percentage of the mean */

/* nrfiles: most files per worker, and for all workers of a job together */
#define FILES_MAX 1000000u
#define FILES_JOB_MAX 10000000u	/* all workers of a job together */

enum rand_dist {
	DIST_RANDOM,
	DIST_ZIPF,
	DIST_PARETO,
	DIST_NORMAL,
	DIST_ZONED,
	DIST_ZONED_ABS,
	DIST_SEQUENCE,		/* fio 3.4x's sequence:N,N,...: the block indices in that order */
};

/* How the next file of a job is chosen (fio's file_service_type). */
enum file_service {
	FSVC_ROUNDROBIN,
	FSVC_SEQUENTIAL,
	FSVC_RANDOM,
	FSVC_ZIPF,
	FSVC_PARETO,
	FSVC_NORMAL,
};

/* fio's fallocate= modes (Linux). */
enum fallocate_mode {
	FALLOC_NONE,
	FALLOC_NATIVE,
	FALLOC_POSIX,
	FALLOC_KEEP,
	FALLOC_TRUNCATE,
};

#define JOB_CPUS_MAX IOP_CPUS_MAX	/* a job's CPU set (iopath/cpuset.h) */
#define BSSPLIT_MAX 64		/* fio's limit per direction */
#define ZONES_MAX 256		/* random_distribution=zoned: fio's limit per direction */
#define SEQUENCE_MAX 256	/* random_distribution=sequence: block indices */
#define PATTERN_MAX 512		/* buffer_pattern bytes (fio's MAX_PATTERN_SIZE) */
#define PATTERN_FMT_MAX 8	/* %o formats in a verify_pattern (fio's verify_fmt[]) */

/* One zone of random_distribution=zoned / zoned_abs. */
struct zone_split {
	uint8_t access;		/* percent of the I/Os */
	uint8_t size_perc;	/* zoned: percent of the region */
	uint64_t size;		/* zoned_abs: bytes */
};

struct bs_split {
	uint32_t bs;
	uint32_t perc;
};

/* cmdprio_bssplit: perc percent of the I/Os of bs bytes get priority prio (class << 13 | level). */
struct cmdprio_split {
	uint32_t bs;
	uint16_t perc;
	uint16_t prio;		/* 0: the class and level of cmdprio_class and cmdprio */
};

/* ioprio values as the kernel takes them: class << 13 | level. */
#define IOPRIO_CLASS_SHIFT 13
#define IOPRIO_CLASS_RT 1u
#define IOPRIO_CLASS_BE 2u
#define IOPRIO_VALUE(cls, level) ((uint16_t)((cls) << IOPRIO_CLASS_SHIFT | (level)))

/* unified_rw_reporting=: fio's per-direction statistics, merged ("mixed") or both. */
enum unified_rw {
	UNIFIED_NONE,		/* read, write and trim each reported apart (fio's default) */
	UNIFIED_MIXED,		/* one "mixed" direction in place of them */
	UNIFIED_BOTH,		/* each direction, and "mixed" after them */
};

/* random_generator=: fio's generators of random offsets. */
enum rand_gen {
	RAND_GEN_TAUSWORTHE,	/* fio's default: L'Ecuyer's 32-bit combined Tausworthe (taus88) */
	RAND_GEN_LFSR,		/* a maximal-length LFSR: every block once per pass, no map */
	RAND_GEN_TAUSWORTHE64,	/* the 64-bit combined Tausworthe (taus258) */
};

/* mem=: what backs the request buffers. */
enum job_mem {
	MEM_THP,	/* iopath's default: 2 MiB-aligned, transparent huge pages advised */
	MEM_MALLOC,	/* fio's default (malloc, mmap): ordinary 4 KiB pages */
};

/* exit_what=: which jobs end when one ends and exitall is in force (fio's TERMINATE_*). */
enum exit_what {
	EXIT_GROUP,		/* the jobs of its reporting group (fio's default) */
	EXIT_STONEWALL,		/* every job running now; later phases still run */
	EXIT_ALL,		/* every job, later ones included (they then run nothing) */
};

/* clocksource=: fio's default is the CPU clock when it is reliable, else clock_gettime. */
enum job_clock {
	CLOCK_DEFAULT,
	CLOCK_GETTIME,
	CLOCK_CPU,
	CLOCK_GTOD,		/* gettimeofday: accepted, stamped with clock_gettime (finer) */
};

/* fio's error types (td_error.h): what continue_on_error and ignore_error speak of. */
enum err_type {
	ERR_READ = 0,
	ERR_WRITE = 1,		/* writes, trims and syncs */
	ERR_VERIFY = 2,		/* EILSEQ, whatever the direction */
	ERR_TYPES = 3,
};

#define IGNORE_ERROR_MAX 32	/* errors listed per type */

#define JOB_NAME_MAX 128
#define JOB_ENGINE_OPTS_MAX 256	/* bytes of an engine's option block */
#define JOB_KV_MAX 64		/* options given in one section */

/* An option as the user gave it, kept for "job options" in the JSON output. */
struct job_kv {
	char key[64];
	char val[256];
	bool own;		/* given in the job's own section (not inherited from [global]) */
	bool bare;		/* given without a value (fio's JSON leaves such options out) */
};

/*
 * The pace of a job (rate=, rate_min=, rate_iops=, rate_iops_min=, per direction [DDIR_READ],
 * [DDIR_WRITE]; rate_process=, rate_cycle=, rate_ignore_thinktime=): set by set_rate in
 * core/job/set_io.c, its defaults by job_defaults, paced by setup_rate in core/run/wopts.c.
 */
struct job_rate {
	uint64_t bps[2];		/* bytes/s per direction; 0 = not limited */
	uint64_t min_bps[2];		/* bytes/s the job must keep up, else it fails */
	uint64_t iops[2];
	uint64_t min_iops[2];
	bool poisson;			/* rate_process=poisson */
	unsigned cycle_ms;		/* window of the rate_min check */
	bool ignore_thinktime;
};

/*
 * verify= and its options: set by the option table and set_verify, set_verify_pattern
 * (core/job/set_run.c), defaults in job_defaults, combinations settled by job_finish
 * (core/job/validate.c); stamped and checked by core/io/vhdr.c, run by core/run/ (reqgen.c,
 * verify.c, worker.c).
 */
struct job_verify_opts {
	enum job_verify kind;		/* verify= */
	bool after_write;		/* do_verify: the verify pass after writing (default 1) */
	bool only;			/* verify_only: write nothing, check an earlier run's */
	uint64_t backlog;		/* verify after this many blocks are written (0: at the end) */
	uint64_t backlog_batch;		/* blocks verified each time (0: backlog) */
	bool dump;			/* keep a failed block's data as read, in a file beside */
	bool fatal;			/* fio's; the first failed block ends the job either way */
	uint32_t interval;		/* a header every this many bytes (0: every block) */
	unsigned offset;		/* the header sits this far into each unit (fio's swap) */
	bool experimental;		/* experimental_verify: accepted; iopath checks what it logged */
	bool state_save;		/* a writer leaves what it completed in a state file */
	bool state_load;		/* a reader checks only what that file says was written */
	/* verify_write_sequence (fio's): the verify pass checks each header's write number (fio's
	 * numberio) against the block's last write; job_finish leaves it set only where fio checks
	 * it (a writing job of one block size, not time_based; by default not verify_only, nor
	 * norandommap with more than one asynchronous I/O in flight) */
	bool write_sequence;
	unsigned pattern_len;		/* verify_pattern: written data is this, checked for it */
	unsigned char pattern[PATTERN_MAX];
	/* verify_pattern's %o (fio's paste_blockoff): where in the pattern each I/O's offset goes,
	 * 8 bytes little-endian (fewer where the pattern ends first) */
	unsigned fmt_nr;
	uint16_t fmt_off[PATTERN_FMT_MAX];
	unsigned async;			/* threads that check completed verify reads (0: inline) */
};

/*
 * The job's logs (write_bw_log, write_iops_log, write_lat_log, write_hist_log and the log_*
 * options, per_job_logs, fio's --bandwidth-log): set by the option table, set_log_name
 * (core/job/set_io.c) and cmd_fio; defaults in job_defaults; kept by core/io/iolog.c, their
 * files named and checked by core/run/plan.c, written by the worker (core/run/worker.c).
 */
struct job_log {
	char bw[256];			/* write_bw_log name; "" = the job name */
	char iops[256];
	char lat[256];
	char hist[256];			/* write_hist_log name */
	bool bw_set, iops_set, lat_set, hist_set;	/* each log is written */
	bool agg_bw;			/* fio's --bandwidth-log: in the run's agg-*_bw.log files */
	bool prio;			/* log_prio: the I/O's priority value, not the RT flag */
	bool issue_time;		/* log_issue_time: latency logs give each issue time (ns) */
	unsigned hist_msec;		/* log_hist_msec: an entry per direction this often */
	uint64_t compression;		/* fio's in-memory chunk size: accepted, logs the same */
	bool store_compressed;		/* logs stored as fio's zlib-compressed NAME.log.fz */
	unsigned hist_coarseness;	/* 0..6: bins merged 2^N at a time */
	unsigned avg_msec;		/* log_avg_msec; 0: an entry per I/O */
	bool offset;			/* log_offset */
	bool max_value;			/* log_max_value */
	bool per_job;			/* per_job_logs */
	bool unix_epoch;		/* log_unix_epoch: times in ms of alternate_epoch_clock_id */
	bool alternate_epoch;		/* log_alternate_epoch: the same (fio has both names) */
	unsigned alternate_epoch_clock_id;	/* clock_gettime's clock; 0: CLOCK_REALTIME */
};

/*
 * What the job's write buffers hold (zero_buffers, refill_buffers, scramble_buffers,
 * buffer_compress_percentage, buffer_pattern, dedupe_percentage, dedupe_mode,
 * dedupe_working_set_percentage, dedupe_global): set by the option table and
 * set_buffer_pattern (core/job/set_io.c), filled by core/io/buffer.c.
 */
struct job_buf {
	bool zero;			/* zero_buffers */
	bool refill;			/* refill_buffers: new contents for every write */
	unsigned compress_pct;		/* buffer_compress_percentage */
	uint64_t compress_chunk;	/* buffer_compress_chunk: the unit that pct applies to
					 * (512; 0: the smallest write; never above it) */
	bool scramble;			/* scramble_buffers */
	unsigned dedupe_pct;		/* dedupe_percentage */
	bool dedupe_ws;			/* dedupe_mode=working_set (else repeat) */
	unsigned dedupe_ws_pct;		/* the working set: this percent of size, in blocks */
	bool dedupe_global;		/* working sets drawn from every worker's unique buffers */
	unsigned pattern_len;		/* buffer_pattern */
	unsigned char pattern[PATTERN_MAX];
};

/*
 * thinktime= and its options: a stall between I/Os (set by the option table and
 * thinktime_blocks_type's setter in core/job/set_io.c, the default of blocks by job_defaults,
 * blocks_given by job_finish; stalled in core/run/loop.c: think_due, think).
 */
struct job_think {
	uint64_t ns;			/* thinktime; 0: none */
	uint64_t spin_ns;		/* thinktime_spin: of it, spent spinning */
	uint64_t iotime_ns;		/* thinktime_iotime: I/O this long between stalls */
	unsigned blocks;		/* thinktime_blocks: I/Os between stalls */
	bool blocks_given;		/* set at finish: fio treats the default differently */
	bool issue;			/* thinktime_blocks_type=issue (else complete) */
};

/*
 * latency_target=: find the largest depth whose I/Os meet the target (fio's lat_target_*),
 * tried by setup_queue in core/run/wopts.c and lat_target_check in core/run/loop.c.
 */
struct job_lat_target {
	uint64_t ns;			/* 0: off */
	uint64_t window_ns;		/* how long each depth is tried */
	double percentile;		/* the share of I/Os that must meet it (default 100) */
};

/*
 * zonemode= and its options: set by the option table and set_zonemode, set_zone_frac (core/job/
 * set_run.c), checked and completed by job_finish (core/job/validate.c: zone suffixes, the
 * range's default); run by core/run/reqgen.c (strided) and core/io/zbd.c (zbd).
 */
struct job_zone {
	/* zonemode=strided: size bytes of each range, then skip bytes skipped */
	bool strided;
	uint64_t size;			/* zonesize */
	uint64_t range;			/* zonerange; 0: size */
	uint64_t skip;			/* zoneskip */
	/* zonemode=zbd: zones emulated in memory over a regular file or block device (core/io/zbd.h) */
	bool zbd;
	uint64_t capacity;		/* zonecapacity; 0: size */
	unsigned max_open;		/* max_open_zones; 0: no limit */
	unsigned job_max_open;		/* job_max_open_zones: per worker; 0: no limit */
	bool read_beyond_wp;
	bool ignore_limits;		/* ignore_zone_limits */
	double reset_threshold;		/* zone_reset_threshold: share of the region holding data, 0..1 */
	double reset_frequency;		/* zone_reset_frequency: share of writes that reset past it, 0..1 */
	uint64_t skip_nz;		/* zoneskip=Nz: in zones, turned into bytes by job_finish */
};

/*
 * A job's extent on its files: size=, offset=, io_size= and offset_increment=, in bytes, or as
 * a share of each file (N%) or in zones (Nz, turned into bytes by job_finish from zonesize).
 * Set by set_size_pct (core/job/set_run.c) through the option table, settled by job_finish
 * (core/job/validate.c: the zone suffixes); laid out by core/run/layout.c.
 */
struct job_sizes {
	uint64_t size;			/* total bytes per worker across its files; 0 = file size */
	uint64_t offset;
	uint64_t io_size;		/* bytes to move per worker; 0 = size */
	uint64_t offset_increment;
	unsigned size_pct;		/* size=N%: of each file's size (then size is unused) */
	unsigned offset_pct;		/* offset=N%: of each file's size, aligned up (offset_align) */
	unsigned offset_increment_pct;	/* offset_increment=N%: of the smallest file */
	uint64_t offset_align;		/* offset_align=: a percentage's start aligned up to it
					   (0: to the smallest block size) */
	uint64_t size_nz, offset_nz, offset_increment_nz, io_size_nz;	/* Nz: in zones */
};

/*
 * How long a job runs and when it starts: runtime=/timeout=, ramp_time=, time_based and
 * startdelay= (a range when max > min). Set by the option table and set_startdelay
 * (core/job/set_run.c); kept by core/run/worker.c and account.c.
 */
struct job_time {
	uint64_t runtime_ns;		/* 0 = no limit */
	uint64_t ramp_ns;		/* ramp_time */
	bool based;			/* time_based: run for runtime, looping over the files */
	uint64_t startdelay_ns;		/* delay before starting */
	uint64_t startdelay_max_ns;
};

struct job_spec {
	char name[JOB_NAME_MAX];
	char description[256];		/* description=: free text, carried into the reports */
	char filename[PATH_MAX];	/* as given: "a:b" names several files */
	char directory[PATH_MAX];
	char filename_format[PATH_MAX];	/* fio's: names from $jobname $jobnum $filenum $clientuid */
	char copy_from[PATH_MAX];	/* rw=copy: the source file */
	char ioengine[32];		/* as given */
	const struct engine_ops *engine;	/* resolved at finish */

	unsigned kb_base;		/* 1024 or 1000: how size suffixes are read */
	unsigned sig_figs;		/* significant_figures: digits of the normal output's figures */
	unsigned unit_base;		/* 0 or 8: bandwidths in bytes, 1: in bits (normal output) */
	struct job_sizes sizes;		/* size=, offset=, io_size=, offset_increment= (N%, Nz) */
	unsigned nrfiles;		/* files per worker (fio's nrfiles) */
	bool dryrun;			/* parsed for --parse-only (set by the parser per option) */
	bool nrfiles_last;		/* nrfiles= came after the last filename= (it keeps that many names) */
	unsigned openfiles;		/* fio's openfiles (0: not given) */
	uint64_t filesize;		/* rw=metadata: bytes in each small file */
	unsigned files_per_dir;		/* rw=metadata: files in each directory of the tree */
	unsigned dir_fanout;		/* rw=metadata: subdirectories of each directory */
	bool file_append;		/* write after the current end of file (appends) */
	enum job_rw rw;
	/* fio's rw=...:N: sequential jobs add seq_add bytes after each I/O (negative: backwards);
	 * random jobs take a new random offset every seq_nr I/Os, the others as rw_sequencer says */
	int64_t seq_add;
	unsigned seq_nr;		/* 1: every I/O random (fio's default) */
	bool seq_identical;		/* rw_sequencer=identical: repeat the offset instead */
	unsigned rwmixread;		/* percent */
	/* percentage_random (read, write, trim): of a random job's I/Os, the share at a random
	 * offset, the others where the direction's last I/O ended (fio's perc_rand); 100 each */
	unsigned perc_rand[3];
	uint32_t bs_trim;		/* bs=r,w,t: the trim size (0: the write size, as fio) */
	uint32_t bs[2];			/* per direction: [DDIR_READ], [DDIR_WRITE]; after
					 * job_finish the smallest size of that direction */
	uint32_t bs_max[2];		/* after job_finish: the largest (== bs when fixed) */
	uint32_t bsrange[2][2];		/* bsrange= per direction {min, max}; 0 = not given */
	unsigned nr_bssplit[2];
	struct bs_split bssplit[2][BSSPLIT_MAX];	/* sorted by share, largest first */
	bool bs_unaligned;
	uint32_t ba[2];			/* blockalign; 0 = the direction's smallest bs */
	uint64_t filesize_range[2];	/* data jobs: filesize= {low, high}; 0 = size / nrfiles */
	enum file_service file_service;
	unsigned file_service_nr;	/* I/Os before switching file (":N") */
	double file_service_arg;	/* zipf theta, pareto h, normal deviation */
	bool allow_file_create;		/* fio's: false refuses files that do not exist yet */
	/* fio's allow_mounted_write: a job's own leave to write a mounted device; iopath still
	 * asks for --allow-destructive=DEV on the command line and says so */
	bool allow_mounted_write;
	uint64_t cpus_allowed[JOB_CPUS_MAX / 64];	/* cpus_allowed=, cpumask=: each worker's CPUs */
	bool cpus_given;		/* one of them was given (else: the thread's inherited set) */
	bool cpus_split;		/* cpus_allowed_policy=split: one CPU of the set per worker */
	bool ioprio_given;		/* prio= or prioclass= given: ioprio_set on each worker */
	unsigned ioprio;		/* prio=: 0-7 */
	unsigned ioprio_class;		/* prioclass=: 1 RT, 2 BE, 3 IDLE; 0 is BE, as fio */
	int nice;			/* nice=: added to each worker thread's nice value */
	/*
	 * fio's cmdprio options (libaio and io_uring): a priority of its own for a share of each
	 * direction's I/Os, read [0] and write [1]: cmdprio_percentage of them, or by block size
	 * (cmdprio_bssplit, sorted by size); class (0: real-time, as fio) and level otherwise
	 */
	unsigned cmdprio_pct[2];
	unsigned cmdprio_class[2];
	unsigned cmdprio_level[2];
	bool cmdprio_bssplit_given;
	unsigned nr_cmdprio_split[2];
	struct cmdprio_split cmdprio_split[2][BSSPLIT_MAX];
	char numa_cpu_nodes[64];	/* run on these nodes' CPUs ("" : anywhere) */
	unsigned numa_mem_mode;		/* enum numa_mode (core/base/numapol.h) */
	char numa_mem_nodes[64];
	bool submit_offload;		/* io_submit_mode=offload: a pool of I/O threads submits */
	bool unlink;
	bool unlink_each_loop;		/* the files removed and made anew between loops */
	bool create_on_open;
	enum fallocate_mode fallocate;
	unsigned iodepth;
	unsigned iodepth_batch_submit;
	unsigned iodepth_batch_complete_min;
	unsigned iodepth_batch_complete_max;	/* 0 or below min: min, as fio */
	unsigned numjobs;
	struct job_time time;		/* runtime=, ramp_time=, time_based, startdelay= */
	unsigned loops;
	unsigned fsync_blocks;
	unsigned fdatasync_blocks;
	bool end_fsync;
	bool fsync_on_close;		/* fio's: fsync each written file as the worker closes it */
	bool create_fsync;		/* fio's (default 1): fsync a file after laying it out */
	bool create_only;		/* fio's: lay the files out, run no I/O */
	bool overwrite;			/* may write files iopath did not create */
	bool direct;
	bool atomic;			/* atomic=1: writes with RWF_ATOMIC (untorn); implies direct=1;
					 * after job_finish false for a job that writes no data */
	unsigned iodepth_low;		/* refill a full queue only once this few are in flight (0: iodepth) */
	bool pre_read;			/* read the files into the page cache, untimed, first */
	int sync_flags;			/* sync=: 0, O_SYNC or O_DSYNC on every open of the job's files */
	bool invalidate;
	unsigned char fadvise_hint;	/* FADV_HINT_*: fio's fadvise_hint */
	bool randrepeat;
	bool randseed_set;
	uint64_t randseed;
	bool norandommap;
	struct job_buf buf;		/* zero_buffers, refill_buffers, buffer_pattern, dedupe_*, ... */
	struct job_rate rate;		/* rate, rate_iops, rate_min, rate_process, ... */
	struct job_think think;		/* thinktime, thinktime_spin, _blocks, _blocks_type, _iotime */
	char write_iolog[256];		/* record every I/O issued here (fio's iolog v3) */
	char read_iolog[256];		/* replay this fio iolog (v2, v3) or blktrace */
	char replay_redirect[256];	/* replay every file's I/O onto this one */
	bool replay_no_stall;		/* replay as fast as possible, not at the log's times */
	uint64_t replay_align;		/* replayed offsets aligned down to this */
	unsigned replay_scale;		/* replayed offsets divided by this */
	unsigned replay_time_scale;	/* percent: 200 replays twice as fast */
	unsigned replay_skip;		/* a bit per direction (1 << DDIR_x) the replay leaves out */
	bool serialize_overlap;		/* a request overlapping one in flight waits for it */
	char aux_path[256];		/* --aux-path: where state files go ("" = here) */
	/* exec_prerun, exec_postrun: shell commands each worker runs before its I/O and after,
	 * their output in NAME.prerun.txt and NAME.postrun.txt (fio's) */
	char exec_prerun[1024];
	char exec_postrun[1024];
	char ioscheduler[64];		/* the scheduler of the first file's disk while the job runs */
	unsigned bw_avg_ms;		/* bwavgtime: a bandwidth sample every this many ms */
	unsigned iops_avg_ms;		/* iopsavgtime: an IOPS sample every this many ms */
	struct job_log log;		/* write_*_log, log_*, per_job_logs, --bandwidth-log */
	unsigned nr_percentiles;	/* percentile_list; 0 = fio's default list */
	double percentiles[20];		/* ascending */
	bool clat_percentiles;
	bool lat_percentiles;
	bool slat_percentiles;
	enum rand_dist random_distribution;
	double dist_arg;		/* zipf theta, pareto h, normal deviation (percent) */
	double dist_center;		/* 0..1, or -1: fio's default */
	unsigned nr_zones[2];
	struct zone_split zones[2][ZONES_MAX];
	unsigned nr_dist_seq;		/* random_distribution=sequence: the indices */
	uint64_t dist_seq[SEQUENCE_MAX];
	bool random_sequence_stride;	/* each cycle moves on by the sequence's length */
	bool sprandom;			/* fio's SanDisk pseudo-random preconditioning */
	unsigned spr_num_regions;
	double spr_op;			/* over-provisioning, a fraction of the logical size */
	struct job_zone zone;		/* zonemode=, zonesize, zonerange, zoneskip, max_open_zones, ... */
	bool create_serialize;
	struct job_lat_target lat_target;	/* latency_target, _window, _percentile */
	uint64_t max_lat_ns[3];		/* max_latency= per direction (read, write, trim); 0: none */
	unsigned write_hint;		/* write_hint=: RWH_WRITE_LIFE_NONE (1)..._EXTREME (5); 0: unset */
	unsigned lockfile;		/* lockfile=: LOCKFILE_NONE, _EXCLUSIVE, _READWRITE */
	unsigned sfr_flags;		/* sync_file_range=: SYNC_FILE_RANGE_* flags */
	uint32_t sfr_blocks;		/* sync_file_range=...:N: every N writes (0: none) */
	unsigned rand_gen;		/* random_generator=: enum rand_gen */
	unsigned unified_rw;		/* unified_rw_reporting=: enum unified_rw */
	/* ss=, ss_dur=, ss_ramp=: steady state (core/stats/steady.h) */
	unsigned ss_state;		/* SS_IOPS, SS_SLOPE, SS_PCT */
	double ss_limit;
	uint64_t ss_dur_ns;		/* the window; whole seconds count (0: off) */
	uint64_t ss_ramp_ns;
	bool exitall;			/* fio's: in force for every job of the run once any sets it */
	enum exit_what exit_what;
	bool exitall_on_error;		/* a worker that fails ends others (exit_what) */
	uint64_t number_ios;		/* stop after this many I/Os per loop (0: no limit) */
	unsigned flow;			/* fio's flow weight (0: no flow control) */
	unsigned flow_id;
	unsigned flow_sleep_us;		/* held back: wait for in-flight I/O, then sleep this */
	bool group_reporting;
	bool disk_util;			/* report the devices under the job's files (fio's default) */
	bool stonewall;			/* wait for every earlier job to end (starts a phase) */
	bool new_group;			/* start a new reporting group without waiting */
	bool thread;			/* fio's thread (iopath's workers always are threads) */
	char wait_for[JOB_NAME_MAX];	/* start after this (earlier) job has ended */
	unsigned wait_for_index;	/* resolved at finish: index of that job in the list */
	struct job_verify_opts verify;	/* verify=, do_verify, verify_only, verify_backlog, ... */
	bool fill_device;		/* writing until ENOSPC ends the job, without an error */
	/* continue_on_error: a bit per enum err_type whose non-fatal errors the job survives
	 * (counted in total_err); ignore_error sets a bit too, and replaces that type's list of
	 * non-fatal errors (nr 0: fio's default, EIO and EILSEQ) */
	unsigned continue_on_error;
	unsigned nr_ignore_error[ERR_TYPES];
	int ignore_error[ERR_TYPES][IGNORE_ERROR_MAX];
	bool error_dump;		/* report every error, the non-fatal ones too */
	enum job_clock clocksource;
	enum job_mem mem;
	char mem_file[256];		/* mem=mmap:FILE, mmapshared:FILE: the buffers are FILE mapped */
	bool mem_shared;		/* mmapshared:FILE: MAP_SHARED, as the file is; else MAP_PRIVATE */
	/* What is not measured (fio's disable_*; gtod_reduce sets all four). */
	bool disable_lat;		/* total latency (lat_ns) */
	bool disable_clat;		/* completion latency: clat_ns, percentiles, latency_* */
	bool disable_slat;		/* submission latency (slat_ns) */
	bool disable_bw;		/* bandwidth and IOPS samples (bw_min..., iops_min...) */

	/* The engine's own options (ops->options), parsed into its block at finish. */
	unsigned char engine_opts[JOB_ENGINE_OPTS_MAX] __attribute__((aligned(8)));
	unsigned nr_engine_kv;
	struct job_kv engine_kv[16];

	/* Every option given for this job, globals included, in order. */
	unsigned nr_kv;
	struct job_kv kv[JOB_KV_MAX];
	/* fio's "global options": those in force for the last job file (its [global] sections,
	 * and the command line's before the first --name); the job list's, NULL when none */
	const struct job_kv *global_kv;
	unsigned nr_global_kv;

	/* Where the job was defined, for messages. */
	char origin[PATH_MAX + 32];
	unsigned groupid;		/* fio's reporting group: stonewall and new_group start one */
	unsigned phase;			/* stonewall-separated run phase: jobs of a phase run together */
};

/* Does the job give some of its I/Os a priority of their own (cmdprio_percentage, _bssplit)? */
static inline bool job_cmdprio(const struct job_spec *job)
{
	return job->cmdprio_pct[0] || job->cmdprio_pct[1] || job->nr_cmdprio_split[0] ||
	       job->nr_cmdprio_split[1] || job->cmdprio_bssplit_given;
}

/* The priority every I/O of the job carries unless cmdprio gives it another (prio, prioclass). */
static inline uint16_t job_ioprio(const struct job_spec *job)
{
	if (!job->ioprio_given)
		return 0;
	return IOPRIO_VALUE(job->ioprio_class ? job->ioprio_class : IOPRIO_CLASS_BE, job->ioprio);
}

/* unlink_each_loop with loops to separate: the files go between loops (fio's unlink_all_files). */
static inline bool job_unlinks_each_loop(const struct job_spec *job)
{
	return job->unlink_each_loop && job->loops > 1 && !job->time.based &&
	       !(job->engine && (job->engine->flags & ENGINE_DISKLESS));
}

/* The granularity of verify headers: verify_interval, else the job's smallest block. */
static inline uint32_t job_verify_unit(const struct job_spec *job, uint32_t unit)
{
	return job->verify.interval ? job->verify.interval : unit;
}

/*
 * The job's random sequences (offsets, buffer contents, pacing, start delays) the same on every
 * run: randrepeat=1 (fio's default; allrandrepeat is its other name), or a randseed given,
 * which seeds them.
 */
static inline bool job_rand_repeatable(const struct job_spec *job)
{
	return job->randrepeat || job->randseed_set;
}

static inline bool job_rw_random(enum job_rw rw)
{
	return rw == RW_RANDREAD || rw == RW_RANDWRITE || rw == RW_RANDRW || rw == RW_RANDTRIM ||
	       rw == RW_RANDTRIMWRITE;
}

/*
 * Trims take the write direction's place: its block size (unless bs= gives a third), offsets,
 * rate. A trim job modifies its target, so it counts as writing it (safety, open mode, layout).
 */
static inline bool job_trims(enum job_rw rw)
{
	return rw >= RW_TRIM && rw <= RW_RANDTRIMWRITE;
}

/* A copy both reads and writes; the metadata loop does its own file I/O. */
static inline bool job_reads(enum job_rw rw)
{
	return rw == RW_READ || rw == RW_RANDREAD || rw == RW_RW || rw == RW_RANDRW ||
	       rw == RW_COPY;
}

static inline bool job_writes(enum job_rw rw)
{
	return rw == RW_WRITE || rw == RW_RANDWRITE || rw == RW_RW || rw == RW_RANDRW ||
	       rw == RW_COPY || job_trims(rw);
}

/* fadvise_hint resolved: FADV_HINT_NONE, _RANDOM or _SEQUENTIAL (fio's td_random for 1). */
static inline unsigned job_fadvise(const struct job_spec *job)
{
	if (job->fadvise_hint == FADV_HINT_TYPE)
		return job_rw_random(job->rw) ? FADV_HINT_RANDOM : FADV_HINT_SEQUENTIAL;
	return job->fadvise_hint;
}

/* The same as the engine contract says it (engine_params.advise). */
static inline enum engine_advise job_engine_advise(const struct job_spec *job)
{
	unsigned hint = job_fadvise(job);

	return hint == FADV_HINT_RANDOM ? ENGINE_ADVISE_RANDOM :
	       hint == FADV_HINT_SEQUENTIAL ? ENGINE_ADVISE_SEQUENTIAL : ENGINE_ADVISE_NONE;
}

/* The rw= name of a mode, as fio spells it. */
static inline const char *job_rw_name(enum job_rw rw)
{
	static const char *const names[] = { "read", "write", "randread", "randwrite", "rw",
					     "randrw", "copy", "metadata", "trim", "randtrim",
					     "trimwrite", "randtrimwrite" };

	return (unsigned)rw < sizeof(names) / sizeof(names[0]) ? names[rw] : "?";
}

/*
 * Does the job change its files: it writes or trims, or its engine changes them anyway? A
 * file-operation engine changes them only when it removes them (filedelete).
 */
static inline bool job_changes_files(const struct job_spec *job)
{
	if (job->verify.only)
		return false;	/* its writes are not done, only read back (fio's dry run) */
	if (job->engine && (job->engine->flags & ENGINE_FILE_OP))
		return job->engine->flags & ENGINE_REMOVES;
	return job_writes(job->rw) || (job->engine && (job->engine->flags & ENGINE_MODIFIES));
}

/*
 * Does the job only read back and check what an earlier job wrote? A file a write job left
 * partly written is taken as it is: laying it out again would replace the data it is there to
 * check (fio's verify read of such a file must fail, not pass on fresh data).
 */
static inline bool job_checks_written(const struct job_spec *job)
{
	return job->verify.kind != VERIFY_NONE && (job->verify.after_write || job->verify.only) &&
	       !job_changes_files(job);
}

/* Data writes (not trims only): what verify stamps and end_fsync flushes. */
static inline bool job_writes_data(enum job_rw rw)
{
	return job_writes(rw) && rw != RW_TRIM && rw != RW_RANDTRIM;
}

/*
 * Does some latency the job measures need the clock read before each submit call? A sync
 * engine's completion latency does (the I/O happens inside submit); an async one's
 * submission latency does (total latency is clat + slat either way).
 */
static inline bool job_stamps_submit(const struct job_spec *job, bool sync_engine)
{
	if (sync_engine)
		return !job->disable_clat || !job->disable_lat;
	return !job->disable_slat || !job->disable_lat;
}

#endif
