/* Integration: what is measured is kept: outputs refused before the first I/O, a fallback file after. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "harness.h"

TestSuite(kept, .fini = mount_cleanup);

static char db[300], target[300], flag[320], release[320];

/* A `run` with --save into db, its files in target (an empty directory). */
#define RUN_SAVE "run", "randread-4k-qd1", "--scale=0.001", "ioengine=null", "--repeat=1", \
	"--target", target, "--save", "--db", db

static void dirs(const char *dbname)
{
	const char *dir = tmpdir_make();

	snprintf(db, sizeof(db), "%s/%s", dir, dbname);
	snprintf(target, sizeof(target), "%s/t", dir);
	snprintf(flag, sizeof(flag), "%s/locked", dir);
	snprintf(release, sizeof(release), "%s/release", dir);
	cr_assert_eq(mkdir(target, 0777), 0);
	chmod(target, 0777);
}

static bool dir_empty(const char *d)
{
	return sh("test -z \"$(ls -A '%s')\"", d) == 0;
}

static void assert_refused_early(struct run_out *r, const char *why)
{
	cr_assert_eq(r->status, 2, "exit %d: %s", r->status, r->err);
	cr_assert_not_null(strstr(r->err, "--db "), "does not name --db: %s", r->err);
	cr_assert_not_null(strstr(r->err, why), "lacks '%s': %s", why, r->err);
	cr_assert_eq(strchr(r->err, '\n'), r->err + strlen(r->err) - 1, "not one line: %s", r->err);
	cr_assert(dir_empty(target), "I/O was done before the refusal");
}

/*
 * Another writer holding db's write lock until release exists (python3's sqlite3 module), or
 * for 20 s at most: an iopath whose busy timeout (1 s in these tests) waited far longer than
 * it says would outlast the holder and save, and the refusal tests would see exit 0.
 */
static void lock_db(void)
{
	cr_assert_eq(sh("python3 -c 'import sqlite3,sys,time,os\n"
			"c=sqlite3.connect(sys.argv[1],isolation_level=None)\n"
			"c.execute(\"BEGIN EXCLUSIVE\")\n"
			"open(sys.argv[2],\"w\").close()\n"
			"t=0\n"
			"while not os.path.exists(sys.argv[3]) and t<400:\n"
			"  time.sleep(0.05); t+=1\n' '%s' '%s' '%s' >/dev/null 2>&1 &",
			db, flag, release), 0, "python3 is needed: scripts/deps.sh");
	cr_assert(wait_for_file(flag, 60), "the lock holder never took the lock");
}

static void unlock_db(void)
{
	file_write_text(release, "");
}

Test(kept, a_directory_as_db_is_refused_before_the_first_io)
{
	struct run_out r;

	dirs("dbdir");
	cr_assert_eq(mkdir(db, 0755), 0);
	r = iopath_run(RUN_SAVE, NULL);
	assert_refused_early(&r, "not a regular file");
	run_out_free(&r);
}

Test(kept, an_immutable_db_is_refused_before_the_first_io)
{
	struct run_out r;

	dirs("imm.db");
	if (!is_root())
		cr_skip_test("needs root to make a file immutable");
	file_write_text(db, "");
	if (sh("chattr +i '%s' 2>/dev/null", db))
		cr_skip_test("this filesystem has no immutable flag");
	r = iopath_run(RUN_SAVE, NULL);
	sh("chattr -i '%s'", db);
	assert_refused_early(&r, "cannot be written here");
	run_out_free(&r);
}

Test(kept, a_read_only_db_is_refused_before_the_first_io)
{
	struct run_out r;

	dirs("ro.db");
	if (!is_root())
		cr_skip_test("needs root to run iopath as another user");
	/* a database of iopath's that the user may read and not write */
	iopath_exits(0, RUN_SAVE, NULL);
	sh("rm -rf '%s'/* && chmod 0444 '%s' && chmod 0755 \"$(dirname '%s')\"", target, db, db);
	r = iopath_run_as(65534, RUN_SAVE, NULL);
	if (r.status == 126)
		cr_skip_test("cannot switch to uid 65534 here");
	assert_refused_early(&r, "cannot be written here");
	run_out_free(&r);
}

Test(kept, a_db_locked_past_the_busy_timeout_is_refused_before_the_first_io)
{
	struct run_out r;

	dirs("busy.db");
	file_write_text(db, "");
	lock_db();
	setenv("IOPATH_DB_TIMEOUT", "1", 1);
	r = iopath_run(RUN_SAVE, NULL);
	unsetenv("IOPATH_DB_TIMEOUT");
	unlock_db();
	assert_refused_early(&r, "locked by another writer");
	run_out_free(&r);
}

/* A busy timeout that is not whole seconds is refused, not silently taken as the default. */
Test(kept, a_busy_timeout_that_is_not_whole_seconds_is_refused_before_the_first_io)
{
	static const char *const bad[] = { "abc", "-5", "1.5", "3601", "99999999999999999999", NULL };
	struct run_out r;
	unsigned i;

	dirs("t.db");
	for (i = 0; bad[i]; i++) {
		setenv("IOPATH_DB_TIMEOUT", bad[i], 1);
		r = iopath_run(RUN_SAVE, NULL);
		unsetenv("IOPATH_DB_TIMEOUT");
		assert_refused_early(&r, "IOPATH_DB_TIMEOUT");
		run_out_free(&r);
	}
	setenv("IOPATH_DB_TIMEOUT", "0", 1);
	r = iopath_run(RUN_SAVE, NULL);
	unsetenv("IOPATH_DB_TIMEOUT");
	cr_assert_eq(r.status, 0, "a timeout of 0 s is refused: %s", r.err);
	run_out_free(&r);
}

/*
 * The database is fine when checked and locked by another writer while the run runs (the
 * runner's hold stops it before its layout): the save fails at the end, and the whole
 * result is in the fallback file named on stderr, which results import takes.
 */
Test(kept, a_save_that_fails_at_the_end_keeps_the_result_in_a_fallback_file)
{
	char *const args[] = { "iopath", RUN_SAVE, NULL };
	char kept[400], *p;
	struct run_bg b;
	struct run_out r;
	json_t *j;

	dirs("late.db");
	setenv("TMPDIR", target, 1);
	setenv("IOPATH_DB_TIMEOUT", "1", 1);
	hold_arm(target);
	b = iopath_startv(args, NULL);
	hold_disarm();
	cr_assert(hold_reached(&b, 1), "iopath never reached its layout");
	lock_db();
	hold_skip_to(&b, 2);
	hold_release(2);
	r = iopath_wait(&b, 120);
	unsetenv("IOPATH_DB_TIMEOUT");
	unsetenv("TMPDIR");
	unlock_db();
	cr_assert_eq(r.status, 1, "exit %d: %s", r.status, r.err);
	p = strstr(r.err, "the whole result is kept in ");
	cr_assert_not_null(p, "no fallback file named: %s", r.err);
	cr_assert_eq(sscanf(p, "the whole result is kept in %399s", kept), 1);
	cr_assert_not_null(strstr(kept, target), "fallback %s is not in $TMPDIR", kept);
	j = json_load_path(kept);
	cr_assert_eq(json_array_size(json_object_get(j, "cells")), 1, "the fallback lacks the cell");
	json_decref(j);
	iopath_exits(0, "results", "import", kept, "--db", db, NULL);
}

static char file[300], fopt[320];

static bool layout_pending(void)
{
	char v[64];

	return getxattr(file, "user.iopath.layout", v, sizeof(v)) >= 0;
}

static void job_file(void)
{
	const char *dir = tmpdir_make();

	snprintf(file, sizeof(file), "%s/data", dir);
	snprintf(fopt, sizeof(fopt), "--filename=%s", file);
	if (setxattr(dir, "user.probe", "1", 1, 0) && errno == ENOTSUP)
		cr_skip_test("no user extended attributes where the test runs");
}

/*
 * A write job stopped before it wrote its file whole (io_size below size stands for a
 * runtime, Ctrl-C or ENOSPC: the same bytes missing, deterministically) leaves the file at
 * its full size, marked incomplete; a read job lays it out again (it says so) and reads data.
 */
Test(kept, a_write_job_cut_short_leaves_its_file_incomplete_and_a_read_lays_it_out)
{
	job_file();
	iopath_exits(0, "--name=w", fopt, "--rw=write", "--size=4m", "--io_size=1m", "--bs=64k",
		     NULL);
	cr_assert(layout_pending(), "a file written in part is not marked incomplete");
	iopath_prints(0, HAS("r: Laying out IO file"), "--name=r", fopt, "--rw=read", "--size=4m",
		      "--bs=64k", NULL);
	cr_assert_not(layout_pending(), "laid out again, the file is still marked incomplete");
}

/*
 * A write job whose first write fails (faultfs: EIO after the one write of the sidecar that
 * marks the new file) leaves a file that is not iopath's laid-out data: its mark says
 * incomplete, and a read job lays it out again rather than read holes.
 */
Test(kept, a_write_job_that_fails_at_once_leaves_its_file_incomplete)
{
	const char *dir = tmpdir_make();
	const char *back;
	char side[320], opt[320], *text;

	back = faultfs_over(dir, "--eio-write-after=1");
	snprintf(side, sizeof(side), "%s/.data.iopath", back);
	snprintf(opt, sizeof(opt), "--filename=%s/data", test_mnt);
	iopath_exits(1, "--name=w", opt, "--rw=write", "--size=1m", "--bs=64k", NULL);
	text = file_text(side);
	cr_assert_not_null(strstr(text, "layout=incomplete"), "the failed write job's file is marked whole: %s", text);
	free(text);
}

Test(kept, write_jobs_that_cover_their_file_leave_it_complete)
{
	static const char *const rws[] = { "--rw=write", "--rw=randwrite" };
	unsigned i;

	for (i = 0; i < 2; i++) {
		job_file();
		iopath_exits(0, "--name=w", fopt, rws[i], "--size=1m", "--bs=4k", NULL);
		cr_assert_not(layout_pending(), "%s written whole is still marked incomplete", rws[i]);
		tmpdir_cleanup();
	}
	job_file();
	iopath_exits(0, "--name=w", fopt, "--rw=randwrite", "--norandommap=1", "--size=1m",
		     "--bs=4k", NULL);
	cr_assert(layout_pending(), "norandommap leaves blocks unwritten: the file must stay incomplete");
}

/*
 * The mark names the file it marks: a copy made with cp -a (which copies user.* attributes,
 * as rsync -X and tar --xattrs do) is the user's, not iopath's, whether a job file or a result.
 */
Test(kept, a_copy_of_an_iopath_file_is_not_iopaths)
{
	char copy[340], copt[360], out[340], oopt[360], out2[340];
	uint64_t sum;

	job_file();
	iopath_exits(0, "--name=r", fopt, "--rw=read", "--size=256k", NULL);
	snprintf(copy, sizeof(copy), "%s.copy", file);
	cr_assert_eq(sh("cp -a '%s' '%s'", file, copy), 0);
	sum = file_sum(copy);
	snprintf(copt, sizeof(copt), "--filename=%s", copy);
	iopath_refuses("not created by iopath", "--name=w", copt, "--rw=write", "--size=256k",
		       NULL);
	cr_assert_eq(file_sum(copy), sum, "the copy changed");
	iopath_exits(0, "--name=w", fopt, "--rw=write", "--size=256k", NULL);

	snprintf(out, sizeof(out), "%s.json", file);
	snprintf(out2, sizeof(out2), "%s.2.json", file);
	snprintf(oopt, sizeof(oopt), "--output=%s", out);
	iopath_exits(0, "--name=n", "--ioengine=null", "--size=1m", "--output-format=json", oopt,
		     NULL);
	cr_assert_eq(sh("cp -a '%s' '%s'", out, out2), 0);
	sum = file_sum(out2);
	snprintf(oopt, sizeof(oopt), "--output=%s", out2);
	iopath_exits(2, "--name=n", "--ioengine=null", "--size=1m", "--output-format=json", oopt,
		     NULL);
	cr_assert_eq(file_sum(out2), sum, "the copied result changed");
}

/*
 * A layout that would leave a filesystem below the reserve (5% of it, at most 1 GiB) is
 * refused before anything is laid out, naming the space free and the space asked for;
 * --allow-fill lets it go on (here to ENOSPC, the job's error), as fill_device=1 does.
 */
/* An 8 MiB tmpfs mounted at test_mnt, in a new directory. */
static void small_tmpfs(void)
{
	snprintf(test_mnt, sizeof(test_mnt), "%s/small", tmpdir_make());
	test_mount(test_mnt, "tmpfs", 0, "size=8m", "a small tmpfs");
}

/* A 7900 KiB job on it (FILENAME_OPT, rw RW) is refused naming that size; the caller frees r. */
static struct run_out big_job_refused(const char *filename_opt, const char *rw)
{
	struct run_out r = iopath_run("--name=big", filename_opt, rw, "--size=7900k", NULL);

	cr_assert_eq(r.status, 2, "exit %d: %s", r.status, r.err);
	cr_assert_not_null(strstr(r.err, "7900KiB more"), "the size asked for is not named: %s", r.err);
	return r;
}

/* A 6 MiB writing job within the reserve runs. */
static void job_within_reserve_runs(const char *filename_opt)
{
	struct run_out r = iopath_run("--name=fits", filename_opt, "--rw=write", "--size=6m", NULL);

	cr_assert_eq(r.status, 0, "a job within the reserve is refused: %s", r.err);
	run_out_free(&r);
}

Test(kept, a_layout_past_the_free_space_reserve_is_refused_before_it_starts)
{
	char opt[340], path[340];
	struct run_out r;

	small_tmpfs();
	snprintf(path, sizeof(path), "%s/f", test_mnt);
	snprintf(opt, sizeof(opt), "--filename=%s", path);
	r = big_job_refused(opt, "--rw=read");
	cr_assert_not_null(strstr(r.err, "8192KiB free of 8192KiB"), "the free space is not named: %s", r.err);
	cr_assert_not_null(strstr(r.err, "--allow-fill"), "%s", r.err);
	run_out_free(&r);
	cr_assert_neq(access(path, F_OK), 0, "a file was laid out before the refusal");
	job_within_reserve_runs(opt);
	r = iopath_run("--name=big", opt, "--rw=write", "--size=7900k", "--allow-fill", NULL);
	cr_assert_neq(r.status, 2, "--allow-fill did not allow it: %s", r.err);
	run_out_free(&r);
}

/* A file in directories not made yet: the reserve is that of the nearest that exists. */
Test(kept, a_layout_in_directories_not_made_yet_is_held_to_the_reserve)
{
	char opt[340], made[340];
	struct run_out r;

	small_tmpfs();
	snprintf(made, sizeof(made), "%s/new", test_mnt);
	snprintf(opt, sizeof(opt), "--filename=%s/new/dirs/f", test_mnt);
	r = big_job_refused(opt, "--rw=write");
	run_out_free(&r);
	cr_assert_neq(access(made, F_OK), 0, "directories were made before the refusal");
	job_within_reserve_runs(opt);
}

Test(kept, sweep_save_into_a_directory_is_refused_before_any_cell)
{
	struct run_out r;

	dirs("dbdir");
	cr_assert_eq(mkdir(db, 0755), 0);
	r = iopath_run("sweep", "--engine", "null", "--runtime", "0", "--size", "1m", "--target", target,
		       "--save", "--db", db, NULL);
	assert_refused_early(&r, "not a regular file");
	cr_assert_null(strstr(r.err, "cell 1/"), "a cell ran: %s", r.err);
	run_out_free(&r);
}

/*
 * A cell refused when it comes to run (here: a block size direct I/O cannot use there) is
 * skipped with its reason; the sweep goes on and no cell is called interrupted.
 */
Test(kept, a_cell_refused_at_run_time_is_skipped_and_the_others_run)
{
	char json[340];
	json_t *j, *c;
	size_t i;
	struct run_out r;

	dirs("unused.db");
	snprintf(json, sizeof(json), "%s/out.json", target);
	r = iopath_run("sweep", "--engine", "psync", "--bs", "1000,4k", "--direct", "1", "--runtime", "0",
		       "--size", "256k", "--target", target, "--json", json, NULL);
	/* skipped is not failed: the sweep measured all it could, exit 0, the reason on stderr */
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	cr_assert_not_null(strstr(r.err, "direct"), "the skip is not said: %s", r.err);
	run_out_free(&r);
	j = json_load_path(json);
	json_array_foreach(json_object_get(j, "cells"), i, c) {
		const char *st = json_string_value(json_object_get(c, "status"));
		const char *why = json_string_value(json_object_get(c, "reason"));

		cr_assert_str_neq(st, "interrupted", "cell %zu called interrupted (no signal was sent)", i);
		if (i == 0) {
			cr_assert_str_eq(st, "skipped");
			cr_assert(why && strstr(why, "direct"), "the reason is not recorded: %s", why ? why : "(none)");
		} else {
			cr_assert_str_eq(st, "ok", "the cell after the refused one did not run");
		}
	}
	cr_assert_eq(json_array_size(json_object_get(j, "cells")), 2);
	json_decref(j);
}

/* --json checked fine at the start, a directory by the end: the result goes to the fallback. */
Test(kept, a_sweep_output_that_fails_at_the_end_keeps_the_result)
{
	char json[340], *const args[] = { "iopath", "sweep", "--engine", "null", "--runtime", "0",
					  "--size", "1m", "--target", target, "--json", json, NULL };
	struct run_bg b;
	struct run_out r;

	dirs("unused.db");
	snprintf(json, sizeof(json), "%s/out.json", target);
	setenv("TMPDIR", target, 1);
	hold_arm(target);
	b = iopath_startv(args, NULL);
	hold_disarm();
	cr_assert(hold_reached(&b, 1), "the sweep never reached a layout");
	cr_assert_eq(mkdir(json, 0755), 0);
	hold_release(1);
	cr_assert(hold_reached(&b, 2), "the sweep never finished its layout");
	hold_release(2);
	r = iopath_wait(&b, 120);
	unsetenv("TMPDIR");
	cr_assert_eq(r.status, 1, "exit %d: %s", r.status, r.err);
	cr_assert_not_null(strstr(r.err, "--json failed; the whole result is kept in"), "%s", r.err);
	run_out_free(&r);
}

/* suite --output FILE (the space form --help shows) with the normal format: the table in FILE. */
Test(kept, suite_output_with_the_normal_format_writes_the_table_there)
{
	char t[340], out[340], *text;
	struct run_out r;

	dirs("unused.db");
	snprintf(t, sizeof(t), "--target=only=%s", target);
	snprintf(out, sizeof(out), "%s/table.txt", target);
	r = iopath_run("suite", "vm-paths", t, "--repeat=1", "--scale=1/2048", "--output", out, NULL);
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	cr_assert_null(strstr(r.out, "only"), "the table went to stdout: %s", r.out);
	run_out_free(&r);
	text = file_text(out);
	cr_assert_not_null(strstr(text, "only"), "no table in %s: %s", out, text);
	free(text);
}

/*
 * Files a job writes besides its data (write_iolog, write_*_log, verify_state_save) are
 * checked before the first I/O like every output: a user's file, a directory, a stream or
 * a device is refused with one line naming the option, exit 2, and left as it was.
 */
Test(kept, derived_output_names_are_checked_before_the_first_io)
{
	static const char *const cases[][3] = {
		{ "--write_iolog=%s/user.log", "write_iolog", "not written by iopath" },
		{ "--write_iolog=%s/adir", "write_iolog", "is a directory" },
		{ "--write_iolog=/dev/stdout", "write_iolog", "regular files" },
		{ "--write_bw_log=%s/j", "write_bw_log", "not written by iopath" },
		{ "--write_lat_log=%s/adir/x", "write_lat_log", "" },
	};
	char opt[400], user[340], bwlog[340], adir[340];
	struct run_out r;
	uint64_t sum;
	unsigned i;

	dirs("unused.db");
	snprintf(user, sizeof(user), "%s/user.log", target);
	snprintf(bwlog, sizeof(bwlog), "%s/j_bw.1.log", target);
	snprintf(adir, sizeof(adir), "%s/adir", target);
	file_write_text(user, "precious\n");
	file_write_text(bwlog, "precious\n");
	cr_assert_eq(mkdir(adir, 0755), 0);
	chmod(adir, 0555);
	sum = file_sum(user) ^ file_sum(bwlog);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (i == 4 && is_root())
			continue;	/* root writes a 0555 directory */
		snprintf(opt, sizeof(opt), cases[i][0], target);
		r = iopath_run("--name=j", "--ioengine=null", "--size=1m", opt, NULL);
		cr_assert_eq(r.status, 2, "%s: exit %d: %s", opt, r.status, r.err);
		cr_assert_not_null(strstr(r.err, cases[i][1]), "%s: the option is not named: %s", opt, r.err);
		cr_assert_not_null(strstr(r.err, cases[i][2]), "%s: %s", opt, r.err);
		cr_assert_eq(strchr(r.err, '\n'), r.err + strlen(r.err) - 1, "not one line: %s", r.err);
		run_out_free(&r);
	}
	cr_assert_eq(file_sum(user) ^ file_sum(bwlog), sum, "a user's file changed");
}

/*
 * verify_state_save (on by default) onto a file of the user's: refused before the first I/O,
 * the file as it was; a state file iopath wrote is replaced by the next run.
 */
Test(kept, a_verify_state_save_onto_a_users_file_is_refused_before_the_first_io)
{
	char state[340], data[340], dopt[360], aux[360];
	struct run_out r;
	uint64_t sum;

	dirs("unused.db");
	snprintf(state, sizeof(state), "%s/local-v-0-verify.state", target);
	snprintf(data, sizeof(data), "%s/d", target);
	snprintf(dopt, sizeof(dopt), "--filename=%s", data);
	snprintf(aux, sizeof(aux), "--aux-path=%s", target);
	file_write_text(state, "the user's notes\n");
	sum = file_sum(state);
	r = iopath_run("--name=v", dopt, aux, "--rw=write", "--size=256k", "--verify=md5", NULL);
	cr_assert_eq(r.status, 2, "exit %d: %s", r.status, r.err);
	cr_assert_not_null(strstr(r.err, "verify_state_save"), "the option is not named: %s", r.err);
	cr_assert_eq(strchr(r.err, '\n'), r.err + strlen(r.err) - 1, "not one line: %s", r.err);
	run_out_free(&r);
	cr_assert_eq(file_sum(state), sum, "the user's file changed");
	cr_assert_neq(access(data, F_OK), 0, "I/O was done before the refusal");
	unlink(state);
	iopath_exits(0, "--name=v", dopt, aux, "--rw=write", "--size=256k", "--verify=md5", NULL);
	cr_assert_eq(access(state, F_OK), 0, "no state was saved");
	r = iopath_run("--name=v", dopt, aux, "--rw=write", "--size=256k", "--verify=md5", NULL);
	cr_assert_eq(r.status, 0, "iopath's own state file is not replaced: %s", r.err);
	cr_assert_null(strstr(r.err, "verify_state_save"), "%s", r.err);
	run_out_free(&r);
}

/*
 * A file that grows during the run (fallocate=none) on a filesystem another program fills
 * meanwhile (here while the runner holds, every worker past its first I/O): the job stops at
 * the reserve with a clear error, before ENOSPC, and its result is written.
 */
Test(kept, a_job_is_stopped_at_the_reserve_when_the_filesystem_fills_during_the_run)
{
	char opt[340], out[340], oopt[360];
	char *const args[] = { "iopath", "--name=w", opt, "--rw=write", "--size=32m", "--bs=64k",
			       "--fallocate=none", "--rate=1m", "--output-format=json", oopt, NULL };
	struct run_bg b;
	struct run_out r;
	json_t *j;

	dirs("unused.db");
	snprintf(test_mnt, sizeof(test_mnt), "%s/small", target);
	test_mount(test_mnt, "tmpfs", 0, "size=64m", "a small tmpfs");
	snprintf(opt, sizeof(opt), "--filename=%s/f", test_mnt);
	snprintf(out, sizeof(out), "%s/out.json", target);
	snprintf(oopt, sizeof(oopt), "--output=%s", out);
	b = iopath_start_running(target, args, NULL);
	cr_assert(running_reached(&b), "the job never started");
	cr_assert_eq(sh("dd if=/dev/zero of='%s/filler' bs=1M count=61 2>/dev/null", test_mnt), 0);
	running_release();
	r = iopath_wait(&b, 120);
	cr_assert_eq(r.status, 1, "exit %d: %s", r.status, r.err);
	cr_assert_not_null(strstr(r.err, "under iopath's reserve"), "%s", r.err);
	cr_assert_null(strstr(r.err, "No space left"), "it ran to ENOSPC: %s", r.err);
	run_out_free(&r);
	j = json_load_path(out);
	cr_assert_eq(json_integer_value(json_object_get(json_array_get(json_object_get(j, "jobs"), 0), "error")), 28);
	cr_assert_gt(job_int(j, 0, "write", "io_bytes"), 0, "the numbers measured are lost");
	json_decref(j);
}

/*
 * A job whose files are on two filesystems (filename=a:b): the second's filling up stops it
 * too, naming that file, not only the first's.
 */
Test(kept, a_job_is_stopped_at_the_reserve_of_each_filesystem_it_writes)
{
	char opt[700], out[340], oopt[360], msg[400];
	char *const args[] = { "iopath", "--name=w", opt, "--rw=write", "--size=32m", "--bs=64k",
			       "--fallocate=none", "--rate=1m", "--output-format=json", oopt, NULL };
	struct run_bg b;
	struct run_out r;
	json_t *j;

	dirs("unused.db");
	snprintf(test_mnt, sizeof(test_mnt), "%s/small", target);
	test_mount(test_mnt, "tmpfs", 0, "size=64m", "a small tmpfs");
	snprintf(opt, sizeof(opt), "--filename=%s/a:%s/b", target, test_mnt);
	snprintf(out, sizeof(out), "%s/out.json", target);
	snprintf(oopt, sizeof(oopt), "--output=%s", out);
	b = iopath_start_running(target, args, NULL);
	cr_assert(running_reached(&b), "the job never started");
	cr_assert_eq(sh("dd if=/dev/zero of='%s/filler' bs=1M count=61 2>/dev/null", test_mnt), 0);
	running_release();
	r = iopath_wait(&b, 120);
	cr_assert_eq(r.status, 1, "exit %d: %s", r.status, r.err);
	snprintf(msg, sizeof(msg), "the filesystem of %s/b has", test_mnt);
	cr_assert_not_null(strstr(r.err, msg), "the second file's filesystem is not named: %s", r.err);
	cr_assert_null(strstr(r.err, "No space left"), "it ran to ENOSPC: %s", r.err);
	run_out_free(&r);
	j = json_load_path(out);
	cr_assert_gt(job_int(j, 0, "write", "io_bytes"), 0, "the numbers measured are lost");
	json_decref(j);
}

/*
 * An overwrite of a file allocated whole needs no space: on a filesystem already under the
 * reserve (filled by another program after the file was laid out) the job runs to its end.
 */
Test(kept, an_overwrite_of_an_allocated_file_runs_on_a_filesystem_under_the_reserve)
{
	char opt[340];
	struct run_out r;

	dirs("unused.db");
	snprintf(test_mnt, sizeof(test_mnt), "%s/small", target);
	test_mount(test_mnt, "tmpfs", 0, "size=64m", "a small tmpfs");
	snprintf(opt, sizeof(opt), "--filename=%s/f", test_mnt);
	iopath_exits(0, "--name=lay", opt, "--rw=write", "--size=8m", "--bs=64k", NULL);
	cr_assert_eq(sh("dd if=/dev/zero of='%s/filler' bs=1M count=55 2>/dev/null", test_mnt), 0);
	/* a second of overwrites: the watch looks ten times a second */
	r = iopath_run("--name=w", opt, "--rw=randwrite", "--size=8m", "--bs=64k", "--time_based",
		       "--runtime=1s", NULL);
	cr_assert_eq(r.status, 0, "an overwrite was stopped for space it does not need: exit %d: %s",
		     r.status, r.err);
	cr_assert_null(strstr(r.err, "reserve"), "%s", r.err);
	run_out_free(&r);
}

/*
 * compare, history and explain: an output checked fine at the start that cannot be written at
 * the end (here a filesystem full already: the check looks at the name, not the space) keeps
 * the command's whole JSON in the fallback file named on stderr, exit 1.
 */
static char full[340], kept_dir[300];

static void full_fs_and_a_run(void)
{
	char out[340], filler[360];

	dirs("unused.db");
	snprintf(kept_dir, sizeof(kept_dir), "%s", target);
	snprintf(out, sizeof(out), "--output=%s/A.json", target);
	iopath_exits(0, "run", "randread-4k-qd1", "--scale=0.001", "ioengine=null", "--repeat=2",
		     "--target", target, "--output-format=json", out, NULL);
	snprintf(out, sizeof(out), "--output=%s/B.json", target);
	iopath_exits(0, "run", "randread-4k-qd1", "--scale=0.001", "ioengine=null", "--repeat=2",
		     "--target", target, "--output-format=json", out, NULL);
	snprintf(test_mnt, sizeof(test_mnt), "%s/full", tmpdir_make());
	test_mount(test_mnt, "tmpfs", 0, "size=64k", "a small tmpfs");
	snprintf(filler, sizeof(filler), "%s/filler", test_mnt);
	sh("dd if=/dev/zero of='%s' bs=4k 2>/dev/null", filler);
	snprintf(full, sizeof(full), "%s/out", test_mnt);
	setenv("TMPDIR", kept_dir, 1);
}

/* The fallback file r names, loaded; it is in $TMPDIR and holds key. */
static json_t *kept_json(struct run_out *r, const char *what, const char *key)
{
	char kept[400], *p;
	json_t *j;

	unsetenv("TMPDIR");
	cr_assert_eq(r->status, 1, "exit %d: %s", r->status, r->err);
	p = strstr(r->err, "failed; the whole result is kept in ");
	cr_assert_not_null(p, "no fallback file named: %s", r->err);
	cr_assert_not_null(strstr(r->err, what), "the failed output is not named: %s", r->err);
	cr_assert_eq(sscanf(p, "failed; the whole result is kept in %399s", kept), 1);
	cr_assert_eq(strncmp(kept, kept_dir, strlen(kept_dir)), 0, "fallback %s is not in $TMPDIR", kept);
	j = json_load_path(kept);
	cr_assert_not_null(j, "the fallback %s is not JSON", kept);
	cr_assert_not_null(json_object_get(j, key), "the fallback lacks '%s'", key);
	cr_assert_eq(access(full, F_OK), -1, "a partial output was left in %s", full);
	return j;
}

Test(kept, a_compare_output_that_fails_at_the_end_keeps_the_comparison)
{
	char a[340], b[340], opt[360];
	struct run_out r;
	json_t *j;

	full_fs_and_a_run();
	snprintf(a, sizeof(a), "%s/A.json", target);
	snprintf(b, sizeof(b), "%s/B.json", target);
	snprintf(opt, sizeof(opt), "--json=%s", full);
	r = iopath_run("compare", a, b, opt, "--allow-inconclusive", NULL);
	j = kept_json(&r, "--json", "cells");
	cr_assert_gt(json_array_size(json_object_get(j, "cells")), 0, "the comparison has no cells");
	json_decref(j);
	run_out_free(&r);
	setenv("TMPDIR", kept_dir, 1);
	r = iopath_run("compare", a, b, "--junit", full, "--allow-inconclusive", NULL);
	j = kept_json(&r, "--junit", "cells");
	json_decref(j);
	run_out_free(&r);
}

Test(kept, a_history_output_that_fails_at_the_end_keeps_the_history)
{
	char opt[360];
	struct run_out r;
	json_t *j;

	full_fs_and_a_run();
	snprintf(opt, sizeof(opt), "--json=%s", full);
	r = iopath_run("history", target, opt, "--allow-inconclusive", NULL);
	j = kept_json(&r, "--json", "metrics");
	cr_assert_eq(json_integer_value(json_object_get(j, "runs")), 2, "the history lost a run");
	json_decref(j);
	run_out_free(&r);
	/* --plot DIR: its charts' data cannot be written there */
	setenv("TMPDIR", kept_dir, 1);
	snprintf(opt, sizeof(opt), "--plot=%s/charts", test_mnt);
	r = iopath_run("history", target, opt, "--allow-inconclusive", NULL);
	j = kept_json(&r, "--plot", "metrics");
	json_decref(j);
	run_out_free(&r);
}

Test(kept, an_explain_output_that_fails_at_the_end_keeps_the_explanation)
{
	char a[340], opt[360];
	struct run_out r;
	json_t *j;

	full_fs_and_a_run();
	snprintf(a, sizeof(a), "%s/A.json", target);
	snprintf(opt, sizeof(opt), "--output=%s", full);
	r = iopath_run("explain", a, opt, NULL);
	j = kept_json(&r, "--output", "iopath");
	cr_assert_not_null(json_object_get(json_object_get(j, "iopath"), "explain"));
	json_decref(j);
	run_out_free(&r);
}
