/*
 * iopath history [DIR|SELECTOR]: each cell's metric across saved runs, ordered by time or a
 * label's version, with the steps where a cell changed between adjacent versions.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "base/atomic.h"
#include "cli/cmdargs.h"
#include "cli/commands.h"
#include "cli/htmlout.h"
#include "report/report.h"
#include "results/history.h"
#include "results/plot.h"
#include "results/report_cells.h"
#include "results/results.h"
#include "results/store.h"

static void usage(FILE *f)
{
	command_usage(f, "history");
	fprintf(f,
		"  DIR                   result files (e.g. exported runs), searched recursively\n"
		"  SELECTOR              runs of the results database: KEY=VALUE, latest~N, run:ID\n"
		"                        (a comma list: any of them); default: every run\n"
		"  --db PATH|URI         the database (default: $IOPATH_DB, else results/iopath.db)\n"
		"  --label KEY=VALUE     only runs with this label (several: all of them)\n"
		"  --name NAME           only runs saved under this name (--save=NAME)\n"
		"  --metric LIST         iops,bw,clat_p50,clat_p99,clat_p99.9 (default: iops)\n"
		"  --by LABEL            order runs by this --label's value (version order), not time;\n"
		"                        the runs of one value are pooled as its repeats\n"
		"  --threshold P, --alpha A   the step test, as compare's (default 5%%, 0.05)\n"
		"  --plot DIR            a chart per metric: each cell's median across the runs,\n"
		"                        its steps ringed\n"
		"  --json[=FILE]         the history as JSON (on stdout instead of the table)\n"
		"  --html FILE           one self-contained HTML page: each cell's line across the\n"
		"                        runs with its steps, and the latest run in full\n"
		"  --strict              count cells of the newest step that cannot be judged as\n"
		"                        regressions (exit 1)\n"
		"  --allow-inconclusive  exit 0, not 3, when the newest step cannot be judged\n"
		"  --ignore-environment  judge a regression even when what else used the machine\n"
		"                        (CPU, steal, the disk) differed enough to explain it\n"
		"A step: between two adjacent versions (or runs), a change compare's test calls a\n"
		"regression or an improvement (compare's correction over the step's cells and metrics).\n"
		"exit: as compare's, of the newest group against the one before it: 0 judged and no\n"
		"      regression, 1 a step for the worse (or a cell failed in the newest, or an\n"
		"      output failed at the end: the history is kept in the fallback file named\n"
		"      on stderr), 2 bad input, 3 it cannot be judged (one group only, no cell in\n"
		"      common, too few repeats, or the environment differed enough to explain the\n"
		"      step)\n");
}

#define FILTERS_MAX 16

struct history_args {
	const char *src, *db, *plot, *json, *by, *name, *html;
	const char *labels[FILTERS_MAX];
	unsigned nr_labels, metrics;
	bool json_stdout;
	struct cmp_opts o;
};

static const char *by_label;

static int order_cmp(const void *a, const void *b)
{
	const struct results *x = *(struct results *const *)a, *y = *(struct results *const *)b;

	if (by_label) {
		const char *vx = json_string_value(json_object_get(x->labels, by_label));
		const char *vy = json_string_value(json_object_get(y->labels, by_label));
		int c = strverscmp(vx ? vx : "", vy ? vy : "");

		if (c)
			return c;
	}
	return x->timestamp_ms < y->timestamp_ms ? -1 : x->timestamp_ms > y->timestamp_ms;
}

/*
 * Each group's shortest distinct name into xl[i] (160 bytes, allocated) and what the axis of
 * them is: the label, or the time with the day (or year) all share said once.
 */
static int name_groups(struct results *const *groups, unsigned ng, const char *by, char **xl,
		       char *axis, size_t alen, struct iop_err *err)
{
	char shared[16];
	unsigned i;

	for (i = 0; i < ng; i++)
		if (!(xl[i] = malloc(160)))
			return iop_errf(err, -ENOMEM, "out of memory");
	history_names(groups, ng, by, xl, 160, shared, sizeof(shared));
	if (by)
		snprintf(axis, alen, "%s", by);
	else
		snprintf(axis, alen, "time (UTC%s%s)", *shared ? ", " : "", shared);
	return 0;
}

static const struct hist_step *step_at(const struct hist_step *s, unsigned ns, const char *key,
				       unsigned at)
{
	unsigned i;

	for (i = 0; i < ns; i++)
		if (s[i].at == at && !strcmp(s[i].to->key, key))
			return &s[i];
	return NULL;
}

/* Is cell (by key) first seen in group g? */
static bool first_seen(struct results *const *g, unsigned i, const char *key)
{
	unsigned k;

	for (k = 0; k < i; k++)
		if (results_find(g[k], key))
			return false;
	return true;
}

static void print_trend(struct results *const *g, unsigned nr, char **xl, enum metric_id m,
			const struct hist_step *steps, unsigned ns)
{
	const struct metric_def *d = &metric_table[m];
	bool unit = strcmp(d->title, d->unit) != 0;
	unsigned i, c, k, w = 24;
	char v[40];

	for (i = 0; i < nr; i++)
		for (c = 0; c < g[i]->nr; c++)
			if (strlen(g[i]->cells[c].label) > w)
				w = (unsigned)strlen(g[i]->cells[c].label);
	if (w > 70)
		w = 70;
	printf("\n%s%s%s%s, median per run (~: repeats varied more than %.0f%%; !: a regression\n"
	       "from the run before, +: an improvement, by compare's test)\n%-*s",
	       d->title, unit ? " (" : "", unit ? d->unit : "", unit ? ")" : "",
	       CV_WARN_DEFAULT * 100, (int)w, "cell");
	for (i = 0; i < nr; i++)
		printf("  %16.16s", xl[i]);
	printf("  %8s\n", "last/1st");
	for (i = 0; i < nr; i++) {
		for (c = 0; c < g[i]->nr; c++) {
			const struct cell *cell = &g[i]->cells[c];
			double firstv = NAN, lastv = NAN;

			if (!first_seen(g, i, cell->key))
				continue;
			printf("%-*.*s", (int)w, (int)w, cell->label);
			for (k = 0; k < nr; k++) {
				const struct cell *x = results_find(g[k], cell->key);
				const struct hist_step *st = step_at(steps, ns, cell->key, k);
				struct rsummary s;

				if (x && !cell_summary(x, m, &s)) {
					fmt_metric(v, sizeof(v), m, s.median);
					if (isnan(firstv))
						firstv = s.median;
					lastv = s.median;
					if (s.n > 1 && s.cv > CV_WARN_DEFAULT)
						strncat(v, "~", sizeof(v) - strlen(v) - 1);
					if (st)
						strncat(v, st->m.verdict == CMP_REGRESSION ? " !" : " +",
							sizeof(v) - strlen(v) - 1);
				} else {
					snprintf(v, sizeof(v), "-");
				}
				printf("  %16s", v);
			}
			if (!isnan(firstv) && firstv != 0)
				printf("  %+7.1f%%\n", 100 * (lastv / firstv - 1));
			else
				printf("  %8s\n", "-");
		}
	}
	for (i = 0; i < ns; i++) {
		bound_text(v, sizeof(v), &steps[i].m);
		printf("step: %s: %s %s %+.1f%% at %s (from %s; %.4g%% one-sided bound %s, adjusted p = %.2g, %u vs %u repeats)\n",
		       steps[i].to->label, d->name, cmp_verdict_name(steps[i].m.verdict),
		       100 * steps[i].m.change, xl[steps[i].at], xl[steps[i].at - 1],
		       100 * steps[i].m.level, v, steps[i].m.p_adj, steps[i].m.nb, steps[i].m.nc);
	}
}

static const char *outcome(int code)
{
	return code == CMP_EXIT_REGRESSED ? "regressed" : code == CMP_EXIT_INCONCLUSIVE ?
	       "inconclusive" : "judged";
}

/* The exit status's reason: the newest group against the one before it. */
static void print_newest(struct cmp_report *reps, unsigned ng, char **xl, int code,
			 const struct cmp_opts *o)
{
	const struct cmp_report *r = ng > 1 ? &reps[ng - 2] : NULL;

	if (!r) {
		printf("\nnewest: %s is the only group: nothing to judge it against (%s)\n", xl[0],
		       o->allow_inconclusive ? "--allow-inconclusive: exit 0" : "exit 3");
		return;
	}
	printf("\nnewest: %s against %s: %u cell(s) compared, %u regression(s), %u failed, %u could not be judged: %s (exit %d)\n",
	       xl[ng - 1], xl[ng - 2], r->nr, r->regressions, r->failed, r->inconclusive_cells,
	       outcome(code), code);
}

static json_t *num(double v)
{
	return isnan(v) || isinf(v) ? json_null() : json_real(v);
}

/* The history of one metric: every cell's summary per group, and its steps. */
static json_t *metric_json(struct results *const *g, unsigned nr, enum metric_id m,
			   const struct hist_step *steps, unsigned ns)
{
	json_t *cells = json_array(), *jsteps = json_array();
	unsigned i, c, k;

	for (i = 0; i < nr; i++) {
		for (c = 0; c < g[i]->nr; c++) {
			const struct cell *cell = &g[i]->cells[c];
			json_t *vals;

			if (!first_seen(g, i, cell->key))
				continue;
			vals = json_array();
			for (k = 0; k < nr; k++) {
				const struct cell *x = results_find(g[k], cell->key);
				struct rsummary s;

				if (x && !cell_summary(x, m, &s))
					json_array_append_new(vals, json_pack("{s:i, s:o, s:o, s:o, s:o, s:o}",
						"n", (json_int_t)s.n, "median", num(s.median), "min", num(s.min),
						"max", num(s.max), "cv", num(s.n > 1 ? s.cv : NAN),
						"status", json_string(cell_status_name(x->status))));
				else
					json_array_append_new(vals, json_null());
			}
			json_array_append_new(cells, json_pack("{s:s, s:s, s:O, s:o}", "key", cell->key,
							       "label", cell->label, "identity",
							       cell->identity, "values", vals));
		}
	}
	for (i = 0; i < ns; i++) {
		const struct cmp_metric *cm = &steps[i].m;

		json_array_append_new(jsteps, json_pack("{s:s, s:s, s:i, s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:i, s:i}",
			"key", steps[i].to->key, "label", steps[i].to->label, "at", (json_int_t)steps[i].at,
			"verdict", cmp_verdict_name(cm->verdict), "before", num(cm->base),
			"after", num(cm->cur), "change", num(cm->change), "change_gm", num(cm->gm_change),
			"change_ci_lo", num(cm->ci_lo), "change_ci_hi", num(cm->ci_hi),
			"p", num(cm->p), "df", num(cm->df), "n_before", (json_int_t)cm->nb,
			"n_after", (json_int_t)cm->nc));
		json_object_update_missing_new(json_array_get(jsteps, json_array_size(jsteps) - 1),
					       json_pack("{s:o, s:o, s:b, s:i}", "p_adj", num(cm->p_adj),
							 "ci_level", num(cm->level), "env_explained",
							 cm->env_explained, "pairs", (json_int_t)cm->pairs));
	}
	return json_pack("{s:o, s:o}", "cells", cells, "steps", jsteps);
}

/* The whole history as JSON: groups, every metric's cells and steps, the verdict. */
static json_t *history_root(const struct history_args *a, struct results *const *groups,
			    unsigned ng, unsigned nr, char **xl, const char *axis, char **srcs,
			    const unsigned *members,
			    struct hist_step *const *steps, const unsigned *nsteps,
			    const struct cmp_report *reps, int verdict)
{
	json_t *root = json_object(), *jg = json_array(), *jm = json_object();
	unsigned i, m, from = 0;

	if (!root || !jg || !jm) {
		json_decref(root);
		json_decref(jg);
		json_decref(jm);
		return NULL;
	}
	for (i = 0; i < ng; i++) {
		json_t *js = json_array();

		for (unsigned k = 0; k < members[i]; k++)
			json_array_append_new(js, json_string(srcs[from + k]));
		from += members[i];
		struct env_side env;

		env_of_results(groups[i], &env);
		json_array_append_new(jg, json_pack("{s:s, s:s, s:I, s:O, s:i, s:o, s:o}", "label", xl[i],
						    "source", groups[i]->source, "timestamp_ms",
						    (json_int_t)groups[i]->timestamp_ms, "labels",
						    groups[i]->labels, "runs", (int)members[i],
						    "sources", js, "environment", report_env_json(&env)));
	}
	/* the newest step's environment, as compare's JSON gives it */
	if (ng > 1) {
		const struct cmp_report *last = &reps[ng - 2];

		json_object_set_new(root, "environment", json_pack("{s:o, s:o, s:i, s:o, s:b}",
				    "base", report_env_json(&last->env_base), "cur",
				    report_env_json(&last->env_cur), "explained_regressions",
				    (json_int_t)last->env_explained, "why", last->env_why[0] ?
				    json_string(last->env_why) : json_null(), "ignored",
				    a->o.ignore_env));
	} else {
		json_object_set_new(root, "environment", json_null());
	}
	for (m = 0; m < MET_NR; m++)
		if (a->metrics & (1u << m))
			json_object_set_new(jm, metric_table[m].name,
					    metric_json(groups, ng, m, steps[m], nsteps[m]));
	json_object_set_new(root, "by", a->by ? json_string(a->by) : json_null());
	/* what the groups' labels are: the label's values, or times without the day they share */
	json_object_set_new(root, "axis", json_string(axis));
	json_object_set_new(root, "threshold", json_real(a->o.threshold));
	json_object_set_new(root, "alpha", json_real(a->o.alpha));
	json_object_set_new(root, "test", json_string("compare's: Welch t on the log repeats (ranks, the Hodges-Lehmann shift with Mann-Whitney, from 6 repeats a side), one-sided against the threshold, Benjamini-Hochberg over each step's cells and metrics, between adjacent groups"));
	json_object_set_new(root, "exit_code", json_integer(verdict));
	json_object_set_new(root, "outcome", json_string(outcome(verdict)));
	json_object_set_new(root, "runs", json_integer(nr));
	json_object_set_new(root, "groups", jg);
	json_object_set_new(root, "metrics", jm);
	return root;
}

static int parse(int argc, char **argv, struct history_args *a, struct iop_err *err)
{
	const struct arg_opt opts[] = {
		{ "metric", ARG_METRICS, { .u = &a->metrics } },
		{ "by", ARG_STRING, { .s = &a->by } },
		{ "plot", ARG_STRING, { .s = &a->plot } },
		{ "html", ARG_HTML, { .s = &a->html } },
		{ "db", ARG_STRING, { .s = &a->db } },
		{ "name", ARG_STRING, { .s = &a->name } },
		{ "threshold", ARG_PERCENT, { .d = &a->o.threshold } },
		{ "alpha", ARG_ALPHA, { .d = &a->o.alpha } },
		{ NULL },
	};
	const char *v;
	int i, ret;

	a->metrics = 1u << MET_IOPS;
	a->o = (struct cmp_opts){ .threshold = 0.05, .alpha = 0.05 };
	for (i = 1; i < argc; i++) {
		/* a tail --metric names but that cannot be judged makes the compare inconclusive */
		a->o.metrics_given |= !strncmp(argv[i], "--metric", 8);
		if ((ret = arg_table(argc, argv, &i, opts, err))) {
			if (ret < 0)
				return ret;
		} else if ((ret = arg_value(argc, argv, &i, "label", &v, err))) {
			if (ret < 0)
				return ret;
			if (!strchr(v, '=') || *v == '=' || a->nr_labels == FILTERS_MAX)
				return iop_errf(err, -EINVAL, "history: --label '%s': expected KEY=VALUE (at most %d)",
						v, FILTERS_MAX);
			a->labels[a->nr_labels++] = v;
		} else if (cmp_flag_arg(argv[i], &a->o)) {
			continue;
		} else if (!strcmp(argv[i], "--json")) {
			a->json_stdout = true;
		} else if (!strncmp(argv[i], "--json=", 7) && argv[i][7]) {
			a->json = argv[i] + 7;
		} else if (!strncmp(argv[i], "--", 2) || a->src) {
			return iop_errf(err, -EINVAL, "history: unexpected argument '%s' (see iopath history --help)",
					argv[i]);
		} else {
			a->src = argv[i];
		}
	}
	a->o.metrics = a->metrics;
	return a->json ? atomic_check_as("--json", a->json, err) : 0;
}

/* Does the run carry every --label filter and the --name? */
static bool wanted(const struct history_args *a, const struct results *r)
{
	unsigned i;

	if (a->name && strcmp(r->name, a->name))
		return false;
	if (a->by && !json_object_get(r->labels, a->by))
		return false;
	for (i = 0; i < a->nr_labels; i++) {
		const char *eq = strchr(a->labels[i], '=');
		char key[128];
		const char *val;

		snprintf(key, sizeof(key), "%.*s", (int)(eq - a->labels[i]), a->labels[i]);
		val = json_string_value(json_object_get(r->labels, key));
		if (!val || strcmp(val, eq + 1))
			return false;
	}
	return true;
}

/* Load the runs: the files under a directory, or the database's runs. */
static int load_runs(const struct history_args *a, struct results **out, unsigned *nr,
		     struct iop_err *err)
{
	struct results *runs = NULL;
	struct stat sb;
	unsigned i, n = 0, have = 0;
	char **files = NULL;
	int64_t *ids = NULL;
	struct seen_runs seen = { 0 };
	const char *first;
	struct store st;
	int ret = 0, nf = 0, met;
	bool dir = a->src && !stat(a->src, &sb) && S_ISDIR(sb.st_mode);

	if (dir) {
		nf = list_json_files(a->src, true, &files, err);
		if (nf < 0)
			return nf;
		if (!nf)
			return iop_errf(err, -ENOENT, "history: no .json result files under %s", a->src);
		n = (unsigned)nf;
	} else {
		if (a->src && !store_is_selector(a->src))
			return iop_errf(err, -ENOENT, "history: '%s' is neither a directory nor a run selector (KEY=VALUE, latest~N, run:ID)",
					a->src);
		ret = store_open(&st, a->db ? a->db : store_default_db(), false, err);
		if (ret)
			return ret;
		ret = store_run_ids(&st, a->src, &ids, &n, err);
		if (ret)
			goto out;
	}
	runs = calloc(n ? n : 1, sizeof(*runs));
	if (!runs) {
		ret = iop_errf(err, -ENOMEM, "out of memory");
		goto out;
	}
	for (i = 0; i < n; i++) {
		struct iop_err e = { "" };

		ret = dir ? results_load(files[i], &runs[have], &e) : store_load_run(&st, ids[i], &runs[have], &e);
		if (ret) {
			if (!dir) {
				*err = e;
				goto out;
			}
			fprintf(stderr, "iopath: history: skipping %s\n", e.msg);
			ret = 0;
			continue;
		}
		if (!wanted(a, &runs[have])) {
			results_free(&runs[have]);
			continue;
		}
		met = dir ? seen_meet(&seen, &runs[have], &first) : 0;
		if (met) {
			if (met > 0)
				fprintf(stderr, "iopath: history: skipping %s: the same run as %s\n",
					files[i], first);
			results_free(&runs[have]);
			if (met < 0) {
				ret = iop_errf(err, met, "out of memory");
				goto out;
			}
			continue;
		}
		have++;
	}
	if (!have)
		ret = iop_errf(err, -ENOENT, "history: no run%s%s%s%s", a->by ? " with the label " : "",
			       a->by ? a->by : "", a->nr_labels || a->name ? " matching the filters" : "",
			       n ? "" : " saved yet");
out:
	if (ret) {
		for (i = 0; i < have; i++)
			results_free(&runs[i]);
		free(runs);
		runs = NULL;
		have = 0;
	}
	if (dir)
		free_list(files, nf);
	else
		store_close(&st);
	seen_free(&seen);
	free(ids);
	*out = runs;
	*nr = have;
	return ret;
}

/* The history's page: every cell's line with its steps, then the latest run in full. */
static int write_html(const char *path, json_t *hist, const struct results *latest,
		      struct iop_err *err)
{
	struct html_set set = { 0 };
	int ret = html_add_json(&set, json_incref(hist), "history", err);

	if (!ret)
		ret = html_add_results(&set, latest, latest->source, err);
	if (!ret)
		ret = html_set_write(&set, "iopath history", path, err);
	html_set_free(&set);
	return ret;
}

/* --plot: a chart per metric asked for. 0 or -errno (err says why). */
static int plot_all(const struct history_args *a, struct results *const *groups, unsigned ng,
		    unsigned nr, char **xl, const char *axis, struct hist_step *const *steps,
		    const unsigned *nsteps, struct iop_err *err)
{
	struct results *sorted = malloc(ng * sizeof(*sorted));
	unsigned i, m;
	int ret = 0;

	if (!sorted)
		return iop_errf(err, -ENOMEM, "out of memory");
	for (i = 0; i < ng; i++)
		sorted[i] = *groups[i];
	for (m = 0; m < MET_NR && !ret; m++)
		if (a->metrics & (1u << m))
			ret = plot_history(sorted, ng, nr, (const char *const *)xl, m, axis, steps[m],
					   nsteps[m], a->plot, err);
	free(sorted);
	return ret;
}

/*
 * The outputs asked for, root (the history's JSON) to --json, --html and --plot; the first
 * option whose output failed (each said on stderr), or NULL.
 */
static const char *write_outputs(const struct history_args *a, json_t *root,
				 const struct results *latest, struct results *const *groups,
				 unsigned ng, unsigned nr, char **xl, const char *axis,
				 struct hist_step *const *steps, const unsigned *nsteps)
{
	struct iop_err err = { "" };
	const char *failed = NULL;

	if (a->json_stdout || a->json) {
		int ret = report_json_write(root, a->json);

		if (ret) {
			fprintf(stderr, "iopath: --json %s: %s\n", a->json ? a->json : "stdout", strerror(-ret));
			failed = "--json";
		}
	}
	if (a->html && write_html(a->html, root, latest, &err)) {
		fprintf(stderr, "iopath: %s\n", err.msg);
		failed = failed ? failed : "--html";
	}
	if (a->plot && plot_all(a, groups, ng, nr, xl, axis, steps, nsteps, &err)) {
		fprintf(stderr, "iopath: --plot: %s\n", err.msg);
		failed = failed ? failed : "--plot";
	}
	return failed;
}

int cmd_history(int argc, char **argv)
{
	struct history_args a = { 0 };
	struct results *runs = NULL, **order = NULL, **groups = NULL;
	struct hist_step *steps[MET_NR] = { NULL };
	unsigned nsteps[MET_NR] = { 0 }, nr = 0, ng = 0, m, i, *members = NULL;
	struct iop_err err = { "" };
	struct cmp_report *reps = NULL;
	char **xl = NULL, **srcs = NULL, axis[160];
	int code = EXIT_USAGE, verdict = 0;
	const char *failed = NULL;
	json_t *root = NULL;

	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		usage(stdout);
		return 0;
	}
	if (parse(argc, argv, &a, &err) ||
	    (a.plot && plot_check_dir("--plot", a.plot, &err)) ||
	    load_runs(&a, &runs, &nr, &err))
		goto bad;
	order = calloc(nr, sizeof(*order));
	groups = calloc(nr, sizeof(*groups));
	xl = calloc(nr, sizeof(*xl));
	members = calloc(nr, sizeof(*members));
	srcs = calloc(nr, sizeof(*srcs));
	if (!order || !groups || !xl || !members || !srcs) {
		iop_errf(&err, -ENOMEM, "out of memory");
		goto bad;
	}
	for (i = 0; i < nr; i++)
		order[i] = &runs[i];
	by_label = a.by;
	qsort(order, nr, sizeof(*order), order_cmp);
	/* each run's source, kept: pooling frees the runs merged into their group */
	for (i = 0; i < nr; i++)
		if (!(srcs[i] = strdup(order[i]->source))) {
			iop_errf(&err, -ENOMEM, "out of memory");
			goto bad;
		}
	if (history_group(order, nr, a.by, groups, members, &ng, &err))
		goto bad;
	if (name_groups(groups, ng, a.by, xl, axis, sizeof(axis), &err))
		goto bad;
	if (history_judge(groups, ng, &a.o, &reps, &err))
		goto bad;
	for (m = 0; m < MET_NR; m++)
		if ((a.metrics & (1u << m)) &&
		    history_steps(groups, ng, m, reps, &steps[m], &nsteps[m], &err))
			goto bad;
	verdict = history_exit_code(reps, ng, &a.o);
	if (!a.json_stdout) {
		printf("%u run(s) from %s, ordered by %s%s\n", nr, a.src ? a.src : "the database",
		       axis, ng < nr ? " (runs of one value pooled)" : "");
		for (m = 0; m < MET_NR; m++)
			if (a.metrics & (1u << m))
				print_trend(groups, ng, xl, m, steps[m], nsteps[m]);
		print_newest(reps, ng, xl, verdict, &a.o);
	}
	if (a.json_stdout || a.json || a.html || a.plot) {
		root = history_root(&a, groups, ng, nr, xl, axis, srcs, members, steps, nsteps,
				    reps, verdict);
		if (!root) {
			iop_errf(&err, -ENOMEM, "out of memory");
			goto bad;
		}
	}
	failed = write_outputs(&a, root, order[nr - 1], groups, ng, nr, xl, axis, steps, nsteps);
	/* an output checked at the start that failed at the end: the history is kept, exit 1 */
	if (failed)
		json_keep(root, failed, false);
	code = failed ? EXIT_JOB_FAILED : verdict;
	goto out;
bad:
	fprintf(stderr, "iopath: %s\n", err.msg);
out:
	for (i = 0; runs && i < nr; i++)
		results_free(&runs[i]);
	for (i = 0; xl && i < ng; i++)
		free(xl[i]);
	for (i = 0; srcs && i < nr; i++)
		free(srcs[i]);
	free(srcs);
	free(members);
	for (m = 0; m < MET_NR; m++)
		free(steps[m]);
	history_reports_free(reps, ng > 1 ? ng - 1 : 0);
	free(xl);
	free(runs);
	free(order);
	free(groups);
	json_decref(root);
	return code;
}
