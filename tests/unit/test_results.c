/* Unit tests: the result-file loader (every shape it accepts, and what it refuses) and metrics. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "results/compare.h"
#include "stats/metrics.h"
#include "results/results.h"

static char path[64];

static void write_text(const char *text)
{
	int fd;

	snprintf(path, sizeof(path), "/tmp/iopath-test-results.XXXXXX");
	fd = mkstemp(path);
	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

static int load(const char *text, struct results *r, struct iop_err *err)
{
	int ret;

	write_text(text);
	ret = results_load(path, r, err);
	unlink(path);
	return ret;
}

static void refused(const char *text, const char *why)
{
	struct iop_err err = { "" };
	struct results r;

	cr_assert_lt(load(text, &r, &err), 0, "accepted: %s", text);
	cr_assert_not_null(strstr(err.msg, why), "message '%s' lacks '%s'", err.msg, why);
}

Test(results_load, refuses_what_is_not_a_result)
{
	refused("", "not valid JSON");
	refused("[1, 2]", "not a JSON object");
	refused("{\"x\": 1}", "neither iopath results");
	refused("{\"schema_version\": \"1\", \"cells\": []}", "schema_version is not a positive integer");
	refused("{\"schema_version\": 99, \"cells\": []}", "newer than this iopath reads");
	refused("{\"schema_version\": 1}", "no cells array");
	refused("{\"schema_version\": 1, \"cells\": [3]}", "cells[0] is not an object");
	refused("{\"schema_version\": 1, \"cells\": [{}]}", "no identity");
	refused("{\"schema_version\": 1, \"cells\": [{\"identity\": {\"a\": [1]}}]}", "not a string");
	refused("{\"schema_version\": 1, \"cells\": [{\"identity\": {\"a\": \"1\"}, \"status\": \"weird\"}]}",
		"status 'weird'");
	refused("{\"schema_version\": 1, \"cells\": [{\"identity\": {\"a\": \"1\"}, \"samples\": {}}]}",
		"samples is not an array");
	refused("{\"schema_version\": 1, \"cells\": [{\"identity\": {\"a\": \"1\"}, \"samples\": [1]}]}",
		"samples[0] is not an object");
	refused("{\"schema_version\": 1, \"cells\": [{\"identity\": {\"a\": \"1\"}}, {\"identity\": {\"a\": \"1\"}, \"status\": \"failed\"}]}",
		"repeats the identity");
	refused("{\"jobs\": [{\"read\": {}}]}", "jobs[0] has no jobname");
	refused("{\"schema_version\": 1, \"labels\": [], \"cells\": []}", "labels is not an object");
}

Test(results_load, reads_a_schema_one_result)
{
	struct iop_err err = { "" };
	struct results r;
	double v[4];

	cr_assert_eq(load("{\"schema_version\": 1, \"kind\": \"sweep\", \"timestamp_ms\": 5,"
			  " \"labels\": {\"qemu\": \"8.2.1\"}, \"env\": {\"iopath\": {\"version\": \"x\"}},"
			  " \"cells\": [{\"identity\": {\"engine\": \"null\", \"iodepth\": 1},"
			  " \"status\": \"ok\", \"samples\": [{\"read\": {\"iops\": 10, \"total_ios\": 3}},"
			  " {\"read\": {\"iops\": 20, \"total_ios\": 3}}]},"
			  " {\"identity\": {\"engine\": \"mmap\"}, \"status\": \"skipped\", \"reason\": \"no\"}]}",
			  &r, &err), 0, "%s", err.msg);
	cr_assert_eq(r.nr, 2);
	cr_assert_str_eq(r.cells[0].key, "engine=null;iodepth=1");
	cr_assert_eq(r.cells[0].nr, 2);
	cr_assert_eq(cell_values(&r.cells[0], MET_IOPS, v), 2);
	cr_assert_float_eq(v[1], 20, 1e-9);
	cr_assert_eq(r.cells[1].status, CELL_SKIPPED);
	cr_assert_str_eq(r.cells[1].reason, "no");
	cr_assert_str_eq(results_env_str(&r, "iopath.version"), "x");
	results_free(&r);
}

Test(results_load, fio_json_jobs_become_cells_without_their_paths)
{
	struct iop_err err = { "" };
	struct results r;

	cr_assert_eq(load("{\"fio version\": \"fio-3.33\", \"global options\": {\"bs\": \"4k\"},"
			  " \"jobs\": [{\"jobname\": \"a\", \"job options\": {\"filename\": \"/dev/x\", \"rw\": \"read\"},"
			  " \"read\": {\"iops\": 5, \"total_ios\": 9, \"clat\": {\"percentile\": {\"99.000000\": 7}}}},"
			  " {\"jobname\": \"a\", \"job options\": {\"rw\": \"read\"}, \"read\": {\"iops\": 6}}]}", &r, &err), 0, "%s", err.msg);
	cr_assert_str_eq(r.format, "fio-json");
	cr_assert_eq(r.nr, 2, "same-named workers stay apart");
	cr_assert_str_eq(r.cells[0].key, "bs=4k;job=a;rw=read");
	cr_assert_str_eq(r.cells[1].key, "bs=4k;job=a#2;rw=read");
	cr_assert_float_eq(r.cells[0].val[0][MET_CLAT_P99], 7000, 1e-9, "fio 2.x clat in us");
	results_free(&r);
}

Test(results_load, skips_the_notes_fio_writes_before_its_json)
{
	struct iop_err err = { "" };
	struct results r;

	cr_assert_eq(load("fio: time_based requires a runtime/timeout setting\n"
			  "{\"fio version\": \"fio-3.33\", \"jobs\": [{\"jobname\": \"a\", \"read\": {\"iops\": 5}}]}",
			  &r, &err), 0, "%s", err.msg);
	cr_assert_eq(r.nr, 1);
	results_free(&r);
}

Test(results_parse, every_truncation_is_refused_or_read_cleanly)
{
	static const char doc[] = "{\"schema_version\": 1, \"labels\": {\"q\": \"1\"},"
				  " \"env\": {\"hostname\": \"h\"}, \"targets\": [{\"role\": \"d\"}],"
				  " \"cells\": [{\"identity\": {\"e\": \"x\", \"n\": 3}, \"status\": \"ok\","
				  " \"samples\": [{\"read\": {\"iops\": 1, \"total_ios\": 1,"
				  " \"clat_ns\": {\"percentile\": {\"50.000000\": 5}}}}]}]}";
	struct iop_err err;
	struct results r;
	size_t len;

	for (len = 0; len < sizeof(doc) - 1; len++) {
		if (!results_parse(doc, len, "prefix", &r, &err))
			results_free(&r);
	}
	cr_assert_eq(results_parse(doc, sizeof(doc) - 1, "whole", &r, &err), 0, "%s", err.msg);
	cr_assert_eq(r.cells[0].nr, 1);
	results_free(&r);
}

Test(metrics, busiest_direction_gives_latency)
{
	json_t *job = json_pack("{s:{s:f, s:f, s:i, s:{s:{s:i}}}, s:{s:f, s:f, s:i, s:{s:{s:i}}}}",
				"read", "iops", 700.0, "bw_bytes", 7e6, "total_ios", 700, "clat_ns",
				"percentile", "50.000000", 111, "write", "iops", 300.0, "bw_bytes",
				3e6, "total_ios", 300, "clat_ns", "percentile", "50.000000", 999);
	double v[MET_NR];

	metrics_from_job(job, v);
	cr_assert_float_eq(v[MET_IOPS], 1000, 1e-9);
	cr_assert_float_eq(v[MET_BW], 1e7, 1e-3);
	cr_assert_float_eq(v[MET_CLAT_P50], 111, 1e-9);
	cr_assert(isnan(v[MET_CLAT_P99]));
	cr_assert(isnan(v[MET_LAT_SCHED_P99]), "an unpaced job has no lat_sched");
	json_decref(job);
}

Test(metrics, a_rate_limited_job_gives_its_scheduled_p99)
{
	json_t *job = json_pack("{s:{s:f, s:f, s:i, s:{s:{s:i}}, s:{s:{s:i}}}}", "read", "iops",
				100.0, "bw_bytes", 409600.0, "total_ios", 100, "clat_ns",
				"percentile", "99.000000", 5000, "lat_sched_ns", "percentile",
				"99.000000", 250000);
	double v[MET_NR];

	metrics_from_job(job, v);
	cr_assert_float_eq(v[MET_CLAT_P99], 5000, 1e-9);
	cr_assert_float_eq(v[MET_LAT_SCHED_P99], 250000, 1e-9);
	json_decref(job);
}

Test(metrics, the_time_per_io_less_cpu_wait_comes_from_iopath_machine)
{
	json_t *job = json_pack("{s:{s:f, s:f, s:i}, s:{s:{s:f, s:f, s:f}}}", "read", "iops",
				100.0, "bw_bytes", 409600.0, "total_ios", 100, "iopath", "machine",
				"workers_s", 1.0, "workers_runq_wait_s", 0.25, "own_ios", 100.0);
	double v[MET_NR];

	metrics_from_job(job, v);
	cr_assert_float_eq(v[MET_IO_TIME_PER_IO], 7.5e6, 1e-3, "(1 s - 0.25 s) / 100 I/Os");
	json_object_del(json_object_get(json_object_get(job, "iopath"), "machine"), "workers_runq_wait_s");
	metrics_from_job(job, v);
	cr_assert(isnan(v[MET_IO_TIME_PER_IO]), "no wait recorded: none");
	json_decref(job);
}

Test(metrics, parses_lists_and_refuses_unknown_names)
{
	struct iop_err err = { "" };
	unsigned mask;

	cr_assert_eq(metric_parse_list("iops,clat_p99.9", &mask, &err), 0);
	cr_assert_eq(mask, (1u << MET_IOPS) | (1u << MET_CLAT_P999));
	cr_assert_lt(metric_parse_list("iops,speed", &mask, &err), 0);
	cr_assert_not_null(strstr(err.msg, "speed"));
}

Test(results_merge, pools_samples_of_the_same_identity)
{
	struct iop_err err = { "" };
	struct results a, b;
	static const char doc[] = "{\"schema_version\": 1, \"cells\": [{\"identity\": {\"e\": \"x\"},"
				  " \"samples\": [{\"read\": {\"iops\": 1, \"total_ios\": 1}}]}]}";

	cr_assert_eq(load(doc, &a, &err), 0, "%s", err.msg);
	cr_assert_eq(load(doc, &b, &err), 0, "%s", err.msg);
	cr_assert_eq(results_merge(&a, &b, &err), 0);
	cr_assert_eq(a.nr, 1);
	cr_assert_eq(a.cells[0].nr, 2);
	results_free(&a);
	results_free(&b);
}

Test(results_load, a_lab_path_booted_every_round_is_one_target)
{
	static const char lab[] =
		"{\"schema\": \"iopath-vmlab/1\", \"qemus\": [{\"version\": \"7.2.22\", \"accel\": \"tcg\"}],"
		" \"boots\": ["
		"{\"path\": \"9p-none\", \"status\": \"ok\", \"qemu_index\": 0, \"round\": 1, \"facts\": {\"target\": \"/mnt/target\"}},"
		"{\"path\": \"9p-none\", \"status\": \"ok\", \"qemu_index\": 0, \"round\": 2, \"facts\": {\"target\": \"/mnt/target\"}},"
		"{\"path\": \"ext4-virtio-blk\", \"status\": \"ok\", \"qemu_index\": 0, \"round\": 1}],"
		" \"cells\": []}";
	struct results r = { 0 };
	struct iop_err err = { "" };

	cr_assert_eq(results_parse(lab, sizeof(lab) - 1, "lab.json", &r, &err), 0, "%s", err.msg);
	cr_assert_eq(json_array_size(r.targets), 2, "one target per path, not per boot: %zu",
		     json_array_size(r.targets));
	results_free(&r);
}
