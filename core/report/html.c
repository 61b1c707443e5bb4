/* The HTML report's page: its style and script, the environment and the probed paths. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/version.h"
#include "report/html_int.h"

/* Print-friendly, readable without the script; tables scroll sideways on narrow screens. */
static const char css[] =
	"body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#222;"
	"margin:0 auto;max-width:1180px;padding:0 20px 40px;background:#fff}\n"
	"h1{font-size:24px;margin:22px 0 4px}h2{font-size:19px;margin:34px 0 8px;padding-top:10px;"
	"border-top:2px solid #0072b2}h3{font-size:15px;margin:20px 0 6px}\n"
	".sub{color:#666;margin:0 0 10px}.muted{color:#777}\n"
	"nav{background:#f5f7fa;border:1px solid #e2e6ea;border-radius:6px;padding:8px 14px;margin:14px 0}\n"
	"nav a{margin-right:14px;text-decoration:none;color:#0b5a8a}\n"
	"table{border-collapse:collapse;margin:6px 0 12px;font-size:13px}\n"
	"th,td{border-bottom:1px solid #e4e4e4;padding:3px 6px;text-align:left;vertical-align:top}\n"
	"th{background:#f0f3f6;font-weight:600;white-space:nowrap}\n"
	"td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}\n"
	"table.sortable th{cursor:pointer}table.sortable th:after{content:' \\2195';color:#aaa}\n"
	"table.sortable th.asc:after{content:' \\2191';color:#333}"
	"table.sortable th.desc:after{content:' \\2193';color:#333}\n"
	".scroll{overflow-x:auto;max-width:100%}\n"
	".scroll.tall{max-height:70vh;overflow-y:auto;border:1px solid #e4e4e4}\n"
	".scroll.tall th{position:sticky;top:0;z-index:1}\n"
	"table.kv th{background:none;color:#555;font-weight:normal;width:170px}\n"
	".cards{display:flex;flex-wrap:wrap;gap:12px}\n"
	".card{border:1px solid #dde2e6;border-radius:6px;padding:8px 12px;flex:1 1 460px;"
	"min-width:320px;break-inside:avoid}\n"
	".card h3{margin:2px 0 4px}.summary{font-weight:600;color:#0b5a8a}\n"
	"code.verdict{background:#0072b2;color:#fff;border-radius:4px;padding:1px 6px}\n"
	"details{margin:6px 0}summary{cursor:pointer}\n"
	".answer{background:#f2f7fb;border-left:4px solid #0072b2;padding:6px 12px;margin:10px 0;font-size:15px}\n"
	".answer.bad{background:#fdecea;border-left-color:#d55e00}.answer ul{margin:4px 0}\n"
	"details.section{border-top:2px solid #0072b2;margin-top:28px}"
	"details.section>summary{font-size:19px;font-weight:600;padding:8px 0}\n"
	"details.cells-direct ul{margin:4px 0;font-size:13px}\n"
	".warn{background:#fff4e5;border-left:4px solid #e69f00;padding:6px 10px;margin:8px 0}\n"
	".bad{background:#fdecea;border-left:4px solid #d55e00;padding:6px 10px;margin:8px 0}\n"
	".ok{color:#00805a}.failed,.st-failed,.st-skipped,.st-interrupted,b.notdirect{color:#b03a00}\n"
	"tr.regression td,.v-regression{background:#fde3dc}tr.improvement td,.v-improvement{background:#e1f3ea}\n"
	"tr.failed td{background:#fde3dc}\n"
	"figure{margin:10px 0 18px;overflow-x:auto;break-inside:avoid;max-width:100%}\n"
	".charts{display:flex;flex-wrap:wrap;gap:0 16px;align-items:flex-start}\n"
	".charts figure{margin:6px 0 12px;border:1px solid #eef0f2;border-radius:6px;padding:4px}\n"
	"svg.chart{background:#fff;display:block;max-width:100%;height:auto}\n"
	"svg .ci.regression,svg .ci.failed{stroke:#d55e00}svg .pt.regression,svg .pt.failed{fill:#d55e00}\n"
	"svg .ci.improvement{stroke:#009e73}svg .pt.improvement{fill:#009e73}\n"
	"svg .ci{stroke:#7aa6c8}svg .pt{fill:#0072b2}\n"
	"code,.mono{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12px}\n"
	"footer{margin-top:40px;color:#888;font-size:12px}\n"
	"@media print{body{max-width:none;padding:0}nav{display:none}.scroll,figure{overflow:visible}"
	"table{font-size:10px}th,td{padding:2px 4px}.card{min-width:0}"
	".scroll.tall{max-height:none;border:0}"
	"h2{break-before:auto;break-after:avoid}table.sortable th:after{content:''}}\n";

/*
 * Click a header to sort its table by that column: numbers by their data-v, text by
 * itself; again to reverse. Kept tiny; the browser test exercises it.
 */
static const char script[] =
	"document.querySelectorAll('table.sortable').forEach(function(t){\n"
	" t.querySelectorAll('th').forEach(function(th,i){th.addEventListener('click',function(){\n"
	"  var b=t.tBodies[0],r=Array.prototype.slice.call(b.rows),d=th.classList.contains('asc')?-1:1;\n"
	"  t.querySelectorAll('th').forEach(function(h){h.classList.remove('asc','desc')});\n"
	"  th.classList.add(d>0?'asc':'desc');\n"
	"  function k(row){var c=row.cells[i];if(!c)return '';var v=c.getAttribute('data-v');\n"
	"   return v!==null&&v!==''&&!isNaN(v)?parseFloat(v):c.textContent}\n"
	"  r.sort(function(x,y){var a=k(x),c=k(y);if(typeof a!==typeof c){a=String(a);c=String(c)}\n"
	"   return (a<c?-1:a>c?1:0)*d});\n"
	"  r.forEach(function(row){b.appendChild(row)})})})});\n";

int html_doc_kind(const json_t *doc, const char *origin, enum html_kind *kind,
		  struct iop_err *err)
{
	if (!json_is_object(doc))
		return iop_errf(err, -EINVAL, "%s: not a JSON object", origin);
	if (json_object_get(doc, "schema_version") || json_is_array(json_object_get(doc, "jobs")))
		*kind = HTML_RESULTS;
	else if (json_is_object(json_object_get(doc, "host")) && json_is_array(json_object_get(doc, "paths")))
		*kind = HTML_PROBE;
	else if (json_object_get(doc, "base") && json_object_get(doc, "cur") &&
		 json_is_array(json_object_get(doc, "cells")))
		*kind = HTML_COMPARE;
	else if (json_is_array(json_object_get(doc, "groups")) &&
		 json_is_object(json_object_get(doc, "metrics")))
		*kind = HTML_HISTORY;
	else
		return iop_errf(err, -EINVAL,
				"%s: not a result iopath reports on (accepted: sweep, run, suite, fio or probe JSON, compare --json, history --json)",
				origin);
	return 0;
}

void html_env(FILE *f, const json_t *env, const json_t *labels, const char *time_utc)
{
	const json_t *host = json_object_get(env, "host"), *build = json_object_get(env, "iopath");
	const char *k;
	json_t *v;
	char buf[512];

	fputs("<h3>Environment</h3>\n<table class=\"kv env\"><tbody>\n", f);
	h_kv_row(f, "host name", jstr(env, "hostname", NULL));
	h_kv_row(f, "when (UTC)", time_utc);
	h_kv_row(f, "kernel", jstr(host, "kernel", NULL));
	if (json_is_integer(json_object_get(host, "nr_cpus")))
		snprintf(buf, sizeof(buf), "%s (%lld CPUs)", jstr(host, "cpu_model", "?"),
			 (long long)json_integer_value(json_object_get(host, "nr_cpus")));
	else
		snprintf(buf, sizeof(buf), "%s", jstr(host, "cpu_model", ""));
	h_kv_row(f, "CPU", buf);
	h_kv_row(f, "hypervisor", jstr(host, "hypervisor", NULL));
	h_kv_row(f, "platform", jstr(host, "platform", NULL));
	if (jstr(host, "container", NULL) && strcmp(jstr(host, "container", ""), "none")) {
		snprintf(buf, sizeof(buf), "%s%s%s%s", jstr(host, "container", ""),
			 *jstr(host, "container_evidence", "") ? " (" : "",
			 jstr(host, "container_evidence", ""),
			 *jstr(host, "container_evidence", "") ? ")" : "");
		h_kv_row(f, "container", buf);
	}
	/* a document that does not say which iopath wrote it shows no row, not "?" */
	snprintf(buf, sizeof(buf), "%s%s%s%s%s", jstr(build, "version", ""),
		 *jstr(build, "compiler", "") ? ", " : "", jstr(build, "compiler", ""),
		 *jstr(build, "cflags", "") ? " " : "", jstr(build, "cflags", ""));
	h_kv_row(f, "iopath", buf);
	if (jstr(env, "command_line", NULL)) {
		snprintf(buf, sizeof(buf), "iopath %s", jstr(env, "command_line", ""));
		h_kv_row(f, "command", buf);
	}
	json_object_foreach((json_t *)labels, k, v) {
		snprintf(buf, sizeof(buf), "label %s", k);
		h_kv_row(f, buf, json_string_value(v));
	}
	fputs("</tbody></table>\n", f);
}

/* The device chain: vda (virtio_blk, write back) -> ... */
static void device_chain(FILE *f, const json_t *devs)
{
	const json_t *d;
	size_t i;

	if (!json_array_size(devs))
		return;
	fputs("<tr><th>device chain</th><td>", f);
	json_array_foreach(devs, i, d) {
		const char *wc = jstr(d, "write_cache", "");

		if (i)
			fputs(" &rarr; ", f);
		fputs("<b>", f);
		h_text(f, jstr(d, "name", "?"));
		fputs("</b> ", f);
		h_textf(f, "(%s%s%s%s%s%s)", jstr(d, "kind", ""), *jstr(d, "driver", "") ? ", " : "",
			jstr(d, "driver", ""), *jstr(d, "model", "") ? ", " : "", jstr(d, "model", ""),
			"");
		if (*wc)
			h_textf(f, " cache: %s", wc);
		if (*jstr(d, "scheduler", ""))
			h_textf(f, " sched: %s", jstr(d, "scheduler", ""));
	}
	fputs("</td></tr>\n", f);
}

static void trials(FILE *f, const json_t *t)
{
	const char *name;
	json_t *v;

	if (!json_object_size(t))
		return;
	fputs("<table class=\"trials\"><thead><tr><th>trial</th><th>result</th><th>why</th></tr></thead><tbody>\n", f);
	json_object_foreach((json_t *)t, name, v) {
		const char *st = jstr(v, "state", "?");

		fputs("<tr><td>", f);
		h_text(f, name);
		fprintf(f, "</td><td class=\"%s\">", !strcmp(st, "ok") ? "ok" : "failed");
		h_text(f, st);
		if (*jstr(v, "error", ""))
			h_textf(f, " (%s)", jstr(v, "error", ""));
		fputs("</td><td>", f);
		h_text(f, jstr(v, "why", ""));
		fputs("</td></tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
}

/*
 * One "NOT direct I/O" box for the target's cells (role; all cells when NULL) whose samples
 * say direct I/O was not honoured: how many, the first one's reason, the cells folded.
 * Returns how many.
 */
static unsigned direct_cells(const struct hset *s, const char *role, unsigned *of,
			     const char **note)
{
	unsigned i, n = 0;

	*of = 0;
	*note = NULL;
	for (i = 0; s && i < s->nr; i++) {
		const struct hcell *c = &s->cells[i];

		if (role && strcmp(hcell_get(c, "target"), role))
			continue;
		(*of)++;
		if (c->direct_note) {
			n++;
			if (!*note)
				*note = c->direct_note;
		}
	}
	return n;
}

static unsigned direct_box(FILE *f, const struct hset *s, const char *role)
{
	const char *note;
	unsigned i, of, n = direct_cells(s, role, &of, &note);

	if (!n)
		return 0;
	fprintf(f, "<div class=\"bad direct\"><b>NOT direct I/O</b> in %u of %u cell%s: ", n, of,
		of == 1 ? "" : "s");
	h_text(f, note);
	fputs("<details class=\"cells-direct\"><summary>which cells</summary><ul>", f);
	for (i = 0; i < s->nr; i++) {
		const struct hcell *c = &s->cells[i];

		if ((role && strcmp(hcell_get(c, "target"), role)) || !c->direct_note)
			continue;
		fputs("<li>", f);
		h_text(f, c->label);
		if (strcmp(c->direct_note, note)) {
			fputs(": ", f);
			h_text(f, c->direct_note);
		}
		fputs("</li>", f);
	}
	fputs("</ul></details></div>\n", f);
	return n;
}

static void probe_card(FILE *f, const char *role, const char *path, const char *summary,
		       const json_t *p, const char *error, const struct hset *s)
{
	const char *honoured = jstr(p, "direct_honoured", ""), *note;
	unsigned i, refused = 0, indirect, of;

	fputs("<div class=\"card probe\"><h3>", f);
	h_text(f, role ? role : path);
	if (role && path) {
		fputs(" <span class=\"muted mono\">", f);
		h_text(f, path);
		fputs("</span>", f);
	}
	fputs("</h3>\n<div class=\"summary\">", f);
	h_text(f, summary ? summary : jstr(p, "summary", ""));
	fputs("</div>\n", f);
	if (error) {
		fputs("<div class=\"bad\">not probed: ", f);
		h_text(f, error);
		fputs("</div>\n", f);
	}
	/*
	 * one box a target: the cells' (it holds the probe's evidence) when they say it. A memory
	 * filesystem has no storage below to bypass: its reads are memory copies, direct or not,
	 * which is said as a fact of the path (its cells are not flagged either), not as a fault.
	 */
	if (!strcmp(jstr(p, "fs_class", ""), "memory")) {
		fputs("<div class=\"muted\">No storage below: ", f);
		h_text(f, jstr(p, "direct_evidence", "O_DIRECT reads are memory copies"));
		fputs("</div>\n", f);
	} else if (!strcmp(honoured, "false") && !direct_cells(s, role, &of, &note)) {
		fputs("<div class=\"bad\"><b>NOT direct I/O:</b> ", f);
		h_text(f, jstr(p, "direct_evidence", "O_DIRECT reads are answered by a cache"));
		fputs("</div>\n", f);
	}
	for (i = 0; s && i < s->nr; i++) {
		const struct hcell *c = &s->cells[i];

		if (role && strcmp(hcell_get(c, "target"), role))
			continue;
		if (!strcmp(c->status, "skipped") && c->reason)
			refused++;
	}
	indirect = direct_box(f, s, role);
	if (p) {
		fputs("<table class=\"kv\"><tbody>\n", f);
		h_kv_row(f, "filesystem", jstr(p, "fs_description", jstr(p, "fs", NULL)));
		h_kv_row(f, "mount", jstr(p, "mount_point", NULL));
		h_kv_row(f, "source", jstr(p, "mount_source", NULL));
		h_kv_row(f, "options", jstr(p, "mount_options", NULL));
		h_kv_row(f, "note", jstr(p, "statfs_note", NULL));
		device_chain(f, json_object_get(p, "devices"));
		/* what the cells measured outweighs a probe that could not tell */
		if (indirect && strcmp(honoured, "false"))
			h_kv_row(f, "direct I/O honoured", "no: the cells measured it (above); the probe alone could not tell");
		else
			h_kv_row(f, "direct I/O honoured", *honoured ? honoured : NULL);
		if (strcmp(honoured, "false"))
			h_kv_row(f, "evidence", jstr(p, "direct_evidence", NULL));
		fputs("</tbody></table>\n", f);
		trials(f, json_object_get(p, "trials"));
	}
	if (refused) {
		fprintf(f, "<div class=\"warn\"><b>Refused (%u):</b><ul>\n", refused);
		for (i = 0; i < s->nr; i++) {
			const struct hcell *c = &s->cells[i];

			if ((role && strcmp(hcell_get(c, "target"), role)) ||
			    strcmp(c->status, "skipped") || !c->reason)
				continue;
			fputs("<li>", f);
			h_text(f, c->label);
			fputs(": ", f);
			h_text(f, c->reason);
			fputs("</li>\n", f);
		}
		fputs("</ul></div>\n", f);
	}
	fputs("</div>\n", f);
}

void html_probes(FILE *f, const json_t *targets, const struct hset *s)
{
	const json_t *t;
	size_t i;

	if (!json_array_size(targets))
		return;
	fputs("<h3>Targets and their paths</h3>\n<div class=\"cards\">\n", f);
	json_array_foreach(targets, i, t) {
		const json_t *p = json_object_get(t, "probe");

		if (json_is_object(p))
			probe_card(f, jstr(t, "role", NULL), jstr(t, "path", NULL),
				   jstr(t, "summary", NULL), p, NULL, s);
		else if (json_object_get(t, "role"))
			probe_card(f, jstr(t, "role", NULL), jstr(t, "path", NULL),
				   jstr(t, "summary", NULL), NULL,
				   jstr(t, "probe_error", jstr(t, "error", "the result holds no probe of it")), s);
		else	/* a plain run's iopath.targets: the probe objects themselves */
			probe_card(f, NULL, jstr(t, "path", "?"), NULL, t, NULL, NULL);
	}
	fputs("</div>\n", f);
}

static const char *kind_title(const json_t *doc, const json_t *raw)
{
	const char *k = jstr(doc, "kind", "");

	if (json_object_get(json_object_get(raw, "iopath"), "suite"))
		return "suite";
	if (!strcmp(k, "fio"))
		return "jobs";
	return *k ? k : "results";
}

static const char *s_first_label(const json_t *doc)
{
	return jstr(json_array_get(json_object_get(doc, "cells"), 0), "label", "");
}

/*
 * A results document's section; folded (a <details> under its title) where the page leads
 * with a comparison or a history and the results are its detail.
 */
static void results_section(FILE *f, const struct html_doc *d, unsigned idx, bool folded,
			    const char *role)
{
	const json_t *env = json_object_get(d->doc, "env"), *targets = json_object_get(d->doc, "targets");
	const json_t *iop = json_object_get(d->raw, "iopath"), *suite = json_object_get(iop, "suite");
	const char *kind = kind_title(d->doc, d->raw);
	const char *when;
	struct hset s;
	char id[32];

	snprintf(id, sizeof(id), "r%u", idx);
	if (folded)
		fprintf(f, "<details class=\"section\" id=\"%s\"><summary>%s in full: ", id,
			role ? role : "The results");
	else
		fprintf(f, "<h2 id=\"%s\">", id);
	if (suite)
		h_textf(f, "%s %s", kind, jstr(suite, "name", ""));
	else if (!strcmp(kind, "jobs"))
		h_textf(f, "jobs: %s%s", s_first_label(d->doc),
			json_array_size(json_object_get(d->doc, "cells")) > 1 ? ", ..." : "");
	else
		h_textf(f, "%s: %s", kind, jstr(d->doc, "name", ""));
	if (folded) {
		fputs(" <span class=\"muted mono\">", f);
		h_text(f, d->origin);
		fputs("</span>", f);
	}
	fputs(folded ? "</summary>\n<p class=\"sub\">" : "</h2>\n<p class=\"sub\">", f);
	h_text(f, d->origin);
	if (json_is_true(json_object_get(d->doc, "interrupted")))
		fputs(" &mdash; <b class=\"failed\">interrupted: partial results</b>", f);
	fputs("</p>\n", f);
	if (hset_load(&s, d->doc)) {
		fputs(folded ? "<p class=\"bad\">out of memory</p></details>\n" :
		      "<p class=\"bad\">out of memory</p>\n", f);
		return;
	}
	/* a result that carries no time of its own (a suite's) says none rather than 1970 */
	when = json_integer_value(json_object_get(d->doc, "timestamp_ms")) > 0 ?
	       jstr(d->doc, "time_utc", NULL) : NULL;
	if (json_is_object(iop) && json_is_object(json_object_get(iop, "host"))) {
		/* a fio-shaped file: its own host and probes are richer than the loaded cells' */
		json_t *e = json_deep_copy(env);

		if (e) {
			json_object_set(e, "host", json_object_get(iop, "host"));
			if (jstr(iop, "command_line", NULL))
				json_object_set(e, "command_line", json_object_get(iop, "command_line"));
			html_env(f, e, json_object_get(d->doc, "labels"),
				 when ? when : jstr(d->raw, "time", NULL));
			json_decref(e);
		}
		if (!json_array_size(targets))
			targets = json_object_get(iop, "targets");
	} else {
		html_env(f, env, json_object_get(d->doc, "labels"), when);
	}
	html_probes(f, targets, &s);
	html_explain(f, d->doc, d->raw, id);
	/* a suite's rows are its results; its jobs' options would only bury them */
	if (suite)
		html_suite_rows(f, suite, id);
	else
		html_results(f, &s, id);
	hset_free(&s);
	if (folded)
		fputs("</details>\n", f);
}

static void probe_section(FILE *f, const struct html_doc *d, unsigned idx)
{
	const json_t *paths = json_object_get(d->doc, "paths"), *p;
	json_t *env = json_pack("{s:O, s:O*}", "host", json_object_get(d->doc, "host"), "iopath",
				json_object_get(d->doc, "iopath"));
	size_t i;

	fprintf(f, "<h2 id=\"r%u\">probe</h2>\n<p class=\"sub\">", idx);
	h_text(f, d->origin);
	fputs("</p>\n", f);
	if (env)
		html_env(f, env, NULL, NULL);
	json_decref(env);
	fputs("<h3>Paths</h3>\n<div class=\"cards\">\n", f);
	json_array_foreach(paths, i, p)
		probe_card(f, NULL, jstr(p, "path", "?"), NULL, p, jstr(p, "error", NULL), NULL);
	fputs("</div>\n", f);
}

static const char *doc_name(const struct html_doc *d)
{
	switch (d->kind) {
	case HTML_RESULTS: return kind_title(d->doc, d->raw);
	case HTML_PROBE: return "probe";
	case HTML_COMPARE: return "compare";
	case HTML_HISTORY: return "history";
	}
	return "?";
}

/* The file d came from, or NULL for the command's own document (compare's, history's). */
static const char *doc_file(const struct html_doc *d)
{
	return d->origin && strcmp(d->origin, doc_name(d)) ? d->origin : NULL;
}

/* Under compare's and history's heading: the file, else what they read and how. */
static void cmp_sub(FILE *f, const struct html_doc *d)
{
	fputs("<p class=\"sub\">", f);
	if (doc_file(d))
		h_text(f, doc_file(d));
	else if (d->kind == HTML_COMPARE)
		h_textf(f, "BASE %s against CUR %s", jstr(d->doc, "base", "?"), jstr(d->doc, "cur", "?"));
	else
		h_textf(f, "ordered by %s", jstr(d->doc, "axis", jstr(d->doc, "by", "time")));
	fputs("</p>\n", f);
}

/* BASE or CUR where a comparison on the page read the results d, else NULL. */
static const char *compared_as(const struct html_page *p, const struct html_doc *d)
{
	for (unsigned i = 0; i < p->nr; i++) {
		if (p->docs[i].kind != HTML_COMPARE || !d->origin)
			continue;
		if (!strcmp(jstr(p->docs[i].doc, "base", ""), d->origin))
			return "BASE";
		if (!strcmp(jstr(p->docs[i].doc, "cur", ""), d->origin))
			return "CUR";
	}
	return NULL;
}

int html_report(FILE *f, const struct html_page *p, struct iop_err *err)
{
	unsigned i, k;
	char id[32];
	bool answers = p->trend != NULL;

	/* a comparison or a history is the page's answer: the results it read are its detail */
	for (i = 0; i < p->nr; i++)
		answers |= p->docs[i].kind == HTML_COMPARE || p->docs[i].kind == HTML_HISTORY;

	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<meta name=\"generator\" content=\"iopath ", f);
	h_text(f, iopath_version);
	fputs("\">\n<title>", f);
	h_text(f, p->title ? p->title : "iopath report");
	fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>", css);
	h_text(f, p->title ? p->title : "iopath report");
	fputs("</h1>\n<p class=\"sub\">", f);
	h_textf(f, "written by iopath %s", iopath_version);
	for (i = 0, k = 0; i < p->nr; i++) {
		if (!doc_file(&p->docs[i]))
			continue;
		fputs(k++ ? ", " : " from ", f);
		fputs("<span class=\"mono\">", f);
		h_text(f, doc_file(&p->docs[i]));
		fputs("</span>", f);
	}
	fputs("</p>\n", f);
	if (p->nr + (p->trend != NULL) > 1) {
		fputs("<nav>", f);
		for (i = 0; i < p->nr; i++) {
			fprintf(f, "<a href=\"#r%u\">", i);
			if (doc_file(&p->docs[i]))
				h_textf(f, "%s (%s)", doc_name(&p->docs[i]), doc_file(&p->docs[i]));
			else
				h_text(f, doc_name(&p->docs[i]));
			fputs("</a>", f);
		}
		if (p->trend)
			fputs("<a href=\"#trend\">trend across runs</a>", f);
		fputs("</nav>\n", f);
	}
	/* the trend across runs leads; the latest run it ends with is its detail */
	if (p->trend)
		html_trend(f, p->trend, "trend");
	for (i = 0; i < p->nr; i++) {
		const struct html_doc *d = &p->docs[i];

		snprintf(id, sizeof(id), "r%u", i);
		switch (d->kind) {
		case HTML_RESULTS:
			results_section(f, d, i, answers, compared_as(p, d));
			break;
		case HTML_PROBE:
			probe_section(f, d, i);
			break;
		case HTML_COMPARE:
			fprintf(f, "<h2 id=\"%s\">compare</h2>\n", id);
			cmp_sub(f, d);
			html_compare(f, d->doc, id);
			break;
		case HTML_HISTORY:
			fprintf(f, "<h2 id=\"%s\">history</h2>\n", id);
			cmp_sub(f, d);
			html_history(f, d->doc, id);
			break;
		}
	}
	fprintf(f, "<footer>iopath %s: one self-contained page (no network access); click a table's header to sort it.</footer>\n"
		"<script>\n%s</script>\n</body></html>\n", iopath_version, script);
	if (ferror(f))
		return iop_errf(err, -EIO, "writing the HTML report failed");
	return 0;
}
