/* Reports: finished results as fio-compatible JSON (json, json+) and fio-like normal text. */
#ifndef IOPATH_REPORT_H
#define IOPATH_REPORT_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "job/job.h"
#include "iopath/result.h"

/* What the whole run was: for the header of every result. */
struct run_env {
	char cmdline[4096];	/* the command line, words joined by spaces (cut if longer) */
	char kernel[128];
	char hostname[128];
};

void run_env_fill(struct run_env *env, int argc, char **argv);

/* Words joined by single spaces, cut to fit len. */
void join_words(char *buf, size_t len, int argc, char **argv);

/* The whole run in fio 3.x JSON shape; plus adds the latency bins (json+). NULL on ENOMEM. */
json_t *report_json(const struct run_results *r, const struct run_env *env, bool plus);

/*
 * fio's share of a distribution's bucket i (IO depths, submit, complete): percent of total,
 * at least 0.1 when the bucket holds any.
 */
static inline double report_dist_pct(const uint64_t *map, unsigned i, uint64_t total)
{
	double pct = total ? 100.0 * (double)map[i] / (double)total : 0;

	return map[i] && pct < 0.1 ? 0.1 : pct;
}

/* fio-style human text: the results, fio's lines in fio's order, then iopath's own. */
void report_normal(FILE *f, const struct run_results *r);

/*
 * fio's "CPU idleness" lines (--idle-prof): the system's and, percpu, each CPU's idleness, and
 * the unit of work's time; under calibrate only the unit's time. Nothing when not asked.
 */
void report_normal_idle(FILE *f, const struct run_idle *idle);

/*
 * What fio's normal output prints before the jobs run: a line per job (a "..." for its
 * clones), the version, "Starting N threads".
 */
struct job_list;
void report_normal_preamble(FILE *f, const struct job_list *jobs);

/* fio's "NAME: Laying out IO file" lines, printed while it runs: before terse and the rest. */
void report_normal_layouts(FILE *f, const struct run_results *r);

/* Write json to path atomically (temp file, fsync, rename), or to stdout when path is NULL. */
int report_json_write(json_t *root, const char *path);

/* json as report_json_write writes it, into an open file. 0, or -1 with errno set. */
int report_json_dump(json_t *root, FILE *f);

/* fio's terse v3 lines (--output-format=terse, --minimal), one per result. */
void report_terse(FILE *f, const struct run_results *r);
/* The same in fio's --terse-version=ver, 2 to 5. */
void report_terse_version(FILE *f, const struct run_results *r, unsigned ver);

/* CSV: a header and one row per result and direction, with p50/p99/p99.9 latencies. */
void report_csv(FILE *f, const struct run_results *r);

/* A job's IOPS (its busier direction) over its runtime; 0 for a failed job. */
double report_job_iops(const struct job_result *res);
/* The workload part of a job named "ENGINE WORKLOAD" ("randread 4k qd1"), else its name. */
const char *report_workload_of(const struct job_result *res);
/*
 * How many times row i's IOPS are its neighbours' median: the other jobs of the same workload
 * (report_workload_of) with the same direct= at iodepth 1, through other engines that touch
 * storage. 0 when fewer than two neighbours say. One request at a time, the same work through
 * the same path should not differ 8x between engines (a page cache one engine found warm, a
 * disturbance): report_implausible flags it.
 */
double report_neighbour_ratio(const struct run_results *r, unsigned i);
bool report_implausible(double ratio);

/*
 * Cells (a sweep's, a suite's) against their neighbours, by identity (an object of strings):
 * those that differ only in "engine", at iodepth 1, both engines touching storage, by the
 * 8x rule above against the others' median (two or more of them); those that differ only in
 * "target" where both targets are the same filesystem (fs, report_fs_name), spread over more
 * than half their median, the bound a cell's own repeats are held to. True, with one sentence why (without the cell's name), when cell
 * i is contradicted.
 */
struct plaus_cell {
	const json_t *identity;
	double value;		/* its median rate (IOPS; a suite's MiB/s or ops/s), 0: none */
	const char *fs;		/* its target's filesystem, NULL when unknown */
};
bool report_cell_implausible(const struct plaus_cell *c, unsigned n, unsigned i, char *why,
			     size_t len);
/* "ext4 /dev/vda1 at /": one filesystem's name (a mount); "" when fstype or mount is unknown. */
void report_fs_name(char *buf, size_t len, const char *fstype, const char *source,
		    const char *mount);
/* The filesystem of the target role in a result's targets ([{role, probe}]), or NULL. */
const char *report_target_fs(const json_t *targets, const char *role, char *buf, size_t len);
/* One CSV field, quoted as RFC 4180 asks when it holds a comma, quote or line break. */
void report_csv_field(FILE *f, const char *s);
/* A number as a CSV field: no exponent, nothing at all for NaN. */
void report_csv_number(FILE *f, double v);

/* Parsed jobs as JSON (iopath --parse-only --output-format=json). NULL on ENOMEM. */
json_t *report_jobs_json(const struct job_list *jobs);

/* Parsed jobs as one equivalent command line (--showcmd): every job with all its options. */
void report_showcmd(FILE *f, const struct job_list *jobs);

/*
 * fio's bw_agg (per= in the text): the result's mean sampled bandwidth in direction dir as a
 * percentage of its reporting group's (every result with its groupid: all their bytes over
 * the longest runtime), at most 100; 0 without samples. rr may be NULL (100).
 */
double bw_agg_pct(const struct run_results *rr, const struct job_result *res, unsigned dir);

/*
 * unified_rw_reporting: the result's read, write and trim merged into one direction, fio's
 * "mixed" (bytes, I/Os and latencies summed, the longest runtime); *failed gets their failed
 * I/Os. NULL when out of memory; free() it.
 */
struct dir_stat *result_mixed(const struct job_result *r, uint64_t *failed);

/* The per-result "job options" and the rest need these too. */
const char *dir_name(unsigned dir);

/*
 * fio's completion-latency distribution: counts per bucket of nanoseconds, microseconds and
 * milliseconds (lat_bucket_names gives each bucket's fio label), and their total.
 */
void result_lat_buckets(const struct job_result *r, uint64_t counts[3][12], uint64_t *total);
extern const char *const lat_bucket_names[3][12];

/* fio's file-operation engines: their I/Os are counted, not timed (no latency distribution). */
static inline bool result_ios_untimed(const struct job_result *r)
{
	return r->spec && r->spec->engine && (r->spec->engine->flags & ENGINE_FILE_OP);
}

#endif
