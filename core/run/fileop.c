/* The loop of the file-operation engines (filecreate, filestat, filedelete, ...). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "io/buffer.h"
#include "base/numapol.h"
#include "run/run.h"
#include "stats/stats.h"
#include "base/cpulist.h"
#include "run/worker.h"
#include "run/runner.h"

/*
 * A file-operation engine (filecreate, filestat, filedelete): each file's operation (the
 * engine's open_file) is timed as a completion latency of the job's direction, once per pass,
 * when the file gets its first block of the pass.
 */
static bool fileop_open(struct worker *w, struct io_file *f, unsigned i, unsigned sd)
{
	const struct job_spec *job = w->job;
	const struct engine_ops *ops = w->eng.ops;
	uint64_t t0, t1;
	int ret;

	w->eng.err[0] = '\0';
	t0 = worker_now(w);
	ret = ops->open_file(&w->eng, f);
	t1 = worker_now(w);
	if (ret) {
		worker_fail(w, -ret, "engine %s: %s", ops->name,
			    w->eng.err[0] ? w->eng.err : strerror(-ret));
		return false;
	}
	if (!job->disable_lat) {	/* fio: disable_clat does not stop these */
		lat_add(&w->st[sd].clat, t1 - t0);
		if (w->logs)
			iologs_clat(w->logs, t1, sd == STAT_READ ? DDIR_READ : DDIR_WRITE, t1 - t0,
				    w->logs->want[LOG_HIST] ? hist_idx(t1 - t0) : 0);
	}
	/* after the timing: a file this job created is iopath's, one it removed leaves no mark */
	if (f->fd >= 0 && w->plan->file_missing && w->plan->file_missing[plan_path(w->plan, w->clone, i)])
		target_mark_owned(f->fd, f->path);
	/* a removed directory (dirdelete's own) had no mark to remove */
	if ((ops->flags & ENGINE_REMOVES) && !(ops->flags & ENGINE_DIRS))
		target_remove(f->path);
	if (ops->close_file)
		ops->close_file(&w->eng, f);
	if (t1 >= w->next_sample_ns)
		take_sample(w, t1);
	return true;
}

/* Stop the loop? (a signal, exitall, the runtime) */
static bool fileop_stop(struct worker *w, uint64_t *left)
{
	uint64_t t = worker_now(w);

	if (run_stop_requested()) {
		w->aborted = w->interrupted = true;
		return true;
	}
	if (atomic_load_explicit(&w->terminate, memory_order_relaxed) ||
	    (w->time.deadline_ns && t >= w->time.deadline_ns)) {
		*left = 0;
		return true;
	}
	return false;
}

/*
 * Passes over the files, one block of each file in turn (fio's round robin), every block an
 * I/O neither submitted nor timed (fio's FAKEIO and NOSTATS), each file's operation timed when
 * it gets its first block of the pass: a size below the files' total spreads over all of them.
 */
void __attribute__((noinline)) io_loop_fileop(struct worker *w)
{
	const struct job_spec *job = w->job;
	unsigned sd = job_reads(job->rw) ? STAT_READ : STAT_WRITE, i, d;
	uint32_t bs = job->bs[sd == STAT_READ ? DDIR_READ : DDIR_WRITE];
	uint64_t left = job->time.based ? UINT64_MAX : w->bytes_target;
	uint64_t *rest = calloc(w->nr_files ? w->nr_files : 1, sizeof(*rest));
	bool any, moved, mixed = job_reads(job->rw) && job_writes(job->rw);

	if (!rest) {
		worker_fail(w, ENOMEM, "out of memory for %u files", w->nr_files);
		w->time.end_ns = worker_now(w);
		return;
	}
	while (left >= bs && !w->aborted) {
		for (i = 0; i < w->nr_files; i++)
			rest[i] = w->files[i].len;
		moved = false;
		do {
			any = false;
			for (i = 0; i < w->nr_files && left >= bs && !w->aborted; i++) {
				if (rest[i] < bs)
					continue;
				if (rest[i] == w->files[i].len) {
					if (fileop_stop(w, &left) || !fileop_open(w, &w->files[i], i, sd))
						break;
				}
				d = mixed ? stat_dir(pick_dir(w)) : sd;
				w->st[d].ios++;
				w->st[d].bytes += bs;
				w->depth_hist[depth_bucket(1)]++;
				rest[i] -= bs;
				left -= bs;
				any = moved = true;
			}
			atomic_store_explicit(&w->progress_bytes,
					      w->st[STAT_READ].bytes + w->st[STAT_WRITE].bytes,
					      memory_order_relaxed);
			atomic_store_explicit(&w->progress_ios,
					      w->st[STAT_READ].ios + w->st[STAT_WRITE].ios,
					      memory_order_relaxed);
			if (atomic_load_explicit(&w->snap_want, memory_order_relaxed) != w->snap_gen)
				worker_snapshot(w, worker_now(w));
		} while (any && left >= bs && !w->aborted);
		if (!moved)
			break;		/* no file holds a whole block */
	}
	free(rest);
	w->time.end_ns = worker_now(w);
}

