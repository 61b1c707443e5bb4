/* iopath workloads / iopath run NAME: the built-in workload library. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cmdargs.h"
#include "cli/commands.h"
#include "job/job.h"
#include "cli/htmlout.h"
#include "report/output.h"
#include "report/report.h"
#include "results/repeat.h"
#include "results/report_cells.h"
#include "results/results.h"
#include "run/run.h"
#include "base/atomic.h"
#include "base/tempfiles.h"
#include "job/workloads.h"

#define OVERRIDES_MAX 64

int cmd_workloads(int argc, char **argv)
{
	const struct builtin_workload *w;

	if (argc > 2) {
		fprintf(stderr, "iopath workloads: one NAME at a time, not also '%s' (iopath workloads --help)\n",
			argv[2]);
		return EXIT_USAGE;
	}
	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		command_usage(stdout, "workloads");
		printf("  Lists the built-in workloads with what each measures; with NAME, prints its job\n"
		       "  file (iopath run NAME runs it).\n");
		return 0;
	}
	if (argc == 2) {
		w = workload_find(argv[1]);
		if (!w) {
			fprintf(stderr, "iopath workloads: no workload '%s' (see 'iopath workloads')\n",
				argv[1]);
			return EXIT_USAGE;
		}
		fputs(w->text, stdout);
		return 0;
	}
	for (w = builtin_workloads; w->name; w++)
		printf("%-18s %s\n", w->name, w->description);
	return 0;
}

static void run_usage(FILE *f)
{
	command_usage(f, "run");
	fprintf(f,
		"  --target DIR        where the workload's files go (default: here); a temporary\n"
		"                      directory inside it is removed afterwards\n"
		"  --scale[=F]         shrink sizes, runtimes and file counts by F (default 1/64)\n"
		"  OPTION=VALUE, --OPTION=VALUE   any job option, applied on top (size=64m, ioengine=libaio)\n"
		"  --output-format=F   normal, json, json+;  --output=FILE\n"
		"  --repeat N          run N times: median, min-max, 95%% interval, noise warnings\n"
		"                      (default 1; with --save 3, the fewest compare can judge well)\n"
		"  --save[=NAME]       save the run, named NAME (default: the workload), into the\n"
		"                      results database\n"
		"  --db PATH|URI       an SQLite file or postgresql://... (default: $IOPATH_DB, else\n"
		"                      results/iopath.db); --results-dir DIR: DIR/iopath.db\n"
		"  --label KEY=VALUE   a tag saved with the results of --repeat or --save (several\n"
		"                      allowed, each key once)\n"
		"  --html FILE         one self-contained HTML page of the results\n"
		"workloads: iopath workloads\n");
}

#define RUN_LABELS_MAX 32

struct run_args {
	unsigned repeat;
	const char *save, *results_dir, *db, *html;
	unsigned nr_labels;
	const char *labels[RUN_LABELS_MAX];
	const char *target;
	double scale;
	struct output_opts out;
	struct workload_override ov[OVERRIDES_MAX];
	unsigned nr_ov;
};

/* Split "--key=value", "key=value" or "--flag" into an override. */
static int add_override(struct run_args *a, char *arg, struct iop_err *err)
{
	char *eq;

	if (!strncmp(arg, "--", 2))
		arg += 2;
	else if (!strchr(arg, '='))
		return iop_errf(err, -EINVAL, "run: unexpected argument '%s' (options are KEY=VALUE or --KEY=VALUE)",
				arg);
	if (a->nr_ov == OVERRIDES_MAX)
		return iop_errf(err, -E2BIG, "run: more than %d options", OVERRIDES_MAX);
	eq = strchr(arg, '=');
	if (eq)
		*eq = '\0';
	a->ov[a->nr_ov].key = arg;
	a->ov[a->nr_ov].val = eq ? eq + 1 : NULL;
	a->nr_ov++;
	return 0;
}

static int parse_run_args(int argc, char **argv, struct run_args *a, struct iop_err *err)
{
	const struct arg_opt opts[] = {
		{ "repeat", ARG_REPEAT, { .u = &a->repeat } },
		{ "results-dir", ARG_STRING, { .s = &a->results_dir } },
		{ "html", ARG_HTML, { .s = &a->html } },
		{ "db", ARG_STRING, { .s = &a->db } },
		{ NULL },
	};
	char db[PATH_MAX];
	const char *v;
	int i, ret;

	for (i = 2; i < argc; i++) {
		char *arg = argv[i];

		if (!strcmp(arg, "--target") || !strncmp(arg, "--target=", 9)) {
			a->target = arg[8] ? arg + 9 : (i + 1 < argc ? argv[++i] : NULL);
			if (!a->target || !*a->target)
				return iop_errf(err, -EINVAL, "run: --target needs a directory");
		} else if (!strcmp(arg, "--scale")) {
			a->scale = WORKLOAD_QUICK_SCALE;
		} else if (!strncmp(arg, "--scale=", 8)) {
			if (workload_parse_scale(arg + 8, &a->scale))
				return iop_errf(err, -EINVAL,
						"run: --scale=%s: bad factor (accepted: 0 < F <= 1, e.g. 0.1, 1/64, 5%%)",
						arg + 8);
		} else if (!strncmp(arg, "--output-format=", 16)) {
			ret = output_parse_formats(arg + 16, &a->out.formats, err);
			if (ret)
				return ret;
		} else if (!strncmp(arg, "--output=", 9) && arg[9]) {
			a->out.path = arg + 9;
		} else if ((ret = arg_table(argc, argv, &i, opts, err))) {
			if (ret < 0)
				return ret;
		} else if ((ret = arg_value(argc, argv, &i, "label", &v, err))) {
			if (ret < 0)
				return ret;
			if (a->nr_labels == RUN_LABELS_MAX)
				return iop_errf(err, -E2BIG, "run: at most %d --label", RUN_LABELS_MAX);
			a->labels[a->nr_labels++] = v;
		} else if (!strcmp(arg, "--save")) {
			a->save = argv[1];
		} else if (!strncmp(arg, "--save=", 7) && arg[7]) {
			a->save = arg + 7;
		} else {
			ret = add_override(a, arg, err);
			if (ret)
				return ret;
		}
	}
	/* labels tag a result that is kept; a single run's fio output has no place for them */
	if (a->nr_labels && a->repeat <= 1 && !a->save)
		return iop_errf(err, -EINVAL, "run: --label %s tags a result iopath keeps: give --repeat N (N >= 2) or --save with it",
				a->labels[0]);
	if (a->out.path && (ret = atomic_check(a->out.path, err)))
		return ret;
	return a->save ? save_check(db_spec(a->db, a->results_dir, db, sizeof(db)), err) : 0;
}

/*
 * --repeat / --save: the workload run N times through the repeat machinery, every repeat
 * kept as a sample; the table gives median, min-max, the 95% interval and noise warnings.
 */
static int run_repeated(const struct builtin_workload *w, const struct job_list *jobs,
			const struct run_args *a, int argc, char **argv)
{
	struct results res;
	struct iop_err err = { "" };
	char saved[PATH_MAX], label[256];
	json_t *id = NULL;
	bool lost = false;
	unsigned i;
	int code = EXIT_USAGE;

	if (results_init(&res, "run", w->name, argc, argv, &err)) {
		fprintf(stderr, "iopath: %s\n", err.msg);
		return EXIT_USAGE;
	}
	id = json_pack("{s:s, s:s}", "workload", w->name, "target", a->target);
	for (i = 0; id && i < a->nr_ov; i++)
		json_object_set_new(id, a->ov[i].key, json_string(a->ov[i].val ? a->ov[i].val : "1"));
	if (id && a->scale != 1) {
		snprintf(label, sizeof(label), "%g", a->scale);
		json_object_set_new(id, "scale", json_string(label));
	}
	for (i = 0; i < a->nr_labels; i++)
		if (results_add_label(&res, a->labels[i], &err))
			goto out;
	if (!id) {
		iop_errf(&err, -ENOMEM, "out of memory");
		goto out;
	}
	snprintf(label, sizeof(label), "%s", w->name);
	install_stop_signals();
	if (repeat_run(&res, jobs, id, label, a->repeat ? a->repeat : CMP_REPEAT_DEFAULT, NULL, NULL, &err))
		goto out;
	report_cells_table(stdout, &res, CV_WARN_DEFAULT);
	code = 0;
	for (i = 0; i < res.nr; i++) {
		if (res.cells[i].status == CELL_FAILED || res.cells[i].status == CELL_SKIPPED) {
			fprintf(stderr, "iopath: %s: %s\n", res.cells[i].label,
				res.cells[i].reason ? res.cells[i].reason : "failed");
			code = EXIT_JOB_FAILED;
		}
	}
	if (a->out.path && (a->out.formats & (OUT_JSON | OUT_JSONPLUS)) &&
	    results_write(&res, a->out.path, &err)) {
		fprintf(stderr, "iopath: %s\n", err.msg);
		err.msg[0] = '\0';
		results_keep(&res, "--output");
		lost = true;
	}
	if (a->save && save_to_db(&res, db_spec(a->db, a->results_dir, saved, sizeof(saved))))
		lost = true;
	if (a->html && html_write_results(&res, NULL, a->html, &err)) {
		fprintf(stderr, "iopath: %s\n", err.msg);
		err.msg[0] = '\0';
		results_keep(&res, "--html");
		lost = true;
	}
	if (lost) {
		code = EXIT_JOB_FAILED;
		goto out;
	}
	if (res.interrupted)
		code = EXIT_INTERRUPTED;
out:
	if (err.msg[0])
		fprintf(stderr, "iopath: %s\n", err.msg);
	json_decref(id);
	results_free(&res);
	return code;
}

/* --html of a single run: the page of its fio-shaped JSON. */
static int write_html(const struct run_results *res, const char *path, int argc, char **argv,
		      struct iop_err *err)
{
	struct run_env env;
	json_t *j;
	int ret;

	run_env_fill(&env, argc, argv);
	j = report_json(res, &env, false);
	if (!j)
		return iop_errf(err, -ENOMEM, "--html: out of memory");
	ret = html_write_json(j, "run", path, err);
	json_decref(j);
	return ret;
}

int cmd_run(int argc, char **argv)
{
	struct run_args a = { .target = ".", .scale = 1, .out = { .formats = OUT_NORMAL } };
	struct workload_setup ws = { 0 };
	const struct builtin_workload *w;
	struct job_list jobs = { 0 };
	struct run_results res = { 0 };
	struct iop_err err = { "" };
	char dir[PATH_MAX] = "";
	struct stat st;
	int ret, code = EXIT_USAGE;

	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		run_usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? EXIT_USAGE : 0;
	}
	w = workload_find(argv[1]);
	if (!w) {
		fprintf(stderr, "iopath run: no workload '%s' (see 'iopath workloads')\n", argv[1]);
		return EXIT_USAGE;
	}
	ret = parse_run_args(argc, argv, &a, &err);
	if (!ret && (stat(a.target, &st) || !S_ISDIR(st.st_mode)))
		ret = iop_errf(&err, -ENOTDIR, "run: --target %s: not a directory", a.target);
	if (!ret)
		ret = tempdir_create(a.target, "iopath-run", dir, sizeof(dir), &err);
	if (!ret) {
		ws.directory = dir;
		ws.scale = a.scale;
		ws.overrides = a.ov;
		ws.nr_overrides = a.nr_ov;
		ret = workload_load(w, &ws, &jobs, &err);
	}
	if (ret) {
		fprintf(stderr, "iopath: %s\n", err.msg);
		goto out;
	}
	if (a.repeat > 1 || a.save) {
		code = run_repeated(w, &jobs, &a, argc, argv);
		goto out;
	}
	install_stop_signals();
	ret = run_jobs(&jobs, &res, &err);
	if (ret) {
		fprintf(stderr, "iopath: %s\n", err.msg);
		goto out;
	}
	code = output_exit_code(&res);
	if (output_results(&res, &a.out, argc, argv, &err)) {
		fprintf(stderr, "iopath: %s\n", err.msg);
		code = code ? code : EXIT_JOB_FAILED;
	}
	if (a.html && write_html(&res, a.html, argc, argv, &err)) {
		fprintf(stderr, "iopath: %s\n", err.msg);
		code = code ? code : EXIT_JOB_FAILED;
	}
out:
	if (dir[0])
		tempfiles_remove(dir);
	run_results_free(&res);
	job_list_free(&jobs);
	return code;
}
