/*
 * Side by side with fio (Debian's fio, installed by scripts/deps.sh; skipped without it): for
 * the job files in tests/jobs/fio-side, with ioengine=null, both report the same jobs, names
 * and reporting groups and move the same bytes per job; and both order command-line jobs,
 * globals and several job files the same way.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

#define SIDE "tests/jobs/fio-side/"

static void need_fio(void)
{
	if (access(FIO_BIN, X_OK))
		cr_skip_test("fio is not installed (scripts/deps.sh installs it)");
}

static long long dir_bytes(json_t *job, const char *dir)
{
	return json_integer_value(json_object_get(json_object_get(job, dir), "io_bytes"));
}

/* fio 3.33 can append an empty entry (no jobname, groupid -1) after merged groups: drop it. */
static json_t *real_jobs(json_t *root)
{
	json_t *jobs = json_object_get(root, "jobs"), *out = json_array();
	size_t k;

	for (k = 0; k < json_array_size(jobs); k++)
		if (json_object_get(json_array_get(jobs, k), "jobname"))
			json_array_append(out, json_array_get(jobs, k));
	return out;
}

/* Both tools' jobs[]: same length, names, groups and bytes per direction. */
static void compare(char **args, const char *what)
{
	json_t *f = tool_json(true, (const char *const *)args), *i = tool_json(false, (const char *const *)args);
	json_t *fj = real_jobs(f), *ij = json_object_get(i, "jobs");
	size_t k;

	cr_assert_eq(json_array_size(ij), json_array_size(fj), "%s: iopath reports %zu jobs, fio %zu",
		     what, json_array_size(ij), json_array_size(fj));
	for (k = 0; k < json_array_size(fj); k++) {
		json_t *a = json_array_get(fj, k), *b = json_array_get(ij, k);

		cr_expect_str_eq(json_string_value(json_object_get(b, "jobname")),
				 json_string_value(json_object_get(a, "jobname")), "%s: job %zu name",
				 what, k);
		cr_expect_eq(json_integer_value(json_object_get(b, "groupid")),
			     json_integer_value(json_object_get(a, "groupid")), "%s: job %zu (%s) groupid",
			     what, k, json_string_value(json_object_get(a, "jobname")));
		cr_expect_eq(dir_bytes(b, "read"), dir_bytes(a, "read"), "%s: job %zu (%s) read bytes",
			     what, k, json_string_value(json_object_get(a, "jobname")));
		cr_expect_eq(dir_bytes(b, "write"), dir_bytes(a, "write"),
			     "%s: job %zu (%s) write bytes", what, k,
			     json_string_value(json_object_get(a, "jobname")));
	}
	json_decref(fj);
	json_decref(f);
	json_decref(i);
}

static void compare_file(const char *name)
{
	char path[256];
	char *args[] = { path, NULL };

	snprintf(path, sizeof(path), SIDE "%s", name);
	compare(args, name);
}

static void parse_only_agrees(const char *name)
{
	char path[256];
	char *fargv[] = { "fio", "--parse-only", path, NULL };
	struct run_out f, i;

	snprintf(path, sizeof(path), SIDE "%s", name);
	f = prog_runv(FIO_BIN, fargv);
	i = iopath_run("--parse-only", path, NULL);
	cr_expect_eq(i.status == 0, f.status == 0, "%s: fio --parse-only %d, iopath %d: %s", name,
		     f.status, i.status, i.err);
	run_out_free(&f);
	run_out_free(&i);
}

TestSuite(fio_side, .init = need_fio);

Test(fio_side, reporting_groups_and_group_reporting)
{
	parse_only_agrees("groups.fio");
	compare_file("groups.fio");
}

Test(fio_side, global_sections_and_comments)
{
	parse_only_agrees("globals.fio");
	compare_file("globals.fio");
}

Test(fio_side, size_units)
{
	parse_only_agrees("sizes.fio");
	compare_file("sizes.fio");
}

Test(fio_side, bare_flags)
{
	parse_only_agrees("flags.fio");
	compare_file("flags.fio");
}

Test(fio_side, environment_and_keywords)
{
	setenv("IOPATH_SIDE_SIZE", "768k", 1);
	parse_only_agrees("environment.fio");
	compare_file("environment.fio");
}

Test(fio_side, command_line_jobs_come_before_job_files)
{
	char *args[] = { "--ioengine=null", "--size=64k", "--name=c1", SIDE "flags.fio",
			 "--name=c2", "--stonewall", NULL };

	compare(args, "cli + file");
}

Test(fio_side, later_job_files_start_from_defaults_behind_a_stonewall)
{
	char *args[] = { "--ioengine=null", "--size=64k", SIDE "globals.fio", SIDE "groups.fio",
			 NULL };

	compare(args, "two files");
}

Test(fio_side, command_line_globals_reach_the_first_job_file)
{
	char *args[] = { "--size=96k", "--name=global", "--bs=8k", SIDE "no-size.fio",
			 SIDE "globals.fio", NULL };

	compare(args, "cli globals");
}
