/*
 * Integration: the latencies a job reports are real intervals. With some of fio's disable_*
 * options set (not gtod_reduce), what is still measured stays within the job's own runtime,
 * never a wrapped or unstamped time.
 */
#include <stdio.h>
#include <string.h>

#include "harness.h"

TestSuite(latency_values, .fini = tmpdir_cleanup);

/* Run a 4 MiB random-read job with the extra options; the parsed result. */
static json_t *lat_run(const char *engine, const char *opt)
{
	const char *dir = tmpdir_make();
	char file[300];
	json_t *root;

	snprintf(file, sizeof(file), "--filename=%s/data", dir);
	root = iopath_json_ok(dir, "--name=x", file, "--size=4m", "--rw=randread", engine,
			      "--iodepth=4", opt, NULL);
	cr_assert_eq(job_int(root, 0, "read", "total_ios"), 1024);
	return root;
}

static double lat_field(json_t *root, const char *which, const char *key)
{
	json_t *rd = json_object_get(json_array_get(json_object_get(root, "jobs"), 0), "read");

	return json_number_value(json_object_get(json_object_get(rd, which), key));
}

/* No single I/O's latency can be longer than the whole job it was part of. */
static void within_runtime(json_t *root, const char *which)
{
	/* the job's runtime in ms (rounded up, as fio): one more ms is a generous bound */
	double limit = ((double)job_int(root, 0, "read", "runtime") + 1) * 1e6;

	cr_expect_eq(json_integer_value(json_object_get(json_object_get(
			     json_object_get(json_array_get(json_object_get(root, "jobs"), 0), "read"),
			     which), "N")), 1024, "%s: N", which);
	cr_expect_leq(lat_field(root, which, "max"), limit, "%s max %.0f ns, job ran %.0f ns", which,
		      lat_field(root, which, "max"), limit);
	cr_expect_leq(lat_field(root, which, "min"), lat_field(root, which, "mean"));
	cr_expect_leq(lat_field(root, which, "mean"), lat_field(root, which, "max"));
}

Test(latency_values, sync_engine_with_disable_lat_measures_clat_from_the_submit_call)
{
	json_t *root = lat_run("--ioengine=psync", "--disable_lat=1");

	within_runtime(root, "clat_ns");
	cr_expect_eq(lat_field(root, "lat_ns", "max"), 0);
	json_decref(root);
}

Test(latency_values, async_engine_with_disable_clat_measures_slat_and_lat)
{
	json_t *root = lat_run("--ioengine=null", "--disable_clat=1");

	within_runtime(root, "slat_ns");
	within_runtime(root, "lat_ns");
	/* each I/O's total latency includes its submission latency */
	cr_expect_geq(lat_field(root, "lat_ns", "min"), lat_field(root, "slat_ns", "min"));
	cr_expect_geq(lat_field(root, "lat_ns", "mean"), lat_field(root, "slat_ns", "mean"));
	cr_expect_eq(lat_field(root, "clat_ns", "max"), 0);
	json_decref(root);
}

Test(latency_values, async_engine_with_disable_slat_keeps_total_latency)
{
	json_t *root = lat_run("--ioengine=null", "--disable_slat=1");

	within_runtime(root, "clat_ns");
	within_runtime(root, "lat_ns");
	cr_expect_geq(lat_field(root, "lat_ns", "mean"), lat_field(root, "clat_ns", "mean"));
	json_decref(root);
}

Test(latency_values, result_says_the_clock_was_read_before_submit_when_a_latency_needs_it)
{
	json_t *root = lat_run("--ioengine=psync", "--disable_lat=1");
	json_t *io = json_object_get(json_array_get(json_object_get(root, "jobs"), 0), "iopath");
	const char *how = json_string_value(json_object_get(io, "clock_reads"));

	cr_assert(how && strstr(how, "before and after"), "clock_reads: %s", how);
	json_decref(root);
}

/*
 * A request done inside submit (a sync engine; null at iodepth=1) has no submission latency:
 * its total latency is its completion latency, in both directions, over two loops and in the
 * loop that also fills lat's percentiles.
 */
static void lat_is_clat(const char *engine, const char *extra)
{
	static const char *const keys[] = { "N", "min", "max", "mean", "stddev" };
	const char *dir = tmpdir_make();
	char file[300];
	unsigned d, k;
	json_t *root;

	snprintf(file, sizeof(file), "--filename=%s/data", dir);
	root = iopath_json_ok(dir, "--name=x", file, "--size=1m", "--rw=randrw", "--loops=2",
			      "--iodepth=1", engine, extra, NULL);
	for (d = 0; d < 2; d++) {
		const char *dn = d ? "write" : "read";
		json_t *io = json_object_get(json_array_get(json_object_get(root, "jobs"), 0), dn);
		json_t *lat = json_object_get(io, "lat_ns"), *clat = json_object_get(io, "clat_ns");

		cr_assert_gt(json_integer_value(json_object_get(clat, "N")), 0, "%s %s", engine, dn);
		for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
			cr_expect_eq(json_number_value(json_object_get(lat, keys[k])),
				     json_number_value(json_object_get(clat, keys[k])), "%s %s %s: %g vs %g",
				     engine, dn, keys[k], json_number_value(json_object_get(lat, keys[k])),
				     json_number_value(json_object_get(clat, keys[k])));
	}
	json_decref(root);
}

Test(latency_values, in_submit_completions_report_lat_equal_to_clat)
{
	lat_is_clat("--ioengine=psync", "--fsync=16");
	lat_is_clat("--ioengine=null", "--lat_percentiles=1");
	lat_is_clat("--ioengine=pvsync2", "--ramp_time=0");
}
