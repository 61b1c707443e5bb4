/*
 * Request generation for the I/O loop (core/run/reqgen.c): the full loop's next request, and
 * what the plain loop shares with it (verify, copy, writes' preparation).
 */
#ifndef IOPATH_REQGEN_H
#define IOPATH_REQGEN_H

#include <stdbool.h>
#include <stdint.h>

#include "run/worker.h"

#define REQ_DRAIN (-2)		/* next_request_full: verify_backlog waits for in-flight I/O */
#define REQF_BACKLOG 1u		/* io_req flags: a verify_backlog read */
#define REQF_INFLIGHT 2u	/* serialize_overlap: submitted, not yet reaped */

/*
 * Is this read one to verify? As in fio's do_io, the reads of the verify pass and of
 * verify_backlog, and every read of a job that only reads; a mixed job's own reads are not
 * checked (they may find blocks it has not written).
 */
static inline bool verify_read(const struct worker *w, const struct io_req *r)
{
	return w->verify.pass || !w->verify.job_writes || (r->flags & REQF_BACKLOG);
}

/* sync_file_range=: r as the range written to the current file since its last sync. */
bool next_sync_range(struct worker *w, struct io_req *r);

/* sync_file_range=: a write of r's range noted in its file's range (prepare_write). */
void sync_range_note(struct worker *w, const struct io_req *r);

/* Start r as an fsync/fdatasync (or sync_file_range) when one is due; true when it did. */
static inline bool next_sync(struct worker *w, struct io_req *r)
{
	const struct job_spec *job = w->job;

	if ((job->fsync_blocks && w->writes_since_sync >= job->fsync_blocks) ||
	    (job->fdatasync_blocks && w->writes_since_sync >= job->fdatasync_blocks)) {
		/* fio's do_io ends at its size before the next I/O, so before a sync then due */
		if (!job->time.based && w->bytes_issued >= w->bytes_target)
			return false;
		r->ddir = job->fsync_blocks ? DDIR_SYNC : DDIR_DATASYNC;
		r->len = 0;
		r->offset = 0;
		w->writes_since_sync = 0;
		return true;
	}
	if (__builtin_expect(w->sfr != NULL, 0) && w->writes_since_sync >= job->sfr_blocks)
		return next_sync_range(w, r);
	return false;
}

/* The next block to read back in the verify pass; false when all were read. */
bool next_verify(struct worker *w, struct io_req *r);

/* rw=copy: the next block of the source, in order; its write follows its completion. */
bool next_copy_read(struct worker *w, struct io_req *r);

/* rw=copy: a block has been read; queue the write of the same buffer to the destination. */
void copy_queue_write(struct worker *w, struct io_req *r);

/* rw=copy: the oldest block read and waiting, to be written now. */
struct io_req *copy_take_write(struct worker *w);

#define REQ_DRAIN (-2)
#define REQF_BACKLOG 1u		/* io_req flags: a verify_backlog read */
#define REQF_INFLIGHT 2u	/* serialize_overlap: submitted, not yet reaped */

/* serialize_overlap: does r touch bytes of a request in flight or waiting in the batch? */
bool overlaps_inflight(const struct worker *w, const struct io_req *r);

/* What every write does before it is issued: sync accounting, buffer contents, verify. */
void prepare_write(struct worker *w, struct io_req *r);

/*
 * Fill r with the next I/O of a job that runs the full loop, with the per-I/O options it set up: block sizes, file choice, offset
 * distributions, rate. now is the loop's latest timestamp. Returns 1 with r filled, 0 when
 * the job has nothing more to issue, REQ_WAIT when the rate says not yet.
 */
int next_request_full(struct worker *w, struct io_req *r, uint64_t now);

#endif
