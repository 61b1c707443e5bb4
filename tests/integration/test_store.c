/*
 * Integration: the results database through the binary: --save, run selectors for compare
 * and history, import and export, concurrent writers, the schema version. Against SQLite
 * (a file per test); with IOPATH_TEST_PG=postgresql://... (make pg-test) the same tests run
 * against that PostgreSQL server, each in a schema of its own.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"

TestSuite(store, .fini = tmpdir_cleanup);

static const char *pg(void)
{
	const char *u = getenv("IOPATH_TEST_PG");

	return u && *u ? u : NULL;
}

/* The database of this test: a new SQLite file, or a new schema of the PostgreSQL server. */
static const char *test_db(const char *dir)
{
	static char spec[1024];
	static unsigned seq;
	char schema[64];

	if (!pg()) {
		snprintf(spec, sizeof(spec), "%s/db/iopath.db", dir);
		return spec;
	}
	snprintf(schema, sizeof(schema), "t%d_%u", (int)getpid(), seq++);
	cr_assert_eq(sh("psql -q '%s' -c 'CREATE SCHEMA %s' >/dev/null", pg(), schema), 0,
		     "psql could not make a schema");
	snprintf(spec, sizeof(spec), "%s&options=-csearch_path%%3D%s", pg(), schema);
	return spec;
}

static json_t *sample(const char *name, double iops)
{
	return json_pack("{s:s, s:i, s:{s:f, s:f, s:i, s:{s:{s:i, s:i, s:i}}}}", "jobname", name,
			 "error", 0, "read", "iops", iops, "bw_bytes", iops * 4096, "total_ios", 1000,
			 "clat_ns", "percentile", "50.000000", 60000, "99.000000", 90000, "99.900000",
			 120000);
}

/* A result file with one io_uring and one psync cell of 3 repeats; io_uring scaled. */
static void write_result(const char *path, const char *qemu, double scale, long long ts)
{
	static const double base[3] = { 100000, 99000, 101000 };
	json_t *cells = json_array();
	const char *engines[2] = { "io_uring", "psync" };
	unsigned e, i;
	json_t *root;

	for (e = 0; e < 2; e++) {
		json_t *samples = json_array();

		for (i = 0; i < 3; i++)
			json_array_append_new(samples, sample(engines[e], base[i] * (e ? 1 : scale)));
		json_array_append_new(cells, json_pack("{s:{s:s, s:s, s:s}, s:s, s:s, s:o}", "identity",
						       "target", "disk", "rw", "randread", "engine",
						       engines[e], "label", engines[e], "status", "ok",
						       "samples", samples));
	}
	root = json_pack("{s:i, s:s, s:s, s:I, s:{s:s}, s:{s:s, s:{s:s}}, s:[], s:o}",
			 "schema_version", 1, "kind", "sweep", "name", "sweep", "timestamp_ms",
			 (json_int_t)ts, "labels", "qemu", qemu, "env", "hostname", "h", "iopath",
			 "version", "v1", "targets", "cells", cells);
	cr_assert_eq(json_dump_file(root, path, 0), 0);
	json_decref(root);
}

static struct run_out import(const char *db, const char *path)
{
	char dbarg[1100];

	snprintf(dbarg, sizeof(dbarg), "--db=%s", db);
	return iopath_run("results", "import", path, dbarg, NULL);
}

static void import_ok(const char *db, const char *path)
{
	struct run_out r = import(db, path);

	cr_assert_eq(r.status, 0, "import %s: %s", path, r.err);
	run_out_free(&r);
}

Test(store, save_then_compare_the_latest_two_runs)
{
	const char *dir = tmpdir_make(), *db = test_db(dir);
	char target[300], dbarg[1100];
	struct run_out r;
	unsigned i;

	snprintf(target, sizeof(target), "--target=t=%s", dir);
	snprintf(dbarg, sizeof(dbarg), "--db=%s", db);
	for (i = 0; i < 2; i++) {
		r = iopath_run("sweep", "--engine=null", target, "--size=256k", "--runtime=0", "--save",
			       "--repeat-max=3", dbarg, i ? "--label=qemu=9.0" : "--label=qemu=8.2.1",
			       NULL);
		cr_assert_eq(r.status, 0, "%s", r.err);
		cr_assert_not_null(strstr(r.err, i ? "saved run 2 into" : "saved run 1 into"), "%s", r.err);
		run_out_free(&r);
	}
	r = iopath_run("compare", dbarg, "latest~1", "latest", NULL);
	cr_assert(r.status == 0 || r.status == 1, "exit %d: %s%s", r.status, r.out, r.err);
	cr_assert_not_null(strstr(r.out, "run 1:"), "BASE is the run before the latest:\n%s", r.out);
	cr_assert_not_null(strstr(r.out, "run 2:"), "%s", r.out);
	cr_assert_not_null(strstr(r.out, "3/3"), "the default 3 repeats were saved:\n%s", r.out);
	cr_assert_not_null(strstr(r.out, "changed: label qemu: 8.2.1 -> 9.0"), "%s", r.out);
	run_out_free(&r);
	/* the same two runs by --run and by label */
	r = iopath_run("compare", dbarg, "--run", "1", "--label", "qemu=9.0", NULL);
	cr_assert(r.status == 0 || r.status == 1, "exit %d: %s", r.status, r.err);
	assert_has(r.out, "run 1:", "run 2:", NULL);
	run_out_free(&r);
}

Test(store, selectors_that_match_nothing_are_bad_input)
{
	const char *dir = tmpdir_make(), *db = test_db(dir);
	char file[300], dbarg[1100];

	snprintf(file, sizeof(file), "%s/a.json", dir);
	write_result(file, "8.2.1", 1.0, 1000);
	import_ok(db, file);
	snprintf(dbarg, sizeof(dbarg), "--db=%s", db);
	iopath_refuses("no run matches 'run:7'", "compare", dbarg, "run:7", "latest", NULL);
	iopath_exits(2, "compare", dbarg, "latest~3", "latest", NULL);
	iopath_refuses("no run matches 'qemu=1.0'", "compare", dbarg, "qemu=1.0", "latest", NULL);
}

Test(store, a_label_selector_pools_every_run_with_it)
{
	const char *dir = tmpdir_make(), *db = test_db(dir);
	char f[4][300], dbarg[1100];
	struct run_out r;
	unsigned i;

	for (i = 0; i < 4; i++) {
		snprintf(f[i], sizeof(f[i]), "%s/r%u.json", dir, i);
		write_result(f[i], i < 2 ? "8.2.1" : "9.0", i < 2 ? 1.0 : 0.7, 1000 + i);
		import_ok(db, f[i]);
	}
	snprintf(dbarg, sizeof(dbarg), "--db=%s", db);
	r = iopath_run("compare", dbarg, "qemu=8.2.1", "qemu=9.0", "--metric=iops", NULL);
	cr_assert_eq(r.status, 1, "a 30%% drop: exit %d\n%s%s", r.status, r.out, r.err);
	cr_assert_not_null(strstr(r.out, "6/6"), "two runs of 3 repeats each side:\n%s", r.out);
	cr_assert_not_null(strstr(r.out, "REGRESSION"), "%s", r.out);
	run_out_free(&r);
}

Test(store, import_export_round_trip_and_import_once)
{
	const char *dir = tmpdir_make(), *db = test_db(dir);
	char file[300], fio[300], out[300], dbarg[1100];
	struct run_out r;
	json_t *a, *b;

	snprintf(file, sizeof(file), "%s/a.json", dir);
	snprintf(fio, sizeof(fio), "%s/fio.json", dir);
	write_result(file, "8.2.1", 1.0, 1000);
	file_write_text(fio, "{\"fio version\": \"fio-3.33\", \"timestamp\": 1700000000, \"jobs\": [{"
			"\"jobname\": \"rr\", \"error\": 0, \"job options\": {\"rw\": \"randread\"},"
			"\"read\": {\"iops\": 5000.0, \"bw_bytes\": 20480000, \"total_ios\": 100}}]}");
	import_ok(db, file);
	import_ok(db, fio);
	r = import(db, file);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert_not_null(strstr(r.err, "imported before, as run 1"), "%s", r.err);
	run_out_free(&r);
	snprintf(dbarg, sizeof(dbarg), "--db=%s", db);
	r = iopath_run("results", "list", dbarg, NULL);
	cr_assert_eq(r.status, 0, "%s", r.err);
	assert_has(r.out, "qemu", "fio.json", NULL);
	cr_assert_null(strstr(r.out, "\n     3 "), "imported once:\n%s", r.out);
	run_out_free(&r);
	snprintf(out, sizeof(out), "--output=%s/back.json", dir);
	iopath_exits(0, "results", "export", "run:1", dbarg, out, NULL);
	snprintf(out, sizeof(out), "%s/back.json", dir);
	a = json_load_path(file);
	b = json_load_path(out);
	cr_assert(json_equal(json_object_get(json_array_get(json_object_get(a, "cells"), 0), "samples"),
			     json_object_get(json_array_get(json_object_get(b, "cells"), 0), "samples")),
		  "every sample back as it went in");
	cr_assert(json_equal(json_object_get(a, "labels"), json_object_get(b, "labels")));
	json_decref(a);
	json_decref(b);
	/* the exported file and the stored run are the same run */
	iopath_exits(0, "compare", out, "run:1", dbarg, NULL);
	/* the fio job is a cell of one sample */
	iopath_prints(0, HAS("\"rr\""), "results", "export", "run:2", dbarg, NULL);
}

Test(store, concurrent_saves_all_survive)
{
	const char *dir = tmpdir_make(), *db = test_db(dir);
	char target[300], dbarg[1100], label[8][32];
	struct run_bg bg[8];
	struct run_out r;
	unsigned i;

	snprintf(target, sizeof(target), "--target=t=%s", dir);
	snprintf(dbarg, sizeof(dbarg), "--db=%s", db);
	for (i = 0; i < 8; i++) {
		snprintf(label[i], sizeof(label[i]), "--label=n=%u", i);
		bg[i] = iopath_start("sweep", "--engine=null", target, "--size=256k", "--runtime=0",
				     "--bs=4k,8k", "--save", dbarg, label[i], NULL);
	}
	for (i = 0; i < 8; i++) {
		r = iopath_wait(&bg[i], 300);
		cr_assert_eq(r.status, 0, "writer %u: %s", i, r.err);
		cr_assert_not_null(strstr(r.err, "saved run"), "%s", r.err);
		run_out_free(&r);
	}
	r = iopath_run("results", "list", dbarg, NULL);
	cr_assert_eq(r.status, 0, "%s", r.err);
	for (i = 0; i < 8; i++) {
		char want[32];

		snprintf(want, sizeof(want), "{\"n\":\"%u\"}", i);
		cr_assert_not_null(strstr(r.out, want), "run %u lost:\n%s", i, r.out);
	}
	run_out_free(&r);
	/* every run whole: its 2 cells of 3 samples */
	for (i = 0; i < 8; i++) {
		char sel[16];

		snprintf(sel, sizeof(sel), "n=%u", i);
		iopath_prints(0, HAS("2 cell(s) compared"), "compare", dbarg, sel, sel,
			      "--metric=iops", NULL);
	}
}

Test(store, history_by_label_finds_the_step)
{
	const char *dir = tmpdir_make(), *db = test_db(dir);
	static const char *const qemu[] = { "10.0", "8.2.1", "9.0", "8.2.1" };
	static const double scale[] = { 0.7, 1.0, 0.7, 1.0 };
	char f[300], dbarg[1100];
	json_t *root, *steps, *s;
	struct run_out r;
	unsigned i;

	for (i = 0; i < 4; i++) {
		snprintf(f, sizeof(f), "%s/r%u.json", dir, i);
		write_result(f, qemu[i], scale[i], 1000 + i);
		import_ok(db, f);
	}
	snprintf(dbarg, sizeof(dbarg), "--db=%s", db);
	root = iopath_json_kept(&r, 0, "history", dbarg, "--by", "qemu", "--json", NULL);
	cr_assert_eq(json_array_size(json_object_get(root, "groups")), 3, "8.2.1 pooled:\n%s", r.out);
	/* the pooled group says it holds two runs, and which */
	s = json_array_get(json_object_get(root, "groups"), 0);
	cr_assert_eq(json_integer_value(json_object_get(s, "runs")), 2, "%s", r.out);
	cr_assert_eq(json_array_size(json_object_get(s, "sources")), 2, "%s", r.out);
	cr_assert_eq(json_integer_value(json_object_get(root, "runs")), 4, "%s", r.out);
	steps = json_object_get(json_object_get(json_object_get(root, "metrics"), "iops"), "steps");
	cr_assert_eq(json_array_size(steps), 1, "one step, io_uring at 9.0:\n%s", r.out);
	s = json_array_get(steps, 0);
	cr_assert_str_eq(json_string_value(json_object_get(s, "verdict")), "regression");
	cr_assert_eq(json_integer_value(json_object_get(s, "at")), 1);
	cr_assert_str_eq(json_string_value(json_object_get(s, "label")), "io_uring");
	cr_assert_float_eq(json_real_value(json_object_get(s, "change")), -0.3, 1e-9);
	cr_assert(json_is_number(json_object_get(s, "p")) && json_is_number(json_object_get(s, "change_ci_hi")) &&
		  json_is_null(json_object_get(s, "change_ci_lo")), "a drop: bounded above");
	cr_assert_eq(json_integer_value(json_object_get(s, "n_before")), 6, "%s", r.out);
	json_decref(root);
	run_out_free(&r);
	r = iopath_run("history", dbarg, "--by", "qemu", NULL);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert_not_null(strstr(r.out, "step: io_uring: iops regression -30.0% at qemu=9.0 (from qemu=8.2.1"),
			   "%s", r.out);
	run_out_free(&r);
	/* the chart's title counts the saved runs and the groups apart */
	snprintf(f, sizeof(f), "--plot=%s/charts", dir);
	r = iopath_run("history", dbarg, "--by", "qemu", f, NULL);
	cr_assert_eq(r.status, 0, "%s", r.err);
	snprintf(f, sizeof(f), "%s/charts/history-iops.gp", dir);
	{
		char *gp = file_text(f);

		cr_assert_not_null(gp, "%s: %s", f, r.err);
		cr_assert_not_null(strstr(gp, "across 4 saved"), "%.400s", gp);
		cr_assert_not_null(strstr(gp, "runs pooled into 3 groups"), "%.400s", gp);
		free(gp);
	}
	run_out_free(&r);
}

Test(store, a_database_of_a_newer_schema_is_refused)
{
	const char *dir = tmpdir_make(), *db = test_db(dir);
	char file[300], dbarg[1100];

	snprintf(file, sizeof(file), "%s/a.json", dir);
	write_result(file, "8.2.1", 1.0, 1000);
	import_ok(db, file);
	if (pg())
		cr_assert_eq(sh("psql -q '%s' -c \"UPDATE iopath_meta SET value = '99' WHERE key = 'schema_version'\" >/dev/null",
				db), 0);
	else
		cr_assert_eq(sh("sqlite3 '%s' \"UPDATE iopath_meta SET value = '99' WHERE key = 'schema_version'\"",
				db), 0, "sqlite3 (the command) is needed: scripts/deps.sh");
	snprintf(dbarg, sizeof(dbarg), "--db=%s", db);
	iopath_refuses("schema 99 is newer than this iopath reads", "results", "list", dbarg, NULL);
}

Test(store, the_old_json_store_is_imported_when_the_database_is_made)
{
	const char *dir = tmpdir_make();
	char sub[300], file[340], target[300], rd[320], dbarg[400];
	struct run_out r;

	if (pg())
		cr_skip_test("the JSON store sits beside an SQLite file; nothing to import into a server");
	snprintf(sub, sizeof(sub), "%s/results/sweep", dir);
	cr_assert_eq(sh("mkdir -p '%s'", sub), 0);
	snprintf(file, sizeof(file), "%s/20261129T221324Z-vm.json", sub);
	write_result(file, "8.2.1", 1.0, 1000);
	snprintf(target, sizeof(target), "--target=t=%s", dir);
	snprintf(rd, sizeof(rd), "--results-dir=%s/results", dir);
	r = iopath_run("sweep", "--engine=null", target, "--size=256k", "--runtime=0", "--save", rd,
		       NULL);
	cr_assert_eq(r.status, 0, "%s", r.err);
	assert_has(r.err, "imported 1 run(s) of the JSON store", "saved run 2 into", NULL);
	run_out_free(&r);
	snprintf(dbarg, sizeof(dbarg), "--db=%s/results/iopath.db", dir);
	iopath_prints(0, HAS("20261129T221324Z-vm.json"), "results", "list", dbarg, NULL);
	cr_assert_eq(access(file, R_OK), 0, "the old file stays");
}

Test(store, a_file_that_is_not_an_iopath_database_is_left_alone)
{
	const char *dir = tmpdir_make();
	char path[300], dbarg[340], file[300];
	uint64_t sum;

	if (pg())
		cr_skip_test("a file check: SQLite only");
	snprintf(path, sizeof(path), "%s/notes.db", dir);
	file_write_text(path, "my notes, not a database\n");
	sum = file_sum(path);
	snprintf(file, sizeof(file), "%s/a.json", dir);
	write_result(file, "8.2.1", 1.0, 1000);
	snprintf(dbarg, sizeof(dbarg), "--db=%s", path);
	iopath_refuses("not an SQLite database", "results", "import", file, dbarg, NULL);
	cr_assert_eq(file_sum(path), sum, "the file was changed");
	iopath_exits(2, "results", "list", dbarg, NULL);
	/* a symbolic link is not followed */
	snprintf(file, sizeof(file), "%s/link.db", dir);
	cr_assert_eq(symlink(path, file), 0);
	snprintf(dbarg, sizeof(dbarg), "--db=%s", file);
	iopath_exits(2, "results", "list", dbarg, NULL);
}

/*
 * SQLite writes and removes DB-wal, DB-shm and DB-journal: a hard link to a user's file
 * there, or a -wal that is not a log, is refused and left as it was, even by results list.
 */
/*
 * Two imports of one file at the same time (driven: the first holds between its check and its
 * insert while the second runs whole): the file is one run, and the first says so in a line
 * of its own, never a raw duplicate-key error. PostgreSQL's writers do not queue; SQLite's
 * queue behind BEGIN IMMEDIATE, so there the two never race (the second would wait on the
 * held one's lock).
 */
Test(store, concurrent_imports_of_one_file_save_it_once)
{
	const char *dir = tmpdir_make(), *db;
	char file[300], hold[320], dbarg[1100];
	char *const argv[] = { "iopath", "results", "import", file, dbarg, NULL };
	struct run_bg b;
	struct run_out r;
	bool held;

	if (!pg())
		cr_skip_test("concurrent imports race on PostgreSQL only (make pg-test): SQLite's writers queue behind BEGIN IMMEDIATE");
	db = test_db(dir);
	snprintf(file, sizeof(file), "%s/a.json", dir);
	snprintf(hold, sizeof(hold), "%s/hold", dir);
	snprintf(dbarg, sizeof(dbarg), "--db=%s", db);
	write_result(file, "8.2.1", 1.0, 1000);
	setenv("IOPATH_TEST_HOLD_IMPORT", hold, 1);
	b = iopath_startv(argv, NULL);
	unsetenv("IOPATH_TEST_HOLD_IMPORT");
	held = wait_for_file(hold, 120);
	if (held) {
		r = import(db, file);
		cr_assert_eq(r.status, 0, "the second import: %s", r.err);
		cr_assert_not_null(strstr(r.out, "run 1: "), "%s", r.out);
		run_out_free(&r);
	}
	file_write_text(tmp_str("%s.go", hold), "");
	r = iopath_wait(&b, 120);
	cr_assert(held, "the first import never held before its insert: %s", r.err);
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	cr_assert_not_null(strstr(r.err, "imported at the same time by another import, as run 1"), "%s", r.err);
	cr_assert_null(strstr(r.err, "duplicate key"), "%s", r.err);
	run_out_free(&r);
	r = iopath_run("results", "list", dbarg, NULL);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert_null(strstr(r.out, "\n     2 "), "imported twice:\n%s", r.out);
	run_out_free(&r);
}

/*
 * A SQLite results database r.db in a new directory (returned), holding one imported result;
 * db and dbarg get its path and its --db= argument. Skips the test under PostgreSQL.
 */
static const char *sqlite_with_a_result(char *db, size_t db_len, char *dbarg, size_t arg_len)
{
	const char *dir;
	char file[300];

	if (pg())
		cr_skip_test("SQLite's side files: SQLite only");
	dir = tmpdir_make();
	snprintf(db, db_len, "%s/r.db", dir);
	snprintf(dbarg, arg_len, "--db=%s", db);
	snprintf(file, sizeof(file), "%s/a.json", dir);
	write_result(file, "8.2.1", 1.0, 1000);
	iopath_exits(0, "results", "import", file, dbarg, NULL);
	return dir;
}

Test(store, side_files_that_are_not_sqlites_are_left_alone)
{
	static const char *const cases[][2] = {
		{ "-wal", "other hard links" }, { "-shm", "other hard links" },
		{ "-journal", "other hard links" }, { "-wal", "no write-ahead log header" },
	};
	char db[300], dbarg[340], user[300], side[320];
	const char *dir = sqlite_with_a_result(db, sizeof(db), dbarg, sizeof(dbarg));
	struct run_out r;
	uint64_t sum;
	unsigned i;

	snprintf(user, sizeof(user), "%s/precious.txt", dir);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(side, sizeof(side), "%s%s", db, cases[i][0]);
		file_make(user, 40000, 3);
		sum = file_sum(user);
		if (i < 3)
			cr_assert_eq(link(user, side), 0);
		else
			file_make(side, 40000, 4);
		r = iopath_run("results", "list", dbarg, NULL);
		cr_assert_eq(r.status, 2, "%s: exit %d: %s", side, r.status, r.err);
		cr_assert_not_null(strstr(r.err, cases[i][1]), "%s: %s", side, r.err);
		run_out_free(&r);
		cr_assert_eq(access(side, F_OK), 0, "%s was removed", side);
		cr_assert_eq(file_sum(i < 3 ? user : side), i < 3 ? sum : file_sum(side), "changed");
		cr_assert_eq(file_sum(user), sum, "the user's file changed");
		unlink(side);
	}
	iopath_exits(0, "results", "list", dbarg, NULL);
}

static void put32(unsigned char *b, uint32_t v, bool big)
{
	unsigned i;

	for (i = 0; i < 4; i++)
		b[big ? i : 3 - i] = (unsigned char)(v >> (24 - 8 * i));
}

/* A write-ahead log's 32-byte header (magic, version, page size), its checksum right or not. */
static void wal_header(const char *path, uint32_t magic, uint32_t version, uint32_t page,
		       bool good_sum)
{
	unsigned char h[32] = { 0 };
	uint32_t s1 = 0, s2 = 0, w[6];
	bool big = magic & 1;
	unsigned i;
	FILE *f;

	put32(h, magic, true);
	put32(h + 4, version, true);
	put32(h + 8, page, true);
	put32(h + 16, 0x1234567, true);	/* the salts */
	put32(h + 20, 0x89abcde, true);
	for (i = 0; i < 6; i++)
		w[i] = big ? (uint32_t)h[4 * i] << 24 | (uint32_t)h[4 * i + 1] << 16 |
			     (uint32_t)h[4 * i + 2] << 8 | h[4 * i + 3] :
			     (uint32_t)h[4 * i + 3] << 24 | (uint32_t)h[4 * i + 2] << 16 |
			     (uint32_t)h[4 * i + 1] << 8 | h[4 * i];
	for (i = 0; i < 6; i += 2) {
		s1 += w[i] + s2;
		s2 += w[i + 1] + s1;
	}
	put32(h + 24, good_sum ? s1 : s1 + 1, true);
	put32(h + 28, s2, true);
	f = fopen(path, "wb");
	cr_assert_not_null(f);
	cr_assert_eq(fwrite(h, 1, sizeof(h), f), sizeof(h));
	cr_assert_eq(fclose(f), 0);
}

/*
 * An existing -wal is used only with a write-ahead log's header: the magic, version
 * 3007000, a page size that is a power of two from 512 to 65536, its checksum. One with the
 * magic alone is refused and left as it was; a header that is whole is taken (both byte
 * orders of the checksums).
 */
Test(store, a_wal_is_used_only_with_a_whole_write_ahead_log_header)
{
	static const struct {
		uint32_t magic, version, page;
		bool sum;
		const char *why;
	} cases[] = {
		{ 0x377f0682, 3007001, 4096, true, "version" },
		{ 0x377f0682, 3007000, 3000, true, "page size" },
		{ 0x377f0683, 3007000, 256, true, "page size" },
		{ 0x377f0682, 3007000, 131072, true, "page size" },
		{ 0x377f0682, 3007000, 4096, false, "checksum" },
		{ 0x377f0683, 3007000, 65536, false, "checksum" },
		{ 0x377f0684, 3007000, 4096, true, "no write-ahead log header" },
		{ 0x377f0682, 3007000, 4096, true, NULL },
		{ 0x377f0683, 3007000, 512, true, NULL },
	};
	char db[300], dbarg[340], wal[320];
	struct run_out r;
	uint64_t sum;
	unsigned i;

	sqlite_with_a_result(db, sizeof(db), dbarg, sizeof(dbarg));
	snprintf(wal, sizeof(wal), "%s-wal", db);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		wal_header(wal, cases[i].magic, cases[i].version, cases[i].page, cases[i].sum);
		sum = file_sum(wal);
		r = iopath_run("results", "list", dbarg, NULL);
		if (!cases[i].why) {
			cr_assert_eq(r.status, 0, "case %u, a whole header, refused: %s", i, r.err);
			run_out_free(&r);
			unlink(wal);
			continue;
		}
		cr_assert_eq(r.status, 2, "case %u: exit %d: %s", i, r.status, r.err);
		cr_assert_not_null(strstr(r.err, cases[i].why), "case %u: %s", i, r.err);
		cr_assert_not_null(strstr(r.err, "left alone"), "case %u: %s", i, r.err);
		run_out_free(&r);
		cr_assert_eq(access(wal, F_OK), 0, "case %u: the -wal was removed", i);
		cr_assert_eq(file_sum(wal), sum, "case %u: the -wal changed", i);
		unlink(wal);
	}
}

/*
 * A side file swapped in after the check, right before SQLite opens it by name (driven: iopath
 * holds between the two): a hard link to the user's file as -shm (which SQLite would
 * truncate) or as -wal, or a link to it, is refused on the descriptor SQLite gets, and the
 * user's file and the name are left as they were.
 */
Test(store, a_side_file_swapped_after_the_check_is_refused_on_its_descriptor)
{
	static const char *const suffix[] = { "-shm", "-wal", "-wal" };
	const char *dir = tmpdir_make();
	char db[300], dbarg[340], file[300], user[300], side[320], hold[320];
	char *const argv[] = { "iopath", "results", "list", dbarg, NULL };
	struct run_bg b;
	struct run_out r;
	uint64_t sum;
	unsigned i;
	bool held;

	if (pg())
		cr_skip_test("SQLite's side files: SQLite only");
	snprintf(db, sizeof(db), "%s/r.db", dir);
	snprintf(dbarg, sizeof(dbarg), "--db=%s", db);
	snprintf(file, sizeof(file), "%s/a.json", dir);
	snprintf(user, sizeof(user), "%s/precious.txt", dir);
	snprintf(hold, sizeof(hold), "%s/hold", dir);
	write_result(file, "8.2.1", 1.0, 1000);
	iopath_exits(0, "results", "import", file, dbarg, NULL);
	for (i = 0; i < sizeof(suffix) / sizeof(suffix[0]); i++) {
		snprintf(side, sizeof(side), "%s%s", db, suffix[i]);
		file_make(user, 40000, 5);
		sum = file_sum(user);
		unlink(hold);
		unlink(tmp_str("%s.go", hold));
		setenv("IOPATH_TEST_HOLD_SIDE", hold, 1);
		b = iopath_startv(argv, NULL);
		unsetenv("IOPATH_TEST_HOLD_SIDE");
		held = wait_for_file(hold, 120);
		if (held)
			cr_assert_eq(i < 2 ? link(user, side) : symlink(user, side), 0);
		file_write_text(tmp_str("%s.go", hold), "");
		r = iopath_wait(&b, 120);
		cr_assert(held, "iopath never held after its check: %s", r.err);
		cr_assert_eq(r.status, 2, "%s: exit %d: %s", suffix[i], r.status, r.err);
		cr_assert_not_null(strstr(r.err, "refused, left alone"), "%s: %s", suffix[i], r.err);
		cr_assert_not_null(strstr(r.err, suffix[i]), "the side file is not named: %s", r.err);
		cr_assert_eq(strchr(r.err, '\n'), r.err + strlen(r.err) - 1, "not one line: %s", r.err);
		run_out_free(&r);
		cr_assert_eq(file_sum(user), sum, "%s: the user's file changed", suffix[i]);
		cr_assert_eq(faccessat(AT_FDCWD, side, F_OK, AT_SYMLINK_NOFOLLOW), 0,
			     "%s: the name was removed", suffix[i]);
		/* and the empty -wal SQLite made before it met the -shm */
		sh("rm -f '%s-wal' '%s-shm'", db, db);
	}
	iopath_exits(0, "results", "list", dbarg, NULL);
}

Test(store, iopath_db_names_the_database_without_db)
{
	const char *dir = tmpdir_make(), *db = test_db(dir);
	char file[300];

	snprintf(file, sizeof(file), "%s/a.json", dir);
	write_result(file, "8.2.1", 1.0, 1000);
	/* this test's own process: the iopath it starts inherits it */
	cr_assert_eq(setenv("IOPATH_DB", db, 1), 0);
	iopath_exits(0, "results", "import", file, NULL);
	iopath_prints(0, HAS("run 1:"), "compare", "latest", "qemu=8.2.1", NULL);
	unsetenv("IOPATH_DB");
}

Test(store, a_row_of_the_wrong_shape_is_bad_input)
{
	const char *dir = tmpdir_make(), *db = test_db(dir);
	char file[300], dbarg[1100];

	snprintf(file, sizeof(file), "%s/a.json", dir);
	write_result(file, "8.2.1", 1.0, 1000);
	import_ok(db, file);
	if (pg())
		cr_assert_eq(sh("psql -q '%s' -c \"UPDATE runs SET labels = '[1, 2]'\" >/dev/null", db), 0);
	else
		cr_assert_eq(sh("sqlite3 '%s' \"UPDATE runs SET labels = '[1, 2]'\"", db), 0);
	snprintf(dbarg, sizeof(dbarg), "--db=%s", db);
	iopath_refuses("a stored row is not what iopath wrote", "compare", dbarg, "run:1", "run:1",
		       NULL);
}

/* One saved side of one repeat: a null-engine sweep labelled run=tag. */
static void save_side(const char *dbarg, const char *target, const char *tag)
{
	char label[64];

	snprintf(label, sizeof(label), "--label=run=%s", tag);
	iopath_exits(0, "sweep", "--engine=null", target, "--size=256k", "--runtime=0",
		     "--repeat=1", "--save", dbarg, label, NULL);
}

/* compare's JSON of run=a against run=b: the pairs its iops test used. */
static json_int_t iops_pairs(const char *dbarg, const char *a, const char *b, json_t **root)
{
	char sa[32], sb[32];
	json_t *m;
	size_t i;

	snprintf(sa, sizeof(sa), "run=%s", a);
	snprintf(sb, sizeof(sb), "run=%s", b);
	*root = iopath_json(ANY_VERDICT, "compare", dbarg, sa, sb, "--json", NULL);
	json_array_foreach(json_object_get(json_array_get(json_object_get(*root, "cells"), 0),
					   "metrics"), i, m)
		if (!strcmp(json_string_value(json_object_get(m, "metric")), "iops"))
			return json_integer_value(json_object_get(m, "pairs"));
	cr_assert_fail("no iops metric");
	return -1;
}

/* Six alternations or more: the pairs are judged by their signed ranks, not the paired t. */
Test(store, six_alternations_are_judged_by_the_pairs_signed_ranks)
{
	const char *dir = tmpdir_make(), *db = test_db(dir);
	char target[300], dbarg[1100];
	struct run_out r;
	json_t *root, *m;
	size_t i;

	snprintf(target, sizeof(target), "--target=t=%s", dir);
	snprintf(dbarg, sizeof(dbarg), "--db=%s", db);
	for (i = 0; i < 6; i++) {
		save_side(dbarg, target, "a");
		save_side(dbarg, target, "b");
	}
	cr_assert_eq(iops_pairs(dbarg, "a", "b", &root), 6);
	cr_assert_geq(json_integer_value(json_object_get(root, "signed_rank_tests")), 1);
	json_array_foreach(json_object_get(json_array_get(json_object_get(root, "cells"), 0), "metrics"), i, m)
		if (!strcmp(json_string_value(json_object_get(m, "metric")), "iops")) {
			cr_assert_str_eq(json_string_value(json_object_get(m, "test")), "signed-rank");
			cr_assert(json_is_number(json_object_get(m, "shift")));
		}
	json_decref(root);
	r = iopath_run("compare", dbarg, "run=a", "run=b", NULL);
	assert_has(r.out, "6/6 (6 pairs)", "the pairs' signed ranks on the", NULL);
	run_out_free(&r);
}

Test(store, sides_saved_in_alternation_are_judged_in_pairs)
{
	const char *dir = tmpdir_make(), *db = test_db(dir);
	char target[300], dbarg[1100];
	struct run_out r;
	json_t *root, *g;
	unsigned i;

	snprintf(target, sizeof(target), "--target=t=%s", dir);
	snprintf(dbarg, sizeof(dbarg), "--db=%s", db);
	/* A B A B A B, then C C C D D D */
	for (i = 0; i < 3; i++) {
		save_side(dbarg, target, "a");
		save_side(dbarg, target, "b");
	}
	for (i = 0; i < 6; i++)
		save_side(dbarg, target, i < 3 ? "c" : "d");
	cr_assert_eq(iops_pairs(dbarg, "a", "b", &root), 3);
	cr_assert_geq(json_integer_value(json_object_get(root, "paired_tests")), 1);
	json_decref(root);
	cr_assert_eq(iops_pairs(dbarg, "c", "d", &root), 0, "one side after the other: Welch's");
	cr_assert_eq(json_integer_value(json_object_get(root, "paired_tests")), 0);
	json_decref(root);
	r = iopath_run("compare", dbarg, "run=a", "run=b", NULL);
	assert_has(r.out, "3/3 (3 pairs)", "paired t on the", NULL);
	run_out_free(&r);
	/* history's JSON carries every group's environment, and the newest step's, as compare's */
	root = iopath_json_kept(&r, ANY_VERDICT, "history", dbarg, "--by", "run", "--json",
				"--allow-inconclusive", NULL);
	json_array_foreach(json_object_get(root, "groups"), i, g)
		cr_assert(json_is_number(json_object_get(json_object_get(g, "environment"), "other_cpu")),
			  "group %u: %s", i, r.out);
	g = json_object_get(root, "environment");
	cr_assert(json_is_number(json_object_get(json_object_get(g, "base"), "other_cpu")), "%s", r.out);
	cr_assert(json_is_number(json_object_get(json_object_get(g, "cur"), "other_cpu")), "%s", r.out);
	cr_assert(json_is_integer(json_object_get(g, "explained_regressions")), "%s", r.out);
	json_decref(root);
	run_out_free(&r);
}
