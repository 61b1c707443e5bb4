/* Integration: every engine moves exactly the bytes asked for, with verify, in every pattern. */
#include <stdio.h>
#include <unistd.h>
#include <string.h>

#include "harness.h"

#define SIZE (4 << 20)

TestSuite(engines, .fini = tmpdir_cleanup);

/* Run one verified job and check the bytes moved. Returns false if direct I/O was refused. */
static void check_pattern(const char *engine, const char *rw, int direct, int depth)
{
	const char *dir = tmpdir_make();
	struct run_out r = iopath_run("--name=t", tmp_str("--filename=%s/data", dir), "--size=4m",
				      "--bs=4k", tmp_str("--ioengine=%s", engine),
				      tmp_str("--rw=%s", rw), tmp_str("--direct=%d", direct),
				      tmp_str("--iodepth=%d", depth), "--verify=crc32c",
				      "--output-format=json", tmp_str("--output=%s/out.json", dir),
				      NULL);
	json_t *root;
	bool writes = strstr(rw, "write") != NULL;
	long long rd, wr;

	cr_assert_eq(r.status, 0, "%s %s direct=%d: exit %d: %s", engine, rw, direct, r.status, r.err);
	root = json_load_path(tmp_str("%s/out.json", dir));
	cr_assert_eq(job_int(root, 0, NULL, "error"), 0);
	rd = job_int(root, 0, "read", "io_bytes");
	wr = job_int(root, 0, "write", "io_bytes");
	if (writes) {
		/* every block written once, then read back by the verify pass */
		cr_assert_eq(wr, SIZE, "%s %s: wrote %lld", engine, rw, wr);
		cr_assert_eq(rd, SIZE, "%s %s: verify read %lld", engine, rw, rd);
	} else {
		cr_assert_eq(rd, SIZE, "%s %s: read %lld", engine, rw, rd);
		cr_assert_eq(wr, 0);
	}
	json_decref(root);
	run_out_free(&r);
	tmpdir_cleanup();
}

static void check_engine(const char *engine, bool direct_ok, int depth)
{
	static const char *const rws[] = { "read", "write", "randread", "randwrite" };
	unsigned i;

	for (i = 0; i < 4; i++) {
		check_pattern(engine, rws[i], 0, depth);
		if (direct_ok)
			check_pattern(engine, rws[i], 1, depth);
	}
}

Test(engines, sync_moves_exact_bytes) { check_engine("sync", true, 1); }
Test(engines, psync_moves_exact_bytes) { check_engine("psync", true, 1); }
Test(engines, odirect_moves_exact_bytes) { check_engine("odirect", false, 1); }
Test(engines, libaio_moves_exact_bytes) { check_engine("libaio", true, 16); }
Test(engines, io_uring_moves_exact_bytes) { check_engine("io_uring", true, 16); }
Test(engines, mmap_moves_exact_bytes) { check_engine("mmap", false, 1); }
Test(engines, posixaio_moves_exact_bytes) { check_engine("posixaio", true, 16); }
Test(engines, pvsync_moves_exact_bytes) { check_engine("pvsync", true, 1); }
Test(engines, pvsync2_moves_exact_bytes) { check_engine("pvsync2", true, 1); }

Test(engines, io_uring_kernel_bypass_options_keep_verify_passing)
{
	static const char *const opts[] = { "--fixedbufs", "--registerfiles", "--sqthread_poll",
					    "--defer_taskrun=0" };
	const char *dir = tmpdir_make();
	char file[300];
	unsigned i;

	snprintf(file, sizeof(file), "--filename=%s/data", dir);
	for (i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
		struct run_out r = iopath_run("--name=t", file, "--size=2m", "--rw=randwrite",
					      "--ioengine=io_uring", "--iodepth=8", "--direct=1",
					      "--verify=crc32c", opts[i], NULL);

		cr_assert_eq(r.status, 0, "%s: exit %d: %s", opts[i], r.status, r.err);
		run_out_free(&r);
	}
}

Test(engines, null_counts_without_touching_files)
{
	const char *dir = tmpdir_make(), *path = tmp_str("%s/never", dir);
	struct run_out r = iopath_run("--name=t", tmp_str("--filename=%s", path), "--size=64m",
				      "--rw=randread", "--ioengine=null", "--iodepth=32",
				      "--output-format=json", tmp_str("--output=%s/out.json", dir),
				      NULL);
	json_t *root;

	cr_assert_eq(r.status, 0, "%s", r.err);
	root = json_load_path(tmp_str("%s/out.json", dir));
	cr_assert_eq(job_int(root, 0, "read", "io_bytes"), 64 << 20);
	cr_assert_eq(job_int(root, 0, "read", "total_ios"), 16384);
	cr_assert_eq(access(path, F_OK), -1, "the null engine created its file");
	json_decref(root);
	run_out_free(&r);
}

/*
 * nop=1: every request is one IORING_OP_NOP, counted whole, with and without time stamps;
 * invalidate=0 without them runs by count (core/run/lean_counted.c), invalidate=1 the lean loop.
 */
static void nops_counted(const char *depth, const char *batch, const char *reduce, long long clat_n,
			 const char *inval)
{
	const char *dir = tmpdir_make();
	struct run_out r = iopath_run("--name=t", tmp_str("--filename=%s/data", dir), "--size=4m",
				      "--io_size=16m", "--rw=randread", "--ioengine=io_uring",
				      "--nop=1", depth, batch, "--iodepth_batch_complete_max=32",
				      reduce, inval, "--output-format=json",
				      tmp_str("--output=%s/out.json", dir), NULL);
	json_t *root, *clat;

	cr_assert_eq(r.status, 0, "%s %s %s: exit %d: %s", depth, batch, reduce, r.status, r.err);
	root = json_load_path(tmp_str("%s/out.json", dir));
	cr_expect_eq(job_int(root, 0, "read", "total_ios"), 4096, "%s %s %s", depth, batch, reduce);
	cr_expect_eq(job_int(root, 0, "read", "io_bytes"), 16 << 20);
	clat = json_object_get(json_object_get(json_array_get(json_object_get(root, "jobs"), 0),
					       "read"), "clat_ns");
	cr_expect_eq(json_integer_value(json_object_get(clat, "N")), clat_n, "%s %s %s: clat N",
		     depth, batch, reduce);
	json_decref(root);
	run_out_free(&r);
	tmpdir_cleanup();
}

Test(engines, io_uring_nops_are_counted_whole_in_every_loop)
{
	nops_counted("--iodepth=128", "--iodepth_batch_submit=32", "--gtod_reduce=1", 0,
		     "--invalidate=1");
	nops_counted("--iodepth=128", "--iodepth_batch_submit=32", "--gtod_reduce=1", 0,
		     "--invalidate=0");
	nops_counted("--iodepth=128", "--iodepth_batch_submit=32", "--gtod_reduce=0", 4096,
		     "--invalidate=0");
	nops_counted("--iodepth=7", "--iodepth_batch_submit=3", "--gtod_reduce=1", 0,
		     "--invalidate=0");
	nops_counted("--iodepth=1", "--iodepth_batch_submit=1", "--disable_slat=1", 4096,
		     "--invalidate=1");
}

/*
 * nop=1 nop_file=1: each NOP names its file and buffer (registered or not) and comes back
 * with its length, as t/io_uring's NOPs since fio 3.39; counted whole in the counted loop
 * and the lean one, with SQPOLL too. Skipped where the kernel's NOP takes no file.
 */
static void nops_with_file(const char *const *extra)
{
	const char *dir = tmpdir_make();
	char *argv[24];
	unsigned n = 0;
	struct run_out r;
	json_t *root, *job;
	const char *op;

	argv[n++] = (char *)"iopath";
	argv[n++] = (char *)"--name=t";
	argv[n++] = tmp_str("--filename=%s/data", dir);
	argv[n++] = (char *)"--size=4m";
	argv[n++] = (char *)"--io_size=16m";
	argv[n++] = (char *)"--rw=randread";
	argv[n++] = (char *)"--ioengine=io_uring";
	argv[n++] = (char *)"--nop=1";
	argv[n++] = (char *)"--nop_file=1";
	argv[n++] = (char *)"--output-format=json";
	argv[n++] = tmp_str("--output=%s/out.json", dir);
	for (; *extra && n < 23; extra++)
		argv[n++] = (char *)*extra;
	argv[n] = NULL;
	r = iopath_runv(argv);
	if (r.status == 1 && strstr(r.err, "does not take a file"))
		cr_skip_test("this kernel's NOP takes no file: %s", r.err);
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	root = json_load_path(tmp_str("%s/out.json", dir));
	cr_expect_eq(job_int(root, 0, "read", "total_ios"), 4096);
	cr_expect_eq(job_int(root, 0, "read", "io_bytes"), 16 << 20);
	job = json_array_get(json_object_get(root, "jobs"), 0);
	cr_expect_eq(json_integer_value(json_object_get(job, "error")), 0);
	op = json_string_value(json_object_get(json_object_get(json_object_get(job, "iopath"),
								 "engine_applied"), "op"));
	cr_assert_not_null(op);
	cr_expect(strstr(op, "naming its") != NULL, "op: %s", op);
	json_decref(root);
	run_out_free(&r);
	tmpdir_cleanup();
}

Test(engines, io_uring_nops_naming_their_file_are_counted_whole)
{
	const char *counted[] = { "--iodepth=128", "--iodepth_batch_submit=32",
				  "--iodepth_batch_complete_max=32", "--gtod_reduce=1",
				  "--invalidate=0", "--fixedbufs=1", "--registerfiles=1", NULL };
	const char *plain[] = { "--iodepth=128", "--iodepth_batch_submit=32", "--gtod_reduce=1",
				"--invalidate=0", NULL };
	const char *lean[] = { "--iodepth=7", "--iodepth_batch_submit=3", "--invalidate=1",
			       "--fixedbufs=1", NULL };
	const char *timed[] = { "--iodepth=16", "--registerfiles=1", NULL };
	const char *sqpoll[] = { "--iodepth=4", "--sqthread_poll=1", "--registerfiles=1",
				 "--fixedbufs=1", NULL };

	nops_with_file(counted);
	nops_with_file(plain);
	nops_with_file(lean);
	nops_with_file(timed);
	nops_with_file(sqpoll);
}

Test(engines, io_uring_nop_file_without_nop_is_refused)
{
	const char *dir = tmpdir_make();
	struct run_out r = iopath_run("--name=t", tmp_str("--filename=%s/data", dir), "--size=1m",
				      "--ioengine=io_uring", "--nop_file=1", NULL);

	cr_expect_neq(r.status, 0);
	cr_expect(strstr(r.err, "nop_file=1 is an option of nop=1") != NULL, "%s", r.err);
	run_out_free(&r);
	tmpdir_cleanup();
}

/*
 * Batched sequential reads (the lean loop fills a batch at a time): a size that is not a
 * whole number of batches and an io_size over three passes of the file, so that the offsets
 * wrap to the file's start in the middle of a batch and the last batch is cut short. An
 * offset past the end would read short and count as an error.
 */
Test(engines, batched_sequential_reads_wrap_and_stop_at_io_size)
{
	const char *dir = tmpdir_make();
	struct run_out r = iopath_run("--name=t", tmp_str("--filename=%s/data", dir), "--size=1000k",
				      "--io_size=3012k", "--rw=read", "--bs=4k",
				      "--ioengine=io_uring", "--iodepth=32",
				      "--iodepth_batch_submit=32", "--iodepth_batch_complete_max=32",
				      "--output-format=json", tmp_str("--output=%s/out.json", dir),
				      NULL);
	json_t *root;

	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	root = json_load_path(tmp_str("%s/out.json", dir));
	cr_expect_eq(job_int(root, 0, "read", "total_ios"), 753);
	cr_expect_eq(job_int(root, 0, "read", "short_ios"), 0);
	cr_expect_eq(job_int(root, 0, "read", "io_bytes"), 3012 << 10);
	cr_expect_eq(json_integer_value(json_object_get(json_array_get(json_object_get(root, "jobs"),
								       0), "error")), 0);
	json_decref(root);
	run_out_free(&r);
	tmpdir_cleanup();
}
