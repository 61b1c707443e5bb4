/* The HTML report's results: the cells' table and charts, and the suite's table and heat map. */
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

/* Lines per latency chart, cells per bar chart: beyond that a chart is split. */
#define LINES_PER_CHART 10
#define CATS_PER_CHART 48
/* Rows beyond which a table scrolls in a box of its own, so that the charts stay in reach. */
#define TALL_ROWS 40

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
	v = calloc(n ? n : 1, sizeof(*v) * (MET_NR + HPCT_NR));
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
		if (!c->direct_note && jstr(iop, "direct_not_honoured", NULL))
			c->direct_note = jstr(iop, "direct_not_honoured", NULL);
	}
	/* the medians of the values present */
	for (m = 0; m < MET_NR + HPCT_NR; m++) {
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
		} else {
			c->pct[m - MET_NR] = med;
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

		if (in_list(k, skip))
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

void h_chart_lines(FILE *f, const struct svg_chart *c)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	/* drawn aside first: a chart with nothing to draw leaves no empty figure */
	if (!m)
		return;
	if (!svg_lines(m, c) && !fflush(m) && len)
		fprintf(f, "<figure>%s</figure>\n", buf);
	fclose(m);
	free(buf);
}

void h_chart_bars(FILE *f, const struct svg_chart *c)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		return;
	if (!svg_bars(m, c) && !fflush(m) && len)
		fprintf(f, "<figure>%s</figure>\n", buf);
	fclose(m);
	free(buf);
}

static void fmt_val(char *b, size_t len, enum metric_id m, double v)
{
	if (isnan(v)) {
		snprintf(b, len, "-");
		return;
	}
	svg_fmt_num(b, len, v / metric_table[m].display_div);
}

/* The results table: the varying identity, then every metric's median (sortable). */
static void cells_table(FILE *f, const struct hset *s, const char *id)
{
	unsigned i, k, m;
	char b[96];

	fprintf(f, "<h3>Results</h3>\n<p class=\"muted\">Medians over each cell's repeats; "
		"CV: the repeats' coefficient of variation (above 10%% a cell is not reliable). "
		"Click a column to sort.</p>\n<div class=\"scroll%s\"><table class=\"sortable results\" id=\"%s-table\"><thead><tr>",
		s->nr > TALL_ROWS ? " tall" : "", id);
	if (!s->nkeys)
		fputs("<th data-key=\"label\">cell</th>", f);
	for (k = 0; k < s->nkeys; k++) {
		fputs("<th data-key=\"", f);
		h_text(f, s->keys[k]);
		fputs("\">", f);
		h_text(f, s->keys[k]);
		fputs("</th>", f);
	}
	fputs("<th data-key=\"status\">status</th><th data-key=\"n\">n</th>"
	      "<th data-key=\"iops\">IOPS</th><th data-key=\"iops_range\">IOPS min&ndash;max</th>"
	      "<th data-key=\"cv\">CV</th><th data-key=\"bw\">MiB/s</th>"
	      "<th data-key=\"clat_p50\">p50 &micro;s</th><th data-key=\"clat_p99\">p99 &micro;s</th>"
	      "<th data-key=\"clat_p99.9\">p99.9 &micro;s</th><th data-key=\"p99.99\">p99.99 &micro;s</th>"
	      "</tr></thead><tbody>\n", f);
	for (i = 0; i < s->nr; i++) {
		const struct hcell *c = &s->cells[i];

		fputs("<tr data-cell=\"", f);
		h_text(f, c->key);
		fprintf(f, "\" class=\"%s\">", strcmp(c->status, "ok") ? "failed" : "");
		if (!s->nkeys) {
			fputs("<td>", f);
			h_text(f, c->label);
			fputs("</td>", f);
		}
		for (k = 0; k < s->nkeys; k++) {
			const char *v = hcell_get(c, s->keys[k]);
			char *end;
			double x = strtod(v, &end);

			/* numbers sort as numbers: "32" after "4" */
			if (*v && !*end)
				fprintf(f, "<td data-v=\"%.17g\">", x);
			else
				fputs("<td>", f);
			h_text(f, v);
			fputs("</td>", f);
		}
		fprintf(f, "<td class=\"st-%s\"", strcmp(c->status, "ok") ? c->status : "ok");
		if (c->reason) {
			fputs(" title=\"", f);
			h_text(f, c->reason);
			fputc('"', f);
		}
		fputc('>', f);
		h_text(f, c->status);
		if (c->reason) {
			fputs(": <span class=\"muted\">", f);
			h_text(f, c->reason);
			fputs("</span>", f);
		}
		fputs("</td>", f);
		snprintf(b, sizeof(b), "%u", c->n);
		h_num_td(f, c->n, b);
		fmt_val(b, sizeof(b), MET_IOPS, c->med[MET_IOPS]);
		h_num_td(f, c->med[MET_IOPS], b);
		if (c->n > 1 && !isnan(c->min[MET_IOPS])) {
			char lo[32], hi[32];

			svg_fmt_num(lo, sizeof(lo), c->min[MET_IOPS]);
			svg_fmt_num(hi, sizeof(hi), c->max[MET_IOPS]);
			snprintf(b, sizeof(b), "%s\xe2\x80\x93%s", lo, hi);
			h_num_td(f, c->max[MET_IOPS] - c->min[MET_IOPS], b);
		} else {
			h_num_td(f, NAN, "");
		}
		if (c->n > 1 && !isnan(c->cv[MET_IOPS])) {
			snprintf(b, sizeof(b), "%.1f%%%s", 100 * c->cv[MET_IOPS],
				 c->cv[MET_IOPS] > 0.1 ? " !" : "");
			h_num_td(f, c->cv[MET_IOPS], b);
		} else {
			h_num_td(f, NAN, "");
		}
		fmt_val(b, sizeof(b), MET_BW, c->med[MET_BW]);
		h_num_td(f, c->med[MET_BW], b);
		for (m = MET_CLAT_P50; m <= MET_CLAT_P999; m++) {
			fmt_val(b, sizeof(b), m, c->med[m]);
			h_num_td(f, c->med[m], b);
		}
		svg_fmt_num(b, sizeof(b), c->pct[HPCT_NR - 1] / 1000);
		h_num_td(f, c->pct[HPCT_NR - 1], b);
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table></div>\n", f);
}

/* The distinct values of key among the cells (in order of appearance); returns how many. */
static unsigned distinct(const struct hset *s, const char *key, const char **out, unsigned max)
{
	unsigned i, k, n = 0;

	for (i = 0; i < s->nr; i++) {
		const char *v = hcell_get(&s->cells[i], key);

		for (k = 0; k < n && strcmp(out[k], v); k++)
			;
		if (k == n && n < max)
			out[n++] = v;
	}
	return n;
}

static bool has_key(const struct hset *s, const char *key)
{
	for (unsigned k = 0; k < s->nkeys; k++)
		if (!strcmp(s->keys[k], key))
			return true;
	return false;
}

#define MAXV 256

/* Bars of metric m for the cells of one target: categories = the rest, a series per engine. */
static void bars_for(FILE *f, const struct hset *s, const char *target, enum metric_id m)
{
	static const char *const skip[] = { "target", "engine", NULL };
	const char *engines[MAXV], **cats = NULL;
	char (*names)[160] = NULL, title[256];
	struct svg_series ser[MAXV];
	double *y = NULL;
	unsigned ne, ncat = 0, i, e, start;
	bool by_engine = has_key(s, "engine");

	ne = by_engine ? distinct(s, "engine", engines, MAXV) : 1;
	if (!by_engine)
		engines[0] = metric_table[m].title;
	names = calloc(s->nr + 1, sizeof(*names));
	cats = calloc(s->nr + 1, sizeof(*cats));
	y = malloc((s->nr + 1) * ne * sizeof(*y));
	if (!names || !cats || !y)
		goto out;
	for (i = 0; i < (s->nr + 1) * ne; i++)
		y[i] = NAN;
	for (i = 0; i < s->nr; i++) {
		const struct hcell *c = &s->cells[i];
		unsigned k;

		if (target && strcmp(hcell_get(c, "target"), target))
			continue;
		hcell_name(s, c, skip, names[ncat], sizeof(names[0]));
		for (k = 0; k < ncat && strcmp(cats[k], names[ncat]); k++)
			;
		if (k == ncat) {
			cats[ncat] = names[ncat];
			ncat++;
		}
		for (e = 0; e < ne && by_engine && strcmp(engines[e], hcell_get(c, "engine")); e++)
			;
		if (e < ne && !strcmp(c->status, "ok"))
			y[e * s->nr + k] = c->med[m] / metric_table[m].display_div;
	}
	for (start = 0; start < ncat; start += CATS_PER_CHART) {
		unsigned n = ncat - start < CATS_PER_CHART ? ncat - start : CATS_PER_CHART;
		struct svg_chart c = {
			.title = title, .ylabel = metric_table[m].unit, .ncat = n, .cats = cats + start,
			.nser = ne, .ser = ser, .mark_x = NAN, .unit = metric_table[m].unit,
		};

		for (e = 0; e < ne; e++)
			ser[e] = (struct svg_series){ .name = engines[e], .n = n, .y = y + e * s->nr + start };
		snprintf(title, sizeof(title), "%s%s%s%s", metric_table[m].title,
			 by_engine ? " per engine" : "", target ? " on " : "", target ? target : "");
		if (ncat > CATS_PER_CHART)
			snprintf(title + strlen(title), sizeof(title) - strlen(title), " (%u-%u of %u)",
				 start + 1, start + n, ncat);
		h_chart_bars(f, &c);
	}
out:
	free(names);
	free(cats);
	free(y);
}

static bool latency_drawn(const struct hcell *c, const char *target)
{
	return !strcmp(c->status, "ok") && (!target || !strcmp(hcell_get(c, "target"), target)) &&
	       !isnan(c->pct[0]);
}

/* Latency charts per target beyond which the table alone has the percentiles. */
#define LAT_CHARTS_MAX 16

/*
 * Latency percentile curves p50..p99.99 (log latency) of the target's cells: a chart per
 * group of cells that differ only in the engine (the engines compared), else ten a chart.
 */
static void latency_for(FILE *f, const struct hset *s, const char *target)
{
	static const char *const skip[] = { "target", NULL }, *const skip_eng[] = { "target", "engine", NULL };
	static const unsigned ticks[] = { 0, 1, 3, 5, 7 };	/* p50 p90 p99 p99.9 p99.99 */
	static double xs[HPCT_NR], tx[5];
	static const char *tl[5];
	struct svg_series ser[LINES_PER_CHART];
	double y[LINES_PER_CHART][HPCT_NR];
	char names[LINES_PER_CHART][160], title[256], group[160], g2[160];
	unsigned char *done = calloc(s->nr + 1, 1);
	unsigned i, j, n, total = 0, charts = 0, p;
	bool by_group = has_key(s, "engine");

	if (!done)
		return;
	for (p = 0; p < HPCT_NR; p++)
		xs[p] = -log10(1 - hpct_points[p] / 100);
	for (p = 0; p < 5; p++) {
		tx[p] = xs[ticks[p]];
		tl[p] = hpct_keys[ticks[p]];
	}
	for (i = 0; i < s->nr; i++)
		total += latency_drawn(&s->cells[i], target);
	for (i = 0; i < s->nr && charts < LAT_CHARTS_MAX; i++) {
		if (done[i] || !latency_drawn(&s->cells[i], target))
			continue;
		hcell_name(s, &s->cells[i], skip_eng, group, sizeof(group));
		n = 0;
		for (j = i; j < s->nr && n < LINES_PER_CHART; j++) {
			const struct hcell *c = &s->cells[j];

			if (done[j] || !latency_drawn(c, target))
				continue;
			if (by_group) {
				hcell_name(s, c, skip_eng, g2, sizeof(g2));
				if (strcmp(g2, group))
					continue;
			}
			done[j] = 1;
			if (by_group)
				snprintf(names[n], sizeof(names[0]), "%s", hcell_get(c, "engine"));
			else
				hcell_name(s, c, skip, names[n], sizeof(names[0]));
			if (!strcmp(names[n], "all"))
				snprintf(names[n], sizeof(names[0]), "%s", c->label);
			for (p = 0; p < HPCT_NR; p++)
				y[n][p] = c->pct[p] / 1000;
			ser[n] = (struct svg_series){ .name = names[n], .n = HPCT_NR, .x = xs, .y = y[n] };
			n++;
		}
		{
			struct svg_chart ch = {
				.title = title, .xlabel = "percentile", .ylabel = "completion latency (us)",
				.ylog = true, .nxticks = 5, .xticks = tx, .xticklabels = tl,
				.nxpoints = HPCT_NR, .xpoints = xs, .xpointlabels = hpct_keys,
				.nser = n, .ser = ser, .mark_x = NAN, .unit = "us",
			};

			snprintf(title, sizeof(title), "Latency percentiles%s%s%s%s",
				 target ? " on " : "", target ? target : "",
				 by_group && strcmp(group, "all") ? ", " : "",
				 by_group && strcmp(group, "all") ? group : "");
			h_chart_lines(f, &ch);
			charts++;
		}
	}
	for (i = 0, n = 0; i < s->nr; i++)
		n += done[i];
	if (n < total)
		fprintf(f, "<p class=\"muted\">Latency curves of %u more cells are left out; the table has their percentiles.</p>\n",
			total - n);
	free(done);
}

/* IOPS against iodepth: a line per engine (and the other varying options) of the target. */
static void qd_for(FILE *f, const struct hset *s, const char *target)
{
	static const char *const skip[] = { "target", "iodepth", NULL };
	struct svg_series *ser = NULL;
	char (*names)[160] = NULL, title[256];
	double *xs = NULL, *ys = NULL, qd[MAXV];
	const char *qds[MAXV];
	unsigned nq, i, k, n = 0;

	nq = distinct(s, "iodepth", qds, MAXV);
	for (i = 0; i < nq; i++)
		qd[i] = strtod(qds[i], NULL);
	ser = calloc(s->nr + 1, sizeof(*ser));
	names = calloc(s->nr + 1, sizeof(*names));
	xs = calloc((s->nr + 1) * nq, sizeof(*xs));
	ys = calloc((s->nr + 1) * nq, sizeof(*ys));
	if (!ser || !names || !xs || !ys)
		goto out;
	for (i = 0; i < s->nr; i++) {
		const struct hcell *c = &s->cells[i];
		unsigned q;

		if (target && strcmp(hcell_get(c, "target"), target))
			continue;
		hcell_name(s, c, skip, names[n], sizeof(names[0]));
		for (k = 0; k < n && strcmp(names[k], names[n]); k++)
			;
		if (k == n) {
			ser[n] = (struct svg_series){ .name = names[n], .n = nq, .x = xs + n * nq,
						      .y = ys + n * nq };
			for (q = 0; q < nq; q++) {
				xs[n * nq + q] = qd[q];
				ys[n * nq + q] = NAN;
			}
			n++;
		}
		for (q = 0; q < nq && strcmp(qds[q], hcell_get(c, "iodepth")); q++)
			;
		if (q < nq && !strcmp(c->status, "ok"))
			ys[k * nq + q] = c->med[MET_IOPS];
	}
	/* lines from the smallest depth to the largest */
	for (k = 0; k < n; k++)
		for (i = 1; i < nq; i++)
			for (unsigned j = i; j > 0 && ser[k].x[j - 1] > ser[k].x[j]; j--) {
				double *x = (double *)ser[k].x, *y = (double *)ser[k].y, t;

				t = x[j]; x[j] = x[j - 1]; x[j - 1] = t;
				t = y[j]; y[j] = y[j - 1]; y[j - 1] = t;
			}
	for (k = 0; k < n; k += LINES_PER_CHART) {
		struct svg_chart c = {
			.title = title, .xlabel = "iodepth (requests in flight)", .ylabel = "IOPS",
			.xlog = true, .nser = n - k < LINES_PER_CHART ? n - k : LINES_PER_CHART,
			.ser = ser + k, .mark_x = NAN, .unit = "IOPS",
		};
		double tv[MAXV];

		for (i = 0; i < nq; i++)
			tv[i] = qd[i];
		c.nxticks = nq;
		c.xticks = tv;
		c.xticklabels = qds;
		snprintf(title, sizeof(title), "Queue-depth scaling%s%s", target ? " on " : "",
			 target ? target : "");
		if (n > LINES_PER_CHART)
			snprintf(title + strlen(title), sizeof(title) - strlen(title), " (%u-%u of %u)",
				 k + 1, k + c.nser, n);
		h_chart_lines(f, &c);
	}
out:
	free(ser);
	free(names);
	free(xs);
	free(ys);
}

void html_results(FILE *f, const struct hset *s, const char *id)
{
	const char *targets[MAXV];
	unsigned nt = 0, t, ok = 0, i;
	bool facet = has_key(s, "target");

	if (!s->nr)
		return;
	cells_table(f, s, id);
	for (i = 0; i < s->nr; i++)
		ok += !strcmp(s->cells[i].status, "ok") && !isnan(s->cells[i].med[MET_IOPS]);
	if (!ok)
		return;
	if (facet)
		nt = distinct(s, "target", targets, MAXV);
	for (t = 0; t < (facet ? nt : 1); t++) {
		const char *tg = facet ? targets[t] : NULL;

		fputs("<h3>Charts", f);
		if (tg) {
			fputs(": ", f);
			h_text(f, tg);
		}
		fputs("</h3>\n<div class=\"charts\">\n", f);
		bars_for(f, s, tg, MET_IOPS);
		bars_for(f, s, tg, MET_BW);
		if (has_key(s, "iodepth"))
			qd_for(f, s, tg);
		latency_for(f, s, tg);
		fputs("</div>\n", f);
	}
}

/* suite vm-paths: its table, and "x reference" as a heat map of tests against paths. */
void html_suite_rows(FILE *f, const json_t *suite, const char *id)
{
	const json_t *rows = json_object_get(suite, "rows"), *r;
	const char *tests[MAXV], *paths[MAXV], **text = NULL;
	char (*tb)[32] = NULL, (*pb)[96] = NULL;
	unsigned nt = 0, np = 0, a, b;
	double *v = NULL;
	size_t i;

	if (!json_array_size(rows))
		return;
	fprintf(f, "<h3>%s</h3>\n<p class=\"muted\">", "Suite: each test on each path");
	h_textf(f, "x %s: %s. Median of %lld repeats.", jstr(suite, "reference", "?"),
		jstr(suite, "ratio", ""), (long long)json_integer_value(json_object_get(suite, "repeat")));
	fprintf(f, "</p>\n<div class=\"scroll\"><table class=\"sortable suite\" id=\"%s-suite\"><thead><tr>"
		"<th>test</th><th>path</th><th>metric</th><th>median</th><th>min</th><th>max</th><th>x ",
		id);
	h_text(f, jstr(suite, "reference", "reference"));
	fputs("</th><th>note</th></tr></thead><tbody>\n", f);
	pb = calloc(json_array_size(rows) + 1, sizeof(*pb));
	if (!pb)
		return;
	json_array_foreach(rows, i, r) {
		const char *from = jstr(r, "from", ""), *to = jstr(r, "to", from);
		double ratio = json_number_value(json_object_get(r, "ratio_to_reference"));
		char bb[48];

		if (strcmp(from, to))
			snprintf(pb[i], sizeof(pb[i]), "%s \xe2\x86\x92 %s", from, to);
		else
			snprintf(pb[i], sizeof(pb[i]), "%s", from);
		fputs("<tr><td>", f);
		h_text(f, jstr(r, "test", "?"));
		fputs("</td><td>", f);
		h_text(f, pb[i]);
		fputs("</td><td>", f);
		h_text(f, jstr(r, "metric", ""));
		fputs("</td>", f);
		svg_fmt_num(bb, sizeof(bb), json_number_value(json_object_get(r, "median")));
		h_num_td(f, json_number_value(json_object_get(r, "median")), bb);
		svg_fmt_num(bb, sizeof(bb), json_number_value(json_object_get(r, "min")));
		h_num_td(f, json_number_value(json_object_get(r, "min")), bb);
		svg_fmt_num(bb, sizeof(bb), json_number_value(json_object_get(r, "max")));
		h_num_td(f, json_number_value(json_object_get(r, "max")), bb);
		snprintf(bb, sizeof(bb), "%.2f", ratio);
		h_num_td(f, json_is_number(json_object_get(r, "ratio_to_reference")) ? ratio : NAN, bb);
		fputs("<td>", f);
		if (json_is_true(json_object_get(r, "spread_too_wide")))
			fputs("repeats spread too wide to judge ", f);
		if (json_is_true(json_object_get(r, "direct_fallback")))
			fputs("<b>NOT direct I/O</b> (fell back to buffered)", f);
		fputs("</td></tr>\n", f);
		for (a = 0; a < nt && strcmp(tests[a], jstr(r, "test", "?")); a++)
			;
		if (a == nt && nt < MAXV)
			tests[nt++] = jstr(r, "test", "?");
		for (b = 0; b < np && strcmp(paths[b], pb[i]); b++)
			;
		if (b == np && np < MAXV)
			paths[np++] = pb[i];
	}
	fputs("</tbody></table></div>\n", f);
	v = malloc(nt * np * sizeof(*v) + 1);
	text = calloc(nt * np + 1, sizeof(*text));
	tb = calloc(nt * np + 1, sizeof(*tb));
	if (!v || !text || !tb)
		goto out;
	for (a = 0; a < nt * np; a++)
		v[a] = NAN;
	json_array_foreach(rows, i, r) {
		double ratio = json_number_value(json_object_get(r, "ratio_to_reference"));

		for (a = 0; a < nt && strcmp(tests[a], jstr(r, "test", "?")); a++)
			;
		for (b = 0; b < np && strcmp(paths[b], pb[i]); b++)
			;
		if (a < nt && b < np && json_is_number(json_object_get(r, "ratio_to_reference"))) {
			v[a * np + b] = ratio;
			snprintf(tb[a * np + b], sizeof(tb[0]), "%.2f\xc3\x97%s", ratio,
				 json_is_true(json_object_get(r, "spread_too_wide")) ? " !" : "");
			text[a * np + b] = tb[a * np + b];
		}
	}
	{
		char title[160], legend[200];
		struct svg_heat h = {
			.title = title, .rows = nt, .cols = np, .rowlabels = tests, .collabels = paths,
			.v = v, .text = text, .legend = legend,
		};
		char *buf = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&buf, &len);

		snprintf(title, sizeof(title), "How many times longer than on %s",
			 jstr(suite, "reference", "the reference"));
		snprintf(legend, sizeof(legend), "red: slower than %s, blue: faster, white: the same; !: repeats too spread to judge",
			 jstr(suite, "reference", "the reference"));
		if (m && !svg_heatmap(m, &h) && !fflush(m))
			fprintf(f, "<figure>%s</figure>\n", buf);
		if (m)
			fclose(m);
		free(buf);
	}
out:
	free(v);
	free(text);
	free(tb);
	free(pb);
}
