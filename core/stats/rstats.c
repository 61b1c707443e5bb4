/* Statistics over repeated runs: summaries, Welch's t, Mann-Whitney U, Wilcoxon's signed rank,
 * bootstrap intervals (GSL). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "stats/rstats.h"

static double *sorted_copy(const double *x, unsigned n)
{
	double *s = malloc((n ? n : 1) * sizeof(*s));

	if (!s)
		return NULL;
	memcpy(s, x, n * sizeof(*s));
	gsl_sort(s, 1, n);
	return s;
}

double rstats_quantile(const double *x, unsigned n, double p)
{
	double *s, q;

	if (!n)
		return NAN;
	s = sorted_copy(x, n);
	if (!s)
		return NAN;
	/* GSL interpolates at (n - 1) * p between order statistics: R's type 7 */
	q = gsl_stats_quantile_from_sorted_data(s, 1, n, p);
	free(s);
	return q;
}

int rstats_summary(const double *x, unsigned n, struct rsummary *s)
{
	double *sorted, half;

	memset(s, 0, sizeof(*s));
	if (!n)
		return -EINVAL;
	sorted = sorted_copy(x, n);
	if (!sorted)
		return -ENOMEM;
	s->n = n;
	s->min = sorted[0];
	s->max = sorted[n - 1];
	s->median = gsl_stats_median_from_sorted_data(sorted, 1, n);
	s->mean = gsl_stats_mean(sorted, 1, n);
	s->ci_lo = s->ci_hi = s->mean;
	if (n >= 2) {
		s->sd = gsl_stats_sd_m(sorted, 1, n, s->mean);
		s->cv = s->mean != 0 ? s->sd / fabs(s->mean) : 0;
		half = gsl_cdf_tdist_Pinv(0.975, n - 1) * s->sd / sqrt(n);
		s->ci_lo = s->mean - half;
		s->ci_hi = s->mean + half;
	}
	free(sorted);
	return 0;
}

/*
 * The exact null distribution of U for samples of m and n without ties: the number of
 * arrangements giving U = u is the coefficient of q^u in the Gaussian binomial coefficient
 * [m+n choose m]_q = prod_{i=1..m} (1 - q^(n+i)) / (1 - q^i) (Mann & Whitney 1947; the
 * generating function in Andrews, "The Theory of Partitions", 3.3). freq must hold m*n+1
 * entries; returns their total, C(m+n, m).
 */
static long double mw_counts(unsigned m, unsigned n, long double *freq)
{
	unsigned i, k, top = m * n;
	long double total = 0;

	memset(freq, 0, (top + 1) * sizeof(*freq));
	freq[0] = 1;
	for (i = 1; i <= m; i++) {
		/* multiply by (1 - q^(n+i)), highest powers first */
		for (k = top; k >= n + i; k--)
			freq[k] -= freq[k - (n + i)];
		/* divide by (1 - q^i): a running sum with stride i */
		for (k = i; k <= top; k++)
			freq[k] += freq[k - i];
	}
	for (k = 0; k <= top; k++)
		total += freq[k];
	return total;
}

/* P(U <= u) (lower) or P(U >= u) from the exact counts. */
static double mw_exact_tail(const long double *freq, unsigned top, long double total, double u,
			    bool lower)
{
	long double acc = 0;
	unsigned k;

	for (k = 0; k <= top; k++)
		if (lower ? (double)k <= u : (double)k >= u)
			acc += freq[k];
	return (double)(acc / total);
}

struct ranked {
	double v;
	bool from_x;
};

static int cmp_ranked(const void *a, const void *b)
{
	double x = ((const struct ranked *)a)->v, y = ((const struct ranked *)b)->v;

	return (x > y) - (x < y);
}

int rstats_mann_whitney(const double *x, unsigned nx, const double *y, unsigned ny,
			enum rstats_alt alt, struct mw_result *r)
{
	unsigned N = nx + ny, i, j;
	struct ranked *all;
	double rank_sum = 0, tie_term = 0, z, sigma, corr, pl, pg;
	bool ties = false;

	memset(r, 0, sizeof(*r));
	if (!nx || !ny)
		return -EINVAL;
	all = malloc(N * sizeof(*all));
	if (!all)
		return -ENOMEM;
	for (i = 0; i < nx; i++)
		all[i] = (struct ranked){ x[i], true };
	for (i = 0; i < ny; i++)
		all[nx + i] = (struct ranked){ y[i], false };
	qsort(all, N, sizeof(*all), cmp_ranked);
	/* midranks for ties, and the tie correction term sum(t^3 - t) */
	for (i = 0; i < N; i = j) {
		double t, rank;

		for (j = i + 1; j < N && all[j].v == all[i].v; j++)
			;
		t = j - i;
		rank = (i + 1 + j) / 2.0;
		if (t > 1) {
			ties = true;
			tie_term += t * t * t - t;
		}
		for (unsigned k = i; k < j; k++)
			if (all[k].from_x)
				rank_sum += rank;
	}
	free(all);
	r->w = rank_sum - nx * (nx + 1) / 2.0;

	if (!ties && nx < 50 && ny < 50) {
		unsigned top = nx * ny;
		long double *freq = malloc((top + 1) * sizeof(*freq)), total;

		if (!freq)
			return -ENOMEM;
		total = mw_counts(nx, ny, freq);
		pl = mw_exact_tail(freq, top, total, r->w, true);
		pg = mw_exact_tail(freq, top, total, r->w, false);
		free(freq);
		r->exact = true;
		if (alt == RSTATS_LESS)
			r->p = pl;
		else if (alt == RSTATS_GREATER)
			r->p = pg;
		else
			r->p = fmin(1.0, 2 * (r->w > nx * ny / 2.0 ? pg : pl));
		return 0;
	}
	/* normal approximation with tie and continuity corrections, as R's correct = TRUE */
	z = r->w - nx * ny / 2.0;
	sigma = sqrt((nx * ny / 12.0) * ((N + 1) - tie_term / ((double)N * (N - 1))));
	corr = alt == RSTATS_TWO_SIDED ? (z > 0) - (z < 0) : alt == RSTATS_GREATER ? 1 : -1;
	if (sigma == 0) {
		r->p = 1;
		return 0;
	}
	z = (z - 0.5 * corr) / sigma;
	if (alt == RSTATS_LESS)
		r->p = gsl_cdf_ugaussian_P(z);
	else if (alt == RSTATS_GREATER)
		r->p = gsl_cdf_ugaussian_Q(z);
	else
		r->p = fmin(1.0, 2 * fmin(gsl_cdf_ugaussian_P(z), gsl_cdf_ugaussian_Q(z)));
	return 0;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int rstats_rank_shift(const double *x, unsigned nx, const double *y, unsigned ny, double margin,
		      enum rstats_alt alt, struct rank_shift *r)
{
	unsigned N = nx + ny, i, j, k, n = nx * ny;
	double *ym, *all, ties = 0;
	struct mw_result mw;
	int ret;

	memset(r, 0, sizeof(*r));
	if (!nx || !ny || alt == RSTATS_TWO_SIDED)
		return -EINVAL;
	r->d = malloc(n * sizeof(*r->d));
	ym = malloc(ny * sizeof(*ym));
	all = malloc(N * sizeof(*all));
	if (!r->d || !ym || !all) {
		ret = -ENOMEM;
		goto out;
	}
	for (j = 0, k = 0; j < ny; j++) {
		ym[j] = y[j] - margin;
		for (i = 0; i < nx; i++)
			r->d[k++] = y[j] - x[i];
	}
	qsort(r->d, n, sizeof(*r->d), by_value);
	r->nx = nx;
	r->ny = ny;
	r->shift = n % 2 ? r->d[n / 2] : (r->d[n / 2 - 1] + r->d[n / 2]) / 2;
	/* W = #{y - margin > x}: small when the shift lies below the margin */
	ret = rstats_mann_whitney(ym, ny, x, nx, alt, &mw);
	if (ret)
		goto out;
	r->w = mw.w;
	r->p = mw.p;
	r->exact = mw.exact;
	/* the pooled sample's ties, for the normal approximation's spread */
	memcpy(all, x, nx * sizeof(*all));
	memcpy(all + nx, ym, ny * sizeof(*all));
	qsort(all, N, sizeof(*all), by_value);
	for (i = 0; i < N; i = j) {
		for (j = i + 1; j < N && all[j] == all[i]; j++)
			;
		ties += (double)(j - i) * (j - i) * (j - i) - (j - i);
	}
	r->sigma = N > 1 ? sqrt((n / 12.0) * ((N + 1) - ties / ((double)N * (N - 1)))) : 0;
out:
	free(ym);
	free(all);
	if (ret)
		rstats_rank_shift_free(r);
	return ret;
}

/*
 * The exact null distribution of the signed-rank statistic V for n pairs without ties: the
 * number of subsets of the ranks 1..n summing to v is the coefficient of q^v in
 * prod_{i=1..n} (1 + q^i). freq must hold n (n + 1) / 2 + 1 entries; returns their total,
 * 2^n.
 */
static long double sr_counts(unsigned n, long double *freq)
{
	unsigned i, k, top = n * (n + 1) / 2;
	long double total = 0;

	memset(freq, 0, (top + 1) * sizeof(*freq));
	freq[0] = 1;
	for (i = 1; i <= n; i++)
		for (k = top; k >= i; k--)
			freq[k] += freq[k - i];
	for (k = 0; k <= top; k++)
		total += freq[k];
	return total;
}

/*
 * The smallest k with P(W <= k) >= a under the exact null (R's qwilcox; for a signed-rank
 * test, pairs > 0, R's qsignrank); -1 without memory.
 */
static long rank_quantile(const struct rank_shift *r, double a)
{
	unsigned top = r->pairs ? r->pairs * (r->pairs + 1) / 2 : r->nx * r->ny, k;
	long double *freq = malloc((top + 1) * sizeof(*freq)), total, acc = 0;
	long q = (long)top;

	if (!freq)
		return -1;
	total = r->pairs ? sr_counts(r->pairs, freq) : mw_counts(r->nx, r->ny, freq);
	for (k = 0; k <= top; k++) {
		acc += freq[k];
		if ((double)(acc / total) >= a) {
			q = (long)k;
			break;
		}
	}
	free(freq);
	return q;
}

double rstats_rank_bound(const struct rank_shift *r, enum rstats_alt alt, double level)
{
	long n = r->pairs ? (long)r->pairs * (r->pairs + 1) / 2 : (long)r->nx * r->ny, k;
	double a = 1 - level, c;

	if (!r->d || !n || !(a > 0 && a < 1))
		return NAN;
	if (r->exact) {
		/* reject at W <= qu - 1 (a shift below) or W >= n - qu + 1 (above): R's interval */
		long qu = rank_quantile(r, a);

		if (qu < 0)
			return NAN;
		if (qu == 0)	/* even W = 0 is not rare enough: no margin can be shown */
			return alt == RSTATS_LESS ? INFINITY : -INFINITY;
		if (alt == RSTATS_LESS)
			return r->d[n - qu];		/* d_(n - qu + 1), 1-based */
		return r->d[qu - 1];			/* d_(qu) */
	}
	if (!(r->sigma > 0))
		return alt == RSTATS_LESS ? INFINITY : -INFINITY;
	if (alt == RSTATS_LESS) {
		/* below the margin: rejected while W < n/2 - 0.5 + sigma z_a, W = #{d > margin} */
		c = n / 2.0 - 0.5 + r->sigma * gsl_cdf_ugaussian_Pinv(a);
		k = (long)floor(n - c) + 1;		/* the first d_(k) with n - k < c */
		return k > n ? INFINITY : r->d[k < 1 ? 0 : k - 1];
	}
	c = n / 2.0 + 0.5 + r->sigma * gsl_cdf_ugaussian_Qinv(a);
	k = (long)ceil(n - c) - 1;			/* the last d_(k) with n - k > c */
	return k < 0 ? -INFINITY : r->d[k >= n ? n - 1 : k];
}

void rstats_rank_shift_free(struct rank_shift *r)
{
	free(r->d);
	r->d = NULL;
}

/* |e| ascending, its sign kept: the signed-rank test's order. */
static int by_magnitude(const void *a, const void *b)
{
	double x = fabs(*(const double *)a), y = fabs(*(const double *)b);

	return (x > y) - (x < y);
}

/*
 * V for the differences e[0..n) less margin, zeros (e == margin) dropped: the sum of the
 * midranks of |e - margin| where e - margin > 0. Sets *m to the pairs kept, *ties to
 * sum(t^3 - t) over tied magnitudes; -ENOMEM.
 */
static int signed_rank_v(const double *e, unsigned n, double margin, double *v, unsigned *m,
			 double *ties)
{
	double *a = malloc((n ? n : 1) * sizeof(*a));
	unsigned i, j, k;

	if (!a)
		return -ENOMEM;
	for (i = 0, k = 0; i < n; i++)
		if (e[i] - margin != 0)
			a[k++] = e[i] - margin;
	qsort(a, k, sizeof(*a), by_magnitude);
	*v = *ties = 0;
	for (i = 0; i < k; i = j) {
		double t, rank;

		for (j = i + 1; j < k && fabs(a[j]) == fabs(a[i]); j++)
			;
		t = j - i;
		rank = (i + 1 + j) / 2.0;
		*ties += t * t * t - t;
		for (unsigned q = i; q < j; q++)
			if (a[q] > 0)
				*v += rank;
	}
	*m = k;
	free(a);
	return 0;
}

static int signed_rank_p(double v, unsigned m, double ties, bool exact, enum rstats_alt alt,
			 struct rank_shift *r)
{
	double top = m * (m + 1) / 2.0, z, corr;

	r->sigma = sqrt(m * (m + 1) * (2.0 * m + 1) / 24 - ties / 48);
	if (exact) {
		long double *freq = malloc(((size_t)top + 1) * sizeof(*freq)), total, acc = 0;
		unsigned k;

		if (!freq)
			return -ENOMEM;
		total = sr_counts(m, freq);
		for (k = 0; k <= (unsigned)top; k++)
			if (alt == RSTATS_LESS ? (double)k <= v : (double)k >= v)
				acc += freq[k];
		free(freq);
		r->p = (double)(acc / total);
		return 0;
	}
	if (!(r->sigma > 0)) {
		r->p = 1;
		return 0;
	}
	corr = alt == RSTATS_GREATER ? 0.5 : -0.5;
	z = (v - top / 2 - corr) / r->sigma;
	r->p = alt == RSTATS_LESS ? gsl_cdf_ugaussian_P(z) : gsl_cdf_ugaussian_Q(z);
	return 0;
}

int rstats_signed_rank(const double *d, unsigned n, double margin, enum rstats_alt alt,
		       struct rank_shift *r)
{
	size_t nw = (size_t)n * (n + 1) / 2, k = 0;
	unsigned i, j, m;
	double ties;
	int ret;

	memset(r, 0, sizeof(*r));
	if (!n || alt == RSTATS_TWO_SIDED)
		return -EINVAL;
	r->d = malloc(nw * sizeof(*r->d));
	if (!r->d)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		for (j = i; j < n; j++)
			r->d[k++] = (d[i] + d[j]) / 2;
	qsort(r->d, nw, sizeof(*r->d), by_value);
	r->pairs = n;
	r->shift = nw % 2 ? r->d[nw / 2] : (r->d[nw / 2 - 1] + r->d[nw / 2]) / 2;
	ret = signed_rank_v(d, n, margin, &r->w, &m, &ties);
	if (!ret) {
		/* R: exact below 50 pairs, with neither ties nor differences at the margin */
		r->exact = n < 50 && m == n && ties == 0;
		ret = signed_rank_p(r->w, m, ties, r->exact, alt, r);
	}
	if (ret)
		rstats_rank_shift_free(r);
	return ret;
}

double rstats_signed_rank_min_p(unsigned n)
{
	return n ? fmin(1.0, ldexp(1.0, -(int)fmin(n, 1000))) : 1;
}

double rstats_mw_min_p(unsigned nx, unsigned ny, enum rstats_alt alt)
{
	double arrangements = 1;
	unsigned i;

	if (!nx || !ny)
		return 1;
	/* the most extreme arrangement is one of C(nx+ny, nx) */
	for (i = 1; i <= nx; i++)
		arrangements = arrangements * (ny + i) / i;
	return fmin(1.0, (alt == RSTATS_TWO_SIDED ? 2 : 1) / arrangements);
}

/*
 * The t statistic against margin, its p-value for the alternative asked and the two-sided
 * interval at level, from r->diff, r->se and r->df: the part Welch's and the paired test
 * share. With no spread at all (se 0) p is 0 when diff lies beyond margin, else 1.
 */
static void t_test_finish(double margin, enum rstats_alt alt, double level,
			  struct welch_result *r)
{
	double half;

	if (r->se > 0)
		r->t = (r->diff - margin) / r->se;
	else
		r->t = r->diff > margin ? INFINITY : r->diff < margin ? -INFINITY : 0;
	switch (alt) {
	case RSTATS_LESS:
		r->p = r->se > 0 ? gsl_cdf_tdist_P(r->t, r->df) : r->diff < margin ? 0 : 1;
		break;
	case RSTATS_GREATER:
		r->p = r->se > 0 ? gsl_cdf_tdist_Q(r->t, r->df) : r->diff > margin ? 0 : 1;
		break;
	default:
		r->p = r->se > 0 ? fmin(1.0, 2 * gsl_cdf_tdist_Q(fabs(r->t), r->df)) :
		       r->diff != margin ? 0 : 1;
		break;
	}
	half = r->se > 0 ? gsl_cdf_tdist_Pinv(1 - (1 - level) / 2, r->df) * r->se : 0;
	r->ci_lo = r->diff - half;
	r->ci_hi = r->diff + half;
}

int rstats_welch(const double *x, unsigned nx, const double *y, unsigned ny, double margin,
		 enum rstats_alt alt, double level, struct welch_result *r)
{
	double mx, my, vx, vy;

	memset(r, 0, sizeof(*r));
	if (nx < 2 || ny < 2 || level <= 0 || level >= 1)
		return -EINVAL;
	mx = gsl_stats_mean(x, 1, nx);
	my = gsl_stats_mean(y, 1, ny);
	vx = gsl_stats_variance_m(x, 1, nx, mx) / nx;
	vy = gsl_stats_variance_m(y, 1, ny, my) / ny;
	r->diff = my - mx;
	r->se = sqrt(vx + vy);
	if (r->se > 0)
		r->df = (vx + vy) * (vx + vy) / (vx * vx / (nx - 1) + vy * vy / (ny - 1));
	else
		r->df = nx + ny - 2;
	t_test_finish(margin, alt, level, r);
	return 0;
}

int rstats_paired(const double *x, const double *y, unsigned n, double margin,
		  enum rstats_alt alt, double level, struct welch_result *r)
{
	double *d;
	unsigned i;

	memset(r, 0, sizeof(*r));
	if (n < 2 || level <= 0 || level >= 1)
		return -EINVAL;
	d = malloc(n * sizeof(*d));
	if (!d)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		d[i] = y[i] - x[i];
	r->diff = gsl_stats_mean(d, 1, n);
	r->se = sqrt(gsl_stats_variance_m(d, 1, n, r->diff) / n);
	r->df = n - 1;
	free(d);
	t_test_finish(margin, alt, level, r);
	return 0;
}

double rstats_t_quantile(double p, double df)
{
	return gsl_cdf_tdist_Pinv(p, df);
}

static double resample_median(gsl_rng *rng, const double *x, unsigned n, double *buf)
{
	unsigned i;

	for (i = 0; i < n; i++)
		buf[i] = x[gsl_rng_uniform_int(rng, n)];
	gsl_sort(buf, 1, n);
	return gsl_stats_median_from_sorted_data(buf, 1, n);
}

int rstats_bootstrap_change(const double *x, unsigned nx, const double *y, unsigned ny,
			    unsigned iters, unsigned long seed, double level, double *lo,
			    double *hi)
{
	double *buf, *stat, mx, my;
	unsigned i, kept = 0;
	gsl_rng *rng;
	int ret = 0;

	if (!nx || !ny || !iters || level <= 0 || level >= 1)
		return -EINVAL;
	buf = malloc((nx > ny ? nx : ny) * sizeof(*buf));
	stat = malloc(iters * sizeof(*stat));
	rng = gsl_rng_alloc(gsl_rng_mt19937);
	if (!buf || !stat || !rng) {
		ret = -ENOMEM;
		goto out;
	}
	gsl_rng_set(rng, seed);
	for (i = 0; i < iters; i++) {
		mx = resample_median(rng, x, nx, buf);
		my = resample_median(rng, y, ny, buf);
		if (mx != 0)
			stat[kept++] = my / mx - 1;
	}
	if (!kept) {
		ret = -EDOM;
		goto out;
	}
	gsl_sort(stat, 1, kept);
	*lo = gsl_stats_quantile_from_sorted_data(stat, 1, kept, (1 - level) / 2);
	*hi = gsl_stats_quantile_from_sorted_data(stat, 1, kept, 1 - (1 - level) / 2);
out:
	if (rng)
		gsl_rng_free(rng);
	free(stat);
	free(buf);
	return ret;
}
