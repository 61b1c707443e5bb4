/* Integration: SIGINT/SIGTERM stop the workers, keep what was measured, leave no temporary file. */
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"

TestSuite(interrupt, .fini = mount_cleanup);

/* Names in dir (not . or ..) containing part; 0 when none. */
static unsigned count_named(const char *dir, const char *part)
{
	struct dirent *de;
	unsigned n = 0;
	DIR *d = opendir(dir);

	cr_assert_not_null(d, "%s", dir);
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..") && strstr(de->d_name, part))
			n++;
	closedir(d);
	return n;
}

static void stop_running_job(int sig, const char *engine, const char *rw, int direct, int depth)
{
	const char *dir = tmpdir_make();
	char *argv[] = { (char *)"iopath", (char *)"--name=i", tmp_str("--filename=%s/data", dir),
			 (char *)"--size=32m", tmp_str("--ioengine=%s", engine), tmp_str("--rw=%s", rw),
			 tmp_str("--direct=%d", direct), tmp_str("--iodepth=%d", depth),
			 (char *)"--time_based", (char *)"--runtime=60", (char *)"--output-format=json",
			 tmp_str("--output=%s/out.json", dir), NULL };
	struct run_bg b = iopath_start_running(dir, argv, NULL);
	struct run_out r;
	json_t *root;
	long long bytes;

	/* the signal comes while the worker moves data, once it has completed an I/O */
	cr_assert(running_reached(&b), "the worker never completed an I/O");
	kill(b.pid, sig);
	r = iopath_wait(&b, 30);
	cr_assert_eq(r.status, 130, "%s %s: exit %d: %s", engine, rw, r.status, r.err);
	root = json_load_path(tmp_str("%s/out.json", dir));
	cr_assert(json_is_true(json_object_get(json_object_get(root, "iopath"), "interrupted")));
	cr_assert_eq(job_int(root, 0, NULL, "error"), 0, "an interrupt is not a job error: %s", r.err);
	bytes = job_int(root, 0, "read", "io_bytes") + job_int(root, 0, "write", "io_bytes");
	cr_assert_gt(bytes, 0, "%s %s: nothing measured before the interrupt", engine, rw);
	cr_assert_eq(count_named(dir, ".tmp."), 0, "a temporary result file was left");
	json_decref(root);
	run_out_free(&r);
}

Test(interrupt, sigint_stops_psync_and_keeps_the_partial_result)
{
	stop_running_job(SIGINT, "psync", "randread", 0, 1);
}

Test(interrupt, sigterm_stops_sync_writes_and_keeps_the_partial_result)
{
	stop_running_job(SIGTERM, "sync", "write", 0, 1);
}

Test(interrupt, sigint_reaps_libaio_in_flight_requests)
{
	stop_running_job(SIGINT, "libaio", "randread", 1, 32);
}

Test(interrupt, sigint_reaps_io_uring_in_flight_direct_writes)
{
	stop_running_job(SIGINT, "io_uring", "randwrite", 1, 32);
}

Test(interrupt, sigint_reaps_io_uring_in_flight_buffered_reads)
{
	stop_running_job(SIGINT, "io_uring", "randread", 0, 32);
}

Test(interrupt, sigint_stops_mmap)
{
	stop_running_job(SIGINT, "mmap", "randwrite", 0, 1);
}

/*
 * I/O that takes 3 s each: the first stop signal waits for it, the second does not. The two
 * (a Ctrl-C, then a SIGTERM: two Ctrl-Cs sent at once would be one) are taken together while
 * the worker, past its first I/O, is inside the next one: a second that were taken as a first
 * would let the run end with its result written.
 */
Test(interrupt, second_sigint_exits_at_once_leaving_no_temporary_file)
{
	const char *dir = tmpdir_make();
	const char *back;
	char file[320], path[320], out[320];
	char *argv[] = { (char *)"iopath", (char *)"--name=slow", file, (char *)"--rw=randread",
			 (char *)"--invalidate=0", (char *)"--output-format=json", out, NULL };
	struct run_bg b;
	struct run_out r;

	back = faultfs_over(dir, "--delay-ms=3000");
	snprintf(path, sizeof(path), "%s/data", back);
	file_make(path, 1 << 20, 1);
	snprintf(file, sizeof(file), "--filename=%s/data", test_mnt);
	snprintf(out, sizeof(out), "--output=%s/out.json", dir);
	thread_leaks_off_for_an_abandoned_run();
	b = iopath_start_running(dir, argv, NULL);
	cr_assert(running_reached(&b), "the worker never completed an I/O");
	signals_together(b.pid, SIGINT, SIGTERM);
	r = iopath_wait(&b, 10);
	cr_assert_eq(r.status, 130, "exit %d: %s", r.status, r.err);
	snprintf(out, sizeof(out), "%s/out.json", dir);
	cr_assert_neq(access(out, F_OK), 0, "the second Ctrl-C waited for the run to finish");
	cr_assert_eq(count_named(dir, ".tmp."), 0);
	run_out_free(&r);
}

/*
 * A read job (rw) laying out its 256 MiB file on faultfs (no xattrs: the mark is a sidecar),
 * Ctrl-C'd while it holds inside the layout (IOPATH_TEST_HOLD_LAYOUT: the file created,
 * marked and preallocated to its whole length, none of its data written yet). back and path
 * (the file as faultfs stores it) are the test's to look at: faultfs has served all that
 * iopath asked of it.
 */
static struct run_out interrupt_layout(const char *rw, char *back, char *path, size_t len)
{
	const char *dir = tmpdir_make();
	char file[320], rwopt[64], hold[320];
	struct run_bg b;
	struct run_out r;
	bool held;

	snprintf(back, len, "%s/back", dir);
	snprintf(test_mnt, sizeof(test_mnt), "%s/mnt", dir);
	faultfs_mount(back, test_mnt, NULL);
	snprintf(path, len, "%s/data", back);
	snprintf(file, sizeof(file), "--filename=%s/data", test_mnt);
	snprintf(rwopt, sizeof(rwopt), "--rw=%s", rw);
	snprintf(hold, sizeof(hold), "%s/layout-hold", dir);
	setenv("IOPATH_TEST_HOLD_LAYOUT", hold, 1);
	b = iopath_start("--name=layout", file, rwopt, "--size=256m", NULL);
	unsetenv("IOPATH_TEST_HOLD_LAYOUT");
	held = wait_for_file(hold, 120);
	kill(b.pid, held ? SIGINT : SIGKILL);
	r = iopath_wait(&b, 60);
	cr_assert(held, "iopath never held inside its layout: %s", r.err);
	faultfs_settle(test_mnt);
	return r;
}

/* Laying out a file: Ctrl-C stops the layout too, before it writes any more. */
Test(interrupt, sigint_stops_a_layout_in_progress)
{
	char back[320], path[320];
	struct run_out r = interrupt_layout("read", back, path, sizeof(back));

	cr_assert_eq(r.status, 130, "exit %d: %s", r.status, r.err);
	cr_assert_not_null(strstr(r.err, "interrupted"), "%s", r.err);
	cr_assert_not_null(strstr(r.err, "interrupted at offset 0"), "the layout went on: %s", r.err);
	run_out_free(&r);
}

/*
 * `make run`: the engine comparison's temporary file goes, whichever way the run ends. The
 * signals come while the first engine's worker moves data; a second (SIGTERM, taken with the
 * Ctrl-C: two Ctrl-Cs sent at once would be one) leaves at once rather than after the workers.
 */
static void default_run_interrupted(unsigned signals)
{
	const char *dir = tmpdir_make();
	const char *hold = tmpdir_make();
	char *argv[] = { (char *)"iopath", NULL };
	struct run_bg b;
	struct run_out r;

	if (signals > 1)
		thread_leaks_off_for_an_abandoned_run();
	b = iopath_start_running(hold, argv, dir);

	cr_assert(running_reached(&b), "the first worker never completed an I/O");
	if (signals > 1)
		signals_together(b.pid, SIGINT, SIGTERM);
	else
		kill(b.pid, SIGINT);
	r = iopath_wait(&b, 30);
	cr_assert_eq(r.status, 130, "exit %d: %s", r.status, r.err);
	cr_assert_eq(count_named(dir, ""), 0, "left behind in %s", dir);
	run_out_free(&r);
}

Test(interrupt, default_comparison_removes_its_file_on_ctrl_c)
{
	default_run_interrupted(1);
}

Test(interrupt, default_comparison_removes_its_file_on_a_second_ctrl_c)
{
	default_run_interrupted(2);
}

/* Every write fails with EIO (and there are no xattrs, so the mark is a sidecar): both go. */
Test(interrupt, default_comparison_removes_its_file_when_jobs_fail)
{
	const char *dir = tmpdir_make();
	char *argv[] = { (char *)"iopath", NULL };
	const char *back;
	struct run_bg b;
	struct run_out r;

	back = faultfs_over(dir, "--eio-write-after=0");
	b = iopath_startv(argv, test_mnt);
	r = iopath_wait(&b, 60);
	cr_assert_eq(r.status, 1, "exit %d: %s", r.status, r.err);
	cr_assert_not_null(strstr(r.out, "Input/output error"), "%s", r.out);
	cr_assert_eq(count_named(back, ""), 0, "left behind in %s", back);
	run_out_free(&r);
}

/*
 * Ctrl-C while the probe's trial file (on FUSE) is made but not yet registered for removal,
 * as during a slow FUSE create: the probe holds there (IOPATH_TEST_HOLD_PROBE) until the
 * signal has come. It is taken once the file is registered, and the file goes.
 */
Test(interrupt, probe_removes_its_trial_file_on_ctrl_c)
{
	const char *dir = tmpdir_make();
	const char *back;
	char hold[300], go[310];
	struct run_bg b;
	struct run_out r;
	bool held;

	back = faultfs_over(dir, NULL);
	snprintf(hold, sizeof(hold), "%s/probe-hold", dir);
	setenv("IOPATH_TEST_HOLD_PROBE", hold, 1);
	{
		char *argv[] = { (char *)"iopath", (char *)"probe", test_mnt, NULL };

		b = iopath_startv(argv, NULL);
	}
	unsetenv("IOPATH_TEST_HOLD_PROBE");
	held = wait_for_file(hold, 120);
	kill(b.pid, held ? SIGINT : SIGKILL);
	snprintf(go, sizeof(go), "%s.go", hold);
	file_write_text(go, "");
	r = iopath_wait(&b, 60);
	cr_assert(held, "the probe never held at its trial file: %s", r.err);
	cr_assert_eq(r.status, 130, "exit %d: %s", r.status, r.err);
	cr_assert_eq(count_named(back, ".iopath-probe"), 0, "the trial file was left");
	run_out_free(&r);
}

/* A sweep's target file on a filesystem without xattrs: the file and its sidecar both go. */
Test(interrupt, sweep_leaves_neither_its_file_nor_its_mark)
{
	const char *dir = tmpdir_make(), *back = tmp_str("%s/back", dir);
	struct run_out r;

	snprintf(test_mnt, sizeof(test_mnt), "%s/mnt", dir);
	faultfs_mount(back, test_mnt, NULL);
	r = iopath_run("sweep", "--engine=psync", "--rw=randread", tmp_str("--target=t=%s", test_mnt),
		       "--size=1m", "--runtime=1", NULL);
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	cr_assert_eq(count_named(back, ""), 0, "left behind in %s", back);
	run_out_free(&r);
}

/* A layout stopped half way leaves no full-size file a later run would take as laid out. */
Test(interrupt, an_interrupted_layout_removes_the_file_it_created_and_its_mark)
{
	char back[320], path[320];
	struct run_out r = interrupt_layout("randread", back, path, sizeof(back));

	cr_assert_eq(r.status, 130, "exit %d: %s", r.status, r.err);
	cr_assert_neq(access(path, F_OK), 0, "the half-laid-out file was left");
	cr_assert_eq(count_named(back, ""), 0, "left behind in %s (a mark?)", back);
	run_out_free(&r);
}
