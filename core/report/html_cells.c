/* The HTML report's results: the cells' table and charts, and the suite's table and heat map. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/html_int.h"
#include "report/report.h"
#include "stats/rstats.h"

/* Rows beyond which a table scrolls in a box of its own, so that the charts stay in reach. */
#define TALL_ROWS 40
/* Tests and paths a suite's heat map holds. */
#define MAXV 256

static void fmt_val(char *b, size_t len, enum metric_id m, double v)
{
	if (isnan(v)) {
		snprintf(b, len, "-");
		return;
	}
	svg_fmt_num(b, len, v / metric_table[m].display_div);
}

/* Why each cell is implausible (report_cell_implausible), "" when it is not; NULL on ENOMEM. */
static char (*implausible_cells(const struct hset *s))[400]
{
	struct plaus_cell *pc = calloc(s->nr + 1, sizeof(*pc));
	char (*fs)[160] = calloc(s->nr + 1, sizeof(*fs)), (*why)[400] = calloc(s->nr + 1,
										     sizeof(*why));
	const json_t *targets = json_object_get(s->doc, "targets");
	unsigned i;

	for (i = 0; pc && fs && why && i < s->nr; i++) {
		pc[i].identity = s->cells[i].identity;
		pc[i].value = strcmp(s->cells[i].status, "ok") ? 0 : s->cells[i].med[MET_IOPS];
		pc[i].fs = report_target_fs(targets, jstr(s->cells[i].identity, "target", NULL),
					    fs[i], sizeof(fs[i]));
	}
	for (i = 0; pc && fs && why && i < s->nr; i++)
		if (!report_cell_implausible(pc, s->nr, i, why[i], sizeof(why[i])))
			why[i][0] = '\0';
	if (!pc || !fs) {
		free(why);
		why = NULL;
	}
	free(pc);
	free(fs);
	return why;
}

/* The results table: the varying identity, then every metric's median (sortable). */
/*
 * A results row's status cell: the status, its reason, and the marks of a cell not direct
 * and of one its neighbours contradict (why, when not NULL or empty); true for the latter.
 */
static bool status_td(FILE *f, const struct hcell *c, const char *why)
{
	bool implausible = why && why[0];

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
	/* the table says it where the numbers are, as the text table does */
	if (c->direct_note) {
		fputs(", <b class=\"notdirect\" title=\"", f);
		h_text(f, c->direct_note);
		fputs("\">NOT direct</b>", f);
	}
	if (implausible) {
		fputs(", <b class=\"implausible\" title=\"", f);
		h_text(f, why);
		fputs("\">implausible</b>", f);
	}
	fputs("</td>", f);
	return implausible;
}

/* A results row's figures: n, IOPS (median, min-max, CV), MiB/s and the latency percentiles. */
static void figure_tds(FILE *f, const struct hcell *c)
{
	unsigned m;
	char b[96];

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
}

static void cells_table(FILE *f, const struct hset *s, const char *id)
{
	char (*why)[400] = implausible_cells(s);
	unsigned i, k, nimp = 0;

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
		nimp += status_td(f, c, why ? why[i] : NULL);
		figure_tds(f, c);
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table></div>\n", f);
	/* cells their neighbours contradict: named under the table, with the reason */
	if (nimp) {
		fprintf(f, "<div class=\"warn implausible\"><b>Implausible (%u):</b> contradicted by cells that should agree with them<ul>\n",
			nimp);
		for (i = 0; i < s->nr; i++) {
			if (!why[i][0])
				continue;
			fputs("<li>", f);
			h_text(f, s->cells[i].label);
			fputs(": ", f);
			h_text(f, why[i]);
			fputs("</li>\n", f);
		}
		fputs("</ul></div>\n", f);
	}
	free(why);
}

void html_results(FILE *f, const struct hset *s, const char *id)
{
	if (!s->nr)
		return;
	cells_table(f, s, id);
	html_charts(f, s);
}

/* suite vm-paths: its table, and "x reference" as a heat map of tests against paths. */
/* A suite row's note: repeats too spread, not direct, implausible. */
static void suite_note_td(FILE *f, const json_t *r)
{
	fputs("<td>", f);
	if (json_is_true(json_object_get(r, "spread_too_wide")))
		fputs("repeats spread too wide to judge ", f);
	if (json_is_true(json_object_get(r, "direct_fallback")))
		fputs("<b>NOT direct I/O</b> (fell back to buffered) ", f);
	if (json_is_string(json_object_get(r, "direct_not_honoured")))
		fputs("<b>NOT direct I/O</b> (direct=1 asked, not honoured) ", f);
	if (json_is_string(json_object_get(r, "implausible"))) {
		fputs("<span class=\"implausible\"><b>implausible:</b> ", f);
		h_text(f, jstr(r, "implausible", ""));
		fputs("</span>", f);
	}
	fputs("</td>", f);
}

/* The suite's heat map: each test (row) on each path (column), its ratio to the reference. */
static void suite_heat(FILE *f, const json_t *suite, const char *const *tests, unsigned nt,
		       const char *const *paths, unsigned np, const double *v,
		       const char *const *text)
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
	snprintf(legend, sizeof(legend), "red: slower than %s, blue: faster, white: the same; !: repeats too spread to judge; ?: implausible (see the table)",
		 jstr(suite, "reference", "the reference"));
	if (m && !svg_heatmap(m, &h) && !fflush(m))
		fprintf(f, "<figure>%s</figure>\n", buf);
	if (m)
		fclose(m);
	free(buf);
}

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
		suite_note_td(f, r);
		fputs("</tr>\n", f);
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
			snprintf(tb[a * np + b], sizeof(tb[0]), "%.2f\xc3\x97%s%s", ratio,
				 json_is_true(json_object_get(r, "spread_too_wide")) ? " !" : "",
				 json_is_string(json_object_get(r, "implausible")) ? " ?" : "");
			text[a * np + b] = tb[a * np + b];
		}
	}
	suite_heat(f, suite, tests, nt, paths, np, v, text);
out:
	free(v);
	free(text);
	free(tb);
	free(pb);
}
