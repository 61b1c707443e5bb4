/* Integration: iopath report and --html on the commands: one page written, bad input refused. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "harness.h"

TestSuite(report, .fini = tmpdir_cleanup);

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0;
	long n;

	cr_assert_not_null(f, "%s was not written", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	cr_assert_not_null(buf);
	len = fread(buf, 1, (size_t)n, f);
	buf[len] = '\0';
	fclose(f);
	return buf;
}

/* A null-engine sweep of 2 engines x 2 depths whose target role is a hostile string. */
static void sweep_json(const char *dir, const char *json, const char *html)
{
	char target[512];

	snprintf(target, sizeof(target), "<b>x&y</b>=%s", dir);
	iopath_exits(0, "sweep", "--engine", "null,psync", "--iodepth", "1,4", "--target", target,
		     "--size", "1m", "--runtime", "0", "--json", json, html ? "--html" : NULL, html,
		     NULL);
}

Test(report, sweep_json_becomes_one_page)
{
	const char *dir = tmpdir_make();
	char json[512], html[512], *page;

	snprintf(json, sizeof(json), "%s/s.json", dir);
	snprintf(html, sizeof(html), "%s/s.html", dir);
	sweep_json(dir, json, NULL);
	iopath_exits(0, "report", json, "-o", html, NULL);
	page = slurp(html);
	cr_assert_not_null(strstr(page, "<!DOCTYPE html>"));
	cr_assert_not_null(strstr(page, "data-kind=\"bars\""));
	cr_assert_not_null(strstr(page, "&lt;b&gt;x&amp;y&lt;/b&gt;"), "the role is not escaped");
	cr_assert_null(strstr(page, "<b>x&y"), "the role reached the page as markup");
	cr_assert_null(strstr(page, "http://"));
	cr_assert_null(strstr(page, "https://"));
	free(page);
}

Test(report, sweep_html_option_writes_the_page)
{
	const char *dir = tmpdir_make();
	char json[512], html[512], *page;

	snprintf(json, sizeof(json), "%s/s.json", dir);
	snprintf(html, sizeof(html), "%s/direct.html", dir);
	sweep_json(dir, json, html);
	page = slurp(html);
	cr_assert_not_null(strstr(page, "IOPS against iodepth"));
	free(page);
}

Test(report, probe_and_compare_inputs)
{
	const char *dir = tmpdir_make();
	char json[512], cmp[512], probe[512], html[512], *page;
	struct run_out r;

	snprintf(json, sizeof(json), "%s/s.json", dir);
	snprintf(cmp, sizeof(cmp), "%s/c.json", dir);
	snprintf(probe, sizeof(probe), "%s/p.json", dir);
	snprintf(html, sizeof(html), "%s/all.html", dir);
	sweep_json(dir, json, NULL);
	r = iopath_run("compare", json, json, NULL);
	run_out_free(&r);
	{
		char arg[600];

		snprintf(arg, sizeof(arg), "--json=%s", cmp);
		r = iopath_run("compare", json, json, arg, NULL);
		cr_assert_neq(r.status, 2, "compare: %s", r.err);
		run_out_free(&r);
	}
	r = iopath_run("probe", dir, "--json", "--no-trials", NULL);
	cr_assert_eq(r.status, 0, "probe: %s", r.err);
	file_write_text(probe, r.out);
	run_out_free(&r);
	iopath_exits(0, "report", json, cmp, probe, "-o", html, "--title", "<i>t</i>", NULL);
	page = slurp(html);
	cr_assert_not_null(strstr(page, "<title>&lt;i&gt;t&lt;/i&gt;</title>"));
	cr_assert_not_null(strstr(page, "<h2 id=\"r1\">compare</h2>"));
	cr_assert_not_null(strstr(page, "<h2 id=\"r2\">probe</h2>"));
	free(page);
}

Test(report, refuses_bad_input_with_exit_2)
{
	const char *dir = tmpdir_make();
	const char *bad = tmp_str("%s/bad.json", dir), *html = tmp_str("%s/x.html", dir);
	struct run_out r;
	struct stat st;

	file_write_text(bad, "{\"neither\": 1}");
	r = iopath_run("report", bad, "-o", html, NULL);
	cr_assert_eq(r.status, 2);
	cr_assert_not_null(strstr(r.err, "bad.json"), "%s", r.err);
	cr_assert_eq(stat(html, &st), -1, "a page was written for bad input");
	run_out_free(&r);
	iopath_refuses("-o FILE", "report", bad, NULL);
	iopath_exits(2, "report", "-o", html, NULL);
	iopath_refuses("/nonexistent/x.json", "report", "/nonexistent/x.json", "-o", html, NULL);
	r = iopath_run("sweep", "--engine", "null", "--html", "/nonexistent/dir/x.html", NULL);
	cr_assert_eq(r.status, 2, "an unwritable --html is found before the run: %s", r.err);
	cr_assert_not_null(strstr(r.err, "--html=/nonexistent/dir/x.html"),
			   "the refusal names the option given: %s", r.err);
	run_out_free(&r);
	iopath_refuses("--output=/nonexistent/dir/x.html", "report", "/nonexistent/x.json",
		       "--output", "/nonexistent/dir/x.html", NULL);
}

/* A suite's page shows each target's probe (the suite probed its temporary directory inside
 * the target) and no time where the suite's JSON carries none. */
Test(report, suite_page_shows_each_targets_probe)
{
	const char *dir = tmpdir_make();
	char target[512], out[512], html[512], *page;

	snprintf(target, sizeof(target), "disk=%s", dir);
	snprintf(out, sizeof(out), "--output=%s/suite.json", dir);
	snprintf(html, sizeof(html), "%s/suite.html", dir);
	iopath_exits(0, "suite", "vm-paths", "--target", target, "--scale=0.001", "--repeat", "1",
		     "--output-format=json", out, "--html", html, NULL);
	page = slurp(html);
	cr_assert_null(strstr(page, "not probed"), "the target's probe was lost");
	cr_assert_not_null(strstr(page, "<th>trial</th>"), "no capability trials on the card");
	cr_assert_null(strstr(page, "1970-01-01"), "a time the suite never recorded");
	free(page);
}

/*
 * A QEMU lab's lab.json (tests/lab/lab-explained.json, from a real lab run) is explained on the
 * page as `iopath explain` explains it: each path's card, its verdict per direction.
 */
Test(report, a_labs_result_carries_its_explanation)
{
	const char *dir = tmpdir_make();
	char html[512], *page, *ex;

	snprintf(html, sizeof(html), "%s/lab.html", dir);
	iopath_exits(0, "report", "tests/lab/lab-explained.json", "-o", html, NULL);
	page = slurp(html);
	ex = strstr(page, "Why each path is as fast as it is");
	cr_assert_not_null(ex, "no explanation on the lab's page");
	cr_assert_not_null(strstr(ex, "9p-none: <code class=\"verdict\">"), "no card for 9p-none");
	cr_assert_not_null(strstr(ex, "ext4-virtio-blk: <code class=\"verdict\">"));
	cr_assert_not_null(strstr(ex, "reads: <code>serialized</code> (high)"),
			   "9p's reads not told serialized");
	free(page);
}

/*
 * The trend and history of four runs started within two seconds of one day: each named by its
 * own time to the millisecond, the day they share said once, not repeated on every run; the
 * charts' lines named without the words all of them share.
 */
Test(report, runs_are_named_by_their_shortest_distinct_time)
{
	static const char *const names[] = { "14:45:04.510", "14:45:04.885", "14:45:05.268",
					     "14:45:05.626" };
	/* the gallery's four runs, restarted at 2026-12-02 14:45:04.510 UTC and within 1.2 s */
	static const long long at[] = { 1796222704510, 1796222704885, 1796222705268, 1796222705626 };
	const char *dir = tmpdir_make(), *runs = tmp_str("%s/runs", dir);
	const char *html = tmp_str("%s/trend.html", dir);
	struct run_out r;
	char *page, cell[64];
	unsigned i;

	cr_assert_eq(mkdir(runs, 0755), 0);
	for (i = 0; i < 4; i++) {
		json_t *doc = json_load_path(tmp_str("tests/html/gallery/history/run%u.json", i));

		cr_assert_not_null(doc);
		json_object_set_new(doc, "timestamp_ms", json_integer(at[i]));
		cr_assert_eq(json_dump_file(doc, tmp_str("%s/run%u.json", runs, i), 0), 0);
		json_decref(doc);
	}
	iopath_exits(0, "report", runs, "-o", html, NULL);
	page = slurp(html);
	for (i = 0; i < 4; i++) {
		snprintf(cell, sizeof(cell), "<tr><td>%s</td>", names[i]);
		cr_assert_not_null(strstr(page, cell), "run %u is not named %s", i, names[i]);
	}
	cr_assert_null(strstr(page, "<tr><td>2026-12-02"), "a run named with the day they share");
	cr_assert_not_null(strstr(page, "time (UTC, 2026-12-02)"), "the shared day is not said");
	/* the lines' names without what every one holds, said once above them */
	cr_assert_not_null(strstr(page, "every line: disk randread bs=4k direct=1"), "no common part");
	cr_assert_not_null(strstr(page, "\">qd=4 io_uring</text>"), "a legend keeps the common part");
	free(page);
	html = tmp_str("%s/history.html", dir);
	r = iopath_run("history", runs, "--by", "qemu", "--html", html, NULL);
	cr_assert_neq(r.status, 2, "history: %s%s", r.out, r.err);
	run_out_free(&r);
	page = slurp(html);
	cr_assert_not_null(strstr(page, "every line: disk randread bs=4k direct=1"), "no common part");
	cr_assert_not_null(strstr(page, "\">qd=1 psync</text>"), "a legend keeps the common part");
	/* the axis says qemu, its ticks the versions */
	cr_assert_not_null(strstr(page, "\">8.1</text>"), "a tick is not the value alone");
	free(page);
	r = iopath_run("history", runs, NULL);
	cr_assert_neq(r.status, 2, "history: %s%s", r.out, r.err);
	assert_has(r.out, "ordered by time (UTC, 2026-12-02)",
		   "newest: 14:45:05.626 against 14:45:05.268", NULL);
	cr_assert_null(strstr(strstr(r.out, "\n"), "2026-12-02"), "the day repeated:\n%s", r.out);
	run_out_free(&r);
}
