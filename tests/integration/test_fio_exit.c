/*
 * The fio invocation's exit status, side by side with Debian's fio (skipped without it): the
 * number of workers that failed, as fio 3.33 returns it; iopath's own codes around it (2 for
 * bad input, 130 interrupted, at most 125 failed workers).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

static void need_fio(void)
{
	if (access(FIO_BIN, X_OK))
		cr_skip_test("fio is not installed (scripts/deps.sh installs it)");
}

TestSuite(fio_exit, .fini = tmpdir_cleanup);

/*
 * Case k's command line (after the tool's name) with its files in dir: a trim of a regular
 * file fails in both tools (EOPNOTSUPP), each worker of it. NULL past the last case.
 */
static const char *case_args(unsigned k, const char *d, char **args, int *want)
{
	static const struct {
		const char *what;
		const char *args[16];
		int want;
	} c[] = {
		{ "one job, three workers",
		  { "--name=t", "--ioengine=sync", "--rw=trim", "--size=16k", "--numjobs=3", "@a" }, 3 },
		{ "three workers reported together",
		  { "--name=t", "--ioengine=sync", "--rw=trim", "--size=16k", "--numjobs=3",
		    "--group_reporting", "@b" }, 3 },
		{ "two jobs of three",
		  { "--ioengine=sync", "--size=16k", "--name=t1", "--rw=trim", "@c", "--name=ok",
		    "--rw=write", "@e", "--name=t2", "--rw=trim", "@f" }, 2 },
		{ "a job whose file cannot be made, two workers",
		  { "--name=o", "--ioengine=sync", "--rw=read", "--size=16k", "--numjobs=2",
		    "--filename=/proc/no-such-dir/x" }, 2 },
		{ "nothing failed",
		  { "--name=w", "--ioengine=sync", "--rw=write", "--size=16k", "--numjobs=2", "@g" }, 0 },
	};
	unsigned n;

	if (k >= sizeof(c) / sizeof(c[0]))
		return NULL;
	for (n = 0; c[k].args[n]; n++)
		args[n] = c[k].args[n][0] == '@' ? tmp_str("--filename=%s/%s", d, c[k].args[n] + 1) :
						   (char *)c[k].args[n];
	args[n] = NULL;
	*want = c[k].want;
	return c[k].what;
}

Test(fio_exit, the_number_of_failed_workers_as_fio, .init = need_fio)
{
	char *argv[20];
	const char *what, *dir[2] = { tmpdir_make(), tmpdir_make() };
	struct run_out r;
	unsigned k, t;
	int want, st[2];

	for (k = 0; (what = case_args(k, dir[0], argv + 1, &want)); k++) {
		for (t = 0; t < 2; t++) {
			case_args(k, dir[t], argv + 1, &want);
			argv[0] = t ? "iopath" : "fio";
			r = t ? iopath_runv(argv) : prog_runv(FIO_BIN, argv);
			st[t] = r.status;
			run_out_free(&r);
		}
		cr_expect_eq(st[0], want, "%s: fio exited %d", what, st[0]);
		cr_expect_eq(st[1], st[0], "%s: iopath exited %d, fio %d", what, st[1], st[0]);
	}
}

/*
 * Past 125 failed workers the status stays 125 (fio's wraps modulo 256: 256 failures exit 0);
 * bad input stays 2 (fio's 1), before anything runs.
 */
Test(fio_exit, capped_below_the_shells_codes_and_bad_input_stays_2)
{
	const char *d = tmpdir_make();
	struct run_out r = iopath_run("--name=t", "--ioengine=sync", "--rw=trim", "--size=4k",
				      "--numjobs=130", "--group_reporting", tmp_str("--filename=%s/a", d),
				      "--output-format=terse", NULL);

	cr_expect_eq(r.status, 125, "130 failed workers: exit %d: %s", r.status, r.err);
	run_out_free(&r);
	r = iopath_run("--name=t", "--ioengine=sync", "--rw=trim", "--size=4k", "--numjobs=3",
		       "--iodepth=x", tmp_str("--filename=%s/b", d), NULL);
	cr_expect_eq(r.status, 2, "bad input: exit %d: %s", r.status, r.err);
	run_out_free(&r);
}

/*
 * A job file with only [global] (a harness appends the job sections later): run, both tools
 * say "No job(s) defined" on stderr, print their usage on stdout and exit 1; --parse-only
 * takes it (exit 0), and --showcmd prints the global options as a command line.
 */
Test(fio_exit, global_options_alone_are_no_job_as_fio, .init = need_fio)
{
	const char *d = tmpdir_make();
	char *job = tmp_str("%s/g.fio", d), *cmd;
	struct run_out r;
	unsigned t, m;
	FILE *f = fopen(job, "w");

	cr_assert_not_null(f);
	fputs("[global]\nioengine=psync\nbs=8k\n", f);
	cr_assert_eq(fclose(f), 0);
	for (t = 0; t < 2; t++) {
		const char *tool = t ? "iopath" : "fio";
		char *modes[3][3] = { { job }, { "--parse-only", job }, { "--showcmd", job } };

		for (m = 0; m < 3; m++) {
			char *argv[4] = { (char *)tool, modes[m][0], modes[m][1], NULL };

			r = t ? iopath_runv(argv) : prog_runv(FIO_BIN, argv);
			cr_expect_eq(r.status, m ? 0 : 1, "%s %s: exit %d: %s", tool, argv[1], r.status,
				     r.err);
			if (!m) {
				cr_expect_not_null(strstr(r.err, "No job(s) defined"), "%s: %s", tool, r.err);
				cr_expect_not_null(strstr(r.out, "--parse-only"), "%s prints no usage: %s",
						   tool, r.out);
			}
			if (m == 2) {
				cmd = tmp_str("%s --ioengine=psync --bs=8k", tool);
				cr_expect_not_null(strstr(r.out, cmd), "%s --showcmd: %s", tool, r.out);
			}
			run_out_free(&r);
		}
	}
}
