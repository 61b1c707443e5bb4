/* The completions that moved other than their full length: errors, continue_on_error, end of file, short transfers. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "run/run.h"
#include "run/worker.h"
#include "run/runner.h"
#include "run/reqgen.h"

static const char *const ddir_names[] = { "read", "write", "trim", "fsync", "fdatasync",
					    "sync_file_range" };

/*
 * A failed request of a job with continue_on_error (or ignore_error): true when the error is
 * non-fatal (counted, reported under error_dump, and the job goes on); false when it ends the
 * job. A fatal error counts in total_err too where it completed inside submit (sync engines,
 * trims), as fio's break_on_this_error counts it; fio's async completions do not count it.
 */
static bool __attribute__((noinline)) complete_error(struct worker *w, const struct io_req *r)
{
	int err = (int)-r->res;
	unsigned type = err_type(r->ddir, err);

	if (!err_non_fatal(w->job, type, err)) {
		if ((w->job->continue_on_error & (1u << type)) &&
		    ((w->eng.ops->flags & ENGINE_SYNC) || r->ddir == DDIR_TRIM))
			err_count(w, err);
		return false;
	}
	if (r->ddir <= DDIR_TRIM)
		w->err_ios[r->ddir]++;
	err_count(w, err);
	if (w->job->error_dump)
		errlog_add(w, "io_u error on file %s: %s: %s offset=%llu, buflen=%u", r->file->path,
			   strerror(err), ddir_names[r->ddir], (unsigned long long)r->offset, r->len);
	return true;
}

/*
 * A completion that moved other than its full length: an error, end of file or a short
 * transfer. Returns false when it must not be counted. Kept out of line: the common case
 * is one comparison.
 */
bool complete_odd(struct worker *w, const struct io_req *r, struct dir_stat *d)
{
	if (r->res < 0 && w->job->continue_on_error && complete_error(w, r))
		return false;
	if (r->res < 0 && w->job->fill_device && r->ddir == DDIR_WRITE &&
	    (r->res == -ENOSPC || r->res == -EDQUOT)) {
		/* fill_device: full is the end of the job, not an error (fio) */
		atomic_store(&w->terminate, true);
		return false;
	}
	if (r->res < 0) {
		if (r->ddir <= DDIR_TRIM)
			w->err_ios[r->ddir]++;
		worker_fail(w, (int)-r->res, "%s %s at offset %llu (%u bytes): %s%s",
			    ddir_names[r->ddir], r->file->path, (unsigned long long)r->offset, r->len,
			    strerror((int)-r->res),
			    r->ddir == DDIR_TRIM && r->res == -ENOTTY ?
			    " (trims are BLKDISCARD, for block devices only, as in fio 3.33)" : "");
		return false;
	}
	if (r->ddir >= DDIR_SYNC)
		return true;
	/*
	 * fio: an asynchronous read past the end of the file (a file created on open and not
	 * yet written there) is an I/O that moved nothing, not an error; a sync engine's is
	 * one ("full resid"), and so is a read that is to be verified
	 */
	if (r->res == 0 && r->ddir == DDIR_READ && w->job->rw != RW_COPY &&
	    !(w->eng.ops->flags & ENGINE_SYNC) && !(w->verify.check_reads && verify_read(w, r)))
		return true;
	if (r->res == 0 || w->job->rw == RW_COPY) {
		worker_fail(w, EIO, "%s %s at offset %llu: %s", ddir_names[r->ddir], r->file->path,
			    (unsigned long long)r->offset,
			    r->res ? "short transfer in a copy (did the source change?)"
				   : "unexpected end of file");
		return false;
	}
	d->short_ios++;
	return true;
}
