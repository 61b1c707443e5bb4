/* A worker's own accounting: failures, the error log, the measured start, periodic samples. */
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
#include "run/machine.h"
#include "run/run.h"
#include "stats/prio.h"
#include "stats/stats.h"
#include "base/cpulist.h"
#include "run/worker.h"
#include "run/runner.h"

void worker_fail(struct worker *w, int error, const char *fmt, ...)
{
	va_list ap;

	w->aborted = true;
	if (w->error)
		return;
	w->error = error > 0 ? error : EIO;
	va_start(ap, fmt);
	vsnprintf(w->errmsg, sizeof(w->errmsg), fmt, ap);
	va_end(ap);
}

/* One line of the job's error log (error_dump; non-fatal verify failures). */
void errlog_add(struct worker *w, const char *fmt, ...)
{
	size_t room = sizeof(w->errlog) - w->errlog_len;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = room > 1 ? vsnprintf(w->errlog + w->errlog_len, room - 1, fmt, ap) : -1;
	va_end(ap);
	if (n < 0 || (size_t)n >= room - 1) {
		w->errlog[w->errlog_len] = '\0';
		w->errlog_dropped++;
		return;
	}
	w->errlog_len += (size_t)n;
	w->errlog[w->errlog_len++] = '\n';
	w->errlog[w->errlog_len] = '\0';
}

/* fio's td_non_fatal_error: continue_on_error covers the type, and its list has the error. */
bool err_non_fatal(const struct job_spec *job, unsigned type, int err)
{
	unsigned i;

	if (!(job->continue_on_error & (1u << type)))
		return false;
	if (!job->nr_ignore_error[type])
		return err == EIO || err == EILSEQ;
	for (i = 0; i < job->nr_ignore_error[type]; i++)
		if (job->ignore_error[type][i] == err)
			return true;
	return false;
}

static void stats_reset(struct worker *w)
{
	unsigned i;

	for (i = 0; i < STAT_NR; i++)
		dir_stat_init(&w->st[i]);
	memset(w->depth_hist, 0, sizeof(w->depth_hist));
	memset(w->submit_hist, 0, sizeof(w->submit_hist));
	memset(w->reap_hist, 0, sizeof(w->reap_hist));
	w->submit_one = w->reap_one = 0;
	memset(w->dir_ns, 0, sizeof(w->dir_ns));
	memset(w->sample_last_bytes, 0, sizeof(w->sample_last_bytes));
	memset(w->sample_last_ios, 0, sizeof(w->sample_last_ios));
	progress_log_reset(&w->progress);
	if (w->prios)
		prio_stats_reset(w->prios);
}

/*
 * Start of the measured interval: after the start barrier, or when ramp_time ends. The I/O
 * done in the ramp counts against the job's size: as in fio 3.33, a size-based job measures
 * what is left of it after ramp_time, not its whole size again.
 */
void measure_start(struct worker *w, uint64_t t)
{
	stats_reset(w);
	atomic_store_explicit(&w->progress_bytes, 0, memory_order_relaxed);
	atomic_store_explicit(&w->progress_ios, 0, memory_order_relaxed);
	w->next_progress_ns = t;
	w->in_ramp = false;
	w->start_ns = t;
	w->last_sample_ns = t;
	w->next_sample_ns = t + SAMPLE_NS;
	if (w->job->runtime_ns)
		w->deadline_ns = t + w->job->runtime_ns;
	getrusage(RUSAGE_THREAD, &w->ru_start);
	w->sched_valid = machine_thread_sched(w->sched_start);
	w->kt_valid = w->eng_ready && w->eng.ops->kthread_cpu &&
		      !w->eng.ops->kthread_cpu(&w->eng, &w->kt_start[0], &w->kt_start[1]);
}

/* A file deleted under a running job (st_nlink 0) fails the job: its numbers mean little now. */
static void check_files_present(struct worker *w)
{
	struct stat st;
	unsigned i;

	for (i = 0; i < w->nr_files; i++) {
		/* only where links are counted at all: some FUSE and network filesystems say 0 */
		if (w->files[i].fd < 0 || !w->nlink_at_open[i] || fstat(w->files[i].fd, &st) ||
		    st.st_nlink)
			continue;
		worker_fail(w, ENOENT, "%s was deleted while the job ran", w->files[i].path);
	}
}

void take_sample(struct worker *w, uint64_t t)
{
	double secs = (double)(t - w->last_sample_ns) / 1e9;
	unsigned d;

	check_files_present(w);

	for (d = 0; d < 3 && !w->job->disable_bw; d++) {
		if (d == DDIR_READ ? !job_reads(w->job->rw) :
		    d == DDIR_WRITE ? !job_writes_data(w->job->rw) : !w->trims)
			continue;
		sample_add(&w->st[d].bw, (double)(w->st[d].bytes - w->sample_last_bytes[d]) / secs);
		sample_add(&w->st[d].iops, (double)(w->st[d].ios - w->sample_last_ios[d]) / secs);
		w->sample_last_bytes[d] = w->st[d].bytes;
		w->sample_last_ios[d] = w->st[d].ios;
	}
	/* in a reporting group (or the run's agg logs): the runner sums the members' progress
	 * interval by interval */
	if ((w->job->group_reporting || w->job->agg_bw_log) && !w->job->disable_bw)
		progress_log_add(&w->progress, t - w->start_ns, w->st);
	w->last_sample_ns = t;
	w->next_sample_ns += SAMPLE_NS;
	if (w->next_sample_ns <= t)
		w->next_sample_ns = t + SAMPLE_NS;
}
