/*
 * Integration: fio's own command-line options (fio --help of 3.33): the ones iopath has work
 * as fio's, the ones it lacks are refused by name (or, with --ignore-unsupported, warned about).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"

TestSuite(fio_cli, .fini = tmpdir_cleanup);

static void refused(struct run_out *r, const char *want)
{
	cr_assert_eq(r->status, 2, "exit %d: %s", r->status, r->err);
	cr_assert_not_null(strstr(r->err, want), "message lacks '%s': %s", want, r->err);
}

/* fio: "job <a> has write or trim bit set, but fio is in read-only mode" */
Test(fio_cli, readonly_refuses_writes_trims_and_layout)
{
	const char *dir = tmpdir_make();
	const char *path = tmp_str("%s/f", dir), *fopt = tmp_str("--filename=%s", path);
	struct stat st;
	struct run_out r = iopath_run("--readonly", "--name=a", "--ioengine=null", "--size=64k",
				      "--rw=randwrite", NULL);

	refused(&r, "--readonly forbids writes and trims");
	run_out_free(&r);
	r = iopath_run("--readonly", "--name=a", "--ioengine=null", "--size=64k", "--rw=trim", NULL);
	refused(&r, "--readonly forbids writes and trims");
	run_out_free(&r);
	/* a read job on a missing file would lay it out (write it) first */
	r = iopath_run("--readonly", "--name=a", fopt, "--size=64k", "--rw=read", NULL);
	refused(&r, "does not exist, and --readonly forbids creating it");
	run_out_free(&r);
	cr_assert_neq(stat(path, &st), 0, "--readonly created %s", path);
	/* a short file would be extended */
	iopath_exits(0, "--name=prep", fopt, "--size=32k", "--rw=write", NULL);
	r = iopath_run("--readonly", "--name=a", fopt, "--size=64k", "--rw=read", NULL);
	refused(&r, "--readonly forbids extending it");
	run_out_free(&r);
	cr_assert_eq(stat(path, &st), 0);
	cr_assert_eq(st.st_size, 32768, "--readonly changed the file's size");
	/* reading what is there is what --readonly is for */
	{
		json_t *root = iopath_out_json("--readonly", "--name=a", fopt, "--rw=randread",
					       "--bs=4k", "--output-format=json", NULL);

		cr_assert_eq(job_int(root, 0, "read", "io_bytes"), 32768);
		json_decref(root);
	}
}

/* fio 3.33 runs past --max-jobs (cdm passes --max-jobs=1 with 8-thread jobs): so does iopath */
Test(fio_cli, max_jobs_is_not_enforced_as_in_fio_but_warned_about)
{
	struct run_out r = iopath_run("--max-jobs=4", "--ioengine=null", "--size=64k", "--name=a",
				      "--numjobs=3", "--name=b", "--numjobs=2", "--output-format=terse",
				      NULL);

	cr_assert_eq(r.status, 0, "%s", r.err);
	assert_has(r.err, "warning: --max-jobs=4: the jobs start 5 workers", "--enforce-max-jobs",
		   NULL);
	{
		unsigned lines = 0;
		const char *p;

		for (p = r.out; (p = strstr(p, "3;iopath-")); p++)
			lines++;
		cr_assert_eq(lines, 5, "not 5 terse lines: %s", r.out);
	}
	run_out_free(&r);
	/* as fio, a value that is not a number is taken and ignored */
	iopath_exits(0, "--max-jobs=abc", "--name=a", "--ioengine=null", "--size=64k",
		     "--output-format=terse", NULL);
}

Test(fio_cli, enforce_max_jobs_counts_every_worker)
{
	struct run_out r = iopath_run("--max-jobs=4", "--enforce-max-jobs", "--name=a",
				      "--ioengine=null", "--size=64k", "--numjobs=3", "--name=b",
				      "--numjobs=2", NULL);

	refused(&r, "--max-jobs=4: the jobs start 5 workers");
	run_out_free(&r);
	r = iopath_run("--max-jobs=5", "--enforce-max-jobs", "--ioengine=null", "--size=64k",
		       "--name=a", "--numjobs=3", "--name=b", "--numjobs=2", "--output-format=terse",
		       NULL);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert_null(strstr(r.err, "warning"), "%s", r.err);
	run_out_free(&r);
}

/* bench-fio looks for "fio-3" in `fio --version`: iopath names the fio it follows, as fio would */
Test(fio_cli, version_keeps_iopath_and_names_fio_3_33)
{
	struct run_out r = iopath_run("--version", NULL);
	json_t *root;

	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(!strncmp(r.out, "iopath ", 7), "%s", r.out);
	cr_assert_not_null(strstr(r.out, "fio-3.33"), "%s", r.out);
	run_out_free(&r);
	root = iopath_out_json("--name=v", "--ioengine=null", "--size=64k", "--output-format=json",
			       NULL);
	cr_assert(!strncmp(json_string_value(json_object_get(root, "fio version")), "iopath-", 7));
	cr_assert_not_null(strstr(json_string_value(json_object_get(root, "fio version")),
				  "fio-3.33"));
	json_decref(root);
	r = iopath_run("--name=v", "--ioengine=null", "--size=64k", "--minimal", NULL);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(!strncmp(r.out, "3;iopath-", 9), "%s", r.out);
	cr_assert_not_null(strstr(r.out, "(fio-3.33);v;"), "%s", r.out);
	run_out_free(&r);
}

/* cdmpy writes size=16777216.0: a whole number of bytes, read exactly (fio does too) */
Test(fio_cli, a_whole_number_with_a_zero_fraction_is_exact)
{
	const char *args[] = { "--name=s", "--ioengine=null", "--size=16777216.0", NULL };
	json_t *root = tool_json(false, args);
	struct run_out r;

	cr_assert_eq(job_int(root, 0, "read", "io_bytes"), 16777216);
	json_decref(root);
	/* fio reads 16.0k as 16 bytes: still refused */
	r = iopath_run("--name=s", "--ioengine=null", "--size=16.0k", NULL);
	refused(&r, "fractions are not accepted");
	run_out_free(&r);
}

/* fio writes every format asked for to --output, in its order: terse, JSON, normal */
Test(fio_cli, several_formats_all_go_to_the_output_file)
{
	const char *out = tmp_str("%s/out", tmpdir_make());
	struct run_out r = iopath_run("--name=f", "--ioengine=null", "--size=64k",
				      "--output-format=terse,json,normal", tmp_str("--output=%s", out),
				      NULL);

	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert_eq(r.out[0], '\0', "stdout got: %s", r.out);
	run_out_free(&r);
	/* as in fio's file: the lines printed before the jobs run, then terse */
	cr_assert_eq(sh("head -1 '%s' | grep -q '^f: (g=0): rw=read, '", out), 0,
		     "the job line is not first");
	cr_assert_eq(sh("grep -v -e '^f: (g=0): ' -e '^iopath-' -e '^Starting ' '%s' | head -1 | "
			"grep -q '^3;iopath-'", out), 0, "terse is not first after the start lines");
	cr_assert_eq(sh("grep -qx '{' '%s' && grep -q '\"fio version\"' '%s'", out, out), 0,
		     "no JSON in the file");
	cr_assert_eq(sh("grep -q '^Run status group 0' '%s'", out), 0, "no normal text in the file");
	cr_assert_eq(sh("[ $(grep -n '^3;' '%s' | cut -d: -f1) -lt $(grep -nx '{' '%s' | cut -d: -f1) ] && "
			"[ $(grep -nx '}' '%s' | cut -d: -f1) -lt $(grep -n '^Run status' '%s' | cut -d: -f1) ]",
			out, out, out, out), 0, "not in fio's order (terse, JSON, normal)");
}

Test(fio_cli, warnings_fatal_turns_a_warning_into_exit_2)
{
	const char *dir = tmpdir_make();
	char job[300];
	struct run_out r;
	FILE *f;

	snprintf(job, sizeof(job), "%s/w.fio", dir);
	f = fopen(job, "w");
	cr_assert_not_null(f);
	fputs("[a]\nioengine=null\nsize=64k\nbs= 4k\n", f);
	fclose(f);
	r = iopath_run(job, "--output-format=terse", NULL);
	cr_assert_eq(r.status, 0, "without --warnings-fatal: %s", r.err);
	cr_assert_not_null(strstr(r.err, "warning"), "no warning to make fatal: %s", r.err);
	run_out_free(&r);
	r = iopath_run("--warnings-fatal", job, NULL);
	refused(&r, "--warnings-fatal: ");
	run_out_free(&r);
}

Test(fio_cli, unsupported_fio_flags_are_named)
{
	struct run_out r = iopath_run("--trigger-file=t", "--name=a", "--ioengine=null",
				      "--size=64k", NULL);

	refused(&r, "fio option --trigger-file is not supported by iopath");
	run_out_free(&r);
	/* --ignore-unsupported (even after it) lets a reporting flag go, with a warning */
	r = iopath_run("--trigger-file=t", "--name=a", "--ioengine=null", "--size=64k",
		       "--output-format=terse", "--ignore-unsupported", NULL);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert_not_null(strstr(r.err, "warning: fio option --trigger-file is not supported by iopath"), "%s", r.err);
	cr_assert_null(strstr(strstr(r.err, "warning") + 1, "warning"), "warned more than once: %s", r.err);
	run_out_free(&r);
	/* but not one that changes what the invocation is */
	r = iopath_run("--client=host", "--ignore-unsupported", "--name=a", "--ioengine=null",
		       "--size=64k", NULL);
	refused(&r, "fio option --client is not supported by iopath");
	run_out_free(&r);
}

Test(fio_cli, cmdhelp_and_enghelp)
{
	struct run_out r = iopath_run("--cmdhelp=iodepth", NULL);

	cr_assert_eq(r.status, 0, "%s", r.err);
	assert_has(r.out, "iodepth: requests in flight per worker", "1 to 65536", NULL);
	run_out_free(&r);
	iopath_prints(0, HAS("\nrw "), "--cmdhelp=all", NULL);
	r = iopath_run("--cmdhelp=nosuch", NULL);
	refused(&r, "--cmdhelp=nosuch: no such job option");
	run_out_free(&r);
	iopath_prints(0, HAS("\tio_uring ", "\tlibaio "), "--enghelp", NULL);
	r = iopath_run("--enghelp=io_uring,sqthread_poll", NULL);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert_not_null(strstr(r.out, "sqthread_poll:"), "%s", r.out);
	cr_assert_null(strstr(r.out, "fixedbufs"), "more than the option asked for: %s", r.out);
	run_out_free(&r);
	r = iopath_run("--enghelp=io_uring,nosuch", NULL);
	refused(&r, "ioengine=io_uring has no option 'nosuch'");
	run_out_free(&r);
}

/* The normal output's figures as fio writes them: kb_base, unit_base, significant_figures. */
static char *bw_line(const char *opt)
{
	struct run_out r = iopath_run("--name=a", "--ioengine=null", "--size=1m", "--rw=read",
				      "--bs=4k", opt, NULL);
	char *line, *nl;

	cr_assert_eq(r.status, 0, "%s: %s", opt, r.err);
	line = strstr(r.out, "read: IOPS=");
	cr_assert_not_null(line, "%s", r.out);
	nl = strchr(line, '\n');
	line = strndup(line, nl ? (size_t)(nl - line) : strlen(line));
	run_out_free(&r);
	return line;
}

Test(fio_cli, normal_output_units_as_fio)
{
	char *l = bw_line("--kb_base=1024");

	/* IEC first, SI in parentheses; 4 digits */
	cr_assert_not_null(strstr(l, "iB/s ("), "%s", l);
	cr_assert_null(strstr(l, "bit/s"), "%s", l);
	free(l);
	l = bw_line("--kb_base=1000");
	cr_assert_not_null(strstr(l, "B/s ("), "%s", l);
	cr_assert_not_null(strstr(l, "iB/s)"), "SI first, IEC in parentheses: %s", l);
	free(l);
	l = bw_line("--unit_base=1");
	cr_assert_not_null(strstr(l, "ibit/s ("), "%s", l);
	free(l);
	l = bw_line("--significant_figures=6");
	/* the size, 1 MiB, in 6 digits as fio: 1024.0KiB */
	cr_assert_not_null(strstr(l, "(1024.0KiB/"), "%s", l);
	free(l);
	l = bw_line("--significant_figures=2");
	cr_assert_not_null(strstr(l, "(1MiB/"), "%s", l);
	free(l);
}

/* description= and continue_on_error: fio's "desc", its Description line and terse tail. */
Test(fio_cli, description_and_error_counts_reach_the_reports)
{
	struct run_out r = iopath_run("--name=a", "--ioengine=null", "--size=64k",
				      "--description=nightly run", "--continue_on_error=all",
				      "--output-format=terse", NULL);
	const char *tail = "%;0;0;nightly run\n";
	size_t n;

	cr_assert_eq(r.status, 0, "%s", r.err);
	n = strlen(r.out);
	cr_assert(n > strlen(tail) && !strcmp(r.out + n - strlen(tail), tail),
		  "terse tail (fio: total_err;first_error;description): %s", r.out);
	run_out_free(&r);
	{
		json_t *root = iopath_out_json("--name=a", "--ioengine=null", "--size=64k",
					       "--description=nightly run", "--output-format=json",
					       NULL);
		json_t *job = json_array_get(json_object_get(root, "jobs"), 0);

		cr_assert_str_eq(json_string_value(json_object_get(job, "desc")), "nightly run");
		json_decref(root);
	}
	r = iopath_run("--name=a", "--ioengine=null", "--size=64k", "--description=nightly run", NULL);
	cr_assert_not_null(strstr(r.out, "\n  Description  : [nightly run]\n"), "%s", r.out);
	run_out_free(&r);
}

/* terse lists the percentiles of a direction without I/O too, each 0, as fio (not "0%=0"). */
Test(fio_cli, terse_percentile_labels_of_an_empty_direction)
{
	struct run_out r = iopath_run("--name=a", "--ioengine=null", "--size=64k", "--rw=read",
				      "--disk_util=0", "--output-format=terse", NULL);
	const char *p;
	unsigned n = 0;

	cr_assert_eq(r.status, 0, "%s", r.err);
	for (p = r.out; (p = strstr(p, ";1.000000%=")); p++)
		n++;
	cr_assert_eq(n, 2, "read and write sections both list 1.000000%%: %s", r.out);
	run_out_free(&r);
}

/* The normal output's latency distribution, issued and latency-target lines, as fio's. */
Test(fio_cli, normal_output_has_fio_distribution_and_issued_lines)
{
	struct run_out r = iopath_run("--name=a", "--ioengine=null", "--size=1m", "--rw=read",
				      "--bs=4k", "--disk_util=0", NULL);

	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.out, "\n  lat (nsec)   : ") || strstr(r.out, "\n  lat (usec)   : "),
		  "no latency distribution: %s", r.out);
	cr_assert_not_null(strstr(r.out, "\n     issued rwts: total=256,0,0,0 short=0,0,0,0 dropped=0,0,0,0\n"),
			   "%s", r.out);
	cr_assert_not_null(strstr(r.out, "\n     latency   : target=0, window=0, percentile=100.00%, depth=1\n"),
			   "%s", r.out);
	run_out_free(&r);
}

/* Percentiles shown as fio: sorted, with the decimals the list was written with. */
Test(fio_cli, normal_output_percentiles_as_written)
{
	struct run_out r = iopath_run("--name=a", "--ioengine=null", "--size=1m", "--disk_util=0",
				      "--percentile_list=99:50", NULL);

	cr_assert_eq(r.status, 0, "%s", r.err);
	assert_has(r.out, "     |  50th=[", "],  99th=[", NULL);
	run_out_free(&r);
	r = iopath_run("--name=a", "--ioengine=null", "--size=1m", "--disk_util=0",
		       "--percentile_list=50:99.999", NULL);
	cr_assert_not_null(strstr(r.out, "     | 50.000th=["), "%s", r.out);
	run_out_free(&r);
}

/* bw and iops lines in fio's widths: one sample has stdev "  0.00" padded to 5. */
Test(fio_cli, normal_output_bw_lines_as_fio)
{
	struct run_out r = iopath_run("--name=a", "--ioengine=null", "--size=100g", "--time_based",
				      "--runtime=700ms", "--rate=4m", "--disk_util=0", NULL);

	cr_assert_eq(r.status, 0, "%s", r.err);
	assert_has(r.out, "\n   bw (  KiB/s): min=", ", stdev= 0.00, samples=1\n",
		   "\n   iops        : min= ", NULL);
	run_out_free(&r);
}

/* A wrapper that asked its user passes the consent on: IOPATH_ALLOW_OVERWRITE=PATH[:PATH] */
Test(fio_cli, allow_overwrite_from_the_environment_for_the_paths_named)
{
	const char *dir = tmpdir_make();
	char path[300], fopt[320], other[300];
	struct run_out r;

	snprintf(path, sizeof(path), "%s/existing", dir);
	snprintf(other, sizeof(other), "%s/elsewhere", dir);
	snprintf(fopt, sizeof(fopt), "--filename=%s", path);
	file_make(path, 65536, 1);
	r = iopath_run("--name=w", fopt, "--size=64k", "--rw=write", NULL);
	refused(&r, "IOPATH_ALLOW_OVERWRITE");
	run_out_free(&r);
	setenv("IOPATH_ALLOW_OVERWRITE", other, 1);
	r = iopath_run("--name=w", fopt, "--size=64k", "--rw=write", NULL);
	refused(&r, "was not created by iopath");
	run_out_free(&r);
	snprintf(other, sizeof(other), "/nonexistent:%s", path);
	setenv("IOPATH_ALLOW_OVERWRITE", other, 1);
	iopath_exits(0, "--name=w", fopt, "--size=64k", "--rw=write", NULL);
	/* a directory covers the files in it */
	snprintf(path, sizeof(path), "%s/existing2", dir);
	snprintf(fopt, sizeof(fopt), "--filename=%s", path);
	file_make(path, 65536, 2);
	setenv("IOPATH_ALLOW_OVERWRITE", dir, 1);
	iopath_exits(0, "--name=w", fopt, "--size=64k", "--rw=write", NULL);
	unsetenv("IOPATH_ALLOW_OVERWRITE");
}

/* --aux-path=DIR: the verify state file goes to DIR, named as fio names it there */
Test(fio_cli, aux_path_holds_the_verify_state_file)
{
	const char *dir = tmpdir_make();
	char aux[300], faux[300], iaux[320], fopt[320], path[400];

	snprintf(aux, sizeof(aux), "%s/aux", dir);
	cr_assert_eq(mkdir(aux, 0755), 0);
	snprintf(iaux, sizeof(iaux), "--aux-path=%s", aux);
	snprintf(fopt, sizeof(fopt), "--filename=%s/data", dir);
	iopath_exits(0, "--name=v", fopt, "--size=64k", "--rw=write", "--verify=crc32c", iaux,
		     "--output-format=terse", NULL);
	snprintf(path, sizeof(path), "%s/local-v-0-verify.state", aux);
	cr_assert_eq(access(path, F_OK), 0, "no %s", path);
	if (access(FIO_BIN, X_OK))
		return;
	/* fio names it the same, in the same place */
	snprintf(faux, sizeof(faux), "%s/faux", dir);
	cr_assert_eq(mkdir(faux, 0755), 0);
	cr_assert_eq(sh("cd '%s' && " FIO_BIN " --name=v --filename='%s/fdata' --size=64k --rw=write "
			"--verify=crc32c --aux-path='%s' --output-format=terse > /dev/null && "
			"test -e '%s/local-v-0-verify.state'", dir, dir, faux, faux), 0,
		     "fio's state file is not %s/local-v-0-verify.state", faux);
}

/*
 * --idle-prof: fio's "CPU idleness" lines after the results and its "cpu_idleness" object in
 * the JSON, a figure per configured CPU under percpu; calibrate times the unit alone and runs
 * no job; a mode fio lacks is refused with one line. (Only the form and sanity of the figures
 * are checked: how idle a CPU was depends on the machine.)
 */
Test(fio_cli, idle_prof_reports_each_cpus_idleness)
{
	long nr = sysconf(_SC_NPROCESSORS_CONF), i;
	const char *d = tmpdir_make();
	struct run_out r;
	json_t *root, *idle;
	char key[32];

	root = iopath_out_json("--idle-prof=percpu", "--name=a", "--ioengine=null", "--size=4m",
			       "--output-format=json", NULL);
	idle = json_object_get(root, "cpu_idleness");
	cr_assert_not_null(idle, "no cpu_idleness");
	cr_expect_eq(json_object_size(idle), (size_t)nr + 3, "keys: %s", json_dumps(idle, 0));
	cr_expect(json_real_value(json_object_get(idle, "system")) >= 0.0, "%s", json_dumps(idle, 0));
	cr_expect(json_real_value(json_object_get(idle, "unit_mean")) > 0.0, "%s", json_dumps(idle, 0));
	cr_expect(json_is_real(json_object_get(idle, "unit_stddev")), "%s", json_dumps(idle, 0));
	for (i = 0; i < nr; i++) {
		snprintf(key, sizeof(key), "cpu-%ld", i);
		cr_expect(json_is_real(json_object_get(idle, key)), "no %s: %s", key, json_dumps(idle, 0));
	}
	json_decref(root);
	/* system alone: no per-CPU figures */
	root = iopath_out_json("--idle-prof=system", "--name=a", "--ioengine=null", "--size=4m",
			       "--output-format=json", NULL);
	cr_expect_eq(json_object_size(json_object_get(root, "cpu_idleness")), 3u);
	json_decref(root);
	r = iopath_run("--idle-prof=percpu", "--name=a", "--ioengine=null", "--size=4m", NULL);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_expect_not_null(strstr(r.out, "\nCPU idleness:\n  system: "), "%s", r.out);
	cr_expect_not_null(strstr(r.out, "\n  percpu: "), "%s", r.out);
	cr_expect_not_null(strstr(r.out, "\n  unit work: mean="), "%s", r.out);
	run_out_free(&r);
	r = iopath_run("--idle-prof=calibrate", "--name=a", "--ioengine=null",
		       tmp_str("--filename=%s/never", d), "--rw=write", "--size=4m", NULL);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_expect(!strncmp(r.out, "CPU idleness:\n  unit work: mean=", 32), "%s", r.out);
	cr_expect(access(tmp_str("%s/never", d), F_OK), "calibrate ran the job");
	run_out_free(&r);
	r = iopath_run("--idle-prof=cpu", "--name=a", "--ioengine=null", "--size=4m", NULL);
	refused(&r, "--idle-prof=cpu: accepted: calibrate, system, percpu");
	run_out_free(&r);
}
