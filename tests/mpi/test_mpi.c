/* MPI tests (make mpi-test): ranks under mpirun on this machine, and rank 0's merged result. */
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"

#define NP "4"

/*
 * mpirun with the arguments after it; "BIN" stands for the iopath under test (so that an
 * MPMD line "A : B" can name it twice).
 */
static struct run_out mpirun(const char *arg, ...) __attribute__((sentinel));

/* mpirun started in the background, its output going to temporary files. */
static struct run_bg mpirun_startv(const char *arg, va_list ap)
{
	const char *bin = getenv("IOPATH_BIN");
	char *argv[96];
	unsigned n = 0;

	cr_assert_not_null(bin, "IOPATH_BIN is not set (run through 'make mpi-test')");
	argv[n++] = (char *)"mpirun";
	argv[n++] = (char *)"--oversubscribe";
	argv[n++] = (char *)"--allow-run-as-root";
	for (; arg && n < 95; arg = va_arg(ap, const char *))
		argv[n++] = (char *)(strcmp(arg, "BIN") ? arg : bin);
	argv[n] = NULL;
	return prog_startv("mpirun", argv, NULL);
}

static struct run_bg mpirun_start(const char *arg, ...) __attribute__((sentinel));

static struct run_bg mpirun_start(const char *arg, ...)
{
	struct run_bg b;
	va_list ap;

	va_start(ap, arg);
	b = mpirun_startv(arg, ap);
	va_end(ap);
	return b;
}

static struct run_out mpirun(const char *arg, ...)
{
	struct run_bg b;
	va_list ap;

	va_start(ap, arg);
	b = mpirun_startv(arg, ap);
	va_end(ap);
	return iopath_wait(&b, 0);
}

static json_t *get(json_t *o, const char *path)
{
	char buf[256], *tok, *save = NULL;

	snprintf(buf, sizeof(buf), "%s", path);
	for (tok = strtok_r(buf, ".", &save); tok && o; tok = strtok_r(NULL, ".", &save))
		o = json_is_array(o) ? json_array_get(o, (size_t)atoi(tok)) : json_object_get(o, tok);
	cr_assert_not_null(o, "no %s", path);
	return o;
}

static long long num(json_t *o, const char *path)
{
	json_t *v = get(o, path);

	return json_is_integer(v) ? json_integer_value(v) : (long long)json_real_value(v);
}

static double real(json_t *o, const char *path)
{
	return json_number_value(get(o, path));
}

Test(mpi, merged_histogram_is_the_sum_of_the_ranks_bucket_by_bucket)
{
	const char *dir = tmpdir_make();
	char ro[512], out[512], path[600];
	json_t *all, *ranks[4], *bins, *v;
	long long bytes = 0, ios = 0;
	const char *key;
	struct run_out r;
	unsigned i;

	snprintf(ro, sizeof(ro), "--mpi-rank-output=%s", dir);
	snprintf(out, sizeof(out), "--output=%s/all.json", dir);
	r = mpirun("-np", NP, "BIN", ro, "--name=r", "--ioengine=null", "--rw=randread",
		   "--size=8m", "--bs=4k", "--output-format=json+", out, NULL);
	cr_assert_eq(r.status, 0, "status %d: %s", r.status, r.err);
	snprintf(path, sizeof(path), "%s/all.json", dir);
	all = json_load_path(path);
	for (i = 0; i < 4; i++) {
		snprintf(path, sizeof(path), "%s/rank-%u.json", dir, i);
		ranks[i] = json_load_path(path);
		bytes += num(ranks[i], "jobs.0.read.io_bytes");
		ios += num(ranks[i], "jobs.0.read.total_ios");
	}
	cr_assert_eq(num(all, "jobs.0.read.io_bytes"), bytes);
	cr_assert_eq(num(all, "jobs.0.read.io_bytes"), 4ll * 8 * 1024 * 1024);
	cr_assert_eq(num(all, "jobs.0.read.total_ios"), ios);
	bins = get(all, "jobs.0.read.clat_ns.bins");
	json_object_foreach(bins, key, v) {
		long long sum = 0;

		for (i = 0; i < 4; i++) {
			json_t *b = json_object_get(get(ranks[i], "jobs.0.read.clat_ns.bins"), key);

			sum += b ? json_integer_value(b) : 0;
		}
		cr_assert_eq(json_integer_value(v), sum, "bucket %s", key);
	}
	/* and no rank has a bucket the merge lost */
	for (i = 0; i < 4; i++)
		json_object_foreach(get(ranks[i], "jobs.0.read.clat_ns.bins"), key, v)
			cr_assert_not_null(json_object_get(bins, key), "bucket %s of rank %u", key, i);
	/* fio's client/server shape: every rank's job with its hostname, then "All clients" */
	cr_assert_eq(json_array_size(get(all, "client_stats")), 5);
	cr_assert_str_eq(json_string_value(get(all, "client_stats.4.jobname")), "All clients");
	cr_assert_not_null(json_string_value(get(all, "client_stats.0.hostname")));
	cr_assert_eq(num(all, "client_stats.4.read.io_bytes"), bytes);
	cr_assert_eq(num(all, "iopath.mpi.ranks"), 4);
	for (i = 0; i < 4; i++)
		json_decref(ranks[i]);
	json_decref(all);
	run_out_free(&r);
	tmpdir_cleanup();
}

/* cmdprio: each rank's latencies per priority reach rank 0 and merge priority by priority. */
Test(mpi, latencies_per_priority_merge_across_ranks)
{
	const char *dir = tmpdir_make();
	char ro[512], out[512], fn[512], path[600];
	json_t *all, *prios, *e;
	long long n = 0, rt = 0;
	struct run_out r;
	size_t i;

	if (!is_root())
		cr_skip_test("the real-time I/O class needs root (CAP_SYS_ADMIN)");
	snprintf(ro, sizeof(ro), "--mpi-rank-output=%s", dir);
	snprintf(out, sizeof(out), "--output=%s/all.json", dir);
	snprintf(fn, sizeof(fn), "--directory=%s", dir);
	r = mpirun("-np", "2", "BIN", ro, "--name=p", "--ioengine=libaio", "--direct=1", fn,
		   "--rw=randread", "--size=1m", "--bs=4k", "--iodepth=2", "--cmdprio_percentage=50",
		   "--output-format=json", out, NULL);
	cr_assert_eq(r.status, 0, "status %d: %s", r.status, r.err);
	snprintf(path, sizeof(path), "%s/all.json", dir);
	all = json_load_path(path);
	prios = get(all, "jobs.0.read.prios");
	cr_assert(json_is_array(prios), "no merged read prios");
	json_array_foreach(prios, i, e) {
		long long en = json_integer_value(json_object_get(json_object_get(e, "clat_ns"), "N"));

		n += en;
		if (json_integer_value(json_object_get(e, "prioclass")) == 1)
			rt += en;
	}
	/* both ranks' 256 reads each, about half of them real-time */
	cr_assert_eq(n, num(all, "jobs.0.read.clat_ns.N"));
	cr_assert_eq(n, 512);
	cr_assert(rt > 150 && rt < 362, "%lld of 512 reads real-time", rt);
	json_decref(all);
	run_out_free(&r);
	tmpdir_cleanup();
}

Test(mpi, a_failing_rank_is_reported_with_its_rank_and_the_others_are_kept)
{
	const char *dir = tmpdir_make();
	char d[512], out[512], path[600];
	struct run_out r;
	json_t *all;
	unsigned i;

	for (i = 0; i < 4; i++) {
		snprintf(path, sizeof(path), "%s/d%u", dir, i);
		if (i != 2)
			cr_assert_eq(mkdir(path, 0755), 0);
	}
	/* rank 2's directory is missing */
	snprintf(d, sizeof(d), "--directory=%s/d${RANK}", dir);
	snprintf(out, sizeof(out), "--output=%s/all.json", dir);
	r = mpirun("-np", NP, "BIN", "--name=w", d, "--rw=write", "--size=1m", "--bs=64k",
		   "--output-format=json", out, NULL);
	cr_assert_neq(r.status, 0, "a failed rank must fail the run: %s", r.err);
	cr_assert(strstr(r.err, "rank 2"), "stderr does not name rank 2: %s", r.err);
	snprintf(path, sizeof(path), "%s/all.json", dir);
	all = json_load_path(path);
	cr_assert_str_eq(json_string_value(get(all, "iopath.mpi.rank_info.2.status")), "failed");
	cr_assert(strstr(json_string_value(get(all, "iopath.mpi.rank_info.2.error_message")), "d2"));
	cr_assert_neq(num(all, "client_stats.2.error"), 0);
	cr_assert_eq(num(all, "jobs.0.write.io_bytes"), 3ll * 1024 * 1024);
	cr_assert(strstr(json_string_value(get(all, "jobs.0.iopath.error_message")), "rank 2"));
	json_decref(all);
	run_out_free(&r);
	tmpdir_cleanup();
}

/*
 * continue_on_error across ranks: every rank's errors are counted in the merged result (each
 * rank's 64k file on faultfs fails every 4th 4k write with ENOSPC, which the job goes on after).
 */
Test(mpi, errors_ranks_went_on_after_are_summed)
{
	const char *dir = tmpdir_make();
	char back[512], out[512], fname[600], path[600];
	struct run_out r;
	json_t *all;

	snprintf(back, sizeof(back), "%s/back", dir);
	snprintf(test_mnt, sizeof(test_mnt), "%s/mnt", dir);
	/* the files exist (their creation and its mark would meet the injected errors too) */
	cr_assert_eq(sh("mkdir -p %s && for i in 0 1 2 3; do head -c 65536 /dev/zero > %s/f$i; done",
			back, back), 0);
	faultfs_mount(back, test_mnt, "--eio-write-after=0 --errno=28 --fail-every=4");
	snprintf(fname, sizeof(fname), "--filename=%s/f${RANK}", test_mnt);
	snprintf(out, sizeof(out), "--output=%s/all.json", dir);
	r = mpirun("-np", NP, "BIN", "--name=w", fname, "--rw=write", "--size=64k", "--bs=4k",
		   "--continue_on_error=write", "--ignore_error=,ENOSPC", "--overwrite=1",
		   "--output-format=json", out, NULL);
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	snprintf(path, sizeof(path), "%s/all.json", dir);
	all = json_load_path(path);
	cr_assert_eq(num(all, "jobs.0.total_err"), 4ll * 4, "every rank's errors");
	cr_assert_eq(num(all, "jobs.0.first_error"), 28);
	cr_assert_eq(num(all, "jobs.0.write.total_ios"), 4ll * 16, "failed writes count as issued");
	json_decref(all);
	run_out_free(&r);
	mount_cleanup();
}

Test(mpi, a_straggler_shows_in_the_stonewall_window)
{
	const char *dir = tmpdir_make();
	char d[512], out[512], path[600];
	struct run_out r;
	json_t *all;

	/*
	 * MPMD, one command line per kind of rank: three ranks run 1 s, rank 3 runs 4 s (the
	 * null engine: no disk, only time; the ranks start the phase together). By time, not by
	 * an amount of work: with 8x the bytes, a busy machine once let a fast rank end last.
	 */
	snprintf(d, sizeof(d), "--directory=%s", dir);
	snprintf(out, sizeof(out), "--output=%s/all.json", dir);
	r = mpirun("-np", "3", "BIN", "--name=s", d, "--ioengine=null", "--rw=write",
		   "--size=256m", "--bs=512", "--time_based", "--runtime=1s",
		   "--output-format=json", out, ":", "-np", "1", "BIN", "--name=s", d,
		   "--ioengine=null", "--rw=write", "--size=256m", "--bs=512", "--time_based",
		   "--runtime=4s", "--output-format=json", out, NULL);
	cr_assert_eq(r.status, 0, "status %d: %s", r.status, r.err);
	snprintf(path, sizeof(path), "%s/all.json", dir);
	all = json_load_path(path);
	cr_assert_gt(num(all, "jobs.0.write.io_bytes"), 0);
	cr_assert_eq(num(all, "jobs.0.iopath.mpi.last_finished.rank"), 3);
	/* the window closes when the first rank is done; the straggler had not finished then */
	cr_assert_float_eq(real(all, "jobs.0.iopath.mpi.stonewall.end_ms"),
			   real(all, "jobs.0.iopath.mpi.first_finished.end_ms"), 1e-6);
	cr_assert_lt(real(all, "jobs.0.iopath.mpi.stonewall.end_ms"),
		     real(all, "jobs.0.iopath.mpi.wall.end_ms"));
	cr_assert_lt(num(all, "jobs.0.iopath.mpi.stonewall.io_bytes"),
		     num(all, "jobs.0.iopath.mpi.wall.io_bytes"));
	cr_assert_gt(num(all, "jobs.0.iopath.mpi.stonewall.io_bytes"), 0);
	json_decref(all);
	run_out_free(&r);
	tmpdir_cleanup();
}

Test(mpi, one_file_written_by_every_rank_is_refused_unless_intended)
{
	const char *dir = tmpdir_make();
	char f[512], path[600];
	struct run_out r;

	snprintf(f, sizeof(f), "--filename=%s/shared", dir);
	r = mpirun("-np", "2", "BIN", "--name=w", f, "--rw=write", "--size=1m", NULL);
	cr_assert_neq(r.status, 0);
	cr_assert(strstr(r.err, "--mpi-shared-files"), "%s", r.err);
	run_out_free(&r);
	r = mpirun("-np", "2", "BIN", "--mpi-shared-files", "--name=w", f, "--rw=write",
		   "--size=1m", NULL);
	cr_assert_eq(r.status, 0, "status %d: %s", r.status, r.err);
	snprintf(path, sizeof(path), "%s/shared", dir);
	cr_assert_eq(access(path, F_OK), 0);
	run_out_free(&r);
	tmpdir_cleanup();
}

Test(mpi, a_sweep_runs_on_every_rank_and_rank_0_writes_it)
{
	const char *dir = tmpdir_make();
	char t[512], j[512];
	struct run_out r;
	json_t *s;

	snprintf(t, sizeof(t), "disk=%s", dir);
	snprintf(j, sizeof(j), "%s/s.json", dir);
	r = mpirun("-np", "2", "BIN", "sweep", "--engine", "psync,io_uring", "--iodepth", "1",
		   "--bs", "4k", "--direct", "0", "--target", t, "--runtime", "0", "--size", "1m",
		   "--json", j, NULL);
	cr_assert_eq(r.status, 0, "status %d: %s", r.status, r.err);
	s = json_load_path(j);
	cr_assert_eq(json_array_size(get(s, "cells")), 2);
	cr_assert_str_eq(json_string_value(get(s, "cells.0.status")), "ok");
	json_decref(s);
	run_out_free(&r);
	tmpdir_cleanup();
}

/* ---- iopath suite vm-paths under mpirun ---- */

/* How many directories the suite left in dir (its own are named iopath-suite.*). */
static unsigned suite_leftovers(const char *dir)
{
	char *out = sh_out("ls -a '%s' | grep -c '^iopath-suite\\.'", dir);
	unsigned n = (unsigned)strtoul(out, NULL, 10);

	free(out);
	return n;
}

/* The row of the suite's table for test on target from (to the same target). */
static json_t *suite_row(json_t *root, const char *test, const char *from)
{
	json_t *row;
	size_t i;

	json_array_foreach(get(root, "iopath.suite.rows"), i, row)
		if (!strcmp(json_string_value(get(row, "test")), test) &&
		    !strcmp(json_string_value(get(row, "from")), from) &&
		    !strcmp(json_string_value(get(row, "to")), from))
			return row;
	cr_assert_fail("no row %s on %s", test, from);
	return NULL;
}

/* Every merged job moved what the ranks' own jobs (their rank files) moved together. */
static void assert_merged_is_the_sum(json_t *all, json_t **ranks, unsigned nr)
{
	static const char *const dirs[] = { "read", "write" };
	json_t *job;
	size_t k;
	unsigned i, d;

	cr_assert_gt(json_array_size(get(all, "jobs")), 0);
	json_array_foreach(get(all, "jobs"), k, job) {
		const char *name = json_string_value(get(job, "jobname"));

		for (d = 0; d < 2; d++) {
			long long sum = 0, ios = 0;
			char path[64];

			for (i = 0; i < nr; i++) {
				json_t *own = json_array_get(get(ranks[i], "jobs"), k);

				cr_assert_not_null(own, "rank %u has no job %zu (%s)", i, k, name);
				cr_assert_str_eq(json_string_value(get(own, "jobname")), name);
				snprintf(path, sizeof(path), "%s.io_bytes", dirs[d]);
				sum += num(own, path);
				snprintf(path, sizeof(path), "%s.total_ios", dirs[d]);
				ios += num(own, path);
			}
			snprintf(path, sizeof(path), "%s.io_bytes", dirs[d]);
			cr_assert_eq(num(job, path), sum, "%s: %s bytes", name, dirs[d]);
			snprintf(path, sizeof(path), "%s.total_ios", dirs[d]);
			cr_assert_eq(num(job, path), ios, "%s: %s I/Os", name, dirs[d]);
		}
	}
	for (i = 0; i < nr; i++)
		cr_assert_eq(json_array_size(get(ranks[i], "jobs")), json_array_size(get(all, "jobs")));
}

Test(mpi, a_suite_runs_on_every_rank_and_rank_0_writes_one_merged_table)
{
	const char *dir = tmpdir_make();
	char t1[512], ro[512], out[512], path[600];
	json_t *all, *ranks[2], *row;
	const char *p;
	unsigned i, tables = 0;
	size_t k;
	struct run_out r;

	snprintf(t1, sizeof(t1), "disk=%s", dir);
	snprintf(ro, sizeof(ro), "--mpi-rank-output=%s", dir);
	snprintf(out, sizeof(out), "--output=%s/all.json", dir);
	r = mpirun("-np", "2", "BIN", "suite", "vm-paths", "--target", t1, "--target",
		   "shm=/dev/shm", "--repeat", "1", "--scale=1/2048", ro,
		   "--output-format=normal,json", out, NULL);
	cr_assert_eq(r.status, 0, "status %d: %s", r.status, r.err);
	/* one table, from rank 0 */
	for (p = r.out; (p = strstr(p, "iopath suite vm-paths:")); p++)
		tables++;
	cr_assert_eq(tables, 1, "%s", r.out);
	cr_assert(strstr(r.out, "MPI: 2 ranks on 1 host"), "%s", r.out);
	snprintf(path, sizeof(path), "%s/all.json", dir);
	all = json_load_path(path);
	for (i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/rank-%u.json", dir, i);
		ranks[i] = json_load_path(path);
		cr_assert_eq(num(ranks[i], "iopath.mpi.rank"), i);
	}
	cr_assert_eq(num(all, "iopath.mpi.ranks"), 2);
	cr_assert_eq(json_array_size(get(all, "iopath.suite.rows")), 4 + 2 * 10);
	json_array_foreach(get(all, "iopath.suite.rows"), k, row)
		cr_assert_eq(num(row, "n"), 1, "%s on %s: %s", json_string_value(get(row, "test")),
			     json_string_value(get(row, "from")),
			     json_string_value(json_object_get(row, "error")));
	assert_merged_is_the_sum(all, ranks, 2);
	/* the small-file loop's files, counted over both ranks */
	json_array_foreach(get(all, "jobs"), k, row)
		if (json_object_get(row, "metadata"))
			cr_assert_eq(num(row, "metadata.files"),
				     num(json_array_get(get(ranks[0], "jobs"), k), "metadata.files") +
				     num(json_array_get(get(ranks[1], "jobs"), k), "metadata.files"));
	/* each rank had its own directories, and removed them */
	cr_assert_neq(strcmp(json_string_value(get(ranks[0], "iopath.suite.targets.0.files")),
			     json_string_value(get(ranks[1], "iopath.suite.targets.0.files"))), 0);
	cr_assert(strstr(json_string_value(get(ranks[1], "iopath.suite.targets.0.files")),
			 "iopath-suite.rank1."));
	cr_assert_eq(suite_leftovers(dir), 0);
	for (i = 0; i < 2; i++)
		json_decref(ranks[i]);
	json_decref(all);
	run_out_free(&r);
	tmpdir_cleanup();
}

/*
 * --mpi-rank-output DIR found fine at the start, full at the end: each rank keeps its own
 * result in its fallback file, named on stderr, and the suite exits 1; rank 0's merged
 * output is written as asked.
 */
Test(mpi, a_rank_output_that_fails_at_the_end_keeps_each_ranks_result)
{
	const char *dir = tmpdir_make();
	char t1[512], ro[600], out[512], path[600], *p, kept[600];
	unsigned i;
	struct run_out r;
	json_t *j;

	snprintf(test_mnt, sizeof(test_mnt), "%s/full", dir);
	test_mount(test_mnt, "tmpfs", 0, "size=64k", "a small tmpfs");
	sh("dd if=/dev/zero of='%s/filler' bs=4k 2>/dev/null", test_mnt);
	snprintf(t1, sizeof(t1), "disk=%s", dir);
	snprintf(ro, sizeof(ro), "--mpi-rank-output=%s", test_mnt);
	snprintf(out, sizeof(out), "--output=%s/all.json", dir);
	setenv("TMPDIR", dir, 1);
	r = mpirun("-np", "2", "BIN", "suite", "vm-paths", "--target", t1, "--repeat", "1",
		   "--scale=1/2048", ro, "--output-format=json", out, NULL);
	unsetenv("TMPDIR");
	cr_assert_eq(r.status, 1, "status %d: %s", r.status, r.err);
	for (i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "iopath: rank %u: --mpi-rank-output: cannot write", i);
		p = strstr(r.err, path);
		cr_assert_not_null(p, "rank %u says nothing: %s", i, r.err);
		p = strstr(p, "own result is kept in ");
		cr_assert_not_null(p, "rank %u names no fallback: %s", i, r.err);
		cr_assert_eq(sscanf(p, "own result is kept in %599s", kept), 1);
		j = json_load_path(kept);
		cr_assert_not_null(j, "rank %u's fallback %s is not JSON", i, kept);
		cr_assert_eq(num(j, "iopath.mpi.rank"), i);
		json_decref(j);
	}
	snprintf(path, sizeof(path), "%s/all.json", dir);
	j = json_load_path(path);
	cr_assert_not_null(j, "rank 0's merged output is lost");
	json_decref(j);
	run_out_free(&r);
	mount_cleanup();
}

Test(mpi, a_path_refusing_direct_on_one_rank_sends_every_rank_to_direct_0)
{
	static const char *const rand_tests[] = { "randread-4k-qd1", "randread-4k-qd32",
						  "randwrite-4k-qd32" };
	const char *dir = tmpdir_make();
	char t[512], ro[512], out[512], path[600];
	json_t *all, *ranks[3], *row, *job;
	struct run_out r;
	unsigned i, k;
	size_t j;

	if (!is_root())
		cr_skip_test("needs root to mount a ramfs (a path that refuses O_DIRECT) for one rank");
	for (i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "%s/d%u", dir, i);
		cr_assert_eq(mkdir(path, 0755), 0);
	}
	/* rank 1's disk is a ramfs: O_DIRECT opens fail there with EINVAL */
	if (sh("mount -t ramfs ramfs '%s/d1' 2>/dev/null", dir))
		cr_skip_test("cannot mount a ramfs here");
	snprintf(t, sizeof(t), "disk=%s/d${RANK}", dir);
	snprintf(ro, sizeof(ro), "--mpi-rank-output=%s", dir);
	snprintf(out, sizeof(out), "--output=%s/all.json", dir);
	r = mpirun("-np", "3", "BIN", "suite", "vm-paths", "--target", t, "--repeat", "2",
		   "--scale=1/2048", ro, "--output-format=json", out, NULL);
	sh("umount '%s/d1'", dir);
	cr_assert_eq(r.status, 0, "status %d: %s", r.status, r.err);
	snprintf(path, sizeof(path), "%s/all.json", dir);
	all = json_load_path(path);
	for (i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "%s/rank-%u.json", dir, i);
		ranks[i] = json_load_path(path);
	}
	/* the random rows fell back on every rank, saying which rank refused and why */
	for (k = 0; k < 3; k++) {
		row = suite_row(all, rand_tests[k], "disk");
		cr_assert(json_is_true(get(row, "direct_fallback")), "%s", rand_tests[k]);
		cr_assert_eq(num(row, "n"), 2, "%s", rand_tests[k]);
		cr_assert(strstr(json_string_value(get(row, "note")), "rank 1 ("), "%s",
			  json_string_value(get(row, "note")));
		cr_assert(strstr(json_string_value(get(row, "note")), "ramfs"));
	}
	cr_assert(json_is_false(get(suite_row(all, "dd-zero", "disk"), "direct_fallback")));
	/* and every rank measured them with direct=0: the merge is of like with like */
	for (i = 0; i < 3; i++)
		json_array_foreach(get(ranks[i], "jobs"), j, job)
			if (strstr(json_string_value(get(job, "jobname")), "rand"))
				cr_assert_str_eq(json_string_value(get(job, "job options.direct")), "0",
						 "rank %u: %s", i,
						 json_string_value(get(job, "jobname")));
	assert_merged_is_the_sum(all, ranks, 3);
	for (i = 0; i < 3; i++)
		json_decref(ranks[i]);
	json_decref(all);
	run_out_free(&r);
	tmpdir_cleanup();
}

Test(mpi, a_rank_that_cannot_set_up_the_suite_is_named_and_nothing_runs)
{
	const char *dir = tmpdir_make();
	char t[512], path[600];
	struct run_out r;

	/* rank 1's directory is missing */
	snprintf(path, sizeof(path), "%s/d0", dir);
	cr_assert_eq(mkdir(path, 0755), 0);
	snprintf(t, sizeof(t), "disk=%s/d${RANK}", dir);
	r = mpirun("-np", "2", "BIN", "suite", "vm-paths", "--target", t, "--repeat", "1",
		   "--scale=1/2048", NULL);
	cr_assert_eq(r.status, 2, "status %d: %s", r.status, r.err);
	cr_assert(strstr(r.err, "rank 1 ("), "%s", r.err);
	cr_assert(strstr(r.err, "d1"), "%s", r.err);
	cr_assert_null(strstr(r.out, "iopath suite vm-paths:"), "%s", r.out);
	cr_assert_eq(suite_leftovers(path), 0);
	run_out_free(&r);
	tmpdir_cleanup();
}

Test(mpi, sigusr1_stops_a_suite_on_every_rank_and_keeps_what_was_measured)
{
	const char *dir = tmpdir_make(), *holds = tmpdir_make();
	char t1[512], out[512], path[600], hold[600];
	struct run_bg b;
	struct run_out r;
	json_t *all, *row;
	unsigned measured = 0, rank;
	bool held = true;
	size_t k;

	snprintf(t1, sizeof(t1), "disk=%s", dir);
	snprintf(out, sizeof(out), "--output=%s/all.json", dir);
	/* each rank holds once its first run is measured (hold.rank0, hold.rank1) */
	snprintf(hold, sizeof(hold), "%s/hold", holds);
	setenv("IOPATH_TEST_HOLD_SUITE", hold, 1);
	/* far longer than the test: 20 repeats of the whole suite */
	b = mpirun_start("-np", "2", "-x", "IOPATH_TEST_HOLD_SUITE", "BIN", "suite", "vm-paths",
			 "--target", t1, "--target", "shm=/dev/shm", "--repeat", "20",
			 "--scale=1/200", "--output-format=json", out, NULL);
	unsetenv("IOPATH_TEST_HOLD_SUITE");
	for (rank = 0; rank < 2 && held; rank++) {
		snprintf(path, sizeof(path), "%s.rank%u", hold, rank);
		held = wait_for_file(path, 300);
	}
	kill(b.pid, held ? SIGUSR1 : SIGKILL);
	r = iopath_wait(&b, 120);
	cr_assert(held, "rank %u never held after its first run: %s", rank - 1, r.err);
	cr_assert_eq(r.status, 130, "status %d: %s", r.status, r.err);
	snprintf(path, sizeof(path), "%s/all.json", dir);
	all = json_load_path(path);
	cr_assert(json_is_true(get(all, "iopath.interrupted")));
	json_array_foreach(get(all, "iopath.suite.rows"), k, row)
		measured += num(row, "n") > 0;
	cr_assert_gt(measured, 0, "nothing measured, though every rank had measured a run");
	cr_assert_eq(suite_leftovers(dir), 0);
	json_decref(all);
	run_out_free(&r);
	tmpdir_cleanup();
}

Test(mpi, a_sweep_cell_one_rank_must_skip_is_skipped_by_every_rank)
{
	const char *dir = tmpdir_make();
	char t[512], j[512], path[600];
	struct run_out r;
	unsigned i;
	json_t *s;

	if (!is_root())
		cr_skip_test("needs root to mount a ramfs (a path that refuses O_DIRECT) for one rank");
	for (i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/d%u", dir, i);
		cr_assert_eq(mkdir(path, 0755), 0);
	}
	/* rank 1's target refuses O_DIRECT, so its probe skips the direct=1 cells */
	if (sh("mount -t ramfs ramfs '%s/d1' 2>/dev/null", dir))
		cr_skip_test("cannot mount a ramfs here");
	snprintf(t, sizeof(t), "disk=%s/d${RANK}", dir);
	snprintf(j, sizeof(j), "%s/s.json", dir);
	r = mpirun("-np", "2", "BIN", "sweep", "--engine", "psync", "--iodepth", "1", "--bs", "4k",
		   "--direct", "0,1", "--target", t, "--runtime", "0", "--size", "1m", "--json", j,
		   NULL);
	sh("umount '%s/d1'", dir);
	cr_assert_eq(r.status, 0, "status %d: %s", r.status, r.err);
	s = json_load_path(j);
	cr_assert_eq(json_array_size(get(s, "cells")), 2);
	cr_assert_str_eq(json_string_value(get(s, "cells.0.status")), "ok");
	cr_assert_str_eq(json_string_value(get(s, "cells.1.status")), "skipped");
	json_decref(s);
	run_out_free(&r);
	tmpdir_cleanup();
}

/* The result's cell of 4 KiB random reads on target at this iodepth and direct setting. */
static json_t *explain_cell(json_t *s, const char *target, const char *iodepth, const char *direct,
			    const char *engine)
{
	/* explain's cells are in its own section; the sweep's cells stay the sweep's */
	json_t *ex = json_object_get(json_object_get(s, "iopath"), "explain");
	json_t *lists[2] = { json_object_get(ex, "cells"), json_object_get(s, "cells") }, *c;
	size_t i, l;

	for (l = 0; l < 2; l++) {
		json_array_foreach(lists[l], i, c) {
			json_t *id = get(c, "identity");

			if (!strcmp(json_string_value(get(id, "target")), target) &&
			    !strcmp(json_string_value(get(id, "rw")), "randread") &&
			    !strcmp(json_string_value(get(id, "bs")), "4k") &&
			    !strcmp(json_string_value(get(id, "iodepth")), iodepth) &&
			    !strcmp(json_string_value(get(id, "direct")), direct) &&
			    (!engine || !strcmp(json_string_value(get(id, "engine")), engine)))
				return c;
		}
	}
	return NULL;
}

Test(mpi, sweep_explain_explains_every_rank_on_its_own_path)
{
	static const char *const depths[] = { "1", "4", "16", "64" };
	const char *dir = tmpdir_make();
	char t[512], j[512], path[600], role[2][200];
	bool tmpfs = false;
	json_t *s, *ex, *again;
	struct run_out r;
	unsigned i, k;

	for (i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/d%u", dir, i);
		cr_assert_eq(mkdir(path, 0755), 0);
	}
	/* where it can, rank 1's path is memory: its explanation must then differ from rank 0's */
	if (is_root() && !sh("mount -t tmpfs -o size=64m tmpfs '%s/d1' 2>/dev/null", dir))
		tmpfs = true;
	snprintf(t, sizeof(t), "disk=%s/d${RANK}", dir);
	snprintf(j, sizeof(j), "%s/s.json", dir);
	r = mpirun("-np", "2", "BIN", "sweep", "--engine", "psync", "--iodepth", "1", "--bs", "4k",
		   "--direct", "0", "--target", t, "--runtime", "100ms", "--size", "1m",
		   "--explain", "--json", j, NULL);
	if (tmpfs)
		sh("umount '%s/d1'", dir);
	cr_assert_eq(r.status, 0, "status %d: %s", r.status, r.err);
	s = json_load_path(j);
	/* the sweep's own cell stays every rank's together, and is not explained */
	cr_assert_str_eq(json_string_value(get(s, "cells.0.identity.target")), "disk");
	cr_assert_eq(num(get(s, "targets.0"), "ranks"), 2);
	ex = get(s, "iopath.explain.targets");
	cr_assert_eq(json_array_size(ex), 2, "one explained target per rank:\n%s", r.out);
	for (i = 0; i < 2; i++) {
		json_t *tg = json_array_get(ex, i);
		char prefix[32];

		snprintf(role[i], sizeof(role[i]), "%s", json_string_value(get(tg, "target")));
		snprintf(prefix, sizeof(prefix), "disk-rank%u-", i);
		cr_assert_eq(strncmp(role[i], prefix, strlen(prefix)), 0, "target %s", role[i]);
		snprintf(path, sizeof(path), "%s/d%u", dir, i);
		cr_assert_str_eq(json_string_value(get(tg, "path")), path);
		cr_assert_not_null(strstr(r.out, role[i]), "the text does not name %s:\n%s", role[i],
				   r.out);
		/* its own run of the sweep's cell, beside the merged one */
		cr_assert_not_null(explain_cell(s, role[i], "1", "0", "psync"),
				   "%s has no run of its own of the sweep's cell", role[i]);
		/* its own ladder: a cell of its own at every depth, measured */
		for (k = 0; k < 4; k++) {
			json_t *c = explain_cell(s, role[i], depths[k], "1", NULL);

			/* a path refusing O_DIRECT runs its ladder buffered */
			c = c ? c : explain_cell(s, role[i], depths[k], "0", "io_uring");
			cr_assert_not_null(c, "%s has no cell at iodepth %s", role[i], depths[k]);
			cr_assert_str_eq(json_string_value(get(c, "status")), "ok");
			cr_assert_geq(json_array_size(get(c, "samples")), 1);
		}
	}
	cr_assert_str_neq(role[0], role[1]);
	if (tmpfs) {
		json_t *f;
		bool cache = false;

		json_array_foreach(get(json_array_get(ex, 1), "findings"), k, f)
			cache |= !strcmp(json_string_value(get(f, "code")), "cache");
		cr_assert(cache, "rank 1's tmpfs is not found to be memory:\n%s", r.out);
		cr_assert_str_neq(json_string_value(get(json_array_get(ex, 0), "verdict")), "cache");
	}
	/* and iopath explain reads the same targets back */
	again = iopath_out_json("explain", j, "--json", NULL);
	cr_assert_eq(json_array_size(get(again, "iopath.explain.targets")), 2);
	for (i = 0; i < 2; i++)
		cr_assert_str_eq(json_string_value(get(again, i ? "iopath.explain.targets.1.target" :
						       "iopath.explain.targets.0.target")), role[i]);
	json_decref(again);
	json_decref(s);
	run_out_free(&r);
	tmpdir_cleanup();
}
