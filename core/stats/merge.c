/* The one merge of results: a worker into its job's, a group's workers into one, ranks into one. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cpulist.h"
#include "stats/merge.h"
#include "stats/prio.h"
#include "stats/stats.h"

int meta_merge(struct meta_stat **dst, const struct meta_stat *src)
{
	struct meta_stat *d = *dst;
	unsigned op;

	if (!d) {
		d = calloc(1, sizeof(*d));
		if (!d)
			return -ENOMEM;
		for (op = 0; op < META_NR; op++)
			lat_init(&d->op[op]);
		*dst = d;
	}
	for (op = 0; op < META_NR; op++) {
		lat_merge(&d->op[op], &src->op[op]);
		if (src->phase_ns[op] > d->phase_ns[op])
			d->phase_ns[op] = src->phase_ns[op];
	}
	d->files += src->files;
	d->dirs += src->dirs;
	d->depth = src->depth;
	return 0;
}

static void ss_free(struct ss_result *ss)
{
	if (!ss)
		return;
	free(ss->bw);
	free(ss->iops);
	free(ss);
}

void result_free_owned(struct job_result *r)
{
	free(r->meta);
	r->meta = NULL;
	ss_free(r->ss);
	r->ss = NULL;
	prio_stats_free(r->prios);
	r->prios = NULL;
}

static struct ss_result *ss_copy(const struct ss_result *src)
{
	struct ss_result *ss = calloc(1, sizeof(*ss));

	if (!ss)
		return NULL;
	*ss = *src;
	ss->bw = calloc(src->dur ? src->dur : 1, sizeof(uint64_t));
	ss->iops = calloc(src->dur ? src->dur : 1, sizeof(uint64_t));
	if (!ss->bw || !ss->iops) {
		ss_free(ss);
		return NULL;
	}
	memcpy(ss->bw, src->bw, src->dur * sizeof(uint64_t));
	memcpy(ss->iops, src->iops, src->dur * sizeof(uint64_t));
	return ss;
}

/* The error log: src's lines after dst's, a line too many dropped and counted. */
static void errlog_merge(struct job_result *dst, const struct job_result *src)
{
	size_t have = strlen(dst->errlog), n = strlen(src->errlog);

	if (n && have + n >= sizeof(dst->errlog)) {
		dst->errlog_dropped++;
		n = 0;
	}
	memcpy(dst->errlog + have, src->errlog, n);
	dst->errlog[have + n] = '\0';
	dst->errlog_dropped += src->errlog_dropped;
}

/* The union of the CPUs run on, and the applied setting "cpus" that lists it. */
static void cpus_merge(struct job_result *dst, const struct job_result *src)
{
	bool any = false;
	unsigned i, k;

	for (i = 0; i < JOB_CPUS_MAX / 64; i++) {
		dst->cpus[i] |= src->cpus[i];
		any |= src->cpus[i] != 0;
	}
	if (!any)
		return;
	for (k = 0; k < dst->nr_applied && strcmp(dst->applied[k][0], "cpus"); k++)
		;
	if (k == ENGINE_APPLIED_MAX)
		return;
	if (k == dst->nr_applied) {
		dst->nr_applied++;
		snprintf(dst->applied[k][0], sizeof(dst->applied[k][0]), "cpus");
	}
	iop_cpus_format(dst->cpus, dst->applied[k][1], sizeof(dst->applied[k][1]));
}

/* rw=copy: every part's bytes; verified only when every part's copy was, and matched. */
static void copy_merge(struct job_result *dst, const struct job_result *src, bool first)
{
	if (first) {
		dst->copy = src->copy;
		return;
	}
	dst->copy.bytes += src->copy.bytes;
	dst->copy.dst_size += src->copy.dst_size;
	dst->copy.checked &= src->copy.checked;
	dst->copy.match &= src->copy.match;
}

/* The measured span on the group's clock (the widest), and the window all ranks ran in. */
static void span_merge(struct job_result *dst, const struct job_result *src)
{
	bool first = dst->end_ns <= dst->start_ns;

	if (src->end_ns <= src->start_ns)
		return;
	if (src->spec && src->spec->rw == RW_COPY)
		copy_merge(dst, src, first);
	if (first || src->start_ns < dst->start_ns)
		dst->start_ns = src->start_ns;
	if (first || src->end_ns > dst->end_ns)
		dst->end_ns = src->end_ns;
	if (src->window_end_ns <= src->window_start_ns)
		return;
	if (!dst->window_end_ns || src->window_start_ns > dst->window_start_ns)
		dst->window_start_ns = src->window_start_ns;
	if (!dst->window_end_ns || src->window_end_ns < dst->window_end_ns)
		dst->window_end_ns = src->window_end_ns;
	dst->window_bytes += src->window_bytes;
	dst->window_ios += src->window_ios;
}

int result_merge(struct job_result *dst, const struct job_result *src)
{
	bool first = !dst->nr_workers;
	unsigned i;

	dst->nr_workers += src->nr_workers;
	dst->nr_failed += src->nr_failed;
	if (src->error && !dst->error) {
		dst->error = src->error;
		memcpy(dst->errmsg, src->errmsg, sizeof(dst->errmsg));
	}
	dst->interrupted |= src->interrupted;
	if (src->runtime_ns > dst->runtime_ns)
		dst->runtime_ns = src->runtime_ns;
	dst->run_sum_ns += src->run_sum_ns;
	if (src->elapsed_ns > dst->elapsed_ns)
		dst->elapsed_ns = src->elapsed_ns;
	for (i = 0; i < STAT_NR; i++)
		dir_stat_merge(&dst->dir[i], &src->dir[i]);
	dst->usr_ns += src->usr_ns;
	dst->sys_ns += src->sys_ns;
	dst->ctx += src->ctx;
	dst->majf += src->majf;
	dst->minf += src->minf;
	dst->kt_usr_ns += src->kt_usr_ns;
	dst->kt_sys_ns += src->kt_sys_ns;
	dst->kt_workers += src->kt_workers;
	dst->oncpu_ns += src->oncpu_ns;
	dst->runq_wait_ns += src->runq_wait_ns;
	dst->sched_in += src->sched_in;
	dst->sched_workers += src->sched_workers;
	for (i = 0; i < DEPTH_BUCKETS; i++) {
		dst->depth[i] += src->depth[i];
		dst->submit[i] += src->submit[i];
		dst->reaped[i] += src->reaped[i];
	}
	dst->verify_errors += src->verify_errors;
	dst->zone_resets += src->zone_resets;
	/* continue_on_error: every error counted, the first part's first one named */
	if (src->total_err && !dst->total_err)
		dst->first_error = src->first_error;
	dst->total_err += src->total_err;
	for (i = 0; i < 3; i++)
		dst->err_ios[i] += src->err_ios[i];
	errlog_merge(dst, src);
	if (first) {
		dst->buf_huge = src->buf_huge;
		dst->latency_depth = src->latency_depth;
	}
	if (!dst->tsc_mhz)
		dst->tsc_mhz = src->tsc_mhz;
	if (!dst->engine_name[0])
		memcpy(dst->engine_name, src->engine_name, sizeof(dst->engine_name));
	if (!dst->copy_src[0] && src->copy_src[0]) {
		memcpy(dst->copy_src, src->copy_src, sizeof(dst->copy_src));
		memcpy(dst->copy_dst, src->copy_dst, sizeof(dst->copy_dst));
	}
	if (!dst->nr_applied && src->nr_applied) {
		dst->nr_applied = src->nr_applied;
		memcpy(dst->applied, src->applied, sizeof(dst->applied));
	}
	cpus_merge(dst, src);
	if (src->numa_measured) {
		dst->numa_measured = true;
		for (i = 0; i < RESULT_NUMA_NODES; i++)
			dst->numa_pages[i] += src->numa_pages[i];
		dst->numa_pages_elsewhere += src->numa_pages_elsewhere;
	}
	span_merge(dst, src);
	if (!dst->ss && src->ss && !(dst->ss = ss_copy(src->ss)))
		return -ENOMEM;
	if (src->prios && prio_stats_merge(&dst->prios, src->prios))
		return -ENOMEM;
	if (src->meta) {
		/* fio's read and write stand for open-read and create: their own phase times */
		if (meta_merge(&dst->meta, src->meta))
			return -ENOMEM;
		dst->dir[STAT_READ].runtime_ns = dst->meta->phase_ns[META_OPEN_READ];
		dst->dir[STAT_WRITE].runtime_ns = dst->meta->phase_ns[META_CREATE];
	}
	return 0;
}
