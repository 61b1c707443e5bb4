/* iopath compare BASE CUR: which cells regressed between two results, with statistics. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/atomic.h"
#include "cli/cmdargs.h"
#include "cli/commands.h"
#include "cli/htmlout.h"
#include "results/compare.h"
#include "report/report.h"
#include "results/report_cells.h"

static void usage(FILE *f)
{
	command_usage(f, "compare");
	fprintf(f,
		"  BASE, CUR             a result file (iopath results, iopath or fio JSON), a comma\n"
		"                        list of them or a directory of them: repeats are pooled;\n"
		"                        or runs of the results database: latest, latest~N (N runs\n"
		"                        before it), run:ID, KEY=VALUE (every run with that label)\n"
		"  --run ID, --label K=V BASE (the first given), then CUR, from the database\n"
		"  --db PATH|URI         the database (default: $IOPATH_DB, else results/iopath.db)\n"
		"  --threshold P         a change must exceed P percent to count (default 5%%)\n"
		"  --metric LIST         iops,bw,clat_p50,clat_p99,clat_p99.9,lat_sched_p99,\n"
		"                        io_time_per_io (default: all; lat_sched_p99 where a cell\n"
		"                        has it, io_time_per_io, the time per I/O less CPU wait,\n"
		"                        where both cells recorded it in every repeat)\n"
		"  --alpha A             the false-alarm rate of the whole compare: Benjamini-\n"
		"                        Hochberg over every metric tested (default 0.05)\n"
		"  --strict              count cells that cannot be judged as regressions (exit 1)\n"
		"  --allow-inconclusive  exit 0, not 3, when nothing regressed but some cells could\n"
		"                        not be judged (single samples, too few repeats)\n"
		"  --ignore-environment  judge a regression even when what else used the machine\n"
		"                        (the workers' wait for a CPU, steal, others' disk I/O) differed\n"
		"                        enough between the sides to explain it (else: exit 3)\n"
		"  --json[=FILE]         the comparison as JSON (on stdout instead of the table)\n"
		"  --junit FILE          a JUnit XML report for CI systems\n"
		"  --html FILE           one self-contained HTML page: the changes with their\n"
		"                        intervals, and both sides' environment and probes\n"
		"The bound shown is the one-sided bound the test decides by: a change is flagged\n"
		"exactly when it lies beyond the threshold. Tail percentiles are judged only with\n"
		"enough I/Os and repeats (p99: 1,000 I/Os a repeat; p99.9: 10,000 and 5 repeats);\n"
		"cells whose repeats varied over 10%% are named unreliable.\n"
		"exit: 0 every cell judged and none regressed or failed, 1 something regressed or\n"
		"      failed in CUR (or an output failed at the end: the comparison is kept in\n"
		"      $TMPDIR/iopath-result.PID.json), 2 bad input, 3 nothing regressed but some cells could not be judged,\n"
		"      or what regressed ran with the machine busier enough to explain it (the\n"
		"      environment differed: not turned into 0 by --allow-inconclusive)\n");
}

struct compare_args {
	const char *base, *cur, *json, *junit, *db, *html;
	char sel[2][160];
	bool json_stdout;
	struct cmp_opts o;
};

/* --run ID / --label K=V: the next side (BASE, then CUR), as the selector run:ID or K=V. */
static int add_side(struct compare_args *a, bool run, const char *v, struct iop_err *err)
{
	unsigned side = a->base ? 1 : 0;

	if (a->base && a->cur)
		return iop_errf(err, -EINVAL, "compare: --%s '%s': BASE and CUR are given already",
				run ? "run" : "label", v);
	if (run && !*v)
		return iop_errf(err, -EINVAL, "compare: --run needs a run's number (iopath results list)");
	if (!run && (!strchr(v, '=') || *v == '='))
		return iop_errf(err, -EINVAL, "compare: --label '%s': expected KEY=VALUE, e.g. qemu=8.2.1", v);
	snprintf(a->sel[side], sizeof(a->sel[side]), "%s%s", run ? "run:" : "", v);
	if (side)
		a->cur = a->sel[1];
	else
		a->base = a->sel[0];
	return 0;
}

static int parse(int argc, char **argv, struct compare_args *a, struct iop_err *err)
{
	const struct arg_opt opts[] = {
		{ "threshold", ARG_PERCENT, { .d = &a->o.threshold } },
		{ "metric", ARG_METRICS, { .u = &a->o.metrics } },
		{ "alpha", ARG_ALPHA, { .d = &a->o.alpha } },
		{ "html", ARG_HTML, { .s = &a->html } },
		{ "db", ARG_STRING, { .s = &a->db } },
		{ "junit", ARG_STRING, { .s = &a->junit } },
		{ NULL },
	};
	const char *v;
	int i, ret;

	a->o = (struct cmp_opts){ .threshold = 0.05, .alpha = 0.05, .metrics = (1u << MET_NR) - 1 };
	for (i = 1; i < argc; i++) {
		/* a tail --metric names but that cannot be judged makes the compare inconclusive */
		a->o.metrics_given |= !strncmp(argv[i], "--metric", 8);
		if ((ret = arg_table(argc, argv, &i, opts, err))) {
			if (ret < 0)
				return ret;
		} else if ((ret = arg_value(argc, argv, &i, "run", &v, err))) {
			if (ret < 0 || (ret = add_side(a, true, v, err)))
				return ret;
		} else if ((ret = arg_value(argc, argv, &i, "label", &v, err))) {
			if (ret < 0 || (ret = add_side(a, false, v, err)))
				return ret;
		} else if (!strcmp(argv[i], "--json")) {
			a->json_stdout = true;
		} else if (!strncmp(argv[i], "--json=", 7)) {
			a->json = argv[i] + 7;
		} else if (cmp_flag_arg(argv[i], &a->o)) {
			continue;
		} else if (!strncmp(argv[i], "--", 2)) {
			return iop_errf(err, -EINVAL, "compare: unknown option '%s' (see iopath compare --help)",
					argv[i]);
		} else if (!a->base) {
			a->base = argv[i];
		} else if (!a->cur) {
			a->cur = argv[i];
		} else {
			return iop_errf(err, -EINVAL, "compare: more than two results given ('%s'); join repeats with commas or give a directory",
					argv[i]);
		}
	}
	if (!a->base || !a->cur)
		return iop_errf(err, -EINVAL, "compare: give BASE and CUR result files (see iopath compare --help)");
	if (a->json && (ret = atomic_check_as("--json", a->json, err)))
		return ret;
	return a->junit ? atomic_check_as("--junit", a->junit, err) : 0;
}

static int write_junit(const char *path, const struct cmp_report *rep, const struct results *b,
		       const struct results *c, const struct cmp_opts *o, struct iop_err *err)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int ret;

	if (!f)
		return iop_errf(err, -ENOMEM, "--junit: out of memory");
	ret = report_compare_junit(f, rep, b, c, o);
	if (fclose(f) && !ret)
		ret = -EIO;
	if (!ret)
		ret = write_text_atomic(path, buf, len);
	free(buf);
	return ret ? iop_errf(err, ret, "--junit %s: %s", path, strerror(-ret)) : 0;
}

/* The comparison, then each side in full. */
static int write_html(const char *path, const struct cmp_report *rep, const struct results *b,
		      const struct results *c, const struct cmp_opts *o, struct iop_err *err)
{
	struct html_set set = { 0 };
	json_t *j = report_compare_json(rep, b, c, o);
	int ret;

	ret = j ? html_add_json(&set, j, "compare", err) : iop_errf(err, -ENOMEM, "out of memory");
	if (!ret)
		ret = html_add_results(&set, b, b->source, err);
	if (!ret)
		ret = html_add_results(&set, c, c->source, err);
	if (!ret)
		ret = html_set_write(&set, "iopath compare", path, err);
	html_set_free(&set);
	return ret;
}

/* An output that failed at the end: the comparison's JSON, in the process's fallback file. */
static void keep_comparison(const struct cmp_report *rep, const struct results *b,
			    const struct results *c, const struct cmp_opts *o, const char *what)
{
	json_t *j = report_compare_json(rep, b, c, o);

	json_keep(j, what, false);
	json_decref(j);
}

int cmd_compare(int argc, char **argv)
{
	struct compare_args a = { 0 };
	struct results base, cur;
	struct cmp_report rep;
	struct iop_err err = { "" };
	const char *failed = NULL;
	unsigned i;
	int code = EXIT_USAGE;

	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		usage(stdout);
		return 0;
	}
	if (parse(argc, argv, &a, &err)) {
		fprintf(stderr, "iopath: %s\n", err.msg);
		return EXIT_USAGE;
	}
	if (results_load_set(a.base, false, a.db, &base, &err)) {
		fprintf(stderr, "iopath: compare BASE: %s\n", err.msg);
		return EXIT_USAGE;
	}
	if (results_load_set(a.cur, false, a.db, &cur, &err)) {
		fprintf(stderr, "iopath: compare CUR: %s\n", err.msg);
		results_free(&base);
		return EXIT_USAGE;
	}
	if (compare_results(&base, &cur, &a.o, &rep, &err)) {
		fprintf(stderr, "iopath: %s\n", err.msg);
		goto out;
	}
	if (!rep.nr) {
		fprintf(stderr, "iopath: compare: no cell of %s matches a cell of %s (cells match on workload, engine, options and target role)\n",
			base.source, cur.source);
		if (base.nr)
			fprintf(stderr, "iopath:   e.g. BASE has %s\n", base.cells[0].key);
		if (cur.nr)
			fprintf(stderr, "iopath:   e.g. CUR has  %s\n", cur.cells[0].key);
		goto out_rep;
	}
	if (a.json_stdout || a.json) {
		json_t *j = report_compare_json(&rep, &base, &cur, &a.o);
		int ret = j ? report_json_write(j, a.json) : -ENOMEM;

		json_decref(j);
		if (ret) {
			fprintf(stderr, "iopath: --json %s: %s\n", a.json ? a.json : "stdout", strerror(-ret));
			failed = "--json";
		}
	}
	if (!a.json_stdout)
		report_compare_text(stdout, &rep, &base, &cur, &a.o);
	else
		for (i = 0; i < rep.nr_warn; i++)
			fprintf(stderr, "iopath: warning: %s\n", rep.warn[i]);
	if (a.html && write_html(a.html, &rep, &base, &cur, &a.o, &err)) {
		fprintf(stderr, "iopath: %s\n", err.msg);
		failed = failed ? failed : "--html";
	}
	if (a.junit && write_junit(a.junit, &rep, &base, &cur, &a.o, &err)) {
		fprintf(stderr, "iopath: %s\n", err.msg);
		failed = failed ? failed : "--junit";
	}
	code = cmp_exit_code(&rep, &a.o);
	if (failed) {
		/* checked at the start, failed at the end: the comparison is kept, exit 1 */
		keep_comparison(&rep, &base, &cur, &a.o, failed);
		code = EXIT_JOB_FAILED;
	}
out_rep:
	cmp_report_free(&rep);
out:
	results_free(&base);
	results_free(&cur);
	return code;
}
