/* Integration: iopath never writes, extends or truncates a file it did not create unless told. */
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"

TestSuite(safety, .fini = mount_cleanup);

static char path[300], fopt[320];

/* path and fopt (--filename=) name dir/name. */
static void name_file(const char *dir, const char *name)
{
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	snprintf(fopt, sizeof(fopt), "--filename=%s", path);
}

/* A file of the user's, 64 KiB of data, and its checksum. */
static uint64_t user_file(const char *name)
{
	name_file(tmpdir_make(), name);
	file_make(path, 65536, 7);
	return file_sum(path);
}

static void assert_refused(struct run_out *r, uint64_t sum, const char *why)
{
	cr_assert_eq(r->status, 2, "exit %d: %s", r->status, r->err);
	cr_assert_not_null(strstr(r->err, path), "message does not name the file: %s", r->err);
	cr_assert_not_null(strstr(r->err, why), "message lacks '%s': %s", why, r->err);
	cr_assert_eq(strchr(r->err, '\n'), r->err + strlen(r->err) - 1, "not one line: %s", r->err);
	cr_assert_eq(file_sum(path), sum, "%s changed", path);
}

Test(safety, write_jobs_refuse_a_file_iopath_did_not_create)
{
	static const char *const rws[] = { "--rw=write", "--rw=randwrite", "--rw=rw", "--rw=randrw" };
	uint64_t sum = user_file("precious");
	unsigned i;

	for (i = 0; i < 4; i++) {
		struct run_out r = iopath_run("--name=w", fopt, rws[i], "--size=64k", NULL);

		assert_refused(&r, sum, "not created by iopath");
		assert_has(r.err, "overwrite=1", "--allow-overwrite", NULL);
		run_out_free(&r);
	}
}

Test(safety, write_job_without_size_refuses_a_foreign_file)
{
	uint64_t sum = user_file("precious");
	struct run_out r = iopath_run("--name=w", fopt, "--rw=write", NULL);

	assert_refused(&r, sum, "would overwrite it");
	run_out_free(&r);
}

Test(safety, read_job_refuses_to_extend_a_short_foreign_file)
{
	uint64_t sum = user_file("short");
	struct run_out r = iopath_run("--name=r", fopt, "--rw=read", "--size=1m", NULL);

	assert_refused(&r, sum, "65536 bytes and was not created by iopath");
	run_out_free(&r);
}

Test(safety, read_job_refuses_an_empty_foreign_file)
{
	struct run_out r;

	user_file("empty");
	file_make(path, 0, 0);
	r = iopath_run("--name=r", fopt, "--rw=read", "--size=1m", NULL);
	assert_refused(&r, file_sum(path), "is empty and was not created by iopath");
	run_out_free(&r);
	r = iopath_run("--name=r", fopt, "--rw=read", NULL);
	assert_refused(&r, file_sum(path), "is empty and was not created by iopath");
	run_out_free(&r);
}

Test(safety, read_job_on_a_foreign_file_is_fine_and_changes_nothing)
{
	uint64_t sum = user_file("data");
	struct run_out r = iopath_run("--name=r", fopt, "--rw=randread", "--verify=0", NULL);

	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	cr_assert_eq(file_sum(path), sum);
	run_out_free(&r);
}

Test(safety, overwrite_in_the_job_file_allows_writing)
{
	uint64_t sum = user_file("mine");
	char job[400], jobfile[320];
	struct run_out r;

	snprintf(jobfile, sizeof(jobfile), "%s.fio", path);
	snprintf(job, sizeof(job), "[w]\nfilename=%s\nrw=write\noverwrite=1\n", path);
	file_write_text(jobfile, job);
	r = iopath_run(jobfile, NULL);
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	cr_assert_neq(file_sum(path), sum);
	run_out_free(&r);
}

Test(safety, allow_overwrite_flag_allows_writing)
{
	uint64_t sum = user_file("mine");
	struct run_out r = iopath_run("--allow-overwrite", "--name=w", fopt, "--rw=randwrite", NULL);

	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	cr_assert_neq(file_sum(path), sum);
	run_out_free(&r);
}

Test(safety, files_iopath_creates_are_marked_and_rewritten_without_asking)
{
	const char *dir = tmpdir_make();
	char val[64];

	name_file(dir, "made");
	iopath_exits(0, "--name=w", fopt, "--rw=write", "--size=256k", NULL);
	cr_assert_gt(getxattr(path, "user.iopath", val, sizeof(val)), 0, "no user.iopath on %s", path);
	iopath_exits(0, "--name=w", fopt, "--rw=randwrite", "--size=512k", NULL);
}

Test(safety, read_job_lays_out_a_missing_file_and_marks_it)
{
	const char *dir = tmpdir_make();
	char val[64];
	struct stat st;

	name_file(dir, "laid");
	iopath_exits(0, "--name=r", fopt, "--rw=read", "--size=128k", NULL);
	cr_assert_eq(stat(path, &st), 0);
	cr_assert_eq(st.st_size, 128 << 10);
	cr_assert_gt(getxattr(path, "user.iopath", val, sizeof(val)), 0);
	/* a larger re-run extends its own file without asking */
	iopath_exits(0, "--name=r", fopt, "--rw=read", "--size=256k", NULL);
}

/* ramfs has no user xattrs: the mark is a sidecar file recording the inode. */
Test(safety, sidecar_marks_files_where_xattrs_are_missing)
{
	const char *dir = tmpdir_make();
	char mnt[300], side[320];
	struct run_out r;
	uint64_t sum;

	snprintf(mnt, sizeof(mnt), "%s/ramfs", dir);
	test_mount(mnt, "ramfs", 0, NULL, "a ramfs (a filesystem without user xattrs)");
	name_file(mnt, "made");
	snprintf(side, sizeof(side), "%s/.made.iopath", mnt);
	iopath_exits(0, "--name=w", fopt, "--rw=write", "--size=64k", NULL);
	cr_assert_eq(access(side, F_OK), 0, "no sidecar %s", side);
	iopath_exits(0, "--name=w", fopt, "--rw=randwrite", "--size=64k", NULL);
	/* the user replaces the file: the sidecar no longer speaks for it */
	unlink(path);
	file_make(path, 65536, 3);
	sum = file_sum(path);
	r = iopath_run("--name=w", fopt, "--rw=write", "--size=64k", NULL);
	cr_assert_eq(file_sum(path), sum);
	umount2(mnt, MNT_DETACH);
	cr_assert_eq(r.status, 2, "exit %d: %s", r.status, r.err);
	cr_assert_not_null(strstr(r.err, "not created by iopath"), "%s", r.err);
	run_out_free(&r);
}

Test(safety, unlink_refuses_a_file_iopath_did_not_create)
{
	uint64_t sum = user_file("keep");
	struct run_out r = iopath_run("--name=r", fopt, "--rw=read", "--unlink=1", NULL);

	assert_refused(&r, sum, "unlink=1 would remove");
	run_out_free(&r);
}

Test(safety, unlink_removes_the_files_iopath_created_and_their_marks)
{
	const char *dir = tmpdir_make();
	struct run_out r;

	name_file(dir, "mine");
	r = iopath_run("--name=w", fopt, "--rw=write", "--size=64k", "--unlink=1", NULL);
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	cr_assert_neq(access(path, F_OK), 0, "%s was not removed", path);
	run_out_free(&r);
}

/* rw=metadata meets a name that already exists: the job fails, and that file survives. */
Test(safety, metadata_never_removes_files_it_did_not_create)
{
	const char *dir = tmpdir_make();
	char root[300], d[320];
	uint64_t sum;
	struct run_out r;

	snprintf(root, sizeof(root), "%s/m.0.meta", dir);
	cr_assert_eq(mkdir(root, 0755), 0);
	snprintf(path, sizeof(path), "%s/f5", root);
	file_make(path, 4096, 9);
	sum = file_sum(path);
	snprintf(d, sizeof(d), "--directory=%s", dir);
	r = iopath_run("--name=m", "--rw=metadata", d, "--nrfiles=10", "--files_per_dir=10", NULL);
	cr_assert_eq(r.status, 1, "exit %d: %s", r.status, r.err);
	cr_assert_not_null(strstr(r.err, "File exists"), "%s", r.err);
	cr_assert_eq(file_sum(path), sum, "%s was removed or changed", path);
	snprintf(path, sizeof(path), "%s/f0", root);
	cr_assert_neq(access(path, F_OK), 0, "the run's own files were left behind");
	run_out_free(&r);
}

/* ---- outputs are regular files: never a device, never through a link, never a foreign file ---- */

static char out_dir[300], victim[320];

/* A directory with a file of the user's in it, "victim", and its checksum. */
static uint64_t victim_make(void)
{
	snprintf(out_dir, sizeof(out_dir), "%s", tmpdir_make());
	snprintf(victim, sizeof(victim), "%s/victim", out_dir);
	file_make(victim, 4096, 5);
	return file_sum(victim);
}

static struct run_out null_run_to(const char *output, const char *fmt)
{
	char o[400], f[64];

	snprintf(o, sizeof(o), "--output=%s", output);
	snprintf(f, sizeof(f), "--output-format=%s", fmt);
	return iopath_run("--name=n", "--ioengine=null", "--size=1m", f, o, NULL);
}

static void assert_output_refused(struct run_out *r, const char *name, const char *why)
{
	cr_assert_eq(r->status, 2, "exit %d: %s", r->status, r->err);
	cr_assert_not_null(strstr(r->err, name), "message does not name %s: %s", name, r->err);
	cr_assert_not_null(strstr(r->err, why), "message lacks '%s': %s", why, r->err);
	cr_assert_eq(strchr(r->err, '\n'), r->err + strlen(r->err) - 1, "not one line: %s", r->err);
}

Test(safety, output_refuses_a_character_device)
{
	struct run_out r = null_run_to("/dev/zero", "json");

	assert_output_refused(&r, "/dev/zero", "character device");
	run_out_free(&r);
}

Test(safety, output_refuses_a_symlink_and_leaves_its_target_alone)
{
	uint64_t sum = victim_make();
	char link[400];
	static const char *const fmts[] = { "json", "normal", "csv" };
	unsigned i;

	snprintf(link, sizeof(link), "%s/link", out_dir);
	cr_assert_eq(symlink(victim, link), 0);
	for (i = 0; i < 3; i++) {
		struct run_out r = null_run_to(link, fmts[i]);

		assert_output_refused(&r, link, "symbolic link");
		run_out_free(&r);
	}
	cr_assert_eq(file_sum(victim), sum, "the link's target changed");
	cr_assert_eq(access(link, F_OK), 0, "the link was replaced");
}

Test(safety, output_refuses_a_file_iopath_did_not_write_unless_told)
{
	uint64_t sum = victim_make();
	struct run_out r = null_run_to(victim, "json");
	char o[400];

	assert_output_refused(&r, victim, "not written by iopath");
	cr_assert_not_null(strstr(r.err, "--allow-overwrite"), "%s", r.err);
	run_out_free(&r);
	cr_assert_eq(file_sum(victim), sum);
	snprintf(o, sizeof(o), "--output=%s", victim);
	r = iopath_run("--allow-overwrite", "--name=n", "--ioengine=null", "--size=1m", o, NULL);
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	cr_assert_neq(file_sum(victim), sum);
	run_out_free(&r);
}

Test(safety, output_rewrites_its_own_result_and_fills_an_empty_file)
{
	char path_out[400];
	struct run_out r;

	victim_make();
	snprintf(path_out, sizeof(path_out), "%s/res.json", out_dir);
	file_make(path_out, 0, 0);	/* empty: nothing to lose (mktemp's file) */
	r = null_run_to(path_out, "json");
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	run_out_free(&r);
	r = null_run_to(path_out, "normal");	/* its own result, replaced without asking */
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	run_out_free(&r);
}

Test(safety, output_to_stdout_names_and_dev_null_still_works)
{
	static const char *const names[] = { "/dev/null", "/dev/stdout", "-" };
	unsigned i;

	for (i = 0; i < 3; i++) {
		struct run_out r = null_run_to(names[i], "json");

		cr_assert_eq(r.status, 0, "%s: exit %d: %s", names[i], r.status, r.err);
		if (i)
			cr_assert_not_null(strstr(r.out, "\"jobs\""), "%s: %s", names[i], r.out);
		run_out_free(&r);
	}
}

/* Two iopath results to compare, in out_dir. */
static void two_results(char *a, char *b, size_t len)
{
	struct run_out r;

	snprintf(a, len, "%s/a.json", out_dir);
	snprintf(b, len, "%s/b.json", out_dir);
	r = null_run_to(a, "json");
	cr_assert_eq(r.status, 0, "%s", r.err);
	run_out_free(&r);
	r = null_run_to(b, "json");
	cr_assert_eq(r.status, 0, "%s", r.err);
	run_out_free(&r);
}

Test(safety, compare_json_and_junit_refuse_devices_links_and_foreign_files)
{
	uint64_t sum = victim_make();
	char a[400], b[400], link[400], opt[420];
	const char *targets[] = { "/dev/zero", link, victim };
	const char *whys[] = { "character device", "symbolic link", "not written by iopath" };
	unsigned i;

	two_results(a, b, sizeof(a));
	snprintf(link, sizeof(link), "%s/link", out_dir);
	cr_assert_eq(symlink(victim, link), 0);
	for (i = 0; i < 3; i++) {
		struct run_out r;

		snprintf(opt, sizeof(opt), "--json=%s", targets[i]);
		r = iopath_run("compare", a, b, opt, NULL);
		assert_output_refused(&r, targets[i], whys[i]);
		run_out_free(&r);
		r = iopath_run("compare", a, b, "--junit", targets[i], NULL);
		assert_output_refused(&r, targets[i], whys[i]);
		run_out_free(&r);
	}
	cr_assert_eq(file_sum(victim), sum);
}

/* write_bw_log's file already there: a link to the user's file, or the user's own file. */
Test(safety, logs_never_follow_links_or_truncate_foreign_files)
{
	uint64_t sum = victim_make();
	char log[400], pre[400], fopt_[400];
	struct run_out r;

	snprintf(pre, sizeof(pre), "--write_bw_log=%s/l", out_dir);
	snprintf(log, sizeof(log), "%s/l_bw.1.log", out_dir);
	snprintf(fopt_, sizeof(fopt_), "--filename=%s/data", out_dir);
	cr_assert_eq(symlink(victim, log), 0);
	r = iopath_run("--name=n", fopt_, "--rw=write", "--size=64k", pre, NULL);
	cr_assert_neq(r.status, 0, "a log was written through a link: %s", r.err);
	cr_assert_not_null(strstr(r.err, log), "%s", r.err);
	run_out_free(&r);
	cr_assert_eq(file_sum(victim), sum, "the link's target changed");
	unlink(log);
	file_make(log, 4096, 8);
	sum = file_sum(log);
	r = iopath_run("--name=n", fopt_, "--rw=write", "--size=64k", pre, NULL);
	cr_assert_neq(r.status, 0, "a foreign log file was truncated: %s", r.err);
	run_out_free(&r);
	cr_assert_eq(file_sum(log), sum);
}

/*
 * Runs saved in the same second (or at once) each keep their own run: the database gives
 * every run its own id, and the files of the old JSON store beside it (here: foreign files
 * under every name a run of these seconds had there) are read, never written.
 */
Test(safety, save_never_replaces_another_saved_run)
{
	char rd[400], target[400], host[256] = "", name[600], sub[400];
	uint64_t sums[12];
	time_t now = time(NULL);
	struct run_out r;
	struct tm tm;
	unsigned i, n = 0;
	DIR *d;
	struct dirent *de;

	victim_make();
	gethostname(host, sizeof(host) - 1);
	for (i = 0; host[i]; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-=", host[i]))
			host[i] = '_';
	snprintf(rd, sizeof(rd), "--results-dir=%s/store", out_dir);
	snprintf(sub, sizeof(sub), "%s/store", out_dir);
	cr_assert_eq(mkdir(sub, 0755), 0);
	snprintf(sub, sizeof(sub), "%s/store/sweep", out_dir);
	cr_assert_eq(mkdir(sub, 0755), 0);
	/* another run's results already hold every name this one could take in the next seconds */
	for (i = 0; i < 12; i++) {
		time_t t = now - 1 + (time_t)i;
		char when[32];

		gmtime_r(&t, &tm);
		strftime(when, sizeof(when), "%Y%m%dT%H%M%SZ", &tm);
		snprintf(name, sizeof(name), "%s/%s-%s.json", sub, when, host);
		file_make(name, 512, i);
		sums[i] = file_sum(name);
	}
	snprintf(target, sizeof(target), "--target=t=%s", out_dir);
	{
		struct run_bg a = iopath_start("sweep", "--engine=null", "--size=1m", "--runtime=0",
					       target, "--save", rd, "--label=w=a", NULL);
		struct run_bg b = iopath_start("sweep", "--engine=null", "--size=1m", "--runtime=0",
					       target, "--save", rd, "--label=w=b", NULL);

		r = iopath_wait(&a, 300);
		cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
		run_out_free(&r);
		r = iopath_wait(&b, 300);
		cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
		run_out_free(&r);
	}
	for (i = 0; i < 12; i++) {
		time_t t = now - 1 + (time_t)i;
		char when[32];

		gmtime_r(&t, &tm);
		strftime(when, sizeof(when), "%Y%m%dT%H%M%SZ", &tm);
		snprintf(name, sizeof(name), "%s/%s-%s.json", sub, when, host);
		cr_assert_eq(file_sum(name), sums[i], "%s was replaced", name);
	}
	d = opendir(sub);
	cr_assert_not_null(d);
	while ((de = readdir(d)))
		n += de->d_name[0] != '.';
	closedir(d);
	cr_assert_eq(n, 12, "a file was added to the old store (%u files)", n);
	snprintf(rd, sizeof(rd), "--db=%s/store/iopath.db", out_dir);
	r = iopath_run("results", "list", rd, NULL);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.out, "{\"w\":\"a\"}") && strstr(r.out, "{\"w\":\"b\"}"),
		  "both runs saved:\n%s", r.out);
	run_out_free(&r);
}

/* ---- data is never code: the classic payloads through every chart ---- */

static const char *const payloads[] = {
	"\"; system \"touch PWNED1\"; set title \"",
	"`touch PWNED2`",
	"'; system 'touch PWNED3'; set title '",
	"x\nsystem \"touch PWNED4\"\n",
	"\\\"; system \"touch PWNED5\"; #",
};

static void assert_no_pwned(const char *dir)
{
	char p[400];
	unsigned i;

	for (i = 1; i <= 5; i++) {
		snprintf(p, sizeof(p), "%s/PWNED%u", dir, i);
		cr_assert_neq(access(p, F_OK), 0, "gnuplot ran a command from the data: %s", p);
	}
}

Test(safety, sweep_plot_quotes_target_names_and_paths)
{
	char tdir[400], target[900], plot[400], charts[400];

	victim_make();
	/* a target directory whose name is the payload (no '/' in a name: the relative ones) */
	snprintf(tdir, sizeof(tdir), "%s/%s", out_dir, "\"; system \"touch PWNED1\"; set title \"`touch PWNED2`");
	cr_assert_eq(mkdir(tdir, 0755), 0);
	snprintf(target, sizeof(target), "--target=%s=%s", "x'; system 'touch PWNED3'; set title '", tdir);
	snprintf(charts, sizeof(charts), "%s/charts", out_dir);
	snprintf(plot, sizeof(plot), "--plot=%s", charts);
	iopath_exits(0, "sweep", "--engine=null", "--iodepth=1,2", "--size=1m", "--runtime=0",
		     target, plot, NULL);
	assert_no_pwned(charts);
	assert_no_pwned(out_dir);
	snprintf(plot, sizeof(plot), "%s/iops.svg", charts);
	cr_assert_eq(access(plot, R_OK), 0, "no chart drawn");
}

Test(safety, history_plot_quotes_every_string_from_result_files)
{
	char dir[400], p[400], plot[400], charts[400], by[64];
	unsigned i;

	victim_make();
	snprintf(dir, sizeof(dir), "%s/store", out_dir);
	cr_assert_eq(mkdir(dir, 0755), 0);
	for (i = 0; i < 5; i++) {
		json_t *root = json_pack("{s:i, s:s, s:s, s:I, s:{s:s}, s:{s:s, s:{s:s}, s:{s:s}}, s:[], s:[{s:{s:s, s:s}, s:s, s:s, s:[{s:s, s:i, s:{s:f, s:f, s:i}}]}]}",
					 "schema_version", 1, "kind", "sweep", "name", payloads[i],
					 "timestamp_ms", (json_int_t)(1000 * (i + 1)), "labels", "qemu", payloads[i],
					 "env", "hostname", payloads[i], "host", "kernel", payloads[i], "iopath",
					 "version", "v1", "targets", "cells", "identity", "target", payloads[i],
					 "engine", payloads[(i + 1) % 5], "label", payloads[(i + 2) % 5], "status",
					 "ok", "samples", "jobname", "j", "error", 0, "read", "iops", 1000.0 + i,
					 "bw_bytes", 4096000.0, "total_ios", 1000);

		cr_assert_not_null(root);
		snprintf(p, sizeof(p), "%s/%u.json", dir, i);
		cr_assert_eq(json_dump_file(root, p, 0), 0);
		json_decref(root);
	}
	snprintf(charts, sizeof(charts), "%s/charts", out_dir);
	snprintf(plot, sizeof(plot), "--plot=%s", charts);
	snprintf(by, sizeof(by), "qemu");
	/* single samples: the newest step cannot be judged, which is not what this tests */
	iopath_exits(0, "history", dir, "--by", by, plot, "--allow-inconclusive", NULL);
	assert_no_pwned(charts);
	assert_no_pwned(out_dir);
	snprintf(p, sizeof(p), "%s/history-iops.svg", charts);
	cr_assert_eq(access(p, R_OK), 0, "no chart drawn");
}

Test(safety, plot_refuses_a_symlinked_directory_and_foreign_files_in_it)
{
	char charts[400], link[400], plot[400], target[400], f[500];
	uint64_t sum = victim_make();
	struct run_out r;

	snprintf(charts, sizeof(charts), "%s/charts", out_dir);
	cr_assert_eq(mkdir(charts, 0755), 0);
	snprintf(link, sizeof(link), "%s/chartlink", out_dir);
	cr_assert_eq(symlink(charts, link), 0);
	snprintf(target, sizeof(target), "--target=t=%s", out_dir);
	snprintf(plot, sizeof(plot), "--plot=%s", link);
	r = iopath_run("sweep", "--engine=null", "--size=1m", "--runtime=0", target, plot, NULL);
	assert_output_refused(&r, link, "symbolic link");
	run_out_free(&r);
	/* a chart's name taken by a link to the user's file: the file is kept */
	snprintf(f, sizeof(f), "%s/iops.png", charts);
	cr_assert_eq(symlink(victim, f), 0);
	snprintf(plot, sizeof(plot), "--plot=%s", charts);
	r = iopath_run("sweep", "--engine=null", "--size=1m", "--runtime=0", target, plot, NULL);
	cr_assert_neq(r.status, 0, "%s", r.err);
	cr_assert_not_null(strstr(r.err, f), "%s", r.err);
	run_out_free(&r);
	cr_assert_eq(file_sum(victim), sum, "written through the link");
}

/* ---- the object checked is the object used: names swapped between layout and I/O ---- */

/* A write job held after its layout; swap() then changes what its file's name points to. */
static struct run_out held_write(const char *data, void (*swap)(const char *data))
{
	char f[400];
	struct run_bg b;
	struct run_out r;
	bool ok;

	hold_arm(out_dir);
	snprintf(f, sizeof(f), "--filename=%s", data);
	b = iopath_start("--name=w", f, "--rw=write", "--size=64k", "--bs=4k", NULL);
	hold_disarm();
	ok = hold_skip_to(&b, 2);
	if (ok) {
		swap(data);
		hold_release(2);
	}
	r = iopath_wait(&b, 120);
	cr_assert(ok, "iopath never held between layout and I/O: %s", r.err);
	return r;
}

static void swap_for_symlink(const char *data)
{
	char moved[420];

	snprintf(moved, sizeof(moved), "%s.moved", data);
	cr_assert_eq(rename(data, moved), 0);
	cr_assert_eq(symlink(victim, data), 0);
}

static void swap_for_users_file(const char *data)
{
	char moved[420];

	snprintf(moved, sizeof(moved), "%s.moved", data);
	cr_assert_eq(rename(data, moved), 0);
	cr_assert_eq(link(victim, data), 0);
}

Test(safety, a_name_swapped_for_a_symlink_after_layout_is_not_followed)
{
	uint64_t sum = victim_make();
	char data[400], moved[420];
	struct run_out r;
	struct stat st;

	snprintf(data, sizeof(data), "%s/data", out_dir);
	r = held_write(data, swap_for_symlink);
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	run_out_free(&r);
	cr_assert_eq(file_sum(victim), sum, "the link's target was written");
	snprintf(moved, sizeof(moved), "%s.moved", data);
	cr_assert_eq(stat(moved, &st), 0);
	cr_assert_eq(st.st_size, 65536, "the checked file was not the one written");
}

Test(safety, a_name_swapped_for_a_users_file_after_layout_leaves_that_file_alone)
{
	uint64_t sum = victim_make();
	char data[400];
	struct run_out r;

	snprintf(data, sizeof(data), "%s/data", out_dir);
	r = held_write(data, swap_for_users_file);
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	run_out_free(&r);
	cr_assert_eq(file_sum(victim), sum, "the user's file was written");
}

/* rw=copy: a hard link is the same file under another name. */
Test(safety, copy_refuses_a_source_that_is_the_destination_under_another_name)
{
	uint64_t sum = victim_make();
	char dst[400], src[420], fo[420];
	struct run_out r;

	snprintf(dst, sizeof(dst), "%s/alias", out_dir);
	cr_assert_eq(link(victim, dst), 0);
	snprintf(src, sizeof(src), "--copy_from=%s", victim);
	snprintf(fo, sizeof(fo), "--filename=%s", dst);
	r = iopath_run("--allow-overwrite", "--name=c", "--rw=copy", src, fo, NULL);
	cr_assert_neq(r.status, 0, "copied a file onto itself: %s", r.err);
	cr_assert_not_null(strstr(r.err, "same file"), "%s", r.err);
	run_out_free(&r);
	cr_assert_eq(file_sum(victim), sum);
}

/* ---- read-only means read-only ---- */

static void assert_read_job_reads(const char *file, uint64_t sum)
{
	char fo[400];

	snprintf(fo, sizeof(fo), "--filename=%s", file);
	iopath_exits(0, "--name=r", fo, "--rw=randread", "--bs=4k", NULL);
	cr_assert_eq(file_sum(file), sum);
}

Test(safety, read_job_works_on_a_read_only_mount)
{
	char mnt[400], file[420];
	uint64_t sum;

	victim_make();
	snprintf(mnt, sizeof(mnt), "%s/ro", out_dir);
	test_mount(mnt, "tmpfs", 0, "size=1m", "a tmpfs read-only");
	snprintf(file, sizeof(file), "%s/data", mnt);
	file_make(file, 65536, 4);
	sum = file_sum(file);
	cr_assert_eq(mount("none", mnt, NULL, MS_REMOUNT | MS_RDONLY, NULL), 0);
	assert_read_job_reads(file, sum);
}

Test(safety, read_job_works_on_an_immutable_file)
{
	uint64_t sum = victim_make();

	if (!is_root())
		cr_skip_test("needs root to make a file immutable");
	if (sh("chattr +i %s 2>/dev/null", victim))
		cr_skip_test("this filesystem has no immutable flag");
	assert_read_job_reads(victim, sum);
	sh("chattr -i %s", victim);
}

Test(safety, read_job_works_on_a_0444_file_of_another_user)
{
	uint64_t sum = victim_make();
	char fo[400];
	struct run_out r;

	if (!is_root())
		cr_skip_test("needs root to run iopath as another user");
	cr_assert_eq(chmod(out_dir, 0755), 0);
	cr_assert_eq(chmod(victim, 0444), 0);
	snprintf(fo, sizeof(fo), "--filename=%s", victim);
	r = iopath_run_as(65534, "--name=r", fo, "--rw=randread", "--bs=4k", NULL);
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	run_out_free(&r);
	cr_assert_eq(file_sum(victim), sum);
}

/* ---- ownership that cannot be forged, and layouts cut short ---- */

/* What a SIGKILL in the middle of a layout leaves: full length (preallocated), marked. */
Test(safety, a_layout_cut_short_is_laid_out_again_not_measured)
{
	char file[400], fo[420], val[64];
	uint64_t sum;

	victim_make();
	snprintf(file, sizeof(file), "%s/cut", out_dir);
	file_make(file, 1 << 20, 0);	/* zeros where the layout never wrote */
	cr_assert_eq(sh("dd if=/dev/zero of=%s bs=1M count=1 conv=notrunc 2>/dev/null", file), 0);
	iopath_mark(file);
	cr_assert_eq(setxattr(file, "user.iopath.layout", "incomplete", 10, 0), 0);
	sum = file_sum(file);
	snprintf(fo, sizeof(fo), "--filename=%s", file);
	iopath_exits(0, "--name=r", fo, "--rw=read", "--size=1m", "--verify=crc32c", NULL);
	cr_assert_neq(file_sum(file), sum, "the unwritten extents were measured as data");
	cr_assert_lt(getxattr(file, "user.iopath.layout", val, sizeof(val)), 0,
		     "still marked incomplete after a whole layout");
}

/* ramfs has no user xattrs: a .NAME.iopath of the user's own is never truncated or removed. */
Test(safety, a_users_own_sidecar_name_is_never_destroyed)
{
	char mnt[400], side[420], fo[420];
	struct run_out r;
	uint64_t sum;

	victim_make();
	snprintf(mnt, sizeof(mnt), "%s/ramfs", out_dir);
	test_mount(mnt, "ramfs", 0, NULL, "a ramfs (a filesystem without user xattrs)");
	snprintf(side, sizeof(side), "%s/.made.iopath", mnt);
	file_write_text(side, "my notes on made\n");
	sum = file_sum(side);
	snprintf(fo, sizeof(fo), "--filename=%s/made", mnt);
	r = iopath_run("--name=w", fo, "--rw=write", "--size=64k", "--unlink=1", NULL);
	cr_assert_neq(r.status, 0, "exit %d: %s", r.status, r.err);
	cr_assert_not_null(strstr(r.err, ".NAME.iopath"), "%s", r.err);
	run_out_free(&r);
	cr_assert_eq(file_sum(side), sum, "the user's .made.iopath was changed or removed");
}

/* ---- bad input, exit 2, before any I/O ---- */

Test(safety, include_of_a_fifo_or_a_device_is_refused_not_read)
{
	char fifo[400], job[400], text[500];
	const char *targets[] = { fifo, "/dev/zero" };
	unsigned i;

	victim_make();
	snprintf(fifo, sizeof(fifo), "%s/fifo", out_dir);
	cr_assert_eq(mkfifo(fifo, 0600), 0);
	snprintf(job, sizeof(job), "%s/job.fio", out_dir);
	for (i = 0; i < 2; i++) {
		struct run_bg b;
		struct run_out r;

		snprintf(text, sizeof(text), "[r]\nioengine=null\nsize=1m\ninclude %s\n", targets[i]);
		file_write_text(job, text);
		b = iopath_start(job, NULL);
		r = iopath_wait(&b, 60);	/* a FIFO read blocks: a hang fails here */
		cr_assert_eq(r.status, 2, "%s: exit %d: %s", targets[i], r.status, r.err);
		cr_assert_not_null(strstr(r.err, "not a regular file"), "%s", r.err);
		cr_assert_eq(strchr(r.err, '\n'), r.err + strlen(r.err) - 1, "not one line: %s", r.err);
		run_out_free(&r);
	}
}

/*
 * A FIFO given where a file is read (a result to report, compare or explain, a log to inflate,
 * a trace to replay) is refused on its descriptor, not waited on for a writer.
 */
Test(safety, a_fifo_given_as_an_input_file_is_refused_not_waited_on)
{
	char fifo[400], html[400], inflate[450], replay[450];
	const char *cmds[][5] = {
		{ "report", fifo, "-o", html, NULL }, { "compare", fifo, fifo, NULL, NULL },
		{ "explain", fifo, NULL, NULL, NULL }, { inflate, NULL, NULL, NULL, NULL },
		{ "--name=r", "--ioengine=null", "--size=1m", replay, NULL },
	};
	unsigned i;

	victim_make();
	snprintf(fifo, sizeof(fifo), "%s/result.json", out_dir);
	snprintf(html, sizeof(html), "%s/page.html", out_dir);
	snprintf(inflate, sizeof(inflate), "--inflate-log=%s", fifo);
	snprintf(replay, sizeof(replay), "--read_iolog=%s", fifo);
	cr_assert_eq(mkfifo(fifo, 0600), 0);
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		char *argv[] = { "iopath", (char *)cmds[i][0], (char *)cmds[i][1],
				 (char *)cmds[i][2], (char *)cmds[i][3], NULL };
		struct run_bg b = iopath_startv(argv, NULL);
		struct run_out r = iopath_wait(&b, 60);	/* a hang fails here */

		cr_expect_eq(r.status, 2, "%s: exit %d: %s", cmds[i][0], r.status, r.err);
		cr_expect_not_null(strstr(r.err, "not a regular file"), "%s: %s", cmds[i][0], r.err);
		cr_expect_eq(strchr(r.err, '\n'), r.err + strlen(r.err) - 1, "not one line: %s", r.err);
		run_out_free(&r);
	}
}

Test(safety, wrong_typed_fields_in_result_files_are_bad_input)
{
	static const char *const edits[][3] = {
		{ "read", "iops", "\"fast\"" },
		{ "read", "bw_bytes", "[1]" },
		{ "read", "clat_ns", "7" },
		{ NULL, "error", "\"none\"" },
	};
	char a[400], b[400];
	unsigned i;

	victim_make();
	two_results(a, b, sizeof(a));
	for (i = 0; i < 4; i++) {
		json_t *root = json_load_path(a), *job, *v;
		json_error_t je;
		struct run_out r;

		job = json_array_get(json_object_get(root, "jobs"), 0);
		v = json_loads(edits[i][2], JSON_DECODE_ANY, &je);
		cr_assert_not_null(v);
		json_object_set_new(edits[i][0] ? json_object_get(job, edits[i][0]) : job, edits[i][1], v);
		cr_assert_eq(json_dump_file(root, b, 0), 0);
		json_decref(root);
		r = iopath_run("compare", a, b, NULL);
		cr_assert_eq(r.status, 2, "%s: exit %d: %s%s", edits[i][1], r.status, r.out, r.err);
		cr_assert_not_null(strstr(r.err, edits[i][1]), "the field is not named: %s", r.err);
		run_out_free(&r);
	}
}

Test(safety, an_offset_past_the_largest_file_offset_is_refused_before_any_io)
{
	char fo[400];
	uint64_t sum = victim_make();

	snprintf(fo, sizeof(fo), "--filename=%s", victim);
	iopath_refuses("largest file offset", "--name=r", fo, "--rw=read", "--size=4k",
		       "--offset=18446744073709551000", NULL);
	iopath_exits(2, "--name=r", fo, "--rw=read", "--size=4k", "--numjobs=3",
		     "--offset_increment=4611686018427387904", NULL);
	cr_assert_eq(file_sum(victim), sum);
}

Test(safety, an_output_name_longer_than_the_system_allows_is_bad_input)
{
	char name[400], o[420];

	victim_make();
	memset(name, 'a', 300);
	name[300] = '\0';
	snprintf(o, sizeof(o), "--output=%s/%s", out_dir, name);
	iopath_refuses("too long", "--name=n", "--ioengine=null", "--size=1m", o, NULL);
}

/* ---- --readonly creates, truncates and writes nothing ---- */

Test(safety, readonly_refuses_logs_and_dumps_and_skips_the_write_trials)
{
	char fo[400], lg[400], p[420];
	struct run_out r;
	DIR *d;
	struct dirent *de;
	unsigned n = 0;

	victim_make();
	snprintf(fo, sizeof(fo), "--filename=%s", victim);
	snprintf(lg, sizeof(lg), "--write_lat_log=%s/lat", out_dir);
	iopath_refuses("--readonly", "--readonly", "--name=r", fo, "--rw=read", lg, NULL);
	iopath_exits(2, "--readonly", "--name=r", fo, "--rw=read", "--verify=crc32c",
		     "--verify_dump=1", NULL);
	snprintf(lg, sizeof(lg), "--write_iolog=%s/trace", out_dir);
	iopath_exits(2, "--readonly", "--name=r", fo, "--rw=read", lg, NULL);
	/* direct=1 asks the probe to try O_DIRECT in a temporary file: not under --readonly */
	r = iopath_run("--readonly", "--name=r", fo, "--rw=read", "--bs=4k", "--direct=1", NULL);
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	cr_assert_not_null(strstr(r.err, "trials"), "the skipped trials are not said: %s", r.err);
	run_out_free(&r);
	d = opendir(out_dir);
	cr_assert_not_null(d);
	while ((de = readdir(d)))
		n += de->d_name[0] != '.' || !strncmp(de->d_name, ".iopath", 7);
	closedir(d);
	snprintf(p, sizeof(p), "%s", out_dir);
	cr_assert_eq(n, 1, "--readonly created files in %s", p);
}

/*
 * The sweep's file in a target directory is created before it is registered for removal: a
 * file already under that name (the pid made predictable: iopath as pid 1 of a new pid
 * namespace) is neither read nor removed.
 */
Test(safety, sweep_never_takes_or_removes_a_file_already_under_its_name)
{
	char theirs[400], target[420], cmd[1200];
	const char *bin = getenv("IOPATH_BIN");
	uint64_t sum;

	victim_make();
	if (!is_root() || sh("unshare -fp --mount-proc true 2>/dev/null"))
		cr_skip_test("needs root and pid namespaces (unshare -p) to know iopath's pid");
	snprintf(theirs, sizeof(theirs), "%s/iopath-sweep.1.0.tmp", out_dir);
	file_make(theirs, 65536, 6);
	sum = file_sum(theirs);
	snprintf(target, sizeof(target), "--target=t=%s", out_dir);
	snprintf(cmd, sizeof(cmd), "unshare -fp --mount-proc %s sweep --engine=psync --rw=randread --size=64k --runtime=0 %s >/dev/null 2>&1",
		 bin, target);
	cr_assert_eq(sh("%s", cmd), 0, "%s failed", cmd);
	cr_assert_eq(access(theirs, F_OK), 0, "the sweep removed %s", theirs);
	cr_assert_eq(file_sum(theirs), sum, "the sweep wrote %s", theirs);
}

/* create_on_open: the file appears (the user's, linked in) between the checks and the open. */
Test(safety, create_on_open_never_writes_a_file_that_appeared_after_the_checks)
{
	uint64_t sum = victim_make();
	char data[400], f[420];
	struct run_bg b;
	struct run_out r;
	bool ok;

	snprintf(data, sizeof(data), "%s/late", out_dir);
	snprintf(f, sizeof(f), "--filename=%s", data);
	hold_arm(out_dir);
	b = iopath_start("--name=w", f, "--rw=write", "--size=64k", "--create_on_open=1", NULL);
	hold_disarm();
	ok = hold_skip_to(&b, 2);
	if (ok) {
		cr_assert_eq(link(victim, data), 0);
		hold_release(2);
	}
	r = iopath_wait(&b, 120);
	cr_assert(ok, "iopath never held between layout and I/O: %s", r.err);
	cr_assert_neq(r.status, 0, "wrote a file that appeared after the checks: %s", r.err);
	cr_assert_not_null(strstr(r.err, "not created by iopath"), "%s", r.err);
	run_out_free(&r);
	cr_assert_eq(file_sum(victim), sum);
}

/*
 * FUSE (like 9p and vboxsf) has no stable inode numbers and faultfs no user xattrs: the
 * sidecar's presence alone must not speak for a file the user put in the place of iopath's.
 */
Test(safety, a_sidecar_does_not_speak_for_a_replacement_where_inodes_are_unstable)
{
	char back[400], fo[420], in_back[420];
	uint64_t sum;

	victim_make();
	snprintf(back, sizeof(back), "%s/back", out_dir);
	snprintf(test_mnt, sizeof(test_mnt), "%s/mnt", out_dir);
	faultfs_mount(back, test_mnt, NULL);
	snprintf(fo, sizeof(fo), "--filename=%s/made", test_mnt);
	iopath_exits(0, "--name=w", fo, "--rw=write", "--size=64k", NULL);
	iopath_exits(0, "--name=w", fo, "--rw=randwrite", "--size=64k", NULL);
	/* the user deletes iopath's file and puts one of their own in its place */
	snprintf(in_back, sizeof(in_back), "%s/made", back);
	cr_assert_eq(unlink(in_back), 0);
	file_make(in_back, 32768, 2);
	sum = file_sum(in_back);
	iopath_refuses("not created by iopath", "--name=w", fo, "--rw=write", "--size=32k", NULL);
	cr_assert_eq(file_sum(in_back), sum, "the user's file was written");
}

/* A name that was a file when planned and is a link when the group starts is not followed. */
Test(safety, a_link_that_appeared_after_planning_is_not_followed)
{
	char a[400], b[400], fa[420], fb[420];
	struct run_bg bg;
	struct run_out r;
	uint64_t sum;
	bool ok;

	victim_make();
	snprintf(a, sizeof(a), "%s/a", out_dir);
	snprintf(b, sizeof(b), "%s/b", out_dir);
	snprintf(fa, sizeof(fa), "--filename=%s", a);
	snprintf(fb, sizeof(fb), "--filename=%s", b);
	iopath_exits(0, "--name=w", fa, "--rw=write", "--size=64k", "--name=v", fb, "--rw=write",
		     "--size=64k", NULL);
	sum = file_sum(b);
	hold_arm(out_dir);
	bg = iopath_start("--name=w", fa, "--rw=randwrite", "--size=64k", NULL);
	hold_disarm();
	ok = hold_reached(&bg, 1);
	if (ok) {
		cr_assert_eq(unlink(a), 0);
		cr_assert_eq(symlink(b, a), 0);
		hold_release(1);
	}
	ok = ok && hold_reached(&bg, 2);
	if (ok)
		hold_release(2);
	r = iopath_wait(&bg, 120);
	cr_assert(ok, "iopath never held before its layout: %s", r.err);
	cr_assert_neq(r.status, 0, "followed a link that appeared after planning: %s", r.err);
	cr_assert_not_null(strstr(r.err, "symbolic link"), "%s", r.err);
	run_out_free(&r);
	cr_assert_eq(file_sum(b), sum, "the link's target was written");
}

/*
 * What a SIGKILL between a result's temporary and its rename leaves (the temporary, with its
 * writer recorded): removed when the result is written again; others' files are kept.
 */
Test(safety, a_result_temporary_left_by_a_killed_run_is_removed_next_time)
{
	char out[400], dead[420], alive[420], users[420], host[256] = "", rec[300];
	struct run_out r;
	pid_t pid = fork();

	cr_assert_neq(pid, -1);
	if (!pid)
		_exit(0);
	cr_assert_eq(waitpid(pid, NULL, 0), pid);	/* a process that no longer runs */
	victim_make();
	gethostname(host, sizeof(host) - 1);
	snprintf(out, sizeof(out), "%s/res.json", out_dir);
	snprintf(dead, sizeof(dead), "%s.tmp.%d", out, (int)pid);
	snprintf(alive, sizeof(alive), "%s.tmp.%d", out, (int)getpid());
	snprintf(users, sizeof(users), "%s.tmp.1", out);
	file_make(dead, 100, 1);
	snprintf(rec, sizeof(rec), "%s:%d", host, (int)pid);
	cr_assert_eq(setxattr(dead, "user.iopath.tmp", rec, strlen(rec), 0), 0);
	file_make(alive, 100, 2);
	snprintf(rec, sizeof(rec), "%s:%d", host, (int)getpid());
	cr_assert_eq(setxattr(alive, "user.iopath.tmp", rec, strlen(rec), 0), 0);
	file_make(users, 100, 3);
	r = null_run_to(out, "json");
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	run_out_free(&r);
	cr_assert_neq(access(dead, F_OK), 0, "the killed run's temporary stayed");
	cr_assert_eq(access(alive, F_OK), 0, "a live writer's temporary was removed");
	cr_assert_eq(access(users, F_OK), 0, "a file iopath did not write was removed");
}

/* A layout killed (SIGKILL) once its file is preallocated: the next run lays it out again. */
Test(safety, a_layout_killed_half_way_is_laid_out_again_by_the_next_run)
{
	char file[400], fo[420], hold[400], val[64];
	struct run_bg b;
	struct run_out r;
	struct stat st;
	bool held;

	victim_make();
	snprintf(file, sizeof(file), "%s/cut", out_dir);
	snprintf(fo, sizeof(fo), "--filename=%s", file);
	snprintf(hold, sizeof(hold), "%s/layout-hold", out_dir);
	setenv("IOPATH_TEST_HOLD_LAYOUT", hold, 1);
	b = iopath_start("--name=r", fo, "--rw=read", "--size=4m", NULL);
	unsetenv("IOPATH_TEST_HOLD_LAYOUT");
	held = wait_for_file(hold, 120);
	kill(b.pid, SIGKILL);
	r = iopath_wait(&b, 60);
	run_out_free(&r);
	cr_assert(held, "iopath never held inside its layout");
	cr_assert_eq(stat(file, &st), 0, "no file left to look laid out");
	cr_assert_gt(getxattr(file, "user.iopath.layout", val, sizeof(val)), 0,
		     "a layout cut short is not marked incomplete");
	iopath_exits(0, "--name=r", fo, "--rw=read", "--size=4m", "--verify=crc32c", NULL);
	cr_assert_lt(getxattr(file, "user.iopath.layout", val, sizeof(val)), 0);
}
