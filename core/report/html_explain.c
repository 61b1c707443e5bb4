/* The HTML report's explanations: each path's verdict, its findings and their evidence in words and units. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/html_int.h"

static void str_items(FILE *f, const json_t *a, const char *cls, const char *what)
{
	const json_t *x;
	size_t i;

	if (!json_array_size(a))
		return;
	fprintf(f, "<div class=\"%s\">%s<ul>", cls, what);
	json_array_foreach(a, i, x) {
		if (!json_is_string(x))
			continue;
		fputs("<li>", f);
		h_text(f, json_string_value(x));
		fputs("</li>", f);
	}
	fputs("</ul></div>\n", f);
}

/* How an evidence figure is shown. */
enum ev_unit {
	EV_TEXT, EV_BOOL, EV_COUNT, EV_DEPTH, EV_SHARE, EV_PCT, EV_US, EV_NS, EV_BYTES, EV_IOPS,
	EV_MIBS, EV_RATIO, EV_PER_S,
};

/* explain's evidence keys in words and the unit of each; others show their key's words. */
static const struct { const char *key, *words; enum ev_unit unit; } ev_words[] = {
	{ "engine", "engine", EV_TEXT },
	{ "rw", "direction", EV_TEXT },
	{ "bs", "block size", EV_BYTES },
	{ "direct", "direct I/O asked for", EV_BOOL },
	{ "numjobs", "jobs", EV_COUNT },
	{ "ranks", "MPI ranks", EV_COUNT },
	{ "iodepth", "iodepth", EV_DEPTH },
	{ "iops", "IOPS", EV_IOPS },
	{ "lat_us", "completion latency", EV_US },
	{ "qd1_lat_us", "latency at the shallowest iodepth", EV_US },
	{ "iops_gain", "IOPS gained from the shallowest to the deepest iodepth", EV_RATIO },
	{ "depth_ratio", "deepest iodepth over the shallowest", EV_RATIO },
	{ "lat_growth", "latency grown from the shallowest to the deepest iodepth", EV_RATIO },
	{ "little_ratio", "requests really in flight, of iodepth (IOPS x latency)", EV_SHARE },
	{ "flatten_iodepth", "IOPS stop growing at iodepth", EV_DEPTH },
	{ "limit_iops", "most IOPS reached", EV_IOPS },
	{ "limit_mib_s", "most bandwidth reached", EV_MIBS },
	{ "large_bs", "the large block size", EV_BYTES },
	{ "large_lat_us", "latency at the large block size", EV_US },
	{ "large_mib_s", "bandwidth at the large block size", EV_MIBS },
	{ "cpu_pct", "CPU busy", EV_PCT },
	{ "usr_pct", "CPU in iopath (user)", EV_PCT },
	{ "sys_pct", "CPU in the kernel", EV_PCT },
	{ "sqpoll_pct", "the SQPOLL thread busy", EV_PCT },
	{ "cpu_us_per_io", "CPU time per I/O", EV_US },
	{ "memory_speed", "as fast as memory", EV_BOOL },
	{ "source", "judged from", EV_TEXT },
	{ "direct_honoured", "direct I/O honoured", EV_TEXT },
	{ "probe_evidence", "the probe's evidence", EV_TEXT },
	{ "direct_evidence", "the evidence", EV_TEXT },
	{ "direct_data_read_us", "a direct read of written data", EV_US },
	{ "direct_hole_read_us", "a direct read of a hole", EV_US },
	{ "direct_data_read_ns", "a direct read of written data", EV_NS },
	{ "direct_hole_read_ns", "a direct read of a hole", EV_NS },
	{ "buffered_iops", "buffered IOPS", EV_IOPS },
	{ "direct_iops", "direct IOPS", EV_IOPS },
	{ "buffered_to_direct", "buffered IOPS over direct", EV_RATIO },
	{ "direct_lat_us", "direct latency", EV_US },
	{ "fsync_us", "one fsync", EV_US },
	{ "fsync_ns", "one fsync", EV_NS },
	{ "probe_fsync_us", "one fsync, as the probe timed it", EV_US },
	{ "write_us", "one write", EV_US },
	{ "sync_share", "fsync's share of a synced write's time", EV_SHARE },
	{ "syncs", "fsyncs", EV_COUNT },
	{ "writes_per_s", "synced writes per second", EV_PER_S },
	{ "fs_class", "kind of filesystem", EV_TEXT },
	{ "path", "path", EV_TEXT },
	{ "role", "target", EV_TEXT },
};

/* A time of us microseconds in the unit that reads best: 850 ns, 12.3 us, 4.20 ms, 1.50 s. */
static void fmt_us(char *b, size_t len, double us)
{
	if (us < 1)
		snprintf(b, len, "%.0f ns", us * 1000);
	else if (us < 1000)
		snprintf(b, len, "%.3g \xc2\xb5s", us);
	else if (us < 1e6)
		snprintf(b, len, "%.3g ms", us / 1000);
	else
		snprintf(b, len, "%.3g s", us / 1e6);
}

static void fmt_bytes(char *b, size_t len, double v)
{
	static const char *const units[] = { "bytes", "KiB", "MiB", "GiB" };
	unsigned u = 0;

	while (v >= 1024 && u < 3) {
		v /= 1024;
		u++;
	}
	snprintf(b, len, "%.4g %s", v, units[u]);
}

/* An evidence value x in words: its unit's way, or "-" when absent. */
static void ev_value(char *b, size_t len, const json_t *x, enum ev_unit unit)
{
	double v = json_number_value(x);
	char n[32];

	if (json_is_null(x)) {
		snprintf(b, len, "-");
		return;
	}
	if (json_is_boolean(x) || unit == EV_BOOL) {
		snprintf(b, len, "%s", json_is_true(x) ? "yes" : "no");
		return;
	}
	if (json_is_string(x)) {
		snprintf(b, len, "%s", json_string_value(x));
		return;
	}
	svg_fmt_num(n, sizeof(n), v);
	switch (unit) {
	case EV_COUNT: snprintf(b, len, "%.0f", v); break;
	case EV_DEPTH: snprintf(b, len, "%.0f requests", v); break;
	case EV_SHARE: snprintf(b, len, "%.0f%%", 100 * v); break;
	case EV_PCT: snprintf(b, len, "%.0f%%", v); break;
	case EV_US: fmt_us(b, len, v); break;
	case EV_NS: fmt_us(b, len, v / 1000); break;
	case EV_BYTES: fmt_bytes(b, len, v); break;
	case EV_IOPS: snprintf(b, len, "%s IOPS", n); break;
	case EV_MIBS: snprintf(b, len, "%s MiB/s", n); break;
	case EV_RATIO: snprintf(b, len, "%.2f\xc3\x97", v); break;
	case EV_PER_S: snprintf(b, len, "%s/s", n); break;
	default: snprintf(b, len, "%.4g", v); break;
	}
}

/* A queue-depth ladder: each step's depth, IOPS, latency and requests in flight, in units. */
static void ladder(FILE *f, const json_t *steps)
{
	const json_t *step;
	size_t i;
	char b[64];

	fputs("<table class=\"ladder\"><thead><tr><th>iodepth</th><th>IOPS</th><th>latency</th>"
	      "<th>in flight (IOPS &times; latency)</th></tr></thead><tbody>\n", f);
	json_array_foreach(steps, i, step) {
		static const char *const cols[] = { "iodepth", "iops", "lat_us", "inflight" };

		fputs("<tr>", f);
		for (unsigned c = 0; c < 4; c++) {
			const json_t *x = json_object_get(step, cols[c]);
			double v = json_number_value(x);

			if (c == 0)
				snprintf(b, sizeof(b), "%.0f", v);
			else if (c == 1)
				svg_fmt_num(b, sizeof(b), v);
			else if (c == 2)
				fmt_us(b, sizeof(b), v);
			else
				snprintf(b, sizeof(b), "%.2f", v);
			h_num_td(f, json_is_number(x) ? v : NAN, b);
		}
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
}

/* A finding's evidence: its figures in words and units, a queue-depth ladder as a table. */
static void evidence(FILE *f, const json_t *ev)
{
	const json_t *x;
	const char *k;
	char b[160], words[96];

	if (!json_is_object(ev))
		return;
	fputs("<table class=\"kv evidence\"><tbody>\n", f);
	json_object_foreach((json_t *)ev, k, x) {
		enum ev_unit unit = EV_TEXT;
		unsigned i;

		if (!json_is_number(x) && !json_is_boolean(x) && !json_is_string(x))
			continue;
		snprintf(words, sizeof(words), "%s", k);
		for (i = 0; words[i]; i++)
			if (words[i] == '_')
				words[i] = ' ';
		for (i = 0; i < sizeof(ev_words) / sizeof(ev_words[0]); i++)
			if (!strcmp(ev_words[i].key, k)) {
				snprintf(words, sizeof(words), "%s", ev_words[i].words);
				unit = ev_words[i].unit;
			}
		ev_value(b, sizeof(b), x, unit);
		h_kv_row(f, words, b);
	}
	fputs("</tbody></table>\n", f);
	if (json_array_size(json_object_get(ev, "ladder")))
		ladder(f, json_object_get(ev, "ladder"));
}

/* Each direction's headline (reads; writes and syncs), where the explanation has them. */
static void directions(FILE *f, const json_t *d)
{
	static const char *const dirs[][2] = { { "read", "reads" }, { "write", "writes" } };
	unsigned i;

	if (!json_is_object(d))
		return;
	fputs("<p class=\"directions\">", f);
	for (i = 0; i < 2; i++) {
		const json_t *x = json_object_get(d, dirs[i][0]);

		h_textf(f, "%s%s: ", i ? "; " : "", dirs[i][1]);
		fputs("<code>", f);
		h_text(f, jstr(x, "verdict", "?"));
		fputs("</code>", f);
		h_textf(f, " (%s)", jstr(x, "confidence", "?"));
	}
	fputs("</p>\n", f);
}

/* The explanation of each path's limit, where the result has one (iopath.explain). */
/* The cells explain ran (its own section's), folded: a table and charts of their own. */
static void explain_cells(FILE *f, const json_t *ex, const char *id, const char *whose)
{
	json_t *doc = json_pack("{s:O}", "cells", json_object_get(ex, "cells"));
	struct hset s;
	char xid[48];

	if (!doc)
		return;
	if (!hset_load(&s, doc)) {
		snprintf(xid, sizeof(xid), "%s-explain", id);
		fprintf(f, "<details class=\"explain-cells\"><summary>The %u cells explain ran on the targets "
			"(not the %s's)</summary>\n", s.nr, whose);
		html_results(f, &s, xid);
		fputs("</details>\n", f);
		hset_free(&s);
	}
	json_decref(doc);
}

void html_explain(FILE *f, const json_t *doc, const json_t *raw, const char *id)
{
	const json_t *ex = json_object_get(json_object_get(doc, "iopath"), "explain"), *t, *fd;
	size_t i, k;

	if (!ex)
		ex = json_object_get(json_object_get(raw, "iopath"), "explain");
	if (!json_array_size(json_object_get(ex, "targets")))
		return;
	fputs("<h3>Why each path is as fast as it is</h3>\n<div class=\"cards\">\n", f);
	json_array_foreach(json_object_get(ex, "targets"), i, t) {
		fputs("<div class=\"card explain\"><h3>", f);
		h_text(f, jstr(t, "target", "?"));
		fputs(": <code class=\"verdict\">", f);
		h_text(f, jstr(t, "verdict", "?"));
		fputs("</code>", f);
		if (jstr(t, "confidence", NULL))
			h_textf(f, " (confidence: %s)", jstr(t, "confidence", ""));
		fputs("</h3>\n", f);
		if (jstr(t, "path_summary", NULL)) {
			fputs("<div class=\"summary\">", f);
			h_text(f, jstr(t, "path_summary", ""));
			fputs("</div>\n", f);
		}
		fputs("<p>", f);
		h_text(f, jstr(t, "summary", ""));
		fputs("</p>\n", f);
		directions(f, json_object_get(t, "directions"));
		json_array_foreach(json_object_get(t, "findings"), k, fd) {
			fputs("<details", f);
			if (!k)
				fputs(" open", f);
			fputs("><summary><code>", f);
			h_text(f, jstr(fd, "code", "?"));
			fputs("</code> ", f);
			h_textf(f, "(%s): %s", jstr(fd, "confidence", "?"), jstr(fd, "summary", ""));
			fputs("</summary>\n", f);
			evidence(f, json_object_get(fd, "evidence"));
			if (json_array_size(json_object_get(fd, "cells")))
				fprintf(f, "<p class=\"muted\">from %zu cell(s)</p>\n",
					json_array_size(json_object_get(fd, "cells")));
			fputs("</details>\n", f);
		}
		str_items(f, json_object_get(t, "notes"), "muted", "Notes:");
		str_items(f, json_object_get(t, "missing"), "warn", "Not judged:");
		fputs("</div>\n", f);
	}
	fputs("</div>\n", f);
	if (json_array_size(json_object_get(ex, "cells")))
		explain_cells(f, ex, id,
			      json_object_get(json_object_get(raw, "iopath"), "suite") ? "suite" : "sweep");
}

