/*
 * The HTML report's charts of a set of cells, as fio-plot draws them and more: per rw x bs
 * (whatever else varies besides engine, target and iodepth), IOPS and latency against iodepth,
 * a line per engine and target with its band, and bars per engine x path; then each cell's
 * latency percentiles, folded.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/html_int.h"

/* Lines on one chart (the palette's colours), and depths on its x axis. */
#define LINES_PER_CHART 12
#define MAXQ 64
#define MAXV 256
/* Latency percentile charts beyond which the table alone has the percentiles. */
#define LAT_CHARTS_MAX 16

/* A chart drawn aside first, then wrapped in its figure: one with nothing to draw leaves none. */
static void h_chart(FILE *f, const struct svg_chart *c, int (*draw)(FILE *, const struct svg_chart *))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		return;
	if (!draw(m, c) && !fflush(m) && len)
		fprintf(f, "<figure>%s</figure>\n", buf);
	fclose(m);
	free(buf);
}

void h_chart_lines(FILE *f, const struct svg_chart *c)
{
	h_chart(f, c, svg_lines);
}

void h_chart_bars(FILE *f, const struct svg_chart *c)
{
	h_chart(f, c, svg_bars);
}

/* What the charts group by: engines (colours), targets (dashes), depths (x) and the facets. */
struct facets {
	const char *eng[MAXV], *tgt[MAXV], *qds[MAXQ];
	double qd[MAXQ];
	unsigned ne, nt, nq, n;
	char (*name)[160];	/* per facet: the other varying keys, "randread bs=4k" */
	unsigned *of;		/* per cell: its facet */
};

static bool has_key(const struct hset *s, const char *key)
{
	for (unsigned k = 0; k < s->nkeys; k++)
		if (!strcmp(s->keys[k], key))
			return true;
	return false;
}

/* v's place among the n in list, added when new (up to max); max when full. */
static unsigned index_of(const char **list, unsigned *n, unsigned max, const char *v)
{
	unsigned k;

	for (k = 0; k < *n && strcmp(list[k], v); k++)
		;
	if (k == *n && *n < max)
		list[(*n)++] = v;
	return k < max ? k : max;
}

static void facets_free(struct facets *fc)
{
	free(fc->name);
	free(fc->of);
}

/*
 * A facet's name: its rw and bs always (fio-plot's charts are per rw x bs; a sweep of one
 * pattern and one block size is "randread bs=4k", not "all"), then its other varying keys.
 */
static void facet_name(const struct hset *s, const struct hcell *c, char *buf, size_t len)
{
	static const char *const skip[] = { "engine", "target", "iodepth", "rw", "bs", NULL };
	const char *rw = hcell_get(c, "rw"), *bs = hcell_get(c, "bs");
	char rest[160];
	bool more;

	hcell_name(s, c, skip, rest, sizeof(rest));
	more = strcmp(rest, "all");
	if (!*rw && !*bs) {
		snprintf(buf, len, "%s", rest);
		return;
	}
	if (snprintf(buf, len, "%s%s%s%s%s%s", rw, *rw && *bs ? " " : "", *bs ? "bs=" : "", bs,
		     more ? " " : "", more ? rest : "") < 0)
		buf[0] = '\0';
}

static int facets_load(struct facets *fc, const struct hset *s)
{
	unsigned i, k;

	memset(fc, 0, sizeof(*fc));
	fc->name = calloc(s->nr + 1, sizeof(*fc->name));
	fc->of = calloc(s->nr + 1, sizeof(*fc->of));
	if (!fc->name || !fc->of) {
		facets_free(fc);
		return -ENOMEM;
	}
	for (i = 0; i < s->nr; i++) {
		const struct hcell *c = &s->cells[i];
		char name[160];

		index_of(fc->eng, &fc->ne, MAXV, hcell_get(c, "engine"));
		index_of(fc->tgt, &fc->nt, MAXV, hcell_get(c, "target"));
		if (has_key(s, "iodepth"))
			index_of(fc->qds, &fc->nq, MAXQ, hcell_get(c, "iodepth"));
		facet_name(s, c, name, sizeof(name));
		for (k = 0; k < fc->n && strcmp(fc->name[k], name); k++)
			;
		if (k == fc->n)
			memcpy(fc->name[fc->n++], name, sizeof(name));
		fc->of[i] = k;
	}
	/* depths from the smallest */
	for (i = 0; i < fc->nq; i++)
		fc->qd[i] = strtod(fc->qds[i], NULL);
	for (i = 1; i < fc->nq; i++)
		for (k = i; k > 0 && fc->qd[k - 1] > fc->qd[k]; k--) {
			double t = fc->qd[k];
			const char *ts = fc->qds[k];

			fc->qd[k] = fc->qd[k - 1];
			fc->qds[k] = fc->qds[k - 1];
			fc->qd[k - 1] = t;
			fc->qds[k - 1] = ts;
		}
	return 0;
}

static unsigned find(const char *const *list, unsigned n, const char *v)
{
	unsigned k;

	for (k = 0; k < n && strcmp(list[k], v); k++)
		;
	return k;
}

/* A line's name: its engine, and its target where there are several. */
static void line_name(const struct facets *fc, unsigned e, unsigned t, char *b, size_t len)
{
	if (fc->ne > 1 && fc->nt > 1)
		snprintf(b, len, "%s on %s", fc->eng[e], fc->tgt[t]);
	else if (fc->nt > 1)
		snprintf(b, len, "%s", fc->tgt[t]);
	else
		snprintf(b, len, "%s", *fc->eng[e] ? fc->eng[e] : "all");
}

static bool drawn(const struct hcell *c)
{
	return !strcmp(c->status, "ok") && !isnan(c->med[MET_IOPS]);
}

/* One facet's lines against iodepth: a series per engine x target, a point per depth. */
struct lines {
	unsigned n;
	unsigned et[MAXV];	/* engine * nt + target of each line */
	double y[LINES_PER_CHART][MAXQ], lo[LINES_PER_CHART][MAXQ], hi[LINES_PER_CHART][MAXQ];
	char names[LINES_PER_CHART][160];
	struct svg_series ser[LINES_PER_CHART];
};

enum qd_what { QD_IOPS, QD_LAT };

/* The value of c drawn at its depth, and its band: IOPS (the repeats' range) or latency. */
static void qd_point(const struct hcell *c, enum qd_what w, double *y, double *lo, double *hi)
{
	if (w == QD_IOPS) {
		*y = c->med[MET_IOPS];
		*lo = c->n > 1 ? c->min[MET_IOPS] : NAN;
		*hi = c->n > 1 ? c->max[MET_IOPS] : NAN;
	} else {
		*y = c->med[MET_CLAT_P50] / metric_table[MET_CLAT_P50].display_div;
		*lo = c->p1 / metric_table[MET_CLAT_P50].display_div;
		*hi = c->med[MET_CLAT_P99] / metric_table[MET_CLAT_P99].display_div;
	}
}

/* Lines first..first+L->n of facet k drawn as one chart of w. */
static void qd_chart(FILE *f, const struct hset *s, const struct facets *fc, unsigned k,
		     struct lines *L, unsigned first, enum qd_what w)
{
	char title[256];
	unsigned i, j, q, n = L->n - first < LINES_PER_CHART ? L->n - first : LINES_PER_CHART;
	struct svg_chart ch = {
		.title = title, .xlabel = "iodepth (requests in flight)", .xlog = true,
		.nxticks = fc->nq, .xticks = fc->qd, .xticklabels = fc->qds, .nser = n, .ser = L->ser,
		.mark_x = NAN,
	};

	for (j = 0; j < n; j++) {
		unsigned e = L->et[first + j] / fc->nt, t = L->et[first + j] % fc->nt;

		for (q = 0; q < fc->nq; q++)
			L->y[j][q] = L->lo[j][q] = L->hi[j][q] = NAN;
		for (i = 0; i < s->nr; i++) {
			const struct hcell *c = &s->cells[i];

			if (fc->of[i] != k || !drawn(c) || find(fc->eng, fc->ne, hcell_get(c, "engine")) != e ||
			    find(fc->tgt, fc->nt, hcell_get(c, "target")) != t)
				continue;
			q = find(fc->qds, fc->nq, hcell_get(c, "iodepth"));
			if (q < fc->nq)
				qd_point(c, w, &L->y[j][q], &L->lo[j][q], &L->hi[j][q]);
		}
		line_name(fc, e, t, L->names[j], sizeof(L->names[j]));
		L->ser[j] = (struct svg_series){ .name = L->names[j], .n = fc->nq, .x = fc->qd,
						 .y = L->y[j], .lo = L->lo[j], .hi = L->hi[j],
						 .colour = e % 12 + 1, .dash = t };
	}
	snprintf(title, sizeof(title), "%s against iodepth%s%s", w == QD_IOPS ? "IOPS" : "Latency",
		 *fc->name[k] ? ": " : "", fc->name[k]);
	if (L->n > LINES_PER_CHART)
		snprintf(title + strlen(title), sizeof(title) - strlen(title), " (lines %u-%u of %u)",
			 first + 1, first + n, L->n);
	ch.ylabel = w == QD_IOPS ? "IOPS" : "completion latency (us)";
	ch.unit = w == QD_IOPS ? "IOPS" : "us";
	ch.ylog = w == QD_LAT;
	ch.subtitle = w == QD_IOPS ? "line: median of the repeats; band: their lowest to highest" :
		      "line: p50 (median); band: p1 to p99";
	h_chart_lines(f, &ch);
}

/* Facet k's IOPS and latency against iodepth. */
static void qd_charts(FILE *f, const struct hset *s, const struct facets *fc, unsigned k)
{
	struct lines *L = calloc(1, sizeof(*L));
	unsigned i, first;

	if (!L)
		return;
	for (i = 0; i < s->nr; i++) {
		const struct hcell *c = &s->cells[i];
		unsigned et, j;

		if (fc->of[i] != k || !drawn(c))
			continue;
		et = find(fc->eng, fc->ne, hcell_get(c, "engine")) * fc->nt +
		     find(fc->tgt, fc->nt, hcell_get(c, "target"));
		for (j = 0; j < L->n && L->et[j] != et; j++)
			;
		if (j == L->n && L->n < MAXV)
			L->et[L->n++] = et;
	}
	for (first = 0; first < L->n; first += LINES_PER_CHART) {
		qd_chart(f, s, fc, k, L, first, QD_IOPS);
		qd_chart(f, s, fc, k, L, first, QD_LAT);
	}
	free(L);
}

/* Where c goes among the bars: by engine, then depth (a facet's), or by facet (k < 0). */
static unsigned bar_rank(const struct facets *fc, const struct hcell *c, unsigned facet, int k)
{
	if (k < 0)
		return facet;
	return find(fc->eng, fc->ne, hcell_get(c, "engine")) * (MAXQ + 1) +
	       find(fc->qds, fc->nq, hcell_get(c, "iodepth"));
}

/* The name of c's group of bars. */
static void bar_name(const struct facets *fc, const struct hcell *c, unsigned facet, int k,
		     char *b, size_t len)
{
	if (k < 0)
		snprintf(b, len, "%s", *fc->name[facet] ? fc->name[facet] : c->label);
	else if (fc->nq > 1 && fc->ne > 1)
		snprintf(b, len, "%s qd=%s", hcell_get(c, "engine"), hcell_get(c, "iodepth"));
	else if (fc->nq > 1)
		snprintf(b, len, "qd=%s", hcell_get(c, "iodepth"));
	else
		snprintf(b, len, "%s", *hcell_get(c, "engine") ? hcell_get(c, "engine") : c->label);
}

/* Which of the n groups (each its first cell's index) has rank r; n when none. */
static unsigned group_find(const struct hset *s, const struct facets *fc, int k,
			   const unsigned *first, unsigned n, unsigned r)
{
	unsigned j;

	for (j = 0; j < n && bar_rank(fc, &s->cells[first[j]], fc->of[first[j]], k) != r; j++)
		;
	return j;
}

/* The bars' groups of facet k (all facets when k < 0): sorted, each its cells' first. */
static unsigned bar_groups(const struct hset *s, const struct facets *fc, int k, unsigned *first)
{
	unsigned i, j, n = 0;

	for (i = 0; i < s->nr; i++) {
		const struct hcell *c = &s->cells[i];
		unsigned r = bar_rank(fc, c, fc->of[i], k);

		if (k >= 0 && fc->of[i] != (unsigned)k)
			continue;
		if (group_find(s, fc, k, first, n, r) < n)
			continue;
		for (j = n++; j > 0 && bar_rank(fc, &s->cells[first[j - 1]], fc->of[first[j - 1]], k) > r; j--)
			first[j] = first[j - 1];
		first[j] = i;
	}
	return n;
}

/*
 * Bars of IOPS per engine x path: facet k's cells, a group per engine (and depth), a bar per
 * target; with neither varying, all the facets in one chart (k = -1), a group each. Split
 * evenly where the groups would not fit the page.
 */
static void bars_chart(FILE *f, const struct hset *s, const struct facets *fc, int k)
{
	unsigned *first = calloc(s->nr + 1, sizeof(*first));
	const char **cats = calloc(s->nr + 1, sizeof(*cats));
	char (*names)[200] = calloc(s->nr + 1, sizeof(*names)), title[256];
	double *y = malloc((s->nr + 1) * (fc->nt + 1) * sizeof(*y));
	struct svg_series ser[MAXV];
	unsigned ncat, i, j, t, start, per, charts;

	if (!first || !cats || !names || !y)
		goto out;
	ncat = bar_groups(s, fc, k, first);
	for (i = 0; i < (s->nr + 1) * (fc->nt + 1); i++)
		y[i] = NAN;
	for (j = 0; j < ncat; j++) {
		bar_name(fc, &s->cells[first[j]], fc->of[first[j]], k, names[j], sizeof(names[j]));
		cats[j] = names[j];
	}
	for (i = 0; i < s->nr; i++) {
		const struct hcell *c = &s->cells[i];
		unsigned r = bar_rank(fc, c, fc->of[i], k);

		if (k >= 0 && fc->of[i] != (unsigned)k)
			continue;
		j = group_find(s, fc, k, first, ncat, r);
		t = find(fc->tgt, fc->nt, hcell_get(c, "target"));
		if (drawn(c) && t < fc->nt && j < ncat)
			y[t * s->nr + j] = c->med[MET_IOPS];
	}
	per = svg_bars_max_cats(fc->nt);
	charts = (ncat + per - 1) / per;
	per = charts ? (ncat + charts - 1) / charts : per;
	for (start = 0; start < ncat; start += per) {
		unsigned n = ncat - start < per ? ncat - start : per;
		struct svg_chart c = {
			.title = title, .ylabel = "IOPS", .ncat = n, .cats = cats + start, .nser = fc->nt,
			.ser = ser, .mark_x = NAN, .unit = "IOPS",
			.subtitle = "medians of the repeats; MiB/s is IOPS times the block size",
		};

		for (t = 0; t < fc->nt; t++)
			ser[t] = (struct svg_series){ .name = *fc->tgt[t] ? fc->tgt[t] : "IOPS", .n = n,
						      .y = y + t * s->nr + start };
		snprintf(title, sizeof(title), "IOPS per %s%s%s", k >= 0 && fc->ne > 1 ? "engine" : "cell",
			 fc->nt > 1 ? " and path" : "", k >= 0 && *fc->name[k] ? ": " : "");
		if (k >= 0)
			snprintf(title + strlen(title), sizeof(title) - strlen(title), "%s", fc->name[k]);
		if (ncat > per)
			snprintf(title + strlen(title), sizeof(title) - strlen(title), " (%u-%u of %u)",
				 start + 1, start + n, ncat);
		h_chart_bars(f, &c);
	}
out:
	free(first);
	free(cats);
	free(names);
	free(y);
}

static bool latency_drawn(const struct hcell *c)
{
	return !strcmp(c->status, "ok") && !isnan(c->pct[0]);
}

/* One latency percentile chart: the cells in use[] (all alike but engine and target). */
static void latency_chart(FILE *f, const struct hset *s, const struct facets *fc,
			  const unsigned *use, unsigned n, const char *group)
{
	static const unsigned ticks[] = { 0, 1, 3, 5, 7 };	/* p50 p90 p99 p99.9 p99.99 */
	/* a rate-limited cell draws two: its completion latency and its latency from the schedule */
	double xs[HPCT_NR], tx[5], y[2 * LINES_PER_CHART][HPCT_NR];
	const char *tl[5];
	char names[2 * LINES_PER_CHART][160], title[256];
	struct svg_series ser[2 * LINES_PER_CHART];
	unsigned j, p, k = 0;
	bool sched = false;

	for (p = 0; p < HPCT_NR; p++)
		xs[p] = -log10(1 - hpct_points[p] / 100);
	for (p = 0; p < 5; p++) {
		tx[p] = xs[ticks[p]];
		tl[p] = hpct_keys[ticks[p]];
	}
	for (j = 0; j < n; j++) {
		const struct hcell *c = &s->cells[use[j]];
		unsigned e = find(fc->eng, fc->ne, hcell_get(c, "engine"));
		unsigned t = find(fc->tgt, fc->nt, hcell_get(c, "target"));

		line_name(fc, e, t, names[k], sizeof(names[k]));
		if (!strcmp(names[k], "all"))
			snprintf(names[k], sizeof(names[k]), "%s", c->label);
		for (p = 0; p < HPCT_NR; p++)
			y[k][p] = c->pct[p] / 1000;
		ser[k] = (struct svg_series){ .name = names[k], .n = HPCT_NR, .x = xs, .y = y[k],
					      .colour = e % 12 + 1, .dash = t };
		k++;
		if (isnan(c->spct[0]))
			continue;
		memcpy(names[k], names[k - 1], 130);
		names[k][130] = '\0';
		strcat(names[k], ", from the schedule");
		for (p = 0; p < HPCT_NR; p++)
			y[k][p] = c->spct[p] / 1000;
		ser[k] = (struct svg_series){ .name = names[k], .n = HPCT_NR, .x = xs, .y = y[k],
					      .colour = e % 12 + 1, .dash = t + 1 };
		k++;
		sched = true;
	}
	snprintf(title, sizeof(title), "Latency percentiles%s%s", strcmp(group, "all") ? ": " : "",
		 strcmp(group, "all") ? group : "");
	{
		struct svg_chart ch = {
			.title = title, .xlabel = "percentile",
			.ylabel = sched ? "latency: completion, and from the schedule (us)" :
					  "completion latency (us)",
			.ylog = true, .nxticks = 5, .xticks = tx, .xticklabels = tl,
			.nxpoints = HPCT_NR, .xpoints = xs, .xpointlabels = hpct_keys,
			.nser = k, .ser = ser, .mark_x = NAN, .unit = "us",
		};

		h_chart_lines(f, &ch);
	}
}

/*
 * Each cell's latency percentiles p50..p99.99, a chart per group of cells alike but for the
 * engine and target, folded: the charts above lead.
 */
static void latency_charts(FILE *f, const struct hset *s, const struct facets *fc)
{
	static const char *const skip[] = { "target", "engine", NULL };
	unsigned char *done = calloc(s->nr + 1, 1);
	unsigned use[LINES_PER_CHART], i, j, n, total = 0, shown = 0, charts = 0;
	char group[160], g2[160];

	if (!done)
		return;
	for (i = 0; i < s->nr; i++)
		total += latency_drawn(&s->cells[i]);
	if (!total) {
		free(done);
		return;
	}
	fputs("<details class=\"percentiles\"><summary>Latency percentiles of each cell</summary>\n<div class=\"charts\">\n", f);
	for (i = 0; i < s->nr && charts < LAT_CHARTS_MAX; i++) {
		if (done[i] || !latency_drawn(&s->cells[i]))
			continue;
		hcell_name(s, &s->cells[i], skip, group, sizeof(group));
		for (n = 0, j = i; j < s->nr && n < LINES_PER_CHART; j++) {
			if (done[j] || !latency_drawn(&s->cells[j]))
				continue;
			hcell_name(s, &s->cells[j], skip, g2, sizeof(g2));
			if (strcmp(g2, group))
				continue;
			done[j] = 1;
			use[n++] = j;
		}
		latency_chart(f, s, fc, use, n, group);
		shown += n;
		charts++;
	}
	fputs("</div>\n", f);
	if (shown < total)
		fprintf(f, "<p class=\"muted\">Latency curves of %u more cells are left out; the table has their percentiles.</p>\n",
			total - shown);
	fputs("</details>\n", f);
	free(done);
}

void html_charts(FILE *f, const struct hset *s)
{
	struct facets fc;
	unsigned k, ok = 0, i;

	for (i = 0; i < s->nr; i++)
		ok += drawn(&s->cells[i]);
	if (!ok || facets_load(&fc, s))
		return;
	for (k = 0; k < fc.n; k++) {
		if (fc.nq < 2 && fc.ne < 2)
			break;
		fputs("<h3 class=\"facet\">", f);
		h_text(f, *fc.name[k] ? fc.name[k] : "Charts");
		fputs("</h3>\n<div class=\"charts\">\n", f);
		if (fc.nq > 1)
			qd_charts(f, s, &fc, k);
		bars_chart(f, s, &fc, (int)k);
		fputs("</div>\n", f);
	}
	if (fc.nq < 2 && fc.ne < 2) {
		fputs("<h3>Charts</h3>\n<div class=\"charts\">\n", f);
		bars_chart(f, s, &fc, -1);
		fputs("</div>\n", f);
	}
	latency_charts(f, s, &fc);
	facets_free(&fc);
}
