/*
 * Integration: jobs of many files per worker (nrfiles in the hundreds, as fio's file-operation
 * examples and metadata-heavy share benchmarks give): every file is used and counted, and the
 * descriptors they need fit RLIMIT_NOFILE or the run is refused saying so.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"

TestSuite(manyfiles, .fini = tmpdir_cleanup);

#define OLD_ATIME 946684800	/* 2000-01-01: any read since sets a later atime */

/* Lower this test process's descriptor limits; iopath inherits them. */
static void limit_nofile(rlim_t soft, rlim_t hard)
{
	struct rlimit rl = { .rlim_cur = soft, .rlim_max = hard };

	cr_assert_eq(setrlimit(RLIMIT_NOFILE, &rl), 0, "setrlimit(%llu, %llu)",
		     (unsigned long long)soft, (unsigned long long)hard);
}

/* Files named as fio names them: <dir>/<job>.<worker>.<n>; how many exist, each of size. */
static unsigned files_of_size(const char *dir, const char *job, unsigned worker, unsigned nr,
			      long long size)
{
	char path[400];
	struct stat st;
	unsigned i, found = 0;

	for (i = 0; i < nr; i++) {
		snprintf(path, sizeof(path), "%s/%s.%u.%u", dir, job, worker, i);
		if (!stat(path, &st) && st.st_size == size)
			found++;
	}
	return found;
}

Test(manyfiles, psync_randread_over_300_files_reads_every_file_and_counts_every_byte)
{
	const char *dir = tmpdir_make();
	char darg[300], path[400];
	char *lay[] = { "--name=m", "--ioengine=psync", "--rw=write", "--bs=4k", "--size=2400k",
			"--nrfiles=300", darg, NULL };
	char *args[] = { "--name=m", "--ioengine=psync", "--rw=randread", "--bs=4k",
			 "--size=2400k", "--nrfiles=300", darg, NULL };
	struct timespec old[2] = { { .tv_sec = OLD_ATIME }, { .tv_nsec = UTIME_OMIT } };
	struct stat st;
	json_t *root;
	unsigned i, read = 0;

	snprintf(darg, sizeof(darg), "--directory=%s", dir);
	root = iopath_json_in(dir, lay, 0, NULL);
	cr_assert_eq(job_int(root, 0, "write", "io_bytes"), 300 * 8192);
	json_decref(root);
	cr_assert_eq(files_of_size(dir, "m", 0, 300, 8192), 300);
	for (i = 0; i < 300; i++) {
		snprintf(path, sizeof(path), "%s/m.0.%u", dir, i);
		cr_assert_eq(utimensat(AT_FDCWD, path, old, 0), 0, "%s", path);
	}

	root = iopath_json_in(dir, args, 0, NULL);
	cr_assert_eq(job_int(root, 0, "read", "io_bytes"), 300 * 8192);
	cr_assert_eq(job_int(root, 0, "read", "total_ios"), 600);
	cr_assert_eq(job_int(root, 0, "write", "total_ios"), 0);
	json_decref(root);
	for (i = 0; i < 300; i++) {
		snprintf(path, sizeof(path), "%s/m.0.%u", dir, i);
		cr_assert_eq(stat(path, &st), 0, "%s", path);
		read += st.st_atim.tv_sec > OLD_ATIME;
	}
	if (!read)
		cr_skip_test("the filesystem of %s does not update atime (noatime): files read unseen", dir);
	cr_assert_eq(read, 300, "%u of 300 files read", read);
}

Test(manyfiles, randwrite_over_300_files_with_random_file_choice_writes_every_block)
{
	const char *dir = tmpdir_make();
	char darg[300], path[400];
	char *args[] = { "--name=w", "--ioengine=psync", "--rw=randwrite", "--bs=4k",
			 "--size=2400k", "--nrfiles=300", "--file_service_type=random", darg,
			 NULL };
	struct stat st;
	json_t *root;
	unsigned i, full = 0;

	snprintf(darg, sizeof(darg), "--directory=%s", dir);
	root = iopath_json_in(dir, args, 0, NULL);
	cr_assert_eq(job_int(root, 0, "write", "io_bytes"), 300 * 8192);
	cr_assert_eq(job_int(root, 0, "write", "total_ios"), 600);
	json_decref(root);
	/* laid out sparse for a write job: a block is allocated once written */
	for (i = 0; i < 300; i++) {
		snprintf(path, sizeof(path), "%s/w.0.%u", dir, i);
		cr_assert_eq(stat(path, &st), 0, "%s", path);
		cr_assert_eq(st.st_size, 8192);
		full += st.st_blocks * 512 >= 8192;
	}
	cr_assert_eq(full, 300, "%u of 300 files fully written", full);
}

Test(manyfiles, filestat_over_200_files_per_job_stats_each_once)
{
	const char *dir = tmpdir_make();
	char darg[300];
	char *args[] = { "--name=s", "--ioengine=filestat", "--filesize=4k", "--nrfiles=200",
			 "--numjobs=2", darg, NULL };
	json_t *root, *jobs;
	unsigned k;

	snprintf(darg, sizeof(darg), "--directory=%s", dir);
	root = iopath_json_in(dir, args, 0, NULL);
	jobs = json_object_get(root, "jobs");
	cr_assert_eq(json_array_size(jobs), 2);
	for (k = 0; k < 2; k++) {
		json_t *rd = json_object_get(json_array_get(jobs, k), "read");

		cr_assert_eq(job_int(root, k, "read", "total_ios"), 200);
		cr_assert_eq(job_int(root, k, "read", "io_bytes"), 200 * 4096);
		cr_assert_eq(json_integer_value(json_object_get(json_object_get(rd, "clat_ns"), "N")),
			     200);
		cr_assert_eq(files_of_size(dir, "s", k, 200, 4096), 200);
	}
	json_decref(root);
}

Test(manyfiles, soft_descriptor_limit_below_the_files_is_raised_up_to_the_hard_limit)
{
	const char *dir = tmpdir_make();
	char darg[300];
	char *args[] = { "--name=r", "--ioengine=psync", "--rw=read", "--bs=4k", "--size=1200k",
			 "--nrfiles=300", darg, NULL };
	json_t *root;

	snprintf(darg, sizeof(darg), "--directory=%s", dir);
	limit_nofile(100, 1024);
	root = iopath_json_in(dir, args, 0, NULL);
	cr_assert_eq(job_int(root, 0, "read", "io_bytes"), 300 * 4096);
	cr_assert_eq(job_int(root, 0, "read", "total_ios"), 300);
	json_decref(root);
}

Test(manyfiles, files_beyond_the_hard_descriptor_limit_are_refused_naming_openfiles)
{
	const char *dir = tmpdir_make();
	char darg[300], *err = NULL;
	char *args[] = { "--name=r", "--ioengine=psync", "--rw=read", "--bs=4k", "--size=1200k",
			 "--nrfiles=150", "--numjobs=2", darg, NULL };

	snprintf(darg, sizeof(darg), "--directory=%s", dir);
	limit_nofile(100, 256);
	iopath_json_in(dir, args, 2, &err);
	assert_has(err, "RLIMIT_NOFILE", "openfiles=", "job r", NULL);
	cr_assert_eq(strchr(err, '\n'), err + strlen(err) - 1, "not one line: %s", err);
	free(err);
	/* refused before any file was laid out */
	cr_assert_eq(files_of_size(dir, "r", 0, 150, 4096), 0);
}

Test(manyfiles, file_operation_jobs_hold_one_descriptor_each_under_a_low_limit)
{
	const char *dir = tmpdir_make();
	char darg[300];
	char *args[] = { "--name=c", "--ioengine=filecreate", "--filesize=4k", "--nrfiles=500",
			 "--openfiles=1", darg, NULL };
	json_t *root;

	snprintf(darg, sizeof(darg), "--directory=%s", dir);
	limit_nofile(128, 128);
	root = iopath_json_in(dir, args, 0, NULL);
	cr_assert_eq(job_int(root, 0, "read", "total_ios"), 500);
	json_decref(root);
	cr_assert_eq(files_of_size(dir, "c", 0, 500, 0), 500);
}

Test(manyfiles, io_uring_registers_300_files_after_raising_the_soft_limit)
{
	const char *dir = tmpdir_make();
	char darg[300];
	char *args[] = { "--name=u", "--ioengine=io_uring", "--registerfiles", "--rw=randread",
			 "--bs=4k", "--size=1200k", "--nrfiles=300", darg, NULL };
	struct run_out r;
	json_t *root;

	snprintf(darg, sizeof(darg), "--directory=%s", dir);
	r = iopath_run("--name=p", "--ioengine=io_uring", "--rw=read", "--size=4k", darg, NULL);
	if (r.status)
		cr_skip_test("io_uring does not run here: %s", r.err);
	run_out_free(&r);
	limit_nofile(100, 1024);
	root = iopath_json_in(dir, args, 0, NULL);
	cr_assert_eq(job_int(root, 0, "read", "io_bytes"), 300 * 4096);
	cr_assert_eq(job_int(root, 0, "read", "total_ios"), 300);
	json_decref(root);
}

Test(manyfiles, nrfiles_above_the_limit_per_worker_is_refused_in_one_line)
{
	struct run_out r = iopath_run("--name=x", "--ioengine=null", "--nrfiles=1000001",
				      "--size=1g", NULL);

	cr_assert_eq(r.status, 2, "exit %d", r.status);
	cr_assert_not_null(strstr(r.err, "nrfiles=1000001"), "%s", r.err);
	cr_assert_eq(strchr(r.err, '\n'), r.err + strlen(r.err) - 1, "not one line: %s", r.err);
	run_out_free(&r);
}
