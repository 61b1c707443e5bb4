/* MPI tests (make mpi-test): ranks under mpirun on this machine, and rank 0's merged result. */
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

static struct run_out mpirun(const char *arg, ...)
{
	const char *bin = getenv("IOPATH_BIN");
	char *argv[96];
	unsigned n = 0;
	struct run_out r = { 0 };
	FILE *o = tmpfile(), *e = tmpfile();
	va_list ap;
	pid_t pid;
	int st;

	cr_assert_not_null(bin, "IOPATH_BIN is not set (run through 'make mpi-test')");
	argv[n++] = (char *)"mpirun";
	argv[n++] = (char *)"--oversubscribe";
	argv[n++] = (char *)"--allow-run-as-root";
	va_start(ap, arg);
	for (; arg && n < 95; arg = va_arg(ap, const char *))
		argv[n++] = (char *)(strcmp(arg, "BIN") ? arg : bin);
	va_end(ap);
	argv[n] = NULL;
	cr_assert(o && e);
	pid = fork();
	cr_assert_neq(pid, -1);
	if (pid == 0) {
		dup2(fileno(o), 1);
		dup2(fileno(e), 2);
		execvp("mpirun", argv);
		_exit(127);
	}
	cr_assert_eq(waitpid(pid, &st, 0), pid);
	r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	fseek(o, 0, SEEK_END);
	fseek(e, 0, SEEK_END);
	r.out = calloc(1, (size_t)ftell(o) + 1);
	r.err = calloc(1, (size_t)ftell(e) + 1);
	rewind(o);
	rewind(e);
	cr_assert(fread(r.out, 1, 1 << 24, o) || 1);
	cr_assert(fread(r.err, 1, 1 << 24, e) || 1);
	fclose(o);
	fclose(e);
	return r;
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

Test(mpi, a_straggler_shows_in_the_stonewall_window)
{
	const char *dir = tmpdir_make();
	char d[512], out[512], path[600];
	struct run_out r;
	json_t *all;

	/*
	 * MPMD, one command line per kind of rank: three ranks move 256 MiB each, rank 3 moves
	 * 2 GiB (the null engine: no disk, only time). Small I/Os keep the fast ranks running
	 * long enough for every rank to have started before the first ends.
	 */
	snprintf(d, sizeof(d), "--directory=%s", dir);
	snprintf(out, sizeof(out), "--output=%s/all.json", dir);
	r = mpirun("-np", "3", "BIN", "--name=s", d, "--ioengine=null", "--rw=write",
		   "--size=256m", "--bs=512", "--output-format=json", out, ":", "-np", "1", "BIN",
		   "--name=s", d, "--ioengine=null", "--rw=write", "--size=2g", "--bs=512",
		   "--output-format=json", out, NULL);
	cr_assert_eq(r.status, 0, "status %d: %s", r.status, r.err);
	snprintf(path, sizeof(path), "%s/all.json", dir);
	all = json_load_path(path);
	cr_assert_eq(num(all, "jobs.0.write.io_bytes"), (3ll * 256 + 2048) * 1024 * 1024);
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
