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
#include "results/report_cells.h"
#include "results/results.h"
#include "run/run.h"
#include "job/workloads.h"

#define LIST_MAX 64
#define TARGETS_MAX 16
#define SETS_MAX 32

static void usage(FILE *f)
{
	fprintf(f,
		"usage: iopath sweep [options]\n"
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
		"                        the fewest compare can judge well)\n"
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
		"  --dry-run             list the cells and the skipped ones, run nothing\n"
		"Ctrl-C stops after the running cell (twice: at once) and writes what finished.\n");
}

struct str_list {
	unsigned n;
	const char *v[LIST_MAX];
	char *buf;
};

struct target {
	char role[128];
	char dir[PATH_MAX];
	char file[PATH_MAX];
	const struct probe_path *probe;	/* NULL when the probe failed; owned by the probe set */
	bool prepared;
	char prep_err[600];
};

struct sweep_args {
	struct str_list engine, direct, bs, iodepth, numjobs, rw, workload;
	unsigned nr_targets;
	struct target targets[TARGETS_MAX];
	const char *size, *runtime, *ramp;
	unsigned nr_sets;
	const char *sets[SETS_MAX];
	unsigned nr_labels;
	const char *labels[SETS_MAX];
	struct probe_set probes;	/* shared by every cell's run: each path probed once */
	unsigned repeat;
	double cv_warn;
	const char *csv, *json, *plot, *save, *results_dir, *db, *html;
	bool dry_run;
	bool explain;
};

struct sweep_cell {
	json_t *identity;
	char label[512];
	unsigned target;
	struct job_list jobs;
	bool skip;
	char reason[800];
	bool disk;		/* some job touches the target file */
	double seconds;		/* the last run's wall time */
};

static int list_parse(struct str_list *l, const char *opt, const char *val, struct iop_err *err)
{
	char *tok, *save = NULL;

	free(l->buf);
	l->buf = strdup(val);
	l->n = 0;
	if (!l->buf)
		return iop_errf(err, -ENOMEM, "out of memory");
	for (tok = strtok_r(l->buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (l->n == LIST_MAX)
			return iop_errf(err, -EINVAL, "--%s: more than %d values", opt, LIST_MAX);
		l->v[l->n++] = tok;
	}
	if (!l->n)
		return iop_errf(err, -EINVAL, "--%s: empty list", opt);
	return 0;
}

static void list_default(struct str_list *l, const char *v)
{
	if (!l->n) {
		l->v[0] = v;
		l->n = 1;
	}
}

static void list_free(struct str_list *l)
{
	free(l->buf);
	l->buf = NULL;
}

static int add_target(struct sweep_args *a, const char *spec, struct iop_err *err)
{
	const char *eq = strchr(spec, '=');
	struct target *t;

	if (a->nr_targets == TARGETS_MAX)
		return iop_errf(err, -EINVAL, "--target: at most %d targets", TARGETS_MAX);
	t = &a->targets[a->nr_targets];
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
	for (unsigned i = 0; i < a->nr_targets; i++)
		if (!strcmp(a->targets[i].role, t->role))
			return iop_errf(err, -EINVAL, "--target: role '%s' given twice (name targets NAME=DIR)",
					t->role);
	a->nr_targets++;
	return 0;
}

static int parse_args(int argc, char **argv, struct sweep_args *a, struct iop_err *err)
{
	static const struct {
		const char *name;
		size_t off;
	} lists[] = {
		{ "engine", offsetof(struct sweep_args, engine) },
		{ "direct", offsetof(struct sweep_args, direct) },
		{ "bs", offsetof(struct sweep_args, bs) },
		{ "iodepth", offsetof(struct sweep_args, iodepth) },
		{ "numjobs", offsetof(struct sweep_args, numjobs) },
		{ "rw", offsetof(struct sweep_args, rw) },
		{ "workload", offsetof(struct sweep_args, workload) },
	};
	const struct arg_opt opts[] = {
		{ "size", ARG_STRING, { .s = &a->size } },
		{ "runtime", ARG_STRING, { .s = &a->runtime } },
		{ "ramp", ARG_STRING, { .s = &a->ramp } },
		{ "repeat", ARG_REPEAT, { .u = &a->repeat } },
		{ "cv-warn", ARG_PERCENT, { .d = &a->cv_warn } },
		{ "csv", ARG_STRING, { .s = &a->csv } },
		{ "json", ARG_STRING, { .s = &a->json } },
		{ "plot", ARG_STRING, { .s = &a->plot } },
		{ "html", ARG_HTML, { .s = &a->html } },
		{ "results-dir", ARG_STRING, { .s = &a->results_dir } },
		{ "db", ARG_STRING, { .s = &a->db } },
		{ NULL },
	};
	const char *v;
	unsigned k;
	int i, ret;

	a->repeat = 0;
	a->cv_warn = CV_WARN_DEFAULT;
	a->size = "256m";
	a->runtime = "5";
	a->ramp = "0";
	for (i = 1; i < argc; i++) {
		for (k = 0; k < sizeof(lists) / sizeof(lists[0]); k++) {
			ret = arg_value(argc, argv, &i, lists[k].name, &v, err);
			if (ret < 0)
				return ret;
			if (ret) {
				ret = list_parse((struct str_list *)((char *)a + lists[k].off),
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
			if (ret < 0)
				return ret;
			if (a->nr_sets == SETS_MAX || !strchr(v, '=') || *v == '=')
				return iop_errf(err, -EINVAL, "--set '%s': expected KEY=VALUE (at most %d)", v,
						SETS_MAX);
			a->sets[a->nr_sets++] = v;
		} else if (VALUE("label")) {
			if (ret < 0)
				return ret;
			if (a->nr_labels == SETS_MAX)
				return iop_errf(err, -EINVAL, "--label: at most %d", SETS_MAX);
			a->labels[a->nr_labels++] = v;
		} else if (!strcmp(argv[i], "--save")) {
			a->save = "sweep";
		} else if (!strncmp(argv[i], "--save=", 7) && argv[i][7]) {
			a->save = argv[i] + 7;
		} else if (!strcmp(argv[i], "--dry-run")) {
			a->dry_run = true;
		} else if (!strcmp(argv[i], "--explain")) {
			a->explain = true;
		} else {
			return iop_errf(err, -EINVAL, "sweep: unknown argument '%s' (see iopath sweep --help)",
					argv[i]);
		}
#undef VALUE
	}
	if (a->rw.n && a->workload.n)
		return iop_errf(err, -EINVAL, "sweep: give --rw or --workload, not both (a workload sets its own rw)");
	/* what is saved is compared later: enough repeats for compare to judge every cell */
	if (!a->repeat)
		a->repeat = a->save ? CMP_REPEAT_DEFAULT : 1;
	if (a->csv && (ret = atomic_check_as("--csv", a->csv, err)))
		return ret;
	if (a->json && (ret = atomic_check_as("--json", a->json, err)))
		return ret;
	return a->plot ? plot_check_dir("--plot", a->plot, err) : 0;
}

/*
 * Every engine in the registry except aliases (odirect = psync with direct=1) and the file
 * operation engines (falloc, ftruncate...), which move no data to compare.
 */
static void default_engines(struct str_list *l)
{
	const struct engine_entry *e;

	if (l->n)
		return;
	for (e = engine_table; e->name && l->n < LIST_MAX; e++)
		if (!e->force_direct && !(e->ops->flags & ENGINE_NO_DATA))
			l->v[l->n++] = e->name;
}

/* Check each value once through the option table, so a typo is one error, not N skips. */
static int validate(struct sweep_args *a, struct iop_err *err)
{
	static const struct {
		const char *opt;
		size_t off;
	} dims[] = {
		{ "ioengine", offsetof(struct sweep_args, engine) },
		{ "direct", offsetof(struct sweep_args, direct) },
		{ "bs", offsetof(struct sweep_args, bs) },
		{ "iodepth", offsetof(struct sweep_args, iodepth) },
		{ "numjobs", offsetof(struct sweep_args, numjobs) },
		{ "rw", offsetof(struct sweep_args, rw) },
	};
	struct job_spec *scratch = malloc(sizeof(*scratch));
	unsigned d, i;
	int ret = 0;

	if (!scratch)
		return iop_errf(err, -ENOMEM, "out of memory");
	job_defaults(scratch);
	for (d = 0; !ret && d < sizeof(dims) / sizeof(dims[0]); d++) {
		const struct str_list *l = (const struct str_list *)((const char *)a + dims[d].off);
		char where[64];

		snprintf(where, sizeof(where), "sweep --%s", d == 0 ? "engine" : dims[d].opt);
		for (i = 0; !ret && i < l->n; i++)
			if (l->v[i])
				ret = opt_apply(scratch, dims[d].opt, l->v[i], where, err);
	}
	if (!ret)
		ret = opt_apply(scratch, "size", a->size, "sweep --size", err);
	if (!ret)
		ret = opt_apply(scratch, "runtime", a->runtime, "sweep --runtime", err);
	if (!ret)
		ret = opt_apply(scratch, "ramp_time", a->ramp, "sweep --ramp", err);
	for (i = 0; !ret && i < a->nr_sets; i++) {
		char key[64];
		const char *eq = strchr(a->sets[i], '=');

		snprintf(key, sizeof(key), "%.*s", (int)(eq - a->sets[i]), a->sets[i]);
		ret = opt_apply(scratch, key, eq + 1, "sweep --set", err);
	}
	for (i = 0; !ret && i < a->workload.n; i++)
		if (!workload_find(a->workload.v[i]))
			ret = iop_errf(err, -EINVAL, "sweep --workload: no built-in workload '%s' (see iopath workloads)",
				       a->workload.v[i]);
	free(scratch);
	return ret;
}

struct cell_dims {
	const char *engine, *direct, *bs, *iodepth, *numjobs, *rw, *workload;
};

static int apply(struct job_spec *job, const char *key, const char *val, struct iop_err *err)
{
	return opt_apply(job, key, val, "sweep", err);
}

/* The cell's options, applied to every job of it (after the workload's own). */
static int apply_dims(struct job_spec *job, const struct sweep_args *a, const struct cell_dims *d,
		      const struct target *t, struct iop_err *err)
{
	unsigned i;
	int ret = 0;

	ret = ret ? ret : apply(job, "ioengine", d->engine, err);
	if (d->direct)
		ret = ret ? ret : apply(job, "direct", d->direct, err);
	if (d->bs)
		ret = ret ? ret : apply(job, "bs", d->bs, err);
	if (d->iodepth)
		ret = ret ? ret : apply(job, "iodepth", d->iodepth, err);
	if (d->numjobs)
		ret = ret ? ret : apply(job, "numjobs", d->numjobs, err);
	if (d->rw)
		ret = ret ? ret : apply(job, "rw", d->rw, err);
	ret = ret ? ret : apply(job, "filename", t->file, err);
	ret = ret ? ret : apply(job, "size", a->size, err);
	ret = ret ? ret : apply(job, "group_reporting", "1", err);
	if (strcmp(a->runtime, "0")) {
		ret = ret ? ret : apply(job, "runtime", a->runtime, err);
		ret = ret ? ret : apply(job, "time_based", "1", err);
	}
	ret = ret ? ret : apply(job, "ramp_time", a->ramp, err);
	for (i = 0; !ret && i < a->nr_sets; i++) {
		char key[64];
		const char *eq = strchr(a->sets[i], '=');

		snprintf(key, sizeof(key), "%.*s", (int)(eq - a->sets[i]), a->sets[i]);
		ret = apply(job, key, eq + 1, err);
	}
	return ret;
}

static int build_jobs(struct sweep_cell *c, const struct sweep_args *a, const struct cell_dims *d,
		      struct iop_err *err)
{
	const struct target *t = &a->targets[c->target];
	struct job_parser p;
	unsigned i;
	int ret;

	job_parser_init(&p, &c->jobs);
	c->jobs.probes = (struct probe_set *)&a->probes;
	if (d->workload) {
		const struct builtin_workload *w = workload_find(d->workload);
		char origin[160];

		snprintf(origin, sizeof(origin), "workload %s", d->workload);
		ret = job_parse_text(&p, w->text, origin, err);
	} else {
		ret = job_parse_cli(&p, "name", c->label, err);
	}
	for (i = 0; !ret && i < c->jobs.nr; i++)
		ret = apply_dims(&c->jobs.jobs[i], a, d, t, err);
	if (!ret)
		ret = job_parser_finish(&p, err);
	if (!ret && !c->jobs.nr)
		ret = iop_errf(err, -EINVAL, "the cell has no jobs");
	return ret;
}

/* Is this cell refused before it starts: by the engine's flags, or by what the probe saw? */
static bool cell_refused(struct sweep_cell *c, const struct sweep_args *a)
{
	const struct target *t = &a->targets[c->target];
	unsigned i;

	for (i = 0; i < c->jobs.nr; i++) {
		const struct job_spec *j = &c->jobs.jobs[i];

		if (!(j->engine->flags & ENGINE_DISKLESS))
			c->disk = true;
		if (j->direct && (j->engine->flags & ENGINE_NO_DIRECT)) {
			snprintf(c->reason, sizeof(c->reason),
				 "ioengine=%s cannot do direct=1: it works through the page cache",
				 j->engine->name);
			return true;
		}
		if (t->probe && !(j->engine->flags & ENGINE_DISKLESS) &&
		    probe_refuses(t->probe, j->direct, j->engine, c->reason, sizeof(c->reason)))
			return true;
	}
	return false;
}

static json_t *cell_identity(const struct sweep_args *a, const struct cell_dims *d,
			     const struct target *t)
{
	json_t *id = json_object();
	unsigned i;

	if (!id)
		return NULL;
	json_object_set_new(id, "target", json_string(t->role));
	if (d->workload)
		json_object_set_new(id, "workload", json_string(d->workload));
	else
		json_object_set_new(id, "rw", json_string(d->rw));
	json_object_set_new(id, "engine", json_string(d->engine));
	/* a workload's own settings are part of it: only swept values are named */
	if (d->direct)
		json_object_set_new(id, "direct", json_string(d->direct));
	if (d->bs)
		json_object_set_new(id, "bs", json_string(d->bs));
	if (d->iodepth)
		json_object_set_new(id, "iodepth", json_string(d->iodepth));
	if (d->numjobs)
		json_object_set_new(id, "numjobs", json_string(d->numjobs));
	json_object_set_new(id, "size", json_string(a->size));
	json_object_set_new(id, "runtime", json_string(a->runtime));
	json_object_set_new(id, "ramp", json_string(a->ramp));
	for (i = 0; i < a->nr_sets; i++) {
		const char *eq = strchr(a->sets[i], '=');
		char key[64];

		snprintf(key, sizeof(key), "%.*s", (int)(eq - a->sets[i]), a->sets[i]);
		json_object_set_new(id, key, json_string(eq + 1));
	}
	return id;
}

static void cell_label(char *buf, size_t len, const char *role, const char *kind,
		       const struct cell_dims *d)
{
	size_t o;

	snprintf(buf, len, "%s %s", role, kind);
#define ADD(fmt, v) do { if (v) { o = strlen(buf); snprintf(buf + o, len - o, fmt, v); } } while (0)
	ADD(" bs=%s", d->bs);
	ADD(" qd=%s", d->iodepth);
	if (d->numjobs && strcmp(d->numjobs, "1"))
		ADD(" jobs=%s", d->numjobs);
	ADD(" %s", d->engine);
	ADD(" direct=%s", d->direct);
#undef ADD
}

static int plan_cells(struct sweep_args *a, struct sweep_cell **out, unsigned *nr,
		      struct iop_err *err)
{
	const struct str_list *kinds = a->workload.n ? &a->workload : &a->rw;
	unsigned total = a->nr_targets * kinds->n * a->bs.n * a->numjobs.n * a->iodepth.n *
			 a->direct.n * a->engine.n;
	unsigned t, w, b, nj, q, di, e, n = 0;
	struct sweep_cell *cells;

	if (total > 100000)
		return iop_errf(err, -E2BIG, "sweep: %u cells is too many (at most 100000)", total);
	cells = calloc(total ? total : 1, sizeof(*cells));
	if (!cells)
		return iop_errf(err, -ENOMEM, "out of memory for %u cells", total);
	/* engines innermost: the engines of one configuration run back to back, A B A B */
	for (t = 0; t < a->nr_targets; t++)
	for (w = 0; w < kinds->n; w++)
	for (b = 0; b < a->bs.n; b++)
	for (nj = 0; nj < a->numjobs.n; nj++)
	for (q = 0; q < a->iodepth.n; q++)
	for (di = 0; di < a->direct.n; di++)
	for (e = 0; e < a->engine.n; e++) {
		struct cell_dims d = {
			.engine = a->engine.v[e], .direct = a->direct.v[di], .bs = a->bs.v[b],
			.iodepth = a->iodepth.v[q], .numjobs = a->numjobs.v[nj],
			.rw = a->workload.n ? NULL : kinds->v[w],
			.workload = a->workload.n ? kinds->v[w] : NULL,
		};
		struct sweep_cell *c = &cells[n++];
		struct iop_err cerr = { "" };

		c->target = t;
		cell_label(c->label, sizeof(c->label), a->targets[t].role, kinds->v[w], &d);
		c->identity = cell_identity(a, &d, &a->targets[t]);
		if (!c->identity) {
			*out = cells;
			*nr = n;
			return iop_errf(err, -ENOMEM, "out of memory");
		}
		if (build_jobs(c, a, &d, &cerr)) {
			c->skip = true;
			snprintf(c->reason, sizeof(c->reason), "%s", cerr.msg);
		} else {
			c->skip = cell_refused(c, a);
		}
	}
	*out = cells;
	*nr = n;
	return 0;
}

static void cells_free(struct sweep_cell *cells, unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++) {
		json_decref(cells[i].identity);
		job_list_free(&cells[i].jobs);
	}
	free(cells);
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

/* ---- progress ---- */

struct progress {
	bool tty;
	unsigned done, total;
	const char *label;
	double cell_expect;	/* seconds a cell is expected to take */
	double spent;		/* seconds of finished cells */
	uint64_t cell_start;
	pthread_t thread;
	pthread_mutex_t lock;
	atomic_bool running, stop;
};

static double since(const uint64_t *t0)
{
	return (double)(mono_ns() - *t0) / 1e9;
}

static void fmt_duration(char *buf, size_t len, double s)
{
	unsigned long t = s > 0 ? (unsigned long)(s + 0.5) : 0;

	if (t >= 3600)
		snprintf(buf, len, "%lu:%02lu:%02lu", t / 3600, t / 60 % 60, t % 60);
	else
		snprintf(buf, len, "%lu:%02lu", t / 60, t % 60);
}

static double eta(const struct progress *p, double in_cell)
{
	double per = p->done ? p->spent / p->done : p->cell_expect;
	double left = (double)(p->total - p->done) * per - in_cell;

	return left > 0 ? left : 0;
}

static void progress_draw(struct progress *p)
{
	char bar[31], e[32];
	double in_cell = since(&p->cell_start);
	unsigned fill = p->total ? (unsigned)(30.0 * p->done / p->total) : 30, i;

	for (i = 0; i < 30; i++)
		bar[i] = i < fill ? '#' : '.';
	bar[30] = '\0';
	fmt_duration(e, sizeof(e), eta(p, in_cell));
	fprintf(stderr, "\r\033[K[%s] %u/%u %.60s  %.1fs  ETA %s", bar, p->done + 1, p->total,
		p->label, in_cell, e);
	fflush(stderr);
}

static void *progress_main(void *arg)
{
	struct progress *p = arg;

	while (!atomic_load(&p->stop)) {
		pthread_mutex_lock(&p->lock);
		if (atomic_load(&p->running))
			progress_draw(p);
		pthread_mutex_unlock(&p->lock);
		usleep(250000);
	}
	return NULL;
}

static void progress_start_cell(struct progress *p, const char *label, unsigned rep,
				unsigned repeats)
{
	char e[32];

	pthread_mutex_lock(&p->lock);
	p->label = label;
	p->cell_start = mono_ns();
	atomic_store(&p->running, true);
	if (!p->tty) {
		fmt_duration(e, sizeof(e), eta(p, 0));
		if (repeats > 1)
			fprintf(stderr, "sweep: cell %u/%u (repeat %u/%u): %s (ETA %s)\n", p->done + 1,
				p->total, rep + 1, repeats, label, e);
		else
			fprintf(stderr, "sweep: cell %u/%u: %s (ETA %s)\n", p->done + 1, p->total, label, e);
	} else {
		progress_draw(p);
	}
	pthread_mutex_unlock(&p->lock);
}

static void progress_end_cell(struct progress *p)
{
	pthread_mutex_lock(&p->lock);
	p->spent += since(&p->cell_start);
	p->done++;
	atomic_store(&p->running, false);
	pthread_mutex_unlock(&p->lock);
}

/* ---- running ---- */

/*
 * Lay out a target's file once, filled, through the runner (a one-block read job), so
 * that a write cell running first cannot leave a sparse file for the read cells after it.
 */
static void prepare_target(struct target *t, const struct sweep_args *a)
{
	struct job_list jobs = { 0 };
	struct run_results res = { 0 };
	struct job_parser p;
	struct iop_err err = { "" };
	int ret;

	t->prepared = true;
	job_parser_init(&p, &jobs);
	jobs.probes = (struct probe_set *)&a->probes;
	ret = job_parse_cli(&p, "name", "layout", &err);
	ret = ret ? ret : job_parse_cli(&p, "filename", t->file, &err);
	ret = ret ? ret : job_parse_cli(&p, "size", a->size, &err);
	ret = ret ? ret : job_parse_cli(&p, "rw", "read", &err);
	ret = ret ? ret : job_parse_cli(&p, "bs", "4k", &err);
	ret = ret ? ret : job_parse_cli(&p, "io_size", "4k", &err);
	ret = ret ? ret : job_parser_finish(&p, &err);
	ret = ret ? ret : run_jobs(&jobs, &res, &err);
	if (ret || run_failed(&res)) {
		char msg[sizeof(t->prep_err)];

		snprintf(msg, sizeof(msg), "cannot lay out the target's file: %.500s",
			 ret ? err.msg : res.res[0].errmsg);
		memcpy(t->prep_err, msg, sizeof(msg));
	}
	run_results_free(&res);
	job_list_free(&jobs);
}

/* What a fleet vote on one cell can say: go, skip it, or stop the sweep. */
enum { CELL_GO = 0, CELL_SKIP = 1, CELL_STOP = 2 };

/*
 * Under MPI every rank plans from its own probe of its own target: a cell one rank must skip
 * is skipped by all, with that rank's reason, so the ranks run the same cells in step.
 */
static void agree_skips(struct sweep_cell *cells, unsigned n)
{
	struct fleet_vote v;
	unsigned i;

	for (i = 0; i < n; i++) {
		if (fleet_vote(cells[i].skip ? CELL_SKIP : CELL_GO, cells[i].reason, n, &v))
			return;
		if (v.choice && !cells[i].skip) {
			cells[i].skip = true;
			snprintf(cells[i].reason, sizeof(cells[i].reason), "%s", v.why);
		}
	}
}

static int run_cells(struct sweep_cell *cells, unsigned n, struct sweep_args *a,
		     struct results *res, struct iop_err *err)
{
	struct progress prog = { .tty = isatty(STDERR_FILENO) };
	unsigned i, rep, runnable = 0;
	double runtime = 0, ramp = 0;
	int ret = 0;

	{
		struct job_spec *s = malloc(sizeof(*s));

		if (s) {
			job_defaults(s);
			if (!opt_apply(s, "runtime", a->runtime, "", NULL))
				runtime = (double)s->runtime_ns / 1e9;
			if (!opt_apply(s, "ramp_time", a->ramp, "", NULL))
				ramp = (double)s->ramp_ns / 1e9;
			free(s);
		}
	}
	for (i = 0; i < n; i++)
		runnable += !cells[i].skip;
	prog.total = runnable * a->repeat;
	prog.cell_expect = runtime + ramp + 0.2;
	pthread_mutex_init(&prog.lock, NULL);
	if (prog.tty && pthread_create(&prog.thread, NULL, progress_main, &prog))
		prog.tty = false;
	/* repeats interleaved: every cell once, then every cell again, so drift hits all alike */
	for (rep = 0; rep < a->repeat; rep++) {
		for (i = 0; i < n; i++) {
			struct sweep_cell *c = &cells[i];
			struct target *t = &a->targets[c->target];
			struct run_results rr = { 0 };
			struct fleet_vote v;
			struct cell *rc;
			int choice;

			if (c->skip)
				continue;
			if (c->disk && !t->prepared)
				prepare_target(t, a);
			/* the ranks go on, skip or stop together (alone: this process's own answer) */
			choice = interrupts ? CELL_STOP : c->disk && t->prep_err[0] ? CELL_SKIP : CELL_GO;
			if (fleet_vote(choice, choice == CELL_SKIP ? t->prep_err : "", 0, &v) ||
			    v.stop || v.choice == CELL_STOP)
				goto out;
			if (v.choice == CELL_SKIP) {
				rc = results_cell(res, c->identity, c->label);
				if (!rc || cell_set_status(rc, CELL_SKIPPED, v.why)) {
					ret = iop_errf(err, -ENOMEM, "out of memory");
					goto out;
				}
				prog.total -= prog.total > prog.done ? 1 : 0;
				continue;
			}
			progress_start_cell(&prog, c->label, rep, a->repeat);
			ret = run_jobs(&c->jobs, &rr, err);
			if (a->explain && fleet_size() > 1) {
				/* rank 0 also keeps each rank's own run, as that rank's target */
				char *note = explain_rank_note(t->role, t->dir, &a->probes, c->identity,
							       c->label);

				if (fleet_gather_run(&rr, note, explain_add_rank, res) < 0 || !note)
					ret = ret ? ret : iop_errf(err, -ENOMEM, "out of memory");
				free(note);
			} else {
				fleet_merge_run(&rr);	/* under MPI: rank 0's cell holds every rank's */
			}
			progress_end_cell(&prog);
			if (!ret)
				ret = results_add_run(res, &rr, c->identity, c->label, err);
			run_results_free(&rr);
			if (ret)
				goto out;
			if (interrupts > 1 || run_stop_requested())
				goto out;
		}
	}
out:
	atomic_store(&prog.stop, true);
	if (prog.tty) {
		pthread_join(prog.thread, NULL);
		fprintf(stderr, "\r\033[K");
		fflush(stderr);
	}
	pthread_mutex_destroy(&prog.lock);
	if (interrupts || run_stop_requested())
		res->interrupted = true;
	return ret;
}

/* --explain: the extra cells on every target, after the sweep's own, into the same result. */
static bool explain_progress(void *arg, const char *label, unsigned i, unsigned n)
{
	(void)arg;
	if (interrupts)
		return false;	/* Ctrl-C: stop after the running cell, as the sweep's own do */
	fprintf(stderr, "sweep: explain cell %u/%u: %s\n", i + 1, n, label);
	return true;
}

static int run_explain(struct sweep_args *a, struct results *res, struct iop_err *err)
{
	struct explain_target t[TARGETS_MAX];
	struct explain_opts o = { .size = a->size, .runtime = "1" };
	struct job_spec *s = malloc(sizeof(*s));
	unsigned i;
	int ret;

	/* a second per cell, or less when the sweep's own cells are shorter */
	if (s) {
		job_defaults(s);
		if (!opt_apply(s, "runtime", a->runtime, "", NULL) && s->runtime_ns &&
		    s->runtime_ns < 1000000000ull)
			o.runtime = a->runtime;
		free(s);
	}

	for (i = 0; i < a->nr_targets; i++)
		t[i] = (struct explain_target){ a->targets[i].role, a->targets[i].dir,
						a->targets[i].file };
	ret = explain_run(res, t, a->nr_targets, &a->probes, &o, explain_progress, NULL, err);
	if (interrupts || run_stop_requested())
		res->interrupted = true;
	return ret;
}

/*
 * --explain under MPI: the sweep's cells are every rank's together, over paths that may
 * differ, so they are kept as they are but not explained (their targets say so with the
 * number of ranks); rank 0 has kept each rank's own runs of them too, as one target per
 * rank, and every rank now runs explain's cells on its own path into that target. The ranks
 * agree first, so that all run them or none.
 */
static int run_explain_fleet(struct sweep_args *a, struct results *res, int ret,
			     struct iop_err *err)
{
	struct fleet_vote v;
	const json_t *e;
	size_t i;

	/* a rank that failed says why (stop); one that was interrupted says so (skip) */
	int choice = ret ? CELL_STOP : res->interrupted ? CELL_SKIP : CELL_GO;

	if (fleet_vote(choice, ret ? err->msg : "", a->nr_targets, &v) || v.stop ||
	    v.choice == CELL_SKIP) {
		res->interrupted = true;
		return ret;
	}
	if (ret)
		return ret;
	if (v.choice)
		return iop_errf(err, -EIO, "sweep --explain: %s", v.why);
	if (v.key_differs)
		return iop_errf(err, -EINVAL, "sweep --explain: rank %u names %s targets than rank 0; every rank needs the same --target list",
				v.key_rank, "a different number of");
	json_array_foreach(res->targets, i, e) {
		const char *role = json_string_value(json_object_get(e, "role"));
		unsigned k;

		for (k = 0; role && k < a->nr_targets; k++)
			if (!strcmp(role, a->targets[k].role))
				json_object_set_new((json_t *)e, "ranks", json_integer(fleet_size()));
	}
	return run_explain(a, res, err);
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

static int outputs(const struct sweep_args *a, const struct results *r)
{
	struct iop_err err = { "" };
	char dbpath[PATH_MAX];
	json_t *ex = NULL;
	int bad = 0;

	report_cells_table(stdout, r, a->cv_warn);
	if (a->explain) {
		ex = explain_results(r, &err);
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
		bad = 1;
	}
	if (a->json && ex && write_explained(a->json, r, ex, &err)) {
		fprintf(stderr, "iopath: --json: %s\n", err.msg);
		bad = 1;
	} else if (a->json && !ex && results_write(r, a->json, &err)) {
		fprintf(stderr, "iopath: --json: %s\n", err.msg);
		bad = 1;
	}
	if (a->plot && plot_sweep(r, a->plot, &err)) {
		fprintf(stderr, "iopath: --plot: %s\n", err.msg);
		bad = 1;
	}
	if (a->html && html_write_results(r, ex, a->html, &err)) {
		fprintf(stderr, "iopath: %s\n", err.msg);
		bad = 1;
	}
	if (a->save && save_to_db(r, db_spec(a->db, a->results_dir, dbpath, sizeof(dbpath))))
		bad = 1;
	json_decref(ex);
	return bad;
}

static void print_plan(const struct sweep_cell *cells, unsigned n, const struct sweep_args *a)
{
	unsigned i, runnable = 0;

	for (i = 0; i < n; i++) {
		runnable += !cells[i].skip;
		printf("%-8s %s%s%s\n", cells[i].skip ? "skip" : "run", cells[i].label,
		       cells[i].skip ? ": " : "", cells[i].skip ? cells[i].reason : "");
	}
	printf("%u cells, %u to run, %u skipped, %u repeat(s)\n", n, runnable, n - runnable,
	       a->repeat);
	if (a->explain)
		printf("--explain: then on every target a 4 KiB random-read ladder at iodepth 1, 4, 16 and 64 (io_uring, direct=1), the same buffered, 1 MiB reads and 4 KiB writes with fsync: 7 cells each\n");
}

/*
 * The file a target's cells use: created here, exclusively and marked as iopath's, before it
 * is registered for removal, so that a file already there under that name is neither used nor
 * removed (another name is taken). A dry run only names it.
 */
static int target_file(struct target *t, unsigned i, bool dry_run, struct iop_err *err)
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

	if (!a->nr_targets && add_target(a, ".", err))
		return -EINVAL;
	for (i = 0; i < a->nr_targets; i++) {
		struct target *t = &a->targets[i];
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
		/* the trials tell what the path refuses; they write a small temporary file */
		d = probe_set_need(&a->probes, t->dir, dry_run ? 0 : PROBE_TRIALS |
				   (a->explain ? PROBE_TIMING : 0));
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
	struct sweep_cell *cells = NULL;
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
		const char *dflt = a.workload.n ? NULL : "";

		default_engines(&a.engine);
		list_default(&a.direct, dflt ? "1" : NULL);
		list_default(&a.bs, dflt ? "4k" : NULL);
		list_default(&a.iodepth, dflt ? "1" : NULL);
		list_default(&a.numjobs, dflt ? "1" : NULL);
		if (!a.workload.n)
			list_default(&a.rw, "randread");
		ret = validate(&a, &err);
	}
	for (i = 0; !ret && i < a.nr_labels; i++)
		ret = results_add_label(&res, a.labels[i], &err);
	if (a.save)
		snprintf(res.name, sizeof(res.name), "%s", a.save);
	ret = ret ? ret : setup_targets(&a, &res, a.dry_run, &err);
	ret = ret ? ret : plan_cells(&a, &cells, &n, &err);
	if (ret) {
		fprintf(stderr, "iopath: %s\n", err.msg);
		goto out;
	}
	agree_skips(cells, n);
	if (a.dry_run) {
		print_plan(cells, n, &a);
		code = 0;
		goto out;
	}
	/* every cell in plan order; skipped ones are listed with their reason, not dropped */
	for (i = 0; i < n; i++) {
		struct cell *c = results_cell(&res, cells[i].identity, cells[i].label);

		if (!c || (cells[i].skip && cell_set_status(c, CELL_SKIPPED, cells[i].reason))) {
			fprintf(stderr, "iopath: out of memory\n");
			goto out;
		}
	}
	install_sweep_signals();
	ret = run_cells(cells, n, &a, &res, &err);
	if (a.explain && fleet_size() > 1)
		ret = run_explain_fleet(&a, &res, ret, &err);
	else if (!ret && a.explain && !res.interrupted)
		ret = run_explain(&a, &res, &err);
	for (i = 0; i < a.nr_targets; i++) {
		char side[sizeof(a.targets[i].file)];

		tempfiles_remove(a.targets[i].file);
		if (!target_sidecar_path(a.targets[i].file, side, sizeof(side)))
			tempfiles_remove(side);
	}
	for (i = 0; i < res.nr; i++)
		if (res.cells[i].status == CELL_OK && !res.cells[i].nr)
			cell_set_status(&res.cells[i], CELL_INTERRUPTED, "not run: the sweep was interrupted");
	if (ret) {
		fprintf(stderr, "iopath: %s\n", err.msg);
		code = EXIT_JOB_FAILED;
	}
	/* under MPI only rank 0 writes: its cells are the merged ones */
	code = !fleet_rank() && outputs(&a, &res) ? EXIT_JOB_FAILED :
	       code == EXIT_JOB_FAILED ? code : 0;
	if (res.interrupted)
		code = EXIT_INTERRUPTED;
	else if (!code)
		for (i = 0; i < res.nr; i++)
			if (res.cells[i].status == CELL_FAILED)
				code = EXIT_JOB_FAILED;
out:
	cells_free(cells, n);
	probe_set_free(&a.probes);
	list_free(&a.engine);
	list_free(&a.direct);
	list_free(&a.bs);
	list_free(&a.iodepth);
	list_free(&a.numjobs);
	list_free(&a.rw);
	list_free(&a.workload);
	results_free(&res);
	return code;
}
