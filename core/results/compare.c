/* Comparing two results cell by cell: matching, per-metric change, significance, verdicts. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/compare.h"


static const char *const verdict_names[] = {
	[CMP_FAILED] = "failed in CUR",
	[CMP_BASE_FAILED] = "failed in BASE",
	[CMP_REGRESSION] = "regression",
	[CMP_IMPROVEMENT] = "improvement",
	[CMP_UNJUDGED] = "cannot judge",
	[CMP_NOISE] = "within noise",
	[CMP_UNCHANGED] = "unchanged",
	[CMP_NO_DATA] = "no data",
};

const char *cmp_verdict_name(enum cmp_verdict v)
{
	return v <= CMP_NO_DATA ? verdict_names[v] : "?";
}

bool cmp_fails(const struct cmp_metric *m, const struct cmp_opts *o)
{
	return m->verdict == CMP_FAILED || m->verdict == CMP_REGRESSION ||
	       (o->strict && m->inconclusive);
}

int cmp_exit_code(const struct cmp_report *rep, const struct cmp_opts *o)
{
	unsigned i, k, fails = 0;

	for (i = 0; i < rep->nr; i++)
		for (k = 0; k < rep->rows[i].nr; k++)
			fails += cmp_fails(&rep->rows[i].met[k], o);
	if (fails)
		return CMP_EXIT_REGRESSED;
	return rep->inconclusive && !o->allow_inconclusive ? CMP_EXIT_INCONCLUSIVE : 0;
}

static double mean(const double *x, unsigned n)
{
	double sum = 0;
	unsigned i;

	for (i = 0; i < n; i++)
		sum += x[i];
	return sum / n;
}

/*
 * The test: Welch's t on the logarithms of the repeats, one-sided in the direction the
 * geometric means moved, against the threshold rather than against zero. A regression is a
 * change shown (p < alpha) to be worse than the threshold, not merely a change of any size
 * shown to be nonzero, so that two runs of the same configuration are not flagged for the
 * few percent they always differ by. Logarithms make a change of x% the same difference at
 * every scale and suit positive, right-skewed figures such as IOPS and latency.
 */
int cmp_judge_values(const double *xb, unsigned nb, const double *xc, unsigned nc,
		     bool higher_better, const struct cmp_opts *o, struct cmp_metric *out)
{
	double *lb = NULL, *lc = NULL, margin;
	struct rsummary sb, sc;
	struct welch_result w;
	unsigned i, zeros = 0;
	bool worse;
	int ret = 0;

	out->nb = nb;
	out->nc = nc;
	out->ci_lo = out->ci_hi = out->p = out->df = out->gm_change = NAN;
	out->inconclusive = false;
	if (!nb || !nc)
		return -EINVAL;
	if (rstats_summary(xb, nb, &sb) || rstats_summary(xc, nc, &sc))
		return -ENOMEM;
	out->base = sb.median;
	out->cur = sc.median;
	out->cv_base = sb.cv;
	out->cv_cur = sc.cv;
	out->change = sb.median != 0 ? sc.median / sb.median - 1 : (sc.median != 0 ? INFINITY : 0);
	if (nb < 2 || nc < 2) {
		out->verdict = CMP_UNJUDGED;
		out->inconclusive = true;
		if (nb < 2 && nc < 2)
			snprintf(out->note, sizeof(out->note),
				 "single samples, no test possible (use --repeat %u)", CMP_REPEAT_DEFAULT);
		else
			snprintf(out->note, sizeof(out->note),
				 "%u vs %u repeats: the test needs 2 a side (use --repeat %u)", nb, nc,
				 CMP_REPEAT_DEFAULT);
		return 0;
	}
	for (i = 0; i < nb; i++)
		zeros += !(xb[i] > 0);
	for (i = 0; i < nc; i++)
		zeros += !(xc[i] > 0);
	if (zeros) {
		bool all_zero = zeros == nb + nc;

		out->verdict = all_zero ? CMP_UNCHANGED : CMP_UNJUDGED;
		out->inconclusive = !all_zero;
		if (!all_zero)
			snprintf(out->note, sizeof(out->note),
				 "%u repeat(s) measured 0: no test on a log scale", zeros);
		return 0;
	}
	lb = malloc(nb * sizeof(*lb));
	lc = malloc(nc * sizeof(*lc));
	if (!lb || !lc) {
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0; i < nb; i++)
		lb[i] = log(xb[i]);
	for (i = 0; i < nc; i++)
		lc[i] = log(xc[i]);
	/* the direction the geometric means moved decides which margin is tested */
	w.diff = mean(lc, nc) - mean(lb, nb);
	if (w.diff < 0)
		margin = o->threshold < 1 ? log1p(-o->threshold) : -INFINITY;
	else
		margin = log1p(o->threshold);
	ret = rstats_welch(lb, nb, lc, nc, margin, w.diff < 0 ? RSTATS_LESS : RSTATS_GREATER,
			   0.95, &w);
	if (ret)
		goto out;
	out->p = w.p;
	out->df = w.df;
	out->gm_change = expm1(w.diff);
	out->ci_lo = expm1(w.ci_lo);
	out->ci_hi = expm1(w.ci_hi);
	worse = higher_better ? w.diff < 0 : w.diff > 0;
	if (w.p < o->alpha)
		out->verdict = worse ? CMP_REGRESSION : CMP_IMPROVEMENT;
	else if (fabs(out->change) <= o->threshold)
		out->verdict = CMP_UNCHANGED;
	else {
		out->verdict = CMP_NOISE;
		snprintf(out->note, sizeof(out->note), "p = %.2g for a change beyond %g%%", w.p,
			 o->threshold * 100);
	}
out:
	free(lb);
	free(lc);
	return ret;
}

/* One metric of one matched cell. */
static int judge(const struct cell *b, const struct cell *c, enum metric_id m,
		 const struct cmp_opts *o, struct cmp_metric *out)
{
	const struct metric_def *def = &metric_table[m];
	double *xb = malloc((b->nr ? b->nr : 1) * sizeof(double));
	double *xc = malloc((c->nr ? c->nr : 1) * sizeof(double));
	int ret = 0;

	memset(out, 0, sizeof(*out));
	out->m = m;
	out->ci_lo = out->ci_hi = out->p = out->df = out->gm_change = NAN;
	if (!xb || !xc) {
		ret = -ENOMEM;
		goto out;
	}
	out->nb = cell_values(b, m, xb);
	out->nc = cell_values(c, m, xc);
	if (!out->nb || !out->nc) {
		const struct cell *none = !out->nb ? b : c;

		out->verdict = CMP_NO_DATA;
		/* not measured on either side, alike: nothing is missing from the comparison */
		out->inconclusive = out->nb || out->nc || b->status != c->status;
		if (!out->inconclusive && b->status != CELL_OK)
			snprintf(out->note, sizeof(out->note), "%s in both",
				 cell_status_name(b->status));
		else if (!out->inconclusive)
			snprintf(out->note, sizeof(out->note), "no %s in either", def->name);
		else if (none->status != CELL_OK)
			snprintf(out->note, sizeof(out->note), "%s in %s%s%s",
				 cell_status_name(none->status), !out->nb ? "BASE" : "CUR",
				 none->reason ? ": " : "", none->reason ? none->reason : "");
		else
			snprintf(out->note, sizeof(out->note), "no %s in %s", def->name,
				 !out->nb ? "BASE" : "CUR");
		goto out;
	}
	ret = cmp_judge_values(xb, out->nb, xc, out->nc, def->higher_better, o, out);
out:
	free(xb);
	free(xc);
	return ret;
}

/*
 * A cell that failed on either side is not judged on its partial numbers: failed in CUR
 * (and not in BASE) fails the comparison; failed in BASE cannot be judged. False when
 * neither side failed.
 */
static bool judge_failed(const struct cell *b, const struct cell *c, enum metric_id m,
			 struct cmp_metric *out)
{
	const struct cell *f = b->status == CELL_FAILED ? b : c;

	if (b->status != CELL_FAILED && c->status != CELL_FAILED)
		return false;
	memset(out, 0, sizeof(*out));
	out->m = m;
	out->ci_lo = out->ci_hi = out->p = out->df = out->gm_change = NAN;
	out->verdict = f == b ? CMP_BASE_FAILED : CMP_FAILED;
	out->inconclusive = out->verdict == CMP_BASE_FAILED;
	if (f == b && c->status == CELL_FAILED)
		f = c;
	snprintf(out->note, sizeof(out->note), "%s%s", out->verdict == CMP_BASE_FAILED && f == c ?
		 "and in CUR: " : "", f->reason ? f->reason : "the job failed");
	return true;
}

static void note(char (*list)[320], unsigned *nr, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void note(char (*list)[320], unsigned *nr, const char *fmt, ...)
{
	va_list ap;

	if (*nr >= CMP_NOTES_MAX)
		return;
	va_start(ap, fmt);
	vsnprintf(list[*nr], sizeof(list[0]), fmt, ap);
	va_end(ap);
	(*nr)++;
}

/* Environment fields whose difference makes the numbers incomparable, and those that are
 * usually the very upgrade under test. */
static const struct {
	const char *path, *what;
	bool invalidates;
} env_fields[] = {
	{ "iopath.version", "iopath version", true },
	{ "iopath.compiler", "compiler", true },
	{ "iopath.cflags", "compiler flags", true },
	{ "host.cpu_model", "CPU model", true },
	{ "host.kernel", "kernel", false },
	{ "host.hypervisor", "hypervisor", false },
	{ "host.platform", "platform", false },
	{ "hostname", "hostname", false },
};

static const char *target_path_type(const json_t *t)
{
	const json_t *probe = json_object_get(t, "probe");
	const char *s = json_string_value(json_object_get(probe, "fs_description"));

	if (!s || !*s)
		s = json_string_value(json_object_get(probe, "fs"));
	return s && *s ? s : NULL;
}

static void compare_env(const struct results *b, const struct results *c, struct cmp_report *rep)
{
	const char *k, *vb, *vc;
	const json_t *tb, *tc, *v;
	size_t i, j;

	for (i = 0; i < sizeof(env_fields) / sizeof(env_fields[0]); i++) {
		vb = results_env_str(b, env_fields[i].path);
		vc = results_env_str(c, env_fields[i].path);
		if (!vb || !vc || !*vb || !*vc || !strcmp(vb, vc))
			continue;
		if (env_fields[i].invalidates)
			note(rep->warn, &rep->nr_warn, "the runs differ in %s: '%s' vs '%s'",
			     env_fields[i].what, vb, vc);
		else
			note(rep->changed, &rep->nr_changed, "%s: %s -> %s", env_fields[i].what, vb, vc);
	}
	/* the same target role on a different kind of storage path */
	json_array_foreach(b->targets, i, tb) {
		const char *role = json_string_value(json_object_get(tb, "role"));

		json_array_foreach(c->targets, j, tc) {
			const char *rc = json_string_value(json_object_get(tc, "role"));

			if (!role || !rc || strcmp(role, rc))
				continue;
			vb = target_path_type(tb);
			vc = target_path_type(tc);
			if (vb && vc && strcmp(vb, vc))
				note(rep->warn, &rep->nr_warn, "target '%s' is a different path type: '%s' vs '%s'",
				     role, vb, vc);
		}
	}
	json_object_foreach(b->labels, k, v) {
		const json_t *w = json_object_get(c->labels, k);

		vb = json_string_value(v);
		vc = json_string_value(w);
		if (vb && vc && strcmp(vb, vc))
			note(rep->changed, &rep->nr_changed, "label %s: %s -> %s", k, vb, vc);
		else if (vb && !w)
			note(rep->changed, &rep->nr_changed, "label %s=%s only in BASE", k, vb);
	}
	json_object_foreach(c->labels, k, v)
		if (!json_object_get(b->labels, k) && json_string_value(v))
			note(rep->changed, &rep->nr_changed, "label %s=%s only in CUR", k,
			     json_string_value(v));
	if (strcmp(b->format, c->format))
		note(rep->warn, &rep->nr_warn, "the files are of different kinds (%s vs %s): cells match only where their identities do",
		     b->format, c->format);
}

/* Sort order of rows: regressions first, then improvements, unjudged, noise, unchanged. */
static int row_cmp(const void *a, const void *b)
{
	const struct cmp_row *x = a, *y = b;

	if (x->worst != y->worst)
		return (int)x->worst - (int)y->worst;
	return strcmp(x->base->label, y->base->label);
}

int compare_results(const struct results *base, const struct results *cur,
		    const struct cmp_opts *o, struct cmp_report *rep, struct iop_err *err)
{
	unsigned i, m, open;
	int ret;

	memset(rep, 0, sizeof(*rep));
	rep->rows = calloc(base->nr ? base->nr : 1, sizeof(*rep->rows));
	rep->only_base = calloc(base->nr ? base->nr : 1, sizeof(*rep->only_base));
	rep->only_cur = calloc(cur->nr ? cur->nr : 1, sizeof(*rep->only_cur));
	if (!rep->rows || !rep->only_base || !rep->only_cur) {
		cmp_report_free(rep);
		return iop_errf(err, -ENOMEM, "out of memory comparing");
	}
	compare_env(base, cur, rep);
	for (i = 0; i < base->nr; i++) {
		const struct cell *b = &base->cells[i], *c = results_find(cur, b->key);
		struct cmp_row *row;

		if (!c) {
			rep->only_base[rep->nr_only_base++] = b;
			continue;
		}
		row = &rep->rows[rep->nr++];
		row->base = b;
		row->cur = c;
		row->worst = CMP_NO_DATA;
		open = 0;
		for (m = 0; m < MET_NR; m++) {
			struct cmp_metric *cm;

			if (!(o->metrics & (1u << m)))
				continue;
			cm = &row->met[row->nr++];
			ret = judge_failed(b, c, m, cm) ? 0 : judge(b, c, m, o, cm);
			if (ret) {
				cmp_report_free(rep);
				return iop_errf(err, ret, "out of memory comparing");
			}
			if (cm->verdict < row->worst)
				row->worst = cm->verdict;
			rep->regressions += cm->verdict == CMP_REGRESSION;
			rep->improvements += cm->verdict == CMP_IMPROVEMENT;
			rep->unjudged += cm->verdict == CMP_UNJUDGED;
			rep->noise += cm->verdict == CMP_NOISE;
			rep->inconclusive += cm->inconclusive;
			open += cm->inconclusive;
		}
		rep->inconclusive_cells += open > 0;
		rep->failed += b->status != CELL_FAILED && c->status == CELL_FAILED;
		rep->base_failed += b->status == CELL_FAILED;
	}
	for (i = 0; i < cur->nr; i++)
		if (!results_find(base, cur->cells[i].key))
			rep->only_cur[rep->nr_only_cur++] = &cur->cells[i];
	qsort(rep->rows, rep->nr, sizeof(*rep->rows), row_cmp);
	return 0;
}

void cmp_report_free(struct cmp_report *rep)
{
	free(rep->rows);
	free(rep->only_base);
	free(rep->only_cur);
	memset(rep, 0, sizeof(*rep));
}
