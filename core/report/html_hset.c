/* The HTML report's cell model: a results document's cells as the sections show them (html_int.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/html_int.h"
#include "stats/rstats.h"

const double hpct_points[HPCT_NR] = { 50, 90, 95, 99, 99.5, 99.9, 99.95, 99.99 };
const char *const hpct_keys[HPCT_NR] = {
	"p50", "p90", "p95", "p99", "p99.5", "p99.9", "p99.95", "p99.99",
};

const char *hcell_get(const struct hcell *c, const char *key)
{
	return jstr(c->identity, key, "");
}

static double median_of(double *v, unsigned n, double *lo, double *hi, double *cv)
{
	struct rsummary s;

	if (!n || rstats_summary(v, n, &s)) {
		*lo = *hi = *cv = NAN;
		return NAN;
	}
	*lo = s.min;
	*hi = s.max;
	*cv = s.cv;
	return s.median;
}

static int hcell_fill(struct hcell *c, const json_t *jc)
{
	const json_t *smp;
	double *v;
	size_t i, n;
	unsigned m, p, k;

	c->key = jstr(jc, "key", "");
	c->label = jstr(jc, "label", c->key);
	c->status = jstr(jc, "status", "ok");
	c->reason = jstr(jc, "reason", NULL);
	c->identity = json_object_get(jc, "identity");
	c->samples = json_object_get(jc, "samples");
	n = json_array_size(c->samples);
	c->n = (unsigned)n;
	v = calloc(n ? n : 1, sizeof(*v) * (MET_NR + 2 * HPCT_NR + 1));
	if (!v)
		return -ENOMEM;
	json_array_foreach(c->samples, i, smp) {
		const json_t *lat, *iop = json_object_get(smp, "iopath");
		double mv[MET_NR], to_ns = 1;

		metrics_from_job(smp, mv);
		for (m = 0; m < MET_NR; m++)
			v[m * n + i] = mv[m];
		lat = metrics_clat(smp, &to_ns);
		for (p = 0; p < HPCT_NR; p++)
			v[(MET_NR + p) * n + i] = lat ? metrics_percentile(lat, hpct_points[p], to_ns) : NAN;
		v[(MET_NR + HPCT_NR) * n + i] = lat ? metrics_percentile(lat, 1, to_ns) : NAN;
		lat = metrics_lat_sched(smp);
		for (p = 0; p < HPCT_NR; p++)
			v[(MET_NR + HPCT_NR + 1 + p) * n + i] =
				lat ? metrics_percentile(lat, hpct_points[p], 1) : NAN;
		if (!c->direct_note && jstr(iop, "direct_not_honoured", NULL))
			c->direct_note = jstr(iop, "direct_not_honoured", NULL);
	}
	/* the medians of the values present */
	for (m = 0; m < MET_NR + 2 * HPCT_NR + 1; m++) {
		double *x = v + m * n, lo, hi, cv, med;

		for (i = 0, k = 0; i < n; i++)
			if (!isnan(x[i]))
				x[k++] = x[i];
		med = median_of(x, k, &lo, &hi, &cv);
		if (m < MET_NR) {
			c->med[m] = med;
			c->min[m] = lo;
			c->max[m] = hi;
			c->cv[m] = cv;
		} else if (m < MET_NR + HPCT_NR) {
			c->pct[m - MET_NR] = med;
		} else if (m == MET_NR + HPCT_NR) {
			c->p1 = med;
		} else {
			c->spct[m - MET_NR - HPCT_NR - 1] = med;
		}
	}
	free(v);
	return 0;
}

int hset_load(struct hset *s, const json_t *doc)
{
	const json_t *cells = json_object_get(doc, "cells"), *jc;
	size_t i;

	memset(s, 0, sizeof(*s));
	s->doc = doc;
	s->cells = calloc(json_array_size(cells) + 1, sizeof(*s->cells));
	if (!s->cells)
		return -ENOMEM;
	json_array_foreach(cells, i, jc) {
		if (hcell_fill(&s->cells[s->nr], jc)) {
			hset_free(s);
			return -ENOMEM;
		}
		s->nr++;
	}
	/* the identity keys that vary, in the first cell's order, then any others */
	for (i = 0; i < s->nr; i++) {
		const char *k;
		json_t *val;

		json_object_foreach((json_t *)s->cells[i].identity, k, val) {
			unsigned a, b;
			bool differs = false, have = false;

			(void)val;
			for (a = 0; a < s->nkeys && !have; a++)
				have = !strcmp(s->keys[a], k);
			for (b = 1; b < s->nr && !differs; b++)
				differs = strcmp(hcell_get(&s->cells[b], k), hcell_get(&s->cells[0], k));
			if (!have && differs && s->nkeys < sizeof(s->keys) / sizeof(s->keys[0]))
				s->keys[s->nkeys++] = k;
		}
	}
	return 0;
}

void hset_free(struct hset *s)
{
	free(s->cells);
	s->cells = NULL;
	s->nr = 0;
}

static bool in_list(const char *k, const char *const *skip)
{
	for (; skip && *skip; skip++)
		if (!strcmp(*skip, k))
			return true;
	return false;
}

void hcell_name(const struct hset *s, const struct hcell *c, const char *const *skip, char *buf,
		size_t len)
{
	size_t used = 0;
	unsigned i;

	buf[0] = '\0';
	for (i = 0; i < s->nkeys && used < len; i++) {
		const char *k = s->keys[i], *v = hcell_get(c, k);

		/* a key only some cells have (explain's fsync) is no part of the others' names */
		if (in_list(k, skip) || !*v)
			continue;
		if (!strcmp(k, "engine") || !strcmp(k, "target") || !strcmp(k, "job") ||
		    !strcmp(k, "workload") || !strcmp(k, "rw"))
			used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? " " : "", v);
		else
			used += (size_t)snprintf(buf + used, len - used, "%s%s=%s", used ? " " : "",
						 !strcmp(k, "iodepth") ? "qd" : k, v);
	}
	if (!buf[0])
		snprintf(buf, len, "%s", skip && skip[0] ? "all" : c->label);
}
