/* Comparing two results cell by cell: matching, per-metric change, significance, verdicts. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/compare.h"
#include "results/report_cells.h"


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
	return m->verdict == CMP_FAILED || (m->verdict == CMP_REGRESSION && !m->env_explained) ||
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
	/* not a pass even with --allow-inconclusive: something got worse */
	if (rep->env_explained)
		return CMP_EXIT_ENVIRONMENT;
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

void cmp_metric_release(struct cmp_metric *m)
{
	rstats_rank_shift_free(&m->rank);
}

/* Nothing tested yet: no p, no bound (what a test held released first). */
static void metric_reset(struct cmp_metric *m)
{
	cmp_metric_release(m);
	m->ranked = false;
	m->ci_lo = m->ci_hi = m->level = m->p = m->p_adj = m->df = NAN;
	m->gm_change = m->diff = m->se = m->detectable = NAN;
	m->pairs = 0;
	m->inconclusive = m->tested = m->worse = m->tail_unjudged = m->env_explained = false;
}

/*
 * The test: Welch's t on the logarithms of the repeats, one-sided in the direction the
 * geometric means moved, against the threshold rather than against zero. A regression is a
 * change shown (p < alpha, after the correction over the compare) to be worse than the
 * threshold, not merely a change of any size shown to be nonzero, so that two runs of the
 * same configuration are not flagged for the few percent they always differ by. Logarithms
 * make a change of x% the same difference at every scale and suit positive, right-skewed
 * figures such as IOPS and latency. This fills everything but the verdict of a tested
 * metric (tested set); one that cannot be tested gets its verdict here.
 */
static int by_time(const void *a, const void *b)
{
	const double *x = a, *y = b;

	return (x[0] > y[0]) - (x[0] < y[0]);
}

unsigned cmp_pairs(const double *xb, const double *tb, unsigned nb, const double *xc,
		   const double *tc, unsigned nc, double *lb, double *lc)
{
	double (*v)[3] = malloc((nb + nc + 1) * sizeof(*v)), sum = 0, *out;
	unsigned i, n = nb + nc, run = 0, pairs = 0, runs = 0;
	int side = -1;

	if (!v || !tb || !tc) {
		free(v);
		return 0;
	}
	for (i = 0; i < n; i++) {
		double t = i < nb ? tb[i] : tc[i - nb], x = i < nb ? xb[i] : xc[i - nb];

		if (isnan(t) || !(x > 0)) {
			free(v);
			return 0;
		}
		v[i][0] = t;
		v[i][1] = i < nb ? 0 : 1;
		v[i][2] = log(x);
	}
	qsort(v, n, sizeof(*v), by_time);
	/* each maximal stretch of one side is one run; runs 2k and 2k + 1 are a pair */
	for (i = 0; i <= n; i++) {
		if (i < n && (int)v[i][1] == side) {
			sum += v[i][2];
			run++;
			continue;
		}
		if (run) {
			out = side ? lc : lb;
			out[runs / 2] = sum / run;
			runs++;
			pairs = runs / 2;
		}
		if (i < n) {
			side = (int)v[i][1];
			sum = v[i][2];
			run = 1;
		}
	}
	free(v);
	return pairs;
}

/* The margin a shift's direction decides: the threshold's, below for a drop, above for a rise. */
static double shift_margin(bool drop, const struct cmp_opts *o)
{
	if (drop)
		return o->threshold < 1 ? log1p(-o->threshold) : -INFINITY;
	return log1p(o->threshold);
}

/* A rank test's result into the metric: the shift is the change, p the test's. */
static void set_ranked(struct cmp_metric *out, const struct rank_shift *r, bool higher_better)
{
	out->ranked = true;
	out->rank = *r;
	out->tested = true;
	out->p = r->p;
	out->df = NAN;
	out->diff = r->shift;
	out->se = NAN;
	out->worse = higher_better ? r->shift < 0 : r->shift > 0;
}

/*
 * The rank test of the log repeats: the Hodges-Lehmann shift's direction decides the margin
 * tested, Mann-Whitney tests a shift beyond it. A repeat 10 times slower counts as one rank,
 * as one 10% slower does, so a few of them on either side neither fake a change nor hide one.
 */
static int rank_test(const double *lb, unsigned nb, const double *lc, unsigned nc,
		     bool higher_better, const struct cmp_opts *o, struct cmp_metric *out)
{
	struct rank_shift r;
	double margin;
	bool drop;
	int ret = rstats_rank_shift(lb, nb, lc, nc, 0, RSTATS_LESS, &r);

	if (ret)
		return ret;
	drop = r.shift < 0;
	margin = shift_margin(drop, o);
	rstats_rank_shift_free(&r);
	ret = rstats_rank_shift(lb, nb, lc, nc, margin, drop ? RSTATS_LESS : RSTATS_GREATER, &r);
	if (ret)
		return ret;
	set_ranked(out, &r, higher_better);
	return 0;
}

/*
 * The signed-rank test of the pairs' log differences: the shift's direction decides the
 * margin tested, as for the rank test of unpaired repeats.
 */
static int signed_rank_test(const double *pb, const double *pc, unsigned np, bool higher_better,
			    const struct cmp_opts *o, struct cmp_metric *out)
{
	double *d = malloc(np * sizeof(*d)), margin;
	struct rank_shift r;
	unsigned i;
	bool drop;
	int ret;

	if (!d)
		return -ENOMEM;
	for (i = 0; i < np; i++)
		d[i] = pc[i] - pb[i];
	ret = rstats_signed_rank(d, np, 0, RSTATS_LESS, &r);
	if (!ret) {
		drop = r.shift < 0;
		margin = shift_margin(drop, o);
		rstats_rank_shift_free(&r);
		ret = rstats_signed_rank(d, np, margin, drop ? RSTATS_LESS : RSTATS_GREATER, &r);
	}
	if (!ret) {
		set_ranked(out, &r, higher_better);
		out->pairs = np;
		out->gm_change = expm1(mean(d, np));
	}
	free(d);
	return ret;
}

/*
 * Can these values be tested on a log scale? Not from fewer than 2 a side, nor with a
 * repeat that measured 0 (all zeros are unchanged): false with out's verdict and note.
 */
static bool testable(const double *xb, unsigned nb, const double *xc, unsigned nc,
		     struct cmp_metric *out)
{
	unsigned i, zeros = 0;

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
		return false;
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
		return false;
	}
	return true;
}

static int cmp_test_values(const double *xb, const double *tb, unsigned nb, const double *xc,
			   const double *tc, unsigned nc, bool higher_better,
			   const struct cmp_opts *o, struct cmp_metric *out)
{
	double *lb = NULL, *lc = NULL, *pb = NULL, *pc = NULL, margin;
	unsigned np = 0;
	struct rsummary sb, sc;
	struct welch_result w;
	unsigned i;
	int ret = 0;

	out->nb = nb;
	out->nc = nc;
	out->rank.d = NULL;	/* out is filled here from nothing */
	metric_reset(out);
	if (!nb || !nc)
		return -EINVAL;
	if (rstats_summary(xb, nb, &sb) || rstats_summary(xc, nc, &sc))
		return -ENOMEM;
	out->base = sb.median;
	out->cur = sc.median;
	out->cv_base = sb.cv;
	out->cv_cur = sc.cv;
	out->change = sb.median != 0 ? sc.median / sb.median - 1 : (sc.median != 0 ? INFINITY : 0);
	if (!testable(xb, nb, xc, nc, out))
		return 0;
	lb = malloc(nb * sizeof(*lb));
	lc = malloc(nc * sizeof(*lc));
	pb = malloc((nb + nc) * sizeof(*pb));
	pc = malloc((nb + nc) * sizeof(*pc));
	if (!lb || !lc || !pb || !pc) {
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0; i < nb; i++)
		lb[i] = log(xb[i]);
	for (i = 0; i < nc; i++)
		lc[i] = log(xc[i]);
	/* taken in alternation: each run against the other side's beside it */
	if (tb && tc)
		np = cmp_pairs(xb, tb, nb, xc, tc, nc, pb, pc);
	if (np < CMP_PAIRS_MIN)
		np = 0;
	out->gm_change = expm1(mean(lc, nc) - mean(lb, nb));
	if (np >= CMP_SIGNED_RANK_MIN) {
		ret = signed_rank_test(pb, pc, np, higher_better, o, out);
		goto out;
	}
	if (!np && nb >= CMP_RANK_MIN && nc >= CMP_RANK_MIN) {
		ret = rank_test(lb, nb, lc, nc, higher_better, o, out);
		goto out;
	}
	/* the direction the geometric means moved decides which margin is tested */
	w.diff = np ? mean(pc, np) - mean(pb, np) : mean(lc, nc) - mean(lb, nb);
	if (w.diff < 0)
		margin = o->threshold < 1 ? log1p(-o->threshold) : -INFINITY;
	else
		margin = log1p(o->threshold);
	if (np)
		ret = rstats_paired(pb, pc, np, margin, w.diff < 0 ? RSTATS_LESS : RSTATS_GREATER,
				    0.95, &w);
	else
		ret = rstats_welch(lb, nb, lc, nc, margin,
				   w.diff < 0 ? RSTATS_LESS : RSTATS_GREATER, 0.95, &w);
	if (ret)
		goto out;
	out->pairs = np;
	out->tested = true;
	out->p = w.p;
	out->df = w.df;
	out->diff = w.diff;
	out->se = w.se;
	if (np)
		out->gm_change = expm1(w.diff);
	out->worse = higher_better ? w.diff < 0 : w.diff > 0;
out:
	free(lb);
	free(lc);
	free(pb);
	free(pc);
	return ret;
}

/* A tested metric's verdict and its one-sided bound at level. */
static void settle_one(struct cmp_metric *m, double level, unsigned family,
		       const struct cmp_opts *o)
{
	double t = m->se > 0 ? rstats_t_quantile(level, m->df) * m->se : 0;

	if (m->ranked) {
		/* the rank test inverted: its bound, as a distance from the shift */
		double b = rstats_rank_bound(&m->rank, m->diff < 0 ? RSTATS_LESS : RSTATS_GREATER, level);

		t = m->diff < 0 ? b - m->diff : m->diff - b;
	}
	m->level = level;
	if (m->diff < 0) {
		m->ci_lo = -INFINITY;
		m->ci_hi = expm1(m->diff + t);
		m->detectable = o->threshold < 1 ? expm1(log1p(-o->threshold) - t) : -1;
	} else {
		m->ci_lo = expm1(m->diff - t);
		m->ci_hi = INFINITY;
		m->detectable = expm1(log1p(o->threshold) + t);
	}
	m->note[0] = 0;
	if (m->p_adj < o->alpha)
		m->verdict = m->worse ? CMP_REGRESSION : CMP_IMPROVEMENT;
	else if (fabs(m->change) <= o->threshold)
		m->verdict = CMP_UNCHANGED;
	else {
		m->verdict = CMP_NOISE;
		if (family > 1)
			snprintf(m->note, sizeof(m->note),
				 "p = %.2g for a change beyond %g%%, %.2g adjusted over %u tests", m->p,
				 o->threshold * 100, m->p_adj, family);
		else
			snprintf(m->note, sizeof(m->note), "p = %.2g for a change beyond %g%%", m->p,
				 o->threshold * 100);
	}
}

static int by_p(const void *a, const void *b)
{
	const struct cmp_metric *x = *(struct cmp_metric *const *)a;
	const struct cmp_metric *y = *(struct cmp_metric *const *)b;

	return (x->p > y->p) - (x->p < y->p);
}

double cmp_settle(struct cmp_metric *const *v, unsigned n, const struct cmp_opts *o)
{
	struct cmp_metric **t = malloc((n ? n : 1) * sizeof(*t));
	unsigned i, m = 0, rejected = 0;
	double level, q = 1;

	if (!t) {
		/* without room to sort: Bonferroni, which BH never rejects less than */
		for (i = 0; i < n; i++)
			m += v[i]->tested;
		level = 1 - o->alpha / (m ? m : 1);
		for (i = 0; i < n; i++)
			if (v[i]->tested) {
				v[i]->p_adj = fmin(1, v[i]->p * m);
				settle_one(v[i], level, m, o);
			}
		return level;
	}
	for (i = 0; i < n; i++)
		if (v[i]->tested)
			t[m++] = v[i];
	qsort(t, m, sizeof(*t), by_p);
	/* step-up: the adjusted p of rank k is min over j >= k of p_(j) * m / j */
	for (i = m; i-- > 0;) {
		q = fmin(q, t[i]->p * m / (i + 1));
		t[i]->p_adj = fmin(1, q);
		if (!rejected && t[i]->p_adj < o->alpha)
			rejected = i + 1;
	}
	level = m ? 1 - o->alpha * (rejected ? rejected : 1) / m : NAN;
	for (i = 0; i < m; i++)
		settle_one(t[i], level, m, o);
	free(t);
	return level;
}

int cmp_judge_timed(const double *xb, const double *tb, unsigned nb, const double *xc,
		    const double *tc, unsigned nc, bool higher_better, const struct cmp_opts *o,
		    struct cmp_metric *out)
{
	int ret = cmp_test_values(xb, tb, nb, xc, tc, nc, higher_better, o, out);

	if (!ret && out->tested)
		cmp_settle(&out, 1, o);
	return ret;
}

int cmp_judge_values(const double *xb, unsigned nb, const double *xc, unsigned nc,
		     bool higher_better, const struct cmp_opts *o, struct cmp_metric *out)
{
	return cmp_judge_timed(xb, NULL, nb, xc, NULL, nc, higher_better, o, out);
}

/*
 * Each of the cell's values of metric m (as cell_values gives them) with its sample's start
 * (iopath.start_unix_ms, milliseconds; NAN where not recorded).
 */
static unsigned cell_values_timed(const struct cell *c, enum metric_id m, double *x, double *t)
{
	unsigned i, n = 0;

	for (i = 0; i < c->nr; i++) {
		const json_t *job = json_array_get(c->samples, i);
		const json_t *s = json_object_get(json_object_get(job, "iopath"), "start_unix_ms");

		if (isnan(c->val[i][m]))
			continue;
		t[n] = json_is_integer(s) ? (double)json_integer_value(s) : NAN;
		x[n++] = c->val[i][m];
	}
	return n;
}

/* The fewest completions behind a percentile in any of the cell's samples. */
static double fewest_ios(const struct cell *c)
{
	double least = INFINITY, n;
	size_t i;
	json_t *job;

	json_array_foreach(c->samples, i, job) {
		n = metrics_clat_count(job);
		if (isnan(n))
			return NAN;
		least = fmin(least, n);
	}
	return least;
}

/*
 * Can a tail percentile be judged from these samples? A percentile q of N completions rests
 * on the N (1 - q) slowest of them: with fewer than CMP_TAIL_BEYOND beyond it in a repeat,
 * that repeat's figure is a handful of outliers, and three such figures are too few to
 * know the spread of a one-in-a-thousand tail. False, with the reason in out->note.
 */
static bool tail_judgeable(const struct cell *b, const struct cell *c, enum metric_id m,
			   struct cmp_metric *out)
{
	double q = m == MET_CLAT_P99 || m == MET_LAT_SCHED_P99 ? 0.99 :
		   m == MET_CLAT_P999 ? 0.999 : 0, need, least;
	unsigned reps = m == MET_CLAT_P999 ? CMP_P999_REPEATS : 2;

	if (!q)
		return true;
	need = ceil(CMP_TAIL_BEYOND / (1 - q) - 1e-9);
	least = fmin(fewest_ios(b), fewest_ios(c));
	if (out->nb >= reps && out->nc >= reps && !(least < need))
		return true;
	if (out->nb < reps || out->nc < reps)
		snprintf(out->note, sizeof(out->note), "tail: %u/%u repeats, needs %u a side (--repeat %u)",
			 out->nb, out->nc, reps, reps);
	else
		snprintf(out->note, sizeof(out->note), "tail: %.0f I/Os a repeat, needs %.0f", least,
			 need);
	return false;
}

/*
 * A tail left out of the family: not a pass, but inconclusive only when --metric asked for
 * it, so that the default metrics can be judged at the default repeats.
 */
static void untested_tail(struct cmp_metric *out, const struct cmp_opts *o)
{
	metric_reset(out);
	out->tail_unjudged = true;
	out->verdict = CMP_UNJUDGED;
	out->inconclusive = o->metrics_given;
}

/* Does every repeat of the cell have metric m? */
static bool every_repeat_has(const struct cell *c, enum metric_id m)
{
	unsigned i;

	for (i = 0; i < c->nr; i++)
		if (isnan(c->val[i][m]))
			return false;
	return c->nr > 0;
}

/*
 * Is metric m judged for this pair of cells? Every metric asked for is, except that by
 * default (no --metric) the latency from the rate's schedule is judged only where either
 * cell has it (only rate-limited jobs do), and the time per I/O less CPU wait only where
 * both cells recorded it for every repeat (iopath runs with schedstat; not fio's, nor
 * older results).
 */
static bool judged_here(const struct cell *b, const struct cell *c, enum metric_id m,
			const struct cmp_opts *o)
{
	struct rsummary s;

	if (o->metrics_given)
		return true;
	if (m == MET_IO_TIME_PER_IO)
		return every_repeat_has(b, m) && every_repeat_has(c, m);
	if (m != MET_LAT_SCHED_P99)
		return true;
	return !cell_summary(b, m, &s) || !cell_summary(c, m, &s);
}

/* One metric of one matched cell. */
static int judge(const struct cell *b, const struct cell *c, enum metric_id m,
		 const struct cmp_opts *o, struct cmp_metric *out)
{
	const struct metric_def *def = &metric_table[m];
	double *xb = malloc((b->nr ? b->nr : 1) * sizeof(double));
	double *xc = malloc((c->nr ? c->nr : 1) * sizeof(double));
	double *tb = malloc((b->nr ? b->nr : 1) * sizeof(double));
	double *tc = malloc((c->nr ? c->nr : 1) * sizeof(double));
	int ret = 0;

	memset(out, 0, sizeof(*out));
	out->m = m;
	metric_reset(out);
	if (!xb || !xc || !tb || !tc) {
		ret = -ENOMEM;
		goto out;
	}
	out->nb = cell_values_timed(b, m, xb, tb);
	out->nc = cell_values_timed(c, m, xc, tc);
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
	ret = cmp_test_values(xb, tb, out->nb, xc, tc, out->nc, def->higher_better, o, out);
	if (!ret && out->tested && !tail_judgeable(b, c, m, out))
		untested_tail(out, o);
out:
	free(xb);
	free(xc);
	free(tb);
	free(tc);
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
	metric_reset(out);
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

/*
 * Did the machine change under a row that moved? A regression (or an improvement) whose
 * slower side's environment explains the whole change (envcmp.h: the CPU wait and others'
 * time in flight on the disk, all but the threshold) is the environment's, not the path's: its
 * regressions are marked env_explained (exit 3, not 1) unless o->ignore_env. The time per
 * I/O less CPU wait is excused as the others are: measured, a CPU spinner started between
 * the sides slowed it too (docs/statistics.md).
 */
static void judge_env(struct cmp_report *rep, struct cmp_row *row, const struct cmp_opts *o)
{
	bool regressed = false, improved = false;
	unsigned k;

	env_of_cell(row->base, &row->env_base);
	env_of_cell(row->cur, &row->env_cur);
	for (k = 0; k < row->nr; k++) {
		regressed |= row->met[k].verdict == CMP_REGRESSION;
		improved |= row->met[k].verdict == CMP_IMPROVEMENT;
	}
	if (!regressed && !improved)
		return;
	row->env_differed = env_explains(&row->env_base, &row->env_cur, regressed, o->threshold,
					 row->env_why, sizeof(row->env_why));
	if (!row->env_differed || o->ignore_env || !regressed)
		return;
	for (k = 0; k < row->nr; k++)
		if (row->met[k].verdict == CMP_REGRESSION) {
			row->met[k].env_explained = true;
			rep->env_explained++;
		}
	if (!rep->env_why[0])
		snprintf(rep->env_why, sizeof(rep->env_why), "%s", row->env_why);
}

/*
 * The row's IOPS test when its bandwidth test is the same test: bandwidth is IOPS times a
 * block size that did not vary, so every repeat's log differs from its IOPS' by one constant
 * and the two tests' difference and standard error are the same (else NULL). Its own p is
 * kept; it takes the IOPS test's adjusted p and verdict.
 */
static const struct cmp_metric *bw_twin(const struct cmp_row *row, const struct cmp_metric *m)
{
	unsigned k;

	if (m->m != MET_BW)
		return NULL;
	for (k = 0; k < row->nr; k++) {
		const struct cmp_metric *x = &row->met[k];

		/* within the rounding of the stored bytes/s (whole bytes): a thousandth of the error */
		if (x->m != MET_IOPS || !x->tested || x->pairs != m->pairs || x->ranked != m->ranked)
			continue;
		/* ranks: the same order of every pair's difference, so the same shift and p */
		if (x->ranked && fabs(x->diff - m->diff) <= 1e-6 && fabs(x->p - m->p) <= 1e-6 * x->p)
			return x;
		if (!x->ranked && x->se > 0 && fabs(x->diff - m->diff) <= 1e-3 * x->se &&
		    fabs(x->se - m->se) <= 1e-3 * x->se)
			return x;
	}
	return NULL;
}

/*
 * The verdicts of every tested metric of the compare, as one family (a bandwidth test that is
 * its cell's IOPS test again is one member with it, and takes its adjusted p); then the counts.
 */
static int settle(struct cmp_report *rep, const struct results *base, const struct results *cur,
		  const struct cmp_opts *o)
{
	struct cmp_metric **v = malloc((rep->nr * MET_NR + 1) * sizeof(*v));
	unsigned i, k, n = 0;

	if (!v)
		return -ENOMEM;
	for (i = 0; i < rep->nr; i++)
		for (k = 0; k < rep->rows[i].nr; k++)
			if (rep->rows[i].met[k].tested) {
				rep->paired += rep->rows[i].met[k].pairs > 0;
				rep->signed_ranked += rep->rows[i].met[k].pairs > 0 && rep->rows[i].met[k].ranked;
				if (bw_twin(&rep->rows[i], &rep->rows[i].met[k]))
					continue;
				rep->ranked += rep->rows[i].met[k].ranked && !rep->rows[i].met[k].pairs;
				v[n++] = &rep->rows[i].met[k];
			}
	rep->tested = n;
	rep->level = cmp_settle(v, n, o);
	free(v);
	for (i = 0; i < rep->nr; i++)
		for (k = 0; k < rep->rows[i].nr; k++) {
			struct cmp_metric *m = &rep->rows[i].met[k];
			const struct cmp_metric *twin = m->tested ? bw_twin(&rep->rows[i], m) : NULL;

			if (twin) {
				m->p_adj = twin->p_adj;
				settle_one(m, rep->level, n, o);
			}
		}
	env_of_results(base, &rep->env_base);
	env_of_results(cur, &rep->env_cur);
	for (i = 0; i < rep->nr; i++) {
		struct cmp_row *row = &rep->rows[i];

		judge_env(rep, row, o);
		for (k = 0; k < row->nr; k++) {
			const struct cmp_metric *cm = &row->met[k];

			if (cm->verdict < row->worst)
				row->worst = cm->verdict;
			rep->regressions += cm->verdict == CMP_REGRESSION;
			rep->improvements += cm->verdict == CMP_IMPROVEMENT;
			rep->unjudged += cm->verdict == CMP_UNJUDGED && !cm->tail_unjudged;
			rep->noise += cm->verdict == CMP_NOISE;
		}
	}
	return 0;
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

			if (!(o->metrics & (1u << m)) || !judged_here(b, c, m, o))
				continue;
			cm = &row->met[row->nr++];
			ret = judge_failed(b, c, m, cm) ? 0 : judge(b, c, m, o, cm);
			if (ret) {
				cmp_report_free(rep);
				return iop_errf(err, ret, "out of memory comparing");
			}
			rep->tails_unjudged += cm->tail_unjudged;
			rep->inconclusive += cm->inconclusive;
			open += cm->inconclusive;
		}
		rep->inconclusive_cells += open > 0;
		row->unreliable_base = cell_unreliable(b, CV_WARN_DEFAULT, &row->cv_base);
		row->unreliable_cur = cell_unreliable(c, CV_WARN_DEFAULT, &row->cv_cur);
		rep->unreliable_cells += row->unreliable_base || row->unreliable_cur;
		rep->failed += b->status != CELL_FAILED && c->status == CELL_FAILED;
		rep->base_failed += b->status == CELL_FAILED;
	}
	ret = settle(rep, base, cur, o);
	if (ret) {
		cmp_report_free(rep);
		return iop_errf(err, ret, "out of memory comparing");
	}
	if (rep->env_explained)
		note(rep->warn, &rep->nr_warn, "the environment differed: %s: %u regression(s) not judged (exit 3)",
		     rep->env_why, rep->env_explained);
	for (i = 0; i < cur->nr; i++)
		if (!results_find(base, cur->cells[i].key))
			rep->only_cur[rep->nr_only_cur++] = &cur->cells[i];
	qsort(rep->rows, rep->nr, sizeof(*rep->rows), row_cmp);
	return 0;
}

void cmp_report_free(struct cmp_report *rep)
{
	unsigned i, k;

	for (i = 0; rep->rows && i < rep->nr; i++)
		for (k = 0; k < rep->rows[i].nr; k++)
			cmp_metric_release(&rep->rows[i].met[k]);
	free(rep->rows);
	free(rep->only_base);
	free(rep->only_cur);
	memset(rep, 0, sizeof(*rep));
}
