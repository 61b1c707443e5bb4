/*
 * Integration: each direction's runtime (and so its bandwidth and IOPS) covers the time that
 * direction ran, as fio's runtime[ddir]: a write job's verify reads have their own span.
 */
#include <stdio.h>
#include <string.h>

#include "harness.h"

TestSuite(runtime, .fini = tmpdir_cleanup);

static json_t *verify_run(const char *rw, const char *extra)
{
	const char *dir = tmpdir_make();
	char file[300];

	snprintf(file, sizeof(file), "--filename=%s/data", dir);
	return iopath_json_ok(dir, "--name=x", file, rw, "--size=32m", "--bs=64k", "--verify=crc32c",
			      extra, NULL);
}

static long long job_runtime(json_t *root)
{
	return json_integer_value(json_object_get(json_array_get(json_object_get(root, "jobs"), 0),
						  "job_runtime"));
}

/* bandwidth is the direction's bytes over its own runtime */
static void bw_matches_runtime(json_t *root, const char *dir)
{
	long long bytes = job_int(root, 0, dir, "io_bytes"), rt = job_int(root, 0, dir, "runtime");
	long long bw = job_int(root, 0, dir, "bw_bytes");

	cr_assert_gt(rt, 0, "%s runtime", dir);
	/* as fio: runtime in whole ms (rounded up), bw the bytes over it */
	cr_expect_eq(bw, bytes * 1000 / rt, "%s bw %lld, %lld bytes in %lld ms", dir, bw, bytes, rt);
}

/*
 * A write job with verify: the writes, then the verify reads; the two spans make up the job
 * (both directions were given the whole job's runtime, the writes' bandwidth understated).
 */
Test(runtime, write_job_verify_reads_have_their_own_span)
{
	json_t *root = verify_run("--rw=write", "--randrepeat=1");
	long long rd = job_int(root, 0, "read", "runtime"), wr = job_int(root, 0, "write", "runtime");
	long long job = job_runtime(root);

	cr_assert_eq(job_int(root, 0, "write", "io_bytes"), 32 << 20);
	cr_assert_eq(job_int(root, 0, "read", "io_bytes"), 32 << 20);
	cr_expect(rd + wr >= job - 1 && rd + wr <= job + 2,
		  "read %lld ms + write %lld ms against the job's %lld ms", rd, wr, job);
	bw_matches_runtime(root, "read");
	bw_matches_runtime(root, "write");
	json_decref(root);
}

/* end_fsync belongs to the writes' phase, done before the verify reads (fio's do_io). */
Test(runtime, end_fsync_counts_for_the_writes_not_the_verify)
{
	json_t *root = verify_run("--rw=write", "--end_fsync=1");
	long long rd = job_int(root, 0, "read", "runtime"), wr = job_int(root, 0, "write", "runtime");
	long long job = job_runtime(root);

	cr_expect(rd + wr >= job - 1 && rd + wr <= job + 2,
		  "read %lld ms + write %lld ms against the job's %lld ms", rd, wr, job);
	json_decref(root);
}

/* A mixed job reads in both phases: reads span the job, writes only the first phase. */
Test(runtime, mixed_job_reads_span_both_phases)
{
	json_t *root = verify_run("--rw=randrw", "--randrepeat=1");
	long long rd = job_int(root, 0, "read", "runtime"), wr = job_int(root, 0, "write", "runtime");
	long long job = job_runtime(root);

	/* each direction's ms are rounded up, the job's down (fio's total_run_time) */
	cr_expect(rd >= job && rd <= job + 1, "read %lld ms, job %lld ms", rd, job);
	cr_expect_leq(wr, rd, "write %lld ms, read %lld ms", wr, rd);
	bw_matches_runtime(root, "read");
	bw_matches_runtime(root, "write");
	json_decref(root);
}
