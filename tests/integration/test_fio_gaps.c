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
