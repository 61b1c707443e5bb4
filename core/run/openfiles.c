/* openfiles below nrfiles: a worker holds at most that many of its files open, as fio does. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "job/target.h"
#include "run/run.h"
#include "run/worker.h"
#include "run/runner.h"
#include "run/reqgen.h"

/*
 * write_hint=: the file's write lifetime hint, set on the opened descriptor's inode
 * (F_SET_RW_HINT), which buffered and direct writes both carry since Linux 5.17 removed the
 * open file's own hint; read back to be sure. 0, or the job failed (f->fd then negative).
 */
static int file_write_hint(struct worker *w, struct io_file *f)
{
	uint64_t hint = w->job->write_hint, got = 0;
	const char *why;
	int e = 0;

	if (fcntl(f->fd, F_SET_RW_HINT, &hint) || fcntl(f->fd, F_GET_RW_HINT, &got))
		e = errno;
	else if (got != hint)
		e = EINVAL;
	else
		return 0;
	why = got == hint || e != EINVAL ? strerror(e) : "the hint read back is another";
	worker_fail(w, e, "write_hint: fcntl(F_SET_RW_HINT, %llu) on %s: %s", (unsigned long long)hint,
		    f->path, why);
	close(f->fd);
	f->fd = -e;
	return -1;
}

int worker_open_file(struct worker *w, unsigned i)
{
	const struct job_plan *plan = w->plan;
	const struct job_spec *job = w->job;
	bool writes = job_changes_files(job);
	struct io_file *f = &w->files[i];
	struct iop_err err;
	struct stat st;
	unsigned k;

	k = job->rw == RW_COPY && i == COPY_SRC ? plan_nr_paths(plan) : plan_path(plan, w->clone, i);
	if (plan->fds && plan->fds[k] >= 0) {
		/* the descriptor checked before the group ran, never the name again */
		f->fd = file_reopen(job, plan->fds[k], f->path, writes && !f->read_only, &err);
		/* this worker's own file: its only user, unless it opens it again later */
		if (f->fd >= 0 && !plan->shared && !w->open.limit) {
			close(plan->fds[k]);
			plan->fds[k] = -1;
		}
	} else {
		f->fd = file_open(job, f->path, writes && !f->read_only,
				  job->overwrite || target_policy_allows_overwrite(plan->pol, f->path),
				  &err);
	}
	if (f->fd < 0) {
		worker_fail(w, -f->fd, "engine %s: %s", job->engine->name, err.msg);
		return f->fd;
	}
	if (job->file_append) {
		/* appends start at the file's end, whatever it holds already */
		if (fstat(f->fd, &st)) {
			worker_fail(w, errno, "%s: %s", f->path, strerror(errno));
			return -errno;
		}
		f->start = (uint64_t)st.st_size + plan->offset;
	}
	if (job->write_hint && file_write_hint(w, f))
		return f->fd;
	if (job->lockfile != LOCKFILE_NONE) {
		int e = file_lock_take(w, i);

		if (e) {
			worker_fail(w, -e, "lockfile: %s: %s", f->path, strerror(-e));
			return e;
		}
	}
	if (job->invalidate)
		file_invalidate(f->fd, f->start, f->len);
	file_advise(f->fd, f->start, f->len, job_fadvise(job));
	if (!fstat(f->fd, &st))
		w->nlink_at_open[i] = st.st_nlink > 0;
	return 0;
}

int open_files_setup(struct worker *w)
{
	const struct job_spec *job = w->job;
	struct worker_open *o = &w->open;
	unsigned i, d;

	if (!job->openfiles || job->openfiles >= w->nr_files || job->rw == RW_COPY ||
	    (job->engine->flags & (ENGINE_FILE_OP | ENGINE_DISKLESS)))
		return 0;
	o->state = calloc(w->nr_files, sizeof(*o->state));
	o->left = calloc(w->nr_files, sizeof(*o->left));
	if (!o->state || !o->left) {
		worker_fail(w, ENOMEM, "openfiles: out of memory for %u files", w->nr_files);
		return -ENOMEM;
	}
	o->limit = job->openfiles;
	/*
	 * fio's fill_io_u fails, and the file is done, where sequential offsets run off its
	 * range or the random map is full; without the map never (the first files take all)
	 */
	o->ends = !job_rw_random(job->rw) ||
		  (!job->norandommap && job->random_distribution == DIST_RANDOM);
	o->min_len = UINT32_MAX;
	for (d = 0; d < 2; d++)
		if ((d ? job_writes(job->rw) : job_reads(job->rw)) && w->bsg[d].min < o->min_len)
			o->min_len = w->bsg[d].min;
	for (i = 0; i < w->nr_files; i++)
		o->left[i] = w->files[i].len;
	w->cur_file = w->nr_files - 1;	/* the first pick moves to file 0 */
	o->passes_left = w->target_loops - 1;
	w->full = true;
	return 0;
}

/* Can file i take another request this pass? */
static bool usable(const struct worker *w, unsigned i)
{
	return !w->open.ends || w->open.left[i] >= w->open.min_len;
}

void open_files_close(struct worker *w, unsigned i)
{
	const struct job_spec *job = w->job;
	struct io_file *f = &w->files[i];

	if (f->fd < 0)
		return;
	if (w->eng_ready && job->engine->close_file)
		job->engine->close_file(&w->eng, f);
	if (job->fsync_on_close && job_writes(job->rw) && !job->end_fsync && !f->read_only &&
	    fsync(f->fd))
		worker_fail(w, errno, "fsync_on_close %s: %s", f->path, strerror(errno));
	if (!w->plan->shared && job_changes_files(job) && !f->read_only)
		(void)target_mark_refresh(f->fd, f->path);
	close(f->fd);
	f->fd = -1;
	if (w->open.state[i] == FO_OPEN)
		w->open.nr_open--;
}

/* Open file i for its turn: the worker's open, then the engine's. */
static int open_one(struct worker *w, unsigned i)
{
	const struct engine_ops *ops = w->job->engine;
	int ret = worker_open_file(w, i);

	if (ret)
		return ret;
	if (w->eng_ready && ops->open_file) {
		ret = ops->open_file(&w->eng, &w->files[i]);
		if (ret) {
			worker_fail(w, -ret, "engine %s: %s: %s", ops->name, w->files[i].path,
				    w->eng.err[0] ? w->eng.err : strerror(-ret));
			return ret;
		}
	}
	w->open.state[i] = FO_OPEN;
	w->open.nr_open++;
	return 0;
}

int open_files_reopen(struct worker *w, unsigned i)
{
	return open_one(w, i);
}

/*
 * fio's get_next_file_rr (file_service_type=roundrobin, and sequential, which stays on a file
 * until it is done): the next file in turn that is open or, while fewer than openfiles are,
 * opened now; a used-up file is closed as its turn comes, then the next is tried. Files not
 * yet opened are passed over while the limit is reached (fio's -EBUSY, its turn taken).
 */
int open_files_pick(struct worker *w)
{
	const struct job_spec *job = w->job;
	struct worker_open *o = &w->open;
	unsigned f = w->cur_file, tries;

	if (o->ready)
		return 1;
	/* staying on the file (sequential, rr:N): a used-up one is closed at once */
	if (o->state[f] == FO_OPEN && (job->file_service == FSVC_SEQUENTIAL || w->fsel.left)) {
		if (usable(w, f)) {
			if (w->fsel.left)
				w->fsel.left--;
			o->ready = true;
			return 1;
		}
		if (w->inflight || w->nr_batch)
			return REQ_DRAIN;
		open_files_close(w, f);
		o->state[f] = FO_DONE;
	}
	for (tries = 0; tries <= 4 * w->nr_files; tries++) {
		if (tries == 2 * w->nr_files) {
			/* every file used up: loops and time_based start a new pass, as fio */
			if (!job->time.based && !o->passes_left)
				return 0;
			if (o->passes_left)
				o->passes_left--;
			for (f = 0; f < w->nr_files; f++) {
				o->state[f] = FO_SHUT;
				o->left[f] = w->files[f].len;
				gen_new_pass(&w->gens[f]);
			}
			f = w->nr_files - 1;
		}
		f = f + 1 == w->nr_files ? 0 : f + 1;
		if (o->state[f] == FO_DONE)
			continue;
		if (o->state[f] == FO_OPEN && !usable(w, f)) {
			/* its requests out first: the descriptor they use stays theirs */
			if (w->inflight || w->nr_batch)
				return REQ_DRAIN;
			open_files_close(w, f);
			o->state[f] = FO_DONE;
			continue;
		}
		if (o->state[f] == FO_SHUT) {
			if (o->nr_open >= o->limit)
				continue;
			if (open_one(w, f))
				return 0;
			if (!usable(w, f))
				continue;
		}
		w->cur_file = f;
		w->fsel.left = job->file_service_nr - 1;
		o->ready = true;
		return 1;
	}
	return 0;
}

void open_files_new_pass(struct worker *w)
{
	struct worker_open *o = &w->open;
	unsigned i;

	if (!o->limit)
		return;
	for (i = 0; i < w->nr_files; i++) {
		open_files_close(w, i);
		o->state[i] = FO_SHUT;
		o->left[i] = w->files[i].len;
	}
	o->nr_open = 0;
	o->ready = false;
	o->passes_left = w->target_loops - 1;
	w->cur_file = w->nr_files - 1;
}

void open_files_free(struct worker *w)
{
	free(w->open.state);
	free(w->open.left);
	w->open.state = NULL;
	w->open.left = NULL;
}
