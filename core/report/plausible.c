/* Plausibility of a run's rows: one that its neighbours (the same work) contradict (report.h). */
#include <stdlib.h>
#include <string.h>

#include "iopath/engine.h"
#include "report/report.h"

/* A row this many times faster or slower than its neighbours' median is implausible. */
#define IMPLAUSIBLE 8.0
#define NEIGHBOURS_MAX 64

double report_job_iops(const struct job_result *res)
{
	double secs = (double)res->runtime_ns / 1e9;
	unsigned d = res->dir[DDIR_WRITE].ios ? DDIR_WRITE : DDIR_READ;

	return res->error || secs <= 0 ? 0 : (double)res->dir[d].ios / secs;
}

const char *report_workload_of(const struct job_result *res)
{
	const char *sp = strchr(res->spec->name, ' ');

	return sp ? sp + 1 : res->spec->name;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * Do rows a and b do the same work the same way? The same workload and direct=, one request
 * at a time (deeper queues are where the submission models differ, which is what is measured),
 * both engines touching storage (a diskless one measures itself).
 */
static bool neighbours(const struct job_result *a, const struct job_result *b)
{
	const struct engine_ops *ea = a->spec->engine, *eb = b->spec->engine;

	return a->spec->direct == b->spec->direct && a->spec->iodepth <= 1 &&
	       b->spec->iodepth <= 1 && !(ea && (ea->flags & ENGINE_DISKLESS)) &&
	       !(eb && (eb->flags & ENGINE_DISKLESS)) &&
	       !strcmp(report_workload_of(a), report_workload_of(b));
}

double report_neighbour_ratio(const struct run_results *r, unsigned i)
{
	double v[NEIGHBOURS_MAX], mine = report_job_iops(&r->res[i]), med, x;
	unsigned k, n = 0;

	for (k = 0; k < r->nr && n < NEIGHBOURS_MAX; k++) {
		x = report_job_iops(&r->res[k]);
		if (k != i && x > 0 && neighbours(&r->res[i], &r->res[k]))
			v[n++] = x;
	}
	if (n < 2 || mine <= 0)
		return 0;
	qsort(v, n, sizeof(*v), cmp_double);
	med = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	return med > 0 ? mine / med : 0;
}

bool report_implausible(double ratio)
{
	return ratio > IMPLAUSIBLE || (ratio > 0 && ratio < 1 / IMPLAUSIBLE);
}
