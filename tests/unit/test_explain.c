/* Unit tests: explain's classifier on synthetic cells whose verdict is known by construction. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/explain.h"
#include "results/results.h"
#include "common/explain_json.h"

/* A result being built: one target, cells added one by one. */
struct synth {
	json_t *root, *cells;
};

static void synth_init(struct synth *s, const json_t *probe)
{
	s->cells = json_array();
	s->root = json_pack("{s:i,s:s,s:[{s:s,s:s,s:O?}],s:O}", "schema_version", 1, "kind", "sweep",
			    "targets", "role", "t", "path", "/mnt/t", "probe", probe, "cells",
			    s->cells);
	cr_assert_not_null(s->root);
}

struct cellspec {
	const char *engine, *rw, *direct;
	unsigned bs, qd;
	double iops, lat_us;
	double usr, sys;	/* percent */
	double syncs, sync_us;
};

static void add(struct synth *s, const struct cellspec *c)
{
	bool write = strstr(c->rw, "write") != NULL;
	double ios = c->iops;	/* a 1 s run */
	json_t *busy = json_pack("{s:f,s:f,s:f,s:f,s:{s:f}}", "total_ios", ios, "iops", c->iops,
				 "io_bytes", ios * c->bs, "bw_bytes", c->iops * c->bs, "lat_ns",
				 "mean", c->lat_us * 1e3);
	json_t *idle = json_pack("{s:i,s:f,s:i,s:i}", "total_ios", 0, "iops", 0.0, "io_bytes", 0,
				 "bw_bytes", 0);
	char bs[16], qd[16];
	json_t *job, *cell;

	snprintf(bs, sizeof(bs), "%u", c->bs);
	snprintf(qd, sizeof(qd), "%u", c->qd);
	job = json_pack("{s:{s:s,s:s,s:s,s:s,s:s},s:o,s:o,s:f,s:f,s:i,s:{s:f,s:{s:f}}}",
			"job options", "ioengine", c->engine, "rw", c->rw, "bs", bs, "iodepth", qd,
			"direct", c->direct, "read", write ? idle : busy, "write", write ? busy : idle,
			"usr_cpu", c->usr, "sys_cpu", c->sys, "job_runtime", 1000, "sync",
			"total_ios", c->syncs, "lat_ns", "mean", c->sync_us * 1e3);
	cell = json_pack("{s:{s:s,s:s,s:s,s:s,s:s,s:s},s:s,s:[o]}", "identity", "target", "t",
			 "engine", c->engine, "rw", c->rw, "bs", bs, "iodepth", qd, "direct",
			 c->direct, "status", "ok", "samples", job);
	cr_assert_not_null(cell);
	json_array_append_new(s->cells, cell);
}

/* An async 4 KiB random-read ladder: iops[i] and lat_us[i] at depths 1, 4, 16, 64. */
static void ladder(struct synth *s, const double iops[4], const double lat[4], double cpu)
{
	static const unsigned qd[4] = { 1, 4, 16, 64 };
	unsigned i;

	for (i = 0; i < 4; i++)
		add(s, &(struct cellspec){ "io_uring", "randread", "1", 4096, qd[i], iops[i], lat[i],
					   cpu / 4, cpu * 3 / 4, 0, 0 });
}

/* The explanation of the one target. */
static json_t *explain(struct synth *s)
{
	struct iop_err err = { "" };
	struct results r;
	json_t *ex, *t;
	char *text = json_dumps(s->root, 0);

	cr_assert_not_null(text);
	cr_assert_eq(results_parse(text, strlen(text), "synthetic", &r, &err), 0, "%s", err.msg);
	free(text);
	ex = explain_results(&r, &err);
	cr_assert_not_null(ex, "%s", err.msg);
	cr_assert_eq(json_array_size(json_object_get(ex, "targets")), 1);
	t = json_incref(json_array_get(json_object_get(ex, "targets"), 0));
	json_decref(ex);
	results_free(&r);
	json_decref(s->root);
	return t;
}

Test(explain, one_at_a_time_with_a_queue_is_serialized)
{
	/* 5 ms per request, served one at a time: depth only adds queueing (Little's law) */
	const double iops[4] = { 200, 200, 199, 200 }, lat[4] = { 5000, 20000, 80400, 320000 };
	struct synth s;
	json_t *t;

	synth_init(&s, NULL);
	ladder(&s, iops, lat, 1);
	t = explain(&s);
	cr_assert_str_eq(verdict(t), "serialized");
	cr_assert_str_eq(conf(finding(t, "serialized")), "high");
	cr_assert_float_eq(ev(finding(t, "serialized"), "little_ratio"), 1.0, 0.01);
	cr_assert_float_eq(ev(finding(t, "serialized"), "iops_gain"), 1.0, 0.01);
	cr_assert_eq(json_array_size(json_object_get(finding(t, "serialized"), "cells")), 4);
	cr_assert_null(finding(t, "latency-bound"));
	json_decref(t);
}

Test(explain, one_in_flight_at_any_depth_is_serialized)
{
	/* the submission itself blocks: depth 64 asked, one request ever in flight */
	const double iops[4] = { 20000, 20100, 19900, 20000 }, lat[4] = { 50, 50, 50, 50 };
	struct synth s;
	json_t *t;

	synth_init(&s, NULL);
	ladder(&s, iops, lat, 10);
	t = explain(&s);
	cr_assert_str_eq(verdict(t), "serialized");
	cr_assert_lt(ev(finding(t, "serialized"), "little_ratio"), 0.1);
	json_decref(t);
}

Test(explain, flat_ends_around_a_point_that_scaled_are_not_serialized)
{
	/*
	 * A busy machine's ladder (measured): iodepth 4 gave 2.2x iodepth 1, then another
	 * program's writes took the disk while 16 and 64 ran. The ends are flat, the path is not.
	 */
	const double iops[4] = { 947, 2073, 226, 995 }, lat[4] = { 1051, 1924, 64748, 52043 };
	struct synth s;
	json_t *t;
	char *text;

	synth_init(&s, NULL);
	ladder(&s, iops, lat, 1);
	t = explain(&s);
	cr_assert_null(finding(t, "serialized"));
	text = json_dumps(t, 0);
	cr_assert_not_null(strstr(text, "the ladder is inconsistent"), "%s", text);
	free(text);
	json_decref(t);
}

Test(explain, scaling_to_the_top_is_latency_bound)
{
	const double iops[4] = { 1000, 4000, 15800, 62000 }, lat[4] = { 1000, 1000, 1010, 1030 };
	struct synth s;
	json_t *t;

	synth_init(&s, NULL);
	ladder(&s, iops, lat, 5);
	t = explain(&s);
	cr_assert_str_eq(verdict(t), "latency-bound");
	cr_assert_str_eq(conf(finding(t, "latency-bound")), "high");
	cr_assert_float_eq(ev(finding(t, "latency-bound"), "qd1_lat_us"), 1000, 0.5);
	json_decref(t);
}

Test(explain, a_flattening_ladder_is_device_bound)
{
	const double iops[4] = { 10000, 39000, 98000, 101000 }, lat[4] = { 100, 102, 163, 633 };
	struct synth s;
	json_t *t;
	const json_t *f;

	synth_init(&s, NULL);
	ladder(&s, iops, lat, 20);
	t = explain(&s);
	cr_assert_str_eq(verdict(t), "device-bound");
	f = finding(t, "device-bound");
	cr_assert_str_eq(conf(f), "high");
	cr_assert_float_eq(ev(f, "flatten_iodepth"), 16, 0.1);
	cr_assert_float_eq(ev(f, "limit_iops"), 101000, 1);
	json_decref(t);
}

Test(explain, a_busy_worker_is_cpu_bound)
{
	struct synth s;
	json_t *t;
	const json_t *f;

	synth_init(&s, NULL);
	add(&s, &(struct cellspec){ "psync", "randread", "1", 4096, 1, 100000, 9.5, 30, 65, 0, 0 });
	t = explain(&s);
	cr_assert_str_eq(verdict(t), "cpu-bound");
	f = finding(t, "cpu-bound");
	cr_assert_str_eq(conf(f), "high");
	cr_assert_float_eq(ev(f, "cpu_pct"), 95, 0.01);
	cr_assert_float_eq(ev(f, "cpu_us_per_io"), 9.5, 0.01);
	json_decref(t);
}

Test(explain, a_flat_ladder_at_memory_speed_is_cpu_not_serialized)
{
	const double iops[4] = { 250000, 260000, 255000, 258000 }, lat[4] = { 4, 15, 62, 248 };
	struct synth s;
	json_t *t;

	synth_init(&s, NULL);
	ladder(&s, iops, lat, 40);
	t = explain(&s);
	cr_assert_str_eq(verdict(t), "cpu-bound");
	cr_assert_null(finding(t, "serialized"));
	cr_assert(json_is_true(json_object_get(json_object_get(finding(t, "cpu-bound"), "evidence"),
					       "memory_speed")));
	json_decref(t);
}

Test(explain, a_probe_that_saw_a_cache_says_cache)
{
	const double iops[4] = { 200000, 400000, 410000, 405000 }, lat[4] = { 5, 10, 39, 158 };
	json_t *probe = json_pack("{s:s,s:s,s:s,s:f,s:f}", "direct_honoured", "false", "fs_class",
				  "block", "direct_evidence", "loop device without dio",
				  "direct_data_read_ns", 5000.0, "direct_hole_read_ns", 4000.0);
	struct synth s;
	json_t *t;

	synth_init(&s, probe);
	json_decref(probe);
	ladder(&s, iops, lat, 30);
	t = explain(&s);
	cr_assert_str_eq(verdict(t), "cache");
	cr_assert_str_eq(conf(finding(t, "cache")), "high");
	cr_assert_str_eq(json_string_value(json_object_get(json_object_get(finding(t, "cache"),
									   "evidence"), "source")),
			 "probe");
	json_decref(t);
}

/* A memory filesystem probed without the timed reads (0 ns: not measured) shows no times */
Test(explain, a_time_the_probe_did_not_measure_is_no_evidence)
{
	const double iops[4] = { 200000, 400000, 410000, 405000 }, lat[4] = { 5, 10, 39, 158 };
	json_t *probe = json_pack("{s:s,s:s,s:i,s:i}", "direct_honoured", "unknown", "fs_class",
				  "memory", "direct_data_read_ns", 0, "direct_hole_read_ns", 0);
	struct synth s;
	json_t *t, *ev;

	synth_init(&s, probe);
	json_decref(probe);
	ladder(&s, iops, lat, 30);
	t = explain(&s);
	ev = json_object_get(finding(t, "cache"), "evidence");
	cr_assert_not_null(ev, "no cache finding for a memory filesystem");
	cr_assert(json_is_null(json_object_get(ev, "direct_data_read_us")), "0 ns shown as a time");
	cr_assert(json_is_null(json_object_get(ev, "direct_hole_read_us")), "0 ns shown as a time");
	json_decref(t);
}

Test(explain, direct_as_fast_as_buffered_says_cache)
{
	struct synth s;
	json_t *t;
	const json_t *f;

	synth_init(&s, NULL);
	add(&s, &(struct cellspec){ "io_uring", "randread", "1", 4096, 1, 300000, 3, 10, 20, 0, 0 });
	add(&s, &(struct cellspec){ "io_uring", "randread", "0", 4096, 1, 320000, 2.8, 10, 20, 0, 0 });
	t = explain(&s);
	f = finding(t, "cache");
	cr_assert_not_null(f);
	cr_assert_str_eq(conf(f), "medium");
	cr_assert_float_eq(ev(f, "buffered_to_direct"), 320000.0 / 300000, 0.001);
	json_decref(t);
}

Test(explain, buffered_far_faster_than_direct_is_no_cache)
{
	struct synth s;
	json_t *t;

	synth_init(&s, NULL);
	add(&s, &(struct cellspec){ "io_uring", "randread", "1", 4096, 1, 8000, 120, 5, 10, 0, 0 });
	add(&s, &(struct cellspec){ "io_uring", "randread", "0", 4096, 1, 200000, 4, 10, 20, 0, 0 });
	t = explain(&s);
	cr_assert_null(finding(t, "cache"));
	json_decref(t);
}

Test(explain, a_slow_cache_behind_a_round_trip_is_low_confidence)
{
	/* the probe's check says a cache answers, but every read still takes 5 ms */
	const double iops[4] = { 200, 200, 199, 200 }, lat[4] = { 5000, 20000, 80400, 320000 };
	json_t *probe = json_pack("{s:s,s:s,s:f}", "direct_honoured", "false", "fs_class", "fuse",
				  "direct_data_read_ns", 5.1e6);
	struct synth s;
	json_t *t;

	synth_init(&s, probe);
	json_decref(probe);
	ladder(&s, iops, lat, 1);
	t = explain(&s);
	cr_assert_str_eq(verdict(t), "serialized");
	cr_assert_str_eq(conf(finding(t, "cache")), "low");
	json_decref(t);
}

Test(explain, fsync_dominating_synced_writes_is_sync_bound)
{
	struct synth s;
	json_t *t;
	const json_t *f;

	synth_init(&s, NULL);
	/* 50 writes/s of 30 us each, each followed by a 19.9 ms fsync */
	add(&s, &(struct cellspec){ "psync", "randwrite", "0", 4096, 1, 50, 30, 1, 2, 50, 19900 });
	t = explain(&s);
	cr_assert_str_eq(verdict(t), "sync-bound");
	f = finding(t, "sync-bound");
	cr_assert_str_eq(conf(f), "high");
	cr_assert_float_eq(ev(f, "fsync_us"), 19900, 1);
	cr_assert_float_eq(ev(f, "sync_share"), 0.995, 0.001);
	json_decref(t);
}

Test(explain, a_cheap_fsync_is_no_verdict)
{
	struct synth s;
	json_t *t;

	synth_init(&s, NULL);
	add(&s, &(struct cellspec){ "psync", "randwrite", "0", 4096, 1, 50000, 15, 10, 30, 50000, 2 });
	t = explain(&s);
	cr_assert_null(finding(t, "sync-bound"));
	json_decref(t);
}

Test(explain, one_cell_is_not_enough_data)
{
	struct synth s;
	json_t *t;

	synth_init(&s, NULL);
	add(&s, &(struct cellspec){ "psync", "randread", "1", 4096, 1, 5000, 200, 2, 8, 0, 0 });
	t = explain(&s);
	cr_assert_str_eq(verdict(t), "not-enough-data");
	cr_assert_eq(json_array_size(json_object_get(t, "findings")), 0);
	cr_assert_gt(json_array_size(json_object_get(t, "missing")), 0);
	json_decref(t);
}

Test(explain, codes_are_the_documented_vocabulary)
{
	static const char *const want[] = { "sync-bound", "cache", "serialized", "cpu-bound",
					    "device-bound", "latency-bound", "not-enough-data" };
	unsigned i;

	for (i = 0; i < EXPLAIN_NR; i++)
		cr_assert_str_eq(explain_code_name(i), want[i]);
}

Test(explain, fio_json_with_global_options_is_read)
{
	/* fio's own JSON: the engine, direct and size are global options, the depth per job */
	static const char doc[] =
		"{\"fio version\": \"fio-3.33\", \"global options\": {\"ioengine\": \"io_uring\","
		" \"direct\": \"1\", \"rw\": \"randread\", \"bs\": \"4k\"}, \"jobs\": ["
		"{\"jobname\": \"q1\", \"error\": 0, \"job options\": {\"iodepth\": \"1\"},"
		" \"job_runtime\": 1000, \"usr_cpu\": 1, \"sys_cpu\": 2,"
		" \"read\": {\"total_ios\": 200, \"iops\": 200, \"io_bytes\": 819200,"
		" \"bw_bytes\": 819200, \"lat_ns\": {\"mean\": 5000000}},"
		" \"write\": {\"total_ios\": 0}},"
		"{\"jobname\": \"q16\", \"error\": 0, \"job options\": {\"iodepth\": \"16\"},"
		" \"job_runtime\": 1000, \"usr_cpu\": 1, \"sys_cpu\": 2,"
		" \"read\": {\"total_ios\": 201, \"iops\": 201, \"io_bytes\": 823296,"
		" \"bw_bytes\": 823296, \"lat_ns\": {\"mean\": 79500000}},"
		" \"write\": {\"total_ios\": 0}}]}";
	struct iop_err err = { "" };
	struct results r;
	json_t *ex, *t;

	cr_assert_eq(results_parse(doc, sizeof(doc) - 1, "fio", &r, &err), 0, "%s", err.msg);
	ex = explain_results(&r, &err);
	cr_assert_not_null(ex, "%s", err.msg);
	t = json_array_get(json_object_get(ex, "targets"), 0);
	cr_assert_str_eq(verdict(t), "serialized");
	cr_assert_str_eq(json_string_value(json_object_get(json_object_get(finding(t, "serialized"),
									   "evidence"), "engine")),
			 "io_uring");
	json_decref(ex);
	results_free(&r);
}

static const char *dir_verdict(const json_t *t, const char *dir)
{
	return json_string_value(json_object_get(json_object_get(json_object_get(t, "directions"),
								 dir), "verdict"));
}

/* A disk whose reads scale with depth and whose fsync costs 2.6 ms: each direction its own. */
Test(explain, reads_and_synced_writes_get_a_headline_each)
{
	static const double iops[4] = { 16000, 50000, 110000, 127000 };
	static const double lat[4] = { 62, 79, 145, 502 };
	struct synth s;
	json_t *t;

	synth_init(&s, NULL);
	ladder(&s, iops, lat, 20);
	add(&s, &(struct cellspec){ "psync", "randwrite", "0", 4096, 1, 380, 9, 1, 2, 380, 2600 });
	t = explain(&s);
	cr_assert_str_eq(verdict(t), "sync-bound");
	cr_assert_str_eq(dir_verdict(t, "write"), "sync-bound");
	cr_assert_str_eq(dir_verdict(t, "read"), "device-bound");
	cr_assert_str_eq(json_string_value(json_object_get(finding(t, "device-bound"), "direction")),
			 "read");
	cr_assert_str_eq(json_string_value(json_object_get(finding(t, "sync-bound"), "direction")),
			 "write");
	json_decref(t);
}

Test(explain, a_direction_without_a_finding_is_not_enough_data)
{
	struct synth s;
	json_t *t;

	synth_init(&s, NULL);
	add(&s, &(struct cellspec){ "psync", "randwrite", "0", 4096, 1, 50, 30, 1, 2, 50, 19900 });
	t = explain(&s);
	cr_assert_str_eq(dir_verdict(t, "write"), "sync-bound");
	cr_assert_str_eq(dir_verdict(t, "read"), "not-enough-data");
	json_decref(t);
}

Test(explain, a_target_merging_several_ranks_is_not_explained)
{
	const double iops[4] = { 200, 200, 199, 200 }, lat[4] = { 5000, 20000, 80400, 320000 };
	struct iop_err err = { "" };
	struct synth s;
	struct results r;
	json_t *ex;
	char *text;

	synth_init(&s, NULL);
	ladder(&s, iops, lat, 1);
	/* the sweep's own cells under MPI: every rank's together, over paths that may differ */
	json_object_set_new(json_array_get(json_object_get(s.root, "targets"), 0), "ranks",
			    json_integer(2));
	text = json_dumps(s.root, 0);
	cr_assert_not_null(text);
	cr_assert_eq(results_parse(text, strlen(text), "synthetic", &r, &err), 0, "%s", err.msg);
	free(text);
	ex = explain_results(&r, &err);
	cr_assert_not_null(ex, "%s", err.msg);
	cr_assert_eq(json_array_size(json_object_get(ex, "targets")), 0);
	json_decref(ex);
	results_free(&r);
	json_decref(s.root);
}
