/*
 * Integration: the fio options that kept fio's own example job files from running (sequence
 * modifiers, gtod_reduce, flow, exitall, steady state, zones...), end to end and, where the
 * null engine or a small file allows, side by side with fio (skipped where fio is missing).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

#define FIO "/usr/bin/fio"

TestSuite(fio_gaps, .fini = tmpdir_cleanup);

/* Run iopath (or fio) with --output-format=json and the arguments; the parsed result. */
static json_t *run_json(bool fio, const char *const *args)
{
	char *argv[40];
	unsigned n = 0;
	struct run_out r;
	json_t *root;

	argv[n++] = fio ? (char *)"fio" : (char *)"iopath";
	argv[n++] = (char *)"--output-format=json";
	for (; *args && n < 39; args++)
		argv[n++] = (char *)*args;
	argv[n] = NULL;
	r = fio ? prog_runv(FIO, argv) : iopath_runv(argv);
	cr_assert_eq(r.status, 0, "%s failed (%d): %s", argv[0], r.status, r.err);
	root = json_from_string(strstr(r.out, "{") ? strstr(r.out, "{") : r.out);
	run_out_free(&r);
	return root;
}

static bool have_fio(void)
{
	return !access(FIO, X_OK);
}

static json_t *job_dir(json_t *root, unsigned i, const char *dir)
{
	return json_object_get(json_array_get(json_object_get(root, "jobs"), i), dir);
}

static long long lat_n(json_t *root, unsigned i, const char *dir, const char *which)
{
	return json_integer_value(json_object_get(json_object_get(job_dir(root, i, dir), which),
						  "N"));
}

/* Both tools move the same bytes and I/Os per job and direction. */
static void same_io(json_t *f, json_t *i, const char *what)
{
	json_t *fj = json_object_get(f, "jobs"), *ij = json_object_get(i, "jobs");
	static const char *const dirs[] = { "read", "write" };
	size_t k, d;

	for (k = 0; k < json_array_size(ij); k++) {
		for (d = 0; d < 2; d++) {
			cr_expect_eq(job_int(i, (unsigned)k, dirs[d], "io_bytes"),
				     job_int(f, (unsigned)k, dirs[d], "io_bytes"),
				     "%s: job %zu %s bytes", what, k, dirs[d]);
			cr_expect_eq(job_int(i, (unsigned)k, dirs[d], "total_ios"),
				     job_int(f, (unsigned)k, dirs[d], "total_ios"),
				     "%s: job %zu %s ios", what, k, dirs[d]);
		}
	}
	cr_expect_eq(json_array_size(ij), json_array_size(fj), "%s: job count", what);
}

Test(fio_gaps, gtod_reduce_measures_io_but_no_latency_or_samples)
{
	const char *args[] = { "--name=g", "--ioengine=null", "--size=16m", "--rw=randread",
			       "--norandommap", "--gtod_reduce=1", NULL };
	json_t *root = run_json(false, args), *nm;

	cr_assert_eq(job_int(root, 0, "read", "io_bytes"), 16 << 20);
	cr_expect_eq(lat_n(root, 0, "read", "clat_ns"), 0);
	cr_expect_eq(lat_n(root, 0, "read", "slat_ns"), 0);
	cr_expect_eq(lat_n(root, 0, "read", "lat_ns"), 0);
	cr_expect_eq(job_int(root, 0, "read", "bw_samples"), 0);
	cr_expect_null(json_object_get(json_object_get(job_dir(root, 0, "read"), "clat_ns"),
				       "percentile"));
	nm = json_object_get(json_object_get(json_array_get(json_object_get(root, "jobs"), 0),
					     "iopath"), "not_measured");
	cr_expect_eq(json_array_size(nm), 4);
	json_decref(root);
}

Test(fio_gaps, disable_clat_alone_keeps_total_latency)
{
	const char *args[] = { "--name=g", "--ioengine=null", "--size=1m", "--rw=read",
			       "--disable_clat=1", NULL };
	json_t *root = run_json(false, args);

	cr_expect_eq(lat_n(root, 0, "read", "clat_ns"), 0);
	cr_expect_eq(lat_n(root, 0, "read", "lat_ns"), 256);
	json_decref(root);
}

Test(fio_gaps, gtod_reduce_later_option_turns_one_back_on)
{
	const char *args[] = { "--name=g", "--ioengine=null", "--size=1m", "--rw=read",
			       "--gtod_reduce=1", "--disable_clat=0", NULL };
	json_t *root = run_json(false, args);

	cr_expect_eq(lat_n(root, 0, "read", "clat_ns"), 256);
	cr_expect_eq(lat_n(root, 0, "read", "lat_ns"), 0);
	json_decref(root);
}

Test(fio_gaps, gtod_reduce_side_by_side_with_fio)
{
	const char *args[] = { "--name=g", "--ioengine=null", "--size=8m", "--rw=randread",
			       "--norandommap", "--gtod_reduce=1", NULL };
	json_t *f, *i;

	if (!have_fio())
		cr_skip_test("fio is not installed (scripts/deps.sh installs it)");
	f = run_json(true, args);
	i = run_json(false, args);
	same_io(f, i, "gtod_reduce");
	cr_expect_eq(lat_n(i, 0, "read", "clat_ns"), lat_n(f, 0, "read", "clat_ns"));
	cr_expect_eq(job_int(i, 0, "read", "bw_samples"), job_int(f, 0, "read", "bw_samples"));
	json_decref(f);
	json_decref(i);
}

/* The same job through both tools, null engine: the same bytes and I/Os per job. */
static void side_by_side(const char *what, const char *const *args)
{
	json_t *f, *i;

	if (!have_fio())
		cr_skip_test("fio is not installed (scripts/deps.sh installs it)");
	f = run_json(true, args);
	i = run_json(false, args);
	same_io(f, i, what);
	json_decref(f);
	json_decref(i);
}

#define NULL_JOB "--name=s", "--ioengine=null", "--size=64k", "--bs=4k"

Test(fio_gaps, sequence_step_forward_ends_the_pass_at_the_file_end_as_fio)
{
	const char *args[] = { NULL_JOB, "--rw=read:8k", NULL };
	json_t *root = run_json(false, args);

	/* 0, 12k, 24k, 36k, 48k, 60k: then the next offset is past the end */
	cr_expect_eq(job_int(root, 0, "read", "total_ios"), 6);
	json_decref(root);
	side_by_side("read:8k", args);
}

Test(fio_gaps, sequence_step_with_loops_starts_each_loop_again_as_fio)
{
	const char *args[] = { NULL_JOB, "--rw=read:8k", "--loops=2", "--offset=16k", NULL };

	side_by_side("read:8k loops=2", args);
}

Test(fio_gaps, sequence_step_backwards_moves_the_whole_size_as_fio)
{
	const char *args[] = { NULL_JOB, "--rw=read:-8k", "--numjobs=2", "--offset_increment=64k",
			       NULL };

	side_by_side("read:-8k", args);
}

Test(fio_gaps, random_every_nth_offset_as_fio)
{
	const char *args[] = { NULL_JOB, "--rw=randread:4", "--nrfiles=2", NULL };
	const char *ident[] = { NULL_JOB, "--rw=randwrite:3", "--rw_sequencer=identical", NULL };

	side_by_side("randread:4", args);
	side_by_side("randwrite:3 identical", ident);
}

Test(fio_gaps, sequence_step_that_fio_misreads_is_refused)
{
	struct run_out r = iopath_run("--parse-only", "--name=x", "--rw=randread:2k", NULL);

	cr_expect_eq(r.status, 2);
	cr_expect_not_null(strstr(r.err, "fio reads '2k' as 2"), "%s", r.err);
	run_out_free(&r);
	r = iopath_run("--parse-only", "--name=x", "--rw=randread:0", NULL);
	cr_expect_eq(r.status, 2);
	run_out_free(&r);
	r = iopath_run("--parse-only", "--name=x", "--rw=read:1.5k", NULL);
	cr_expect_eq(r.status, 2);
	run_out_free(&r);
}

Test(fio_gaps, backwards_read_writes_and_verifies_every_block)
{
	const char *dir = tmpdir_make();
	char file[300];
	const char *args[] = { "--name=v", file, "--size=256k", "--bs=4k", "--rw=write:-8k",
			       "--verify=crc32c", NULL };
	json_t *root;

	snprintf(file, sizeof(file), "--filename=%s/v", dir);
	root = run_json(false, args);
	cr_expect_eq(job_int(root, 0, "write", "io_bytes"), 256 << 10);
	cr_expect_eq(json_integer_value(json_object_get(json_array_get(json_object_get(root, "jobs"),
								      0), "error")), 0);
	json_decref(root);
}
