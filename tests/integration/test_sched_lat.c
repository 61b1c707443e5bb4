/* Integration: rate-limited jobs' latency from the schedule's start (lat_sched) beside fio's. */
#include <stdio.h>
#include <string.h>

#include "harness.h"

TestSuite(sched_lat, .fini = mount_cleanup);

/* jobs[0].read.<lat>.percentile["<p>"], or -1 when absent. */
static long long read_pct(json_t *root, const char *lat, const char *p)
{
	json_t *job = json_array_get(json_object_get(root, "jobs"), 0);
	json_t *v = json_object_get(json_object_get(json_object_get(json_object_get(job, "read"),
									  lat), "percentile"), p);

	return json_is_integer(v) ? json_integer_value(v) : -1;
}

static json_t *read_lat(json_t *root, const char *lat)
{
	json_t *job = json_array_get(json_object_get(root, "jobs"), 0);

	return json_object_get(json_object_get(job, "read"), lat);
}

/*
 * One read stalls STALL_MS in a job paced at 100 reads a second: the reads due during the stall
 * go out late, back to back, each quick once issued. fio's latency (from issue) shows the
 * stall in one read of 50, so its 90th percentile stays small; the latency from the
 * schedule's start counts the wait behind the stall, so its 90th percentile holds most of it.
 */
#define STALL_MS 600

Test(sched_lat, a_stall_hidden_by_fio_latency_shows_from_the_schedule)
{
	const char *dir = tmpdir_make();
	const char *back;
	char path[320], file[320];
	long long lat90, sched90, n;
	json_t *root;

	back = faultfs_over(dir, "--stall-read-after=10 --stall-ms=600");
	snprintf(path, sizeof(path), "%s/data", back);
	file_make(path, 4 << 20, 3);
	snprintf(file, sizeof(file), "--filename=%s/data", test_mnt);
	root = iopath_json_ok(dir, "--name=paced", file, "--rw=randread", "--bs=4k", "--size=4m",
			      "--io_size=200k", "--rate_iops=100", "--lat_percentiles=1", NULL);
	n = json_integer_value(json_object_get(read_lat(root, "lat_sched_ns"), "N"));
	cr_assert_eq(n, 50, "every paced read has a scheduled latency (%lld)", n);
	cr_assert_geq(json_integer_value(json_object_get(read_lat(root, "lat_ns"), "max")),
		      STALL_MS * 1000000ll / 2, "the stalled read itself shows in fio's latency");
	lat90 = read_pct(root, "lat_ns", "90.000000");
	sched90 = read_pct(root, "lat_sched_ns", "90.000000");
	cr_assert_gt(lat90, 0);
	cr_assert_lt(lat90, STALL_MS * 1000000ll / 4,
		     "fio's latency p90 %lld ns: the reads queued behind the stall look fast", lat90);
	cr_assert_geq(sched90, STALL_MS * 1000000ll / 2,
		      "latency from the schedule p90 %lld ns: the stall's wait must show", sched90);
	json_decref(root);
}

Test(sched_lat, only_paced_jobs_report_it_and_fio_keys_stay)
{
	const char *dir = tmpdir_make();
	json_t *root = iopath_json_ok(dir, "--name=free", "--ioengine=null", "--rw=randread",
				      "--size=1m", NULL);

	cr_assert_null(read_lat(root, "lat_sched_ns"), "an unpaced job has no scheduled latency");
	cr_assert_not_null(read_lat(root, "lat_ns"));
	json_decref(root);
	root = iopath_json_ok(dir, "--name=paced", "--ioengine=null", "--rw=randread",
			      "--size=1m", "--io_size=64k", "--rate_iops=1000",
			      "--rate_process=poisson", NULL);
	cr_assert_not_null(read_lat(root, "lat_sched_ns"));
	cr_assert_not_null(read_lat(root, "clat_ns"), "fio's own latencies stay beside it");
	cr_assert_eq(json_integer_value(json_object_get(read_lat(root, "lat_sched_ns"), "N")), 16);
	cr_assert_geq(json_integer_value(json_object_get(read_lat(root, "lat_sched_ns"), "min")),
		      json_integer_value(json_object_get(read_lat(root, "lat_ns"), "min")),
		      "nothing is issued before its scheduled start");
	json_decref(root);
}

Test(sched_lat, normal_output_has_a_line_for_it)
{
	struct run_out r = iopath_run("--name=paced", "--ioengine=null", "--rw=read", "--size=1m",
				      "--io_size=64k", "--rate=1m", NULL);

	cr_assert_eq(r.status, 0, "%s", r.err);
	/* in iopath's own section, after fio's lines (whose shape stays fio's) */
	cr_assert_not_null(strstr(r.out, "iopath: what was measured"), "%s", r.out);
	cr_assert_not_null(strstr(strstr(r.out, "iopath: what was measured"),
				  "lat_sched    : read (usec): min="), "%s", r.out);
	run_out_free(&r);
	r = iopath_run("--name=free", "--ioengine=null", "--rw=read", "--size=1m", NULL);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert_null(strstr(r.out, "lat_sched"), "%s", r.out);
	run_out_free(&r);
}
