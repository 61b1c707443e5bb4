/* The built-in workload table: look-up, scaling, and turning one into ready jobs. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "job/job.h"
#include "job/options.h"
#include "job/workloads.h"

#define SCALE_MIN_RUNTIME_NS 100000000ull
#define SCALE_MIN_FILES 8u
#define LARGE_BS (1u << 20)

const struct builtin_workload *workload_find(const char *name)
{
	const struct builtin_workload *w;

	for (w = builtin_workloads; w->name; w++)
		if (!strcmp(w->name, name))
			return w;
	return NULL;
}

int workload_parse_scale(const char *s, double *out)
{
	char *end;
	double v, d;

	v = strtod(s, &end);
	if (end == s)
		return -EINVAL;
	if (*end == '/') {
		d = strtod(end + 1, &end);
		if (d <= 0)
			return -EINVAL;
		v /= d;
	} else if (*end == '%') {
		v /= 100;
		end++;
	}
	if (*end || !(v > 0) || v > 1)
		return -EINVAL;
	*out = v;
	return 0;
}

static int apply(struct job_spec *job, const char *key, const char *where, struct iop_err *err,
		 const char *fmt, unsigned long long v)
{
	char val[32];

	snprintf(val, sizeof(val), fmt, v);
	return opt_apply(job, key, val, where, err);
}

static uint64_t round_down(uint64_t v, uint64_t to)
{
	return v / to * to;
}

int workload_scale(struct job_spec *job, double f, struct iop_err *err)
{
	const char *where = "--scale";
	uint32_t bs = job->bs[0] > job->bs[1] ? job->bs[0] : job->bs[1];
	uint64_t v;
	unsigned d;
	int ret = 0;

	if (f >= 1)
		return 0;
	for (d = 0; d < 2 && !ret; d++) {
		if (job->bs[d] <= LARGE_BS)
			continue;
		v = round_down((uint64_t)((double)job->bs[d] * f), 4096);
		job->bs[d] = (uint32_t)(v > 4096 ? v : 4096);
	}
	if (bs > LARGE_BS)
		ret = apply(job, "bs", where, err, "%llu", job->bs[0]);
	bs = job->bs[0] > job->bs[1] ? job->bs[0] : job->bs[1];
	if (!ret && job->sizes.size) {
		v = round_down((uint64_t)((double)job->sizes.size * f), bs < 4096 ? 4096 : bs);
		ret = apply(job, "size", where, err, "%llu", v > bs ? v : bs);
	}
	if (!ret && job->sizes.io_size) {
		v = round_down((uint64_t)((double)job->sizes.io_size * f), bs < 4096 ? 4096 : bs);
		ret = apply(job, "io_size", where, err, "%llu", v > bs ? v : bs);
	}
	if (!ret && job->time.runtime_ns) {
		v = (uint64_t)((double)job->time.runtime_ns * f);
		ret = apply(job, "runtime", where, err, "%lluus",
			    (v > SCALE_MIN_RUNTIME_NS ? v : SCALE_MIN_RUNTIME_NS) / 1000);
	}
	if (!ret && job->time.ramp_ns)
		ret = apply(job, "ramp_time", where, err, "%lluus",
			    (unsigned long long)((double)job->time.ramp_ns * f) / 1000);
	if (!ret && job->rw == RW_METADATA) {
		v = (uint64_t)ceil((double)job->nrfiles * f);
		ret = apply(job, "nrfiles", where, err, "%llu",
			    v > SCALE_MIN_FILES ? v : SCALE_MIN_FILES);
	}
	return ret;
}

/* A block larger than the job's data (after size= or the scale) shrinks to it. */
static int fit_bs(struct job_spec *job, struct iop_err *err)
{
	uint64_t cap;
	unsigned d;
	bool changed = false;

	if (!job->sizes.size || job->rw == RW_COPY || job->rw == RW_METADATA)
		return 0;
	cap = job->sizes.size / job->nrfiles;
	cap = cap >= 4096 ? round_down(cap, 4096) : cap;
	for (d = 0; d < 2; d++) {
		if (job->bs[d] > cap && cap) {
			job->bs[d] = (uint32_t)cap;
			changed = true;
		}
	}
	if (!changed)
		return 0;
	return apply(job, "bs", "size=", err, "%llu", job->bs[0]);
}

int workload_load(const struct builtin_workload *w, const struct workload_setup *ws,
		  struct job_list *jobs, struct iop_err *err)
{
	struct job_parser p;
	char origin[160], where[160];
	unsigned first = jobs->nr, i, k;
	int ret;

	snprintf(origin, sizeof(origin), "workload %s", w->name);
	job_parser_init(&p, jobs);
	ret = job_parse_text(&p, w->text, origin, err);
	for (i = first; !ret && i < jobs->nr; i++) {
		struct job_spec *job = &jobs->jobs[i];

		if (ws->directory)
			ret = opt_apply(job, "directory", ws->directory, origin, err);
		if (!ret && ws->scale > 0 && ws->scale < 1)
			ret = workload_scale(job, ws->scale, err);
		for (k = 0; !ret && k < ws->nr_overrides; k++) {
			snprintf(where, sizeof(where), "override %s", ws->overrides[k].key);
			if (!strcmp(ws->overrides[k].key, "name"))
				ret = iop_errf(err, -EINVAL, "%s: a workload's job names are fixed", where);
			else
				ret = opt_apply(job, ws->overrides[k].key, ws->overrides[k].val, where,
						err);
		}
		if (!ret)
			ret = fit_bs(job, err);
	}
	if (!ret)
		ret = job_parser_finish(&p, err);
	return ret;
}
