/* Integration: a run counts once however it is given, and text from data reaches no terminal raw. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"

TestSuite(counted, .fini = tmpdir_cleanup);

static char dir[300], a[320], b[320], db[320];

/* A real run of 3 repeats (null engine) saved as a result file at path. */
static void make_run(const char *path, const char *label)
{
	char out[340];

	snprintf(out, sizeof(out), "--output=%s", path);
	iopath_exits(0, "run", "randread-4k-qd1", "--scale=0.001", "ioengine=null", "--repeat=3",
		     "--target", dir, "--output-format=json", out, "--label", label, NULL);
}

static void two_runs(void)
{
	snprintf(dir, sizeof(dir), "%s", tmpdir_make());
	snprintf(a, sizeof(a), "%s/A.json", dir);
	snprintf(b, sizeof(b), "%s/B.json", dir);
	snprintf(db, sizeof(db), "%s/r.db", dir);
	make_run(a, "k=a");
	make_run(b, "k=b");
}

static void assert_given_twice(struct run_out *r)
{
	cr_assert_eq(r->status, 2, "exit %d: %s", r->status, r->err);
	cr_assert_not_null(strstr(r->err, "the same run as"), "%s", r->err);
	cr_assert_eq(strchr(r->err, '\n'), r->err + strlen(r->err) - 1, "not one line: %s", r->err);
}

Test(counted, a_file_given_twice_is_refused_not_pooled)
{
	char dot[340], cp[340];
	struct run_out r;

	two_runs();
	snprintf(cp, sizeof(cp), "%s/copy.json", dir);
	cr_assert_eq(sh("cp '%s' '%s' && ln -s A.json '%s/link.json'", a, cp, dir), 0);
	snprintf(dot, sizeof(dot), "%s,%s/./A.json", a, dir);
	r = iopath_run("compare", dot, b, NULL);
	assert_given_twice(&r);
	run_out_free(&r);
	snprintf(dot, sizeof(dot), "%s,%s", a, cp);
	r = iopath_run("compare", dot, b, NULL);
	assert_given_twice(&r);
	run_out_free(&r);
	snprintf(dot, sizeof(dot), "%s,%s/link.json", a, dir);
	r = iopath_run("compare", dot, b, NULL);
	assert_given_twice(&r);
	run_out_free(&r);
	r = iopath_run("compare", a, b, NULL);
	cr_assert_neq(r.status, 2, "two runs once each are refused: %s", r.err);
	run_out_free(&r);
	/* explain pools all its INPUTs: the same run as two of them counts twice too */
	snprintf(dot, sizeof(dot), "%s/./A.json", dir);
	r = iopath_run("explain", a, dot, NULL);
	assert_given_twice(&r);
	run_out_free(&r);
	r = iopath_run("explain", a, dir, NULL);
	assert_given_twice(&r);
	run_out_free(&r);
	iopath_exits(0, "explain", a, b, NULL);
}

Test(counted, a_database_run_given_twice_is_refused_not_pooled)
{
	struct run_out r;

	two_runs();
	iopath_exits(0, "results", "import", a, b, "--db", db, NULL);
	r = iopath_run("compare", "run:1,run:1", "run:2", "--db", db, NULL);
	assert_given_twice(&r);
	run_out_free(&r);
	/* the label names run 1 too */
	r = iopath_run("compare", "k=a,run:1", "run:2", "--db", db, NULL);
	assert_given_twice(&r);
	run_out_free(&r);
}

/* A directory with a link loop and a second link to one file: each run is read once. */
Test(counted, history_of_a_directory_with_link_loops_counts_each_run_once)
{
	char sub[340];
	json_t *j;
	long long runs;

	two_runs();
	snprintf(sub, sizeof(sub), "%s/sub", dir);
	cr_assert_eq(sh("mkdir '%s' && ln -s .. '%s/up' && ln -s ../A.json '%s/again.json'", sub, sub, sub), 0);
	/* the count is the point: the newest run's verdict (1 worse, 3 undecided or another
	 * environment) is the busy machine's, as two short runs are */
	j = iopath_json(ANY_VERDICT, "history", dir, "--json", NULL);
	runs = json_integer_value(json_object_get(j, "runs"));
	cr_assert_eq(runs, 2, "history counted %lld runs of 2", runs);
	json_decref(j);
}

/* No byte of a terminal control sequence from data: ESC, BEL, C1 controls. */
static void assert_no_controls(const char *what, const char *s)
{
	const unsigned char *p;

	for (p = (const unsigned char *)s; *p; p++) {
		cr_assert(!(*p < 0x20 && *p != '\n' && *p != '\t') && *p != 0x7f,
			  "%s prints the control byte 0x%02x raw: %s", what, *p, s);
		cr_assert(!(p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f),
			  "%s prints a C1 control raw: %s", what, s);
	}
}

#define OSC52 "\x1b]52;c;aWQ=\x07"

Test(counted, control_sequences_from_results_reach_no_terminal_raw)
{
	static const char *const cmds[][4] = {
		{ "compare", a, b, NULL },
		{ "history", dir, NULL, NULL },
		{ "results", "list", "--db", db },
		{ "explain", a, NULL, NULL },
	};
	struct run_out r;
	json_t *j;
	unsigned i;

	two_runs();
	/* a host name and a label from a hostile result file or shared database */
	j = json_load_path(a);
	json_object_set_new(json_object_get(j, "env"), "hostname", json_string("h" OSC52 "\xc2\x9b" "31m"));
	json_object_set_new(json_object_get(j, "labels"), "k", json_string("a" OSC52));
	cr_assert_eq(json_dump_file(j, a, 0), 0);
	json_decref(j);
	iopath_exits(0, "results", "import", a, b, "--db", db, NULL);
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		char *argv[8] = { "iopath" };
		unsigned k;

		for (k = 0; k < 4 && cmds[i][k]; k++)
			argv[k + 1] = (char *)cmds[i][k];
		argv[k + 1] = NULL;
		r = iopath_runv(argv);
		assert_no_controls(cmds[i][0], r.out);
		assert_no_controls(cmds[i][0], r.err);
		run_out_free(&r);
	}
}

/* Lists and labels say what they mean: no element dropped, no label silently replaced. */
Test(counted, empty_list_elements_and_repeated_labels_are_refused)
{
	char list[700];
	struct run_out r;

	two_runs();
	iopath_refuses("--bs 4k,,8k: an empty element", "sweep", "--engine", "null", "--bs",
		       "4k,,8k", "--dry-run", NULL);
	iopath_refuses("given twice", "sweep", "--engine", "null", "--label", "k=1", "--label",
		       "k=2", "--dry-run", NULL);
	iopath_refuses("given twice", "run", "randread-4k-qd1", "--scale=0.001", "ioengine=null",
		       "--repeat=2", "--target", dir, "--label", "k=1", "--label", "k=2", NULL);
	/* a single run keeps no result: a label there would be dropped, so it is refused */
	iopath_refuses("--repeat N", "run", "randread-4k-qd1", "--scale=0.001", "ioengine=null",
		       "--target", dir, "--label", "k=1", NULL);
	iopath_exits(0, "results", "import", a, "--db", db, NULL);
	/* compare's and explain's lists of files and selectors drop no element either */
	snprintf(list, sizeof(list), "%s,", a);
	iopath_refuses("an empty element", "compare", list, b, NULL);
	snprintf(list, sizeof(list), "%s,,%s", a, b);
	iopath_refuses("an empty element", "explain", list, NULL);
	iopath_refuses("an empty element", "compare", ",,,", "run:1", "--db", db, NULL);
	r = iopath_run("results", "export", ",,,", "--db", db, NULL);
	cr_assert_eq(r.status, 2, "exit %d: %s", r.status, r.err);
	cr_assert_not_null(strstr(r.err, "an empty selector"), "%s", r.err);
	cr_assert_null(strstr(r.err, "no runs saved yet"), "%s", r.err);
	run_out_free(&r);
}

/* Numbers in result files are what they claim: no negative rate, no time before 1970. */
Test(counted, negative_rates_and_times_in_result_files_are_refused)
{
	struct run_out r;
	json_t *j;

	two_runs();
	j = json_load_path(a);
	json_object_set_new(j, "timestamp_ms", json_integer(INT64_MIN));
	cr_assert_eq(json_dump_file(j, a, 0), 0);
	json_decref(j);
	iopath_refuses("timestamp_ms", "compare", a, b, NULL);
	j = json_load_path(b);
	json_object_set_new(json_object_get(json_array_get(json_object_get(json_array_get(
		json_object_get(j, "cells"), 0), "samples"), 0), "read"), "iops", json_real(-5));
	cr_assert_eq(json_dump_file(j, b, 0), 0);
	json_decref(j);
	r = iopath_run("history", dir, NULL);
	cr_assert_neq(r.status, 0, "%s", r.err);
	run_out_free(&r);
	make_run(a, "k=c");
	iopath_refuses("read.iops is -5", "compare", a, b, NULL);
	/* a count of repeats that is negative, or not what the samples are */
	make_run(b, "k=b");
	j = json_load_path(a);
	json_object_set_new(json_array_get(json_object_get(j, "cells"), 0), "repeats",
			    json_integer(-3));
	cr_assert_eq(json_dump_file(j, a, 0), 0);
	json_decref(j);
	iopath_refuses("cells[0].repeats", "compare", a, b, NULL);
}
