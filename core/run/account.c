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
#include <time.h>
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
	memset(w->time.dir_ns, 0, sizeof(w->time.dir_ns));
	memset(w->sample.last_bytes, 0, sizeof(w->sample.last_bytes));
	memset(w->sample.last_ios, 0, sizeof(w->sample.last_ios));
	progress_log_reset(&w->progress);
	if (w->prios)
		prio_stats_reset(w->prios);
}

/*
 * log_unix_epoch, log_alternate_epoch: what the job's clock (log_alternate_epoch_clock_id,
 * CLOCK_REALTIME by default) reads now, in ms, added to every log time (fio's alternate_epoch,
 * read where its epoch is); 0 otherwise. job_finish refused a clock id the system lacks.
 */
uint64_t log_time_base_ms(const struct job_spec *job)
{
	struct timespec ts;

	if (!job->log.unix_epoch && !job->log.alternate_epoch)
		return 0;
	if (clock_gettime((clockid_t)job->log.alternate_epoch_clock_id, &ts))
		return 0;
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* The earlier of the bw and IOPS samples' due times. */
static uint64_t sample_due(const struct worker_sample *s)
{
	return s->next_bw_ns < s->next_iops_ns ? s->next_bw_ns : s->next_iops_ns;
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
	if (w->mixed)
		mix_measure_start(w);
	if (w->time.in_ramp && w->logs)
		iologs_rebase(w->logs, t, log_time_base_ms(w->job));
	w->time.in_ramp = false;
	w->time.start_ns = t;
	w->sample.last_bw_ns = w->sample.last_iops_ns = t;
	w->sample.next_bw_ns = t + w->job->bw_avg_ms * 1000000ull;
	w->sample.next_iops_ns = t + w->job->iops_avg_ms * 1000000ull;
	w->next_sample_ns = sample_due(&w->sample);
	if (w->job->time.runtime_ns)
		w->time.deadline_ns = t + w->job->time.runtime_ns;
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

/* The next of a sample every period_ns after *next, past t. */
static uint64_t sample_after(uint64_t next, uint64_t period_ns, uint64_t t)
{
	next += period_ns;
	return next <= t ? t + period_ns : next;
}

/*
 * The samples due at t: bandwidth every bwavgtime, IOPS every iopsavgtime (fio's
 * add_bw_samples, add_iops_samples), each over the time since its own last sample.
 */
void take_sample(struct worker *w, uint64_t t)
{
	const struct job_spec *job = w->job;
	bool bw = t >= w->sample.next_bw_ns, iops = t >= w->sample.next_iops_ns;
	double bw_secs = (double)(t - w->sample.last_bw_ns) / 1e9;
	double iops_secs = (double)(t - w->sample.last_iops_ns) / 1e9;
	unsigned d;

	check_files_present(w);

	for (d = 0; d < 3 && !job->disable_bw; d++) {
		if (d == DDIR_READ ? !job_reads(job->rw) :
		    d == DDIR_WRITE ? !job_writes_data(job->rw) : !w->trim.on)
			continue;
		if (bw) {
			sample_add(&w->st[d].bw,
				   (double)(w->st[d].bytes - w->sample.last_bytes[d]) / bw_secs);
			w->sample.last_bytes[d] = w->st[d].bytes;
		}
		if (iops) {
			sample_add(&w->st[d].iops,
				   (double)(w->st[d].ios - w->sample.last_ios[d]) / iops_secs);
			w->sample.last_ios[d] = w->st[d].ios;
		}
	}
	/* in a reporting group (or the run's agg logs): the runner sums the members' progress
	 * interval by interval */
	if ((job->group_reporting || job->log.agg_bw) && !job->disable_bw)
		progress_log_add(&w->progress, t - w->time.start_ns, w->st);
	if (bw) {
		w->sample.last_bw_ns = t;
		w->sample.next_bw_ns = sample_after(w->sample.next_bw_ns, job->bw_avg_ms * 1000000ull, t);
	}
	if (iops) {
		w->sample.last_iops_ns = t;
		w->sample.next_iops_ns = sample_after(w->sample.next_iops_ns, job->iops_avg_ms * 1000000ull, t);
	}
	w->next_sample_ns = sample_due(&w->sample);
}
