/* Integration: what iopath refuses, with which exit code and which explanation. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"

TestSuite(refusals, .fini = mount_cleanup);

Test(refusals, hipri_without_direct_fails_the_job_with_reason)
{
	const char *dir = tmpdir_make();
	struct run_out r = iopath_run("--name=h", tmp_str("--filename=%s/f", dir), "--size=1m",
				      "--ioengine=io_uring", "--hipri=1", NULL);

	cr_assert_eq(r.status, 1, "exit %d", r.status);
	cr_assert_not_null(strstr(r.err, "hipri (IOPOLL) needs direct=1"), "%s", r.err);
	run_out_free(&r);
}

Test(refusals, other_jobs_still_run_after_a_refusal)
{
	const char *dir = tmpdir_make();
	json_t *root = iopath_json(1, tmp_str("--filename=%s/f", dir), "--size=1m", "--name=bad",
				   "--ioengine=io_uring", "--hipri=1", "--name=good",
				   "--ioengine=psync", "--output-format=json", NULL);

	cr_assert_eq(job_int(root, 0, NULL, "error"), 22);
	cr_assert_eq(job_int(root, 1, NULL, "error"), 0);
	cr_assert_eq(job_int(root, 1, "read", "io_bytes"), 1 << 20);
	json_decref(root);
}

Test(refusals, direct_on_a_filesystem_without_o_direct)
{
	const char *dir = tmpdir_make();
	char mnt[300], file[300];
	struct run_out r;

	snprintf(mnt, sizeof(mnt), "%s/ramfs", dir);
	test_mount(mnt, "ramfs", 0, NULL, "a ramfs (a filesystem that refuses O_DIRECT)");
	snprintf(file, sizeof(file), "--filename=%s/f", mnt);
	r = iopath_run("--name=d", file, "--size=1m", "--direct=1", "--ioengine=libaio", NULL);
	/* the probe's trials found it out: refused before the file was even laid out */
	cr_assert_neq(access(file + strlen("--filename="), F_OK), 0, "the job wrote its file");
	umount(mnt);
	cr_assert_eq(r.status, 1, "exit %d: %s", r.status, r.err);
	assert_has(r.err, "refused before starting", "O_DIRECT open gives EINVAL", "try direct=0",
		   NULL);
	run_out_free(&r);
}

Test(refusals, unknown_option_is_a_usage_error)
{
	struct run_out r = iopath_run("--name=x", "--iodepht=4", NULL);

	cr_assert_eq(r.status, 2);
	assert_has(r.err, "unknown option 'iodepht'", "iodepth", NULL);
	run_out_free(&r);
}

Test(refusals, missing_size_and_file_is_a_usage_error)
{
	const char *dir = tmpdir_make();
	struct run_out r = iopath_run("--name=x", tmp_str("--filename=%s/nothing", dir), NULL);

	cr_assert_eq(r.status, 2);
	cr_assert_not_null(strstr(r.err, "size="), "%s", r.err);
	run_out_free(&r);
}

Test(refusals, missing_job_file_is_a_usage_error)
{
	struct run_out r = iopath_run("/nonexistent/job.fio", NULL);

	cr_assert_eq(r.status, 2);
	cr_assert_not_null(strstr(r.err, "/nonexistent/job.fio"), "%s", r.err);
	run_out_free(&r);
}

Test(refusals, verify_mismatch_names_file_and_offset)
{
	const char *path = tmp_str("%s/plain", tmpdir_make()), *file = tmp_str("--filename=%s", path);
	struct run_out r;
	FILE *f = fopen(path, "w");
	cr_assert_not_null(f);
	for (int i = 0; i < 65536; i++)
		fputc('x', f);
	fclose(f);
	r = iopath_run("--name=v", file, "--rw=read", "--verify=crc32c", NULL);
	cr_assert_eq(r.status, 1);
	cr_assert_not_null(strstr(r.err, path), "%s", r.err);
	cr_assert_not_null(strstr(r.err, "offset 0"), "%s", r.err);
	run_out_free(&r);
}

Test(refusals, direct_answered_by_a_cache_is_flagged_not_direct)
{
	const char *dir = tmpdir_make();
	char img[300], mnt[300], file[300], dev[64] = "";
	struct run_out r;
	json_t *root, *ip;
	int devfd;

	if (!is_root())
		cr_skip_test("needs root for a loop device (a path whose O_DIRECT a page cache answers)");
	snprintf(mnt, sizeof(mnt), "%s/m", dir);
	if (sh("truncate -s 32M %s/img && mkfs.ext4 -q %s/img && mkdir %s", dir, dir, mnt))
		cr_skip_test("cannot make an ext4 image here");
	snprintf(img, sizeof(img), "%s/img", dir);
	devfd = loopdev_attach(img, NULL, dev, sizeof(dev));
	if (devfd < 0)
		cr_skip_test("no loop device here");
	if (sh("mount %s %s", dev, mnt)) {
		loopdev_detach(&devfd, dev);
		cr_skip_test("cannot mount a loop device here");
	}
	snprintf(file, sizeof(file), "--filename=%s/f", mnt);
	root = iopath_json_kept(&r, ANY_STATUS, "--name=d", file, "--size=1m", "--direct=1",
				"--rw=randread", "--output-format=json", NULL);
	sh("umount %s", mnt);
	loopdev_detach(&devfd, dev);
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	cr_assert_not_null(root, "not JSON: %s", r.out);
	ip = json_object_get(json_array_get(json_object_get(root, "jobs"), 0), "iopath");
	cr_assert(json_is_false(json_object_get(ip, "direct")), "reported as direct I/O");
	cr_assert(json_is_true(json_object_get(ip, "direct_requested")));
	cr_assert_not_null(strstr(json_string_value(json_object_get(ip, "direct_not_honoured")),
				  "not honoured"));
	json_decref(root);
	run_out_free(&r);
}
