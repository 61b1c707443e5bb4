/* iopath suite vm-paths: the disk-vs-shared-folder table (text, JSON, CSV). */
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
#include "fleet/fleet.h"
#include "job/job.h"
#include "report/output.h"
#include "report/report.h"
#include "run/run.h"
#include "results/explain.h"
#include "results/suite.h"
#include "cli/explain_print.h"
#include "job/workloads.h"
#include "base/version.h"


static void usage(FILE *f)
{
	fprintf(f,
		"usage: iopath suite vm-paths --target NAME=DIR [--target NAME=DIR ...] [options]\n"
		"  --target NAME=DIR   a path to measure (a virtual disk, a shared folder...); one or more\n"
		"  --reference NAME    the target the others are compared with (default: the first)\n"
		"  --repeat N          runs of every test (default 3): median and min-max are reported\n"
		"  --full              the experiments' sizes: 1000 MiB dd, 5 GiB copy, 10 s random I/O\n"
		"  --scale=F           sizes and times scaled by F (default 0.1: about a minute)\n"
		"  --explain           also run the few cells that tell what limits each target (an\n"
		"                      io_uring 1/4/16/64 ladder, buffered vs direct, 1 MiB reads,\n"
		"                      fsync; 1 s each) and say it per target (iopath help explain)\n"
		"  --output-format=F   normal, json, csv (comma-separated for several)\n"
		"  --output=FILE       write the JSON or CSV there\n"
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
		} else if (!strncmp(arg, "--output=", 9) && arg[9]) {
			a->output = arg + 9;
			ret = 0;
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

static void path_label(const struct suite_opts *o, const struct suite_cell *c, char *buf,
		       size_t len)
{
	if (c->from == c->to)
		snprintf(buf, len, "%s", o->targets[c->to].name);
	else
		snprintf(buf, len, "%s -> %s", o->targets[c->from].name, o->targets[c->to].name);
}

static void fmt_value(char *buf, size_t len, double v)
{
	if (v >= 100)
		snprintf(buf, len, "%.0f", v);
	else if (v >= 10)
		snprintf(buf, len, "%.1f", v);
	else
		snprintf(buf, len, "%.2f", v);
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

static void print_table(FILE *f, const struct suite_opts *o, const struct suite_result *res)
{
	const char *ref = o->targets[o->reference].name;
	char path[80], med[32], lo[32], hi[32], range[80], ratio[32], line[512];
	unsigned i, t;
	bool any_wide = false, any_note = false;

	fprintf(f, "iopath suite vm-paths: %u target%s, %u repeat%s, scale %g%s\n", o->nr_targets,
		o->nr_targets == 1 ? "" : "s", o->repeat, o->repeat == 1 ? "" : "s", o->scale,
		o->scale < 1 ? " (--full for the experiments' sizes)" : "");
	for (t = 0; t < o->nr_targets; t++) {
		const struct probed_dir *d = NULL;
		unsigned k;

		for (k = 0; k < res->probes.nr; k++)
			if (!strcmp(res->probes.dirs[k]->dir, o->targets[t].tmp))
				d = res->probes.dirs[k];
		line[0] = '\0';
		if (d && !d->error)
			probe_summary(&d->p, &res->probes.host, line, sizeof(line));
		fprintf(f, "  %-10s %s: %s\n", o->targets[t].name, o->targets[t].dir, line);
	}
	if (fleet_size() > 1)
		fprintf(f, "  MPI: %u ranks on %u host%s; every value is all ranks together (summed, from the\n"
			"  first rank's start to the last one's end); the paths above are rank 0's\n",
			fleet_size(), nr_hosts(), nr_hosts() == 1 ? "" : "s");
	snprintf(ratio, sizeof(ratio), "x %s", ref);
	fprintf(f, "\n%-20s %-18s %-6s %10s %21s  %8s\n", "test", "path", "metric", "median",
		"min - max", ratio);
	for (i = 0; i < res->nr_cells; i++) {
		const struct suite_cell *c = &res->cells[i];

		path_label(o, c, path, sizeof(path));
		if (c->failed) {
			fprintf(f, "%-20s %-18s %-6s %10s  failed: %s\n", c->test, path, c->metric, "-",
				c->note);
			any_note = true;
			continue;
		}
		fmt_value(med, sizeof(med), c->sum.median);
		fmt_value(lo, sizeof(lo), c->sum.min);
		fmt_value(hi, sizeof(hi), c->sum.max);
		snprintf(range, sizeof(range), "%s - %s", lo, hi);
		if (c->ratio > 0)
			snprintf(ratio, sizeof(ratio), "%.2f", c->ratio);
		else
			snprintf(ratio, sizeof(ratio), "-");
		fprintf(f, "%-20s %-18s %-6s %10s %21s  %8s%s%s\n", c->test, path, c->metric, med,
			range, ratio, c->wide ? " !" : "", c->fell_back ? " (direct=0)" : "");
		any_wide |= c->wide;
		any_note |= c->fell_back;
	}
	fprintf(f, "\nx %s: how many times longer the same work took than on %s (2.00 = half the speed).\n",
		ref, ref);
	if (any_wide)
		fprintf(f, "!: the repeats spread over more than half the median; too wide to judge.\n");
	for (i = 0; any_note && i < res->nr_cells; i++) {
		const struct suite_cell *c = &res->cells[i];

		if (c->fell_back && !c->failed) {
			path_label(o, c, path, sizeof(path));
			fprintf(f, "(direct=0) %s on %s: %s\n", c->test, path, c->note);
		}
	}
	if (res->interrupted)
		fprintf(f, "(interrupted: the table is partial)\n");
}

static int write_csv(FILE *f, const struct suite_opts *o, const struct suite_result *res)
{
	char path[80];
	unsigned i, k;

	fprintf(f, "test,from,to,metric,n,median,min,max,ratio_to_reference,reference,values,note\n");
	for (i = 0; i < res->nr_cells; i++) {
		const struct suite_cell *c = &res->cells[i];

		path_label(o, c, path, sizeof(path));
		fprintf(f, "%s,%s,%s,%s,%u,", c->test, o->targets[c->from].name,
			o->targets[c->to].name, c->metric, c->n);
		if (c->n)
			fprintf(f, "%.6g,%.6g,%.6g,", c->sum.median, c->sum.min, c->sum.max);
		else
			fprintf(f, ",,,");
		if (c->ratio > 0)
			fprintf(f, "%.4f", c->ratio);
		fprintf(f, ",%s,", o->targets[o->reference].name);
		for (k = 0; k < c->n; k++)
			fprintf(f, "%s%.6g", k ? ";" : "", c->values[k]);
		fprintf(f, ",\"");
		for (k = 0; c->note[k]; k++)
			fputs(c->note[k] == '"' ? "\"\"" : (char[2]){ c->note[k], 0 }, f);
		fprintf(f, "\"\n");
	}
	return ferror(f) ? -EIO : 0;
}

static json_t *cell_json(const struct suite_opts *o, const struct suite_cell *c)
{
	json_t *e = json_object(), *vals = json_array();
	unsigned k;

	json_object_set_new(e, "test", json_string(c->test));
	json_object_set_new(e, "workload", json_string(c->workload));
	json_object_set_new(e, "from", json_string(o->targets[c->from].name));
	json_object_set_new(e, "to", json_string(o->targets[c->to].name));
	json_object_set_new(e, "metric", json_string(c->metric));
	for (k = 0; k < c->n; k++)
		json_array_append_new(vals, json_real(c->values[k]));
	json_object_set_new(e, "values", vals);
	json_object_set_new(e, "n", json_integer(c->n));
	json_object_set_new(e, "median", c->n ? json_real(c->sum.median) : json_null());
	json_object_set_new(e, "min", c->n ? json_real(c->sum.min) : json_null());
	json_object_set_new(e, "max", c->n ? json_real(c->sum.max) : json_null());
	json_object_set_new(e, "ci95", c->n > 1 ? json_pack("[f,f]", c->sum.ci_lo, c->sum.ci_hi)
						: json_null());
	json_object_set_new(e, "ratio_to_reference", c->ratio > 0 ? json_real(c->ratio) : json_null());
	json_object_set_new(e, "spread_too_wide", json_boolean(c->wide));
	json_object_set_new(e, "direct_fallback", json_boolean(c->fell_back));
	if (c->note[0])
		json_object_set_new(e, c->failed ? "error" : "note", json_string(c->note));
	return e;
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

/*
 * The suite's JSON. own: a rank's own file under MPI (--mpi-rank-output): its unmerged jobs,
 * its paths and probes, no table (the table is rank 0's, of every rank together).
 */
static json_t *suite_json(const struct suite_opts *o, struct suite_result *res, int argc,
			  char **argv, bool own, const json_t *explain)
{
	json_t *root = json_object(), *meta = json_object(), *suite = json_object();
	json_t *targets = json_array(), *rows = json_array(), *probes;
	struct run_results empty = { 0 };
	struct run_env env;
	unsigned i;
	size_t len = 0;
	char *cmd;
	int k;

	if (!root || !meta || !suite || !targets || !rows)
		return NULL;
	run_env_fill(&env, argc, argv);
	json_object_set_new(root, "fio version", json_string(iopath_fio_version()));
	(void)empty;
	json_object_set_new(meta, "version", json_string(iopath_version));
	json_object_set_new(meta, "kernel", json_string(env.kernel));
	json_object_set_new(meta, "hostname", json_string(env.hostname));
	json_object_set_new(meta, "interrupted", json_boolean(res->interrupted));
	for (k = 0; k < argc; k++)
		len += strlen(argv[k]) + 1;
	cmd = calloc(1, len + 1);
	for (k = 0; cmd && k < argc; k++) {
		strcat(cmd, argv[k]);
		if (k + 1 < argc)
			strcat(cmd, " ");
	}
	json_object_set_new(meta, "command_line", json_string(cmd ? cmd : ""));
	free(cmd);
	probes = probe_set_json(&res->probes);
	if (probes) {
		json_object_set(meta, "host", json_object_get(probes, "host"));
		json_object_set(meta, "targets", json_object_get(probes, "targets"));
		json_decref(probes);
	}
	for (i = 0; i < o->nr_targets; i++)
		json_array_append_new(targets, json_pack("{s:s,s:s,s:s}", "name", o->targets[i].name,
							 "dir", o->targets[i].dir, "files",
							 o->targets[i].tmp));
	for (i = 0; !own && i < res->nr_cells; i++)
		json_array_append_new(rows, cell_json(o, &res->cells[i]));
	json_object_set_new(suite, "name", json_string("vm-paths"));
	json_object_set_new(suite, "reference", json_string(o->targets[o->reference].name));
	json_object_set_new(suite, "repeat", json_integer(o->repeat));
	json_object_set_new(suite, "scale", json_real(o->scale));
	json_object_set_new(suite, "ratio", json_string("reference median / this median: how many times longer the same work took"));
	json_object_set_new(suite, "targets", targets);
	if (own)
		json_decref(rows);
	else
		json_object_set_new(suite, "rows", rows);
	json_object_set_new(meta, "suite", suite);
	if (explain && !own)
		json_object_set(meta, "explain", (json_t *)explain);
	if (fleet_size() > 1)
		json_object_set_new(meta, "mpi", mpi_json(own));
	json_object_set_new(root, "iopath", meta);
	json_object_set(root, "jobs", own ? res->own_jobs : res->jobs);
	return root;
}

static int write_outputs(const struct suite_args *a, struct suite_result *res, int argc,
			 char **argv, const json_t *explain, struct iop_err *err)
{
	FILE *text = stdout;
	int ret = 0;

	if ((a->formats & OUT_NORMAL) && !a->output && (a->formats & ~OUT_NORMAL))
		text = stderr;
	if (a->formats & OUT_NORMAL)
		print_table(text, &a->o, res);
	if ((a->formats & OUT_NORMAL) && explain) {
		fputc('\n', text);
		explain_print(text, explain);
	}
	fflush(text);
	if (a->formats & OUT_JSON) {
		json_t *root = suite_json(&a->o, res, argc, argv, false, explain);

		if (!root)
			return iop_errf(err, -ENOMEM, "out of memory building the JSON");
		ret = report_json_write(root, a->output);
		json_decref(root);
		if (ret)
			return iop_errf(err, ret, "cannot write the JSON to %s: %s",
					a->output ? a->output : "stdout", strerror(-ret));
	}
	if (a->formats & OUT_CSV) {
		bool to_file = a->output && !(a->formats & OUT_JSON);
		struct atomic_file af;

		if (to_file) {
			ret = atomic_open(&af, a->output);
			if (ret)
				return iop_errf(err, ret, "cannot write %s: %s", a->output, strerror(-ret));
		}
		ret = write_csv(to_file ? af.f : stdout, &a->o, res);
		if (to_file)
			ret = ret ? (atomic_abort(&af), ret) : atomic_commit(&af);
		if (ret)
			return iop_errf(err, ret, "cannot write the CSV: %s", strerror(-ret));
	}
	if (a->html) {
		json_t *root = suite_json(&a->o, res, argc, argv, false, explain);

		if (!root)
			return iop_errf(err, -ENOMEM, "out of memory building the JSON");
		ret = html_write_json(root, "suite vm-paths", a->html, err);
		json_decref(root);
		return ret;
	}
	return 0;
}

/* Under MPI: this rank's own jobs as DIR/rank-N.json (--mpi-rank-output=DIR). */
static int write_rank_file(const struct suite_args *a, struct suite_result *res, int argc,
			   char **argv, struct iop_err *err)
{
	char path[PATH_MAX];
	json_t *root;
	int ret;

	if (snprintf(path, sizeof(path), "%s/rank-%u.json", fleet_rank_output(), fleet_rank()) >=
	    (int)sizeof(path))
		return iop_errf(err, -ENAMETOOLONG, "--mpi-rank-output: directory name too long");
	root = suite_json(&a->o, res, argc, argv, true, NULL);
	if (!root)
		return iop_errf(err, -ENOMEM, "out of memory building rank %u's result", fleet_rank());
	ret = report_json_write(root, path);
	json_decref(root);
	return ret ? iop_errf(err, ret, "cannot write %s: %s", path, strerror(-ret)) : 0;
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
	(void)arg;
	fprintf(stderr, "suite: explain cell %u/%u: %s\n", i + 1, n, label);
	return true;
}

/*
 * --explain: the extra cells on every target, explained; their jobs join the suite's, so
 * that iopath explain can read the suite's JSON again.
 */
static int run_explain(const struct suite_args *a, struct suite_result *res, int argc,
		       char **argv, json_t **out, struct iop_err *err)
{
	struct explain_target t[SUITE_TARGETS_MAX];
	struct results r;
	unsigned i, k;
	int ret;

	ret = results_init(&r, "suite", "vm-paths", argc, argv, err);
	if (ret)
		return ret;
	for (i = 0; i < a->o.nr_targets; i++)
		t[i] = (struct explain_target){ a->o.targets[i].name, a->o.targets[i].dir, NULL };
	ret = explain_run(&r, t, a->o.nr_targets, &res->probes, NULL, explain_progress, NULL, err);
	if (r.interrupted)
		res->interrupted = true;
	for (i = 0; i < r.nr; i++)
		for (k = 0; k < r.cells[i].nr; k++) {
			json_t *job = json_deep_copy(json_array_get(r.cells[i].samples, k));

			if (job)
				json_object_set_new(job, "jobname", json_string(r.cells[i].label));
			json_array_append_new(res->jobs, job);
		}
	if (!ret) {
		*out = explain_results(&r, err);
		ret = *out ? 0 : -ENOMEM;
	}
	results_free(&r);
	return ret;
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
	ret = suite_vm_paths(&a.o, &res, &err);
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
	if (a.explain && !res.interrupted && run_explain(&a, &res, argc, argv, &explain, &err)) {
		fprintf(stderr, "iopath: --explain: %s\n", err.msg);
		code = code ? code : EXIT_JOB_FAILED;
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
