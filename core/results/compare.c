/* Comparing two results cell by cell: matching, per-metric change, significance, verdicts. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/compare.h"

/* Fixed, so the same two files always give the same report. */
#define BOOT_ITERS 2000
#define BOOT_SEED 20240601ul

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

bool cmp_fails(enum cmp_verdict v, const struct cmp_opts *o)
{
	return v == CMP_FAILED || v == CMP_REGRESSION || (o->strict && v == CMP_UNJUDGED);
}

/*
 * One metric of one matched cell. A change is a regression only when it is worse than the
 * threshold AND the one-sided Mann-Whitney test on the repeats says cur is shifted that way
 * (p < alpha); with too few repeats for the test to ever reach alpha, it cannot be judged.
 */
static int judge(const struct cell *b, const struct cell *c, enum metric_id m,
		 const struct cmp_opts *o, struct cmp_metric *out)
{
	const struct metric_def *def = &metric_table[m];
	double *xb = malloc((b->nr ? b->nr : 1) * sizeof(double));
	double *xc = malloc((c->nr ? c->nr : 1) * sizeof(double));
	struct rsummary sb, sc;
	struct mw_result mw;
	enum rstats_alt alt;
	bool worse;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	out->m = m;
	out->ci_lo = out->ci_hi = out->p = NAN;
	if (!xb || !xc) {
		ret = -ENOMEM;
		goto out;
	}
	out->nb = cell_values(b, m, xb);
	out->nc = cell_values(c, m, xc);
	if (!out->nb || !out->nc) {
		const struct cell *none = !out->nb ? b : c;

		out->verdict = CMP_NO_DATA;
		if (none->status != CELL_OK)
			snprintf(out->note, sizeof(out->note), "%s in %s%s%s",
				 cell_status_name(none->status), !out->nb ? "BASE" : "CUR",
				 none->reason ? ": " : "", none->reason ? none->reason : "");
		else
			snprintf(out->note, sizeof(out->note), "no %s in %s", def->name,
				 !out->nb ? "BASE" : "CUR");
		goto out;
	}
	rstats_summary(xb, out->nb, &sb);
	rstats_summary(xc, out->nc, &sc);
	out->base = sb.median;
	out->cur = sc.median;
	out->cv_base = sb.cv;
	out->cv_cur = sc.cv;
	out->change = sb.median != 0 ? sc.median / sb.median - 1 : (sc.median != 0 ? INFINITY : 0);
	if (out->nb >= 2 && out->nc >= 2 && sb.median != 0)
		rstats_bootstrap_change(xb, out->nb, xc, out->nc, BOOT_ITERS, BOOT_SEED, 0.95,
					&out->ci_lo, &out->ci_hi);
	if (fabs(out->change) <= o->threshold) {
		out->verdict = CMP_UNCHANGED;
		goto out;
	}
	worse = def->higher_better ? out->change < 0 : out->change > 0;
	/* test in the direction that was seen: is cur shifted below (or above) base? */
	alt = out->change < 0 ? RSTATS_LESS : RSTATS_GREATER;
	if (out->nb < 2 || out->nc < 2 || rstats_mw_min_p(out->nc, out->nb, alt) >= o->alpha) {
		out->verdict = CMP_UNJUDGED;
		snprintf(out->note, sizeof(out->note),
			 out->nb < 2 || out->nc < 2 ?
			 "single samples, no significance test (use --repeat)" :
			 "%u vs %u repeats cannot reach p < %g (use more --repeat)",
			 out->nb, out->nc, o->alpha);
		goto out;
	}
	ret = rstats_mann_whitney(xc, out->nc, xb, out->nb, alt, &mw);
	if (ret)
		goto out;
	out->p = mw.p;
	if (mw.p < o->alpha) {
		out->verdict = worse ? CMP_REGRESSION : CMP_IMPROVEMENT;
	} else {
		out->verdict = CMP_NOISE;
		snprintf(out->note, sizeof(out->note), "beyond %g%% but within the repeats' noise",
			 o->threshold * 100);
	}
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
	out->ci_lo = out->ci_hi = out->p = NAN;
	out->verdict = f == b ? CMP_BASE_FAILED : CMP_FAILED;
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

static const struct cell *find_cell(const struct results *r, const char *key)
{
	unsigned i;

	for (i = 0; i < r->nr; i++)
		if (!strcmp(r->cells[i].key, key))
			return &r->cells[i];
	return NULL;
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
	unsigned i, m;
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
		const struct cell *b = &base->cells[i], *c = find_cell(cur, b->key);
		struct cmp_row *row;

		if (!c) {
			rep->only_base[rep->nr_only_base++] = b;
			continue;
		}
		row = &rep->rows[rep->nr++];
		row->base = b;
		row->cur = c;
		row->worst = CMP_NO_DATA;
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
		}
		rep->failed += b->status != CELL_FAILED && c->status == CELL_FAILED;
		rep->base_failed += b->status == CELL_FAILED;
	}
	for (i = 0; i < cur->nr; i++)
		if (!find_cell(base, cur->cells[i].key))
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
