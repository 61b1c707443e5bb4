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


TestSuite(fio_gaps, .fini = tmpdir_cleanup);

static bool have_fio(void)
{
	return !access(FIO_BIN, X_OK);
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
	json_t *root = tool_json(false, args), *nm;

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

/* A 1m null read (256 I/Os) with options a and b: how many completion and total latencies. */
static void latencies_counted(const char *a, const char *b, long long clat, long long lat)
{
	const char *args[] = { "--name=g", "--ioengine=null", "--size=1m", "--rw=read", a, b, NULL };
	json_t *root = tool_json(false, args);

	cr_expect_eq(lat_n(root, 0, "read", "clat_ns"), clat, "%s %s: clat", a, b ? b : "");
	cr_expect_eq(lat_n(root, 0, "read", "lat_ns"), lat, "%s %s: lat", a, b ? b : "");
	json_decref(root);
}

Test(fio_gaps, disable_clat_alone_keeps_total_latency)
{
	latencies_counted("--disable_clat=1", NULL, 0, 256);
}

Test(fio_gaps, gtod_reduce_later_option_turns_one_back_on)
{
	latencies_counted("--gtod_reduce=1", "--disable_clat=0", 256, 0);
}

Test(fio_gaps, gtod_reduce_side_by_side_with_fio)
{
	const char *args[] = { "--name=g", "--ioengine=null", "--size=8m", "--rw=randread",
			       "--norandommap", "--gtod_reduce=1", NULL };
	json_t *f, *i;

	if (!have_fio())
		cr_skip_test("fio is not installed (scripts/deps.sh installs it)");
	f = tool_json(true, args);
	i = tool_json(false, args);
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
	f = tool_json(true, args);
	i = tool_json(false, args);
	same_io(f, i, what);
	json_decref(f);
	json_decref(i);
}

#define NULL_JOB "--name=s", "--ioengine=null", "--size=64k", "--bs=4k"

Test(fio_gaps, sequence_step_forward_ends_the_pass_at_the_file_end_as_fio)
{
	const char *args[] = { NULL_JOB, "--rw=read:8k", NULL };
	json_t *root = tool_json(false, args);

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
	root = tool_json(false, args);
	cr_expect_eq(job_int(root, 0, "write", "io_bytes"), 256 << 10);
	cr_expect_eq(json_integer_value(json_object_get(json_array_get(json_object_get(root, "jobs"),
								      0), "error")), 0);
	json_decref(root);
}

static long long ios_of(json_t *root, unsigned i)
{
	return job_int(root, i, "read", "total_ios") + job_int(root, i, "write", "total_ios");
}

/*
 * Two jobs of one flow; a moves 256 I/Os and, with exitall, its end stops b, which flow holds
 * within fio's rule (mine / all <= weight / total before each I/O) of its share until then.
 */
static void expect_flow_share(const char *const *args, long long wa, long long wb)
{
	json_t *root = tool_json(false, args);
	long long a = ios_of(root, 0), b = ios_of(root, 1);

	cr_expect_eq(a, 256);
	cr_expect_geq(b * wa, (a - 1) * wb - wa, "I/Os %lld : %lld, weights %lld : %lld", a, b,
		      wa, wb);
	/* b may issue a few more between a's leaving the flow and b's seeing exitall's stop */
	cr_expect_leq(b * wa, (a + 1) * wb + wb + 8 * wa, "I/Os %lld : %lld, weights %lld : %lld",
		      a, b, wa, wb);
	json_decref(root);
}

Test(fio_gaps, flow_keeps_jobs_in_the_ratio_of_their_weights, .timeout = 60)
{
	const char *args[] = { "--ioengine=null", "--bs=4k", "--exitall", "--name=a", "--flow=1",
			       "--rw=read", "--size=1m", "--name=b", "--flow=3", "--rw=randwrite",
			       "--size=1g", "--time_based", "--runtime=30", NULL };

	expect_flow_share(args, 1, 3);
}

Test(fio_gaps, flow_sleep_waits_and_keeps_the_ratio, .timeout = 60)
{
	const char *args[] = { "--ioengine=null", "--bs=4k", "--exitall", "--flow_sleep=100",
			       "--iodepth=8", "--name=a", "--flow=2", "--rw=read", "--size=1m",
			       "--name=b", "--flow=5", "--rw=read", "--size=1g", "--time_based",
			       "--runtime=30", NULL };

	expect_flow_share(args, 2, 5);
}

Test(fio_gaps, flow_ids_are_separate_flows)
{
	/* a alone in flow 1, b alone in flow 2: neither holds the other back */
	const char *args[] = { "--ioengine=null", "--bs=4k", "--size=4m", "--name=a", "--flow=1",
			       "--flow_id=1", "--rw=read", "--name=b", "--flow=9", "--flow_id=2",
			       "--rw=read", NULL };
	json_t *root = tool_json(false, args);

	cr_expect_eq(ios_of(root, 0), 1024);
	cr_expect_eq(ios_of(root, 1), 1024);
	json_decref(root);
}

/* exitall: the first job's end ends the 30 s job (a hang would hit the test's timeout). */
Test(fio_gaps, exitall_ends_the_group_when_one_job_ends, .timeout = 20)
{
	const char *args[] = { "--ioengine=null", "--exitall", "--name=a", "--size=1m",
			       "--name=long", "--size=1m", "--time_based", "--runtime=30",
			       "--name=next", "--stonewall", "--size=1m", NULL };
	json_t *root = tool_json(false, args);

	cr_expect_eq(job_int(root, 0, "read", "io_bytes"), 1 << 20);
	/* exit_what=group: the next group still runs */
	cr_expect_eq(job_int(root, 2, "read", "io_bytes"), 1 << 20);
	json_decref(root);
}

Test(fio_gaps, exit_what_all_ends_later_groups_too, .timeout = 20)
{
	const char *args[] = { "--ioengine=null", "--exitall", "--exit_what=all", "--name=a",
			       "--size=1m", "--name=long", "--size=1m", "--time_based",
			       "--runtime=30", "--name=never", "--stonewall", "--size=1m", NULL };
	json_t *root = tool_json(false, args);

	/* as fio: the later job is reported, having run nothing, without an error */
	cr_expect_eq(job_int(root, 2, "read", "io_bytes"), 0);
	cr_expect_eq(json_integer_value(json_object_get(json_array_get(json_object_get(root, "jobs"),
								      2), "error")), 0);
	json_decref(root);
}

Test(fio_gaps, exit_what_stonewall_ends_running_jobs_of_other_groups, .timeout = 20)
{
	const char *args[] = { "--ioengine=null", "--exitall", "--name=a", "--size=1m",
			       "--exit_what=stonewall", "--name=other", "--new_group", "--size=1m",
			       "--time_based", "--runtime=30", "--name=next", "--stonewall",
			       "--size=1m", NULL };
	json_t *root = tool_json(false, args);

	cr_expect_eq(job_int(root, 2, "read", "io_bytes"), 1 << 20);
	json_decref(root);
}

Test(fio_gaps, exitall_on_error_ends_the_others_when_a_job_fails, .timeout = 20)
{
	const char *dir = tmpdir_make();
	char path[300], file[320];
	struct run_out r;

	/* random bytes fail verify at once: the job errs, and ends the 30 s job */
	snprintf(path, sizeof(path), "%s/noise", dir);
	file_make(path, 1 << 20, 7);
	snprintf(file, sizeof(file), "--filename=%s", path);
	r = iopath_run("--name=bad", file, "--rw=read", "--verify=crc32c", "--exitall_on_error",
		       "--name=long", "--ioengine=null", "--size=1m", "--time_based",
		       "--runtime=30", NULL);
	cr_expect_eq(r.status, 1, "%s", r.err);
	run_out_free(&r);
}

Test(fio_gaps, number_ios_stops_each_worker_as_fio)
{
	const char *loops[] = { "--name=n", "--ioengine=null", "--size=1m", "--number_ios=100",
				"--loops=2", "--numjobs=2", NULL };
	const char *mixed[] = { "--name=n", "--ioengine=null", "--size=1m", "--number_ios=100",
				"--rw=randrw", NULL };
	json_t *root = tool_json(false, loops);

	/* number_ios counts over all loops: 2 x 100 */
	cr_expect_eq(job_int(root, 0, "read", "total_ios"), 200);
	cr_expect_eq(job_int(root, 1, "read", "total_ios"), 200);
	json_decref(root);
	root = tool_json(false, mixed);
	cr_expect_eq(job_int(root, 0, "read", "total_ios") + job_int(root, 0, "write", "total_ios"),
		     100);
	json_decref(root);
	side_by_side("number_ios loops", loops);
}

#define ZONED "--name=z", "--ioengine=null", "--size=64k", "--bs=4k", "--zonemode=strided", \
	"--zonesize=8k", "--zonerange=16k", "--zoneskip=4k"

Test(fio_gaps, strided_zones_move_as_fio)
{
	/* 0 4k | 20k 24k | 40k 44k | 60k: the next zone starts past the end of the file */
	const char *seq[] = { ZONED, "--rw=read", NULL };
	const char *loops[] = { ZONED, "--rw=read", "--loops=2", "--numjobs=2",
				"--offset_increment=64k", NULL };
	/*
	 * random: a file whose last zone is whole (76k), since how much of a cut-off last zone a
	 * random job reads before its draw falls past the end depends on the generator's order
	 */
	const char *rnd[] = { ZONED, "--rw=randread", "--size=76k", NULL };
	const char *again[] = { ZONED, "--rw=read", "--zonesize=12k", "--zonerange=8k",
				"--zoneskip=0", NULL };
	const char *wrap[] = { ZONED, "--rw=write", "--offset=4k", "--zonerange=8k",
			       "--zoneskip=8k", NULL };
	json_t *root = tool_json(false, seq);

	cr_expect_eq(job_int(root, 0, "read", "total_ios"), 7);
	json_decref(root);
	side_by_side("strided", seq);
	side_by_side("strided loops", loops);
	side_by_side("strided random", rnd);
	side_by_side("strided zonesize > zonerange", again);
	side_by_side("strided wrap", wrap);
}

Test(fio_gaps, strided_zones_write_and_verify_a_file)
{
	const char *dir = tmpdir_make();
	char file[300];
	const char *args[] = { "--name=v", file, "--size=256k", "--bs=4k", "--rw=write",
			       "--zonemode=strided", "--zonesize=16k", "--zoneskip=16k",
			       "--verify=crc32c", NULL };
	json_t *root;

	snprintf(file, sizeof(file), "--filename=%s/v", dir);
	root = tool_json(false, args);
	/* half the file, zone by zone, then around again over the same zones */
	cr_expect_eq(job_int(root, 0, "write", "io_bytes"), 256 << 10);
	cr_expect_eq(json_integer_value(json_object_get(json_array_get(json_object_get(root, "jobs"),
								      0), "error")), 0);
	json_decref(root);
}

Test(fio_gaps, zonemode_needs_zonesize_and_zbd_parses)
{
	struct run_out r = iopath_run("--parse-only", "--name=x", "--zonemode=strided", NULL);

	cr_expect_eq(r.status, 2);
	cr_expect_not_null(strstr(r.err, "needs zonesize"), "%s", r.err);
	run_out_free(&r);
	/* zonesize= alone: fio's dry run takes it, its run fails (fio_corpus/zonesize_*) */
	r = iopath_run("--parse-only", "--name=x", "--zonesize=8k", NULL);
	cr_expect_eq(r.status, 0, "%s", r.err);
	run_out_free(&r);
	r = iopath_run("--name=x", "--ioengine=null", "--size=64k", "--zonesize=8k", NULL);
	cr_expect_eq(r.status, 2);
	cr_expect_not_null(strstr(r.err, "zonesize= needs zonemode="), "%s", r.err);
	run_out_free(&r);
	r = iopath_run("--parse-only", "--name=x", "--zonemode=zbd", "--zonesize=8k", NULL);
	cr_expect_eq(r.status, 0, "%s", r.err);
	run_out_free(&r);
}

static json_t *ss_of(json_t *root, unsigned i)
{
	return json_object_get(json_array_get(json_object_get(root, "jobs"), i), "steadystate");
}

/* A paced job is steady at once: it ends after ss_dur, not after its 30 s (else: timeout). */
Test(fio_gaps, steady_state_ends_a_steady_job, .timeout = 25)
{
	const char *args[] = { "--name=s", "--ioengine=null", "--size=1g", "--time_based",
			       "--runtime=30", "--ss=iops:50%", "--ss_dur=2", "--rate_iops=1000",
			       NULL };
	json_t *root = tool_json(false, args), *ss = ss_of(root, 0);

	cr_assert_not_null(ss);
	cr_expect_eq(json_integer_value(json_object_get(ss, "attained")), 1);
	cr_expect_eq(json_integer_value(json_object_get(ss, "duration")), 2);
	cr_expect_str_eq(json_string_value(json_object_get(ss, "ss")), "iops:50.000000%");
	cr_expect_eq(json_array_size(json_object_get(json_object_get(ss, "data"), "iops")), 2);
	json_decref(root);
}

Test(fio_gaps, steady_state_of_a_group_ends_all_its_workers, .timeout = 25)
{
	const char *args[] = { "--name=s", "--ioengine=null", "--size=1g", "--time_based",
			       "--runtime=30", "--ss=bw_slope:5%", "--ss_dur=2", "--ss_ramp=1",
			       "--rate=4m", "--numjobs=2", "--group_reporting", NULL };
	json_t *root = tool_json(false, args), *ss = ss_of(root, 0);

	cr_assert_not_null(ss);
	cr_expect_eq(json_integer_value(json_object_get(ss, "attained")), 1);
	json_decref(root);
}

Test(fio_gaps, steady_state_not_reached_is_reported_as_such)
{
	const char *args[] = { "--name=s", "--ioengine=null", "--size=1g", "--time_based",
			       "--runtime=300ms", "--ss=iops:1%", "--ss_dur=30", NULL };
	json_t *root = tool_json(false, args), *ss = ss_of(root, 0);

	cr_assert_not_null(ss);
	cr_expect_eq(json_integer_value(json_object_get(ss, "attained")), 0);
	cr_expect_eq(json_integer_value(json_object_get(ss, "duration")), 30);
	json_decref(root);
}

Test(fio_gaps, steady_state_criterion_must_be_fios)
{
	struct run_out r = iopath_run("--parse-only", "--name=x", "--ss=iops", NULL);

	cr_expect_eq(r.status, 2);
	run_out_free(&r);
	r = iopath_run("--parse-only", "--name=x", "--ss=latency:1%", NULL);
	cr_expect_eq(r.status, 2);
	run_out_free(&r);
	r = iopath_run("--parse-only", "--name=x", "--ss=bw:10m", "--ss_dur=5", NULL);
	cr_expect_eq(r.status, 0, "%s", r.err);
	run_out_free(&r);
}

static long long job_top_int(json_t *root, unsigned i, const char *key)
{
	return json_integer_value(json_object_get(json_array_get(json_object_get(root, "jobs"), i),
						  key));
}

/*
 * latency_target met at every depth: 1, 2, 4, then iodepth (7), where it stays: one last
 * window measured afresh, and the job ends there, long before its 30 s (else: timeout).
 */
Test(fio_gaps, latency_target_finds_the_depth_and_ends_as_fio, .timeout = 25)
{
	const char *args[] = { "--name=l", "--ioengine=null", "--size=100g", "--time_based",
			       "--runtime=30", "--rw=randread", "--norandommap", "--iodepth=7",
			       "--latency_target=10ms", "--latency_window=100ms",
			       "--latency_percentile=99", NULL };
	json_t *root = tool_json(false, args), *f;

	cr_expect_eq(job_top_int(root, 0, "latency_depth"), 7);
	cr_expect_eq(job_top_int(root, 0, "latency_target"), 10000000);
	cr_expect_eq(job_top_int(root, 0, "latency_window"), 100000);
	if (have_fio()) {
		f = tool_json(true, args);
		cr_expect_eq(job_top_int(root, 0, "latency_depth"), job_top_int(f, 0, "latency_depth"));
		json_decref(f);
	}
	json_decref(root);
}

Test(fio_gaps, latency_target_missed_at_depth_one_fails_the_job)
{
	const char *dir = tmpdir_make();
	struct run_out r = iopath_run("--name=l", tmp_str("--filename=%s/l", dir), "--size=1m",
				      "--rw=randread", "--latency_target=1", "--latency_window=1s",
				      NULL);

	cr_expect_eq(r.status, 1, "%s", r.err);
	cr_expect_not_null(strstr(r.err, "exceeds specified max (1000 nsec)"), "%s", r.err);
	run_out_free(&r);
}

Test(fio_gaps, random_generator_takes_fios_names)
{
	const char *args[] = { "--name=g", "--ioengine=null", "--size=1m", "--rw=randread",
			       "--norandommap", "--random_generator=lfsr", NULL };
	struct run_out r = iopath_run("--parse-only", "--name=x", "--random_generator=mt", NULL);

	cr_expect_eq(r.status, 2);
	run_out_free(&r);
	side_by_side("lfsr", args);
}

Test(fio_gaps, allow_file_create_0_needs_the_file_to_exist)
{
	const char *path = tmp_str("%s/f", tmpdir_make()), *file = tmp_str("--filename=%s", path);
	struct run_out r = iopath_run("--name=a", file, "--size=64k", "--allow_file_create=0", NULL);

	cr_expect_eq(r.status, 2);
	cr_expect_not_null(strstr(r.err, "allow_file_create=0"), "%s", r.err);
	cr_expect_neq(access(path, F_OK), 0, "the file was created");
	run_out_free(&r);
	file_make(path, 64 << 10, 3);
	r = iopath_run("--name=a", file, "--size=64k", "--allow_file_create=0", NULL);
	cr_expect_eq(r.status, 0, "%s", r.err);
	run_out_free(&r);
}

/* 64-bit FNV-1a of each 4 KiB block of path, in order; the count. */
static size_t block_sums(const char *path, uint64_t *sums, size_t max)
{
	FILE *f = fopen(path, "rb");
	unsigned char buf[4096];
	size_t n = 0, k;

	cr_assert_not_null(f, "%s", path);
	while (n < max && fread(buf, 1, sizeof(buf), f) == sizeof(buf)) {
		uint64_t h = 0xcbf29ce484222325ull;

		for (k = 0; k < sizeof(buf); k++)
			h = (h ^ buf[k]) * 0x100000001b3ull;
		sums[n++] = h;
	}
	fclose(f);
	return n;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Distinct contents among blocks, and distinct contents that occur more than once. */
static void distinct(const uint64_t *sums, size_t n, size_t *all, size_t *repeated)
{
	uint64_t *s = malloc(n * sizeof(*s));
	size_t i;

	cr_assert_not_null(s);
	memcpy(s, sums, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_u64);
	*all = *repeated = 0;
	for (i = 0; i < n; i++) {
		if (i && s[i] == s[i - 1]) {
			if (i < 2 || s[i - 1] != s[i - 2])
				(*repeated)++;
			continue;
		}
		(*all)++;
	}
	free(s);
}

/*
 * dedupe_mode=working_set: half the writes repeat one of the first 10% of unique buffers
 * (102 of 1024 blocks), where repeat mode repeats the latest unique one.
 */
Test(fio_gaps, dedupe_working_set_repeats_only_the_first_unique_buffers)
{
	const char *dir = tmpdir_make();
	char file[300], path[300];
	const char *ws[] = { "--name=d", file, "--size=4m", "--bs=4k", "--rw=write",
			     "--dedupe_percentage=50", "--dedupe_mode=working_set",
			     "--dedupe_working_set_percentage=10", NULL };
	const char *rep[] = { "--name=d", file, "--size=4m", "--bs=4k", "--rw=write",
			      "--dedupe_percentage=50", NULL };
	static uint64_t sums[1024];
	size_t n, all, repeated;
	json_t *root;

	snprintf(path, sizeof(path), "%s/d", dir);
	snprintf(file, sizeof(file), "--filename=%s", path);
	root = tool_json(false, ws);
	json_decref(root);
	n = block_sums(path, sums, 1024);
	cr_assert_eq(n, 1024);
	distinct(sums, n, &all, &repeated);
	cr_expect(all > 400 && all < 620, "%zu distinct blocks of 1024 at 50%% dedupe", all);
	cr_expect_leq(repeated, 102, "%zu contents repeated: more than the working set", repeated);
	cr_expect_gt(repeated, 60, "%zu contents repeated", repeated);
	root = tool_json(false, rep);
	json_decref(root);
	distinct(sums, block_sums(path, sums, 1024), &all, &repeated);
	cr_expect_gt(repeated, 150, "repeat mode: %zu contents repeated", repeated);
}

Test(fio_gaps, dedupe_global_shares_buffers_between_jobs)
{
	const char *dir = tmpdir_make();
	char a[300], b[300], pa[300], pb[300];
	const char *args[] = { "--size=1m", "--bs=4k", "--rw=write", "--dedupe_percentage=50",
			       "--dedupe_mode=working_set", "--dedupe_working_set_percentage=50",
			       "--dedupe_global=1", "--name=a", a, "--name=b", b, NULL };
	static uint64_t sa[256], sb[256];
	size_t i, k, shared = 0;
	json_t *root;

	snprintf(pa, sizeof(pa), "%s/a", dir);
	snprintf(pb, sizeof(pb), "%s/b", dir);
	snprintf(a, sizeof(a), "--filename=%s", pa);
	snprintf(b, sizeof(b), "--filename=%s", pb);
	root = tool_json(false, args);
	json_decref(root);
	cr_assert_eq(block_sums(pa, sa, 256), 256);
	cr_assert_eq(block_sums(pb, sb, 256), 256);
	for (i = 0; i < 256; i++)
		for (k = 0; k < 256; k++)
			if (sa[i] == sb[k]) {
				shared++;
				break;
			}
	/* each job's working set is half its own first buffers, half the other's */
	cr_expect_gt(shared, 10, "%zu blocks of a also in b", shared);
}

/*
 * io_submit_mode=offload: a pool of iodepth I/O threads submits; every I/O is accounted, its
 * submission latency being its wait for an I/O thread. (fio 3.33 hangs in offload mode here,
 * even on its own example files: no side-by-side check.)
 */
Test(fio_gaps, offload_moves_every_io_through_its_io_threads, .timeout = 60)
{
	const char *dir = tmpdir_make();
	char file[300];
	const char *null_job[] = { "--name=o", "--ioengine=null", "--io_submit_mode=offload",
				   "--iodepth=4", "--size=1m", NULL };
	const char *aio[] = { "--name=o", file, "--ioengine=libaio", "--direct=1",
			      "--io_submit_mode=offload", "--iodepth=8", "--size=1m",
			      "--rw=randwrite", NULL };
	const char *ring[] = { "--name=o", file, "--ioengine=io_uring", "--io_submit_mode=offload",
			       "--iodepth=4", "--size=1m", "--rw=randread", NULL };
	json_t *root = tool_json(false, null_job);

	cr_expect_eq(job_int(root, 0, "read", "total_ios"), 256);
	cr_expect_eq(lat_n(root, 0, "read", "slat_ns"), 256);
	json_decref(root);
	snprintf(file, sizeof(file), "--filename=%s/o", dir);
	root = tool_json(false, aio);
	cr_expect_eq(job_int(root, 0, "write", "io_bytes"), 1 << 20);
	json_decref(root);
	root = tool_json(false, ring);
	cr_expect_eq(job_int(root, 0, "read", "io_bytes"), 1 << 20);
	json_decref(root);
}

Test(fio_gaps, offload_paces_with_rate_iops, .timeout = 60)
{
	const char *args[] = { "--name=o", "--ioengine=null", "--io_submit_mode=offload",
			       "--iodepth=4", "--size=1g", "--rate_iops=200", "--rate_process=poisson",
			       "--number_ios=20", NULL };
	json_t *root = tool_json(false, args);

	cr_expect_eq(job_int(root, 0, "read", "total_ios"), 20);
	json_decref(root);
}

Test(fio_gaps, offload_with_verify_is_refused)
{
	struct run_out r = iopath_run("--parse-only", "--name=x", "--io_submit_mode=offload",
				      "--verify=crc32c", "--rw=write", NULL);

	cr_expect_eq(r.status, 2);
	cr_expect_not_null(strstr(r.err, "offload with verify is not supported by iopath"), "%s",
			   r.err);
	run_out_free(&r);
}

/* Each tool on its own file in dir: the same reads and writes per job. */
static void side_by_side_files(const char *what, const char *dir, const char *const *args)
{
	char ffile[320], ifile[320];
	const char *fa[41], *ia[40];
	unsigned n = 0;
	json_t *f, *i;

	if (!have_fio())
		cr_skip_test("fio is not installed (scripts/deps.sh installs it)");
	snprintf(ffile, sizeof(ffile), "--filename=%s/by-fio", dir);
	snprintf(ifile, sizeof(ifile), "--filename=%s/by-iopath", dir);
	/* first, so that every job has it; fio would leave verify state files in the cwd */
	fa[0] = ffile;
	fa[1] = "--verify_state_save=0";
	ia[0] = ifile;
	for (; args[n] && n < 37; n++) {
		fa[n + 2] = args[n];
		ia[n + 1] = args[n];
	}
	fa[n + 2] = NULL;
	ia[n + 1] = NULL;
	f = tool_json(true, fa);
	i = tool_json(false, ia);
	same_io(f, i, what);
	json_decref(f);
	json_decref(i);
}

/*
 * A verify job whose sequence runs off the file early: fio starts rounds (write pass, verify)
 * until reads and writes reach size; verify_backlog reads back as it goes, the same blocks.
 */
Test(fio_gaps, verify_rounds_and_backlog_as_fio, .timeout = 60)
{
	const char *dir = tmpdir_make();
	const char *rounds[] = { "--name=v", "--size=1m", "--bs=16k", "--rw=write:112k",
				 "--offset=120k", "--verify=crc32c", "--numjobs=2",
				 "--offset_increment=1m", NULL };
	const char *backlog[] = { "--name=v", "--size=1m", "--bs=16k", "--rw=write:112k",
				  "--offset=120k", "--verify=crc32c", "--verify_backlog=3",
				  "--verify_backlog_batch=2", "--direct=1", NULL };

	side_by_side_files("verify rounds", dir, rounds);
	side_by_side_files("verify_backlog", dir, backlog);
}

/*
 * exitall ends the writer (when the other job, started 2 s later, ends): the end-of-job verify
 * is skipped, so its reads come from the backlog.
 */
Test(fio_gaps, verify_backlog_reads_back_while_writing, .timeout = 20)
{
	const char *dir = tmpdir_make();
	char file[300];
	const char *args[] = { "--exitall", "--name=w", file, "--size=1m", "--rw=randwrite",
			       "--verify=crc32c", "--verify_backlog=4", "--time_based",
			       "--runtime=30", "--name=stop", "--ioengine=null", "--size=64m",
			       "--startdelay=2", NULL };
	json_t *root;

	snprintf(file, sizeof(file), "--filename=%s/w", dir);
	root = tool_json(false, args);
	cr_expect_gt(job_int(root, 0, "read", "total_ios"), 0);
	cr_expect_eq(json_integer_value(json_object_get(json_array_get(json_object_get(root, "jobs"),
								      0), "error")), 0);
	json_decref(root);
}

Test(fio_gaps, verify_dump_keeps_the_block_that_failed)
{
	const char *path = tmp_str("%s/noise", tmpdir_make());
	const char *dump = tmp_str("%s.0.received", path);
	struct run_out r;

	file_make(path, 64 << 10, 9);
	r = iopath_run("--name=bad", tmp_str("--filename=%s", path), "--rw=read", "--verify=crc32c",
		       "--verify_dump=1", NULL);
	cr_expect_eq(r.status, 1, "%s", r.err);
	run_out_free(&r);
	cr_expect_eq(access(dump, F_OK), 0, "%s was not written", dump);
}

/* do_verify=0 stamps the blocks and reads nothing back; verify_fatal ends at the first bad one. */
Test(fio_gaps, do_verify_and_verify_fatal_as_fio)
{
	const char *dir = tmpdir_make();
	char path[300], file[320];
	const char *stamp[] = { "--name=w", "--size=256k", "--rw=write", "--verify=crc32c",
				"--do_verify=0", NULL };
	json_t *root;

	side_by_side_files("do_verify=0", dir, stamp);
	snprintf(path, sizeof(path), "%s/noise", dir);
	file_make(path, 256 << 10, 5);
	snprintf(file, sizeof(file), "--filename=%s", path);
	root = iopath_json(1, "--name=r", file, "--rw=read", "--verify=crc32c", "--verify_fatal=0",
			   "--output-format=json", NULL);
	/* fio 3.33 too stops at the first failed read when verify_fatal=0 */
	cr_expect_eq(job_int(root, 0, "read", "total_ios"), 1);
	json_decref(root);
}

static double lat_mean(json_t *root, const char *which)
{
	return json_real_value(json_object_get(json_object_get(job_dir(root, 0, "read"), which),
					       "mean"));
}

/* With only some latencies off, the others are still measured from the submit stamp. */
Test(fio_gaps, disabling_one_latency_keeps_the_others_right)
{
	const char *slat[] = { "--name=g", "--ioengine=null", "--size=1m", "--disable_slat=1", NULL };
	const char *clat[] = { "--name=g", "--ioengine=null", "--size=1m", "--disable_clat=1", NULL };
	json_t *root = tool_json(false, slat);

	/* a null I/O takes well under a second; a missing stamp would read as the uptime */
	cr_expect_lt(lat_mean(root, "clat_ns"), 1e9);
	cr_expect_lt(lat_mean(root, "lat_ns"), 1e9);
	json_decref(root);
	root = tool_json(false, clat);
	cr_expect_lt(lat_mean(root, "lat_ns"), 1e9);
	cr_expect_gt(lat_n(root, 0, "read", "lat_ns"), 0);
	json_decref(root);
}

/* verify=meta with verify_interval and verify_pattern, then a read job checks it, as fio. */
Test(fio_gaps, verify_meta_interval_and_pattern_as_fio, .timeout = 60)
{
	const char *dir = tmpdir_make();
	const char *args[] = { "--bs=64k", "--verify=meta", "--verify_pattern=0xaa555aa5",
			       "--verify_interval=512", "--size=1m", "--name=w", "--rw=write",
			       "--fill_device=1", "--do_verify=0", "--name=r", "--stonewall",
			       "--rw=read", "--create_serialize=0", NULL };

	side_by_side_files("verify=meta", dir, args);
}

Test(fio_gaps, verify_meta_checks_headers_and_pattern_not_a_checksum)
{
	const char *path = tmp_str("%s/m", tmpdir_make()), *file = tmp_str("--filename=%s", path);
	struct run_out r;
	FILE *f;

	iopath_exits(0, "--name=w", file, "--size=64k", "--bs=4k", "--rw=write", "--verify=meta",
		     "--do_verify=0", NULL);
	/* a byte in the middle of a block: no header touched */
	f = fopen(path, "r+b");
	cr_assert_not_null(f);
	fseek(f, 4096 + 2000, SEEK_SET);
	fputc(0x5a, f);
	fclose(f);
	r = iopath_run("--name=r", file, "--size=64k", "--bs=4k", "--rw=read", "--verify=meta",
		       NULL);
	cr_expect_eq(r.status, 0, "verify=meta looked past the headers: %s", r.err);
	run_out_free(&r);
	r = iopath_run("--name=r", file, "--size=64k", "--bs=4k", "--rw=read", "--verify=crc32c",
		       NULL);
	cr_expect_eq(r.status, 1, "verify=crc32c missed the change");
	run_out_free(&r);
	r = iopath_run("--name=r", file, "--size=64k", "--bs=4k", "--rw=read", "--verify=meta",
		       "--verify_pattern=0x11", NULL);
	cr_expect_eq(r.status, 1, "the pattern was not checked");
	cr_expect_not_null(strstr(r.err, "verify_pattern"), "%s", r.err);
	run_out_free(&r);
}

/* fill_device: a full filesystem (a 4 MiB tmpfs) ends the write job, without an error. */
Test(fio_gaps, fill_device_ends_the_job_at_enospc_without_error, .timeout = 60)
{
	const char *dir = tmpdir_make();
	char mnt[300], file[320];
	const char *args[] = { "--name=f", file, "--rw=write", "--bs=64k", "--size=16m",
			       "--fill_device=1", NULL };
	json_t *root;

	if (!is_root())
		cr_skip_test("mounting a small tmpfs needs root");
	snprintf(mnt, sizeof(mnt), "%s/small", dir);
	cr_assert_eq(sh("mkdir -p '%s' && mount -t tmpfs -o size=4m tmpfs '%s'", mnt, mnt), 0);
	snprintf(file, sizeof(file), "--filename=%s/full", mnt);
	root = tool_json(false, args);
	cr_expect_eq(json_integer_value(json_object_get(json_array_get(json_object_get(root, "jobs"),
								      0), "error")), 0);
	cr_expect_gt(job_int(root, 0, "write", "io_bytes"), 0);
	cr_expect_leq(job_int(root, 0, "write", "io_bytes"), 4 << 20);
	json_decref(root);
	/* without size=: until the filesystem is full */
	sh("rm -f '%s/full'", mnt);
	args[4] = "--bs=64k";
	root = tool_json(false, args);
	cr_expect_eq(job_int(root, 0, "write", "io_bytes"), 4 << 20);
	json_decref(root);
	sh("umount '%s'", mnt);
}

/* verify_interval over the block size: as fio, the block size (fio's t0004). */
Test(fio_gaps, verify_interval_over_the_block_is_the_block)
{
	const char *dir = tmpdir_make();
	char file[320];

	snprintf(file, sizeof(file), "--filename=%s/v", dir);
	iopath_exits(0, "--name=w", file, "--size=64k", "--bs=512", "--rw=write", "--verify=md5",
		     "--verify_interval=1m", NULL);
	/* one that does not divide the block is the block too (fio's gcd of the write sizes) */
	iopath_prints(0, HAS("\"verify_interval\": \"1536\""), "--name=w", file, "--size=64k",
		      "--bs=4k", "--rw=write", "--verify=md5", "--verify_interval=1536",
		      "--output-format=json", NULL);
}
