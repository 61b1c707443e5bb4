/*
 * iopath suite vm-paths: the disk-vs-shared-folder table; the arguments here, the runs in
 * core/results/suite.c, the table, JSON and CSV in core/report/report_suite.c.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/atomic.h"
#include "cli/commands.h"
#include "cli/cmdargs.h"
#include "cli/htmlout.h"
#include "cli/progress.h"
#include "fleet/fleet.h"
#include "job/job.h"
#include "report/output.h"
#include "report/report.h"
#include "report/report_suite.h"
#include "results/suite.h"
#include "cli/explain_print.h"
#include "job/workloads.h"


static void usage(FILE *f)
{
	command_usage(f, "suite");
	fprintf(f,
		"  --target NAME=DIR   a path to measure (a virtual disk, a shared folder...); one or more\n"
		"  --reference NAME    the target the others are compared with (default: the first)\n"
		"  --repeat N          runs of every test (default 3): median and min-max are reported\n"
		"  --full              the experiments' sizes: 1000 MiB dd, 5 GiB copy, 10 s random I/O\n"
		"  --scale=F           sizes and times scaled by F (default 0.1: about a minute)\n"
		"  --explain           also run the few cells that tell what limits each target (an\n"
		"                      io_uring 1/4/16/64 ladder, buffered vs direct, 1 MiB reads,\n"
		"                      fsync; 1 s each) and say it per target (iopath help explain)\n"
		"  --output-format=F   normal, json, csv (comma-separated for several)\n"
		"  --output FILE       the JSON, else the CSV, else the table, into FILE\n"
		"  --html FILE         one self-contained HTML page: probes, table, heat map\n");
}

struct suite_args {
	struct suite_opts o;
	const char *reference;
	unsigned formats;
	const char *output, *html;
	bool explain;
};

static int add_target(struct suite_args *a, const char *spec, struct iop_err *err)
{
	struct suite_target *t;
	const char *eq = strchr(spec, '='), *dir = eq ? eq + 1 : spec;
	char expanded[PATH_MAX];
	struct stat st;
	unsigned i;

	/* ${RANK} and ${HOST} (under MPI: this rank's) and any ${VAR}, as in job options */
	job_substitute(dir, expanded, sizeof(expanded));
	dir = expanded;
	if (a->o.nr_targets == SUITE_TARGETS_MAX)
		return iop_errf(err, -E2BIG, "suite: at most %d targets", SUITE_TARGETS_MAX);
	t = &a->o.targets[a->o.nr_targets];
	if (eq && (eq == spec || (size_t)(eq - spec) >= sizeof(t->name)))
		return iop_errf(err, -EINVAL, "--target %s: NAME=DIR with a name of 1 to %zu characters",
				spec, sizeof(t->name) - 1);
	if (!*dir || stat(dir, &st) || !S_ISDIR(st.st_mode))
		return iop_errf(err, -ENOTDIR, "--target %s: %s is not a directory", spec, dir);
	if (eq)
		snprintf(t->name, sizeof(t->name), "%.*s", (int)(eq - spec), spec);
	else
		snprintf(t->name, sizeof(t->name), "t%u", a->o.nr_targets + 1);
	snprintf(t->dir, sizeof(t->dir), "%s", dir);
	for (i = 0; i < a->o.nr_targets; i++)
		if (!strcmp(a->o.targets[i].name, t->name))
			return iop_errf(err, -EINVAL, "--target %s: the name %s is given twice", spec,
					t->name);
	a->o.nr_targets++;
	return 0;
}

static const char *value_of(int argc, char **argv, int *i, const char *opt)
{
	size_t n = strlen(opt);
	const char *arg = argv[*i];

	if (!strncmp(arg, opt, n) && arg[n] == '=')
		return arg + n + 1;
	if (!strcmp(arg, opt) && *i + 1 < argc)
		return argv[++*i];
	return NULL;
}

static int parse_args(int argc, char **argv, struct suite_args *a, struct iop_err *err)
{
	const char *v;
	char *end;
	int i, ret;

	for (i = 2; i < argc; i++) {
		const char *arg = argv[i];

		if ((v = value_of(argc, argv, &i, "--target"))) {
			ret = add_target(a, v, err);
		} else if ((v = value_of(argc, argv, &i, "--reference"))) {
			a->reference = v;
			ret = 0;
		} else if ((v = value_of(argc, argv, &i, "--repeat"))) {
			unsigned long n = strtoul(v, &end, 10);

			ret = 0;
			if (*end || !*v || n < 1 || n > SUITE_REPEAT_MAX)
				ret = iop_errf(err, -EINVAL, "--repeat %s: accepted: 1 to %d", v,
					       SUITE_REPEAT_MAX);
			a->o.repeat = (unsigned)n;
		} else if (!strcmp(arg, "--explain")) {
			a->explain = true;
			ret = 0;
		} else if (!strcmp(arg, "--full")) {
			a->o.scale = 1;
			ret = 0;
		} else if (!strncmp(arg, "--scale=", 8)) {
			ret = workload_parse_scale(arg + 8, &a->o.scale) ?
				iop_errf(err, -EINVAL, "--scale=%s: accepted: 0 < F <= 1 (0.1, 1/64, 5%%)",
					 arg + 8) : 0;
		} else if (!strncmp(arg, "--output-format=", 16)) {
			ret = output_parse_formats_among(arg + 16, OUT_NORMAL | OUT_JSON | OUT_CSV,
							 &a->formats, err);
		} else if ((v = value_of(argc, argv, &i, "--output"))) {
			a->output = v;
			ret = *v ? 0 : iop_errf(err, -EINVAL, "--output: empty (a file name)");
		} else if ((v = value_of(argc, argv, &i, "--html"))) {
			a->html = v;
			ret = html_check_path("--html", v, err);
		} else {
			ret = iop_errf(err, -EINVAL,
				       "suite: unknown argument '%s' (accepted: --target, --reference, --repeat, --full, --scale, --explain, --output-format, --output, --html)",
				       arg);
		}
		if (ret)
			return ret;
	}
	if (!a->o.nr_targets)
		return iop_errf(err, -EINVAL, "suite vm-paths: give at least one --target NAME=DIR");
	if (a->explain && fleet_size() > 1)
		return iop_errf(err, -EINVAL, "suite vm-paths --explain: not under MPI (explain each host's own results with iopath explain)");
	for (i = 0; a->reference && i < (int)a->o.nr_targets; i++)
		if (!strcmp(a->o.targets[i].name, a->reference))
			break;
	if (a->reference && i == (int)a->o.nr_targets)
		return iop_errf(err, -EINVAL, "--reference %s: no target of that name", a->reference);
	a->o.reference = a->reference ? (unsigned)i : 0;
	return a->output ? atomic_check(a->output, err) : 0;
}

/* How many hosts the MPI ranks run on. */
static unsigned nr_hosts(void)
{
	unsigned r, k, n = 0;

	for (r = 0; r < fleet_size(); r++) {
		for (k = 0; k < r; k++)
			if (!strcmp(fleet_rank_hostname(k), fleet_rank_hostname(r)))
				break;
		n += k == r;
	}
	return n;
}

/* Under MPI: how many ranks, on which hosts, and (in a rank's own file) which one this is. */
static json_t *mpi_json(bool own)
{
	json_t *m = json_object(), *hosts = json_array();
	unsigned r;

	for (r = 0; r < fleet_size(); r++)
		json_array_append_new(hosts, json_string(fleet_rank_hostname(r)));
	json_object_set_new(m, "ranks", json_integer(fleet_size()));
	json_object_set_new(m, "hosts", hosts);
	if (own) {
		json_object_set_new(m, "rank", json_integer(fleet_rank()));
		json_object_set_new(m, "hostname", json_string(fleet_hostname()));
		json_object_set_new(m, "merged", json_false());
	} else {
		json_object_set_new(m, "merged", json_true());
	}
	return m;
}

static int write_outputs(const struct suite_args *a, struct suite_result *res, int argc,
			 char **argv, const json_t *explain, struct iop_err *err)
{
	const struct suite_fleet fl = { fleet_size(), nr_hosts() };
	json_t *mpi = fleet_size() > 1 ? mpi_json(false) : NULL;
	/* the table alone goes to --output when it is the only format asked for */
	bool table_file = a->output && a->formats == OUT_NORMAL;
	struct atomic_file tf;
	FILE *text = stdout;
	int ret = 0;

	if ((a->formats & OUT_NORMAL) && !a->output && (a->formats & ~OUT_NORMAL))
		text = stderr;
	if (table_file) {
		ret = atomic_open(&tf, a->output);
		if (ret) {
			ret = iop_errf(err, ret, "--output %s: %s", a->output, strerror(-ret));
			goto out;
		}
		text = tf.f;
	}
	if (a->formats & OUT_NORMAL)
		report_suite_table(text, &a->o, res, &fl);
	if ((a->formats & OUT_NORMAL) && explain) {
		fputc('\n', text);
		explain_print(text, explain);
	}
	fflush(text);
	if (table_file && (ret = atomic_commit(&tf))) {
		ret = iop_errf(err, ret, "--output %s: %s", a->output, strerror(-ret));
		goto out;
	}
	if (a->formats & OUT_JSON) {
		json_t *root = report_suite_json(&a->o, res, argc, argv, false, explain, mpi);

		if (!root) {
			ret = iop_errf(err, -ENOMEM, "out of memory building the JSON");
			goto out;
		}
		ret = report_json_write(root, a->output);
		json_decref(root);
		if (ret) {
			ret = iop_errf(err, ret, "cannot write the JSON to %s: %s",
				       a->output ? a->output : "stdout", strerror(-ret));
			goto out;
		}
	}
	if (a->formats & OUT_CSV) {
		bool to_file = a->output && !(a->formats & OUT_JSON);
		struct atomic_file af;

		if (to_file) {
			ret = atomic_open(&af, a->output);
			if (ret) {
				ret = iop_errf(err, ret, "cannot write %s: %s", a->output, strerror(-ret));
				goto out;
			}
		}
		ret = report_suite_csv(to_file ? af.f : stdout, &a->o, res);
		if (to_file)
			ret = ret ? (atomic_abort(&af), ret) : atomic_commit(&af);
		if (ret) {
			ret = iop_errf(err, ret, "cannot write the CSV: %s", strerror(-ret));
			goto out;
		}
	}
	if (a->html) {
		json_t *root = report_suite_json(&a->o, res, argc, argv, false, explain, mpi);

		ret = root ? html_write_json(root, "suite vm-paths", a->html, err) :
			     iop_errf(err, -ENOMEM, "out of memory building the JSON");
		json_decref(root);
	}
out:
	if (ret) {
		/* whatever failed, the whole result is kept */
		json_t *root = report_suite_json(&a->o, res, argc, argv, false, explain, mpi);

		if (root)
			json_keep(root, "writing the suite's outputs", true);
		json_decref(root);
	}
	json_decref(mpi);
	return ret;
}

/* Under MPI: this rank's own jobs as DIR/rank-N.json (--mpi-rank-output=DIR). */
static int write_rank_file(const struct suite_args *a, struct suite_result *res, int argc,
			   char **argv, struct iop_err *err)
{
	char path[PATH_MAX];
	json_t *root, *mpi;
	int ret;

	if (snprintf(path, sizeof(path), "%s/rank-%u.json", fleet_rank_output(), fleet_rank()) >=
	    (int)sizeof(path))
		return iop_errf(err, -ENAMETOOLONG, "--mpi-rank-output: directory name too long");
	mpi = fleet_size() > 1 ? mpi_json(true) : NULL;
	root = report_suite_json(&a->o, res, argc, argv, true, NULL, mpi);
	json_decref(mpi);
	if (!root)
		return iop_errf(err, -ENOMEM, "out of memory building rank %u's result", fleet_rank());
	ret = report_json_write(root, path);
	if (ret) {
		/* the rank's own jobs are what rank 0 merged: kept beside the usual fallback */
		char alt[PATH_MAX], ext[32];
		int ret2;

		snprintf(ext, sizeof(ext), "rank%u.json", fleet_rank());
		output_fallback_path(alt, sizeof(alt), ext);
		ret2 = report_json_write(root, alt);
		if (!ret2)
			iop_errf(err, ret, "--mpi-rank-output: cannot write %s: %s; this rank's own result is kept in %s",
				 path, strerror(-ret), alt);
		else
			iop_errf(err, ret, "--mpi-rank-output: cannot write %s: %s (nor %s: %s)", path,
				 strerror(-ret), alt, strerror(-ret2));
	}
	json_decref(root);
	return ret;
}

/* What every rank must share for their runs to line up: the targets' names and the sizes. */
static uint64_t plan_key(const struct suite_args *a)
{
	uint64_t h = 0xcbf29ce484222325ull;	/* FNV-1a */
	char buf[160];
	unsigned t;
	size_t i;

	for (t = 0; t <= a->o.nr_targets; t++) {
		if (t < a->o.nr_targets)
			snprintf(buf, sizeof(buf), "%s/", a->o.targets[t].name);
		else
			snprintf(buf, sizeof(buf), "%u %u %.17g %u", a->o.nr_targets, a->o.repeat,
				 a->o.scale, a->o.reference);
		for (i = 0; buf[i]; i++)
			h = (h ^ (unsigned char)buf[i]) * 0x100000001b3ull;
	}
	return h;
}

/* Rank 0 (or the only process) says why the suite could not start. */
static void say_why(const struct fleet_vote *v)
{
	if (fleet_rank())
		return;
	if (v->count > 1)
		fprintf(stderr, "iopath: %s (and %u more ranks)\n", v->why, v->count - 1);
	else
		fprintf(stderr, "iopath: %s\n", v->why);
}

static bool explain_progress(void *arg, const char *label, unsigned i, unsigned n)
{
	if (!i)
		progress_begin(arg, "suite", "explain cell", n, 0);
	progress_item(arg, label, 0, 1);
	return true;
}

/* The suite's runs, as the sweep shows its cells: a line each (a bar on a terminal), an ETA. */
static void hook_begin(void *arg, unsigned runs)
{
	if (!fleet_rank())
		progress_begin(arg, "suite", "run", runs, 0);
}

static void hook_start(void *arg, const char *label, unsigned rep, unsigned repeats)
{
	if (!fleet_rank())
		progress_item(arg, label, rep, repeats);
}

static void hook_end(void *arg)
{
	if (!fleet_rank())
		progress_item_end(arg);
}

int cmd_suite(int argc, char **argv)
{
	struct suite_args a = { .o = { .repeat = 3, .scale = SUITE_DEFAULT_SCALE },
				.formats = OUT_NORMAL };
	struct suite_result res = { 0 };
	struct iop_err err = { "" };
	struct fleet_vote v;
	json_t *explain = NULL;
	unsigned i;
	int ret, code = 0;

	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? EXIT_USAGE : 0;
	}
	if (strcmp(argv[1], "vm-paths"))
		ret = iop_errf(&err, -EINVAL, "suite: unknown suite '%s' (accepted: vm-paths)",
			       argv[1]);
	else
		ret = parse_args(argc, argv, &a, &err);
	/* under MPI every rank runs the same suite, or none: rank 0 says which rank cannot */
	if (!fleet_vote(ret ? 1 : 0, err.msg, ret ? 0 : plan_key(&a), &v) && v.key_differs &&
	    !v.choice) {
		v.choice = 1;
		snprintf(v.why, sizeof(v.why),
			 "suite: rank %u (%.64s) was given other targets, --repeat, --scale or --reference than rank 0; every rank needs the same (its directories may differ: ${RANK}, ${HOST})",
			 v.key_rank, fleet_rank_hostname(v.key_rank));
	}
	if (ret || v.choice) {
		say_why(&v);
		return EXIT_USAGE;
	}
	install_stop_signals();
	{
		struct progress prog = { .begun = false };
		const struct suite_hooks h = { .begin = hook_begin, .start = hook_start,
					       .end = hook_end, .arg = &prog };

		ret = suite_vm_paths(&a.o, &res, &h, &err);
		progress_finish(&prog);
	}
	if (ret) {
		if (!fleet_rank())
			fprintf(stderr, "iopath: %s\n", err.msg);
		suite_result_free(&res);
		return EXIT_USAGE;
	}
	for (i = 0; i < res.nr_cells; i++)
		if (res.cells[i].failed && !res.interrupted)
			code = EXIT_JOB_FAILED;
	if (res.own_jobs && write_rank_file(&a, &res, argc, argv, &err)) {
		fprintf(stderr, "iopath: rank %u: %s\n", fleet_rank(), err.msg);
		code = code ? code : EXIT_JOB_FAILED;
	}
	/* under MPI only rank 0 writes: its rows are every rank's merged */
	if (a.explain && !res.interrupted) {
		struct progress prog = { .begun = false };

		ret = suite_explain(&a.o, &res, argc, argv, explain_progress, &prog, &explain, &err);
		progress_finish(&prog);
		if (ret) {
			fprintf(stderr, "iopath: --explain: %s\n", err.msg);
			code = code ? code : EXIT_JOB_FAILED;
		}
	}
	if (!fleet_rank() && write_outputs(&a, &res, argc, argv, explain, &err)) {
		fprintf(stderr, "iopath: %s\n", err.msg);
		code = code ? code : EXIT_JOB_FAILED;
	}
	if (res.interrupted)
		code = EXIT_INTERRUPTED;
	/* every rank leaves with the same code: the strongest (interrupted, usage, failed) */
	if (!fleet_vote(code, NULL, 0, &v))
		code = v.choice;
	json_decref(explain);
	suite_result_free(&res);
	return code;
}
