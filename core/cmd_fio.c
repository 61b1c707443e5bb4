/* iopath [options] [jobfile ...]: fio-style invocation of job files and --opt=value jobs. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "job.h"
#include "output.h"
#include "run.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: iopath [options] [jobfile ...]\n"
		"       iopath COMMAND ... (see 'iopath help')\n"
		"  --name=NAME          start a job; options before the first --name are global\n"
		"  --OPTION=VALUE       any job option, fio's names (rw, bs, iodepth, ioengine, ...)\n"
		"  --output-format=F    normal, json, json+ (comma-separated for several)\n"
		"  --output=FILE        write the result to FILE (atomically)\n"
		"  --parse-only         parse the jobs and stop\n"
		"  --allow-overwrite    let write jobs overwrite existing files iopath did not create\n"
		"  --allow-destructive=DEV  let write jobs write DEV even though it holds data\n");
}

struct fio_args {
	struct output_opts out;
	bool parse_only;
};

/* Options of the tool itself rather than of a job. Returns 1 when arg was one of them. */
static int tool_option(struct fio_args *a, const char *key, const char *val, struct iop_err *err)
{
	int ret;

	if (!strcmp(key, "output-format")) {
		if (!val)
			return iop_errf(err, -EINVAL, "--output-format needs a value (normal, json, json+)");
		ret = output_parse_formats(val, &a->out.formats, err);
		return ret ? ret : 1;
	}
	if (!strcmp(key, "output")) {
		if (!val || !*val)
			return iop_errf(err, -EINVAL, "--output needs a file name");
		a->out.path = val;
		return 1;
	}
	if (!strcmp(key, "parse-only")) {
		a->parse_only = true;
		return 1;
	}
	return 0;
}

static int parse_args(int argc, char **argv, struct fio_args *a, struct job_parser *p,
		      struct iop_err *err)
{
	int i, ret;

	for (i = 1; i < argc; i++) {
		char *arg = argv[i], key[128], *eq;
		const char *val = NULL;

		if (strncmp(arg, "--", 2)) {
			ret = job_parse_file(p, arg, err);
			if (ret)
				return ret;
			continue;
		}
		eq = strchr(arg + 2, '=');
		if ((eq ? (size_t)(eq - arg - 2) : strlen(arg + 2)) >= sizeof(key))
			return iop_errf(err, -EINVAL, "command line: option name too long: %.40s...", arg);
		snprintf(key, sizeof(key), "%.*s", eq ? (int)(eq - arg - 2) : (int)strlen(arg + 2),
			 arg + 2);
		if (eq)
			val = eq + 1;
		if (!key[0])
			return iop_errf(err, -EINVAL, "command line: '%s' is not an option", arg);
		ret = tool_option(a, key, val, err);
		if (!ret)
			ret = target_policy_option(&p->list->policy, key, val, err);
		if (ret < 0)
			return ret;
		if (ret)
			continue;
		ret = job_parse_cli(p, key, val, err);
		if (ret)
			return ret;
	}
	return 0;
}

int cmd_fio(int argc, char **argv)
{
	struct fio_args a = { .out = { .formats = OUT_NORMAL } };
	struct job_list jobs = { 0 };
	struct run_results res;
	struct job_parser p;
	struct iop_err err = { "" };
	int ret, code;

	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		usage(stdout);
		return 0;
	}
	job_parser_init(&p, &jobs);
	ret = parse_args(argc, argv, &a, &p, &err);
	if (!ret)
		ret = job_parser_finish(&p, &err);
	if (!ret && !jobs.nr)
		ret = iop_errf(&err, -EINVAL, "no jobs defined (give a job file or --name=NAME with options)");
	if (ret) {
		fprintf(stderr, "iopath: %s\n", err.msg);
		job_list_free(&jobs);
		return EXIT_USAGE;
	}
	if (a.parse_only) {
		job_list_free(&jobs);
		return 0;
	}
	install_stop_signals();
	ret = run_jobs(&jobs, &res, &err);
	if (ret) {
		fprintf(stderr, "iopath: %s\n", err.msg);
		run_results_free(&res);
		job_list_free(&jobs);
		return EXIT_USAGE;
	}
	code = output_exit_code(&res);
	if (output_results(&res, &a.out, argc, argv, &err)) {
		fprintf(stderr, "iopath: %s\n", err.msg);
		code = code ? code : EXIT_JOB_FAILED;
	}
	run_results_free(&res);
	job_list_free(&jobs);
	return code;
}
