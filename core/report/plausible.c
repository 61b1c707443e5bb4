/* Plausibility of a run's rows: one that its neighbours (the same work) contradict (report.h). */
#include <math.h>
#include <stdio.h>
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

/* ---- cells (sweep, suite): identities, not jobs ---- */

/* A rule's neighbours differ only in key; 8x between engines, repeats' spread between twins. */
#define TWIN_SPREAD 0.5

/* Do identities a and b hold the same strings for every key but key, and differ in key? */
static bool same_but(const json_t *a, const json_t *b, const char *key)
{
	const char *k, *x, *y;
	json_t *v;

	if (!json_is_object(a) || !json_is_object(b) || json_object_size(a) != json_object_size(b))
		return false;
	json_object_foreach((json_t *)a, k, v) {
		x = json_string_value(v);
		y = json_string_value(json_object_get(b, k));
		if (!x || !y || (strcmp(k, key) ? strcmp(x, y) != 0 : !strcmp(x, y)))
			return false;
	}
	return true;
}

static bool touches_storage(const json_t *identity)
{
	const struct engine_entry *e = engine_find(json_string_value(json_object_get(identity,
										      "engine")) ?: "");

	return e && e->ops && !(e->ops->flags & ENGINE_DISKLESS);
}

static double median_of(double *v, unsigned n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

bool report_cell_implausible(const struct plaus_cell *c, unsigned n, unsigned i, char *why,
			     size_t len)
{
	const struct plaus_cell *me = &c[i];
	const char *depth = json_string_value(json_object_get(me->identity, "iodepth"));
	const char *twin = NULL;
	double v[NEIGHBOURS_MAX], lo, hi, med, far = me->value;
	unsigned k, nv = 0;

	if (!(me->value > 0))
		return false;
	/* engines that touch storage, one request at a time: the make run rule */
	if (depth && !strcmp(depth, "1") && touches_storage(me->identity)) {
		for (k = 0; k < n && nv < NEIGHBOURS_MAX; k++)
			if (k != i && c[k].value > 0 && same_but(me->identity, c[k].identity, "engine") &&
			    touches_storage(c[k].identity))
				v[nv++] = c[k].value;
		med = nv >= 2 ? median_of(v, nv) : 0;
		if (med > 0 && report_implausible(me->value / med)) {
			snprintf(why, len, "%.1fx the IOPS of the other engines on the same work at iodepth 1 (their median): a page cache one engine found warm, or a disturbance; rerun before believing it",
				 me->value / med);
			return true;
		}
	}
	/* the same work on another target that is the same filesystem: as close as repeats */
	nv = 0;
	lo = hi = me->value;
	for (k = 0; me->fs && k < n && nv < NEIGHBOURS_MAX; k++) {
		if (k == i || !(c[k].value > 0) || !c[k].fs || strcmp(c[k].fs, me->fs) ||
		    !same_but(me->identity, c[k].identity, "target"))
			continue;
		v[nv++] = c[k].value;
		if (fabs(c[k].value - me->value) > fabs(far - me->value)) {
			far = c[k].value;
			twin = json_string_value(json_object_get(c[k].identity, "target"));
		}
		lo = c[k].value < lo ? c[k].value : lo;
		hi = c[k].value > hi ? c[k].value : hi;
	}
	if (!nv || !twin)
		return false;
	v[nv++] = me->value;
	med = median_of(v, nv);
	if (!(med > 0) || (hi - lo) / med <= TWIN_SPREAD)
		return false;
	snprintf(why, len, "%.2fx apart from %s, the same filesystem (%s): the same work there should agree as its repeats must (within half the median); rerun before believing either",
		 far > me->value ? far / me->value : me->value / far, twin, me->fs);
	return true;
}

void report_fs_name(char *buf, size_t len, const char *fstype, const char *source,
		    const char *mount)
{
	if (!fstype || !*fstype || !mount || !*mount)
		*buf = '\0';
	else
		snprintf(buf, len, "%s %s at %s", fstype, source && *source ? source : "?", mount);
}

const char *report_target_fs(const json_t *targets, const char *role, char *buf, size_t len)
{
	const json_t *t, *p;
	size_t i;

	*buf = '\0';
	json_array_foreach(targets, i, t) {
		if (!role || strcmp(json_string_value(json_object_get(t, "role")) ?: "", role))
			continue;
		p = json_object_get(t, "probe");
		report_fs_name(buf, len, json_string_value(json_object_get(p, "fstype")),
			       json_string_value(json_object_get(p, "mount_source")),
			       json_string_value(json_object_get(p, "mount_point")));
		break;
	}
	return *buf ? buf : NULL;
}
