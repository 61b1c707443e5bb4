/* Integration: faults in the middle of a run fail that job, keep its numbers, let the rest run. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"

TestSuite(faults, .fini = mount_cleanup);

static json_t *job_named(json_t *root, const char *name, unsigned *index)
{
	json_t *jobs = json_object_get(root, "jobs"), *j;
	size_t i;

	json_array_foreach(jobs, i, j) {
		if (!strcmp(json_string_value(json_object_get(j, "jobname")), name)) {
			*index = (unsigned)i;
			return j;
		}
	}
	cr_assert_fail("no job %s in the result", name);
	return NULL;
}

/* The faulty job's error and numbers, and a healthy job beside it that finished. */
static void check_fault(const char *out, int error, const char *dir, long long good_bytes)
{
	json_t *root = json_load_path(out);
	unsigned bad, good;

	job_named(root, "bad", &bad);
	job_named(root, "good", &good);
	cr_assert_eq(job_int(root, bad, NULL, "error"), error);
	cr_assert_gt(job_int(root, bad, dir, "io_bytes"), 0, "what was measured before the fault is lost");
	cr_assert_eq(job_int(root, good, NULL, "error"), 0);
	cr_assert_eq(job_int(root, good, "write", "io_bytes"), good_bytes);
	json_decref(root);
}

Test(faults, enospc_mid_run_fails_the_job_and_keeps_its_numbers)
{
	const char *dir = tmpdir_make();
	struct run_out r;

	snprintf(test_mnt, sizeof(test_mnt), "%s/small", dir);
	test_mount(test_mnt, "tmpfs", 0, "size=2m", "a small tmpfs");
	/* --allow-fill: past the free-space reserve, to meet ENOSPC mid-run */
	r = iopath_run("--rw=write", "--bs=64k", "--allow-fill", "--name=bad",
		       tmp_str("--filename=%s/f", test_mnt), "--size=8m", "--name=good",
		       tmp_str("--filename=%s/g", dir), "--size=4m", "--output-format=json",
		       tmp_str("--output=%s/out.json", dir), NULL);
	cr_assert_eq(r.status, 1, "exit %d: %s", r.status, r.err);
	cr_assert_not_null(strstr(r.err, "No space left on device"), "%s", r.err);
	cr_assert_not_null(strstr(r.err, test_mnt), "%s", r.err);
	check_fault(tmp_str("%s/out.json", dir), 28, "write", 4 << 20);
	run_out_free(&r);
}

Test(faults, enospc_under_mmap_is_an_error_not_a_crash)
{
	const char *dir = tmpdir_make();
	char bad[320], good[320], out[320];
	struct run_out r;

	snprintf(test_mnt, sizeof(test_mnt), "%s/small", dir);
	test_mount(test_mnt, "tmpfs", 0, "size=2m", "a small tmpfs");
	snprintf(bad, sizeof(bad), "--filename=%s/f", test_mnt);
	snprintf(good, sizeof(good), "--filename=%s/g", dir);
	snprintf(out, sizeof(out), "--output=%s/out.json", dir);
	r = iopath_run("--rw=write", "--bs=64k", "--allow-fill", "--name=bad", bad, "--ioengine=mmap",
		       "--size=8m", "--name=good", good, "--size=4m", "--output-format=json", out, NULL);
	cr_assert_eq(r.status, 1, "exit %d (SIGBUS is 135): %s", r.status, r.err);
	cr_assert_not_null(strstr(r.err, "Input/output error"), "%s", r.err);
	snprintf(out, sizeof(out), "%s/out.json", dir);
	check_fault(out, 5, "write", 4 << 20);
	run_out_free(&r);
}

Test(faults, eio_mid_run_fails_the_job_and_keeps_its_numbers)
{
	const char *dir = tmpdir_make();
	const char *back;
	char path[320], bad[320], good[320], out[320];
	struct run_out r;
	json_t *root;
	unsigned i;

	back = faultfs_over(dir, "--eio-read-after=100");
	snprintf(path, sizeof(path), "%s/data", back);
	file_make(path, 4 << 20, 5);
	snprintf(bad, sizeof(bad), "--filename=%s/data", test_mnt);
	snprintf(good, sizeof(good), "--filename=%s/g", dir);
	snprintf(out, sizeof(out), "--output=%s/out.json", dir);
	r = iopath_run("--name=bad", bad, "--rw=randread", "--name=good", good, "--rw=write",
		       "--size=4m", "--output-format=json", out, NULL);
	cr_assert_eq(r.status, 1, "exit %d: %s", r.status, r.err);
	assert_has(r.err, "Input/output error", "/mnt/data at offset", NULL);
	snprintf(out, sizeof(out), "%s/out.json", dir);
	check_fault(out, 5, "read", 4 << 20);
	root = json_load_path(out);
	job_named(root, "bad", &i);
	cr_assert_eq(job_int(root, i, "read", "io_bytes"), 100 * 4096);
	json_decref(root);
	run_out_free(&r);
}

Test(faults, a_file_deleted_under_a_running_job_fails_it)
{
	const char *dir = tmpdir_make();
	char bad[320], good[320], out[320], path[320];
	struct run_bg b;
	struct run_out r;
	json_t *root;
	unsigned i;

	snprintf(path, sizeof(path), "%s/victim", dir);
	snprintf(bad, sizeof(bad), "--filename=%s", path);
	snprintf(good, sizeof(good), "--filename=%s/g", dir);
	snprintf(out, sizeof(out), "--output=%s/out.json", dir);
	{
		char *argv[] = { (char *)"iopath", (char *)"--rw=randwrite", (char *)"--size=4m",
				 (char *)"--time_based", (char *)"--name=bad", bad,
				 (char *)"--runtime=60", (char *)"--name=good", good,
				 (char *)"--runtime=2", (char *)"--output-format=json", out, NULL };

		b = iopath_start_running(dir, argv, NULL);
	}
	/* both jobs have written; the file goes while they go on */
	cr_assert(running_reached(&b), "the workers never completed an I/O");
	cr_assert_eq(unlink(path), 0);
	running_release();
	r = iopath_wait(&b, 60);
	cr_assert_eq(r.status, 1, "exit %d: %s", r.status, r.err);
	cr_assert_not_null(strstr(r.err, "was deleted while the job ran"), "%s", r.err);
	snprintf(out, sizeof(out), "%s/out.json", dir);
	root = json_load_path(out);
	job_named(root, "bad", &i);
	cr_assert_eq(job_int(root, i, NULL, "error"), 2);
	cr_assert_gt(job_int(root, i, "write", "io_bytes"), 0);
	job_named(root, "good", &i);
	cr_assert_eq(job_int(root, i, NULL, "error"), 0);
	cr_assert_gt(job_int(root, i, "write", "io_bytes"), 0);
	json_decref(root);
	run_out_free(&r);
}

/* EIO while laying out a new file: the file (preallocated to its full size) goes, mark too. */
Test(faults, eio_in_a_layout_removes_the_file_it_created)
{
	const char *back = faultfs_over(tmpdir_make(), "--eio-write-after=2");
	const char *path = tmp_str("%s/data", back), *side = tmp_str("%s/.data.iopath", back);
	struct run_out r;

	r = iopath_run("--name=bad", tmp_str("--filename=%s/data", test_mnt), "--rw=randread",
		       "--size=8m", NULL);
	cr_assert_eq(r.status, 1, "exit %d: %s", r.status, r.err);
	cr_assert_not_null(strstr(r.err, "Input/output error"), "%s", r.err);
	cr_assert_neq(access(path, F_OK), 0, "the half-laid-out file was left");
	cr_assert_neq(access(side, F_OK), 0, "the removed file's mark was left");
	run_out_free(&r);
}

/* EIO while extending a file iopath laid out before: it goes back to what was written. */
Test(faults, eio_in_a_layout_cuts_an_existing_file_back_to_what_was_written)
{
	const char *dir = tmpdir_make();
	const char *back;
	char path[320], file[320], side[320];
	struct run_out r;
	struct stat st;

	back = faultfs_over(dir, "--eio-write-after=6");
	snprintf(path, sizeof(path), "%s/data", back);
	snprintf(side, sizeof(side), "%s/.data.iopath", back);
	snprintf(file, sizeof(file), "--filename=%s/data", test_mnt);
	/*
	 * The sidecar (written when the file is created, rewritten when its layout is done, and
	 * when the next one starts) and 64 KiB laid out in one write; then 8 MiB asked for, and
	 * the seventh write fails, the layout's third.
	 */
	iopath_exits(0, "--name=first", file, "--rw=read", "--size=64k", NULL);
	r = iopath_run("--name=bad", file, "--rw=randread", "--size=8m", NULL);
	cr_assert_eq(r.status, 1, "exit %d: %s", r.status, r.err);
	cr_assert_eq(stat(path, &st), 0, "a file iopath did not create in this run was removed");
	cr_assert_gt(st.st_size, 64 << 10);
	cr_assert_lt(st.st_size, 8 << 20, "the file still looks laid out: %lld bytes",
		     (long long)st.st_size);
	cr_assert_eq(access(side, F_OK), 0, "the file's mark went");
	run_out_free(&r);
}
