/* fio's bandwidth, IOPS and latency logs: recorded per worker in memory, written at its end. */
#ifndef IOPATH_IOLOG_H
#define IOPATH_IOLOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/err.h"
#include "iopath/job.h"
#include "iopath/result.h"

enum log_kind {
	LOG_BW,
	LOG_IOPS,
	LOG_SLAT,
	LOG_CLAT,
	LOG_LAT,
	LOG_HIST,		/* write_hist_log: completion latency histograms */
	LOG_KINDS,
};

/* write_hist_log: one direction's histogram of a window, its non-empty bins in hist_pairs. */
struct hist_entry {
	uint64_t ms;
	uint32_t ddir, bs;
	size_t first, nr;
};

struct hist_pair {
	uint32_t bin, n;
};

struct log_entry {
	uint64_t ms;
	uint64_t val;
	uint64_t offset;
	uint64_t issue_ns;		/* when the I/O was issued, from the logs' time 0 */
	uint32_t bs;
	uint16_t ddir;
	uint16_t prio;			/* the I/O's priority (class << 13 | level); 0 in windows */
};

struct iolog {
	struct log_entry *e;
	size_t nr, cap;
};

/* Directions logged, as fio numbers them: 0 read, 1 write, 2 trim. */
#define IOLOG_DIRS 3

/* One worker's logs. Windowed (log_avg_msec) values are averaged, or the maximum is kept. */
struct iologs {
	bool want[LOG_KINDS];
	struct iolog log[LOG_KINDS];
	uint64_t epoch_ns;		/* time 0 of the logs: the worker's start */
	uint64_t time_base_ms;		/* added to every time written (log_unix_epoch) */
	uint64_t avg_msec;		/* 0: an entry per I/O */
	bool max_value;
	uint64_t lat_last_ms;		/* windowed: start of the latency window */
	/* slat, clat, lat x read, write, trim */
	uint64_t win_sum[3][IOLOG_DIRS], win_n[3][IOLOG_DIRS], win_max[3][IOLOG_DIRS];
	uint64_t rate_last_ms;		/* windowed: start of the bw/iops window */
	uint64_t bytes[IOLOG_DIRS], ios[IOLOG_DIRS], last_bytes[IOLOG_DIRS], last_ios[IOLOG_DIRS];
	/* write_hist_log: the open window's bins per direction, and the entries so far */
	uint64_t hist_msec, hist_last_ms;
	uint32_t *hist_cur;		/* IOLOG_DIRS x HIST_NR counts, allocated at the first I/O */
	uint32_t hist_bs[IOLOG_DIRS];
	bool hist_any[IOLOG_DIRS];
	struct hist_entry *he;
	size_t he_nr, he_cap;
	struct hist_pair *hp;
	size_t hp_nr, hp_cap;
	int error;			/* -ENOMEM once an entry could not be kept */
};

/* fio's --bandwidth-log: the run's aggregate bandwidth, a line per 500 ms per direction. */
#define AGG_BW_LOG_READ "agg-read_bw.log"
#define AGG_BW_LOG_WRITE "agg-write_bw.log"
#define AGG_BW_LOG_TRIM "agg-trim_bw.log"

/* Does the job write any log? */
bool iolog_wanted(const struct job_spec *job);

/*
 * The file of one log, as fio names it: <name>_<type>.<thread>.log, or <name>_<type>.log
 * with per_job_logs=0; name is the write_*_log value or else the job name, and thread
 * counts the workers of the whole run from 1. Lat logs are three: slat, clat and lat.
 */
int iolog_path(const struct job_spec *job, unsigned thread, enum log_kind kind, char *out,
	       size_t len);

/*
 * Logs whose time 0 is epoch_ns; time_base_ms is added to every time written: 0, or with
 * log_unix_epoch / log_alternate_epoch what the job's clock read at epoch_ns, in ms (fio's
 * alternate_epoch).
 */
void iologs_init(struct iologs *L, const struct job_spec *job, uint64_t epoch_ns,
		 uint64_t time_base_ms);

/*
 * The logs' time 0 moved to epoch_ns (time_base_ms as iologs_init's): ramp_time's end, where
 * fio's reset_all_stats sets its epoch again, so the measured interval's samples start at 0.
 */
void iologs_rebase(struct iologs *L, uint64_t epoch_ns, uint64_t time_base_ms);

/*
 * One completed read, write or trim (ddir 0, 1, 2) at time t_ns, that had priority prio.
 * slat is meaningful only when has_slat; clat_bin is clat's histogram bucket (for
 * write_hist_log).
 */
void iologs_io(struct iologs *L, uint64_t t_ns, unsigned ddir, uint32_t bs, uint64_t offset,
	       uint64_t bytes, uint64_t slat, uint64_t clat, bool has_slat, uint64_t issue_ns,
	       unsigned prio, unsigned clat_bin);

/*
 * A latency alone, no I/O (fio's add_clat_sample with block size and offset 0, as its
 * file-operation engines call it): the clat log's entry (or window) and the histogram log's.
 */
void iologs_clat(struct iologs *L, uint64_t t_ns, unsigned ddir, uint64_t clat, unsigned clat_bin);

/* The end of the run: what the open latency window holds goes in too (fio's finalize). */
void iologs_finish(struct iologs *L, uint64_t t_ns);

/* What a log's lines hold beyond time, value, direction and block size (fio's columns). */
struct log_columns {
	bool offset;		/* log_offset=1 */
	bool prio_value;	/* log_prio=1: each I/O's priority as 0x%04x, else 1 for the RT class */
	bool issue_time;	/* log_issue_time=1 (latency logs): the issue time, ns */
	bool compressed;	/* log_store_compressed=1: fio's zlib-compressed samples */
	uint64_t time_base_ms;	/* added to every entry's time (log_unix_epoch) */
};

/*
 * Append a log to its file in fio's format, one line per entry:
 * "time, value, direction, block size[, offset], priority[, issue time]"; compressed
 * (log_store_compressed): fio's binary samples as one zlib stream, which fio --inflate-log
 * turns back into those lines. Writers of a shared file (per_job_logs=0) take turns.
 * Returns 0 or -errno.
 */
int iolog_append(const struct iolog *l, const char *path, const struct log_columns *c);

/*
 * Append the histogram log in fio's format: "time, direction, block size, bin, bin, ..." with
 * HIST_NR >> coarseness bins, each the sum of 2^coarseness of iopath's (which are fio's).
 */
int iolog_append_hist(const struct iologs *L, const char *path, unsigned coarseness);

/* Create (or empty) a log file before the run. Returns 0 or -errno. */
int iolog_create(const char *path);

/*
 * Open for appending a log iolog_create made: a regular file (not a link) that still carries
 * iopath's mark (or /dev/null). NULL with errno set (EPERM for anything else).
 */
FILE *iolog_open(const char *path);

void iologs_free(struct iologs *L);

/*
 * fio's --inflate-log: a compressed log (log_store_compressed=1, by fio 3.33 or iopath) as the
 * lines fio prints for it, in *text (*len bytes, to free). Nothing is returned for a file that
 * is not wholly such a log: 0 or -errno, with err saying where and why.
 */
int iolog_inflate(const char *path, char **text, size_t *len, struct iop_err *err);

#endif
