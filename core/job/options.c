/* The job option table: fio's option names, their parsers and their validation. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/cpulist.h"
#include "job/fio_unsupported.h"
#include "base/msg.h"
#include "job/options.h"
#include "base/numapol.h"
#include "base/parse.h"
#include "job/job.h"
#include "job/setters.h"


/* The words of the OPT_WORD options, fio's spellings, and what each stores. */
static const struct opt_word rw_sequencer_words[] = {
	{ "sequential", false }, { "identical", true }, { NULL, 0 },
};
static const struct opt_word unit_base_words[] = {
	{ "0", 8 }, { "8", 8 }, { "1", 1 }, { NULL, 0 },
};
static const struct opt_word fadvise_hint_words[] = {
	{ "0", FADV_HINT_NONE }, { "1", FADV_HINT_TYPE }, { "random", FADV_HINT_RANDOM },
	{ "sequential", FADV_HINT_SEQUENTIAL }, { NULL, 0 },
};
static const struct opt_word rate_process_words[] = {
	{ "linear", false }, { "poisson", true }, { NULL, 0 },
};
static const struct opt_word dedupe_mode_words[] = {
	{ "repeat", false }, { "working_set", true }, { NULL, 0 },
};
static const struct opt_word submit_mode_words[] = {
	{ "inline", false }, { "offload", true }, { NULL, 0 },
};
static const struct opt_word random_generator_words[] = {
	{ "tausworthe", RAND_GEN_TAUSWORTHE }, { "lfsr", RAND_GEN_LFSR },
	{ "tausworthe64", RAND_GEN_TAUSWORTHE64 }, { NULL, 0 },
};
static const struct opt_word unified_rw_words[] = {
	{ "none", UNIFIED_NONE }, { "0", UNIFIED_NONE }, { "mixed", UNIFIED_MIXED },
	{ "1", UNIFIED_MIXED }, { "both", UNIFIED_BOTH }, { "2", UNIFIED_BOTH }, { NULL, 0 },
};
static const struct opt_word exit_what_words[] = {
	{ "group", EXIT_GROUP }, { "stonewall", EXIT_STONEWALL }, { "all", EXIT_ALL }, { NULL, 0 },
};

/*
 * The option table. To add an option: add its field to struct job_spec, then one entry here
 * (fio's name, its fio alias if any, how it parses, the range, one line of help). Options
 * whose parsing is special get a set_* function above.
 */
/* only the OPT_WORD entries give the last field, words; the others leave it NULL */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
const struct opt_def opt_table[] = {
	{ "name", NULL, OPT_STR, FIELD(name), 0, 0, NULL, "job name" },
	{ "description", NULL, OPT_STR, FIELD(description), 0, 0, NULL,
	  "free text, carried into the reports" },
	{ "filename", NULL, OPT_STR, FIELD(filename), 0, 0, NULL, "file(s) to use, a:b for several" },
	{ "directory", NULL, OPT_STR, FIELD(directory), 0, 0, NULL, "directory for the job's files" },
	{ "filename_format", NULL, OPT_STR, FIELD(filename_format), 0, 0, NULL,
	  "names of the job's files without filename=: $jobname, $jobnum, $filenum, $clientuid replaced" },
	{ "copy_from", NULL, OPT_STR, FIELD(copy_from), 0, 0, NULL,
	  "rw=copy: the file to copy to filename" },
	{ "nrfiles", "nr_files", OPT_UINT, FIELD(nrfiles), 1, 100000000, NULL,
	  "files per worker (rw=metadata: the small files to create)" },
	{ "filesize", NULL, OPT_FN, 0, 0, 0, 0, set_filesize,
	  "size of each file, or a low-high range (rw=metadata: bytes in each small file)" },
	{ "openfiles", NULL, OPT_UINT, FIELD(openfiles), 1, 100000000, NULL,
	  "files kept open at once (the file-operation engines hold one at a time; data jobs keep all open)" },
	{ "files_per_dir", NULL, OPT_UINT, FIELD(files_per_dir), 1, 1000000, NULL,
	  "rw=metadata: files in each directory of the tree" },
	{ "dir_fanout", NULL, OPT_UINT, FIELD(dir_fanout), 1, 1000000, NULL,
	  "rw=metadata: subdirectories of each directory of the tree" },
	{ "file_append", NULL, OPT_FLAG, FIELD(file_append), 0, 1, NULL,
	  "write after the end of the file (appends) instead of inside size" },
	{ "ioengine", NULL, OPT_FN, 0, 0, 0, 0, set_engine, "I/O engine" },
	{ "size", NULL, OPT_FN, 0, 0, 0, 0, set_size_pct,
	  "bytes per worker across its files, or N% of each file" },
	{ "offset", "fileoffset", OPT_FN, 0, 0, 0, 0, set_size_pct,
	  "start offset in each file, or N% of it" },
	{ "io_size", "io_limit", OPT_FN, 0, 0, 0, 0, set_size_pct,
	  "bytes to move per worker (Nz: N zones)" },
	{ "rw", "readwrite", OPT_FN, 0, 0, 0, 0, set_rw, "I/O pattern" },
	{ "rw_sequencer", NULL, OPT_WORD, FIELD(seq_identical), 0, 0, NULL,
	  "rw=randread:N: the I/Os between random offsets follow on (sequential) or repeat (identical)",
	  rw_sequencer_words },
	{ "rwmixread", NULL, OPT_FN, 0, 0, 0, 0, set_rwmix, "percent reads in mixed patterns" },
	{ "rwmixwrite", NULL, OPT_FN, 0, 0, 0, 0, set_rwmix, "percent writes in mixed patterns" },
	{ "bs", "blocksize", OPT_FN, 0, 0, 0, 0, set_bs, "block size, or read,write block sizes" },
	{ "bsrange", "blocksize_range", OPT_FN, 0, 0, 0, 0, set_bsrange,
	  "block sizes drawn from low-high (per direction)" },
	{ "bssplit", NULL, OPT_FN, 0, 0, 0, 0, set_bssplit,
	  "weighted block sizes bs/percent:... (per direction)" },
	{ "bs_unaligned", "blocksize_unaligned", OPT_FLAG, FIELD(bs_unaligned), 0, 1, NULL,
	  "any size in the range, not only multiples of the smallest" },
	{ "blockalign", "ba", OPT_FN, 0, 0, 0, 0, set_ba, "alignment of random offsets" },
	{ "file_service_type", NULL, OPT_FN, 0, 0, 0, 0, set_file_service,
	  "how the next file is chosen" },
	{ "offset_increment", NULL, OPT_FN, FIELD(offset_increment), 0, 0, set_size_pct,
	  "offset added per worker number" },
	{ "allow_file_create", NULL, OPT_BOOL, FIELD(allow_file_create), 0, 1, NULL,
	  "may create files that do not exist (0: they must exist already)" },
	{ "unlink", NULL, OPT_BOOL, FIELD(unlink), 0, 1, NULL, "remove the job's files when done" },
	{ "create_on_open", NULL, OPT_BOOL, FIELD(create_on_open), 0, 1, NULL,
	  "create files when opened, without laying them out" },
	{ "fallocate", NULL, OPT_FN, 0, 0, 0, 0, set_fallocate, "how files are preallocated" },
	{ "iodepth", NULL, OPT_UINT, FIELD(iodepth), 1, 65536, NULL, "requests in flight per worker" },
	{ "iodepth_batch_submit", "iodepth_batch", OPT_UINT, FIELD(iodepth_batch_submit), 0, 65536,
	  NULL, "requests gathered before one submission (0 = iodepth)" },
	{ "iodepth_batch_complete_min", "iodepth_batch_complete", OPT_UINT,
	  FIELD(iodepth_batch_complete_min), 0, 65536, NULL, "completions waited for at once" },
	{ "iodepth_batch_complete_max", NULL, OPT_UINT, FIELD(iodepth_batch_complete_max), 0, 65536,
	  NULL, "completions taken at most per reap (default: iodepth_batch_complete_min)" },
	{ "iodepth_low", NULL, OPT_UINT, FIELD(iodepth_low), 0, 65536, NULL,
	  "once the queue is full, let it drain to this many before queueing more (default iodepth)" },
	{ "numjobs", NULL, OPT_UINT, FIELD(numjobs), 1, 4096, NULL, "worker threads for the job" },
	{ "runtime", "timeout", OPT_TIME, FIELD(runtime_ns), 0, UINT64_MAX, NULL, "time limit" },
	{ "time_based", NULL, OPT_FLAG, FIELD(time_based), 0, 1, NULL, "run for runtime, repeating" },
	{ "ramp_time", NULL, OPT_TIME, FIELD(ramp_ns), 0, UINT64_MAX, NULL, "unmeasured warm-up time" },
	{ "loops", NULL, OPT_UINT, FIELD(loops), 1, 1000000, NULL, "times to repeat the job" },
	{ "fsync", NULL, OPT_UINT, FIELD(fsync_blocks), 0, UINT32_MAX, NULL, "fsync every N writes" },
	{ "fdatasync", NULL, OPT_UINT, FIELD(fdatasync_blocks), 0, UINT32_MAX, NULL,
	  "fdatasync every N writes" },
	{ "end_fsync", NULL, OPT_BOOL, FIELD(end_fsync), 0, 1, NULL, "fsync files when the job ends" },
	{ "fsync_on_close", NULL, OPT_BOOL, FIELD(fsync_on_close), 0, 1, NULL,
	  "fsync each written file as the worker closes it (after its measured time)" },
	{ "create_only", NULL, OPT_BOOL, FIELD(create_only), 0, 1, NULL,
	  "only lay the job's files out: no I/O (its result counts none)" },
	{ "create_fsync", NULL, OPT_BOOL, FIELD(create_fsync), 0, 1, NULL,
	  "fsync each file after laying it out (0: leave its data to the page cache)" },
	{ "overwrite", NULL, OPT_BOOL, FIELD(overwrite), 0, 1, NULL,
	  "allow writing to existing files iopath did not create" },
	{ "direct", NULL, OPT_FN, 0, 0, 0, 0, set_direct, "O_DIRECT (1) or buffered (0)" },
	{ "buffered", NULL, OPT_FN, 0, 0, 0, 0, set_direct, "buffered (1) or O_DIRECT (0)" },
	{ "atomic", NULL, OPT_BOOL, FIELD(atomic), 0, 1, NULL,
	  "untorn writes: each write with RWF_ATOMIC (pvsync2, libaio, io_uring; implies direct=1; the file's statx limits are checked first)" },
	{ "sync", NULL, OPT_FN, 0, 0, 0, 0, set_sync,
	  "open the job's files with O_SYNC (sync, 1) or O_DSYNC (dsync); none (0) is the default" },
	{ "pre_read", NULL, OPT_BOOL, FIELD(pre_read), 0, 1, NULL,
	  "read the job's files into the page cache before it starts (untimed; not with direct=1)" },
	{ "invalidate", NULL, OPT_BOOL, FIELD(invalidate), 0, 1, NULL, "drop cached pages first" },
	{ "significant_figures", NULL, OPT_UINT, FIELD(sig_figs), 1, 10, NULL,
	  "digits of the normal output's IOPS, bandwidths and sizes (4)" },
	{ "unit_base", NULL, OPT_WORD, FIELD(unit_base), 0, 0, NULL,
	  "normal output's bandwidths in bytes (0 or 8) or bits (1)", unit_base_words },
	{ "fadvise_hint", NULL, OPT_WORD, FIELD(fadvise_hint), 0, 0, NULL,
	  "advise the kernel of the access pattern: 1 (the job's: random or sequential, the default), random, sequential, 0 (none)",
	  fadvise_hint_words },
	{ "randrepeat", NULL, OPT_BOOL, FIELD(randrepeat), 0, 1, NULL, "same random sequence each run" },
	{ "allrandrepeat", NULL, OPT_BOOL, FIELD(randrepeat), 0, 1, NULL,
	  "randrepeat's other name, as in fio 3.36 on (randrepeat covers every generator)" },
	{ "randseed", NULL, OPT_FN, 0, 0, 0, 0, set_randseed, "seed of the random generators" },
	{ "norandommap", NULL, OPT_FLAG, FIELD(norandommap), 0, 1, NULL,
	  "random offsets without covering each block once" },
	{ "zero_buffers", NULL, OPT_FLAG, FIELD(zero_buffers), 0, 1, NULL, "zero-filled buffers" },
	{ "refill_buffers", NULL, OPT_FLAG, FIELD(refill_buffers), 0, 1, NULL,
	  "new random data for every write" },
	{ "scramble_buffers", NULL, OPT_BOOL, FIELD(scramble_buffers), 0, 1, NULL,
	  "stamp offset and sequence into every 512 bytes of a write (defeats dedupe)" },
	{ "buffer_pattern", NULL, OPT_FN, 0, 0, 0, 0, set_buffer_pattern,
	  "fill buffers with a pattern: 0x hex, \"string\", 'file', numbers" },
	{ "dedupe_percentage", NULL, OPT_UINT, FIELD(dedupe_percentage), 0, 100, NULL,
	  "percent of writes repeating an earlier buffer" },
	{ "rate", NULL, OPT_FN, FIELD(rate), 0, 0, set_rate, "bandwidth cap in bytes/s (read,write)" },
	{ "rate_min", "ratemin", OPT_FN, FIELD(rate_min), 0, 0, set_rate,
	  "bandwidth the job must keep up, in bytes/s (read,write)" },
	{ "rate_iops", NULL, OPT_FN, FIELD(rate_iops), 0, 0, set_rate, "I/Os per second cap (read,write)" },
	{ "rate_iops_min", NULL, OPT_FN, FIELD(rate_iops_min), 0, 0, set_rate,
	  "I/Os per second the job must keep up (read,write)" },
	{ "rate_process", NULL, OPT_WORD, FIELD(rate_poisson), 0, 0, NULL, "linear or poisson pacing",
	  rate_process_words },
	{ "rate_cycle", "ratecycle", OPT_UINT, FIELD(rate_cycle_ms), 1, 1000000, NULL,
	  "window of the rate_min check, in ms" },
	{ "rate_ignore_thinktime", NULL, OPT_BOOL, FIELD(rate_ignore_thinktime), 0, 1, NULL,
	  "keep the rate schedule through thinktime instead of catching up" },
	{ "thinktime", NULL, OPT_FN, FIELD(thinktime_ns), 0, 0, set_usec_time,
	  "stall between I/Os (bare number: microseconds)" },
	{ "thinktime_spin", NULL, OPT_FN, FIELD(thinktime_spin_ns), 0, 0, set_usec_time,
	  "part of thinktime spent spinning (bare number: microseconds)" },
	{ "thinktime_blocks", NULL, OPT_UINT, FIELD(thinktime_blocks), 1, UINT32_MAX, NULL,
	  "I/Os between thinktime stalls" },
	{ "thinktime_blocks_type", NULL, OPT_FN, 0, 0, 0, 0, set_thinktime_blocks_type,
	  "count thinktime_blocks at completion or at issue" },
	{ "thinktime_iotime", NULL, OPT_TIME, FIELD(thinktime_iotime_ns), 0, UINT64_MAX, NULL,
	  "I/O time between thinktime stalls (bare number: seconds)" },
	{ "serialize_overlap", NULL, OPT_BOOL, FIELD(serialize_overlap), 0, 1, NULL,
	  "a request that overlaps one in flight (or queued) is issued only after it completes" },
	{ "log_prio", NULL, OPT_BOOL, FIELD(log_prio), 0, 1, NULL,
	  "logs give each I/O's priority value (0x%04x: class << 13 | level), not only whether it is RT" },
	{ "log_issue_time", NULL, OPT_BOOL, FIELD(log_issue_time), 0, 1, NULL,
	  "latency logs give each I/O's issue time (ns from the job's start) as a last column" },
	{ "write_iolog", NULL, OPT_STR, FIELD(write_iolog), 0, 0, NULL,
	  "record every I/O issued to this file (fio's iolog, version 3: with times)" },
	{ "read_iolog", NULL, OPT_STR, FIELD(read_iolog), 0, 0, NULL,
	  "replay a fio iolog (version 2 or 3) or a blktrace: its files, offsets, sizes, directions and times" },
	{ "replay_redirect", NULL, OPT_STR, FIELD(replay_redirect), 0, 0, NULL,
	  "replay the I/O of every file of the log onto this file or device" },
	{ "replay_no_stall", NULL, OPT_BOOL, FIELD(replay_no_stall), 0, 1, NULL,
	  "replay as fast as possible, ignoring the log's times" },
	{ "replay_align", NULL, OPT_SIZE, FIELD(replay_align), 0, 1ull << 30, NULL,
	  "align replayed offsets down to this many bytes" },
	{ "replay_scale", NULL, OPT_UINT, FIELD(replay_scale), 1, 1u << 30, NULL,
	  "divide replayed offsets by this" },
	{ "replay_skip", NULL, OPT_FN, 0, 0, 0, 0, set_replay_skip,
	  "leave these I/O types out of the replay: read,write,trim,sync (sync: syncs and datasyncs)" },
	{ "replay_time_scale", NULL, OPT_UINT, FIELD(replay_time_scale), 1, 1000000, NULL,
	  "replay time scale in percent (200: twice as fast, 50: half as fast)" },
	{ "write_bw_log", NULL, OPT_FN_OPT, FIELD(bw_log), 0, 0, set_log_name,
	  "log bandwidth to NAME_bw.N.log (fio's format)" },
	{ "write_iops_log", NULL, OPT_FN_OPT, FIELD(iops_log), 0, 0, set_log_name,
	  "log IOPS to NAME_iops.N.log" },
	{ "write_lat_log", NULL, OPT_FN_OPT, FIELD(lat_log), 0, 0, set_log_name,
	  "log latencies to NAME_slat/clat/lat.N.log" },
	{ "write_hist_log", NULL, OPT_FN_OPT, FIELD(hist_log), 0, 0, set_log_name,
	  "log completion latency histograms to NAME_clat_hist.N.log (fio's format)" },
	{ "log_hist_msec", NULL, OPT_UINT, FIELD(log_hist_msec), 0, UINT32_MAX, NULL,
	  "write_hist_log: a histogram per direction every this many ms (0: none)" },
	{ "log_hist_coarseness", NULL, OPT_UINT, FIELD(log_hist_coarseness), 0, 6, NULL,
	  "write_hist_log: merge 2^N bins (0: fio's 1856 per entry, 6: 29)" },
	{ "log_compression", NULL, OPT_SIZE, FIELD(log_compression), 1024, 536870912, NULL,
	  "fio compresses logs in memory in chunks of this size; iopath's logs are the same either way" },
	{ "log_store_compressed", NULL, OPT_BOOL, FIELD(log_store_compressed), 0, 1, NULL,
	  "store the bw/iops/lat logs as fio's compressed NAME.log.fz (fio --inflate-log reads them)" },
	{ "log_avg_msec", NULL, OPT_UINT, FIELD(log_avg_msec), 0, UINT32_MAX, NULL,
	  "average log entries over this many ms (0: one per I/O)" },
	{ "log_offset", NULL, OPT_BOOL, FIELD(log_offset), 0, 1, NULL, "add each I/O's offset to the logs" },
	{ "log_max_value", NULL, OPT_BOOL, FIELD(log_max_value), 0, 1, NULL,
	  "windowed logs keep the maximum, not the mean" },
	{ "per_job_logs", NULL, OPT_BOOL, FIELD(per_job_logs), 0, 1, NULL,
	  "a log file per worker (NAME_type.N.log), else one shared" },
	{ "percentile_list", NULL, OPT_FN, 0, 0, 0, 0, set_percentile_list,
	  "latency percentiles to report, e.g. 50:99:99.9" },
	{ "clat_percentiles", NULL, OPT_BOOL, FIELD(clat_percentiles), 0, 1, NULL,
	  "report completion latency percentiles" },
	{ "lat_percentiles", NULL, OPT_BOOL, FIELD(lat_percentiles), 0, 1, NULL,
	  "report total latency percentiles" },
	{ "slat_percentiles", NULL, OPT_BOOL, FIELD(slat_percentiles), 0, 1, NULL,
	  "report submission latency percentiles" },
	{ "dedupe_mode", NULL, OPT_WORD, FIELD(dedupe_working_set), 0, 0, NULL,
	  "repeat (the last unique buffer) or working_set (one of the first unique buffers)",
	  dedupe_mode_words },
	{ "dedupe_working_set_percentage", NULL, OPT_UINT, FIELD(dedupe_ws_percentage), 0, 100,
	  NULL, "dedupe_mode=working_set: the working set, in percent of size" },
	{ "dedupe_global", NULL, OPT_BOOL, FIELD(dedupe_global), 0, 1, NULL,
	  "dedupe_mode=working_set: draw the working set from every worker's buffers" },
	{ "random_distribution", NULL, OPT_FN, 0, 0, 0, 0, set_random_distribution,
	  "random offsets: random, zipf, pareto, normal, zoned, zoned_abs, sequence" },
	{ "sprandom", NULL, OPT_BOOL, FIELD(sprandom), 0, 1, NULL,
	  "random writes that precondition a drive to its steady state (SanDisk's model, as fio's)" },
	{ "spr_num_regions", NULL, OPT_UINT, FIELD(spr_num_regions), 1, 1u << 20, NULL,
	  "sprandom: regions the drive is written in (100)" },
	{ "spr_op", NULL, OPT_FN, 0, 0, 0, 0, set_spr_op,
	  "sprandom: the drive's over-provisioning, a fraction of its size (0.15)" },
	{ "random_sequence_stride", NULL, OPT_BOOL, FIELD(random_sequence_stride), 0, 1, NULL,
	  "random_distribution=sequence: each cycle moves on by the sequence's length (1) or repeats it (0)" },
	{ "buffer_compress_percentage", NULL, OPT_UINT, FIELD(buffer_compress_percentage), 0, 100,
	  NULL, "percent of each buffer made compressible" },
	{ "zonemode", NULL, OPT_FN, 0, 0, 0, 0, set_zonemode,
	  "none; strided: zonesize bytes of each zonerange, then zoneskip; zbd: emulated write pointers" },
	{ "zonesize", NULL, OPT_SIZE, FIELD(zone_size), 0, UINT64_MAX, NULL,
	  "strided: bytes moved in a zone before the next; zbd: the size of each zone" },
	{ "zonerange", NULL, OPT_SIZE, FIELD(zone_range), 0, UINT64_MAX, NULL,
	  "zonemode=strided: the size of a zone (default zonesize)" },
	{ "zoneskip", NULL, OPT_FN, 0, 0, 0, 0, set_size_pct,
	  "zonemode=strided: bytes skipped after each zone (Nz: N zones)" },
	{ "zonecapacity", NULL, OPT_SIZE, FIELD(zone_capacity), 0, UINT64_MAX, NULL,
	  "zonemode=zbd: writable bytes of each zone (default zonesize; strided ignores it, as fio)" },
	{ "max_open_zones", "zbd_max_open_zones", OPT_UINT, FIELD(max_open_zones), 0, 4096, NULL,
	  "zonemode=zbd: zones written at a time, over every job on the file (0: no limit)" },
	{ "job_max_open_zones", NULL, OPT_UINT, FIELD(job_max_open_zones), 0, 4096, NULL,
	  "zonemode=zbd: zones one worker writes at a time (needs max_open_zones)" },
	{ "read_beyond_wp", NULL, OPT_BOOL, FIELD(read_beyond_wp), 0, 1, NULL,
	  "zonemode=zbd: reads go anywhere, not only below write pointers" },
	{ "ignore_zone_limits", NULL, OPT_BOOL, FIELD(ignore_zone_limits), 0, 1, NULL,
	  "zonemode=zbd: ignore a zoned device's limits (emulated zones have none)" },
	{ "zone_reset_threshold", NULL, OPT_FN, 0, 0, 0, 0, set_zone_frac,
	  "zonemode=zbd: share of the region holding data past which writes may reset zones" },
	{ "zone_reset_frequency", NULL, OPT_FN, 0, 0, 0, 0, set_zone_frac,
	  "zonemode=zbd: share of writes past the threshold that reset their zone (0: never)" },
	{ "cpus_allowed", NULL, OPT_FN, 0, 0, 0, 0, set_cpus_allowed,
	  "run each worker on these CPUs: numbers and A-B ranges, commas (0-3,5)" },
	{ "cpumask", NULL, OPT_FN, 0, 0, 0, 0, set_cpumask,
	  "run each worker on these CPUs: a bit mask (0x3: CPUs 0 and 1)" },
	{ "cpus_allowed_policy", NULL, OPT_FN, 0, 0, 0, 0, set_cpus_policy,
	  "shared: every worker on the whole set; split: each worker on one CPU of it" },
	{ "prio", NULL, OPT_FN, 0, 0, 0, 0, set_ioprio,
	  "each worker's I/O priority in its class, 0 (highest) to 7 (class best-effort unless prioclass)" },
	{ "prioclass", NULL, OPT_FN, 0, 0, 0, 0, set_ioprio,
	  "each worker's I/O priority class: 1 realtime, 2 best-effort, 3 idle" },
	{ "cmdprio_percentage", NULL, OPT_FN, FIELD(cmdprio_pct), 0, 100, set_cmdprio_int,
	  "libaio, io_uring: this percent of the I/Os (read,write) get cmdprio_class and cmdprio as their own priority" },
	{ "cmdprio_class", NULL, OPT_FN, FIELD(cmdprio_class), 1, 3, set_cmdprio_int,
	  "the I/O priority class of cmdprio_percentage's and cmdprio_bssplit's I/Os: 1 realtime (default), 2 best-effort, 3 idle" },
	{ "cmdprio", NULL, OPT_FN, FIELD(cmdprio_level), 0, 7, set_cmdprio_int,
	  "the I/O priority level of cmdprio_percentage's and cmdprio_bssplit's I/Os, 0 (highest) to 7" },
	{ "cmdprio_bssplit", NULL, OPT_FN, 0, 0, 0, 0, set_cmdprio_bssplit,
	  "libaio, io_uring: priorities by block size, bs/percent[/class/level]:... (read,write)" },
	{ "nice", NULL, OPT_FN, 0, 0, 0, 0, set_nice,
	  "added to each worker thread's nice value (-20 to 19)" },
	{ "numa_cpu_nodes", NULL, OPT_FN, 0, 0, 0, 0, set_numa_cpu_nodes,
	  "run the job's workers on these NUMA nodes' CPUs (0, 0-1, all...)" },
	{ "numa_mem_policy", NULL, OPT_FN, 0, 0, 0, 0, set_numa_mem_policy,
	  "the workers' memory policy: default, prefer:NODE, bind:LIST, interleave:LIST, local" },
	{ "io_submit_mode", NULL, OPT_WORD, FIELD(submit_offload), 0, 0, NULL,
	  "inline (the worker submits and reaps) or offload (a pool of iodepth I/O threads does)",
	  submit_mode_words },
	{ "latency_target", NULL, OPT_FN, FIELD(latency_target_ns), 0, 0, set_usec_time,
	  "find the largest depth (up to iodepth) whose I/Os meet this latency, then run at it" },
	{ "latency_window", NULL, OPT_FN, FIELD(latency_window_ns), 0, 0, set_usec_time,
	  "latency_target: how long each depth is tried (bare: microseconds)" },
	{ "latency_percentile", NULL, OPT_FN, 0, 0, 0, 0, set_latency_percentile,
	  "latency_target: the share of I/Os that must meet it (default 100)" },
	{ "random_generator", NULL, OPT_WORD, FIELD(rand_gen), 0, 0, NULL,
	  "random offsets from tausworthe (32-bit), tausworthe64, or lfsr (each block once, no map)",
	  random_generator_words },
	{ "steadystate", "ss", OPT_FN, 0, 0, 0, 0, set_ss,
	  "end the job at steady state: iops|iops_slope|bw|bw_slope:limit[%] over ss_dur" },
	{ "steadystate_duration", "ss_dur", OPT_TIME, FIELD(ss_dur_ns), 0, UINT64_MAX, NULL,
	  "steady state: the window of per-second samples judged (whole seconds; 0: off)" },
	{ "steadystate_ramp_time", "ss_ramp", OPT_TIME, FIELD(ss_ramp_ns), 0, UINT64_MAX, NULL,
	  "steady state: time before samples are taken (then one second more)" },
	{ "exitall", NULL, OPT_FLAG, FIELD(exitall), 0, 1, NULL,
	  "when a job ends, end others (exit_what); given for any job, it holds for all" },
	{ "unified_rw_reporting", NULL, OPT_WORD, FIELD(unified_rw), 0, 0, NULL,
	  "none (each direction), mixed (one merged \"mixed\" direction) or both", unified_rw_words },
	{ "exit_what", NULL, OPT_WORD, FIELD(exit_what), 0, 0, NULL,
	  "what exitall ends: group, stonewall (all running jobs) or all", exit_what_words },
	{ "exitall_on_error", NULL, OPT_FLAG, FIELD(exitall_on_error), 0, 1, NULL,
	  "when this job fails, end others (exit_what)" },
	{ "number_ios", NULL, OPT_SIZE, FIELD(number_ios), 0, UINT64_MAX, NULL,
	  "stop each worker after this many I/Os per loop (not with time_based)" },
	{ "flow", NULL, OPT_UINT, FIELD(flow), 0, 1000, NULL,
	  "weight: jobs of one flow_id issue I/Os in proportion to their flow= (0: none)" },
	{ "flow_id", NULL, OPT_UINT, FIELD(flow_id), 0, UINT32_MAX, NULL,
	  "the flow a job's flow= weight belongs to" },
	{ "flow_sleep", NULL, OPT_UINT, FIELD(flow_sleep_us), 0, UINT32_MAX, NULL,
	  "microseconds to sleep, after in-flight I/O completes, when held back by flow" },
	{ "disk_util", NULL, OPT_BOOL, FIELD(disk_util), 0, 1, NULL,
	  "report the utilization of the block devices under the job's files (1, the default)" },
	{ "group_reporting", NULL, OPT_FLAG, FIELD(group_reporting), 0, 1, NULL,
	  "report a job's workers as one" },
	{ "thread", NULL, OPT_FLAG, FIELD(thread), 0, 1, NULL,
	  "workers are threads (iopath's always are)" },
	{ "stonewall", "wait_for_previous", OPT_FLAG, FIELD(stonewall), 0, 1, NULL,
	  "wait for earlier jobs to end before starting" },
	{ "new_group", NULL, OPT_FLAG, FIELD(new_group), 0, 1, NULL,
	  "start a new reporting group (without waiting)" },
	{ "wait_for", NULL, OPT_STR, FIELD(wait_for), 0, 0, NULL,
	  "start after the named earlier job has ended" },
	{ "startdelay", NULL, OPT_FN, 0, 0, 0, 0, set_startdelay,
	  "delay the start (seconds by default; a range picks per worker)" },
	{ "verify", NULL, OPT_FN, 0, 0, 0, 0, set_verify, "checksum written data and check it" },
	{ "verify_backlog", NULL, OPT_SIZE, FIELD(verify_backlog), 0, 1ull << 24, NULL,
	  "verify the written blocks every N blocks written, not only at the end" },
	{ "verify_backlog_batch", NULL, OPT_SIZE, FIELD(verify_backlog_batch), 0, 1ull << 24, NULL,
	  "verify_backlog: blocks read back each time (default verify_backlog)" },
	{ "verify_interval", NULL, OPT_FN, 0, 0, 0, 0, set_verify_interval,
	  "a verify header every N bytes of a block (default: one per block)" },
	{ "verify_offset", NULL, OPT_UINT, FIELD(verify_offset), 0, 1u << 30, NULL,
	  "move each verify header this many bytes into its unit (swapped with the data there)" },
	{ "experimental_verify", NULL, OPT_BOOL, FIELD(experimental_verify), 0, 1, NULL,
	  "fio's replay-based verify: accepted, the verify pass checks every block written either way" },
	{ "verify_state_save", NULL, OPT_BOOL, FIELD(verify_state_save), 0, 1, NULL,
	  "a verify writer saves what it completed to local-JOB-N-verify.state" },
	{ "verify_state_load", NULL, OPT_BOOL, FIELD(verify_state_load), 0, 1, NULL,
	  "a verify reader checks only the blocks the saved state says were written" },
	{ "verify_write_sequence", NULL, OPT_BOOL, FIELD(verify_write_sequence), 0, 1, NULL,
	  "the verify pass checks each block's write number (fio's numberio): 0 skips that check" },
	{ "verify_pattern", NULL, OPT_FN, 0, 0, 0, 0, set_verify_pattern,
	  "written data is this pattern (0x hex, \"string\", numbers), and reads are checked for it" },
	{ "fill_device", "fill_fs", OPT_BOOL, FIELD(fill_device), 0, 1, NULL,
	  "a write that finds the device full (ENOSPC) ends the job without an error" },
	{ "create_serialize", NULL, OPT_BOOL, FIELD(create_serialize), 0, 1, NULL,
	  "files are laid out one at a time before any job runs, whatever this says" },
	{ "verify_fatal", NULL, OPT_BOOL, FIELD(verify_fatal), 0, 1, NULL,
	  "stop at the first block that fails verify (as fio, the job stops there either way unless continue_on_error covers verify)" },
	{ "verify_only", NULL, OPT_FLAG, FIELD(verify_only), 0, 1, NULL,
	  "with verify: write nothing, read back and check what an earlier run with the same verify settings wrote" },
	{ "do_verify", NULL, OPT_BOOL, FIELD(do_verify), 0, 1, NULL,
	  "with verify: read back and check after writing (0: only stamp the blocks)" },
	{ "continue_on_error", NULL, OPT_FN, 0, 0, 0, 0, set_continue_on_error,
	  "go on after non-fatal errors (EIO, EILSEQ) of these types: none read write io verify all" },
	{ "ignore_error", NULL, OPT_FN, 0, 0, 0, 0, set_ignore_error,
	  "READ,WRITE,VERIFY lists of errors (names or numbers, ':' between) to go on after" },
	{ "error_dump", NULL, OPT_BOOL, FIELD(error_dump), 0, 1, NULL,
	  "report every error, the non-fatal ones too" },
	{ "verify_async", NULL, OPT_UINT, FIELD(verify_async), 0, 1024, NULL,
	  "threads that check completed verify reads, instead of the submitting thread" },
	{ "verify_dump", NULL, OPT_BOOL, FIELD(verify_dump), 0, 1, NULL,
	  "a block that fails verify is saved as read, to FILE.OFFSET.received" },
	{ "mem", "iomem", OPT_FN, 0, 0, 0, 0, set_mem,
	  "request buffers: thp (default: 2 MiB-aligned, huge pages advised) or malloc/mmap (4 KiB pages)" },
	{ "clocksource", NULL, OPT_FN, 0, 0, 0, 0, set_clocksource,
	  "time stamps: cpu (the TSC, calibrated) or clock_gettime; default cpu when reliable" },
	{ "kb_base", NULL, OPT_FN, 0, 0, 0, 0, set_kb_base, "1024 or 1000 for size suffixes" },
	{ "gtod_reduce", NULL, OPT_FN, 0, 0, 0, 0, set_gtod_reduce,
	  "measure no latencies and take no bandwidth samples (all four disable_* options)" },
	{ "disable_lat", NULL, OPT_BOOL, FIELD(disable_lat), 0, 1, NULL,
	  "do not measure total latency (lat_ns)" },
	{ "disable_clat", NULL, OPT_BOOL, FIELD(disable_clat), 0, 1, NULL,
	  "do not measure completion latency (clat_ns, percentiles, latency buckets)" },
	{ "disable_slat", NULL, OPT_BOOL, FIELD(disable_slat), 0, 1, NULL,
	  "do not measure submission latency (slat_ns)" },
	{ "disable_bw_measurement", "disable_bw", OPT_BOOL, FIELD(disable_bw), 0, 1, NULL,
	  "take no bandwidth or IOPS samples (bw_min/max/mean, iops_min/max/mean)" },
	{ NULL, NULL, 0, 0, 0, 0, 0, NULL, NULL },
};
#pragma GCC diagnostic pop

void job_defaults(struct job_spec *job)
{
	memset(job, 0, sizeof(*job));
	job->kb_base = 1024;
	job->rw = RW_READ;
	job->seq_nr = 1;
	job->ss_state = SS_IOPS | SS_SLOPE | SS_PCT;	/* fio's default: iops_slope:0.01% */
	job->ss_limit = 0.01;
	job->latency_percentile = 100.0;
	job->allow_file_create = true;
	job->create_fsync = true;
	job->create_serialize = true;
	job->dedupe_ws_percentage = 5;
	job->do_verify = true;
	job->verify_state_save = true;
	job->verify_write_sequence = true;
	job->replay_time_scale = 100;
	job->replay_scale = 1;
	job->rwmixread = 50;
	job->bs[0] = job->bs[1] = 4096;
	job->rate_cycle_ms = 1000;
	job->thinktime_blocks = 1;
	job->clat_percentiles = true;
	job->per_job_logs = true;
	job->file_service_nr = 1;
	job->scramble_buffers = true;
	job->dist_center = -1.0;
	job->fallocate = FALLOC_NATIVE;
	job->iodepth = 1;
	job->iodepth_batch_submit = 1;
	job->iodepth_batch_complete_min = 1;
	job->numjobs = 1;
	job->loops = 1;
	job->nrfiles = 1;
	job->filesize = 4096;
	job->files_per_dir = 32;
	job->dir_fanout = 8;
	job->invalidate = true;
	job->disk_util = true;
	job->fadvise_hint = FADV_HINT_TYPE;
	job->sig_figs = 4;
	job->randrepeat = true;
	job->spr_num_regions = 100;
	job->spr_op = 0.15;
	snprintf(job->ioengine, sizeof(job->ioengine), "%s", engine_default);
}

const struct opt_def *opt_find(const char *name)
{
	const struct opt_def *o;

	for (o = opt_table; o->name; o++)
		if (!strcmp(o->name, name) || (o->alias && !strcmp(o->alias, name)))
			return o;
	return NULL;
}

static const struct engine_option *engine_opt_find(const struct engine_ops *ops, const char *name)
{
	const struct engine_option *eo;

	for (eo = ops ? ops->options : NULL; eo && eo->name; eo++)
		if (!strcmp(eo->name, name))
			return eo;
	return NULL;
}

/* The first engine (other than skip) that has an option of that name. */
static const struct engine_ops *engine_owning(const char *name)
{
	const struct engine_entry *ent;

	for (ent = engine_table; ent->name; ent++)
		if (engine_opt_find(ent->ops, name))
			return ent->ops;
	return NULL;
}

/* OPT_WORD: the value of the word given, into a one-byte (bool, small enum) or int field. */
static int set_word(struct job_spec *job, const struct opt_def *o, const char *val,
		    struct iop_err *err)
{
	char *field = (char *)job + o->off, accepted[160] = "";
	const struct opt_word *w;

	for (w = o->words; w->word; w++) {
		if (strcmp(val, w->word))
			continue;
		if (o->size == 1)
			*(unsigned char *)field = (unsigned char)w->value;
		else
			*(int *)field = w->value;
		return 0;
	}
	for (w = o->words; w->word; w++)
		snprintf(accepted + strlen(accepted), sizeof(accepted) - strlen(accepted), "%s%s",
			 w == o->words ? "" : ", ", w->word);
	return bad_value(err, o, val, accepted);
}

static int set_typed(struct job_spec *job, const struct opt_def *o, const char *val,
		     struct iop_err *err)
{
	char *field = (char *)job + o->off;
	const char *why = "";
	uint64_t v = 0;
	bool b;

	switch (o->type) {
	case OPT_STR:
		if (strlen(val) >= o->size)
			return iop_errf(err, -ENAMETOOLONG, "option %s: value longer than %zu bytes",
					o->name, o->size - 1);
		if (!strcmp(o->name, "name") && !*val)
			return iop_errf(err, -EINVAL, "option name: a job name may not be empty");
		memcpy(field, val, strlen(val) + 1);
		return 0;
	case OPT_BOOL:
	case OPT_FLAG:
		if (parse_bool(val, &b)) {
			unsigned u;

			/* fio's set options (time_based, thread, ...) take any number, non-zero on */
			if (o->type != OPT_FLAG || sscanf(val, "%u", &u) != 1)
				return bad_value(err, o, val, o->type == OPT_FLAG ? "0, 1 or any number (non-zero: on)" : "0 or 1");
			b = u != 0;
		}
		*(bool *)field = b;
		return 0;
	case OPT_UINT:
		/* fio reads integers as it reads sizes: "iodepth=1k" is 1024 */
		if (parse_size_why(val, job->kb_base, &v, NULL, &why) || v < o->min || v > o->max)
			return iop_errf(err, -EINVAL, "option %s: bad value '%s' (accepted: %llu to %llu)",
					o->name, val, o->min, o->max);
		*(unsigned *)field = (unsigned)v;
		return 0;
	case OPT_SIZE:
		if (parse_size_why(val, job->kb_base, &v, NULL, &why))
			v = 0;
		else if (v < o->min)
			why = "too small";
		else
			why = NULL;
		if (why)
			return iop_errf(err, -EINVAL,
					"option %s: bad size '%s': %s (accepted: a number with an optional k/m/g/t/p suffix%s)",
					o->name, val, why, o->min ? ", at least 1" : "");
		*(uint64_t *)field = v;
		return 0;
	case OPT_TIME:
		if (parse_time_why(val, 1000000000ull, &v, &why))
			return iop_errf(err, -EINVAL,
					"option %s: bad time '%s': %s (accepted: seconds, or a number with d/h/m/s/ms/us)",
					o->name, val, why);
		*(uint64_t *)field = v;
		return 0;
	case OPT_WORD:
		return set_word(job, o, val, err);
	case OPT_FN:
	case OPT_FN_OPT:
		return o->fn(job, o, val, err);
	}
	return -EINVAL;
}

static void record_kv(struct job_spec *job, const char *key, const char *val)
{
	struct job_kv *kv;
	unsigned i;

	for (i = 0; i < job->nr_kv; i++)
		if (!strcmp(job->kv[i].key, key))
			break;
	if (i == JOB_KV_MAX)
		return;
	kv = &job->kv[i];
	snprintf(kv->key, sizeof(kv->key), "%s", key);
	snprintf(kv->val, sizeof(kv->val), "%s", val ? val : "");
	kv->own = true;
	if (i == job->nr_kv)
		job->nr_kv++;
}

static int store_engine_kv(struct job_spec *job, const char *key, const char *val,
			   const char *where, struct iop_err *err)
{
	struct job_kv *kv;
	unsigned i;

	for (i = 0; i < job->nr_engine_kv; i++)
		if (!strcmp(job->engine_kv[i].key, key))
			break;
	if (i == sizeof(job->engine_kv) / sizeof(job->engine_kv[0]))
		return iop_errf(err, -E2BIG, "%s: too many engine options", where);
	kv = &job->engine_kv[i];
	snprintf(kv->key, sizeof(kv->key), "%s", key);
	snprintf(kv->val, sizeof(kv->val), "%s", val ? val : "");
	if (i == job->nr_engine_kv)
		job->nr_engine_kv++;
	return 0;
}

/* A fio option, engine option or profile option iopath lacks: refuse it, or warn. */
static int unsupported(struct job_spec *job, const char *key, const char *val, const char *where,
		       const struct opt_ctx *ctx, struct iop_err *err)
{
	const struct fio_unsupported *u = fio_unsupported_find(key, FIO_JOB_OPTION);
	const struct fio_unsupported *dep = fio_unsupported_find(key, FIO_DEPRECATED);
	char msg[sizeof(err->msg)];

	if (dep && dep->def) {
		snprintf(msg, sizeof(msg), "%s: Option %s is deprecated (fio accepts and ignores it, as iopath does)",
			 where, key);
		if (ctx && ctx->warn)
			ctx->warn(ctx->arg, msg);
		record_kv(job, key, val);
		return 0;
	}
	if (dep)
		return iop_errf(err, -EINVAL, "%s: Option %s is deprecated, and fio refuses it too", where,
				key);
	if (u && u->def && val && !strcmp(val, u->def)) {
		/* fio's own default: the setting changes nothing */
		record_kv(job, key, val);
		return 0;
	}
	if (u) {
		snprintf(msg, sizeof(msg), "%s: fio option '%s' is not supported by iopath (fio: %s)",
			 where, key, u->what);
	} else if ((u = fio_unsupported_find(key, FIO_ENGINE_OPTION))) {
		snprintf(msg, sizeof(msg),
			 "%s: option '%s' of fio's %s ioengine is not supported by iopath", where, key,
			 u->what);
	} else if ((u = fio_unsupported_find(key, FIO_PROFILE_OPTION))) {
		if (ctx && ctx->warn) {
			snprintf(msg, sizeof(msg),
				 "%s: '%s' is an option of fio's %s profile; it changes nothing in this job, in fio or in iopath",
				 where, key, u->what);
			ctx->warn(ctx->arg, msg);
		}
		return 0;
	} else {
		return 1;
	}
	if (!ctx || !ctx->ignore_unsupported)
		return iop_errf(err, -ENOTSUP, "%s (--ignore-unsupported makes this a warning)", msg);
	if (ctx->warn) {
		strncat(msg, "; ignored (--ignore-unsupported): the job runs without it",
			sizeof(msg) - strlen(msg) - 1);
		ctx->warn(ctx->arg, msg);
	}
	return 0;
}

/*
 * An integer or time option written with arithmetic outside parentheses (iodepth=128*1,
 * runtime=40+30): what fio reads (its leading number; parse_fio_leading), said in a warning.
 * 0, or ret (the strict parser's refusal, err kept) when fio would not read it either.
 */
static int set_fio_leading(struct job_spec *job, const struct opt_def *o, const char *val,
			   const char *where, const struct opt_ctx *ctx, int ret)
{
	char msg[1024];
	bool time = o->type == OPT_TIME;
	uint64_t v;

	if ((o->type != OPT_UINT && !time) ||
	    parse_fio_leading(val, time, job->kb_base, 1000000000ull, &v) ||
	    (!time && (v < o->min || v > o->max)))
		return ret;
	if (time)
		*(uint64_t *)((char *)job + o->off) = v;
	else
		*(unsigned *)((char *)job + o->off) = (unsigned)v;
	if (ctx && ctx->warn) {
		snprintf(msg, sizeof(msg),
			 "%s: %s=%s: fio evaluates arithmetic only in parentheses and reads %llu%s here; so does iopath (write (%s) for the sum)",
			 where, o->name, val, (unsigned long long)(time ? v / 1000000 : v),
			 time ? " ms" : "", val);
		ctx->warn(ctx->arg, msg);
	}
	return 0;
}

int opt_apply_ctx(struct job_spec *job, const char *key, const char *val, const char *where,
		  const struct opt_ctx *ctx, struct iop_err *err)
{
	const struct opt_def *o = opt_find(key);
	char hint[160];
	int ret;

	/* fio names the option by its own name, not the alias given */
	iop_debugf(DBG_PARSE, "handle_option=%s, ptr=%s", o ? o->name : key, val ? val : "(null)");
	if (!o) {
		if (engine_owning(key)) {
			ret = store_engine_kv(job, key, val, where, err);
			if (!ret)
				record_kv(job, key, ctx && ctx->written ? ctx->written : val);
			return ret;
		}
		ret = unsupported(job, key, val, where, ctx, err);
		if (ret <= 0)
			return ret;
		opt_suggest(key, hint, sizeof(hint));
		return iop_errf(err, -EINVAL, "%s: unknown option '%s'%s", where, key, hint);
	}
	if (!val && o->type == OPT_FN_OPT) {
		ret = o->fn(job, o, NULL, err);
		if (ret)
			return ret;
		record_kv(job, o->name, "");
		return 0;
	}
	if (!val) {
		if (o->type != OPT_FLAG)
			return iop_errf(err, -EINVAL, "%s: option '%s' needs a value (%s=...)", where,
					o->name, o->name);
		val = "1";
	}
	ret = set_typed(job, o, val, err);
	if (ret == -EINVAL)
		ret = set_fio_leading(job, o, val, where, ctx, ret);
	if (ret == -ENOTSUP && ctx && ctx->ignore_unsupported) {
		/* a value of fio's that iopath lacks (zonemode=zbd): like a lacking option */
		char msg[sizeof(err->msg) + 64];

		snprintf(msg, sizeof(msg), "%s: %s; ignored (--ignore-unsupported): the job runs without it",
			 where, err->msg);
		if (ctx->warn)
			ctx->warn(ctx->arg, msg);
		return 0;
	}
	if (ret) {
		char msg[sizeof(err->msg)];

		snprintf(msg, sizeof(msg), "%s", err->msg);
		return iop_errf(err, ret, "%s: %s%s", where, msg,
				ret == -ENOTSUP ? " (--ignore-unsupported makes this a warning)" : "");
	}
	record_kv(job, o->name, ctx && ctx->written ? ctx->written : val);
	return 0;
}

int opt_apply(struct job_spec *job, const char *key, const char *val, const char *where,
	      struct iop_err *err)
{
	return opt_apply_ctx(job, key, val, where, NULL, err);
}

/* The index of word in a '|'-separated list of choices, or -1. */
static int choice_index(const char *choices, const char *word)
{
	size_t n = strlen(word);
	const char *p = choices;
	int i = 0;

	while (n && p && *p) {
		const char *bar = strchr(p, '|');
		size_t len = bar ? (size_t)(bar - p) : strlen(p);

		if (len == n && !strncmp(p, word, n))
			return i;
		p = bar ? bar + 1 : NULL;
		i++;
	}
	return -1;
}

int parse_engine_opts(struct job_spec *job, const struct engine_ops *ops,
			     struct iop_err *err)
{
	unsigned i;

	const struct engine_option *d;

	memset(job->engine_opts, 0, sizeof(job->engine_opts));
	if (ops->opts_size > sizeof(job->engine_opts))
		return iop_errf(err, -EOVERFLOW, "engine %s: option block too large", ops->name);
	for (d = ops->options; d && d->name; d++)
		*(int *)(job->engine_opts + d->offset) = d->def;
	for (i = 0; i < job->nr_engine_kv; i++) {
		const struct job_kv *kv = &job->engine_kv[i];
		const struct engine_option *eo = engine_opt_find(ops, kv->key);
		const struct engine_ops *owner;
		uint64_t v;
		bool b;

		if (!eo) {
			owner = engine_owning(kv->key);
			return iop_errf(err, -EINVAL,
					"%s: option '%s' belongs to ioengine=%s, but job '%s' uses ioengine=%s",
					job->origin, kv->key, owner ? owner->name : "?", job->name,
					ops->name);
		}
		if (eo->type == EOPT_CHOICE) {
			int idx = choice_index(eo->choices, kv->val);

			if (idx < 0)
				return iop_errf(err, -EINVAL, "%s: option %s: bad value '%s' (accepted: %s)",
						job->origin, kv->key, kv->val, eo->choices);
			*(int *)(job->engine_opts + eo->offset) = idx;
			continue;
		}
		if (eo->type == EOPT_BOOL) {
			if (*kv->val && parse_bool(kv->val, &b))
				return iop_errf(err, -EINVAL, "%s: option %s: bad value '%s' (accepted: 0 or 1)",
						job->origin, kv->key, kv->val);
			v = *kv->val ? b : 1;
		} else if (!*kv->val || parse_u64(kv->val, &v) || (long long)v < eo->min ||
			   (long long)v > eo->max) {
			return iop_errf(err, -EINVAL, "%s: option %s: bad value '%s' (accepted: %lld to %lld)",
					job->origin, kv->key, kv->val, eo->min, eo->max);
		}
		*(int *)(job->engine_opts + eo->offset) = (int)v;
	}
	return 0;
}

/* ---- the names nearest a mistyped option, for its refusal ---- */

static unsigned edit_distance(const char *a, const char *b)
{
	unsigned la = (unsigned)strlen(a), lb = (unsigned)strlen(b), i, j;
	unsigned row[64], prev, tmp;

	if (lb >= 64 || la >= 64)
		return 99;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = i;
		for (j = 1; j <= lb; j++) {
			unsigned cost = a[i - 1] == b[j - 1] ? 0 : 1;

			tmp = row[j];
			row[j] = row[j] + 1 < row[j - 1] + 1 ? row[j] + 1 : row[j - 1] + 1;
			if (prev + cost < row[j])
				row[j] = prev + cost;
			prev = tmp;
		}
	}
	return row[lb];
}

struct near {
	const char *name;
	unsigned dist;
};

static void consider(struct near *best, const char *key, const char *name)
{
	unsigned d = edit_distance(key, name), i, k;

	if (strstr(name, key) && strlen(key) >= 4)
		d = d < 2 ? d : 2;
	for (i = 0; i < 3; i++) {
		if (best[i].name && !strcmp(best[i].name, name))
			return;
		if (!best[i].name || d < best[i].dist)
			break;
	}
	if (i == 3)
		return;
	for (k = 2; k > i; k--)
		best[k] = best[k - 1];
	best[i].name = name;
	best[i].dist = d;
}

void opt_suggest(const char *key, char *buf, size_t len)
{
	struct near best[3] = { { 0 } };
	const struct opt_def *o;
	const struct engine_entry *ent;
	const struct engine_option *eo;
	unsigned limit = strlen(key) > 6 ? 3 : 2, i, n = 0;
	size_t off;

	for (o = opt_table; o->name; o++) {
		consider(best, key, o->name);
		if (o->alias)
			consider(best, key, o->alias);
	}
	for (ent = engine_table; ent->name; ent++)
		for (eo = ent->ops->options; eo && eo->name; eo++)
			consider(best, key, eo->name);
	buf[0] = '\0';
	off = 0;
	for (i = 0; i < 3; i++) {
		if (!best[i].name || best[i].dist > limit)
			continue;
		off += (size_t)snprintf(buf + off, len - off, "%s'%s'", n ? " or " : ", did you mean ",
					best[i].name);
		n++;
		if (off >= len)
			break;
	}
	if (n && off < len)
		snprintf(buf + off, len - off, "?");
}
