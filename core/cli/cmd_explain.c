/* iopath explain INPUT...: what limits each path of saved results, and the evidence. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "base/atomic.h"
#include "cli/cmdargs.h"
#include "cli/commands.h"
#include "cli/explain_print.h"
#include "base/version.h"
#include "report/report.h"
#include "results/explain.h"

static void usage(FILE *f)
{
	command_usage(f, "explain");
	fprintf(f,
		"  INPUT          a result file (sweep --json, suite or run JSON, iopath or fio JSON,\n"
		"                 a QEMU lab's lab.json),\n"
		"                 a run of the results database (latest, latest~N, run:ID,\n"
		"                 LABEL=VALUE), a comma list of them or a directory of files; cells\n"
		"                 with the same identity are pooled, targets with the same name joined\n"
		"  --json         the explanation as JSON on stdout ({\"iopath\": {\"explain\": ...}})\n"
		"  --output=FILE  write that JSON to FILE (the text still goes to stdout)\n"
		"  --db PATH|URI  the database for run selectors (default: $IOPATH_DB, else\n"
		"                 results/iopath.db)\n"
		"Per target: the limiting factor (serialized, latency-bound, device-bound, cpu-bound,\n"
		"cache, sync-bound) with its figures and a confidence, or not-enough-data and the run\n"
		"that would tell, overall and for reads and writes apart (iopath help explain).\n");
}

/* The targets of src that dst lacks (by role), so that every input's probes are kept. */
static void join_targets(struct results *dst, const struct results *src)
{
	const json_t *e, *d;
	size_t i, k;

	json_array_foreach(src->targets, i, e) {
		const char *role = json_string_value(json_object_get(e, "role"));
		bool have = false;

		json_array_foreach(dst->targets, k, d)
			if (role && json_string_value(json_object_get(d, "role")) &&
			    !strcmp(role, json_string_value(json_object_get(d, "role"))))
				have = true;
		if (!have)
			json_array_append(dst->targets, (json_t *)e);
	}
}

/* The explanation on stdout (text or JSON) and in --output; an output that fails keeps it. */
static int write_outputs(json_t *root, json_t *ex, bool json_out, const char *output)
{
	const char *failed = NULL;
	int ret;

	if (!json_out)
		explain_print(stdout, ex);
	else if (report_json_write(root, NULL))
		failed = "--json";
	if (failed)
		fprintf(stderr, "iopath: explain: cannot write the JSON to stdout\n");
	if (output && (ret = report_json_write(root, output))) {
		fprintf(stderr, "iopath: explain: cannot write %s: %s\n", output, strerror(-ret));
		failed = failed ? failed : "--output";
	}
	if (!failed)
		return 0;
	/* an output that failed at the end: the explanation is kept in the fallback file */
	json_keep(root, failed, false);
	return EXIT_JOB_FAILED;
}

int cmd_explain(int argc, char **argv)
{
	struct results all, one;
	struct seen_runs seen = { 0 };
	struct iop_err err = { "" };
	const char *output = NULL, *db = NULL, *v;
	bool json_out = false, loaded = false;
	json_t *ex = NULL, *root = NULL;
	int i, code = EXIT_USAGE;

	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? EXIT_USAGE : 0;
	}
	memset(&all, 0, sizeof(all));
	for (i = 1; i < argc; i++) {
		int ret = arg_value(argc, argv, &i, "db", &v, &err);

		if (ret < 0) {
			fprintf(stderr, "iopath: explain: %s\n", err.msg);
			goto out;
		}
		if (ret) {
			db = v;
		} else if (!strcmp(argv[i], "--json")) {
			json_out = true;
		} else if (!strncmp(argv[i], "--output=", 9) && argv[i][9]) {
			output = argv[i] + 9;
			if (atomic_check_as("--output", output, &err)) {
				fprintf(stderr, "iopath: explain: %s\n", err.msg);
				goto out;
			}
		} else if (!strncmp(argv[i], "--", 2)) {
			fprintf(stderr, "iopath: explain: unknown option '%s' (accepted: --json, --output=FILE, --db)\n",
				argv[i]);
			goto out;
		}
	}
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--db")) {
			i++;
			continue;
		}
		if (!strncmp(argv[i], "--", 2))
			continue;
		/* one seen for every INPUT: a run given by two of them would count twice */
		if (results_load_seen(argv[i], true, db, loaded ? &one : &all, &seen, &err)) {
			fprintf(stderr, "iopath: explain: %s\n", err.msg);
			goto out;
		}
		if (loaded) {
			int ret = results_merge(&all, &one, &err);

			join_targets(&all, &one);
			results_free(&one);
			if (ret) {
				fprintf(stderr, "iopath: explain: %s\n", err.msg);
				goto out;
			}
		}
		loaded = true;
	}
	if (!loaded) {
		fprintf(stderr, "iopath: explain: give at least one INPUT (a result file or directory)\n");
		goto out;
	}
	ex = explain_results(&all, &err);
	root = ex ? json_pack("{s:{s:s,s:O}}", "iopath", "version", iopath_version, "explain", ex) :
		    NULL;
	if (!root) {
		fprintf(stderr, "iopath: explain: %s\n", ex ? "out of memory" : err.msg);
		code = EXIT_JOB_FAILED;
		goto out;
	}
	code = write_outputs(root, ex, json_out, output);
out:
	json_decref(ex);
	json_decref(root);
	seen_free(&seen);
	if (loaded)
		results_free(&all);
	return code;
}
