/* Integration: iopath compare and history on synthetic result files with known differences. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"

TestSuite(compare, .fini = tmpdir_cleanup);

#define REPS 5

static const double tight[REPS] = { 100000, 100400, 99700, 100200, 99900 };
static const double noisy[REPS] = { 100000, 60000, 140000, 90000, 110000 };

static json_t *sample(const char *name, double iops)
{
	return json_pack("{s:s, s:i, s:{s:f, s:f, s:i, s:{s:{s:i, s:i, s:i}}}}", "jobname", name,
			 "error", 0, "read", "iops", iops, "bw_bytes", iops * 4096, "total_ios", 1000,
			 "clat_ns", "percentile", "50.000000", 60000, "99.000000", 90000, "99.900000",
			 120000);
}

static json_t *cell(const char *engine, const double *iops, unsigned n, double scale)
{
	json_t *samples = json_array();
	char label[64];
	unsigned i;

	for (i = 0; i < n; i++)
		json_array_append_new(samples, sample(engine, iops[i] * scale));
	snprintf(label, sizeof(label), "disk randread %s", engine);
	return json_pack("{s:{s:s, s:s, s:s}, s:s, s:s, s:o}", "identity", "target", "disk", "rw",
			 "randread", "engine", engine, "label", label, "status", "ok", "samples",
			 samples);
}

/* A saved result with two cells: io_uring scaled by scale, psync as given. */
static void write_result(const char *path, const char *version, const char *qemu,
			 const double *iops, unsigned n, double scale, long long ts)
{
	json_t *root = json_pack("{s:i, s:s, s:s, s:I, s:{s:s}, s:{s:s, s:{s:s, s:s}, s:{s:s, s:s}}, s:[], s:[o, o]}",
				 "schema_version", 1, "kind", "sweep", "name", "sweep", "timestamp_ms",
				 (json_int_t)ts, "labels", "qemu", qemu, "env", "hostname", "h", "host",
				 "kernel", "6.1", "cpu_model", "EPYC", "iopath", "version", version,
				 "cflags", "-O2", "targets", "cells", cell("io_uring", iops, n, scale),
				 cell("psync", iops, n, 1.0));

	cr_assert_not_null(root);
	cr_assert_eq(json_dump_file(root, path, 0), 0);
	json_decref(root);
}

static void paths(char *base, char *cur, size_t len)
{
	const char *dir = tmpdir_make();

	snprintf(base, len, "%s/base.json", dir);
	snprintf(cur, len, "%s/cur.json", dir);
}

Test(compare, tight_twenty_percent_drop_is_a_regression_naming_the_cell)
{
	char base[300], cur[300], *line;
	struct run_out r;

	paths(base, cur, sizeof(base));
	write_result(base, "v1", "8.2.1", tight, REPS, 1.0, 1000);
	write_result(cur, "v1", "9.0.0", tight, REPS, 0.8, 2000);
	r = iopath_run("compare", base, cur, "--threshold", "5%", NULL);
	cr_assert_eq(r.status, 1, "exit %d\n%s%s", r.status, r.out, r.err);
	line = strstr(r.out, "REGRESSION");
	cr_assert_not_null(line, "%s", r.out);
	while (line > r.out && line[-1] != '\n')
		line--;
	cr_assert_not_null(strstr(line, "io_uring"), "the regressed cell is named first:\n%s", r.out);
	cr_assert_not_null(strstr(line, "-20.0%"), "%s", line);
	cr_assert_null(strstr(strchr(line, '\n') + 1, "psync      iops  100.2k  80"), "psync unchanged");
	cr_assert_not_null(strstr(r.out, "changed: label qemu: 8.2.1 -> 9.0.0"), "%s", r.out);
	run_out_free(&r);
}

Test(compare, identical_results_exit_zero)
{
	char base[300], cur[300];
	struct run_out r;

	paths(base, cur, sizeof(base));
	write_result(base, "v1", "8.2.1", tight, REPS, 1.0, 1000);
	write_result(cur, "v1", "8.2.1", tight, REPS, 1.0, 2000);
	r = iopath_run("compare", base, cur, NULL);
	cr_assert_eq(r.status, 0, "exit %d\n%s%s", r.status, r.out, r.err);
	cr_assert_null(strstr(r.out, "REGRESSION"), "%s", r.out);
	cr_assert_not_null(strstr(r.out, "0 regression(s)"), "%s", r.out);
	run_out_free(&r);
}

Test(compare, drop_inside_the_noise_is_not_a_regression)
{
	char base[300], cur[300];

	paths(base, cur, sizeof(base));
	write_result(base, "v1", "8.2.1", noisy, REPS, 1.0, 1000);
	write_result(cur, "v1", "8.2.1", noisy, REPS, 0.92, 2000);
	iopath_prints(0, HAS("within noise", "-8.0%"), "compare", base, cur, "--metric=iops", NULL);
}

Test(compare, single_samples_are_inconclusive_exit_three)
{
	char base[300], cur[300];

	paths(base, cur, sizeof(base));
	write_result(base, "v1", "8.2.1", tight, 1, 1.0, 1000);
	write_result(cur, "v1", "8.2.1", tight, 1, 0.8, 2000);
	iopath_prints(3, HAS("cannot judge: single samples", "2 cell(s) could not be judged"),
		      "compare", base, cur, NULL);
	iopath_exits(0, "compare", base, cur, "--allow-inconclusive", NULL);
	iopath_exits(1, "compare", base, cur, "--strict", NULL);
}

Test(compare, a_regression_beside_inconclusive_cells_exits_one)
{
	char base[300], cur[300];

	paths(base, cur, sizeof(base));
	write_result(base, "v1", "8.2.1", tight, REPS, 1.0, 1000);
	write_result(cur, "v1", "8.2.1", tight, REPS, 0.7, 2000);
	iopath_exits(1, "compare", base, cur, "--allow-inconclusive", NULL);
}

Test(compare, three_repeats_judge_a_thirty_percent_drop_and_its_absence)
{
	static const double three[3] = { 100000, 97000, 103000 };
	char base[300], cur[300];

	paths(base, cur, sizeof(base));
	write_result(base, "v1", "8.2.1", three, 3, 1.0, 1000);
	write_result(cur, "v1", "8.2.1", three, 3, 0.7, 2000);
	iopath_prints(1, HAS("REGRESSION"), "compare", base, cur, "--metric=iops", NULL);
	write_result(cur, "v1", "8.2.1", three, 3, 1.02, 2000);
	iopath_prints(0, HAS("unchanged"), "compare", base, cur, "--metric=iops", NULL);
}

Test(compare, junit_marks_inconclusive_cells_skipped_with_the_reason)
{
	char base[300], cur[300], junit[320], *buf;
	struct run_out r;
	json_t *root;

	paths(base, cur, sizeof(base));
	snprintf(junit, sizeof(junit), "%s.xml", cur);
	write_result(base, "v1", "8.2.1", tight, 1, 1.0, 1000);
	write_result(cur, "v1", "8.2.1", tight, 1, 1.0, 2000);
	root = iopath_json_kept(&r, 3, "compare", base, cur, "--json", "--junit", junit, NULL);
	cr_assert_eq(json_integer_value(json_object_get(root, "exit_code")), 3, "%s", r.out);
	cr_assert_str_eq(json_string_value(json_object_get(root, "outcome")), "inconclusive");
	cr_assert_eq(json_integer_value(json_object_get(root, "inconclusive_cells")), 2, "%s", r.out);
	cr_assert(json_is_true(json_object_get(json_array_get(json_object_get(json_array_get(
		json_object_get(root, "cells"), 0), "metrics"), 0), "inconclusive")), "%s", r.out);
	json_decref(root);
	buf = file_text(junit);
	assert_has(buf, "skipped=\"10\"", "<skipped message=\"single samples, no test possible",
		   "failures=\"0\"", NULL);
	free(buf);
	run_out_free(&r);
}

Test(compare, warns_when_the_builds_differ)
{
	char base[300], cur[300];
	struct run_out r;

	paths(base, cur, sizeof(base));
	write_result(base, "v1", "8.2.1", tight, REPS, 1.0, 1000);
	write_result(cur, "v2", "8.2.1", tight, REPS, 1.0, 2000);
	r = iopath_run("compare", base, cur, NULL);
	cr_assert_eq(r.status, 0);
	cr_assert_not_null(strstr(r.out, "warning: the runs differ in iopath version: 'v1' vs 'v2'"),
			   "%s", r.out);
	run_out_free(&r);
}

Test(compare, json_and_junit_reports)
{
	char base[300], cur[300], junit[320], *buf;
	struct run_out r;
	json_t *root;

	paths(base, cur, sizeof(base));
	snprintf(junit, sizeof(junit), "%s.xml", cur);
	write_result(base, "v1", "8.2.1", tight, REPS, 1.0, 1000);
	write_result(cur, "v1", "8.2.1", tight, REPS, 0.8, 2000);
	root = iopath_json_kept(&r, 1, "compare", base, cur, "--json", "--junit", junit, NULL);
	/* iops and bw of the io_uring cell */
	cr_assert_eq(json_integer_value(json_object_get(root, "regressions")), 2, "%s", r.out);
	json_decref(root);
	buf = file_text(junit);
	assert_has(buf, "<testsuites", "failures=\"2\"", "<failure type=\"regression\"", NULL);
	free(buf);
	run_out_free(&r);
}

Test(compare, bad_input_exits_two)
{
	char base[300], cur[300];

	paths(base, cur, sizeof(base));
	write_result(base, "v1", "8.2.1", tight, REPS, 1.0, 1000);
	file_write_text(cur, "{\"cells\": 3");
	iopath_refuses("not valid JSON", "compare", base, cur, NULL);
	iopath_exits(2, "compare", base, "/nonexistent/cur.json", NULL);
	iopath_refuses("--threshold", "compare", base, base, "--threshold=lots", NULL);
}

/* A saved result whose io_uring cell failed (with n partial samples), psync fine. */
static void write_failed(const char *path, unsigned n)
{
	json_t *bad = cell("io_uring", tight, n, 1.0), *root;

	json_object_set_new(bad, "status", json_string("failed"));
	json_object_set_new(bad, "reason", json_string("read: Input/output error"));
	root = json_pack("{s:i, s:s, s:s, s:I, s:{s:s}, s:{s:s, s:{s:s}, s:{s:s}}, s:[], s:[o, o]}",
			 "schema_version", 1, "kind", "sweep", "name", "sweep", "timestamp_ms",
			 (json_int_t)3000, "labels", "qemu", "8.2.1", "env", "hostname", "h", "host",
			 "kernel", "6.1", "iopath", "version", "v1", "targets", "cells", bad,
			 cell("psync", tight, REPS, 1.0));
	cr_assert_not_null(root);
	cr_assert_eq(json_dump_file(root, path, 0), 0);
	json_decref(root);
}

Test(compare, a_cell_failed_in_cur_fails_the_comparison)
{
	char base[300], cur[300], junit[320], *buf;
	struct run_out r;
	json_t *root, *row;

	paths(base, cur, sizeof(base));
	snprintf(junit, sizeof(junit), "%s.xml", cur);
	write_result(base, "v1", "8.2.1", tight, REPS, 1.0, 1000);
	/* its partial numbers equal BASE's: they must not pass for "unchanged" */
	write_failed(cur, REPS);
	r = iopath_run("compare", base, cur, NULL);
	cr_assert_eq(r.status, 1, "exit %d\n%s%s", r.status, r.out, r.err);
	assert_has(r.out, "FAILED in CUR: read: Input/output error", "1 cell(s) FAILED in CUR",
		   NULL);
	run_out_free(&r);
	root = iopath_json_kept(&r, 1, "compare", base, cur, "--json", "--junit", junit, NULL);
	cr_assert_eq(json_integer_value(json_object_get(root, "failed_in_cur")), 1, "%s", r.out);
	cr_assert_eq(json_integer_value(json_object_get(root, "regressions")), 0, "%s", r.out);
	row = json_array_get(json_object_get(root, "cells"), 0);
	cr_assert_str_eq(json_string_value(json_object_get(row, "status_cur")), "failed");
	cr_assert_str_eq(json_string_value(json_object_get(json_array_get(
				 json_object_get(row, "metrics"), 0), "verdict")), "failed in CUR");
	json_decref(root);
	buf = file_text(junit);
	cr_assert_not_null(strstr(buf, "<failure type=\"failed\""), "%s", buf);
	free(buf);
	run_out_free(&r);
}

Test(compare, a_cell_failed_in_cur_without_samples_fails_the_comparison)
{
	char base[300], cur[300];
	struct run_out r;

	paths(base, cur, sizeof(base));
	write_result(base, "v1", "8.2.1", tight, REPS, 1.0, 1000);
	write_failed(cur, 0);
	r = iopath_run("compare", base, cur, NULL);
	cr_assert_eq(r.status, 1, "exit %d\n%s%s", r.status, r.out, r.err);
	cr_assert_null(strstr(r.out, "no data"), "%s", r.out);
	run_out_free(&r);
}

Test(compare, a_cell_failed_in_base_is_reported_and_not_judged)
{
	char base[300], cur[300];
	struct run_out r;

	paths(base, cur, sizeof(base));
	write_failed(base, REPS);
	write_result(cur, "v1", "8.2.1", tight, REPS, 0.5, 2000);
	r = iopath_run("compare", base, cur, NULL);
	/* nothing to judge against: inconclusive, not a pass */
	cr_assert_eq(r.status, 3, "exit %d\n%s%s", r.status, r.out, r.err);
	cr_assert_not_null(strstr(r.out, "failed in BASE: read: Input/output error"), "%s", r.out);
	cr_assert_null(strstr(r.out, "REGRESSION"), "judged against partial numbers:\n%s", r.out);
	run_out_free(&r);
}

/* fio's own JSON: jobs with "job options" and no iopath object. */
static void write_fio(const char *path, double iops)
{
	json_t *job = json_pack("{s:s, s:i, s:{s:s, s:s, s:s}, s:{s:f, s:I, s:i, s:{s:{s:i, s:i, s:i}}}}",
				"jobname", "rr", "error", 0, "job options", "rw", "randread", "bs", "4k",
				"filename", "/dev/nvme0n1", "read", "iops", iops, "bw_bytes",
				(json_int_t)(iops * 4096), "total_ios", 5000, "clat_ns", "percentile",
				"50.000000", 70000, "99.000000", 95000, "99.900000", 130000);
	json_t *root = json_pack("{s:s, s:i, s:[o]}", "fio version", "fio-3.33", "timestamp", 1700000000,
				 "jobs", job);

	cr_assert_eq(json_dump_file(root, path, 0), 0);
	json_decref(root);
}

Test(compare, reads_fio_json_and_pools_repeat_files)
{
	const char *dir = tmpdir_make();
	char b[4][300], blist[1300], clist[1300];
	struct run_out r;
	unsigned i;

	for (i = 0; i < 4; i++)
		snprintf(b[i], sizeof(b[i]), "%s/run%u.json", dir, i);
	/* base: two files of 100k and 101k; cur: 80k and 79k, filenames differ per host */
	write_fio(b[0], 100000);
	write_fio(b[1], 101000);
	write_fio(b[2], 80000);
	write_fio(b[3], 79000);
	snprintf(blist, sizeof(blist), "%s,%s", b[0], b[1]);
	snprintf(clist, sizeof(clist), "%s,%s", b[2], b[3]);
	r = iopath_run("compare", blist, clist, "--metric=iops", NULL);
	/* two repeats a side are enough for the test: a 20% drop in a 1% spread */
	cr_assert_eq(r.status, 1, "exit %d\n%s%s", r.status, r.out, r.err);
	cr_assert_not_null(strstr(r.out, "rr"), "%s", r.out);
	cr_assert_not_null(strstr(r.out, "2/2"), "pooled repeats: %s", r.out);
	cr_assert_not_null(strstr(r.out, "REGRESSION"), "%s", r.out);
	run_out_free(&r);
}

Test(compare, a_failed_job_in_fio_json_fails_the_comparison)
{
	char base[300], cur[300];
	struct run_out r;
	json_t *root;

	paths(base, cur, sizeof(base));
	write_fio(base, 100000);
	write_fio(cur, 100000);
	/* the same numbers, but the job ended with EIO */
	root = json_load_path(cur);
	json_object_set_new(json_array_get(json_object_get(root, "jobs"), 0), "error",
			    json_integer(5));
	cr_assert_eq(json_dump_file(root, cur, 0), 0);
	json_decref(root);
	r = iopath_run("compare", base, cur, NULL);
	cr_assert_eq(r.status, 1, "exit %d\n%s%s", r.status, r.out, r.err);
	cr_assert_not_null(strstr(r.out, "FAILED in CUR: error=5 (Input/output error)"), "%s",
			   r.out);
	cr_assert_null(strstr(r.out, "unchanged"), "%s", r.out);
	run_out_free(&r);
}

/*
 * A continue_on_error job reports its first error in "error" (as fio) but did not fail: iopath's
 * JSON says a job failed with iopath.error_message. Such a cell is judged, a failed one is not.
 */
Test(compare, errors_a_job_went_on_after_are_not_a_failure)
{
	char base[300], cur[300];
	struct run_out r;
	json_t *root, *job;

	paths(base, cur, sizeof(base));
	write_fio(base, 100000);
	write_fio(cur, 100000);
	root = json_load_path(cur);
	job = json_array_get(json_object_get(root, "jobs"), 0);
	json_object_set_new(job, "error", json_integer(28));
	json_object_set_new(job, "total_err", json_integer(4));
	json_object_set_new(job, "iopath", json_pack("{s:b}", "interrupted", 0));
	cr_assert_eq(json_dump_file(root, cur, 0), 0);
	/* one sample a side: judged inconclusive, which is allowed here */
	r = iopath_run("compare", base, cur, "--allow-inconclusive", NULL);
	cr_assert_eq(r.status, 0, "exit %d\n%s%s", r.status, r.out, r.err);
	cr_assert_null(strstr(r.out, "FAILED"), "%s", r.out);
	run_out_free(&r);
	/* the same job failing: iopath names why */
	json_object_set_new(json_object_get(job, "iopath"), "error_message",
			    json_string("write: No space left on device"));
	cr_assert_eq(json_dump_file(root, cur, 0), 0);
	json_decref(root);
	iopath_prints(1, HAS("FAILED in CUR: write: No space left on device"), "compare", base, cur,
		      NULL);
}

Test(compare, plain_iopath_json_compares_with_itself)
{
	const char *dir = tmpdir_make();
	char out[300];
	struct run_out r = iopath_run("--name=j", tmp_str("--filename=%s/f", dir), "--size=1m",
				      "--rw=randread", "--ioengine=null", "--output-format=json",
				      tmp_str("--output=%s/a.json", dir), NULL);

	cr_assert_eq(r.status, 0, "%s", r.err);
	run_out_free(&r);
	snprintf(out, sizeof(out), "%s/a.json", dir);
	r = iopath_run("compare", out, out, NULL);
	/* a plain run is one sample: nothing regressed, but nothing could be judged */
	cr_assert_eq(r.status, 3, "%s%s", r.out, r.err);
	cr_assert_not_null(strstr(r.out, "1 cell(s) compared"), "%s", r.out);
	run_out_free(&r);
}

/*
 * Plain iopath JSON files pooled as repeats (a directory each side, as the lab writes them)
 * carry the run's environment and start time into their jobs: compare names both sides'
 * environment, and files taken in alternation are tested in pairs.
 */
Test(compare, plain_iopath_json_files_carry_their_environment_and_time)
{
	const char *dir = tmpdir_make();
	char a[300], b[300];
	struct run_out r;
	json_t *root, *m;
	unsigned i;

	snprintf(a, sizeof(a), "%s/a", dir);
	snprintf(b, sizeof(b), "%s/b", dir);
	cr_assert_eq(mkdir(a, 0700), 0);
	cr_assert_eq(mkdir(b, 0700), 0);
	/* A B A B A B: three pairs in time */
	for (i = 0; i < 6; i++) {
		iopath_exits(0, "--name=j", tmp_str("--filename=%s/f", dir), "--size=1m",
			     "--rw=randread", "--ioengine=null", "--output-format=json",
			     tmp_str("--output=%s/%u.json", i % 2 ? b : a, i), NULL);
		usleep(20000);
	}
	r = iopath_run("compare", a, b, "--metric=iops", NULL);
	cr_assert_null(strstr(r.out, "not recorded"), "%s", r.out);
	assert_has(r.out, "environment: BASE other CPU", "3/3 (3 pairs)", NULL);
	run_out_free(&r);
	root = iopath_json_kept(&r, ANY_STATUS, "compare", a, b, "--metric=iops", "--json", NULL);
	cr_assert_not_null(root, "%s", r.out);
	m = json_object_get(json_object_get(root, "environment"), "base");
	cr_assert_eq(json_integer_value(json_object_get(m, "repeats")), 3, "%s", r.out);
	json_decref(root);
	run_out_free(&r);
}

Test(compare, history_orders_runs_by_a_label_and_plots)
{
	const char *dir = tmpdir_make();
	char p[3][300], plot[300], png[400];
	struct run_out r;
	char *a, *b, *c;

	snprintf(p[0], sizeof(p[0]), "%s/store/x/1.json", dir);
	snprintf(p[1], sizeof(p[1]), "%s/store/x/2.json", dir);
	snprintf(p[2], sizeof(p[2]), "%s/store/x/3.json", dir);
	snprintf(plot, sizeof(plot), "%s/store", dir);
	cr_assert_eq(mkdir(plot, 0755), 0);
	snprintf(plot, sizeof(plot), "%s/store/x", dir);
	cr_assert_eq(mkdir(plot, 0755), 0);
	/* written in time order 9.0, 8.2.1, 10.0: version order puts 8.2.1 first, 10.0 last */
	write_result(p[0], "v1", "9.0", tight, 3, 0.9, 1000);
	write_result(p[1], "v1", "8.2.1", tight, 3, 1.0, 2000);
	write_result(p[2], "v1", "10.0", tight, 3, 0.7, 3000);
	snprintf(plot, sizeof(plot), "--plot=%s/charts", dir);
	snprintf(png, sizeof(png), "%s/store", dir);
	r = iopath_run("history", png, "--by", "qemu", plot, NULL);
	cr_assert_eq(r.status, 1, "the newest group is a step for the worse: %s%s", r.out, r.err);
	cr_assert_not_null(strstr(r.out, "newest: qemu=10.0 against qemu=9.0"), "%s", r.out);
	a = strstr(r.out, "qemu=8.2.1");
	b = strstr(r.out, "qemu=9.0");
	c = strstr(r.out, "qemu=10.0");
	cr_assert(a && b && c && a < b && b < c, "version order:\n%s", r.out);
	cr_assert_not_null(strstr(r.out, "-30.0%"), "last against first: %s", r.out);
	snprintf(png, sizeof(png), "%s/charts/history-iops.png", dir);
	cr_assert_eq(access(png, R_OK), 0, "%s", r.err);
	run_out_free(&r);
}

/* Three runs in a directory with the io_uring cell scaled by scale[i], n repeats each. */
static void history_dir(char *dir, size_t len, const double *scale, unsigned n)
{
	char p[400];
	unsigned i;

	snprintf(dir, len, "%s/h", tmpdir_make());
	cr_assert_eq(mkdir(dir, 0755), 0);
	for (i = 0; i < 3; i++) {
		snprintf(p, sizeof(p), "%s/%u.json", dir, i);
		write_result(p, "v1", i == 0 ? "8.2.1" : i == 1 ? "9.0" : "10.0", tight, n,
			     scale[i], 1000 + i);
	}
}

Test(compare, history_exits_zero_when_the_newest_step_is_judged_unchanged)
{
	static const double scale[] = { 1.0, 0.7, 0.7 };
	char dir[300];
	struct run_out r;

	history_dir(dir, sizeof(dir), scale, 3);
	r = iopath_run("history", dir, "--by", "qemu", NULL);
	cr_assert_eq(r.status, 0, "an older step does not fail the newest: %s%s", r.out, r.err);
	cr_assert_not_null(strstr(r.out, "step: disk randread io_uring: iops regression -30.0% at qemu=9.0"),
			   "%s", r.out);
	run_out_free(&r);
}

Test(compare, history_exits_three_when_the_newest_step_cannot_be_judged)
{
	static const double scale[] = { 1.0, 1.0, 0.7 };
	char dir[300], one[400];

	history_dir(dir, sizeof(dir), scale, 1);
	iopath_exits(3, "history", dir, "--by", "qemu", NULL);
	iopath_exits(0, "history", dir, "--by", "qemu", "--allow-inconclusive", NULL);
	iopath_exits(1, "history", dir, "--by", "qemu", "--strict", NULL);
	snprintf(one, sizeof(one), "%s/0.json", dir);
	iopath_prints(3, HAS("\"outcome\": \"inconclusive\""), "history", dir, "--label",
		      "qemu=8.2.1", "--json", NULL);
}

Test(compare, history_help_documents_its_exit_codes)
{
	struct run_out r = iopath_run("help", "history", NULL);

	cr_assert_eq(r.status, 0);
	assert_has(r.out, "--allow-inconclusive", "3 it cannot be judged", NULL);
	run_out_free(&r);
}

/* One cell of n repeats from iops[], every sample completing ios I/Os. */
static json_t *cell_ios(const char *engine, const double *iops, unsigned n, double scale,
			double ios)
{
	json_t *c = cell(engine, iops, n, scale), *s;
	size_t i;

	json_array_foreach(json_object_get(c, "samples"), i, s)
		json_object_set_new(json_object_get(s, "read"), "total_ios", json_real(ios));
	return c;
}

static void write_cells(const char *path, json_t *cells)
{
	json_t *root = json_pack("{s:i, s:s, s:s, s:I, s:{}, s:{s:s, s:{s:s}, s:{s:s}}, s:[], s:o}",
				 "schema_version", 1, "kind", "sweep", "name", "sweep", "timestamp_ms",
				 (json_int_t)1000, "labels", "env", "hostname", "h", "host", "kernel",
				 "6.1", "iopath", "version", "v1", "targets", "cells", cells);

	cr_assert_not_null(root);
	cr_assert_eq(json_dump_file(root, path, 0), 0);
	json_decref(root);
}

Test(compare, tails_are_judged_only_with_enough_ios_and_repeats)
{
	char base[300], cur[300];
	struct run_out r;

	paths(base, cur, sizeof(base));
	write_cells(base, json_pack("[o]", cell_ios("io_uring", tight, 3, 1.0, 5000)));
	write_cells(cur, json_pack("[o]", cell_ios("io_uring", tight, 3, 1.0, 5000)));
	iopath_prints(0, HAS("cannot judge: tail: 3/3 repeats, needs 5 a side (--repeat 5)",
			     "1 tail percentile(s) not judged"),
		      "compare", base, cur, NULL);
	iopath_exits(3, "compare", base, cur, "--metric", "clat_p99.9", NULL);
	write_cells(base, json_pack("[o]", cell_ios("io_uring", tight, 5, 1.0, 500)));
	write_cells(cur, json_pack("[o]", cell_ios("io_uring", tight, 5, 1.0, 500)));
	r = iopath_run("compare", base, cur, "--metric", "clat_p99", NULL);
	cr_assert_eq(r.status, 3, "%s%s", r.out, r.err);
	cr_assert_not_null(strstr(r.out, "tail: 500 I/Os a repeat, needs 1000"),
			   "%s", r.out);
	run_out_free(&r);
}

Test(compare, unreliable_cells_are_named)
{
	char base[300], cur[300];
	struct run_out r;
	json_t *root;

	paths(base, cur, sizeof(base));
	write_cells(base, json_pack("[o, o]", cell_ios("io_uring", noisy, 5, 1.0, 5000),
				    cell_ios("psync", tight, 5, 1.0, 5000)));
	write_cells(cur, json_pack("[o, o]", cell_ios("io_uring", tight, 5, 1.0, 5000),
				   cell_ios("psync", tight, 5, 1.0, 5000)));
	r = iopath_run("compare", base, cur, NULL);
	cr_assert_not_null(strstr(r.out, "unreliable: disk randread io_uring: IOPS or bandwidth varied 29% across repeats in BASE"),
			   "%s", r.out);
	cr_assert_null(strstr(r.out, "unreliable: disk randread psync"), "%s", r.out);
	run_out_free(&r);
	root = iopath_json_kept(&r, ANY_STATUS, "compare", base, cur, "--json", NULL);
	cr_assert_not_null(root, "%s", r.out);
	cr_assert_eq(json_array_size(json_object_get(root, "unreliable_cells")), 1, "%s", r.out);
	json_decref(root);
	run_out_free(&r);
}

Test(compare, the_bound_shown_is_the_one_that_decides)
{
	char base[300], cur[300];
	json_t *root, *c, *m;
	size_t i, k;

	paths(base, cur, sizeof(base));
	write_result(base, "v1", "8.2.1", tight, REPS, 1.0, 1000);
	write_result(cur, "v1", "8.2.1", tight, REPS, 0.8, 2000);
	root = iopath_json(1, "compare", base, cur, "--json", NULL);
	cr_assert_str_eq(json_string_value(json_object_get(root, "correction")), "benjamini-hochberg");
	json_array_foreach(json_object_get(root, "cells"), i, c)
		json_array_foreach(json_object_get(c, "metrics"), k, m) {
			const char *v = json_string_value(json_object_get(m, "verdict"));
			double hi = json_number_value(json_object_get(m, "change_ci_hi"));
			double lo = json_number_value(json_object_get(m, "change_ci_lo"));
			bool beyond;

			if (!json_is_true(json_object_get(m, "tested")))
				continue;
			/* a drop is bounded above, a rise below; flagged exactly when beyond 5% */
			beyond = json_is_null(json_object_get(m, "change_ci_lo")) ? hi < -0.05 : lo > 0.05;
			cr_assert_eq(beyond, !strcmp(v, "regression") || !strcmp(v, "improvement"),
				     "%s %s: %s", json_string_value(json_object_get(c, "label")),
				     json_string_value(json_object_get(m, "metric")), v);
		}
	json_decref(root);
}

/* Every sample of the file's cells records other processes' CPU share other_cpu. */
static void set_machine(const char *path, double other_cpu)
{
	json_t *root = json_load_path(path), *c, *s;
	size_t i, k;

	json_array_foreach(json_object_get(root, "cells"), i, c)
		json_array_foreach(json_object_get(c, "samples"), k, s)
			json_object_set_new(s, "iopath", json_pack("{s:{s:f, s:i, s:f, s:f, s:f, s:f}}",
				"machine", "wall_s", 1.0, "cpus", 2, "other_cpu", other_cpu,
				"own_cpu", 0.2, "steal", 0.0, "load1_end", 1.0));
	cr_assert_eq(json_dump_file(root, path, 0), 0);
	json_decref(root);
}

Test(compare, a_regression_the_environment_explains_exits_three)
{
	char base[300], cur[300];
	struct run_out r;

	paths(base, cur, sizeof(base));
	write_result(base, "v1", "8.2.1", tight, REPS, 1.0, 1000);
	write_result(cur, "v1", "8.2.1", tight, REPS, 0.8, 2000);
	set_machine(base, 0.02);
	set_machine(cur, 0.60);
	r = iopath_run("compare", base, cur, NULL);
	cr_assert_eq(r.status, 3, "%s%s", r.out, r.err);
	cr_assert_not_null(strstr(r.out, "the environment differed: other processes used 60% of the machine's CPU time in CUR against 2% in BASE"),
			   "%s", r.out);
	cr_assert_not_null(strstr(r.out, "environment: BASE other CPU 2%"), "%s", r.out);
	run_out_free(&r);
	iopath_prints(3, HAS("\"outcome\": \"environment differed\""), "compare", base, cur,
		      "--allow-inconclusive", "--json", NULL);
	iopath_exits(1, "compare", base, cur, "--ignore-environment", NULL);
}

Test(compare, a_busier_base_does_not_excuse_a_slower_cur)
{
	char base[300], cur[300];

	paths(base, cur, sizeof(base));
	write_result(base, "v1", "8.2.1", tight, REPS, 1.0, 1000);
	write_result(cur, "v1", "8.2.1", tight, REPS, 0.8, 2000);
	set_machine(base, 0.60);
	set_machine(cur, 0.02);
	iopath_exits(1, "compare", base, cur, NULL);
}

Test(compare, every_repeat_records_what_else_used_the_machine)
{
	const char *dir = tmpdir_make();
	char out[300], tgt[300];
	json_t *root, *m;

	snprintf(out, sizeof(out), "%s/s.json", dir);
	snprintf(tgt, sizeof(tgt), "disk=%s", dir);
	iopath_exits(0, "sweep", "--engine", "psync", "--rw", "randread", "--size", "1m",
		     "--runtime", "200ms", "--target", tgt, "--repeat", "2", "--references", "on",
		     "--json", out, NULL);
	root = json_load_path(out);
	m = json_object_get(json_object_get(json_array_get(json_object_get(json_array_get(
		json_object_get(root, "cells"), 0), "samples"), 1), "iopath"), "machine");
	cr_assert(json_is_object(m), "the second repeat has iopath.machine");
	cr_assert(json_is_number(json_object_get(m, "other_cpu")) && json_is_number(json_object_get(m, "steal")) &&
		  json_is_number(json_object_get(m, "load1_end")));
	cr_assert_geq(json_number_value(json_object_get(m, "other_cpu")), 0);
	cr_assert_leq(json_number_value(json_object_get(m, "other_cpu")), 1);
	cr_assert_gt(json_number_value(json_object_get(m, "own_ios")), 0, "the run's own I/Os");
	/* the control references, timed on both sides of the repeat */
	cr_assert_gt(json_number_value(json_object_get(m, "ref_cpu_ns_before")), 0);
	cr_assert_gt(json_number_value(json_object_get(m, "ref_cpu_ns_after")), 0);
	cr_assert_gt(json_number_value(json_object_get(m, "ref_mem_ns_before")), 0);
	cr_assert_gt(json_number_value(json_object_get(m, "ref_mem_ns_after")), 0);
	if (access("/proc/thread-self/schedstat", R_OK) == 0) {
		/* the worker's run-queue wait and time on a CPU lie within its measured time */
		double ws = json_number_value(json_object_get(m, "workers_s"));

		cr_assert_eq(json_integer_value(json_object_get(m, "workers")), 1);
		cr_assert_gt(ws, 0);
		cr_assert(json_is_number(json_object_get(m, "workers_runq_wait_s")), "schedstat's wait");
		cr_assert_geq(json_number_value(json_object_get(m, "workers_runq_wait_s")), 0);
		cr_assert_leq(json_number_value(json_object_get(m, "workers_runq_wait_s")) +
				      json_number_value(json_object_get(m, "workers_on_cpu_s")), ws * 1.05 + 0.01);
		/* a blocking read puts its worker back on a CPU at least once every few I/Os */
		cr_assert(json_is_number(json_object_get(m, "workers_sched_in")), "schedstat's wakeups");
		cr_assert_gt(json_number_value(json_object_get(m, "workers_sched_in")),
			     json_number_value(json_object_get(m, "own_ios")) / 10);
	}
	if (json_is_number(json_object_get(m, "disk_bytes"))) {
		/* on a block device, the second repeat (no layout) records the disk's time in flight:
		 * the run's own, its reads' latencies, within its one worker's measured time */
		double own = json_number_value(json_object_get(m, "own_in_flight_s"));

		cr_assert(json_is_number(json_object_get(m, "disk_in_flight_s")), "the disk's weighted time");
		cr_assert(json_is_number(json_object_get(m, "disk_busy_s")), "the disk's busy time");
		cr_assert_gt(own, 0);
		cr_assert_leq(own, json_number_value(json_object_get(m, "workers_s")) * 1.01 + 0.001);
		cr_assert_geq(json_number_value(json_object_get(m, "other_disk_in_flight")), 0);
		cr_assert_geq(json_number_value(json_object_get(m, "other_disk_busy")), 0);
		cr_assert_leq(json_number_value(json_object_get(m, "other_disk_busy")), 1);
	}
	json_decref(root);
}

/*
 * Every sample of the file's cells records its workers' time (1 s, no wait) over as many
 * I/Os as its IOPS, each own_us in flight, and others' requests in flight other_flight on
 * average beside them.
 */
static void set_disk(const char *path, double own_us, double other_flight)
{
	json_t *root = json_load_path(path), *c, *s;
	size_t i, k;

	json_array_foreach(json_object_get(root, "cells"), i, c)
		json_array_foreach(json_object_get(c, "samples"), k, s) {
			double ios = json_number_value(json_object_get(json_object_get(s, "read"), "iops"));

			json_object_set_new(s, "iopath", json_pack("{s:{s:f, s:i, s:f, s:f, s:f, s:f, s:i, s:f, s:f, s:f, s:f, s:f, s:f}}",
				"machine", "wall_s", 1.0, "cpus", 2, "other_cpu", 0.1, "own_cpu", 0.2,
				"steal", 0.0, "load1_end", 1.0, "workers", 1, "workers_s", 1.0,
				"workers_runq_wait_s", 0.0, "own_ios", ios, "own_in_flight_s", ios * own_us / 1e6,
				"other_disk_in_flight", other_flight, "other_disk_busy", 0.0));
		}
	cr_assert_eq(json_dump_file(root, path, 0), 0);
	json_decref(root);
}

Test(compare, others_time_in_flight_on_the_disk_excuses_only_a_change_it_covers)
{
	char base[300], cur[300];

	paths(base, cur, sizeof(base));
	/* 100000 -> 80000 IOPS over 1 s: 10 -> 12.5 us an I/O; BASE's I/Os 9 us in flight */
	write_cells(base, json_pack("[o]", cell("io_uring", tight, REPS, 1.0)));
	write_cells(cur, json_pack("[o]", cell("io_uring", tight, REPS, 0.8)));
	set_disk(base, 9, 0.1);
	/* 0.3 more of others' requests beside each 9 us I/O's 1.1: 2.45 of the 2.5 us more */
	set_disk(cur, 11, 0.4);
	iopath_prints(3, HAS("the environment differed: others' requests in flight on the disk 0.40 on average in CUR"),
		      "compare", base, cur, NULL);
	iopath_prints(3, HAS("\"other_disk_in_flight\": 0.4"), "compare", base, cur, "--json", NULL);
	{
		char html[320];
		char *page;

		snprintf(html, sizeof(html), "%s.html", cur);
		iopath_exits(3, "compare", base, cur, "--html", html, NULL);
		page = file_text(html);
		cr_assert_not_null(page);
		assert_has(page, "What else used the machine", "others' requests in flight on the disk (mean)",
			   ">0.40</td>", NULL);
		free(page);
	}
	/* 0.1 more: 0.8 of 2.5 us; the rest, 17%, is the path's */
	set_disk(cur, 11, 0.2);
	iopath_exits(1, "compare", base, cur, NULL);
}

/*
 * Every sample's workers on a CPU oncpu_us an I/O, beside control references of cpu_ns a round
 * and mem_ns a load (each repeat's before and after 1% apart).
 */
static void set_refs(const char *path, double oncpu_us, double cpu_ns, double mem_ns)
{
	json_t *root = json_load_path(path), *c, *s;
	size_t i, k;

	json_array_foreach(json_object_get(root, "cells"), i, c)
		json_array_foreach(json_object_get(c, "samples"), k, s) {
			json_t *m = json_object_get(json_object_get(s, "iopath"), "machine");
			double ios = json_number_value(json_object_get(m, "own_ios")), e = 0.01 * (double)(k % 3);

			json_object_set_new(m, "workers_on_cpu_s", json_real(ios * oncpu_us / 1e6));
			json_object_set_new(m, "ref_cpu_ns_before", json_real(cpu_ns * (1 + e)));
			json_object_set_new(m, "ref_cpu_ns_after", json_real(cpu_ns * (1 + e + 0.01)));
			json_object_set_new(m, "ref_mem_ns_before", json_real(mem_ns * (1 + e)));
			json_object_set_new(m, "ref_mem_ns_after", json_real(mem_ns * (1 + e + 0.01)));
		}
	cr_assert_eq(json_dump_file(root, path, 0), 0);
	json_decref(root);
}

/*
 * 10 -> 12.5 us an I/O, 4 of BASE's on a CPU, 6.5 of CUR's, the CPU reference 60% slower: the
 * references are shown (the text's environment lines, the JSON, the HTML) and excuse none of
 * it (exit 1): measured, they did not follow the workers' time on a CPU.
 */
Test(compare, the_control_references_are_shown_and_excuse_nothing)
{
	char base[300], cur[300], html[320];
	char *page;

	paths(base, cur, sizeof(base));
	write_cells(base, json_pack("[o]", cell("io_uring", tight, REPS, 1.0)));
	write_cells(cur, json_pack("[o]", cell("io_uring", tight, REPS, 0.8)));
	set_disk(base, 9, 0);
	set_disk(cur, 11, 0);
	set_refs(base, 4, 2.2, 200);
	set_refs(cur, 6.5, 3.52, 200);
	iopath_prints(1, HAS("references 3.57 ns a CPU round, 203 ns a memory load"), "compare", base, cur, NULL);
	iopath_prints(1, HAS("\"ref_cpu_ns\": 3.5", "\"on_cpu_per_io_s\""), "compare", base, cur, "--json", NULL);
	snprintf(html, sizeof(html), "%s.html", cur);
	iopath_exits(1, "compare", base, cur, "--html", html, NULL);
	page = file_text(html);
	cr_assert_not_null(page);
	assert_has(page, "the CPU reference, a round", "of it on a CPU", NULL);
	free(page);
}

/*
 * lat_sched_p99, the latency from the rate's schedule (lat_sched_ns): judged by default
 * where the cells have it, so that a stall the rate hid from clat shows as a regression,
 * and absent from a compare of cells that have none.
 */
static json_t *cell_sched(const double *iops, unsigned n, double sched_p99)
{
	json_t *c = cell("io_uring", iops, n, 1.0), *s;
	size_t i;

	json_array_foreach(json_object_get(c, "samples"), i, s)
		json_object_set_new(json_object_get(s, "read"), "lat_sched_ns",
				    json_pack("{s:i, s:{s:f}}", "N", 1000, "percentile",
					      "99.000000", sched_p99 * (1 + 0.002 * (double)i)));
	return c;
}

Test(compare, a_stall_the_schedule_shows_is_a_lat_sched_regression)
{
	char base[300], cur[300];
	struct run_out r;

	paths(base, cur, sizeof(base));
	write_cells(base, json_pack("[o]", cell_sched(tight, REPS, 100000)));
	write_cells(cur, json_pack("[o]", cell_sched(tight, REPS, 200000)));
	iopath_prints(1, HAS("lat_sched_p99", "REGRESSION"), "compare", base, cur, NULL);
	/* the same clat and IOPS without lat_sched: nothing to judge it on, and no line for it */
	write_cells(base, json_pack("[o]", cell("io_uring", tight, REPS, 1.0)));
	write_cells(cur, json_pack("[o]", cell("io_uring", tight, REPS, 1.0)));
	r = iopath_run("compare", base, cur, NULL);
	cr_assert_eq(r.status, 0, "exit %d\n%s%s", r.status, r.out, r.err);
	cr_assert_null(strstr(r.out, "lat_sched"), "%s", r.out);
	run_out_free(&r);
}

Test(compare, history_follows_lat_sched_when_asked)
{
	char dir[300], p[400];
	unsigned i;

	snprintf(dir, sizeof(dir), "%s/h", tmpdir_make());
	cr_assert_eq(mkdir(dir, 0755), 0);
	for (i = 0; i < 3; i++) {
		json_t *root = json_pack("{s:i, s:s, s:s, s:I, s:{s:s}, s:{s:s}, s:[], s:[o]}",
					 "schema_version", 1, "kind", "sweep", "name", "sweep",
					 "timestamp_ms", (json_int_t)(1000 + i), "labels", "qemu",
					 i == 0 ? "8.2.1" : i == 1 ? "9.0" : "10.0", "env",
					 "hostname", "h", "targets", "cells",
					 cell_sched(tight, REPS, i < 2 ? 100000 : 300000));

		snprintf(p, sizeof(p), "%s/%u.json", dir, i);
		cr_assert_eq(json_dump_file(root, p, 0), 0);
		json_decref(root);
	}
	iopath_prints(1, HAS("lat_sched_p99 regression"), "history", dir, "--by", "qemu",
		      "--metric", "lat_sched_p99", NULL);
}

/*
 * io_time_per_io, the time per I/O less CPU wait: every sample of the file's cells records
 * its workers' time ws and run-queue wait (s) over as many I/Os as its IOPS (a 1 s run).
 */
static void set_workers(const char *path, double ws, double wait)
{
	json_t *root = json_load_path(path), *c, *s;
	size_t i, k;

	json_array_foreach(json_object_get(root, "cells"), i, c)
		json_array_foreach(json_object_get(c, "samples"), k, s) {
			double ios = json_number_value(json_object_get(json_object_get(s, "read"), "iops"));

			json_object_set_new(s, "iopath", json_pack("{s:{s:f, s:i, s:f, s:f, s:f, s:f, s:i, s:f, s:f, s:f}}",
				"machine", "wall_s", 1.0, "cpus", 2, "other_cpu", 0.1, "own_cpu", 0.2,
				"steal", 0.0, "load1_end", 1.0, "workers", 1, "workers_s", ws,
				"workers_runq_wait_s", wait, "own_ios", ios));
		}
	cr_assert_eq(json_dump_file(root, path, 0), 0);
	json_decref(root);
}

Test(compare, the_time_per_io_less_cpu_wait_is_judged_where_both_sides_recorded_it)
{
	char base[300], cur[300];
	struct run_out r;

	paths(base, cur, sizeof(base));
	write_cells(base, json_pack("[o]", cell("io_uring", tight, REPS, 1.0)));
	write_cells(cur, json_pack("[o]", cell("io_uring", tight, REPS, 0.8)));
	/* BASE 10 us an I/O, 1 us of it waiting for a CPU: 9 us less the wait */
	set_workers(base, 1.0, 0.1);
	/* CUR waited for a CPU: 8.75 us an I/O less the wait, better; the wait explains IOPS */
	set_workers(cur, 1.0, 0.3);
	iopath_prints(3, HAS("io_time_per_io", "the workers waited for a CPU"), "compare", base,
		      cur, NULL);
	/* the same IOPS, 10 us an I/O each, but CUR waited less: its I/O itself took 10 us, not 9 */
	write_cells(cur, json_pack("[o]", cell("io_uring", tight, REPS, 1.0)));
	set_workers(cur, 1.0, 0.0);
	iopath_prints(1, HAS("\"io_time_per_io\""), "compare", base, cur, "--json", NULL);
	iopath_exits(0, "compare", base, cur, "--metric", "iops", NULL);
	/* cells that did not record the workers' wait: no line for it */
	write_cells(cur, json_pack("[o]", cell("io_uring", tight, REPS, 1.0)));
	r = iopath_run("compare", base, cur, NULL);
	cr_assert_eq(r.status, 0, "exit %d\n%s%s", r.status, r.out, r.err);
	cr_assert_null(strstr(r.out, "io_time_per_io"), "%s", r.out);
	run_out_free(&r);
}

/* Tested metrics of a compare's JSON, and how many cells had both IOPS and bandwidth tested. */
static unsigned tested_metrics(json_t *root, unsigned *both)
{
	json_t *c, *m;
	size_t i, k;
	unsigned n = 0;

	*both = 0;
	json_array_foreach(json_object_get(root, "cells"), i, c) {
		json_t *iops = NULL, *bw = NULL;

		json_array_foreach(json_object_get(c, "metrics"), k, m) {
			const char *name = json_string_value(json_object_get(m, "metric"));

			if (!json_is_true(json_object_get(m, "tested")))
				continue;
			n++;
			if (!strcmp(name, "iops"))
				iops = m;
			else if (!strcmp(name, "bw"))
				bw = m;
		}
		if (iops && bw) {
			(*both)++;
			/* one test: the same adjusted p and verdict */
			cr_assert_float_eq(json_number_value(json_object_get(bw, "p_adj")),
					   json_number_value(json_object_get(iops, "p_adj")), 1e-12);
			cr_assert_str_eq(json_string_value(json_object_get(bw, "verdict")),
					 json_string_value(json_object_get(iops, "verdict")));
		}
	}
	return n;
}

Test(compare, bandwidth_at_a_fixed_block_size_is_one_test_with_iops)
{
	char base[300], cur[300];
	json_t *root, *c, *s;
	unsigned n, both;
	size_t i, k;

	paths(base, cur, sizeof(base));
	write_result(base, "v1", "8.2.1", tight, REPS, 1.0, 1000);
	write_result(cur, "v1", "8.2.1", tight, REPS, 0.8, 2000);
	root = iopath_json(1, "compare", base, cur, "--json", NULL);
	n = tested_metrics(root, &both);
	cr_assert_eq(both, 2);
	/* bw = iops x 4096 in every repeat: each cell's bandwidth is not a member of its own */
	cr_assert_eq(json_integer_value(json_object_get(root, "tests")), n - both, "tests %lld of %u tested",
		     json_integer_value(json_object_get(root, "tests")), n);
	json_decref(root);
	/* a block size that varies between CUR's repeats: bandwidth is a test of its own */
	root = json_load_path(cur);
	json_array_foreach(json_object_get(root, "cells"), i, c)
		json_array_foreach(json_object_get(c, "samples"), k, s) {
			json_t *rd = json_object_get(s, "read");

			json_object_set_new(rd, "bw_bytes", json_real(json_number_value(json_object_get(rd, "iops")) *
								      (k % 2 ? 4096 : 8192)));
		}
	cr_assert_eq(json_dump_file(root, cur, 0), 0);
	json_decref(root);
	root = iopath_json(1, "compare", base, cur, "--json", NULL);
	n = 0;
	json_array_foreach(json_object_get(root, "cells"), i, c)
		json_array_foreach(json_object_get(c, "metrics"), k, s)
			n += json_is_true(json_object_get(s, "tested"));
	cr_assert_eq(json_integer_value(json_object_get(root, "tests")), n);
	json_decref(root);
}
