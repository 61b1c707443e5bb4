/*
 * Integration: outputs written only where iopath may write them: exports checked before and
 * written all or none, chart directories holding the user's files refused, a name swapped
 * before its replacement kept as it is.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"

TestSuite(written, .fini = mount_cleanup);

/* n runs saved into dir/db.sqlite; the database's name. */
static const char *saved_runs(const char *dir, unsigned n)
{
	const char *db = tmp_str("%s/db.sqlite", dir), *target = tmp_str("%s/t", dir);
	unsigned i;

	cr_assert_eq(mkdir(target, 0755), 0);
	for (i = 0; i < n; i++) {
		iopath_exits(0, "run", "randread-4k-qd1", "--scale=0.001", "ioengine=null",
			     "--repeat=1", "--target", target, "--save", "--db", db, NULL);
	}
	return db;
}

static unsigned entries(const char *dir)
{
	return (unsigned)sh("exit $(ls -A '%s' | wc -l)", dir);
}

Test(written, export_to_a_directory_is_checked_first_and_written_all_or_none)
{
	const char *dir = tmpdir_make(), *db = saved_runs(dir, 3);
	const char *out = tmp_str("%s/out", dir), *mine = tmp_str("%s/out/run-3.json", dir);
	struct run_out r;
	uint64_t sum;

	/* the third run's name is the user's file: refused before the first is written */
	cr_assert_eq(mkdir(out, 0755), 0);
	file_write_text(mine, "the user's\n");
	sum = file_sum(mine);
	r = iopath_run("results", "export", "--db", db, "--output", out, NULL);
	cr_assert_eq(r.status, 2, "exit %d: %s", r.status, r.err);
	assert_has(r.err, "run-3.json", "--output", NULL);
	cr_assert_eq(strchr(r.err, '\n'), r.err + strlen(r.err) - 1, "one line: %s", r.err);
	run_out_free(&r);
	cr_assert_eq(file_sum(mine), sum);
	cr_assert_eq(entries(out), 1, "exported half way");
	unlink(mine);

	/* a filesystem that holds one run and not two: none is left */
	if (!is_root())
		cr_skip_test("needs root to mount a small tmpfs");
	snprintf(test_mnt, sizeof(test_mnt), "%s/small", dir);
	test_mount(test_mnt, "tmpfs", 0, "size=16k", "a 16 KiB tmpfs");
	r = iopath_run("results", "export", "run:1", "run:2", "--db", db, "--output", test_mnt, NULL);
	cr_assert_neq(r.status, 0, "two runs in 16 KiB: %s", r.err);
	cr_assert_not_null(strstr(r.err, "nothing was exported"), "%s", r.err);
	run_out_free(&r);
	cr_assert_eq(entries(test_mnt), 0, "a run left behind, or its temporary");
	/* and a selector naming a run twice exports it once */
	iopath_exits(0, "results", "export", "run:1", "run:1", "--db", db, "--output", out, NULL);
	cr_assert_eq(entries(out), 1);
}

static struct run_out sweep_plot(const char *dir, const char *charts)
{
	const char *t = tmp_str("%s/t", dir);

	mkdir(t, 0755);
	return iopath_run("sweep", "--engine=null", "--size=1m", "--runtime=0", "--bs=4k",
			  "--iodepth=1", tmp_str("--target=t=%s", t), tmp_str("--plot=%s", charts),
			  NULL);
}

/* Charts that cannot be written at the end (a full filesystem): none is left, the result kept. */
Test(written, charts_that_fail_at_the_end_leave_none_and_keep_the_result)
{
	const char *dir = tmpdir_make(), *charts;
	struct run_out r;

	if (!is_root())
		cr_skip_test("needs root to mount a small tmpfs");
	snprintf(test_mnt, sizeof(test_mnt), "%s/full", dir);
	test_mount(test_mnt, "tmpfs", 0, "size=16k", "a 16 KiB tmpfs");
	cr_assert_eq(sh("dd if=/dev/zero of='%s/fill' bs=4k count=8 2>/dev/null; test -s '%s/fill'",
			test_mnt, test_mnt), 0);
	charts = tmp_str("%s/charts", test_mnt);
	setenv("TMPDIR", dir, 1);
	r = sweep_plot(dir, charts);
	unsetenv("TMPDIR");
	cr_assert_eq(r.status, 1, "exit %d: %s", r.status, r.err);
	cr_assert_not_null(strstr(r.err, "--plot"), "%s", r.err);
	cr_assert_not_null(strstr(r.err, "the whole result is kept in "), "%s", r.err);
	run_out_free(&r);
	cr_assert_eq(entries(charts), 0, "a chart or its data was left half written");
}

Test(written, a_plot_directory_holding_the_users_files_is_refused_before_the_run)
{
	const char *dir = tmpdir_make(), *charts = tmp_str("%s/charts", dir);
	const char *notes = tmp_str("%s/notes.txt", charts);
	struct run_out r;
	char *kept;

	/* iopath's own charts from an earlier sweep are replaced */
	r = sweep_plot(dir, charts);
	cr_assert_eq(r.status, 0, "%s", r.err);
	run_out_free(&r);
	cr_assert_eq(access(tmp_str("%s/iops.svg", charts), F_OK), 0);
	r = sweep_plot(dir, charts);
	cr_assert_eq(r.status, 0, "a directory of iopath's charts: %s", r.err);
	run_out_free(&r);
	/* a file of the user's among them: exit 2 before any cell, the file as it was */
	file_write_text(notes, "the user's\n");
	r = sweep_plot(dir, charts);
	cr_assert_eq(r.status, 2, "exit %d: %s", r.status, r.err);
	assert_has(r.err, "--plot", "notes.txt", NULL);
	cr_assert_null(strstr(r.out, "IOPS"), "cells ran: %s", r.out);
	run_out_free(&r);
	kept = file_text(notes);
	cr_assert_str_eq(kept, "the user's\n");
	free(kept);
}

/*
 * A chart of iopath's, checked on its descriptor, is swapped for the user's file right
 * before it is replaced (the hold between the check and the exchange): the user's file is
 * put back as it was and the plot fails naming it.
 */
Test(written, a_chart_swapped_for_the_users_file_before_its_replacement_is_kept)
{
	const char *dir = tmpdir_make(), *charts = tmp_str("%s/charts", dir);
	const char *hold = tmp_str("%s/replace-hold", dir), *t = tmp_str("%s/t", dir);
	char *argv[] = { "iopath", "sweep", "--engine=null", "--size=1m", "--runtime=0", "--bs=4k",
			 "--iodepth=1", (char *)tmp_str("--target=t=%s", t),
			 (char *)tmp_str("--plot=%s", charts), NULL };
	struct run_out r;
	struct run_bg b;
	bool held;

	r = sweep_plot(dir, charts);
	cr_assert_eq(r.status, 0, "%s", r.err);
	run_out_free(&r);
	setenv("IOPATH_TEST_HOLD_REPLACE", hold, 1);
	b = iopath_startv(argv, NULL);
	unsetenv("IOPATH_TEST_HOLD_REPLACE");
	held = wait_for_file(hold, 120);
	if (held)
		/* every chart's name now holds a file of the user's */
		sh("cd '%s' && for f in *; do echo \"the user's $f\" > .u && mv .u \"$f\"; done",
		   charts);
	file_write_text(tmp_str("%s.go", hold), "");
	r = iopath_wait(&b, 120);
	cr_assert(held, "never held before a replacement: %s", r.err);
	cr_assert_neq(r.status, 0, "%s", r.err);
	cr_assert_not_null(strstr(r.err, "--plot"), "%s", r.err);
	run_out_free(&r);
	cr_assert_eq(sh("cd '%s' && for f in *; do grep -qx \"the user's $f\" \"$f\" || exit 1; done",
			charts), 0, "a file of the user's was replaced");
}

/* No gnuplot to draw the charts: refused before the first cell, not found after the run. */
Test(written, plot_without_gnuplot_is_refused_before_the_run)
{
	const char *dir = tmpdir_make(), *path = getenv("PATH");
	char *saved = strdup(path ? path : "/usr/bin:/bin");
	struct run_out r;

	cr_assert_not_null(saved);
	setenv("PATH", dir, 1);
	r = sweep_plot(dir, tmp_str("%s/charts", dir));
	setenv("PATH", saved, 1);
	free(saved);
	cr_assert_eq(r.status, 2, "exit %d: %s", r.status, r.err);
	cr_assert_not_null(strstr(r.err, "--plot"), "%s", r.err);
	cr_assert_not_null(strstr(r.err, "gnuplot"), "%s", r.err);
	cr_assert_eq(strchr(r.err, '\n'), r.err + strlen(r.err) - 1, "not one line: %s", r.err);
	run_out_free(&r);
	cr_assert_eq(entries(tmp_str("%s/t", dir)), 0, "a cell ran before the refusal");
}
