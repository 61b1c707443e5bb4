/* The HTML report's comparisons: compare's changes with their intervals, and trends across runs. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report/html_int.h"

/* Rows drawn per interval chart: the largest changes; the table has them all. */
#define IV_ROWS 120
#define TREND_LINES 10
/* Items of a list shown open; a longer one is folded. */
#define LIST_OPEN 6

static const char *verdict_class(const char *v, bool fails)
{
	if (!v)
		return "";
	if (!strcmp(v, "regression") || (fails && strcmp(v, "improvement")))
		return "regression";
	if (!strcmp(v, "improvement"))
		return "improvement";
	if (strstr(v, "fail"))
		return "failed";
	return "";
}

static void count(FILE *f, const json_t *cmp, const char *key, const char *what)
{
	const json_t *v = json_object_get(cmp, key);

	if (json_is_integer(v))
		fprintf(f, "<tr><th>%s</th><td class=\"n\" data-key=\"%s\">%lld</td></tr>", what, key,
			(long long)json_integer_value(v));
}

static void str_list(FILE *f, const json_t *a, const char *cls, const char *what)
{
	const json_t *v;
	size_t i;

	bool fold = json_array_size(a) > LIST_OPEN;

	if (!json_array_size(a))
		return;
	/* a long list folds under its count: the answer above stays in view */
	if (fold)
		fprintf(f, "<div class=\"%s\"><details><summary><b>%s</b> %zu</summary><ul>", cls, what,
			json_array_size(a));
	else
		fprintf(f, "<div class=\"%s\"><b>%s</b><ul>", cls, what);
	json_array_foreach(a, i, v) {
		fputs("<li>", f);
		h_text(f, json_is_string(v) ? json_string_value(v) : jstr(v, "label", jstr(v, "key", "?")));
		fputs("</li>", f);
	}
	fputs(fold ? "</ul></details></div>\n" : "</ul></div>\n", f);
}

struct iv_row {
	char label[200];
	double mid, lo, hi;
	const char *cls;
};

static int by_change(const void *a, const void *b)
{
	const struct iv_row *x = a, *y = b;
	double dx = isnan(x->mid) ? -1 : fabs(x->mid), dy = isnan(y->mid) ? -1 : fabs(y->mid);

	return dx < dy ? 1 : dx > dy ? -1 : 0;
}

static double jnum(const json_t *o, const char *k)
{
	const json_t *v = json_object_get(o, k);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* The one-sided bound of a change (JSON null on its open side): "<= -12.3%", ">= +8.1%". */
static void bound_td(FILE *f, double lo, double hi)
{
	char b[48];

	if (!isfinite(lo) && !isfinite(hi)) {
		h_num_td(f, NAN, "");
		return;
	}
	/* the JSON gives the open side as null */
	metrics_bound_text(b, sizeof(b), isfinite(hi) ? -INFINITY : lo, isfinite(hi) ? hi : INFINITY);
	h_num_td(f, isfinite(hi) ? hi : lo, b);
}

/*
 * One interval chart per metric: the cells' change and its one-sided bound; the first
 * metric's open, the others folded under their titles (the page leads with the answer).
 */
static void interval_charts(FILE *f, const json_t *cells, double threshold)
{
	const json_t *c, *mt;
	struct iv_row *rows = calloc(json_array_size(cells) + 1, sizeof(*rows));
	const char **labels = NULL, **cls = NULL;
	double *mid = NULL, *lo = NULL, *hi = NULL;
	unsigned m, drawn = 0;
	size_t i, k;

	labels = calloc(json_array_size(cells) + 1, sizeof(*labels));
	cls = calloc(json_array_size(cells) + 1, sizeof(*cls));
	mid = calloc(json_array_size(cells) + 1, sizeof(*mid));
	lo = calloc(json_array_size(cells) + 1, sizeof(*lo));
	hi = calloc(json_array_size(cells) + 1, sizeof(*hi));
	if (!rows || !labels || !cls || !mid || !lo || !hi)
		goto out;
	for (m = 0; m < MET_NR; m++) {
		unsigned n = 0;
		char title[160];
		bool fold;

		json_array_foreach(cells, i, c) {
			json_array_foreach(json_object_get(c, "metrics"), k, mt) {
				if (strcmp(jstr(mt, "metric", ""), metric_table[m].name))
					continue;
				snprintf(rows[n].label, sizeof(rows[n].label), "%s", jstr(c, "label", jstr(c, "key", "?")));
				/* the interval is of the geometric-mean change where compare gives one */
				rows[n].mid = isnan(jnum(mt, "change_gm")) ? jnum(mt, "change") : jnum(mt, "change_gm");
				/* one-sided: the open side drawn to the estimate */
				rows[n].lo = jnum(mt, "change_ci_lo");
				rows[n].hi = jnum(mt, "change_ci_hi");
				if (isnan(rows[n].lo) && !isnan(rows[n].hi))
					rows[n].lo = rows[n].mid;
				if (isnan(rows[n].hi) && !isnan(rows[n].lo))
					rows[n].hi = rows[n].mid;
				rows[n].cls = verdict_class(jstr(mt, "verdict", NULL),
							    json_is_true(json_object_get(mt, "fails")));
				n++;
			}
		}
		if (!n)
			continue;
		qsort(rows, n, sizeof(*rows), by_change);
		if (n > IV_ROWS)
			snprintf(title, sizeof(title), "%s: change per cell (the %u largest of %u)",
				 metric_table[m].title, IV_ROWS, n);
		else
			snprintf(title, sizeof(title), "%s: change per cell", metric_table[m].title);
		if (n > IV_ROWS)
			n = IV_ROWS;
		for (i = 0; i < n; i++) {
			labels[i] = rows[i].label;
			mid[i] = rows[i].mid;
			lo[i] = rows[i].lo;
			hi[i] = rows[i].hi;
			cls[i] = rows[i].cls;
		}
		{
			struct svg_intervals iv = {
				.title = title, .n = n, .labels = labels, .mid = mid, .lo = lo, .hi = hi,
				.cls = cls, .threshold = threshold,
			};
			char *buf = NULL;
			size_t len = 0;
			FILE *ms = open_memstream(&buf, &len);

			fold = drawn++ > 0;
			if (fold) {
				fputs("<details class=\"metric\"><summary>", f);
				h_text(f, title);
				fputs("</summary>\n", f);
			}
			if (ms && !svg_interval_chart(ms, &iv) && !fflush(ms))
				fprintf(f, "<figure>%s</figure>\n", buf);
			if (fold)
				fputs("</details>\n", f);
			if (ms)
				fclose(ms);
			free(buf);
		}
	}
out:
	free(rows);
	free(labels);
	free(cls);
	free(mid);
	free(lo);
	free(hi);
}

static void pct_td(FILE *f, double v)
{
	char b[32];

	snprintf(b, sizeof(b), "%+.1f%%", 100 * v);
	h_num_td(f, v, b);
}

/* The cells that failed the test, as a list: the largest changes first, ANSWER_CELLS of them. */
#define ANSWER_CELLS 5

/* Regressions (and failures) before improvements, each by the size of the change. */
static int by_verdict(const void *a, const void *b)
{
	const struct iv_row *x = a, *y = b;
	int rx = strcmp(x->cls, "improvement") != 0, ry = strcmp(y->cls, "improvement") != 0;

	return rx != ry ? ry - rx : by_change(a, b);
}

static void answer_cells(FILE *f, const json_t *cells)
{
	struct iv_row rows[64];
	const json_t *c, *mt;
	unsigned n = 0, i;
	size_t a, b;

	json_array_foreach(cells, a, c)
		json_array_foreach(json_object_get(c, "metrics"), b, mt) {
			const char *cls = verdict_class(jstr(mt, "verdict", NULL),
							json_is_true(json_object_get(mt, "fails")));

			if (!*cls || n == sizeof(rows) / sizeof(rows[0]))
				continue;
			snprintf(rows[n].label, sizeof(rows[n].label), "%s: %s %s",
				 jstr(c, "label", jstr(c, "key", "?")), jstr(mt, "metric", "?"),
				 jstr(mt, "verdict", ""));
			rows[n].mid = jnum(mt, "change");
			rows[n].cls = cls;
			n++;
		}
	if (!n)
		return;
	qsort(rows, n, sizeof(*rows), by_verdict);
	fputs("<ul>\n", f);
	for (i = 0; i < n && i < ANSWER_CELLS; i++) {
		fprintf(f, "<li class=\"v-%s\">", rows[i].cls);
		h_textf(f, "%s %+.1f%%", rows[i].label, 100 * rows[i].mid);
		fputs("</li>\n", f);
	}
	fputs("</ul>\n", f);
	if (n > ANSWER_CELLS)
		fprintf(f, "<p class=\"muted\">%u more in the charts and under \"Every cell and metric\" below.</p>\n",
			n - ANSWER_CELLS);
}

/* One side's figure of compare's environment, scaled, in a number cell ("" where absent). */
static void machine_td(FILE *f, const json_t *side, const char *key, double scale, const char *fmt)
{
	double v = jnum(side, key) * scale;
	char b[48] = "";

	if (!isnan(v))
		snprintf(b, sizeof(b), fmt, v);
	h_num_td(f, v, b);
}

/*
 * What else used the machine on each side (compare's "environment", the medians over every
 * repeat): the figures its verdict weighs against the change, folded below the answer.
 */
static void compare_machine(FILE *f, const json_t *cmp)
{
	static const struct {
		const char *key, *what, *fmt;
		double scale;
	} rows[] = {
		{ "other_cpu", "other processes' share of the CPU time", "%.0f%%", 100 },
		{ "steal", "stolen by the hypervisor", "%.0f%%", 100 },
		{ "time_per_io_s", "the workers' time an I/O", "%.0f us", 1e6 },
		{ "runq_wait_per_io_s", "of it waiting for a CPU", "%.0f us", 1e6 },
		{ "runq_wait_per_wakeup_s", "each wait for a CPU (a wakeup)", "%.0f us", 1e6 },
		{ "on_cpu_per_io_s", "of it on a CPU", "%.1f us", 1e6 },
		{ "ref_cpu_ns", "the CPU reference, a round", "%.2f ns", 1 },
		{ "ref_mem_ns", "the memory reference, a load", "%.0f ns", 1 },
		{ "own_in_flight_per_io_s", "an I/O in flight", "%.0f us", 1e6 },
		{ "other_disk_in_flight", "others' requests in flight on the disk (mean)", "%.2f", 1 },
		{ "other_disk_busy", "the disk busy with others' requests alone", "%.0f%%", 100 },
		{ "other_disk_ios_per_s", "others' requests on the disk", "%.0f/s", 1 },
	};
	const json_t *env = json_object_get(cmp, "environment"), *b = json_object_get(env, "base"),
		     *c = json_object_get(env, "cur");
	unsigned i;

	if (!json_is_object(b) && !json_is_object(c))
		return;
	fputs("<details class=\"how machine\"><summary>What else used the machine</summary>\n"
	      "<table class=\"kv\"><thead><tr><th></th><th>BASE</th><th>CUR</th></tr></thead><tbody>", f);
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		if (isnan(jnum(b, rows[i].key)) && isnan(jnum(c, rows[i].key)))
			continue;
		fprintf(f, "<tr><th>%s</th>", rows[i].what);
		machine_td(f, b, rows[i].key, rows[i].scale, rows[i].fmt);
		machine_td(f, c, rows[i].key, rows[i].scale, rows[i].fmt);
		fputs("</tr>", f);
	}
	fputs("</tbody></table>", f);
	if (jstr(env, "why", NULL)) {
		fputs("<p class=\"warn\">The environment differed: ", f);
		h_text(f, jstr(env, "why", ""));
		fputs("</p>", f);
	}
	fputs("</details>\n", f);
}

/* compare's answer first: did CUR regress, by how much where, and how many cells are judged. */
static void compare_answer(FILE *f, const json_t *cmp)
{
	const char *outcome = jstr(cmp, "outcome", "");
	long long reg = json_integer_value(json_object_get(cmp, "regressions"));
	long long imp = json_integer_value(json_object_get(cmp, "improvements"));
	size_t cells = json_array_size(json_object_get(cmp, "cells"));

	fprintf(f, "<div class=\"answer %s\"><p><b>", !strcmp(outcome, "regressed") ? "bad" : "");
	if (!strcmp(outcome, "regressed"))
		h_textf(f, "CUR regressed: %lld regression%s", reg, reg == 1 ? "" : "s");
	else if (!strcmp(outcome, "inconclusive"))
		h_textf(f, "Inconclusive: some cells could not be judged");
	else
		h_textf(f, "No regression");
	fputs("</b> ", f);
	h_textf(f, "(%lld improvement%s; %zu cell%s compared, threshold %.0f%%).", imp,
		imp == 1 ? "" : "s", cells, cells == 1 ? "" : "s", 100 * jnum(cmp, "threshold"));
	fputs("</p>\n", f);
	answer_cells(f, json_object_get(cmp, "cells"));
	fputs("</div>\n", f);
}

void html_compare(FILE *f, const json_t *cmp, const char *id)
{
	const json_t *cells = json_object_get(cmp, "cells"), *c, *mt;
	double threshold = jnum(cmp, "threshold");
	size_t i, k;

	compare_answer(f, cmp);
	fputs("<details class=\"how\"><summary>What was compared, and how</summary>\n", f);
	fputs("<table class=\"kv\"><tbody>", f);
	fputs("<tr><th>BASE</th><td class=\"mono\">", f);
	h_text(f, jstr(cmp, "base", "?"));
	fputs("</td></tr><tr><th>CUR</th><td class=\"mono\">", f);
	h_text(f, jstr(cmp, "cur", "?"));
	fputs("</td></tr><tr><th>test</th><td>", f);
	h_text(f, jstr(cmp, "test", ""));
	fputs("</td></tr>", f);
	if (!isnan(threshold))
		fprintf(f, "<tr><th>threshold</th><td>%.1f%%</td></tr>", 100 * threshold);
	if (!isnan(jnum(cmp, "alpha")))
		fprintf(f, "<tr><th>alpha</th><td>%g</td></tr>", jnum(cmp, "alpha"));
	count(f, cmp, "regressions", "regressions");
	count(f, cmp, "failed_in_cur", "failed in CUR");
	count(f, cmp, "improvements", "improvements");
	count(f, cmp, "unjudged", "cannot judge");
	count(f, cmp, "within_noise", "within noise");
	count(f, cmp, "failed_in_base", "failed in BASE");
	count(f, cmp, "inconclusive_cells", "cells not judged");
	count(f, cmp, "exit_code", "exit code");
	if (jstr(cmp, "outcome", NULL)) {
		fprintf(f, "<tr><th>outcome</th><td class=\"%s\"><b>",
			!strcmp(jstr(cmp, "outcome", ""), "regressed") ? "failed" :
			!strcmp(jstr(cmp, "outcome", ""), "judged") ? "ok" : "");
		h_text(f, jstr(cmp, "outcome", ""));
		fputs("</b></td></tr>", f);
	}
	if (jstr(cmp, "verdict", NULL)) {
		fputs("<tr><th>verdict</th><td>", f);
		h_text(f, jstr(cmp, "verdict", ""));
		fputs("</td></tr>", f);
	}
	fputs("</tbody></table></details>\n", f);
	compare_machine(f, cmp);
	str_list(f, json_object_get(cmp, "warnings"), "bad", "Differences that can invalidate the comparison:");
	str_list(f, json_object_get(cmp, "changed"), "warn", "What changed between the runs:");
	str_list(f, json_object_get(cmp, "only_in_base"), "warn", "Cells only in BASE:");
	str_list(f, json_object_get(cmp, "only_in_cur"), "warn", "Cells only in CUR:");
	if (!json_array_size(cells))
		return;
	interval_charts(f, cells, isnan(threshold) ? 0.05 : threshold);
	fprintf(f, "<details class=\"every\"><summary>Every cell and metric (%zu cells)</summary>\n<div class=\"scroll%s\"><table class=\"sortable compare\" id=\"%s-table\"><thead><tr>"
		"<th>cell</th><th>metric</th><th>BASE</th><th>CUR</th><th>change</th><th>one-sided bound</th>"
		"<th>adjusted p</th><th>n</th><th>verdict</th><th>note</th></tr></thead><tbody>\n",
		json_array_size(cells), json_array_size(cells) > 8 ? " tall" : "", id);
	json_array_foreach(cells, i, c) {
		json_array_foreach(json_object_get(c, "metrics"), k, mt) {
			const char *met = jstr(mt, "metric", "?"), *v = jstr(mt, "verdict", "");
			double lo = jnum(mt, "change_ci_lo"), hi = jnum(mt, "change_ci_hi"), p = jnum(mt, "p_adj");
			char b[64];
			unsigned m;

			for (m = 0; m < MET_NR && strcmp(metric_table[m].name, met); m++)
				;
			fprintf(f, "<tr class=\"%s\" data-cell=\"", verdict_class(v, json_is_true(json_object_get(mt, "fails"))));
			h_text(f, jstr(c, "key", ""));
			fputs("\"><td>", f);
			h_text(f, jstr(c, "label", jstr(c, "key", "?")));
			fputs("</td><td>", f);
			h_text(f, met);
			fputs("</td>", f);
			svg_fmt_num(b, sizeof(b), jnum(mt, "base") / (m < MET_NR ? metric_table[m].display_div : 1));
			h_num_td(f, jnum(mt, "base"), b);
			svg_fmt_num(b, sizeof(b), jnum(mt, "cur") / (m < MET_NR ? metric_table[m].display_div : 1));
			h_num_td(f, jnum(mt, "cur"), b);
			pct_td(f, jnum(mt, "change"));
			bound_td(f, lo, hi);
			snprintf(b, sizeof(b), "%.3g", p);
			h_num_td(f, p, b);
			fprintf(f, "<td class=\"n\">%lld/%lld</td><td class=\"v-%s\">",
				(long long)json_integer_value(json_object_get(mt, "n_base")),
				(long long)json_integer_value(json_object_get(mt, "n_cur")),
				verdict_class(v, json_is_true(json_object_get(mt, "fails"))));
			h_text(f, v);
			fputs("</td><td class=\"muted\">", f);
			h_text(f, jstr(mt, "note", ""));
			fputs("</td></tr>\n", f);
		}
	}
	fputs("</tbody></table></div></details>\n", f);
}

/* Steps named in the history's answer; the tables below have them all. */
#define ANSWER_STEPS 5

/* The history's answer first: how many steps, the largest few, or that there is none. */
static void history_answer(FILE *f, const json_t *hist, const char *const *xl, unsigned ng)
{
	const json_t *metrics = json_object_get(hist, "metrics"), *mj, *st;
	unsigned runs = (unsigned)json_integer_value(json_object_get(hist, "runs")), total = 0, shown = 0;
	const char *mname;
	size_t k;

	json_object_foreach((json_t *)metrics, mname, mj)
		total += (unsigned)json_array_size(json_object_get(mj, "steps"));
	fputs("<div class=\"answer\"><p><b>", f);
	if (!total)
		h_textf(f, "No step: between adjacent groups no change passed the test");
	else
		h_textf(f, "%u step%s between adjacent groups", total, total == 1 ? "" : "s");
	fputs("</b> ", f);
	h_textf(f, "(%u saved run%s in %u group%s, by %s).", runs, runs == 1 ? "" : "s", ng,
		ng == 1 ? "" : "s", jstr(hist, "by", "time"));
	fputs("</p>\n", f);
	if (total)
		fputs("<ul>\n", f);
	json_object_foreach((json_t *)metrics, mname, mj) {
		unsigned m;

		for (m = 0; m < MET_NR && strcmp(metric_table[m].name, mname); m++)
			;
		json_array_foreach(json_object_get(mj, "steps"), k, st) {
			json_int_t at = json_integer_value(json_object_get(st, "at"));

			if (shown++ == ANSWER_STEPS)
				break;
			fprintf(f, "<li class=\"%s\">", verdict_class(jstr(st, "verdict", NULL), false));
			h_textf(f, "%s %+.1f%% (%s) at %s, from %s: %s", m < MET_NR ? metric_table[m].title : mname,
				100 * json_number_value(json_object_get(st, "change")), jstr(st, "verdict", "step"),
				at >= 0 && at < (json_int_t)ng ? xl[at] : "?",
				at >= 1 && at <= (json_int_t)ng ? xl[at - 1] : "?",
				jstr(st, "label", jstr(st, "key", "?")));
			fputs("</li>\n", f);
		}
	}
	if (total)
		fputs("</ul>\n", f);
	if (shown > ANSWER_STEPS)
		fprintf(f, "<p class=\"muted\">%u more step(s) in the tables below.</p>\n", total - ANSWER_STEPS);
	fputs("<p class=\"muted\">", f);
	h_textf(f, "A step: %s (threshold %.0f%%, alpha %g).",
		jstr(hist, "test", "compare's test between adjacent groups"),
		100 * json_number_value(json_object_get(hist, "threshold")),
		json_number_value(json_object_get(hist, "alpha")));
	fputs("</p></div>\n", f);
}

/* The groups the history compares, folded: each its time, labels and the runs it pools. */
static void history_groups(FILE *f, const json_t *hist, const char *id)
{
	const json_t *groups = json_object_get(hist, "groups"), *g, *sv;
	size_t i, k;

	fprintf(f, "<details class=\"groups\"><summary>The %zu groups and the runs they pool</summary>\n"
		"<div class=\"scroll\"><table class=\"sortable runs\" id=\"%s-groups\"><thead><tr>"
		"<th>group</th><th>when (UTC)</th><th>labels</th><th>runs</th><th>source</th></tr></thead><tbody>\n",
		json_array_size(groups), id);
	json_array_foreach(groups, i, g) {
		time_t t = (time_t)(json_integer_value(json_object_get(g, "timestamp_ms")) / 1000);
		const json_t *srcs = json_object_get(g, "sources");
		unsigned runs = json_is_integer(json_object_get(g, "runs")) ?
				(unsigned)json_integer_value(json_object_get(g, "runs")) : 1;
		char when[32];
		struct tm tm;
		bool first = true;
		const char *lk;
		json_t *lv;

		gmtime_r(&t, &tm);
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm);
		fputs("<tr><td>", f);
		h_text(f, jstr(g, "label", "?"));
		fputs("</td><td>", f);
		h_text(f, when);
		fputs("</td><td>", f);
		json_object_foreach((json_t *)json_object_get(g, "labels"), lk, lv) {
			h_textf(f, "%s%s=%s", first ? "" : " ", lk, json_string_value(lv) ? json_string_value(lv) : "");
			first = false;
		}
		fprintf(f, "</td><td class=\"n\" data-v=\"%u\">%u</td><td class=\"mono\">", runs, runs);
		if (json_array_size(srcs) > 1) {
			json_array_foreach(srcs, k, sv) {
				h_textf(f, "%s%s", k ? ", " : "", json_string_value(sv) ? json_string_value(sv) : "?");
			}
		} else {
			h_text(f, jstr(g, "source", ""));
		}
		fputs("</td></tr>\n", f);
	}
	fputs("</tbody></table></div></details>\n", f);
}

/* Is w (its first wl bytes) a whole word of s? */
static bool has_word(const char *s, const char *w, size_t wl)
{
	const char *p;

	for (p = s; *p; p += strspn(p, " ")) {
		size_t l = strcspn(p, " ");

		if (l == wl && !memcmp(p, w, wl))
			return true;
		p += l;
	}
	return false;
}

/*
 * A chart's line names without the words every one of them holds ("disk randread bs=4k ...
 * direct=1" on each), those said once in *common (clen bytes): ser[i].name points into
 * names[i] then. With one line, or where a name would be left empty, the names stay whole.
 */
static void common_words(struct svg_series *ser, unsigned n, char (*names)[200], char *common,
			 size_t clen)
{
	const char *w, *first = n ? ser[0].name : "";
	size_t used = 0;
	unsigned i;

	common[0] = '\0';
	if (n < 2)
		return;
	for (i = 0; i < n; i++)
		names[i][0] = '\0';
	for (w = first; *w; w += strspn(w, " ")) {
		size_t wl = strcspn(w, " ");
		bool all = true;

		for (i = 1; i < n && all; i++)
			all = has_word(ser[i].name, w, wl);
		if (all && used + wl + 2 < clen && !has_word(common, w, wl)) {
			snprintf(common + used, clen - used, "%s%.*s", used ? " " : "", (int)wl, w);
			used = strlen(common);
		}
		w += wl;
	}
	if (!used)
		return;
	for (i = 0; i < n; i++) {
		const char *p = ser[i].name;

		for (; *p; p += strspn(p, " ")) {
			size_t wl = strcspn(p, " "), nl = strlen(names[i]);

			if (!has_word(common, p, wl) && nl + wl + 2 < sizeof(names[i]))
				snprintf(names[i] + nl, sizeof(names[i]) - nl, "%s%.*s", nl ? " " : "",
					 (int)wl, p);
			p += wl;
		}
		if (!names[i][0]) {
			common[0] = '\0';
			return;
		}
	}
	for (i = 0; i < n; i++)
		ser[i].name = names[i];
}

/* A line chart of trend or history, its lines named without the words all of them hold. */
static void named_lines(FILE *f, struct svg_chart *c, struct svg_series *ser)
{
	char names[TREND_LINES][200], common[200], sub[240];

	common_words(ser, c->nser, names, common, sizeof(common));
	snprintf(sub, sizeof(sub), "every line: %s", common);
	c->subtitle = common[0] ? sub : NULL;
	h_chart_lines(f, c);
}

/* history's ticks: with --by, the axis is titled by the label and each tick is its value. */
static void by_values(const json_t *hist, const char **xl, const char **tl, unsigned ng)
{
	const char *by = jstr(hist, "by", NULL);
	size_t bl = by ? strlen(by) : 0;
	unsigned i;

	for (i = 0; i < ng; i++) {
		tl[i] = xl[i];
		if (by && !strncmp(xl[i], by, bl) && xl[i][bl] == '=' && xl[i][bl + 1])
			tl[i] += bl + 1;
	}
}

/* The table of metric m's steps, each at its group (xl names them), or that there is none. */
static void history_steps_table(FILE *f, const json_t *steps, enum metric_id m, const char *id,
				const char *const *xl, unsigned ng)
{
	const json_t *st;
	size_t k;

	if (!json_array_size(steps)) {
		fprintf(f, "<p class=\"muted\">No step in %s: no change between adjacent groups passed the test.</p>\n",
			metric_table[m].title);
		return;
	}
	fprintf(f, "<h3>Steps in %s</h3>\n<div class=\"scroll\"><table class=\"sortable steps\" id=\"%s-steps-%s\"><thead><tr>"
		"<th>cell</th><th>at</th><th>from</th><th>verdict</th><th>before</th><th>after</th>"
		"<th>change</th><th>one-sided bound</th><th>adjusted p</th></tr></thead><tbody>\n",
		metric_table[m].title, id, metric_table[m].name);
	json_array_foreach(steps, k, st) {
		json_int_t at = json_integer_value(json_object_get(st, "at"));
		double lo = jnum(st, "change_ci_lo"), hi = jnum(st, "change_ci_hi");
		char b[64];

		fputs("<tr class=\"regression\"><td>", f);
		h_text(f, jstr(st, "label", jstr(st, "key", "?")));
		fputs("</td><td>", f);
		h_text(f, at >= 0 && at < (json_int_t)ng ? xl[at] : "?");
		fputs("</td><td>", f);
		h_text(f, at >= 1 && at <= (json_int_t)ng ? xl[at - 1] : "");
		fputs("</td><td>", f);
		h_text(f, jstr(st, "verdict", ""));
		fputs("</td>", f);
		svg_fmt_num(b, sizeof(b), json_number_value(json_object_get(st, "before")) / metric_table[m].display_div);
		h_num_td(f, json_number_value(json_object_get(st, "before")), b);
		svg_fmt_num(b, sizeof(b), json_number_value(json_object_get(st, "after")) / metric_table[m].display_div);
		h_num_td(f, json_number_value(json_object_get(st, "after")), b);
		pct_td(f, json_number_value(json_object_get(st, "change")));
		bound_td(f, lo, hi);
		snprintf(b, sizeof(b), "%.3g", jnum(st, "p_adj"));
		h_num_td(f, jnum(st, "p_adj"), b);
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table></div>\n", f);
}

/* history --json: per metric a line per cell across the groups, its steps ringed, and a table. */
void html_history(FILE *f, const json_t *hist, const char *id)
{
	const json_t *groups = json_object_get(hist, "groups"), *metrics = json_object_get(hist, "metrics");
	const json_t *mj, *g, *c, *st;
	unsigned ng = (unsigned)json_array_size(groups);
	const char **xl = calloc(ng + 1, sizeof(*xl)), **tl = calloc(ng + 1, sizeof(*tl));
	double *xs = calloc(ng + 1, sizeof(*xs));
	const char *mname;
	size_t i, k;

	if (!xl || !tl || !xs || !ng)
		goto out;
	json_array_foreach(groups, i, g) {
		xl[i] = jstr(g, "label", "?");
		xs[i] = (double)i;
	}
	history_answer(f, hist, xl, ng);
	by_values(hist, xl, tl, ng);
	history_groups(f, hist, id);
	json_object_foreach((json_t *)metrics, mname, mj) {
		const json_t *cells = json_object_get(mj, "cells"), *steps = json_object_get(mj, "steps");
		unsigned nc = (unsigned)json_array_size(cells), m, n = 0, done = 0;
		double *ys = calloc((size_t)nc * ng + 1, sizeof(*ys));
		const char **rings = calloc((size_t)nc * ng + 1, sizeof(*rings));
		char (*notes)[96] = calloc(json_array_size(steps) + 1, sizeof(*notes));
		struct svg_series ser[TREND_LINES];
		char title[200];

		for (m = 0; m < MET_NR && strcmp(metric_table[m].name, mname); m++)
			;
		if (!ys || !rings || !notes || m == MET_NR) {
			free(ys);
			free(rings);
			free(notes);
			continue;
		}
		json_array_foreach(cells, i, c) {
			json_array_foreach(json_object_get(c, "values"), k, g)
				ys[i * ng + k] = k < ng && json_is_number(json_object_get(g, "median")) ?
					json_number_value(json_object_get(g, "median")) / metric_table[m].display_div : NAN;
			for (k = json_array_size(json_object_get(c, "values")); k < ng; k++)
				ys[i * ng + k] = NAN;
		}
		json_array_foreach(steps, k, st) {
			json_int_t at = json_integer_value(json_object_get(st, "at"));

			snprintf(notes[k], sizeof(notes[k]), "%s %+.1f%% (step at this %s)",
				 jstr(st, "verdict", "step"), 100 * json_number_value(json_object_get(st, "change")),
				 jstr(hist, "by", "run"));
			json_array_foreach(cells, i, c)
				if (!strcmp(jstr(c, "key", ""), jstr(st, "key", "")) && at >= 0 && at < (json_int_t)ng)
					rings[i * ng + (size_t)at] = notes[k];
		}
		json_array_foreach(cells, i, c) {
			done++;
			ser[n++] = (struct svg_series){ .name = jstr(c, "label", "?"), .n = ng, .x = xs,
							.y = ys + i * ng, .ring = rings + i * ng };
			if (n == TREND_LINES || done == nc) {
				struct svg_chart ch = {
					.title = title, .xlabel = jstr(hist, "axis", jstr(hist, "by", "run")),
					.ylabel = metric_table[m].unit,
					.nxticks = ng, .xticks = xs, .xticklabels = tl, .nser = n, .ser = ser,
					.mark_x = NAN, .unit = metric_table[m].unit,
				};

				snprintf(title, sizeof(title), "%s across the groups (red rings: steps)", metric_table[m].title);
				if (nc > TREND_LINES)
					snprintf(title + strlen(title), sizeof(title) - strlen(title),
						 ", cells %u-%u of %u", done - n + 1, done, nc);
				if (done == n)
					fputs("<div class=\"charts\">\n", f);
				named_lines(f, &ch, ser);
				n = 0;
			}
		}
		if (nc)
			fputs("</div>\n", f);
		history_steps_table(f, steps, m, id, xl, ng);
		free(ys);
		free(rings);
		free(notes);
	}
out:
	free(xl);
	free(tl);
	free(xs);
}

/* Trend: each cell's median per run, a line per cell (per target, per metric). */
/* The trend's heading and its table of runs: when, where, what, labels, how many cells. */
static void trend_runs_table(FILE *f, const struct html_trend *t, const struct hset *sets,
			     const char *id)
{
	unsigned r;

	fprintf(f, "<h2 id=\"%s\">Trend across %u runs</h2>\n<p class=\"sub\">", id, t->nr);
	h_textf(f, "ordered by %s; each point is a cell's median in that run", t->by ? t->by : "time");
	fprintf(f, "</p>\n<div class=\"scroll\"><table class=\"sortable runs\" id=\"%s-runs\"><thead><tr><th>run</th><th>when (UTC)</th>"
		"<th>host</th><th>kernel</th><th>hypervisor</th><th>iopath</th><th>labels</th><th>cells</th></tr></thead><tbody>\n", id);
	for (r = 0; r < t->nr; r++) {
		const json_t *env = json_object_get(t->runs[r], "env"), *v;
		const char *lk;
		bool first = true;

		fputs("<tr><td>", f);
		h_text(f, t->xlabels[r]);
		fputs("</td><td>", f);
		h_text(f, jstr(t->runs[r], "time_utc", ""));
		fputs("</td><td>", f);
		h_text(f, jstr(env, "hostname", ""));
		fputs("</td><td>", f);
		h_text(f, jstr(json_object_get(env, "host"), "kernel", ""));
		fputs("</td><td>", f);
		h_text(f, jstr(json_object_get(env, "host"), "hypervisor", ""));
		fputs("</td><td>", f);
		h_text(f, jstr(json_object_get(env, "iopath"), "version", ""));
		fputs("</td><td>", f);
		json_object_foreach((json_t *)json_object_get(t->runs[r], "labels"), lk, v) {
			h_textf(f, "%s%s=%s", first ? "" : " ", lk, json_string_value(v) ? json_string_value(v) : "");
			first = false;
		}
		fprintf(f, "</td><td class=\"n\" data-v=\"%u\">%u</td></tr>\n", sets[r].nr, sets[r].nr);
	}
	fputs("</tbody></table></div>\n", f);
}

void html_trend(FILE *f, const struct html_trend *t, const char *id)
{
	static const enum metric_id mets[] = { MET_IOPS, MET_BW, MET_CLAT_P99 };
	struct hset *sets = calloc(t->nr + 1, sizeof(*sets));
	const struct hcell **uniq = NULL;
	unsigned nu = 0, r, i, k, mi;
	double *xs = NULL, *ys = NULL;

	if (!sets)
		return;
	for (r = 0; r < t->nr; r++)
		if (hset_load(&sets[r], t->runs[r]))
			goto out;
	for (r = 0; r < t->nr; r++)
		nu += sets[r].nr;
	uniq = calloc(nu + 1, sizeof(*uniq));
	xs = calloc(t->nr + 1, sizeof(*xs));
	ys = calloc((size_t)(nu + 1) * (t->nr + 1), sizeof(*ys));
	if (!uniq || !xs || !ys)
		goto out;
	nu = 0;
	for (r = 0; r < t->nr; r++)
		for (i = 0; i < sets[r].nr; i++) {
			for (k = 0; k < nu && strcmp(uniq[k]->key, sets[r].cells[i].key); k++)
				;
			if (k == nu)
				uniq[nu++] = &sets[r].cells[i];
		}
	for (r = 0; r < t->nr; r++)
		xs[r] = r;
	trend_runs_table(f, t, sets, id);
	fputs("<div class=\"charts\">\n", f);
	for (mi = 0; mi < sizeof(mets) / sizeof(mets[0]); mi++) {
		enum metric_id m = mets[mi];
		struct svg_series ser[TREND_LINES];
		unsigned n = 0, done = 0;
		char title[200];

		for (k = 0; k < nu; k++) {
			double *y = ys + (size_t)k * t->nr;
			bool any = false;

			for (r = 0; r < t->nr; r++) {
				y[r] = NAN;
				for (i = 0; i < sets[r].nr; i++)
					if (!strcmp(sets[r].cells[i].key, uniq[k]->key) &&
					    !strcmp(sets[r].cells[i].status, "ok")) {
						y[r] = sets[r].cells[i].med[m] / metric_table[m].display_div;
						any |= !isnan(y[r]);
					}
			}
			done++;
			if (any)
				ser[n++] = (struct svg_series){ .name = uniq[k]->label, .n = t->nr, .x = xs, .y = y };
			if (n == TREND_LINES || (done == nu && n)) {
				struct svg_chart c = {
					.title = title, .xlabel = t->by ? t->by : "run", .ylabel = metric_table[m].unit,
					.nxticks = t->nr, .xticks = xs, .xticklabels = t->xlabels, .nser = n,
					.ser = ser, .mark_x = NAN, .unit = metric_table[m].unit,
				};

				snprintf(title, sizeof(title), "%s per run", metric_table[m].title);
				if (nu > TREND_LINES)
					snprintf(title + strlen(title), sizeof(title) - strlen(title),
						 " (cells %u-%u of %u)", done - n + 1, done, nu);
				named_lines(f, &c, ser);
				n = 0;
			}
		}
	}
	fputs("</div>\n", f);
out:
	for (r = 0; r < t->nr; r++)
		hset_free(&sets[r]);
	free(sets);
	free(uniq);
	free(xs);
	free(ys);
}
