/* Integration: fio's workload options end to end, and side by side with fio where it is installed. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"

/* the temporary directories each test made go with it */
TestSuite(logs, .fini = tmpdir_cleanup);

/* the temporary directories each test made go with it */
TestSuite(percentiles, .fini = tmpdir_cleanup);

/* the temporary directories each test made go with it */
TestSuite(thinktime, .fini = tmpdir_cleanup);

/* the temporary directories each test made go with it */
TestSuite(rate, .fini = tmpdir_cleanup);

/* the temporary directories each test made go with it */
TestSuite(side_by_side, .fini = tmpdir_cleanup);

TestSuite(workopts, .fini = tmpdir_cleanup);

#define ARGS_MAX 32

/* Run bin (iopath or fio) in dir with --output-format=json --output=dir/name; 0 on success. */
static int run_tool(const char *bin, const char *dir, const char *name, const char *const *args)
{
	const char *argv[ARGS_MAX + 3];
	unsigned n = 0;

	argv[n++] = "--output-format=json";
	argv[n++] = tmp_str("--output=%s/%s", dir, name);
	for (; *args && n < ARGS_MAX + 2; args++)
		argv[n++] = *args;
	argv[n] = NULL;
	return run_in_dir(bin, dir, argv, NULL);
}

/* iopath run in dir (the job files are named relative to it), its JSON result. */
static json_t *json_run_in(const char *dir, const char *const *args)
{
	char path[400];
	int status = run_tool(getenv("IOPATH_BIN"), dir, "iopath.json", args);

	cr_assert_eq(status, 0, "iopath exited %d", status);
	snprintf(path, sizeof(path), "%s/iopath.json", dir);
	return json_load_path(path);
}

static off_t file_len(const char *dir, const char *name)
{
	char path[400];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (stat(path, &st))
		return -errno;
	return st.st_size;
}

Test(workopts, nrfiles_creates_n_files_of_size_over_n)
{
	const char *dir = tmpdir_make();
	const char *args[] = { "--name=nf", "--size=1m", "--rw=write", "--nrfiles=4", NULL };
	json_t *root = json_run_in(dir, args);

	cr_assert_eq(job_int(root, 0, "write", "io_bytes"), 1 << 20);
	cr_assert_eq(file_len(dir, "nf.0.0"), 256 << 10);
	cr_assert_eq(file_len(dir, "nf.0.3"), 256 << 10);
	cr_assert_eq(file_len(dir, "nf.0.4"), -ENOENT);
	json_decref(root);
}

Test(workopts, unlink_removes_the_job_files)
{
	const char *dir = tmpdir_make();
	const char *args[] = { "--name=u", "--size=64k", "--rw=write", "--nrfiles=2", "--unlink=1",
			       NULL };
	json_t *root = json_run_in(dir, args);

	cr_assert_eq(job_int(root, 0, "write", "io_bytes"), 64 << 10);
	cr_assert_eq(file_len(dir, "u.0.0"), -ENOENT);
	cr_assert_eq(file_len(dir, "u.0.1"), -ENOENT);
	json_decref(root);
}

Test(workopts, offset_increment_places_workers_apart)
{
	const char *dir = tmpdir_make();
	const char *args[] = { "--name=oi", "--filename=shared", "--size=64k", "--rw=write",
			       "--numjobs=3", "--offset_increment=1m", "--verify=crc32c", NULL };
	json_t *root = json_run_in(dir, args);

	/* worker 2 writes [2m, 2m + 64k): the file ends there; each verifies its own blocks */
	cr_assert_eq(file_len(dir, "shared"), (2 << 20) + (64 << 10));
	cr_assert_eq(job_int(root, 2, "write", "io_bytes"), 64 << 10);
	cr_assert_eq(job_int(root, 2, NULL, "error"), 0);
	json_decref(root);
}

/* args written in a directory of their own: bytes written, and file laid out len long. */
static void writes_and_lays_out(const char *const *args, long long bytes, const char *file,
				long long len)
{
	const char *dir = tmpdir_make();
	json_t *root = json_run_in(dir, args);

	cr_assert_eq(job_int(root, 0, "write", "io_bytes"), bytes);
	cr_assert_eq(file_len(dir, file), len, "%s", file);
	json_decref(root);
}

Test(workopts, filesize_sets_files_and_size_caps_the_io)
{
	const char *args[] = { "--name=fs", "--nrfiles=3", "--filesize=16k", "--size=40k",
			       "--rw=write", NULL };

	writes_and_lays_out(args, 40 << 10, "fs.0.2", 16 << 10);
}

/* filesize= is the file's whole size: offset= starts the I/O inside it (fio 3.33: 16k, 4 I/Os). */
Test(workopts, filesize_with_offset_reads_to_the_file_end)
{
	const char *dir = tmpdir_make();
	const char *args[] = { "--name=fo", "--nrfiles=4", "--filesize=16k", "--offset=12k",
			       "--bs=4k", "--rw=read", NULL };
	json_t *root = json_run_in(dir, args);

	cr_assert_eq(job_int(root, 0, "read", "io_bytes"), 16 << 10);
	cr_assert_eq(job_int(root, 0, "read", "total_ios"), 4);
	cr_assert_eq(file_len(dir, "fo.0.3"), 16 << 10, "the file is filesize long, not offset+filesize");
	json_decref(root);
}

/* A filesize range draws each worker's files apart: each worker moves its own files' bytes. */
Test(workopts, filesize_range_each_worker_moves_its_own_files)
{
	const char *dir = tmpdir_make();
	const char *args[] = { "--name=fr", "--nrfiles=2", "--filesize=8k-64k", "--bs=4k",
			       "--numjobs=2", "--rw=read", NULL };
	json_t *root = json_run_in(dir, args);
	unsigned w;

	for (w = 0; w < 2; w++) {
		char a[32], b[32];

		snprintf(a, sizeof(a), "fr.%u.0", w);
		snprintf(b, sizeof(b), "fr.%u.1", w);
		cr_assert_eq(job_int(root, w, "read", "io_bytes"), file_len(dir, a) + file_len(dir, b),
			     "worker %u", w);
	}
	json_decref(root);
}

Test(workopts, create_on_open_skips_layout)
{
	const char *args[] = { "--name=co", "--size=64k", "--rw=randwrite", "--create_on_open=1",
			       NULL };

	writes_and_lays_out(args, 64 << 10, "co.0.0", 64 << 10);
}

Test(workopts, bssplit_mean_block_size_follows_the_shares)
{
	const char *dir = tmpdir_make();
	/* without the random map: with it, requests are cut where they meet a done block */
	const char *args[] = { "--name=bs", "--ioengine=null", "--size=1g", "--rw=randread",
			       "--bssplit=4k/50:64k/50", "--norandommap", NULL };
	json_t *root = json_run_in(dir, args);
	double mean = (double)job_int(root, 0, "read", "io_bytes") /
		      (double)job_int(root, 0, "read", "total_ios");

	/* the job issues while it has issued less than its size: its last I/O may end past it */
	cr_assert_geq(job_int(root, 0, "read", "io_bytes"), 1ll << 30);
	cr_assert_lt(job_int(root, 0, "read", "io_bytes"), (1ll << 30) + 65536);
	cr_assert_float_eq(mean, 34 * 1024.0, 34 * 1024.0 * 0.02, "mean bs %.0f", mean);
	json_decref(root);
}

/* The per-job bytes and I/Os fio and iopath report for the same command line. */
struct moved {
	long long rbytes, rios, wbytes, wios;
};

static struct moved job_moved(json_t *root, unsigned i)
{
	struct moved m = {
		job_int(root, i, "read", "io_bytes"), job_int(root, i, "read", "total_ios"),
		job_int(root, i, "write", "io_bytes"), job_int(root, i, "write", "total_ios"),
	};

	return m;
}

static bool have_fio(void)
{
	return system("fio --version >/dev/null 2>&1") == 0;
}

/* Within tol (a fraction) plus one 4k I/O; exact when tol is 0. */
static bool close_to(long long a, long long b, double tol, long long unit)
{
	long long diff = a > b ? a - b : b - a;

	return tol == 0 ? diff == 0 : diff <= (long long)(tol * (double)a) + unit;
}

static void similar_to_fio(const char *const *args, unsigned nr_jobs, bool same_ios, double tol)
{
	const char *dir = tmpdir_make();
	char fdir[400], idir[400], path[450];
	json_t *f, *io;
	unsigned i;

	snprintf(fdir, sizeof(fdir), "%s/fio", dir);
	snprintf(idir, sizeof(idir), "%s/iopath", dir);
	cr_assert_eq(mkdir(fdir, 0755), 0);
	cr_assert_eq(mkdir(idir, 0755), 0);
	cr_assert_eq(run_tool("fio", fdir, "fio.json", args), 0, "fio failed");
	snprintf(path, sizeof(path), "%s/fio.json", fdir);
	f = json_load_path(path);
	io = json_run_in(idir, args);
	cr_assert_eq(json_array_size(json_object_get(io, "jobs")), nr_jobs);
	cr_assert_eq(json_array_size(json_object_get(f, "jobs")), nr_jobs);
	for (i = 0; i < nr_jobs; i++) {
		struct moved a = job_moved(f, i), b = job_moved(io, i);

		cr_assert(close_to(a.rbytes, b.rbytes, tol, 4096),
			  "%s job %u read bytes: fio %lld, iopath %lld", args[1], i, a.rbytes, b.rbytes);
		cr_assert(close_to(a.wbytes, b.wbytes, tol, 4096),
			  "%s job %u write bytes: fio %lld, iopath %lld", args[1], i, a.wbytes, b.wbytes);
		if (same_ios) {
			cr_assert(close_to(a.rios, b.rios, tol, 1),
				  "job %u read I/Os: fio %lld, iopath %lld", i, a.rios, b.rios);
			cr_assert(close_to(a.wios, b.wios, tol, 1),
				  "job %u write I/Os: fio %lld, iopath %lld", i, a.wios, b.wios);
		}
	}
	json_decref(f);
	json_decref(io);
}

static void same_as_fio(const char *const *args, unsigned nr_jobs, bool same_ios)
{
	similar_to_fio(args, nr_jobs, same_ios, 0);
}

#define SKIP_WITHOUT_FIO() \
	do { if (!have_fio()) cr_skip_test("fio is not installed (scripts/deps.sh installs it)"); } while (0)

Test(side_by_side, bssplit_bytes, .fini = tmpdir_cleanup)
{
	const char *args[] = { "--name=s", "--bssplit=4k/10:64k/50:32k/40", "--ioengine=null",
			       "--size=8m", "--rw=randread", NULL };

	SKIP_WITHOUT_FIO();
	same_as_fio(args, 1, false);
}

/*
 * With the random map, a 64k request that meets a block done already in the pass is cut
 * there, as fio cuts it: the number of requests for the same bytes is fio's, within 5%
 * (256 MiB: fio 3.33 12860, iopath 13032; without the cut, 7700).
 */
Test(side_by_side, bssplit_requests_cut_by_the_random_map, .fini = tmpdir_cleanup)
{
	const char *args[] = { "--name=s", "--bssplit=4k/50:64k/50", "--ioengine=null",
			       "--size=256m", "--rw=randread", NULL };

	SKIP_WITHOUT_FIO();
	similar_to_fio(args, 1, true, 0.05);
}

Test(side_by_side, nrfiles_on_real_files, .fini = tmpdir_cleanup)
{
	const char *args[] = { "--name=s", "--nrfiles=3", "--size=1m", "--rw=write",
			       "--numjobs=2", NULL };

	SKIP_WITHOUT_FIO();
	same_as_fio(args, 2, true);
}

Test(side_by_side, io_size_and_loops, .fini = tmpdir_cleanup)
{
	const char *args[] = { "--name=s", "--ioengine=null", "--size=1m", "--io_size=2560k",
			       "--loops=2", "--rw=randread", NULL };

	SKIP_WITHOUT_FIO();
	same_as_fio(args, 1, true);
}

Test(side_by_side, offset_increment_shared_file, .fini = tmpdir_cleanup)
{
	const char *args[] = { "--name=s", "--filename=f", "--size=256k", "--rw=write",
			       "--offset_increment=256k", "--numjobs=3", NULL };

	SKIP_WITHOUT_FIO();
	same_as_fio(args, 3, true);
}

Test(side_by_side, filesize_with_size_cap, .fini = tmpdir_cleanup)
{
	const char *args[] = { "--name=s", "--nrfiles=3", "--filesize=16k", "--size=40k",
			       "--rw=randread", "--file_service_type=random", NULL };

	SKIP_WITHOUT_FIO();
	same_as_fio(args, 1, true);
}

/* Distinct 4k blocks in a file, and how many blocks it has. */
static unsigned distinct_blocks(const char *dir, const char *name, unsigned *nr)
{
	char path[400];
	static unsigned char blk[1024][4096];
	unsigned n = 0, uniq = 0, i;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "rb");
	cr_assert_not_null(f, "%s", path);
	while (n < 1024 && fread(blk[n], 4096, 1, f) == 1)
		n++;
	fclose(f);
	for (i = 0; i < n; i++) {
		unsigned k;

		for (k = 0; k < i && memcmp(blk[k], blk[i], 4096); k++)
			;
		uniq += k == i;
	}
	*nr = n;
	return uniq;
}

Test(buffers, writes_are_scrambled_by_default)
{
	const char *dir = tmpdir_make();
	const char *on[] = { "--name=s", "--size=256k", "--rw=write", NULL };
	const char *off[] = { "--name=t", "--size=256k", "--rw=write", "--scramble_buffers=0", NULL };
	unsigned n;

	json_decref(json_run_in(dir, on));
	cr_assert_eq(distinct_blocks(dir, "s.0.0", &n), 64);
	json_decref(json_run_in(dir, off));
	/* one buffer at iodepth=1, never refilled: every block alike */
	cr_assert_eq(distinct_blocks(dir, "t.0.0", &n), 1);
}

Test(buffers, dedupe_percentage_repeats_that_share)
{
	const char *dir = tmpdir_make();
	const char *args[] = { "--name=d", "--size=4m", "--rw=write", "--dedupe_percentage=50",
			       NULL };
	unsigned n, uniq;

	json_decref(json_run_in(dir, args));
	uniq = distinct_blocks(dir, "d.0.0", &n);
	cr_assert_eq(n, 1024);
	cr_assert(uniq > 1024 * 40 / 100 && uniq < 1024 * 60 / 100, "%u unique of %u", uniq, n);
}

Test(buffers, buffer_pattern_is_what_is_written)
{
	const char *dir = tmpdir_make();
	const char *args[] = { "--name=p", "--size=64k", "--rw=write", "--buffer_pattern=\"ab\"0x01",
			       NULL };
	char path[400];
	unsigned char buf[4096];
	unsigned i;
	FILE *f;

	json_decref(json_run_in(dir, args));
	snprintf(path, sizeof(path), "%s/p.0.0", dir);
	f = fopen(path, "rb");
	cr_assert_not_null(f);
	cr_assert_eq(fread(buf, sizeof(buf), 1, f), 1);
	fclose(f);
	for (i = 0; i < 4095; i++)
		cr_assert_eq(buf[i], "ab\x01"[i % 3], "byte %u is %02x", i, buf[i]);
}

Test(workopts, zoned_abs_beyond_the_file_fails_the_job)
{
	const char *dir = tmpdir_make();
	const char *args[] = { "--name=z", "--ioengine=null", "--size=8m", "--rw=randread",
			       "--random_distribution=zoned_abs:60/10m:40/3m", NULL };
	int status = run_tool(getenv("IOPATH_BIN"), dir, "out.json", args);

	cr_assert_eq(status, 1);
}

/* Bytes a sparse file holds on disk: the distinct blocks a random writer touched. */
static long long footprint(const char *bin, const char *dist)
{
	const char *dir = tmpdir_make();
	char opt[80], path[400];
	const char *args[] = { "--name=x", "--size=64m", "--io_size=4m", "--rw=randwrite",
			       "--fallocate=none", "--create_on_open=1", opt, NULL };
	struct stat st;
	long long used;

	snprintf(opt, sizeof(opt), "--random_distribution=%s", dist);
	cr_assert_eq(run_tool(bin, dir, "out.json", args), 0, "%s %s", bin, dist);
	snprintf(path, sizeof(path), "%s/x.0.0", dir);
	cr_assert_eq(stat(path, &st), 0);
	used = (long long)st.st_blocks * 512;
	tmpdir_cleanup();
	return used;
}

/* The skew shows in how many distinct blocks 1024 random writes touch: as many as fio's. */
Test(side_by_side, random_distribution_footprint)
{
	static const char *const dists[] = { "zipf:1.2", "pareto:0.2", "normal:5",
					      "zoned:90/10:10/90" };
	unsigned i;

	SKIP_WITHOUT_FIO();
	for (i = 0; i < sizeof(dists) / sizeof(dists[0]); i++) {
		long long a = footprint("fio", dists[i]), b = footprint(getenv("IOPATH_BIN"), dists[i]);

		cr_assert(b > a * 85 / 100 && b < a * 115 / 100,
			  "%s: fio touched %lld bytes, iopath %lld", dists[i], a, b);
		cr_assert_lt(b, 4 << 20, "%s: no skew", dists[i]);
	}
}

Test(rate, caps_bytes_per_second)
{
	const char *dir = tmpdir_make();
	const char *args[] = { "--name=r", "--ioengine=null", "--size=64m", "--rw=randread",
			       "--rate=2m", "--runtime=1", "--time_based", NULL };
	json_t *root = json_run_in(dir, args);
	long long bytes = job_int(root, 0, "read", "io_bytes");

	/* never above the schedule (one I/O of slack); below only if the machine stalls */
	cr_assert_leq(bytes, (2 << 20) + 4096, "%lld bytes", bytes);
	cr_assert_geq(bytes, (2 << 20) / 2, "%lld bytes", bytes);
	json_decref(root);
}

Test(rate, iops_cap_sets_the_pace)
{
	const char *dir = tmpdir_make();
	const char *args[] = { "--name=r", "--ioengine=null", "--size=1m", "--rw=randread",
			       "--rate_iops=512", NULL };
	json_t *root = json_run_in(dir, args);
	long long ios = job_int(root, 0, "read", "total_ios");
	long long ms = job_int(root, 0, "read", "runtime");

	/* 256 I/Os at 512/s: the last is due at 255/512 s */
	cr_assert_eq(ios, 256);
	cr_assert_geq(ms, 255 * 1000 / 512, "%lld ms", ms);
	json_decref(root);
}

Test(rate, rate_min_not_met_fails_the_job)
{
	const char *dir = tmpdir_make();
	const char *args[] = { "--name=r", "--ioengine=null", "--size=64m", "--rw=randread",
			       "--rate_iops=100", "--rate_iops_min=100", "--thinktime=50ms",
			       "--runtime=4", "--time_based", "--rate_cycle=500", NULL };
	char path[400];
	json_t *root;

	cr_assert_eq(run_tool(getenv("IOPATH_BIN"), dir, "out.json", args), 1);
	snprintf(path, sizeof(path), "%s/out.json", dir);
	root = json_load_path(path);
	cr_assert_neq(job_int(root, 0, NULL, "error"), 0);
	json_decref(root);
}

Test(thinktime, stalls_every_thinktime_blocks)
{
	const char *dir = tmpdir_make();
	const char *args[] = { "--name=t", "--ioengine=null", "--size=64m", "--rw=randread",
			       "--thinktime=10ms", "--thinktime_blocks=8", "--runtime=1",
			       "--time_based", NULL };
	json_t *root = json_run_in(dir, args);
	long long ios = job_int(root, 0, "read", "total_ios");
	long long ms = job_int(root, 0, "read", "runtime");

	/* at most 8 I/Os per 10 ms stall, however fast the engine */
	cr_assert_leq(ios, (ms / 10 + 1) * 8, "%lld I/Os in %lld ms", ios, ms);
	cr_assert_geq(ios, 8);
	json_decref(root);
}

/*
 * rate_iops paces as fio paces it, judged only where load cannot move the figures: in a 1 s
 * time_based run neither goes past 400 I/Os (a busy machine gives fewer, never more), and
 * 100 I/Os at 400 per second take at least the 99 gaps of 2.5 ms the rate allows (the first
 * I/O is not waited for; seen: fio 247-254 ms, iopath 248-257; unpaced, under 1 ms), in
 * iopath as in fio. Their counts in the timed run were compared before, and on a busy
 * machine fio's 401 against iopath's 367 failed that.
 */
Test(side_by_side, rate_iops_paces_as_fio_paces)
{
	const char *timed[] = { "--name=s", "--ioengine=null", "--size=64m", "--rw=randread",
				"--rate_iops=400", "--runtime=1", "--time_based", NULL };
	const char *sized[] = { "--name=s", "--ioengine=null", "--size=400k", "--rw=randread",
				"--rate_iops=400", NULL };
	unsigned t;

	SKIP_WITHOUT_FIO();
	for (t = 0; t < 2; t++) {
		json_t *a = tool_json(t == 0, timed), *b = tool_json(t == 0, sized);
		long long ios = job_int(a, 0, "read", "total_ios"), ms;

		cr_expect(ios > 0 && ios <= 402, "%s: %lld I/Os in 1 s at rate_iops=400",
			  t ? "iopath" : "fio", ios);
		cr_expect_eq(job_int(b, 0, "read", "total_ios"), 100);
		ms = json_integer_value(json_object_get(json_array_get(json_object_get(b, "jobs"), 0),
							"job_runtime"));
		cr_expect_geq(ms, 240, "%s: 100 I/Os at rate_iops=400 in %lld ms",
			      t ? "iopath" : "fio", ms);
		json_decref(a);
		json_decref(b);
	}
}

static json_t *dir_obj(json_t *root, const char *dir, const char *lat)
{
	return json_object_get(json_object_get(json_array_get(json_object_get(root, "jobs"), 0),
					       dir), lat);
}

Test(percentiles, list_and_kinds_as_asked)
{
	const char *dir = tmpdir_make();
	const char *args[] = { "--name=p", "--ioengine=null", "--size=1m", "--rw=randread",
			       "--percentile_list=99.5:50", "--lat_percentiles=1",
			       "--clat_percentiles=0", NULL };
	json_t *root = json_run_in(dir, args), *p;

	p = json_object_get(dir_obj(root, "read", "lat_ns"), "percentile");
	cr_assert_not_null(p);
	cr_assert_eq(json_object_size(p), 2);
	cr_assert_not_null(json_object_get(p, "50.000000"));
	cr_assert_not_null(json_object_get(p, "99.500000"));
	cr_assert_null(json_object_get(dir_obj(root, "read", "clat_ns"), "percentile"));
	json_decref(root);
}

Test(percentiles, default_is_clat_with_fios_list)
{
	const char *dir = tmpdir_make();
	const char *args[] = { "--name=p", "--ioengine=null", "--size=1m", "--rw=randread", NULL };
	json_t *root = json_run_in(dir, args), *p;

	p = json_object_get(dir_obj(root, "read", "clat_ns"), "percentile");
	cr_assert_eq(json_object_size(p), 17);
	cr_assert_null(json_object_get(dir_obj(root, "read", "lat_ns"), "percentile"));
	json_decref(root);
}

/* Lines of a file, and the fields of its first line. */
static unsigned file_lines(const char *dir, const char *name, unsigned *fields)
{
	char path[400], line[256];
	unsigned n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	cr_assert_not_null(f, "no %s", path);
	*fields = 0;
	while (fgets(line, sizeof(line), f)) {
		if (!n) {
			char *p;

			for (p = line, *fields = 1; (p = strchr(p, ',')); p++)
				(*fields)++;
		}
		n++;
	}
	fclose(f);
	return n;
}

Test(logs, an_entry_per_io_in_fios_files)
{
	const char *dir = tmpdir_make();
	const char *args[] = { "--name=j", "--ioengine=null", "--size=1m", "--rw=randread",
			       "--write_bw_log=foo", "--write_iops_log=foo", "--write_lat_log",
			       "--numjobs=2", NULL };
	static const char *const names[] = { "foo_bw.1.log", "foo_bw.2.log", "foo_iops.2.log",
					     "j_clat.1.log", "j_lat.2.log" };
	unsigned i, fields;

	json_decref(json_run_in(dir, args));
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		cr_assert_eq(file_lines(dir, names[i], &fields), 256, "%s", names[i]);
		/* time, value, direction, block size, priority */
		cr_assert_eq(fields, 5, "%s", names[i]);
	}
	cr_assert_geq(file_len(dir, "j_slat.1.log"), 0);
}

Test(logs, log_offset_adds_a_field_and_shared_logs_take_every_worker)
{
	const char *dir = tmpdir_make();
	const char *args[] = { "--name=j", "--ioengine=null", "--size=64k", "--rw=randwrite",
			       "--write_lat_log=s", "--log_offset=1", "--per_job_logs=0",
			       "--numjobs=2", NULL };
	unsigned fields;

	json_decref(json_run_in(dir, args));
	cr_assert_eq(file_lines(dir, "s_clat.log", &fields), 32);
	cr_assert_eq(fields, 6);
}

Test(logs, log_avg_msec_writes_a_line_per_window_and_direction)
{
	const char *dir = tmpdir_make();
	const char *args[] = { "--name=w", "--ioengine=null", "--size=64m", "--rw=randrw",
			       "--write_iops_log", "--log_avg_msec=100", "--rate_iops=200",
			       "--runtime=1", "--time_based", NULL };
	unsigned lines, fields;

	json_decref(json_run_in(dir, args));
	lines = file_lines(dir, "w_iops.1.log", &fields);
	/* ten 100 ms windows, two directions; a slow machine may merge a window or two */
	cr_assert(lines >= 14 && lines <= 20, "%u lines", lines);
	cr_assert_eq(fields, 5);
}

Test(side_by_side, log_files_and_lines_as_fio_writes_them)
{
	const char *dir = tmpdir_make();
	const char *args[] = { "--name=j", "--ioengine=null", "--size=1m", "--rw=randread",
			       "--write_bw_log=foo", "--write_iops_log=foo", "--write_lat_log=foo",
			       "--numjobs=2", NULL };
	static const char *const names[] = { "foo_bw.1.log", "foo_bw.2.log", "foo_iops.1.log",
					     "foo_clat.2.log", "foo_lat.1.log" };
	char fdir[400], idir[400];
	unsigned i, ff, fi;

	SKIP_WITHOUT_FIO();
	snprintf(fdir, sizeof(fdir), "%s/fio", dir);
	snprintf(idir, sizeof(idir), "%s/iopath", dir);
	cr_assert_eq(mkdir(fdir, 0755), 0);
	cr_assert_eq(mkdir(idir, 0755), 0);
	cr_assert_eq(run_tool("fio", fdir, "fio.json", args), 0);
	cr_assert_eq(run_tool(getenv("IOPATH_BIN"), idir, "iopath.json", args), 0);
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		unsigned a = file_lines(fdir, names[i], &ff), b = file_lines(idir, names[i], &fi);

		cr_assert_eq(a, b, "%s: fio %u lines, iopath %u", names[i], a, b);
		cr_assert_eq(ff, fi, "%s: fio %u fields, iopath %u", names[i], ff, fi);
	}
	/* both write the slat file, empty or not */
	cr_assert_geq(file_len(fdir, "foo_slat.1.log"), 0);
	cr_assert_geq(file_len(idir, "foo_slat.1.log"), 0);
}

/* The offset of the first entry of a log written with log_offset=1. */
static long long first_offset(const char *dir, const char *name)
{
	char path[400];
	unsigned long long t, v, d, bs, off;
	FILE *f;
	int n;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	cr_assert_not_null(f, "no %s", path);
	n = fscanf(f, "%llu, %llu, %llu, %llu, %llu", &t, &v, &d, &bs, &off);
	fclose(f);
	cr_assert_eq(n, 5, "%s", path);
	return (long long)off;
}

/* offset_increment=25% of a 4 MiB file: workers at 0, 1m, 2m, 3m, in fio's log numbering. */
Test(side_by_side, offset_increment_percent_and_log_numbering)
{
	const char *dir = tmpdir_make();
	const char *args[] = { "--allow-overwrite", "--name=a", "--filename=f", "--size=256k",
			       "--offset_increment=25%", "--numjobs=4", "--rw=read",
			       "--write_iops_log=o", "--log_offset=1", NULL };
	char sub[2][400], name[32], cmd[900];
	unsigned i, k;

	SKIP_WITHOUT_FIO();
	for (k = 0; k < 2; k++) {
		snprintf(sub[k], sizeof(sub[k]), "%s/%s", dir, k ? "iopath" : "fio");
		cr_assert_eq(mkdir(sub[k], 0755), 0);
		snprintf(cmd, sizeof(cmd), "head -c 4194304 /dev/zero > %s/f", sub[k]);
		cr_assert_eq(system(cmd), 0);
	}
	/* fio does not know --allow-overwrite: it is iopath's */
	cr_assert_eq(run_tool("fio", sub[0], "fio.json", args + 1), 0);
	cr_assert_eq(run_tool(getenv("IOPATH_BIN"), sub[1], "iopath.json", args), 0);
	for (i = 1; i <= 4; i++) {
		snprintf(name, sizeof(name), "o_iops.%u.log", i);
		cr_assert_eq(first_offset(sub[0], name), first_offset(sub[1], name), "%s", name);
	}
	cr_assert_eq(first_offset(sub[1], "o_iops.2.log"), 3 << 20);
}

/*
 * random_distribution=sequence (fio's t/sequence.py): 4k blocks 2, 0, 1 over and over, or
 * moved on by the sequence's length each cycle with random_sequence_stride=1. want: the
 * blocks read, in order.
 */
static void check_sequence(const char *stride, const char *want)
{
	const char *dir = tmpdir_make();
	char st[64], lg[400], log[360];
	const char *args[] = { "--name=q", "--ioengine=null", "--rw=randread", "--bs=4k",
			       "--size=48k", "--io_size=24k", "--random_distribution=sequence:2,0,1",
			       st, lg, NULL };
	char *got;

	snprintf(st, sizeof(st), "--random_sequence_stride=%s", stride);
	snprintf(log, sizeof(log), "%s/q.log", dir);
	snprintf(lg, sizeof(lg), "--write_iolog=%s", log);
	cr_assert_eq(run_tool(getenv("IOPATH_BIN"), dir, "out.json", args), 0);
	got = sh_out("awk '$3==\"read\"{printf \"%%d \", $4/4096}' '%s'", log);
	cr_assert_str_eq(got, want);
	free(got);
}

Test(workopts, sequence_distribution_repeats_its_blocks)
{
	check_sequence("0", "2 0 1 2 0 1 ");
}

Test(workopts, sequence_distribution_with_stride_moves_on_each_cycle)
{
	check_sequence("1", "2 0 1 5 3 4 ");
}

/*
 * sprandom (fio's SanDisk preconditioning): random writes of the physical size (the file plus
 * spr_op) that write every block, some several times (the share each region leaves invalid).
 */
Test(workopts, sprandom_writes_every_block_and_the_over_provisioning)
{
	const char *dir = tmpdir_make();
	char lg[400], log[360], *line;
	const char *args[] = { "--name=p", "--size=4m", "--rw=randwrite", "--bs=4k", "--sprandom=1",
			       "--spr_op=0.15", "--spr_num_regions=20", lg, NULL };
	json_t *root;
	long long bytes;

	snprintf(log, sizeof(log), "%s/p.log", dir);
	snprintf(lg, sizeof(lg), "--write_iolog=%s", log);
	root = json_run_in(dir, args);
	bytes = job_int(root, 0, "write", "io_bytes");
	/* at most the physical size, 4 MiB * 1.15; the regions end a little before it */
	cr_assert(bytes > (4ll << 20) && bytes <= (4ll << 20) * 115 / 100 + 4096, "%lld bytes", bytes);
	json_decref(root);
	line = sh_out("awk '$3==\"write\"{print $4}' '%s' | sort -u | wc -l", log);
	cr_assert_eq(atoi(line), 1024, "%s of 1024 blocks written", line);
	free(line);
}

Test(workopts, sprandom_refuses_a_job_it_cannot_model)
{
	const char *dir = tmpdir_make();
	const char *args[] = { "--name=p", "--size=4m", "--rw=randread", "--sprandom=1", NULL };

	cr_assert_eq(run_tool(getenv("IOPATH_BIN"), dir, "out.json", args), 2);
}
