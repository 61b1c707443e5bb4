/*
 * --status-interval (fio's periodic full reports) and SIGUSR1, side by side with Debian's fio
 * (skipped without it): how many documents, what each holds, the final one's figures, where
 * they go, and the values refused.
 */
#include <signal.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

static void need_fio(void)
{
	if (access(FIO_BIN, X_OK))
		cr_skip_test("fio is not installed (scripts/deps.sh installs it)");
}

TestSuite(fio_status, .init = need_fio, .fini = tmpdir_cleanup);

#define MAX_DOCS 16

/*
 * A job bound by its size that lasts at least 2.5 s on any machine (1024 I/Os at 400 a second):
 * its interim reports at 1 s and 2 s at least, then the final one.
 */
#define PACED "--name=paced", "--ioengine=null", "--rw=randread", "--bs=4k", "--size=4m", \
	"--rate_iops=400", "--output-format=json"

/* Each tool's documents for the same arguments (0 fio, 1 iopath). */
static unsigned tool_docs(bool iopath, char *const *args, json_t **docs)
{
	char *argv[32];
	struct run_out r;
	unsigned n = 0, nd;

	argv[n++] = iopath ? "iopath" : "fio";
	while (*args && n < 31)
		argv[n++] = *args++;
	argv[n] = NULL;
	r = iopath ? iopath_runv(argv) : prog_runv(FIO_BIN, argv);
	cr_assert_eq(r.status, 0, "%s exits %d: %s", argv[0], r.status, r.err);
	nd = json_docs_in_text(r.out, docs, MAX_DOCS, argv[0]);
	run_out_free(&r);
	return nd;
}

static void docs_free(json_t **docs, unsigned n)
{
	while (n)
		json_decref(docs[--n]);
}

/* Every key fio's object has, iopath's has too. */
static void keys_as_fio(json_t *fio, json_t *iop, const char *where, unsigned doc)
{
	const char *key;
	json_t *v;

	json_object_foreach(fio, key, v)
		cr_expect_not_null(json_object_get(iop, key), "document %u: %s: fio writes \"%s\", iopath does not",
				   doc, where, key);
}

static json_int_t read_field(json_t *doc, const char *field)
{
	return json_integer_value(json_object_get(
		json_object_get(json_array_get(json_object_get(doc, "jobs"), 0), "read"), field));
}

/*
 * A report every second while the job runs, then the final one, as fio writes them: each a
 * whole document with fio's keys, each later than the one before in time, runtime and I/Os.
 */
Test(fio_status, every_interval_a_whole_document_as_fio)
{
	char *args[] = { PACED, "--status-interval=1", NULL };
	json_t *docs[2][MAX_DOCS];
	unsigned nd[2], t, i;

	for (t = 0; t < 2; t++) {
		nd[t] = tool_docs(t, args, docs[t]);
		cr_expect_geq(nd[t], 3, "%s: %u documents for a run of 2.5 s or more at 1 s", t ? "iopath" : "fio",
			      nd[t]);
	}
	for (i = 0; i < nd[1]; i++) {
		json_t *f = docs[0][i < nd[0] ? i : nd[0] - 1], *o = docs[1][i];
		json_t *fj = json_array_get(json_object_get(f, "jobs"), 0);
		json_t *oj = json_array_get(json_object_get(o, "jobs"), 0);

		keys_as_fio(f, o, "top level", i);
		keys_as_fio(fj, oj, "jobs[0]", i);
		keys_as_fio(json_object_get(fj, "read"), json_object_get(oj, "read"), "read", i);
		cr_expect_eq(json_array_size(json_object_get(o, "jobs")), 1);
		if (!i)
			continue;
		cr_expect_geq(json_integer_value(json_object_get(o, "timestamp_ms")),
			      json_integer_value(json_object_get(docs[1][i - 1], "timestamp_ms")),
			      "document %u is not later than the one before", i);
		cr_expect_geq(read_field(o, "runtime"), read_field(docs[1][i - 1], "runtime"));
		cr_expect_geq(read_field(o, "total_ios"), read_field(docs[1][i - 1], "total_ios"));
	}
	/* the interim ones are the figures so far: fewer I/Os than the whole job's */
	cr_expect_lt(read_field(docs[1][0], "total_ios"), 1024);
	cr_expect_gt(read_field(docs[1][0], "runtime"), 0);
	docs_free(docs[0], nd[0]);
	docs_free(docs[1], nd[1]);
}

/* The last document is the run's result, the same as without the option, in fio's as in ours. */
Test(fio_status, the_final_document_is_the_runs_result)
{
	char *with[] = { PACED, "--status-interval=1", NULL }, *without[] = { PACED, NULL };
	json_t *docs[MAX_DOCS], *plain[MAX_DOCS];
	unsigned t, n, np;

	for (t = 0; t < 2; t++) {
		n = tool_docs(t, with, docs);
		np = tool_docs(t, without, plain);
		cr_assert_eq(np, 1, "%s: one document without --status-interval", t ? "iopath" : "fio");
		cr_expect_eq(read_field(docs[n - 1], "total_ios"), 1024, "%s", t ? "iopath" : "fio");
		cr_expect_eq(read_field(docs[n - 1], "io_bytes"), read_field(plain[0], "io_bytes"));
		cr_expect_eq(read_field(docs[n - 1], "total_ios"), read_field(plain[0], "total_ios"));
		cr_expect_eq(json_array_size(json_object_get(docs[n - 1], "jobs")),
			     json_array_size(json_object_get(plain[0], "jobs")));
		docs_free(docs, n);
		docs_free(plain, np);
	}
}

/*
 * With --output every document goes into the file, the final one last, and nothing to stdout;
 * with group_reporting each holds the group as one job.
 */
Test(fio_status, documents_go_to_the_output_file_grouped)
{
	const char *dir = tmpdir_make();
	char out[2][400], oarg[2][420];
	json_t *docs[MAX_DOCS];
	unsigned t, n, i;

	for (t = 0; t < 2; t++) {
		char *argv[] = { t ? "iopath" : "fio", PACED, "--numjobs=2", "--group_reporting",
				 "--status-interval=1", oarg[t], NULL };
		struct run_out r;
		char *text;

		snprintf(out[t], sizeof(out[t]), "%s/%s.json", dir, argv[0]);
		snprintf(oarg[t], sizeof(oarg[t]), "--output=%s", out[t]);
		r = t ? iopath_runv(argv) : prog_runv(FIO_BIN, argv);
		cr_assert_eq(r.status, 0, "%s exits %d: %s", argv[0], r.status, r.err);
		cr_expect_eq(strstr(r.out, "\"jobs\"") == NULL, true, "%s: a report on stdout", argv[0]);
		run_out_free(&r);
		text = file_text(out[t]);
		cr_assert_not_null(text);
		n = json_docs_in_text(text, docs, MAX_DOCS, argv[0]);
		free(text);
		cr_expect_geq(n, 3, "%s: %u documents in the file", argv[0], n);
		for (i = 0; i < n; i++)
			cr_expect_eq(json_array_size(json_object_get(docs[i], "jobs")), 1,
				     "%s: document %u", argv[0], i);
		cr_expect_eq(read_field(docs[n - 1], "total_ios"), 2048, "%s", argv[0]);
		docs_free(docs, n);
	}
}

/* Values fio's parser refuses (no time, under a millisecond): one line, exit 2. */
Test(fio_status, bad_intervals_are_refused)
{
	static const char *const bad[] = { "--status-interval=0", "--status-interval=abc",
					   "--status-interval=500us", "--status-interval=" };
	unsigned i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *argv[] = { "iopath", "--name=x", "--ioengine=null", "--size=1m", (char *)bad[i], NULL };
		struct run_out r = iopath_runv(argv);

		cr_expect_eq(r.status, 2, "%s exits %d", bad[i], r.status);
		cr_expect_not_null(strstr(r.err, "--status-interval"), "%s: %s", bad[i], r.err);
		cr_expect_eq(strchr(r.err, '\n'), r.err + strlen(r.err) - 1, "%s: one line: %s", bad[i], r.err);
		run_out_free(&r);
	}
}

/* SIGUSR1 while the jobs run: one report more, as fio prints one, and the run goes on. */
Test(fio_status, sigusr1_prints_a_report)
{
	const char *dir = tmpdir_make();
	char *argv[] = { "iopath", PACED, NULL };
	json_t *docs[MAX_DOCS];
	struct run_bg b = iopath_start_running(dir, argv, dir);
	struct run_out r;
	unsigned n;

	cr_assert(running_reached(&b), "the workers never moved data");
	kill(b.pid, SIGUSR1);
	running_release();
	r = iopath_wait(&b, 120);
	cr_assert_eq(r.status, 0, "exits %d: %s", r.status, r.err);
	n = json_docs_in_text(r.out, docs, MAX_DOCS, "iopath");
	cr_expect_eq(n, 2, "%u documents", n);
	cr_expect_lt(read_field(docs[0], "total_ios"), 1024);
	cr_expect_eq(read_field(docs[n - 1], "total_ios"), 1024);
	docs_free(docs, n);
	run_out_free(&r);
}

/*
 * cmdprio: each interim document holds the latencies per priority so far ("prios"), as fio's,
 * taken from the workers' own copies (a stonewall group after it, and group_reporting clones).
 */
Test(fio_status, latencies_per_priority_so_far_as_fio)
{
	char darg[340];
	char *args[] = { darg, "--name=p", "--ioengine=libaio", "--rw=randread", "--bs=4k", "--size=4m",
			 "--rate_iops=400", "--iodepth=4", "--cmdprio_percentage=50",
			 "--cmdprio_class=2", "--cmdprio=3", "--numjobs=2", "--group_reporting",
			 "--output-format=json", "--status-interval=1", "--name=q", "--stonewall",
			 "--rw=write", "--size=1m", NULL };
	json_t *docs[2][MAX_DOCS];
	unsigned nd[2], t, i;

	for (t = 0; t < 2; t++) {
		/* each tool its own directory: q's file is fio's, or iopath's */
		snprintf(darg, sizeof(darg), "--directory=%s", tmpdir_make());
		nd[t] = tool_docs(t, args, docs[t]);
	}
	cr_expect_geq(nd[1], 3, "iopath: %u documents", nd[1]);
	for (i = 0; i + 1 < nd[1]; i++) {
		json_t *f = docs[0][0], *o = docs[1][i];
		json_t *fj = json_array_get(json_object_get(f, "jobs"), 0);
		json_t *oj = json_array_get(json_object_get(o, "jobs"), 0);

		cr_expect_eq(json_array_size(json_object_get(o, "jobs")),
			     json_array_size(json_object_get(f, "jobs")), "document %u", i);
		keys_as_fio(json_object_get(fj, "read"), json_object_get(oj, "read"), "read", i);
	}
	cr_expect_eq(read_field(docs[1][nd[1] - 1], "total_ios"), 2048);
	docs_free(docs[0], nd[0]);
	docs_free(docs[1], nd[1]);
}
