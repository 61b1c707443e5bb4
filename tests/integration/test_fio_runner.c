/*
 * Integration: the runner's phases and pacing as fio 3.33 has them: ramp_time on size-based
 * jobs, per-direction rates in mixed jobs, time_based verify jobs, runtime rounding.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

TestSuite(fio_runner, .fini = tmpdir_cleanup);

/* Run iopath with the arguments (NULL-terminated) and --output-format=json; its JSON. */
static json_t *json_run(const char *const *args)
{
	json_t *root = tool_json(false, args);

	cr_assert_not_null(root);
	return root;
}

static long long lat_n(json_t *root, const char *dir, const char *lat)
{
	json_t *job = json_array_get(json_object_get(root, "jobs"), 0);

	return json_integer_value(json_object_get(json_object_get(json_object_get(job, dir), lat),
						  "N"));
}

/*
 * A size-based job that is done before ramp_time ends: fio 3.33 never resets its counts and
 * reports the whole job (its bytes, I/Os and runtime; no latency samples, which it keeps for
 * after the ramp). It was reported as having moved nothing.
 */
Test(fio_runner, job_done_within_ramp_time_reports_its_size)
{
	const char *args[] = { "--name=d", "--ioengine=null", "--size=4m", "--bs=4k", "--rw=read",
			       "--ramp_time=1", NULL };
	json_t *root = json_run(args);

	cr_expect_eq(job_int(root, 0, "read", "io_bytes"), 4 << 20);
	cr_expect_eq(job_int(root, 0, "read", "total_ios"), 1024);
	cr_expect_gt(job_int(root, 0, "read", "bw_bytes"), 0);
	cr_expect_eq(lat_n(root, "read", "clat_ns"), 0);
	json_decref(root);
}

/* number_ios and loops bound a job that ends in the ramp as they bound any other. */
Test(fio_runner, ramp_time_keeps_number_ios_and_loops)
{
	const char *args[] = { "--name=d", "--ioengine=null", "--size=4m", "--bs=4k", "--rw=read",
			       "--ramp_time=1", "--loops=3", "--number_ios=100", NULL };
	json_t *root = json_run(args);

	cr_expect_eq(job_int(root, 0, "read", "total_ios"), 300);
	json_decref(root);
}

/*
 * A size-based job still running when ramp_time ends: the I/O of the ramp counts against its
 * size, and the measured part is the rest of it (fio 3.33 issues the size once). At 4 MiB/s
 * the 250 ms ramp moves at most 1 MiB and an I/O, so at least 1 MiB less one I/O is left;
 * the ramp moved something, so less than the whole 2 MiB.
 */
Test(fio_runner, ramp_time_counts_against_the_size)
{
	const char *args[] = { "--name=d", "--ioengine=null", "--size=2m", "--bs=4k", "--rw=read",
			       "--rate=4m", "--ramp_time=250ms", NULL };
	json_t *root = json_run(args);
	long long bytes = job_int(root, 0, "read", "io_bytes");

	cr_expect_geq(bytes, (1 << 20) - 4096, "%lld bytes measured", bytes);
	cr_expect_lt(bytes, 2 << 20, "%lld bytes measured", bytes);
	json_decref(root);
}

/* A mixed job's directions, each paced by its own rate: { read bytes, write bytes, ios }. */
struct mixed_moved {
	long long rbytes, wbytes, rios, wios;
};

static struct mixed_moved mixed_run(const char *rate)
{
	const char *args[] = { "--name=m", "--ioengine=null", "--size=64m", "--bs=4k",
			       "--rw=randrw", "--runtime=1", "--time_based", rate, NULL };
	json_t *root = json_run(args);
	struct mixed_moved m = {
		job_int(root, 0, "read", "io_bytes"), job_int(root, 0, "write", "io_bytes"),
		job_int(root, 0, "read", "total_ios"), job_int(root, 0, "write", "total_ios"),
	};

	json_decref(root);
	return m;
}

/*
 * rate=1m,100k: each direction keeps its own pace (fio: read 1023 KiB/s, write 99); the slow
 * writes do not hold the reads back (they were throttled to about 180 KiB/s). Neither goes
 * above its schedule (an I/O of slack); below it only as far as a stalled machine allows.
 */
Test(fio_runner, mixed_rate_paces_each_direction)
{
	struct mixed_moved m = mixed_run("--rate=1m,100k");

	cr_expect_leq(m.rbytes, (1 << 20) + 4096, "read %lld bytes", m.rbytes);
	cr_expect_leq(m.wbytes, 100 * 1024 + 4096, "write %lld bytes", m.wbytes);
	cr_expect_geq(m.rbytes, (1 << 20) / 2, "read %lld bytes", m.rbytes);
	cr_expect_geq(m.rbytes, 5 * m.wbytes, "read %lld bytes, write %lld", m.rbytes, m.wbytes);
}

/*
 * A rated job ends with its last I/O, not one interval later: rate_iops=2, two I/Os, the
 * second issued at 0.5 s, is a 501 ms job in fio (it waited another 500 ms before finding
 * the size used up). Lateness only lengthens it: the bound is far from both.
 */
Test(fio_runner, rated_job_ends_with_its_last_io)
{
	static const char *const args[] = { "--name=r", "--ioengine=null", "--rw=write",
					     "--bs=4k", "--size=8k", "--rate_iops=2", NULL };
	json_t *root = json_run(args);

	cr_assert_eq(job_int(root, 0, "write", "total_ios"), 2);
	cr_assert_lt(job_int(root, 0, "write", "runtime"), 800, "runtime %lld ms",
		     job_int(root, 0, "write", "runtime"));
	json_decref(root);
}

/*
 * fio verifies after every loop (thread_main: do_io then do_verify, loops times): 3 loops of
 * 16 writes read back 48 blocks (fio 3.33: 48/48); a single verify at the end read 16.
 */
Test(fio_runner, verify_follows_every_loop)
{
	const char *dir = tmpdir_make();
	char fname[300];
	const char *args[] = { "--name=v", fname, "--rw=write", "--bs=4k", "--size=64k",
			       "--verify=crc32c", "--loops=3", NULL };
	json_t *root;

	snprintf(fname, sizeof(fname), "--filename=%s/f", dir);
	root = json_run(args);
	cr_assert_eq(job_int(root, 0, "write", "total_ios"), 48);
	cr_assert_eq(job_int(root, 0, "read", "total_ios"), 48, "a verify pass per loop");
	json_decref(root);
}

/* rate_iops=200,20: the same per direction in I/Os. */
Test(fio_runner, mixed_rate_iops_paces_each_direction)
{
	struct mixed_moved m = mixed_run("--rate_iops=200,20");

	cr_expect_leq(m.rios, 201, "%lld reads", m.rios);
	cr_expect_leq(m.wios, 21, "%lld writes", m.wios);
	cr_expect_geq(m.rios, 100, "%lld reads", m.rios);
	cr_expect_geq(m.rios, 5 * m.wios, "%lld reads, %lld writes", m.rios, m.wios);
}

/* rate=,100k: the reads are not limited at all and run while the writes wait their turn. */
Test(fio_runner, mixed_rate_on_one_direction_leaves_the_other_free)
{
	struct mixed_moved m = mixed_run("--rate=,100k");

	cr_expect_leq(m.wbytes, 100 * 1024 + 4096, "write %lld bytes", m.wbytes);
	cr_expect_geq(m.rbytes, 20 * m.wbytes, "read %lld bytes, write %lld", m.rbytes, m.wbytes);
}

/*
 * A write job with verify=crc32c on a fresh file in the test's directory, and the extra args;
 * it must exit 0. Its JSON result, what it printed kept in *r.
 */
static json_t *verify_run(struct run_out *r, const char *a, const char *b, const char *c)
{
	const char *dir = tmpdir_make();
	char file[300];

	snprintf(file, sizeof(file), "--filename=%s/data", dir);
	return iopath_json_kept(r, 0, "--output-format=json", "--name=v", "--ioengine=psync", file,
				"--rw=write", "--bs=4k", "--size=1m", "--verify=crc32c", a, b, c,
				NULL);
}

#define NEVER_STARTS "verification read phase will never start because write phase uses all of runtime"

/*
 * time_based write job with verify: the writes take the whole runtime, so no verify read is
 * issued, and fio's warning says so (one read was issued past the runtime).
 */
Test(fio_runner, time_based_write_job_never_verifies)
{
	struct run_out r;
	json_t *root = verify_run(&r, "--time_based", "--runtime=300ms", NULL);

	cr_expect_gt(job_int(root, 0, "write", "total_ios"), 0);
	cr_expect_eq(job_int(root, 0, "read", "total_ios"), 0);
	cr_expect(strstr(r.err, NEVER_STARTS), "stderr: %s", r.err);
	json_decref(root);
	run_out_free(&r);
}

/* A size-based write job cut short by runtime reads nothing back either (fio: no warning). */
Test(fio_runner, write_job_cut_by_runtime_never_verifies)
{
	struct run_out r;
	json_t *root = verify_run(&r, "--runtime=300ms", "--rate=1m", NULL);

	cr_expect_lt(job_int(root, 0, "write", "io_bytes"), 1 << 20);
	cr_expect_eq(job_int(root, 0, "read", "total_ios"), 0);
	cr_expect(!strstr(r.err, NEVER_STARTS), "stderr: %s", r.err);
	json_decref(root);
	run_out_free(&r);
}

/* verify_backlog reads back within the write phase: it verifies, and there is no warning. */
Test(fio_runner, time_based_verify_backlog_still_verifies)
{
	struct run_out r;
	json_t *root = verify_run(&r, "--time_based", "--runtime=300ms", "--verify_backlog=16");

	cr_expect_gt(job_int(root, 0, "read", "total_ios"), 0);
	cr_expect(!strstr(r.err, NEVER_STARTS), "stderr: %s", r.err);
	json_decref(root);
	run_out_free(&r);
}

/* The fields of the first line of terse output (1-based, as fio's HOWTO numbers them). */
struct terse {
	char *line;
	char *field[200];
	unsigned nr;
};

static struct terse terse_run(const char *a, const char *b)
{
	struct run_out r = iopath_run("--output-format=terse", "--name=t", "--ioengine=null",
				      "--size=64k", "--bs=4k", "--rw=read", a, b, NULL);
	struct terse t = { 0 };
	char *p, *nl;

	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	t.line = r.out;
	r.out = NULL;
	run_out_free(&r);
	nl = strchr(t.line, '\n');
	if (nl)
		*nl = '\0';
	t.field[++t.nr] = t.line;
	for (p = t.line; (p = strchr(p, ';')) && t.nr + 1 < 200; p++) {
		*p = '\0';
		t.field[++t.nr] = p + 1;
	}
	return t;
}

static long long terse_int(const struct terse *t, unsigned i)
{
	cr_assert_leq(i, t->nr, "field %u of %u", i, t->nr);
	return atoll(t->field[i]);
}

/*
 * A run shorter than a millisecond: fio rounds each direction's elapsed microseconds up to
 * whole milliseconds (runtime 1) and divides by them; it was reported as runtime 0, bw 0.
 */
Test(fio_runner, sub_millisecond_run_reports_runtime_rounded_up)
{
	struct terse t = terse_run(NULL, NULL);
	long long kb = terse_int(&t, 6), bw = terse_int(&t, 7), iops = terse_int(&t, 8);
	long long runt = terse_int(&t, 9);

	cr_expect_eq(kb, 64);
	cr_expect_geq(runt, 1);
	cr_expect_eq(bw, runt ? 64 * 1024 * 1000 / runt / 1024 : -1, "bw %lld in %lld ms", bw, runt);
	cr_expect_eq(iops, runt ? 16 * 1000 / runt : -1, "iops %lld in %lld ms", iops, runt);
	free(t.line);
}

/* The JSON and normal output round the same way: bw is the bytes over the whole ms. */
Test(fio_runner, sub_millisecond_run_json_and_normal_agree_with_fio)
{
	const char *args[] = { "--name=t", "--ioengine=null", "--size=64k", "--bs=4k",
			       "--rw=read", NULL };
	json_t *root = json_run(args);
	long long rt = job_int(root, 0, "read", "runtime");
	struct run_out r;

	cr_expect_geq(rt, 1);
	cr_expect_eq(job_int(root, 0, "read", "bw_bytes"), rt ? 65536 * 1000 / rt : -1);
	json_decref(root);
	r = iopath_run("--name=t", "--ioengine=null", "--size=64k", "--bs=4k", "--rw=read", NULL);
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	cr_expect(!strstr(r.out, "/0msec"), "%s", r.out);
	cr_expect(!strstr(r.out, "run=0-"), "%s", r.out);
	run_out_free(&r);
}

/* Terse v3's read clat percentiles are fields 18 to 37 (fio's 20, padded with "0%=0"). */
#define TERSE_READ_PCT 18

/* percentile_list=50:99: those two, then padding (iopath wrote its default list). */
Test(fio_runner, terse_uses_percentile_list)
{
	struct terse t = terse_run("--percentile_list=50:99", NULL);
	unsigned i;

	cr_assert_geq(t.nr, TERSE_READ_PCT + 19);
	cr_expect(!strncmp(t.field[TERSE_READ_PCT], "50.000000%=", 11), "%s",
		  t.field[TERSE_READ_PCT]);
	cr_expect(!strncmp(t.field[TERSE_READ_PCT + 1], "99.000000%=", 11), "%s",
		  t.field[TERSE_READ_PCT + 1]);
	for (i = 2; i < 20; i++)
		cr_expect_str_eq(t.field[TERSE_READ_PCT + i], "0%=0", "field %u",
				 TERSE_READ_PCT + i);
	free(t.line);
}

/* clat_percentiles=0 (and no lat_percentiles): no percentiles at all, as fio. */
Test(fio_runner, terse_without_clat_percentiles_pads_them_all)
{
	struct terse t = terse_run("--percentile_list=50:99", "--clat_percentiles=0");
	unsigned i;

	cr_assert_geq(t.nr, TERSE_READ_PCT + 19);
	for (i = 0; i < 20; i++)
		cr_expect_str_eq(t.field[TERSE_READ_PCT + i], "0%=0", "field %u",
				 TERSE_READ_PCT + i);
	free(t.line);
}
