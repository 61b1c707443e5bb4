/*
 * The worker's engine: what its instances are set up with and their start (worker_engine_start),
 * and unlink_each_loop's new loop, which removes the job's files, creates them again and starts
 * the engine afresh on them.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/file.h"
#include "job/target.h"
#include "run/runner.h"
#include "run/worker.h"

/*
 * The rest of what the worker's engine instances are set up with (setup_buffers gave the
 * request pool and buffers): its option block, files and the job's settings.
 */
static void worker_params(struct worker *w)
{
	const struct job_spec *job = w->job;
	struct engine_params *p = &w->params;

	p->opts = job->engine_opts;
	p->files = w->files;
	p->nr_files = w->nr_files;
	p->direct = job->direct;
	p->writes = job_changes_files(job);
	p->advise = job_engine_advise(job);
	p->atomic = job->atomic;
}

/* The engine's instance started on w->params as they are, and each file opened by it. */
static int engine_start(struct worker *w)
{
	const struct job_spec *job = w->job;
	const struct engine_ops *ops = job->engine;
	unsigned i;
	int ret;

	w->eng.ops = ops;
	w->eng.sync_range_flags = job->sfr_flags;
	ret = ops->init(&w->eng, &w->params);
	if (ret) {
		worker_fail(w, -ret, "engine %s: %s", ops->name,
			    w->eng.err[0] ? w->eng.err : strerror(-ret));
		return ret;
	}
	w->eng_ready = true;
	/* openfiles below nrfiles: each file's engine open comes with its own (openfiles.c) */
	for (i = 0; ops->open_file && !(ops->flags & ENGINE_FILE_OP) && !w->open.limit &&
		    i < w->nr_files; i++) {
		ret = ops->open_file(&w->eng, &w->files[i]);
		if (ret) {
			worker_fail(w, -ret, "engine %s: %s: %s", ops->name, w->files[i].path,
				    w->eng.err[0] ? w->eng.err : strerror(-ret));
			return ret;
		}
	}
	return 0;
}

int worker_engine_start(struct worker *w)
{
	worker_params(w);
	return engine_start(w);
}

/*
 * unlink_each_loop (fio's unlink_all_files as each loop after the first starts): the engine
 * stopped, each file flushed with fsync_on_close (fio's close does), closed and removed (the
 * name checked against the descriptor first: a name replaced meanwhile is not removed), then
 * created again empty, marked as iopath's, and the engine started afresh on the new files (it
 * may hold the old ones registered). Only files iopath created or the user allowed it to
 * remove get here: the plan refused the others, as for unlink=1. 0 or -errno, the worker
 * failed with the reason.
 */
int worker_unlink_loop(struct worker *w)
{
	const struct job_spec *job = w->job;
	const struct engine_ops *ops = job->engine;
	struct iop_err err = { 0 };
	struct stat fst, nst;
	unsigned i;
	int ret;

	if (w->eng_ready) {
		for (i = 0; ops->close_file && i < w->nr_files; i++)
			ops->close_file(&w->eng, &w->files[i]);
		ops->exit(&w->eng);
		w->eng_ready = false;
	}
	for (i = 0; i < w->nr_files; i++) {
		struct io_file *f = &w->files[i];

		if (f->fd < 0)
			continue;
		if (job->fsync_on_close && fsync(f->fd)) {
			worker_fail(w, errno, "fsync_on_close %s: %s", f->path, strerror(errno));
			return -errno;
		}
		if (fstat(f->fd, &fst) || lstat(f->path, &nst) || fst.st_dev != nst.st_dev ||
		    fst.st_ino != nst.st_ino) {
			worker_fail(w, EEXIST, "unlink_each_loop: %s is no longer the file the job wrote; not removed",
				    f->path);
			return -EEXIST;
		}
		close(f->fd);
		f->fd = -1;
		ret = target_remove(f->path);
		if (ret) {
			worker_fail(w, -ret, "unlink_each_loop: removing %s: %s", f->path,
				    strerror(-ret));
			return ret;
		}
		f->fd = file_create(job, f->path, &err);
		if (f->fd < 0) {
			worker_fail(w, -f->fd, "unlink_each_loop: %s", err.msg);
			return f->fd;
		}
		if ((ops->flags & ENGINE_NEEDS_MAP) && ftruncate(f->fd, (off_t)(f->start + f->len))) {
			worker_fail(w, errno, "unlink_each_loop: sizing %s: %s", f->path,
				    strerror(errno));
			return -errno;
		}
		w->nlink_at_open[i] = true;
	}
	/* on w->params as set up: the files array is the same, its descriptors new */
	return engine_start(w);
}
