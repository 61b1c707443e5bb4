/* Integration: job-level behaviour (sizes, files, fsync, numjobs, time limits) end to end. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "harness.h"

TestSuite(jobs, .fini = tmpdir_cleanup);

static json_t *run_json(const char *dir, const char *a1, const char *a2, const char *a3,
			const char *a4, const char *a5)
{
	return iopath_json_ok(dir, a1, a2, a3, a4, a5, NULL);
}

Test(jobs, fsync_every_n_writes)
{
	const char *dir = tmpdir_make(), *file = tmp_str("--filename=%s/f", dir);
	json_t *root;

	root = run_json(dir, "--name=w", file, "--size=256k", "--rw=write", "--fsync=4");
	/* 64 writes of 4k, an fsync after every 4 but the last 4: fio's job ends at its size first */
	cr_assert_eq(job_int(root, 0, "write", "total_ios"), 64);
	cr_assert_eq(job_int(root, 0, "sync", "total_ios"), 15);
	json_decref(root);
}

Test(jobs, several_files_share_the_size)
{
	const char *dir = tmpdir_make(), *a = tmp_str("%s/a", dir), *b = tmp_str("%s/b", dir);
	json_t *root = run_json(dir, "--name=w", tmp_str("--filename=%s:%s", a, b), "--size=1m",
				"--rw=write", NULL);
	struct stat st;

	cr_assert_eq(job_int(root, 0, "write", "io_bytes"), 1 << 20);
	cr_assert_eq(stat(a, &st), 0);
	cr_assert_eq(st.st_size, 512 << 10);
	cr_assert_eq(stat(b, &st), 0);
	cr_assert_eq(st.st_size, 512 << 10);
	json_decref(root);
}

Test(jobs, numjobs_reports_each_worker_unless_grouped)
{
	const char *dir = tmpdir_make(), *d = tmp_str("--directory=%s", dir);
	json_t *root;

	root = run_json(dir, "--name=n", d, "--size=1m", "--rw=read", "--numjobs=3");
	cr_assert_eq(json_array_size(json_object_get(root, "jobs")), 3);
	json_decref(root);
	root = run_json(dir, "--name=n", d, "--size=1m", "--numjobs=3", "--group_reporting");
	cr_assert_eq(json_array_size(json_object_get(root, "jobs")), 1);
	cr_assert_eq(job_int(root, 0, "read", "io_bytes"), 3 << 20);
	json_decref(root);
}

static double job_real(json_t *root, unsigned i, const char *dir, const char *key)
{
	json_t *job = json_array_get(json_object_get(root, "jobs"), i);

	return json_number_value(json_object_get(json_object_get(job, dir), key));
}

Test(jobs, group_reporting_samples_are_the_groups_bandwidth)
{
	const char *dir = tmpdir_make();
	char out[300], path[300];
	double bw, mean, lo;
	json_t *root;

	/* four workers at 8 MiB/s each: every 500 ms sample of the group is about 32 MiB/s */
	snprintf(out, sizeof(out), "--output=%s/out.json", dir);
	iopath_exits(0, "--output-format=json", out, "--name=g", "--ioengine=null", "--size=1g",
		     "--rate=8m", "--numjobs=4", "--group_reporting", "--time_based",
		     "--runtime=1600ms", NULL);
	snprintf(path, sizeof(path), "%s/out.json", dir);
	root = json_load_path(path);
	bw = job_real(root, 0, "read", "bw");
	mean = job_real(root, 0, "read", "bw_mean");
	lo = job_real(root, 0, "read", "bw_min");
	cr_assert_eq(job_int(root, 0, "read", "bw_samples"), 3);
	cr_assert(mean > 0.8 * bw && mean < 1.2 * bw, "bw %.0f, bw_mean %.0f", bw, mean);
	cr_assert(lo > 0.5 * bw, "bw %.0f, bw_min %.0f", bw, lo);
	cr_assert(job_real(root, 0, "read", "iops_mean") > 0.8 * job_real(root, 0, "read", "iops"));
	json_decref(root);
}

Test(jobs, time_based_runs_for_runtime)
{
	const char *dir = tmpdir_make(), *file = tmp_str("--filename=%s/f", dir);
	json_t *root;
	long long rt;

	root = run_json(dir, "--name=t", file, "--size=1m", "--runtime=1", "--time_based");
	rt = job_int(root, 0, "read", "runtime");
	cr_assert(rt >= 1000 && rt < 1500, "runtime %lld ms", rt);
	/* time_based wraps around the 1 MiB region many times */
	cr_assert_gt(job_int(root, 0, "read", "io_bytes"), 1 << 20);
	json_decref(root);
}

Test(jobs, loops_repeat_the_io)
{
	const char *dir = tmpdir_make(), *file = tmp_str("--filename=%s/f", dir);
	json_t *root;

	root = run_json(dir, "--name=t", file, "--size=1m", "--loops=3", "--rw=randread");
	cr_assert_eq(job_int(root, 0, "read", "io_bytes"), 3 << 20);
	json_decref(root);
}

Test(jobs, mixed_read_write_share_the_size)
{
	const char *dir = tmpdir_make(), *file = tmp_str("--filename=%s/f", dir);
	json_t *root;
	long long rd, wr;

	root = run_json(dir, "--name=m", file, "--size=4m", "--rw=randrw", "--rwmixread=70");
	rd = job_int(root, 0, "read", "io_bytes");
	wr = job_int(root, 0, "write", "io_bytes");
	cr_assert_eq(rd + wr, 4 << 20);
	cr_assert(rd > wr * 3 / 2, "read %lld write %lld for 70/30", rd, wr);
	json_decref(root);
}

/*
 * The directions of a mixed job are fio's: its rwmix stream seeded from fio's thread number
 * (clones included, in fio's order), a direction held while it catches up with its share.
 * The counts are what Debian's fio 3.33 gives for this file (checked side by side in
 * test_fio_realjobs.c); with every job seeded alike, all four would be the first's.
 */
Test(jobs, mixed_directions_are_drawn_as_fio_draws_them)
{
	static const long long want[4][2] = { { 37, 219 }, { 37, 219 }, { 41, 215 }, { 37, 219 } };
	const char *dir = tmpdir_make();
	char path[300], text[600];
	json_t *root;
	unsigned i;
	FILE *f;

	snprintf(path, sizeof(path), "%s/job.fio", dir);
	f = fopen(path, "w");
	cr_assert_not_null(f);
	snprintf(text, sizeof(text),
		 "[global]\nioengine=null\nfilename=%s/mix\nsize=4m\nbs=16k\nrw=randrw\n"
		 "rwmixread=15\n[a]\n[b]\n[c]\nnumjobs=2\n", dir);
	fputs(text, f);
	fclose(f);
	root = run_json(dir, path, NULL, NULL, NULL, NULL);
	cr_assert_eq(json_array_size(json_object_get(root, "jobs")), 4);
	for (i = 0; i < 4; i++) {
		cr_expect_eq(job_int(root, i, "read", "total_ios"), want[i][0], "job %u: %lld reads",
			     i, job_int(root, i, "read", "total_ios"));
		cr_expect_eq(job_int(root, i, "write", "total_ios"), want[i][1], "job %u: %lld writes",
			     i, job_int(root, i, "write", "total_ios"));
	}
	json_decref(root);
}

Test(jobs, job_file_with_global_and_two_jobs)
{
	const char *dir = tmpdir_make();
	char path[300], text[600];
	json_t *root;
	FILE *f;

	snprintf(path, sizeof(path), "%s/job.fio", dir);
	f = fopen(path, "w");
	cr_assert_not_null(f);
	snprintf(text, sizeof(text),
		 "[global]\ndirectory=%s\nsize=1m\n\n[first]\nrw=write\n\n[second]\nstonewall\nrw=read\n",
		 dir);
	fputs(text, f);
	fclose(f);
	root = run_json(dir, path, NULL, NULL, NULL, NULL);
	cr_assert_eq(json_array_size(json_object_get(root, "jobs")), 2);
	cr_assert_eq(job_int(root, 0, "write", "io_bytes"), 1 << 20);
	cr_assert_eq(job_int(root, 1, "read", "io_bytes"), 1 << 20);
	cr_assert_eq(job_int(root, 1, NULL, "groupid"), 1);
	json_decref(root);
}
