/* iopath workloads / iopath run NAME: the built-in workload library. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "commands.h"
#include "job.h"
#include "output.h"
#include "run.h"
#include "tempfiles.h"
#include "workloads.h"

#define OVERRIDES_MAX 64

int cmd_workloads(int argc, char **argv)
{
	const struct builtin_workload *w;

	if (argc > 2) {
		fprintf(stderr, "iopath workloads: usage: iopath workloads [NAME]\n");
		return EXIT_USAGE;
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
	fprintf(f,
		"usage: iopath run WORKLOAD [--target DIR] [--scale[=F]] [OPTION=VALUE ...]\n"
		"  --target DIR        where the workload's files go (default: here); a temporary\n"
		"                      directory inside it is removed afterwards\n"
		"  --scale[=F]         shrink sizes, runtimes and file counts by F (default 1/64)\n"
		"  OPTION=VALUE, --OPTION=VALUE   any job option, applied on top (size=64m, ioengine=libaio)\n"
		"  --output-format=F   normal, json, json+;  --output=FILE\n"
		"workloads: iopath workloads\n");
}

struct run_args {
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
		} else {
			ret = add_override(a, arg, err);
			if (ret)
				return ret;
		}
	}
	return 0;
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
out:
	if (dir[0])
		tempfiles_remove(dir);
	run_results_free(&res);
	job_list_free(&jobs);
	return code;
}
