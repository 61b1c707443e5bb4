/*
 * Integration: io_submit_mode=offload with engines that keep per-file state or use the file
 * position: every I/O thread's engine has its own, or the job is refused before it starts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

TestSuite(offload, .fini = tmpdir_cleanup);

/* Is every byte of path the 4-byte pattern de ad be ef, and is it len bytes long? */
static bool file_is_pattern(const char *path, size_t len)
{
	static const unsigned char pat[4] = { 0xde, 0xad, 0xbe, 0xef };
	FILE *f = fopen(path, "rb");
	size_t n = 0;
	int c;

	cr_assert_not_null(f, "%s", path);
	while ((c = fgetc(f)) != EOF) {
		if ((unsigned char)c != pat[n % 4]) {
			fclose(f);
			return false;
		}
		n++;
	}
	fclose(f);
	return n == len;
}

/*
 * mmap keeps its mapping in the file's engine state: each I/O thread maps the file for its
 * own engine (they shared one, and their open/close raced into a double free about one run
 * in five). Every block lands where it belongs.
 */
Test(offload, mmap_io_threads_each_map_the_file, .timeout = 120)
{
	const char *dir = tmpdir_make();
	char file[300], path[300];
	unsigned i;

	snprintf(path, sizeof(path), "%s/data", dir);
	snprintf(file, sizeof(file), "--filename=%s", path);
	for (i = 0; i < 20; i++) {
		json_t *root;

		remove(path);
		root = iopath_out_json("--name=x", file, "--ioengine=mmap", "--io_submit_mode=offload",
				       "--iodepth=4", "--size=1m", "--bs=4k",
				       i % 2 ? "--rw=randwrite" : "--rw=write",
				       "--buffer_pattern=0xdeadbeef", "--output-format=json", NULL);
		cr_assert_eq(job_int(root, 0, "write", "total_ios"), 256, "run %u", i);
		cr_assert_eq(job_int(root, 0, "write", "io_bytes"), 1 << 20, "run %u", i);
		json_decref(root);
		cr_assert(file_is_pattern(path, 1 << 20), "run %u: the file does not hold what was written", i);
	}
}

/*
 * sync seeks the one file position the I/O threads share, then reads: another thread's seek
 * in between moved its I/O elsewhere ("unexpected end of file"). Refused before it starts,
 * naming the engine that does the same I/O without the shared position.
 */
Test(offload, sync_engine_is_refused_naming_psync)
{
	struct run_out r = iopath_run("--name=x", "--filename=/nonexistent/never-opened",
				      "--ioengine=sync", "--io_submit_mode=offload", "--iodepth=8",
				      "--size=64k", "--rw=randread", NULL);

	cr_assert_eq(r.status, 2, "exit %d: %s", r.status, r.err);
	cr_expect_not_null(strstr(r.err, "io_submit_mode=offload with ioengine=sync is not supported by iopath"),
			   "%s", r.err);
	cr_expect_not_null(strstr(r.err, "ioengine=psync"), "%s", r.err);
	run_out_free(&r);
}

/*
 * A zone is reset only once the I/O in flight to it has completed; the offload pool's threads
 * do not report that to the worker, so the pair is refused rather than resetting under I/O.
 */
Test(offload, zbd_is_refused)
{
	struct run_out r = iopath_run("--name=x", "--filename=/nonexistent/never-opened",
				      "--ioengine=psync", "--io_submit_mode=offload", "--iodepth=8",
				      "--zonemode=zbd", "--zonesize=1m", "--size=4m", "--rw=write", NULL);

	cr_assert_eq(r.status, 2, "exit %d: %s", r.status, r.err);
	cr_expect_not_null(strstr(r.err, "io_submit_mode=offload with zonemode=zbd is not supported by iopath"),
			   "%s", r.err);
	run_out_free(&r);
	/* the pool's threads take one request each: no queue to let drain to a low mark */
	iopath_refuses("io_submit_mode=offload with iodepth_low is not supported by iopath",
		       "--name=x", "--filename=/nonexistent/never-opened", "--ioengine=psync",
		       "--io_submit_mode=offload", "--iodepth=8", "--iodepth_low=2", "--size=4m",
		       "--rw=read", NULL);
}

/* psync, the positional engine, runs under offload and reads every block where it is. */
Test(offload, psync_reads_every_block_under_offload, .timeout = 60)
{
	const char *path = tmp_str("%s/data", tmpdir_make()), *file = tmp_str("--filename=%s", path);
	json_t *root;

	file_make(path, 64 << 10, 7);
	root = iopath_json(0, "--name=x", file, "--ioengine=psync", "--io_submit_mode=offload",
			   "--iodepth=8", "--size=64k", "--rw=randread", "--loops=200",
			   "--output-format=json", NULL);
	cr_expect_eq(job_int(root, 0, "read", "total_ios"), 16 * 200);
	cr_expect_eq(job_int(root, 0, "read", "io_bytes"), (64 << 10) * 200);
	cr_expect_eq(job_int(root, 0, "read", "short_ios"), 0);
	json_decref(root);
}

/*
 * serialize_overlap: at iodepth=1 one request is in flight, nothing can overlap it, and the
 * pair runs (fio's t0013); deeper, the pool's threads would have to be serialized: refused.
 */
Test(offload, serialize_overlap_runs_at_depth_one_only)
{
	struct run_out r = iopath_run("--name=x", "--ioengine=null", "--io_submit_mode=offload",
				      "--iodepth=1", "--serialize_overlap=1", "--size=64k",
				      "--thread", "--numjobs=2", NULL);

	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	run_out_free(&r);
	iopath_refuses("io_submit_mode=offload with serialize_overlap is not supported by iopath",
		       "--name=x", "--ioengine=null", "--io_submit_mode=offload", "--iodepth=4",
		       "--serialize_overlap=1", "--size=64k", NULL);
}
