/*
 * iopath sweep: the Cartesian product of engines, options and targets. Each cell is built as
 * job specs through the parser and option table and run through run_jobs; the cells land in
 * a results set that the table, CSV, JSON, charts and the results store are made from.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cmdargs.h"
#include "base/clock.h"
#include "cli/commands.h"
#include "fleet/fleet.h"
#include "job/target.h"
#include "base/atomic.h"
#include "base/tempfiles.h"
#include "iopath/probe.h"
#include "job/job.h"
#include "job/options.h"
#include "cli/explain_print.h"
#include "results/explain.h"
#include "results/plot.h"
#include "cli/htmlout.h"
#include "cli/progress.h"
#include "results/compare.h"
#include "results/report_cells.h"
#include "results/results.h"
#include "results/sweep_cells.h"
#include "run/run.h"
#include "job/workloads.h"

static void usage(FILE *f)
{
	command_usage(f, "sweep");
	fprintf(f,
		"Runs every combination of the comma lists below and reports each cell.\n"
		"  --engine LIST         engines (default: every engine but aliases)\n"
		"  --direct LIST         0,1 (default 1)\n"
		"  --bs LIST             block sizes (default 4k)\n"
		"  --iodepth LIST        queue depths (default 1)\n"
		"  --numjobs LIST        workers per cell (default 1)\n"
		"  --rw LIST             read, write, randread, randwrite, rw, randrw (default randread)\n"
		"  --workload LIST       built-in workloads instead of --rw (iopath workloads)\n"
		"  --target [NAME=]DIR   where to run; NAME is the target's role (several allowed;\n"
		"                        default: the current directory)\n"
		"  --size SIZE           file size per target (default 256m)\n"
		"  --runtime TIME        per cell, time based (default 5s; 0 = one pass over size)\n"
		"  --ramp TIME           ramp time per cell, not measured (default 0)\n"
		"  --set KEY=VALUE       any other job option for every cell (several allowed)\n"
		"  --repeat N            run every cell N times, interleaved (default 1; with --save 3,\n"
		"                        the fewest compare can judge well, then more: --repeat-max)\n"
		"  --repeat-max N        after --repeat's rounds, run again every cell whose IOPS are\n"
		"                        not yet known within 4%% (standard error), up to N repeats\n"
		"                        (default with --save and no --repeat: 20; else none)\n"
		"  --cv-warn P           call a cell unreliable above this variation (default 10%%)\n"
		"  --csv FILE            every cell as CSV\n"
		"  --json FILE           every cell's full results, the probes and the environment\n"
		"  --plot DIR            PNG and SVG charts (gnuplot)\n"
		"  --html FILE           one self-contained HTML page: probes, tables, charts\n"
		"  --save[=NAME]         also save the run, named NAME (default sweep), into the\n"
		"                        results database\n"
		"  --db PATH|URI         the database: an SQLite file or postgresql://... (default:\n"
		"                        $IOPATH_DB, else results/iopath.db)\n"
		"  --results-dir DIR     the database DIR/iopath.db\n"
		"  --label KEY=VALUE     a tag saved with the results, e.g. qemu=8.2.1 (several)\n"
		"  --explain             also run the few cells that tell what limits each target (a\n"
		"                        1/4/16/64 io_uring ladder, buffered vs direct, 1 MiB reads,\n"
		"                        fsync; 1 s each, or --runtime if shorter) and print what\n"
		"                        limits each target (iopath help explain); under mpirun\n"
		"                        each rank's own path, one target per rank (iopath help mpi)\n"
		"  --compare KEY=BASE,CUR  judge the cells of one value of a swept KEY (target,\n"
		"                        engine, bs, iodepth, numjobs, rw, direct, workload)\n"
		"                        against the same cells of the other, as iopath compare\n"
		"                        does (its table and exit code): the two ran alternately,\n"
		"                        repeat by repeat, and are tested in pairs (repeats as\n"
		"                        with --save: 3, more while not known within 4%%)\n"
		"  --references on|off   time a CPU-bound and a memory-bound reference (about 2 ms\n"
		"                        each) before and after every repeat, recorded in its\n"
		"                        iopath.machine and shown by compare, not weighed (default\n"
		"                        off: they did not follow the cells; iopath help statistics)\n"
		"  --dry-run             list the cells and the skipped ones, run nothing\n"
		"Ctrl-C stops after the running cell (twice: at once) and writes what finished.\n");
}

struct sweep_args {
	struct sweep_grid g;	/* the lists, targets and options every cell is planned from */
	unsigned nr_labels;
	const char *labels[SWEEP_SETS_MAX];
	double cv_warn;
	const char *csv, *json, *plot, *save, *results_dir, *db, *html;
	const char *references;	/* --references on|off; NULL: off */
	bool dry_run;
	/* --compare KEY=BASE,CUR: the key and its two values */
	char cmp_key[32], cmp_val[2][128];
	unsigned own;		/* the sweep's own cells: the first own; --explain's follow */
};

static int list_parse(struct sweep_list *l, const char *opt, const char *val, struct iop_err *err)
{
	char *tok, *next;

	free(l->buf);
	l->buf = strdup(val);
	l->n = 0;
	if (!l->buf)
		return iop_errf(err, -ENOMEM, "out of memory");
	/* every element counts: an empty one ("4k,,8k", a trailing comma) is refused, not dropped */
	for (tok = l->buf; tok; tok = next) {
		next = strchr(tok, ',');
		if (next)
			*next++ = '\0';
		if (!*tok)
			return iop_errf(err, -EINVAL, "--%s %s: an empty element (accepted: a comma list of values, e.g. 4k,64k)",
					opt, val);
		if (l->n == SWEEP_LIST_MAX)
			return iop_errf(err, -EINVAL, "--%s: more than %d values", opt, SWEEP_LIST_MAX);
		l->v[l->n++] = tok;
	}
	if (!l->n)
		return iop_errf(err, -EINVAL, "--%s: empty list", opt);
	return 0;
}

static void list_default(struct sweep_list *l, const char *v)
{
	if (!l->n) {
		l->v[0] = v;
		l->n = 1;
	}
}

static int add_target(struct sweep_args *a, const char *spec, struct iop_err *err)
{
	const char *eq = strchr(spec, '=');
	struct sweep_target *t;

	if (a->g.nr_targets == SWEEP_TARGETS_MAX)
		return iop_errf(err, -EINVAL, "--target: at most %d targets", SWEEP_TARGETS_MAX);
	t = &a->g.targets[a->g.nr_targets];
	memset(t, 0, sizeof(*t));
	if (eq && (size_t)(eq - spec) < sizeof(t->role)) {
		snprintf(t->role, sizeof(t->role), "%.*s", (int)(eq - spec), spec);
		spec = eq + 1;
	} else {
		snprintf(t->role, sizeof(t->role), "%s", spec);
	}
	if (!*spec || !t->role[0])
		return iop_errf(err, -EINVAL, "--target: expected [NAME=]DIR, e.g. disk=/mnt/data");
	/* ${RANK} and ${HOST} (under MPI: this rank's) and any ${VAR}, as in job options */
	job_substitute(spec, t->dir, sizeof(t->dir));
	if (strlen(t->dir) >= sizeof(t->dir) - 1)
		return iop_errf(err, -ENAMETOOLONG, "--target %s: path too long", spec);
	for (unsigned i = 0; i < a->g.nr_targets; i++)
		if (!strcmp(a->g.targets[i].role, t->role))
			return iop_errf(err, -EINVAL, "--target: role '%s' given twice (name targets NAME=DIR)",
					t->role);
	a->g.nr_targets++;
	return 0;
}

/* --compare KEY=BASE,CUR: a swept key and two of its values. */
static int compare_arg(struct sweep_args *a, const char *v, struct iop_err *err)
{
	static const char *const keys[] = { "target", "engine", "bs", "iodepth", "numjobs", "rw",
					     "direct", "workload" };
	const char *eq = strchr(v, '='), *comma = eq ? strchr(eq + 1, ',') : NULL;
	unsigned k;

	if (!eq || !comma || eq == v || comma == eq + 1 || !comma[1] || strchr(comma + 1, ',') ||
	    (size_t)(eq - v) >= sizeof(a->cmp_key) || (size_t)(comma - eq - 1) >= sizeof(a->cmp_val[0]) ||
	    strlen(comma + 1) >= sizeof(a->cmp_val[1]))
		return iop_errf(err, -EINVAL, "sweep --compare '%s': expected KEY=BASE,CUR, e.g. target=old,new or engine=psync,io_uring", v);
	snprintf(a->cmp_key, sizeof(a->cmp_key), "%.*s", (int)(eq - v), v);
	snprintf(a->cmp_val[0], sizeof(a->cmp_val[0]), "%.*s", (int)(comma - eq - 1), eq + 1);
	snprintf(a->cmp_val[1], sizeof(a->cmp_val[1]), "%s", comma + 1);
	for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
		if (!strcmp(a->cmp_key, keys[k]))
			break;
	if (k == sizeof(keys) / sizeof(keys[0]))
		return iop_errf(err, -EINVAL, "sweep --compare '%s': '%s' is not a swept key (accepted: target, engine, bs, iodepth, numjobs, rw, direct, workload)",
				v, a->cmp_key);
	if (!strcmp(a->cmp_val[0], a->cmp_val[1]))
		return iop_errf(err, -EINVAL, "sweep --compare '%s': BASE and CUR are the same value", v);
	return 0;
}

/* The outputs asked for, checked before anything runs. */
static int check_outputs(const struct sweep_args *a, struct iop_err *err)
{
	char db[PATH_MAX];
	int ret;

	if (a->csv && (ret = atomic_check_as("--csv", a->csv, err)))
		return ret;
	if (a->json && (ret = atomic_check_as("--json", a->json, err)))
		return ret;
	if (a->plot && (ret = plot_check_dir("--plot", a->plot, err)))
		return ret;
	return a->save && !a->dry_run ?
	       save_check(db_spec(a->db, a->results_dir, db, sizeof(db)), err) : 0;
}

/* What the arguments leave to defaults, and the combinations refused. */
static int settle_args(struct sweep_args *a, struct iop_err *err);

static int parse_args(int argc, char **argv, struct sweep_args *a, struct iop_err *err)
{
	static const struct {
		const char *name;
		size_t off;
	} lists[] = {
		{ "engine", offsetof(struct sweep_args, g.engine) },
		{ "direct", offsetof(struct sweep_args, g.direct) },
		{ "bs", offsetof(struct sweep_args, g.bs) },
		{ "iodepth", offsetof(struct sweep_args, g.iodepth) },
		{ "numjobs", offsetof(struct sweep_args, g.numjobs) },
		{ "rw", offsetof(struct sweep_args, g.rw) },
		{ "workload", offsetof(struct sweep_args, g.workload) },
	};
	const struct arg_opt opts[] = {
		{ "size", ARG_STRING, { .s = &a->g.size } },
		{ "runtime", ARG_STRING, { .s = &a->g.runtime } },
		{ "ramp", ARG_STRING, { .s = &a->g.ramp } },
		{ "repeat", ARG_REPEAT, { .u = &a->g.repeat } },
		{ "repeat-max", ARG_REPEAT, { .u = &a->g.repeat_max } },
		{ "cv-warn", ARG_PERCENT, { .d = &a->cv_warn } },
		{ "csv", ARG_STRING, { .s = &a->csv } },
		{ "json", ARG_STRING, { .s = &a->json } },
		{ "plot", ARG_STRING, { .s = &a->plot } },
		{ "html", ARG_HTML, { .s = &a->html } },
		{ "results-dir", ARG_STRING, { .s = &a->results_dir } },
		{ "db", ARG_STRING, { .s = &a->db } },
		{ "references", ARG_STRING, { .s = &a->references } },
		{ NULL },
	};
	const char *v;
	unsigned k;
	int i, ret;

	a->g.repeat = 0;
	a->cv_warn = CV_WARN_DEFAULT;
	a->g.size = "256m";
	a->g.runtime = "5";
	a->g.ramp = "0";
	for (i = 1; i < argc; i++) {
		for (k = 0; k < sizeof(lists) / sizeof(lists[0]); k++) {
			ret = arg_value(argc, argv, &i, lists[k].name, &v, err);
			if (ret < 0)
				return ret;
			if (ret) {
				ret = list_parse((struct sweep_list *)((char *)a + lists[k].off),
						 lists[k].name, v, err);
				if (ret)
					return ret;
				break;
			}
		}
		if (k < sizeof(lists) / sizeof(lists[0]))
			continue;
#define VALUE(name) (ret = arg_value(argc, argv, &i, name, &v, err))
		if ((ret = arg_table(argc, argv, &i, opts, err))) {
			if (ret < 0)
				return ret;
		} else if (VALUE("target")) {
			if (ret < 0 || (ret = add_target(a, v, err)))
				return ret;
		} else if (VALUE("set")) {
			if (ret < 0 || (ret = sweep_add_set(&a->g, v, err)))
				return ret;
		} else if (VALUE("label")) {
			if (ret < 0)
				return ret;
			if (a->nr_labels == SWEEP_SETS_MAX)
				return iop_errf(err, -EINVAL, "--label: at most %d", SWEEP_SETS_MAX);
			a->labels[a->nr_labels++] = v;
		} else if (!strcmp(argv[i], "--save")) {
			a->save = "sweep";
		} else if (!strncmp(argv[i], "--save=", 7) && argv[i][7]) {
			a->save = argv[i] + 7;
		} else if (VALUE("compare")) {
			if (ret < 0 || (ret = compare_arg(a, v, err)))
				return ret;
		} else if (!strcmp(argv[i], "--dry-run")) {
			a->dry_run = true;
		} else if (!strcmp(argv[i], "--explain")) {
			a->g.explain = true;
		} else {
			return iop_errf(err, -EINVAL, "sweep: unknown argument '%s' (see iopath sweep --help)",
					argv[i]);
		}
#undef VALUE
	}
	return settle_args(a, err);
}

static int settle_args(struct sweep_args *a, struct iop_err *err)
{
	if (a->g.rw.n && a->g.workload.n)
		return iop_errf(err, -EINVAL, "sweep: give --rw or --workload, not both (a workload sets its own rw)");
	/* what is saved is compared later, or now: enough repeats for compare to judge */
	if (!a->g.repeat && (a->save || a->cmp_key[0]) && !a->g.repeat_max)
		a->g.repeat_max = SWEEP_REPEAT_MAX;
	if (!a->g.repeat)
		a->g.repeat = a->save || a->cmp_key[0] || a->g.repeat_max ? CMP_REPEAT_DEFAULT : 1;
	a->g.se_target = SWEEP_SE_TARGET;
	if (a->references && strcmp(a->references, "on") && strcmp(a->references, "off"))
		return iop_errf(err, -EINVAL, "sweep: --references '%s': expected on or off", a->references);
	a->g.references = a->references && !strcmp(a->references, "on");
	if (a->g.repeat_max && a->g.repeat_max < a->g.repeat)
		return iop_errf(err, -EINVAL, "sweep: --repeat-max %u is below --repeat %u (give N >= the repeats)",
				a->g.repeat_max, a->g.repeat);
	return check_outputs(a, err);
}

/*
 * Every engine in the registry except aliases (odirect = psync with direct=1), the file
 * operation engines (falloc, ftruncate...), which move no data to compare, and passthrough,
 * which runs on NVMe namespaces alone (--engine names it for a sweep of one).
 */
static void default_engines(struct sweep_list *l)
{
	const struct engine_entry *e;

	if (l->n)
		return;
	for (e = engine_table; e->name && l->n < SWEEP_LIST_MAX; e++)
		if (!e->force_direct && !(e->ops->flags & (ENGINE_NO_DATA | ENGINE_PASSTHRU)))
			l->v[l->n++] = e->name;
}

/* Check each value once through the option table, so a typo is one error, not N skips. */
static int validate(struct sweep_args *a, struct iop_err *err)
{
	static const struct {
		const char *opt;
		size_t off;
	} dims[] = {
		{ "ioengine", offsetof(struct sweep_args, g.engine) },
		{ "direct", offsetof(struct sweep_args, g.direct) },
		{ "bs", offsetof(struct sweep_args, g.bs) },
		{ "iodepth", offsetof(struct sweep_args, g.iodepth) },
		{ "numjobs", offsetof(struct sweep_args, g.numjobs) },
		{ "rw", offsetof(struct sweep_args, g.rw) },
	};
	struct job_spec *scratch = malloc(sizeof(*scratch));
	unsigned d, i;
	int ret = 0;

	if (!scratch)
		return iop_errf(err, -ENOMEM, "out of memory");
	job_defaults(scratch);
	for (d = 0; !ret && d < sizeof(dims) / sizeof(dims[0]); d++) {
		const struct sweep_list *l = (const struct sweep_list *)((const char *)a + dims[d].off);
		char where[64];

		snprintf(where, sizeof(where), "sweep --%s", d == 0 ? "engine" : dims[d].opt);
		for (i = 0; !ret && i < l->n; i++)
			if (l->v[i])
				ret = opt_apply(scratch, dims[d].opt, l->v[i], where, err);
	}
	if (!ret)
		ret = opt_apply(scratch, "size", a->g.size, "sweep --size", err);
	if (!ret)
		ret = opt_apply(scratch, "runtime", a->g.runtime, "sweep --runtime", err);
	if (!ret)
		ret = opt_apply(scratch, "ramp_time", a->g.ramp, "sweep --ramp", err);
	for (i = 0; !ret && i < a->g.nr_sets; i++)
		ret = opt_apply(scratch, a->g.sets[i].key, a->g.sets[i].val, "sweep --set", err);
	for (i = 0; !ret && i < a->g.workload.n; i++)
		if (!workload_find(a->g.workload.v[i]))
			ret = iop_errf(err, -EINVAL, "sweep --workload: no built-in workload '%s' (see iopath workloads)",
				       a->g.workload.v[i]);
	free(scratch);
	return ret;
}

/* ---- stopping: the first Ctrl-C lets the running cell finish, the second stops it ---- */

static volatile sig_atomic_t interrupts;

static void on_interrupt(int sig)
{
	static const char msg[] = "\niopath: stopping after this cell (Ctrl-C again to stop it now)\n";
	ssize_t ignored;

	(void)sig;
	if (++interrupts == 1) {
		ignored = write(STDERR_FILENO, msg, sizeof(msg) - 1);
		(void)ignored;
	} else if (interrupts == 2) {
		run_request_stop();
	} else {
		tempfiles_remove_all();
		_exit(EXIT_INTERRUPTED);
	}
}

static void install_sweep_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_interrupt;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

/* ---- running: the cells through the cell layer, the progress shown here ---- */

static void hook_start(void *arg, const char *label, unsigned rep, unsigned repeats)
{
	progress_item(arg, label, rep, repeats);
}

static void hook_end(void *arg)
{
	progress_item_end(arg);
}

static void hook_skipped(void *arg)
{
	progress_drop(arg);
}

static unsigned hook_interrupts(void *arg)
{
	(void)arg;
	return (unsigned)interrupts;
}

static int run_cells(struct cell_job *cells, unsigned n, struct sweep_args *a,
		     struct results *res, struct iop_err *err)
{
	struct progress prog;
	const struct sweep_hooks h = { .start = hook_start, .end = hook_end, .skipped = hook_skipped,
				       .interrupts = hook_interrupts, .arg = &prog };
	double runtime = 0, ramp = 0;
	int ret;

	{
		struct job_spec *s = malloc(sizeof(*s));

		if (s) {
			job_defaults(s);
			if (!opt_apply(s, "runtime", a->g.runtime, "", NULL))
				runtime = (double)s->time.runtime_ns / 1e9;
			if (!opt_apply(s, "ramp_time", a->g.ramp, "", NULL))
				ramp = (double)s->time.ramp_ns / 1e9;
			free(s);
		}
	}
	progress_begin(&prog, "sweep", "cell", sweep_runnable(cells, n) * a->g.repeat,
		       runtime + ramp + 0.2);
	if (a->cmp_key[0]) {
		/* --compare: the two sides of each pair repeat together, alternating */
		a->g.pair_key = a->cmp_key;
		a->g.pair_val[0] = a->cmp_val[0];
		a->g.pair_val[1] = a->cmp_val[1];
	}
	ret = sweep_run(&a->g, cells, n, res, &h, err);
	progress_finish(&prog);
	if (a->g.repeated)
		fprintf(stderr, "sweep: %u cell(s) repeated beyond %u, until their IOPS were known within %.0f%% (standard error of the mean)\n",
			a->g.repeated, a->g.repeat, 100 * a->g.se_target);
	if (a->g.unsettled)
		fprintf(stderr, "sweep: %u cell(s) still not known within %.0f%% after %u repeats: their verdicts can show only large changes\n",
			a->g.unsettled, 100 * a->g.se_target, a->g.repeat_max);
	return ret;
}

/* --explain: the extra cells on every target, after the sweep's own, into the same result. */
static bool explain_progress(void *arg, const char *label, unsigned i, unsigned n)
{
	struct progress *p = arg;

	if (interrupts)
		return false;	/* Ctrl-C: stop after the running cell, as the sweep's own do */
	if (!i)
		progress_begin(p, "sweep", "explain cell", n, 0);
	progress_item(p, label, 0, 1);
	return true;
}

/* ---- outputs ---- */

static int write_csv(const char *path, const struct results *r, struct iop_err *err)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int ret;

	if (!f)
		return iop_errf(err, -ENOMEM, "--csv: out of memory");
	ret = report_cells_csv(f, r);
	if (fclose(f) && !ret)
		ret = -EIO;
	if (!ret)
		ret = write_text_atomic(path, buf, len);
	free(buf);
	return ret ? iop_errf(err, ret, "--csv %s: %s", path, strerror(-ret)) : 0;
}

/* The results file with the explanation beside the cells, at .iopath.explain. */
static int write_explained(const char *path, const struct results *r, json_t *ex,
			   struct iop_err *err)
{
	json_t *root = results_json(r);
	char *text;
	int ret;

	if (!root || json_object_set_new(root, "iopath", json_pack("{s:O}", "explain", ex))) {
		json_decref(root);
		return iop_errf(err, -ENOMEM, "out of memory");
	}
	text = json_dumps(root, JSON_INDENT(2) | JSON_SORT_KEYS);
	json_decref(root);
	if (!text)
		return iop_errf(err, -ENOMEM, "out of memory");
	ret = write_text_atomic(path, text, strlen(text));
	free(text);
	return ret ? iop_errf(err, ret, "%s: %s", path, strerror(-ret)) : 0;
}

/* Cells from..to of r, as a result of their own (a view: nothing is copied or to be freed). */
static struct results cells_part(const struct results *r, unsigned from, unsigned to)
{
	struct results v = *r;

	v.cells = r->cells + from;
	v.nr = v.cap = to - from;
	return v;
}

/*
 * --explain's cells, in the explanation's own section (ex.cells): its table is printed apart
 * from the sweep's, its cells written under iopath.explain in the JSON and on the page.
 */
static int explain_section(json_t *ex, const struct results *cells, double cv_warn)
{
	json_t *doc;

	if (!cells->nr)
		return 0;
	printf("\nexplain's own cells (not the sweep's; what the explanation below is drawn from):\n");
	report_cells_table(stdout, cells, cv_warn);
	doc = results_json(cells);
	if (!doc || json_object_set(ex, "cells", json_object_get(doc, "cells"))) {
		json_decref(doc);
		return -ENOMEM;
	}
	json_decref(doc);
	return 0;
}

/* Does some cell of r have --compare's key at each of its values? Says which not. */
static bool compare_values_present(const struct sweep_args *a, const struct results *r)
{
	unsigned i, k;

	for (k = 0; k < 2; k++) {
		for (i = 0; i < r->nr; i++) {
			const char *v = json_string_value(json_object_get(r->cells[i].identity, a->cmp_key));

			if (v && !strcmp(v, a->cmp_val[k]))
				break;
		}
		if (i == r->nr) {
			fprintf(stderr, "iopath: sweep --compare %s=%s,%s: no cell has %s=%s (give it in --%s)\n",
				a->cmp_key, a->cmp_val[0], a->cmp_val[1], a->cmp_key, a->cmp_val[k], a->cmp_key);
			return false;
		}
	}
	return true;
}

/*
 * --compare: the sweep's own cells of BASE's value against CUR's, printed as compare prints;
 * compare's exit code, or EXIT_USAGE when nothing matched.
 */
static int sweep_compare(const struct sweep_args *a, const struct results *all)
{
	struct cmp_opts o = { .threshold = 0.05, .alpha = 0.05, .metrics = (1u << MET_NR) - 1 };
	struct results mine = cells_part(all, 0, a->own <= all->nr ? a->own : all->nr), side[2];
	struct iop_err err = { "" };
	struct cmp_report rep;
	int code = EXIT_USAGE, nb, nc;

	nb = results_split(&mine, a->cmp_key, a->cmp_val[0], &side[0]);
	nc = results_split(&mine, a->cmp_key, a->cmp_val[1], &side[1]);
	if (nb < 0 || nc < 0) {
		fprintf(stderr, "iopath: sweep --compare: out of memory\n");
	} else if (compare_results(&side[0], &side[1], &o, &rep, &err)) {
		fprintf(stderr, "iopath: sweep --compare: %s\n", err.msg);
	} else {
		printf("\ncompare %s=%s (BASE) against %s=%s (CUR), run alternately:\n", a->cmp_key,
		       a->cmp_val[0], a->cmp_key, a->cmp_val[1]);
		report_compare_text(stdout, &rep, &side[0], &side[1], &o);
		code = rep.nr ? cmp_exit_code(&rep, &o) : EXIT_USAGE;
		if (!rep.nr)
			fprintf(stderr, "iopath: sweep --compare: no cell of %s=%s matches one of %s=%s\n",
				a->cmp_key, a->cmp_val[0], a->cmp_key, a->cmp_val[1]);
		cmp_report_free(&rep);
	}
	results_free(&side[0]);
	results_free(&side[1]);
	return code;
}

static int outputs(const struct sweep_args *a, const struct results *all)
{
	struct iop_err err = { "" };
	unsigned own = a->g.explain && a->own <= all->nr ? a->own : all->nr;
	/* the sweep's own cells; explain judges from all of them */
	struct results mine = cells_part(all, 0, own), extra = cells_part(all, own, all->nr);
	const struct results *r = &mine;
	char dbpath[PATH_MAX];
	json_t *ex = NULL;
	int bad = 0;

	report_cells_table(stdout, r, a->cv_warn);
	if (a->g.explain) {
		ex = explain_results(all, &err);
		if (ex && explain_section(ex, &extra, a->cv_warn)) {
			fprintf(stderr, "iopath: --explain: out of memory\n");
			bad = 1;
		}
		if (ex) {
			fputc('\n', stdout);
			explain_print(stdout, ex);
		} else {
			fprintf(stderr, "iopath: --explain: %s\n", err.msg);
			bad = 1;
		}
	}
	fflush(stdout);
	if (a->csv && write_csv(a->csv, r, &err)) {
		fprintf(stderr, "iopath: %s\n", err.msg);
		results_keep(r, "--csv");
		bad = 1;
	}
	if (a->json && ex && write_explained(a->json, r, ex, &err)) {
		fprintf(stderr, "iopath: --json: %s\n", err.msg);
		results_keep(r, "--json");
		bad = 1;
	} else if (a->json && !ex && results_write(r, a->json, &err)) {
		fprintf(stderr, "iopath: --json: %s\n", err.msg);
		results_keep(r, "--json");
		bad = 1;
	}
	if (a->plot && plot_sweep(r, a->plot, &err)) {
		fprintf(stderr, "iopath: --plot: %s\n", err.msg);
		results_keep(r, "--plot");
		bad = 1;
	}
	if (a->html && html_write_results(r, ex, a->html, &err)) {
		fprintf(stderr, "iopath: %s\n", err.msg);
		results_keep(r, "--html");
		bad = 1;
	}
	/* the store keeps all that was measured: explain reads a saved run back whole */
	if (a->save && save_to_db(all, db_spec(a->db, a->results_dir, dbpath, sizeof(dbpath))))
		bad = 1;
	json_decref(ex);
	return bad;
}

static void print_plan(const struct cell_job *cells, unsigned n, const struct sweep_args *a)
{
	unsigned i, runnable = 0;

	for (i = 0; i < n; i++) {
		runnable += !cells[i].skip;
		printf("%-8s %s%s%s\n", cells[i].skip ? "skip" : "run", cells[i].label,
		       cells[i].skip ? ": " : "", cells[i].skip ? cells[i].reason : "");
	}
	printf("%u cells, %u to run, %u skipped, %u repeat(s)", n, runnable, n - runnable,
	       a->g.repeat);
	if (a->g.repeat_max > a->g.repeat)
		printf(", then up to %u for a cell whose IOPS are not known within %.0f%%",
		       a->g.repeat_max, 100 * a->g.se_target);
	putchar('\n');
	if (a->g.explain)
		printf("--explain: then on every target a 4 KiB random-read ladder at iodepth 1, 4, 16 and 64 (io_uring, direct=1), the same buffered, 1 MiB reads and 4 KiB writes with fsync: 7 cells each\n");
}

/*
 * The file a target's cells use: created here, exclusively and marked as iopath's, before it
 * is registered for removal, so that a file already there under that name is neither used nor
 * removed (another name is taken). A dry run only names it.
 */
static int target_file(struct sweep_target *t, unsigned i, bool dry_run, struct iop_err *err)
{
	unsigned k;
	int fd, ret;

	for (k = 0; k < 100; k++) {
		int n = k ? snprintf(t->file, sizeof(t->file), "%s/iopath-sweep.%d.%u.%u.tmp%s", t->dir,
				     (int)getpid(), i, k, fleet_file_suffix()) :
			    snprintf(t->file, sizeof(t->file), "%s/iopath-sweep.%d.%u.tmp%s", t->dir,
				     (int)getpid(), i, fleet_file_suffix());

		if (n >= (int)sizeof(t->file))
			return iop_errf(err, -ENAMETOOLONG, "--target %s: path too long", t->dir);
		if (dry_run)
			return 0;
		fd = open(t->file, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
		if (fd < 0 && errno == EEXIST)
			continue;
		if (fd < 0)
			return iop_errf(err, -errno, "--target %s=%s: cannot create %s: %s", t->role,
					t->dir, t->file, strerror(errno));
		ret = target_mark_owned(fd, t->file);
		close(fd);
		if (ret) {
			unlink(t->file);
			return iop_errf(err, ret, "--target %s=%s: cannot mark %s as iopath's: %s",
					t->role, t->dir, t->file, strerror(-ret));
		}
		return 0;
	}
	return iop_errf(err, -EEXIST, "--target %s=%s: no free name for its file", t->role, t->dir);
}

static int setup_targets(struct sweep_args *a, struct results *res, bool dry_run,
			 struct iop_err *err)
{
	unsigned i;

	if (!a->g.nr_targets && add_target(a, ".", err))
		return -EINVAL;
	for (i = 0; i < a->g.nr_targets; i++) {
		struct sweep_target *t = &a->g.targets[i];
		struct iop_err perr = { "" };
		const struct probed_dir *d;

		char file[sizeof(t->file)];
		int ret;

		if (access(t->dir, F_OK))
			return iop_errf(err, -ENOENT, "--target %s=%s: %s", t->role, t->dir,
					strerror(errno));
		ret = target_file(t, i, dry_run, err);
		if (ret)
			return ret;
		/* the target's file and its ownership sidecar go on every exit, Ctrl-C included */
		if (!dry_run) {
			tempfiles_register(t->file);
			if (!target_sidecar_path(t->file, file, sizeof(file)) && !access(file, F_OK))
				tempfiles_register(file);
		}
		/*
		 * the trials tell what the path refuses (they write a small temporary file), the
		 * honesty check whether a cache answers its direct reads: the target's entry says
		 * what a direct=1 cell's run finds, not "unknown"
		 */
		d = probe_set_need(&a->g.probes, t->dir, dry_run ? 0 : PROBE_TRIALS | PROBE_TIMING);
		if (!d)
			return iop_errf(err, -ENOMEM, "out of memory");
		t->probe = d->error ? NULL : &d->p;
		if (d->error)
			snprintf(perr.msg, sizeof(perr.msg), "%s: %s", t->dir, strerror(-d->error));
		if (results_add_target(res, t->role, t->dir, t->probe, perr.msg))
			return iop_errf(err, -ENOMEM, "out of memory");
	}
	return 0;
}

int cmd_sweep(int argc, char **argv)
{
	struct sweep_args a;
	struct cell_job *cells = NULL;
	struct results res;
	struct iop_err err = { "" };
	unsigned n = 0, i;
	int code = EXIT_USAGE, ret;

	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		usage(stdout);
		return 0;
	}
	memset(&a, 0, sizeof(a));
	if (results_init(&res, "sweep", "sweep", argc, argv, &err)) {
		fprintf(stderr, "iopath: %s\n", err.msg);
		return EXIT_USAGE;
	}
	ret = parse_args(argc, argv, &a, &err);
	if (!ret) {
		/* a workload keeps its own direct, bs, iodepth and numjobs unless they are swept */
		const char *dflt = a.g.workload.n ? NULL : "";

		default_engines(&a.g.engine);
		list_default(&a.g.direct, dflt ? "1" : NULL);
		list_default(&a.g.bs, dflt ? "4k" : NULL);
		list_default(&a.g.iodepth, dflt ? "1" : NULL);
		list_default(&a.g.numjobs, dflt ? "1" : NULL);
		if (!a.g.workload.n)
			list_default(&a.g.rw, "randread");
		ret = validate(&a, &err);
	}
	for (i = 0; !ret && i < a.nr_labels; i++)
		ret = results_add_label(&res, a.labels[i], &err);
	if (a.save)
		snprintf(res.name, sizeof(res.name), "%s", a.save);
	ret = ret ? ret : setup_targets(&a, &res, a.dry_run, &err);
	ret = ret ? ret : sweep_plan(&a.g, &cells, &n, &err);
	if (ret) {
		fprintf(stderr, "iopath: %s\n", err.msg);
		goto out;
	}
	sweep_agree_skips(cells, n);
	if (a.dry_run) {
		print_plan(cells, n, &a);
		code = 0;
		goto out;
	}
	if (cells_enter(&res, cells, n, &err)) {
		fprintf(stderr, "iopath: %s\n", err.msg);
		goto out;
	}
	if (a.cmp_key[0] && !compare_values_present(&a, &res))
		goto out;
	install_sweep_signals();
	ret = run_cells(cells, n, &a, &res, &err);
	a.own = res.nr;
	if (a.g.explain) {
		struct progress prog = { .begun = false };
		const struct sweep_hooks explain_hooks = {
			.interrupts = hook_interrupts, .explain = explain_progress, .arg = &prog,
		};

		ret = sweep_explain(&a.g, &res, ret, &explain_hooks, &err);
		progress_finish(&prog);
	}
	for (i = 0; i < a.g.nr_targets; i++) {
		char side[sizeof(a.g.targets[i].file)];

		tempfiles_remove(a.g.targets[i].file);
		if (!target_sidecar_path(a.g.targets[i].file, side, sizeof(side)))
			tempfiles_remove(side);
	}
	if (ret) {
		char why[sizeof(err.msg) + 64];

		fprintf(stderr, "iopath: %s\n", err.msg);
		snprintf(why, sizeof(why), "not run: the sweep stopped at an error: %s", err.msg);
		cells_mark_not_run(&res, CELL_SKIPPED, why);
		code = EXIT_JOB_FAILED;
	}
	/* only a signal interrupts: the cells it left are interrupted, no others */
	cells_mark_not_run(&res, CELL_INTERRUPTED, "not run: the sweep was interrupted");
	/* under MPI only rank 0 writes: its cells are the merged ones */
	code = !fleet_rank() && outputs(&a, &res) ? EXIT_JOB_FAILED :
	       code == EXIT_JOB_FAILED ? code : 0;
	if (res.interrupted)
		code = EXIT_INTERRUPTED;
	else if (!code)
		for (i = 0; i < res.nr; i++)
			if (res.cells[i].status == CELL_FAILED)
				code = EXIT_JOB_FAILED;
	if (!code && a.cmp_key[0] && !fleet_rank())	/* compare's verdict, the sweep having run */
		code = sweep_compare(&a, &res);
out:
	cells_free(cells, n);
	sweep_grid_free(&a.g);
	results_free(&res);
	return code;
}
