/*
 * Unit tests of the HTML report: the page fetches nothing, every string from the data comes
 * out escaped (job names, hosts, targets, labels, reasons, compare's cells, suite rows), the
 * charts draw what they are given and the tables carry the medians exactly.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/html.h"
#include "report/svg.h"

/* What an attacker puts into names: markup, quotes, an ampersand, a closing svg. */
#define EVIL "<script>alert(1)</script>\"'&</svg><img src=x onerror=alert(2)>"

static char *page;
static size_t page_len;

static void free_page(void)
{
	free(page);
	page = NULL;
	page_len = 0;
}

TestSuite(html, .fini = free_page);

static json_t *sample(double iops, const char *name)
{
	return json_pack("{s:s, s:{s:f, s:f, s:i, s:{s:{s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:i}}}, s:{s:s}}",
			 "jobname", name, "read", "iops", iops, "bw_bytes", iops * 4096, "total_ios", 1000,
			 "clat_ns", "percentile", "50.000000", 1000, "90.000000", 2000, "95.000000", 3000,
			 "99.000000", 5000, "99.500000", 6000, "99.900000", 9000, "99.950000", 12000,
			 "99.990000", 20000, "iopath", "direct_not_honoured", EVIL);
}

static json_t *cell(const char *engine, const char *qd, const char *target, double base)
{
	json_t *samples = json_pack("[o,o,o]", sample(base, EVIL), sample(base * 1.1, EVIL),
				    sample(base * 0.8, EVIL));
	char key[512];

	snprintf(key, sizeof(key), "engine=%s;iodepth=%s;target=%s", engine, qd, target);
	return json_pack("{s:s, s:s, s:{s:s, s:s, s:s}, s:s, s:o}", "key", key, "label", EVIL,
			 "identity", "engine", engine, "iodepth", qd, "target", target, "status", "ok",
			 "samples", samples);
}

/* A sweep's results, every name hostile: 2 engines x 2 depths on one target, one refused. */
static json_t *results_doc(void)
{
	json_t *cells = json_array();

	json_array_append_new(cells, cell("psync", "1", EVIL, 1000));
	json_array_append_new(cells, cell("psync", "8", EVIL, 1200));
	json_array_append_new(cells, cell(EVIL, "1", EVIL, 5000));
	json_array_append_new(cells, cell(EVIL, "8", EVIL, 40000));
	json_array_append_new(cells, json_pack("{s:s, s:s, s:{s:s, s:s, s:s}, s:s, s:s, s:[]}",
					       "key", "refused", "label", EVIL, "identity", "engine", "libaio",
					       "iodepth", "1", "target", EVIL, "status", "skipped",
					       "reason", EVIL, "samples"));
	return json_pack("{s:i, s:s, s:s, s:s, s:{s:s}, s:{s:s, s:{s:s, s:s, s:s}, s:{s:s}, s:s}, "
			 "s:[{s:s, s:s, s:s, s:{s:s, s:s, s:s, s:s, s:[{s:s, s:s, s:s}], s:{s:{s:s, s:s}}}}], s:o}",
			 "schema_version", 1, "kind", "sweep", "name", EVIL, "time_utc", EVIL,
			 "labels", EVIL, EVIL,
			 "env", "hostname", EVIL, "host", "kernel", EVIL, "cpu_model", EVIL,
			 "hypervisor", EVIL, "iopath", "version", EVIL, "command_line", EVIL,
			 "targets", "role", EVIL, "path", EVIL, "summary", EVIL, "probe", "fs_description",
			 EVIL, "mount_point", EVIL, "direct_honoured", "false", "direct_evidence", EVIL,
			 "devices", "name", EVIL, "driver", EVIL, "write_cache", EVIL, "trials",
			 "direct_open", "state", "failed", "why", EVIL,
			 "cells", cells);
}

/* iopath.explain as the explain command writes it, every string hostile. */
static json_t *explain(void)
{
	return json_pack("{s:{s:i, s:[{s:s, s:s, s:s, s:s, s:s, s:[{s:s, s:s, s:s, s:{s:f, s:s, s:[{s:i, s:f, s:f, s:f}]}, s:[s]}], s:[s], s:[s]}]}}",
			 "explain", "schema", 1, "targets", "target", EVIL, "path_summary", EVIL,
			 "verdict", "serialized", "confidence", "high", "summary", EVIL, "findings",
			 "code", "serialized", "confidence", "high", "summary", EVIL, "evidence",
			 "iops_gain", 1.02, "engine", EVIL, "ladder", "iodepth", 1, "iops", 198.0,
			 "lat_us", 5040.0, "inflight", 0.998, "cells", "k", "notes", EVIL, "missing", EVIL);
}

/* history --json: two groups, one cell, a step at the second. */
static json_t *history_doc(void)
{
	return json_pack("{s:s, s:f, s:f, s:s, s:i, s:[{s:s, s:s, s:I, s:{s:s}}, {s:s, s:s, s:I, s:{s:s}}], "
			 "s:{s:{s:[{s:s, s:s, s:[{s:f}, {s:f}]}], s:[{s:s, s:s, s:i, s:s, s:f, s:f, s:f, s:f, s:f, s:f}]}}}",
			 "by", EVIL, "threshold", 0.05, "alpha", 0.05, "test", EVIL, "runs", 2,
			 "groups", "label", EVIL, "source", EVIL, "timestamp_ms", (json_int_t)1796000000000,
			 "labels", EVIL, EVIL, "label", "qemu=9.0", "source", EVIL, "timestamp_ms",
			 (json_int_t)1796000100000, "labels", "qemu", "9.0", "metrics", "iops", "cells",
			 "key", "k1", "label", EVIL, "values", "median", 1000.0, "median", 600.0, "steps",
			 "key", "k1", "label", EVIL, "at", 1, "verdict", "regression", "before", 1000.0,
			 "after", 600.0, "change", -0.4, "change_ci_lo", -0.5, "change_ci_hi", -0.3,
			 "p", 0.001);
}

static json_t *compare_doc(void)
{
	return json_pack("{s:s, s:s, s:f, s:f, s:s, s:i, s:[s], s:[s], s:[{s:s, s:s, s:[{s:s, s:s, s:b, s:i, s:i, s:f, s:f, s:f, s:f, s:f, s:f, s:s}]}]}",
			 "base", EVIL, "cur", EVIL, "threshold", 0.05, "alpha", 0.05, "test", EVIL,
			 "regressions", 1, "warnings", EVIL, "changed", EVIL, "cells", "label", EVIL,
			 "key", EVIL, "metrics", "metric", "iops", "verdict", "regression", "fails", 1,
			 "n_base", 3, "n_cur", 3, "base", 1000.0, "cur", 700.0, "change", -0.3,
			 "change_ci_lo", -0.4, "change_ci_hi", -0.2, "p", 0.01, "note", EVIL);
}

/* A suite vm-paths result as iopath writes it: fio-shaped, the rows under iopath.suite. */
static json_t *suite_raw(void)
{
	return json_pack("{s:{s:s, s:{s:s}, s:{s:s, s:s, s:s, s:i, s:[{s:s, s:s, s:s, s:s, s:f, s:f, s:f, s:f}, {s:s, s:s, s:s, s:s, s:f, s:f, s:f, s:f}]}}, s:[]}",
			 "iopath", "hostname", EVIL, "host", "kernel", EVIL, "suite", "name", "vm-paths",
			 "reference", EVIL, "ratio", EVIL, "repeat", 3, "rows", "test", EVIL, "from", EVIL,
			 "to", EVIL, "metric", EVIL, "median", 100.0, "min", 90.0, "max", 110.0,
			 "ratio_to_reference", 1.0, "test", EVIL, "from", "share", "to", "share",
			 "metric", EVIL, "median", 10.0, "min", 9.0, "max", 11.0, "ratio_to_reference",
			 10.0, "jobs");
}

static void render(const struct html_page *p)
{
	struct iop_err err = { "" };
	FILE *f = open_memstream(&page, &page_len);

	cr_assert_not_null(f);
	cr_assert_eq(html_report(f, p, &err), 0, "%s", err.msg);
	cr_assert_eq(fclose(f), 0);
}

static unsigned count(const char *hay, const char *needle)
{
	unsigned n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

/* Every kind of section on one page, from hostile data. */
static void render_all(void)
{
	json_t *res = results_doc(), *cmp = compare_doc(), *suite = suite_raw();
	json_t *ex = json_pack("{s:o}", "iopath", explain()), *hist = history_doc();
	json_t *probe = json_pack("{s:{s:s}, s:[{s:s, s:s}]}", "host", "kernel", EVIL, "paths",
				  "path", EVIL, "summary", EVIL);
	const json_t *runs[2] = { res, res };
	const char *xl[2] = { EVIL, EVIL };
	struct html_trend trend = { .nr = 2, .runs = runs, .xlabels = xl, .by = EVIL };
	struct html_doc docs[] = {
		{ HTML_RESULTS, res, ex, EVIL },
		{ HTML_COMPARE, cmp, NULL, EVIL },
		{ HTML_PROBE, probe, NULL, EVIL },
		{ HTML_RESULTS, res, suite, EVIL },
		{ HTML_HISTORY, hist, NULL, EVIL },
	};
	struct html_page p = { .title = EVIL, .nr = 5, .docs = docs, .trend = &trend };

	render(&p);
	json_decref(res);
	json_decref(cmp);
	json_decref(suite);
	json_decref(probe);
	json_decref(ex);
	json_decref(hist);
}

Test(html, fetches_nothing)
{
	render_all();
	cr_assert_null(strstr(page, "http://"), "an http reference in the page");
	cr_assert_null(strstr(page, "https://"), "an https reference in the page");
	cr_assert_null(strstr(page, "<link"), "a <link> in the page");
	cr_assert_null(strstr(page, "src=\""), "a src= attribute in the page");
	for (const char *h = page; (h = strstr(h, "href=\"")); h++)
		cr_assert_eq(h[6], '#', "a link out of the page: %.40s", h);
	cr_assert_null(strstr(page, "@import"), "a CSS @import in the page");
	cr_assert_null(strstr(page, "url("), "a CSS url() in the page");
	cr_assert_null(strstr(page, "<iframe"), "an <iframe> in the page");
}

Test(html, hostile_strings_come_out_escaped)
{
	render_all();
	/* the page's own script is the only one; the data's markup is text */
	cr_assert_eq(count(page, "<script"), 1, "%u <script> tags", count(page, "<script"));
	cr_assert_eq(count(page, "<img"), 0);
	cr_assert_eq(count(page, "<svg"), count(page, "</svg>"), "%u <svg> against %u </svg>",
		     count(page, "<svg"), count(page, "</svg>"));
	cr_assert_null(strstr(page, "\"'&<"), "the quotes and ampersand passed through");
	cr_assert(count(page, "&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;&amp;&lt;/svg&gt;") > 10,
		  "the escaped name is missing");
}

Test(html, every_svg_has_drawn_content)
{
	const char *p;

	render_all();
	cr_assert(count(page, "<svg") >= 5, "only %u charts", count(page, "<svg"));
	for (p = page; (p = strstr(p, "<svg")); p++) {
		const char *end = strstr(p, "</svg>");

		cr_assert_not_null(end);
		cr_assert(memmem(p, (size_t)(end - p), "<rect", 5) || memmem(p, (size_t)(end - p), "<path", 5) ||
			  memmem(p, (size_t)(end - p), "<circle", 7), "an empty chart");
	}
	cr_assert_eq(count(page, "data-kind=\"heatmap\""), 1);
	cr_assert_eq(count(page, "data-kind=\"intervals\""), 1);
	cr_assert(count(page, "data-kind=\"bars\"") >= 1);
	/* IOPS and latency against iodepth, and the cells' percentiles */
	cr_assert(count(page, "data-kind=\"lines\"") >= 3);
	cr_assert_not_null(strstr(page, "IOPS against iodepth"));
	cr_assert_not_null(strstr(page, "class=\"band\""));
}

Test(html, table_holds_the_median_of_the_samples)
{
	render_all();
	/* psync qd=1: samples 1000, 1100, 800: the median is 1000 */
	cr_assert_not_null(strstr(page, "data-v=\"1000\">1.00k</td>"));
	/* the refused cell says why */
	cr_assert_not_null(strstr(page, "Refused (1)"));
}

Test(html, explanation_is_shown)
{
	render_all();
	cr_assert_not_null(strstr(page, "Why each path is as fast as it is"));
	cr_assert_not_null(strstr(page, "<code class=\"verdict\">serialized</code>"));
	cr_assert_not_null(strstr(page, "data-v=\"5040\">5.04 ms</td>"), "the ladder's latency");
}

Test(html, explain_evidence_is_in_words_and_units)
{
	render_all();
	cr_assert_not_null(strstr(page, "<th>IOPS gained from the shallowest to the deepest iodepth</th><td>1.02\xc3\x97</td>"),
			   "iops_gain as words and a ratio");
	cr_assert_null(strstr(page, "<th>iops_gain</th>"), "a raw key shown");
	cr_assert_not_null(strstr(page, "<tr><td class=\"n\" data-v=\"1\">1</td>"), "the ladder's iodepth is not a whole number");
}

/* Only the sweep's results: one target, four cells measured not direct, one refused. */
static void render_results(const char *honoured)
{
	json_t *res = results_doc();
	struct html_doc d = { HTML_RESULTS, res, NULL, "r.json" };
	struct html_page p = { .nr = 1, .docs = &d };

	json_object_set_new(json_object_get(json_array_get(json_object_get(res, "targets"), 0), "probe"),
			    "direct_honoured", json_string(honoured));
	render(&p);
	json_decref(res);
}

Test(html, one_not_direct_box_per_target)
{
	render_results("false");
	cr_assert_eq(count(page, "class=\"bad direct\""), 1, "%u boxes", count(page, "class=\"bad direct\""));
	cr_assert_not_null(strstr(page, "<b>NOT direct I/O</b> in 4 of 5 cells"));
	/* the probe said it too: its evidence is in the cells' box, not in a second one */
	cr_assert_eq(count(page, "<b>NOT direct I/O"), 1, "%u NOT direct boxes",
		     count(page, "<b>NOT direct I/O"));
}

Test(html, the_results_table_marks_each_cell_measured_not_direct)
{
	render_results("unknown");
	cr_assert_eq(count(page, "\">NOT direct</b>"), 4, "%u cells marked in the table",
		     count(page, "\">NOT direct</b>"));
	cr_assert_not_null(strstr(page, "<b class=\"notdirect\" title=\""));
}

Test(html, measured_not_direct_outweighs_an_unknown_probe)
{
	render_results("unknown");
	cr_assert_null(strstr(page, "<th>direct I/O honoured</th><td>unknown</td>"));
	cr_assert_not_null(strstr(page, "<th>direct I/O honoured</th><td>no: the cells measured it"));
}

Test(html, compare_leads_with_its_answer)
{
	json_t *cmp = compare_doc();
	struct html_doc d = { HTML_COMPARE, cmp, NULL, "c" };
	struct html_page p = { .nr = 1, .docs = &d };
	const char *answer, *table;

	json_object_set_new(cmp, "outcome", json_string("regressed"));
	render(&p);
	json_decref(cmp);
	answer = strstr(page, "CUR regressed: 1 regression");
	table = strstr(page, "<details class=\"every\">");
	cr_assert(answer && table && answer < table, "the answer does not come first");
	cr_assert_not_null(strstr(page, "<details class=\"how\">"));
}

Test(html, history_leads_with_its_answer_and_counts_its_runs)
{
	json_t *hist = history_doc();
	struct html_doc d = { HTML_HISTORY, hist, NULL, "h" };
	struct html_page p = { .nr = 1, .docs = &d };

	/* three saved runs, the second group pooling two */
	json_object_set_new(hist, "runs", json_integer(3));
	json_object_set_new(json_array_get(json_object_get(hist, "groups"), 1), "runs", json_integer(2));
	json_object_set_new(json_array_get(json_object_get(hist, "groups"), 1), "sources",
			    json_pack("[s,s]", "run:2", "run:3"));
	render(&p);
	json_decref(hist);
	cr_assert_not_null(strstr(page, "1 step between adjacent groups</b> (3 saved runs in 2 groups"));
	cr_assert_not_null(strstr(page, "run:2, run:3"), "the pooled group's runs");
	cr_assert(strstr(page, "class=\"answer") < strstr(page, "<details class=\"groups\">"));
}

/* compare's and history's own pages name no file "compare" or "history": they say what they read */
Test(html, a_commands_own_page_says_what_it_read_not_its_name_twice)
{
	json_t *cmp = compare_doc(), *hist = history_doc(), *res = results_doc();
	struct html_doc d[] = { { HTML_COMPARE, cmp, NULL, "compare" }, { HTML_RESULTS, res, NULL, "base.json" } };
	struct html_doc h = { HTML_HISTORY, hist, NULL, "history" };
	struct html_page p = { .nr = 2, .docs = d }, ph = { .nr = 1, .docs = &h };

	json_object_set_new(cmp, "base", json_string("base.json"));
	json_object_set_new(cmp, "cur", json_string("cur.json"));
	render(&p);
	cr_assert_null(strstr(page, "<p class=\"sub\">compare</p>"), "the subtitle repeats the heading");
	cr_assert_null(strstr(page, "compare (compare)"), "the menu names the page twice");
	cr_assert_null(strstr(page, "from <span class=\"mono\">compare</span>"), "'compare' is not a file");
	cr_assert_not_null(strstr(page, "<p class=\"sub\">BASE base.json against CUR cur.json</p>"));
	cr_assert_not_null(strstr(page, ">sweep (base.json)</a>"), "a file keeps its name in the menu");
	free_page();
	json_object_set_new(hist, "axis", json_string("qemu"));
	render(&ph);
	cr_assert_null(strstr(page, "<p class=\"sub\">history</p>"), "the subtitle repeats the heading");
	cr_assert_not_null(strstr(page, "<p class=\"sub\">ordered by qemu</p>"));
	json_decref(cmp);
	json_decref(hist);
	json_decref(res);
}

Test(html, results_read_by_a_comparison_are_folded)
{
	json_t *cmp = compare_doc(), *res = results_doc();
	struct html_doc d[] = { { HTML_COMPARE, cmp, NULL, "c" }, { HTML_RESULTS, res, NULL, "base.json" } };
	struct html_page p = { .nr = 2, .docs = d };

	render(&p);
	json_decref(cmp);
	json_decref(res);
	cr_assert_not_null(strstr(page, "<details class=\"section\" id=\"r1\"><summary>The results in full: "));
}

Test(html, history_rings_its_step)
{
	render_all();
	cr_assert_eq(count(page, "class=\"step\""), 1);
	cr_assert_not_null(strstr(page, "Steps in IOPS"));
	cr_assert_not_null(strstr(page, "data-v=\"-0.40000000000000002\">-40.0%</td>"));
}

Test(html, not_direct_io_is_said)
{
	render_all();
	cr_assert(count(page, "NOT direct I/O") >= 2);
}

Test(html, empty_results_render_without_charts)
{
	json_t *res = json_pack("{s:i, s:s, s:[]}", "schema_version", 1, "kind", "sweep", "cells");
	struct html_doc d = { HTML_RESULTS, res, NULL, "empty.json" };
	struct html_page p = { .nr = 1, .docs = &d };

	render(&p);
	json_decref(res);
	cr_assert_null(strstr(page, "<svg"));
	cr_assert_not_null(strstr(page, "</html>"));
}

Test(html, kinds_by_shape)
{
	struct iop_err err = { "" };
	enum html_kind k;
	json_t *j;

	j = json_pack("{s:{}, s:[]}", "host", "paths");
	cr_assert_eq(html_doc_kind(j, "p", &k, &err), 0);
	cr_assert_eq(k, HTML_PROBE);
	json_decref(j);
	j = json_pack("{s:s, s:s, s:[]}", "base", "a", "cur", "b", "cells");
	cr_assert_eq(html_doc_kind(j, "c", &k, &err), 0);
	cr_assert_eq(k, HTML_COMPARE);
	json_decref(j);
	j = json_pack("{s:[]}", "jobs");
	cr_assert_eq(html_doc_kind(j, "r", &k, &err), 0);
	cr_assert_eq(k, HTML_RESULTS);
	json_decref(j);
	j = history_doc();
	cr_assert_eq(html_doc_kind(j, "h", &k, &err), 0);
	cr_assert_eq(k, HTML_HISTORY);
	json_decref(j);
	j = json_pack("{s:i}", "nothing", 1);
	cr_assert_eq(html_doc_kind(j, "x.json", &k, &err), -EINVAL);
	cr_assert_not_null(strstr(err.msg, "x.json"));
	json_decref(j);
}

Test(html, xml_escape_escapes_markup_and_drops_controls)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	xml_escape(f, "a<b>&\"'\x01z");
	fclose(f);
	cr_assert_str_eq(buf, "a&lt;b&gt;&amp;&quot;&#39;z");
	free(buf);
}

Test(html, bars_draw_one_rect_per_value)
{
	static const double y1[] = { 1, 2, NAN }, y2[] = { 3, 4, 5 };
	static const char *const cats[] = { "a", "b", "c" };
	const struct svg_series ser[] = { { .name = "one", .n = 3, .y = y1 }, { .name = "two", .n = 3, .y = y2 } };
	struct svg_chart c = { .title = "t", .ncat = 3, .cats = cats, .nser = 2, .ser = ser,
			       .mark_x = NAN };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	cr_assert_eq(svg_bars(f, &c), 0);
	fclose(f);
	cr_assert_eq(count(buf, "class=\"bar\""), 5);
	free(buf);
}

Test(html, charts_without_data_say_so)
{
	static const double nan3[] = { NAN, NAN, NAN };
	static const char *const cats[] = { "a", "b", "c" };
	const struct svg_series ser[] = { { .name = "one", .n = 3, .x = nan3, .y = nan3 } };
	struct svg_chart c = { .title = "t", .ncat = 3, .cats = cats, .nser = 1, .ser = ser,
			       .mark_x = NAN };
	FILE *f = fopen("/dev/null", "w");

	cr_assert_eq(svg_bars(f, &c), -ENODATA);
	cr_assert_eq(svg_lines(f, &c), -ENODATA);
	fclose(f);
}

Test(html, numbers_are_shown_short)
{
	char b[32];

	svg_fmt_num(b, sizeof(b), 1234567);
	cr_assert_str_eq(b, "1.23M");
	svg_fmt_num(b, sizeof(b), 45200);
	cr_assert_str_eq(b, "45.2k");
	svg_fmt_num(b, sizeof(b), 0.5);
	cr_assert_str_eq(b, "0.50");
	svg_fmt_num(b, sizeof(b), NAN);
	cr_assert_str_eq(b, "-");
}

/* A cell of identity id (its key: key) with two repeats around base IOPS. */
static json_t *cell_of(const char *key, json_t *id, double base)
{
	return json_pack("{s:s, s:s, s:o, s:s, s:[o,o]}", "key", key, "label", key, "identity", id,
			 "status", "ok", "samples", sample(base, "j"), sample(base * 1.1, "j"));
}

static void render_cells(json_t *cells)
{
	json_t *doc = json_pack("{s:i, s:s, s:s, s:o}", "schema_version", 1, "kind", "sweep",
				"name", "s", "cells", cells);
	struct html_doc docs[] = { { HTML_RESULTS, doc, NULL, "s" } };
	struct html_page p = { .title = "t", .nr = 1, .docs = docs };

	render(&p);
	json_decref(doc);
}

/* fio-plot's charts are per rw x bs: a sweep of one of each names its charts by them. */
Test(html, charts_of_one_pattern_and_block_size_are_named_by_them)
{
	static const char *const eng[] = { "psync", "io_uring" }, *const qd[] = { "1", "8" };
	json_t *cells = json_array();
	char key[64];

	for (unsigned e = 0; e < 2; e++)
		for (unsigned q = 0; q < 2; q++) {
			snprintf(key, sizeof(key), "%s-%s", eng[e], qd[q]);
			json_array_append_new(cells, cell_of(key, json_pack("{s:s, s:s, s:s, s:s, s:s}",
				"engine", eng[e], "iodepth", qd[q], "target", "disk", "rw", "randread",
				"bs", "4k"), 1000.0 * (e + 1) * (q + 1)));
		}
	render_cells(cells);
	cr_assert_not_null(strstr(page, "IOPS against iodepth: randread bs=4k"), "%s", page);
	cr_assert_null(strstr(page, ": all<"), "a chart is named 'all'");
}

/* explain's cells: fsync only on the synced write; the others' names carry no "fsync=". */
Test(html, a_key_a_cell_lacks_is_not_in_its_name)
{
	json_t *cells = json_array();

	json_array_append_new(cells, cell_of("r1", json_pack("{s:s, s:s, s:s, s:s, s:s}", "engine",
		"io_uring", "iodepth", "1", "target", "disk", "rw", "randread", "bs", "4k"), 5000));
	json_array_append_new(cells, cell_of("r64", json_pack("{s:s, s:s, s:s, s:s, s:s}", "engine",
		"io_uring", "iodepth", "64", "target", "disk", "rw", "randread", "bs", "4k"), 50000));
	json_array_append_new(cells, cell_of("w", json_pack("{s:s, s:s, s:s, s:s, s:s, s:s}", "engine",
		"psync", "iodepth", "1", "target", "disk", "rw", "randwrite", "bs", "4k", "fsync", "1"),
		300));
	render_cells(cells);
	cr_assert_not_null(strstr(page, "randwrite bs=4k fsync=1"), "%s", page);
	cr_assert_null(strstr(page, "fsync=<"), "an empty fsync= in a name");
	cr_assert_null(strstr(page, "fsync= "), "an empty fsync= in a name");
}
