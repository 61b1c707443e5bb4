/*
 * exec_prerun and exec_postrun side by side with Debian's fio (skipped without it): each
 * worker runs the command, its output lands in NAME.prerun.txt / NAME.postrun.txt, and the
 * job's I/O is the same; where iopath differs on purpose (a failing prerun fails the job, a
 * file not iopath's is not overwritten, --readonly), the refusal says so.
 */
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

TestSuite(fio_exec, .fini = tmpdir_cleanup);

/* Run tool (0 fio, 1 iopath) in a fresh directory on text as job.fio; dir gets the directory. */
static struct run_out run_in(unsigned tool, const char *text, char *dir, size_t len)
{
	char *argv[] = { tool ? "iopath" : "fio", "--output-format=json", "job.fio", NULL };
	char cwd[512], path[400];
	struct run_out r;
	FILE *f;

	snprintf(dir, len, "%s", tmpdir_make());
	snprintf(path, sizeof(path), "%s/job.fio", dir);
	f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs(text, f);
	cr_assert_eq(fclose(f), 0);
	cr_assert_not_null(getcwd(cwd, sizeof(cwd)));
	cr_assert_eq(chdir(dir), 0);
	r = tool ? iopath_runv(argv) : prog_runv(FIO_BIN, argv);
	cr_assert_eq(chdir(cwd), 0);
	return r;
}

/* How many entries of dir start with prefix. */
static unsigned count_named(const char *dir, const char *prefix)
{
	struct dirent *e;
	unsigned n = 0;
	DIR *d = opendir(dir);

	cr_assert_not_null(d);
	while ((e = readdir(d)))
		n += !strncmp(e->d_name, prefix, strlen(prefix));
	closedir(d);
	return n;
}

static void named_text(const char *dir, const char *name, char *out, size_t len)
{
	char path[500];
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	cr_assert_not_null(f, "no %s", path);
	n = fread(out, 1, len - 1, f);
	out[n] = '\0';
	fclose(f);
}

Test(fio_exec, each_worker_runs_the_commands_as_fio)
{
	/* $$ is each shell's own: one file per worker that ran it */
	static const char text[] =
		"[w]\nioengine=psync\nrw=write\nsize=256k\nbs=4k\nnumjobs=3\nfilename=data\n"
		"exec_prerun=touch pre.$$ && echo before\n"
		"exec_postrun=touch post.$$ && echo after\n";
	char dir[2][320], pre[2][256], post[2][256];
	unsigned t;

	if (access(FIO_BIN, X_OK))
		cr_skip_test("fio is not installed (scripts/deps.sh installs it)");
	for (t = 0; t < 2; t++) {
		struct run_out r = run_in(t, text, dir[t], sizeof(dir[t]));
		json_t *root;

		cr_assert_eq(r.status, 0, "%s: exit %d: %s", t ? "iopath" : "fio", r.status, r.err);
		root = json_in_text(r.out, t ? "iopath" : "fio");
		cr_assert_not_null(root, "%s's JSON: %s", t ? "iopath" : "fio", r.out);
		cr_expect_eq(json_integer_value(json_object_get(json_object_get(json_array_get(
				     json_object_get(root, "jobs"), 0), "write"), "io_bytes")),
			     256 * 1024, "%s: the first worker's bytes", t ? "iopath" : "fio");
		json_decref(root);
		run_out_free(&r);
		named_text(dir[t], "w.prerun.txt", pre[t], sizeof(pre[t]));
		named_text(dir[t], "w.postrun.txt", post[t], sizeof(post[t]));
	}
	for (t = 0; t < 2; t++) {
		cr_expect_eq(count_named(dir[t], "pre."), 3, "%s: workers that ran exec_prerun",
			     t ? "iopath" : "fio");
		cr_expect_eq(count_named(dir[t], "post."), 3, "%s: workers that ran exec_postrun",
			     t ? "iopath" : "fio");
	}
	/* fio's workers each empty the file (its shell's '>'): one output is left; iopath keeps all */
	cr_expect_str_eq(pre[0], "before\n");
	cr_expect_str_eq(post[0], "after\n");
	cr_expect_str_eq(pre[1], "before\nbefore\nbefore\n");
	cr_expect_str_eq(post[1], "after\nafter\nafter\n");
}

Test(fio_exec, a_failing_prerun_fails_the_job_before_its_io)
{
	static const char text[] =
		"[w]\nioengine=psync\nrw=write\nsize=256k\nfilename=data\n"
		"exec_prerun=echo no && exit 3\nexec_postrun=touch post.ran\n";
	char dir[320], out[64];
	struct run_out r = run_in(1, text, dir, sizeof(dir));

	cr_assert_eq(r.status, 1, "exit %d: %s", r.status, r.err);
	cr_assert_not_null(strstr(r.err, "exec_prerun 'echo no && exit 3' exited with status 3"), "%s",
			   r.err);
	cr_assert_not_null(strstr(r.err, "w.prerun.txt"), "%s", r.err);
	/* iopath writes the whole command's output there (fio only its last command's) */
	named_text(dir, "w.prerun.txt", out, sizeof(out));
	cr_expect_str_eq(out, "no\n");
	cr_expect_eq(count_named(dir, "post.ran"), 0, "exec_postrun ran after a failed prerun");
	run_out_free(&r);
}

Test(fio_exec, an_output_file_of_the_users_is_not_overwritten)
{
	static const char text[] =
		"[w]\nioengine=psync\nrw=read\nsize=64k\nfilename=data\nexec_prerun=echo x\n";
	char dir[320], path[400], out[64];
	struct run_out r;
	FILE *f;

	snprintf(dir, sizeof(dir), "%s", tmpdir_make());
	snprintf(path, sizeof(path), "%s/w.prerun.txt", dir);
	f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs("mine\n", f);
	cr_assert_eq(fclose(f), 0);
	/* the same directory: run_in makes a new one, so run by hand here */
	snprintf(path, sizeof(path), "%s/job.fio", dir);
	f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs(text, f);
	cr_assert_eq(fclose(f), 0);
	{
		char cwd[512], *argv[] = { "iopath", "job.fio", NULL };

		cr_assert_not_null(getcwd(cwd, sizeof(cwd)));
		cr_assert_eq(chdir(dir), 0);
		r = iopath_runv(argv);
		cr_assert_eq(chdir(cwd), 0);
	}
	/* refused before any I/O, as every output of a job is checked */
	cr_assert_eq(r.status, 2, "exit %d: %s", r.status, r.err);
	cr_assert_not_null(strstr(r.err, "not written by iopath"), "%s", r.err);
	cr_assert_not_null(strstr(r.err, "exec_prerun"), "%s", r.err);
	named_text(dir, "w.prerun.txt", out, sizeof(out));
	cr_expect_str_eq(out, "mine\n");
	run_out_free(&r);
}

Test(fio_exec, readonly_refuses_commands)
{
	struct run_out r = iopath_run("--readonly", "--name=w", "--rw=read", "--size=64k",
				      "--exec_postrun=true", NULL);

	cr_assert_eq(r.status, 2, "exit %d: %s", r.status, r.err);
	cr_assert_not_null(strstr(r.err, "exec_postrun"), "%s", r.err);
	cr_assert_not_null(strstr(r.err, "--readonly"), "%s", r.err);
	run_out_free(&r);
}
