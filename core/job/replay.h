/* fio's I/O logs for replay: version 2 and 3 iologs and blktrace binary traces, read into entries. */
#ifndef IOPATH_REPLAY_H
#define IOPATH_REPLAY_H

#include <stdbool.h>
#include <stdint.h>

#include "base/err.h"
#include "iopath/job.h"

#define REPLAY_FILES_MAX 64

/* One I/O of the log, as the job's options (replay_scale, replay_align) have it. */
struct replay_entry {
	uint64_t t_us;		/* when the trace issued it: microseconds from the log's start */
	uint64_t offset;
	uint32_t len;
	uint16_t file;		/* index into replay.files */
	uint16_t ddir;		/* DDIR_READ, WRITE, TRIM, SYNC, DATASYNC */
};

struct replay {
	struct replay_entry *e;
	uint64_t nr, cap;
	char files[REPLAY_FILES_MAX][256];	/* as the log names them, or replay_redirect */
	unsigned nr_files;
	uint64_t extent[REPLAY_FILES_MAX];	/* the end of the furthest I/O per file */
	uint32_t max_len;
	unsigned dirs;		/* a bit per direction present (1 << DDIR_x) */
	unsigned version;	/* 2, 3, or 0 for a blktrace */
};

/*
 * Read job->read_iolog: fio's "fio version 2 iolog" (v2 waits become times), "fio version 3
 * iolog" (microsecond times), or a blktrace binary trace (its queue events, sector * 512;
 * replay_redirect or filename= names the file, as a trace names devices by number). Applies
 * replay_scale (offsets divided), replay_align (offsets aligned down) and replay_redirect.
 * Returns 0, or -errno with err naming the file and line.
 */
int replay_load(const struct job_spec *job, struct replay *r, struct iop_err *err);

void replay_free(struct replay *r);

#endif
