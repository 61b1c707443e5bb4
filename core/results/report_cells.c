/* Reports over cells: the sweep/run matrix table and CSV, and compare's table, JSON and JUnit. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/atomic.h"
#include "report/report.h"
#include "results/report_cells.h"

void fmt_metric(char *buf, size_t len, enum metric_id m, double v)
{
	double d;

	if (isnan(v)) {
		snprintf(buf, len, "-");
		return;
	}
	d = v / metric_table[m].display_div;
	if (m == MET_IOPS && fabs(d) >= 1e6)
		snprintf(buf, len, "%.2fM", d / 1e6);
	else if (m == MET_IOPS && fabs(d) >= 1e4)
		snprintf(buf, len, "%.1fk", d / 1e3);
	else if (fabs(d) >= 100)
		snprintf(buf, len, "%.0f", d);
	else
		snprintf(buf, len, "%.2f", d);
}

/* ---- a text table with columns sized to their contents ---- */

#define TCOLS 24
#define TCELL 96

struct table {
	unsigned rows, cols, cap;
	char (*cell)[TCOLS][TCELL];
	char *note;	/* per row: text printed after the columns (status reasons) */
};

static char (*table_row(struct table *t))[TCELL]
{
	if (t->rows == t->cap) {
		unsigned cap = t->cap ? t->cap * 2 : 32;
		void *c = realloc(t->cell, cap * sizeof(*t->cell));

		if (!c)
			return NULL;
		t->cell = c;
		t->cap = cap;
	}
	memset(t->cell[t->rows], 0, sizeof(t->cell[0]));
	return t->cell[t->rows++];
}

static void table_print(FILE *f, const struct table *t)
{
	unsigned w[TCOLS] = { 0 }, r, c;

	for (r = 0; r < t->rows; r++)
		for (c = 0; c < t->cols; c++)
			if (strlen(t->cell[r][c]) > w[c])
				w[c] = (unsigned)strlen(t->cell[r][c]);
	for (r = 0; r < t->rows; r++) {
		for (c = 0; c < t->cols; c++)
			fprintf(f, "%s%-*s", c ? "  " : "", c + 1 < t->cols ? (int)w[c] : 0,
				t->cell[r][c]);
		fputc('\n', f);
	}
}

/* ---- identity columns ---- */

static const char *const key_order[] = {
	"target", "workload", "job", "rw", "bs", "iodepth", "numjobs", "engine", "direct",
	"size", "runtime", "ramp", NULL,
};

static int key_rank(const char *k)
{
	int i;

	for (i = 0; key_order[i]; i++)
		if (!strcmp(key_order[i], k))
			return i;
	return 100;
}

static int cmp_keys(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	int rx = key_rank(x), ry = key_rank(y);

	return rx != ry ? rx - ry : strcmp(x, y);
}

static bool key_varies(const struct results *r, const char *k)
{
	const char *first = NULL, *v;
	unsigned i;

	for (i = 0; i < r->nr; i++) {
		v = json_string_value(json_object_get(r->cells[i].identity, k));
		if (!v)
			return true;
		if (!first)
			first = v;
		else if (strcmp(first, v))
			return true;
	}
	return false;
}

unsigned cells_identity_keys(const struct results *r, bool varying_only, const char **keys,
			     unsigned max)
{
	unsigned i, j, n = 0;
	const char *k;
	json_t *v;

	for (i = 0; i < r->nr; i++) {
		json_object_foreach(r->cells[i].identity, k, v) {
			for (j = 0; j < n && strcmp(keys[j], k); j++)
				;
			if (j < n || n == max)
				continue;
			if (varying_only && r->nr > 1 && !key_varies(r, k))
				continue;
			keys[n++] = k;
		}
	}
	qsort(keys, n, sizeof(*keys), cmp_keys);
	return n;
}

static void fixed_keys_line(FILE *f, const struct results *r, const char **vary, unsigned nv)
{
	const char *all[64];
	unsigned n = cells_identity_keys(r, false, all, 64), i, j;
	bool any = false;

	if (!r->nr)
		return;
	for (i = 0; i < n; i++) {
		for (j = 0; j < nv && strcmp(vary[j], all[i]); j++)
			;
		if (j < nv)
			continue;
		fprintf(f, "%s%s=%s", any ? " " : "same in every cell: ", all[i],
			json_string_value(json_object_get(r->cells[0].identity, all[i])));
		any = true;
	}
	if (any)
		fputc('\n', f);
}

/* A sample's note when its direct=1 was not honoured (a cache answered), else NULL. */
static const char *cell_not_direct(const struct cell *c)
{
	const json_t *smp;
	const char *note;
	size_t i;

	json_array_foreach(c->samples, i, smp) {
		note = json_string_value(json_object_get(json_object_get(smp, "iopath"),
							 "direct_not_honoured"));
		if (note)
			return note;
	}
	return NULL;
}

/* The lines under the table: each distinct "not direct" note once, with its cells counted. */
static void not_direct_lines(FILE *f, const struct results *r)
{
	unsigned i, j, n;
	const char *note;

	for (i = 0; i < r->nr; i++) {
		note = cell_not_direct(&r->cells[i]);
		for (j = 0; note && j < i; j++)
			if (cell_not_direct(&r->cells[j]) && !strcmp(cell_not_direct(&r->cells[j]), note))
				break;
		if (!note || j < i)
			continue;
		for (n = 0, j = i; j < r->nr; j++)
			n += cell_not_direct(&r->cells[j]) && !strcmp(cell_not_direct(&r->cells[j]), note);
		fprintf(f, "NOT direct I/O in %u cell(s) (direct=1 asked, not honoured): %s\n", n, note);
	}
}

/*
 * Each cell as its neighbours see it (report_cell_implausible): its identity, its median
 * IOPS, its target's filesystem. fs: one name per cell. NULL on ENOMEM.
 */
struct plaus_cell *cells_plausibility(const struct results *r, char (**fs)[160])
{
	struct plaus_cell *pc = calloc(r->nr + 1, sizeof(*pc));
	unsigned i;

	*fs = calloc(r->nr + 1, sizeof(**fs));
	if (!pc || !*fs) {
		free(pc);
		free(*fs);
		*fs = NULL;
		return NULL;
	}
	for (i = 0; i < r->nr; i++) {
		struct rsummary s;

		pc[i].identity = r->cells[i].identity;
		pc[i].value = r->cells[i].status == CELL_OK && !cell_summary(&r->cells[i], MET_IOPS, &s)
				     ? s.median : 0;
		pc[i].fs = report_target_fs(r->targets,
					    json_string_value(json_object_get(r->cells[i].identity,
									      "target")),
					    (*fs)[i], sizeof((*fs)[i]));
	}
	return pc;
}

/* The status column: ok, unreliable, NOT direct, implausible, or what stopped the cell. */
static void cell_status_text(char *buf, size_t len, const struct cell *cell, bool noisy,
			     bool implausible)
{
	const char *nd = cell_not_direct(cell) ? ", NOT direct" : "";

	if (cell->status == CELL_OK)
		snprintf(buf, len, "%s%s%s", noisy ? "unreliable" : "ok", nd,
			 implausible ? ", implausible" : "");
	else
		snprintf(buf, len, "%s: %.*s", cell_status_name(cell->status), (int)len - 16,
			 cell->reason ? cell->reason : "");
}

/*
 * The median over a cell's samples of the p99 latency from the rate's schedule (lat_sched),
 * in ns; NAN when no sample of the cell was rate-limited.
 */
static double cell_sched_p99(const struct cell *cell)
{
	double v[64];
	unsigned k = 0;
	size_t i;
	const json_t *smp;

	json_array_foreach(cell->samples, i, smp) {
		const json_t *lat = metrics_lat_sched(smp);
		double x = lat ? metrics_percentile(lat, 99.0, 1) : NAN;

		if (!isnan(x) && k < 64)
			v[k++] = x;
	}
	return k ? rstats_quantile(v, k, 0.5) : NAN;
}

/* The table's header row: the varying identity keys, then the figures' columns. */
static unsigned cells_table_header(char (*row)[TCELL], const char *const *vary, unsigned nv,
				   bool repeated, bool sched)
{
	unsigned k, c;

	for (k = 0; k < nv; k++)
		snprintf(row[k], TCELL, "%s", vary[k]);
	c = nv;
	snprintf(row[c++], TCELL, "n");
	snprintf(row[c++], TCELL, "IOPS");
	if (repeated) {
		snprintf(row[c++], TCELL, "IOPS min-max");
		snprintf(row[c++], TCELL, "95%% CI");
		snprintf(row[c++], TCELL, "CV");
	}
	snprintf(row[c++], TCELL, "MiB/s");
	snprintf(row[c++], TCELL, "p50 us");
	snprintf(row[c++], TCELL, "p99 us");
	snprintf(row[c++], TCELL, "p99.9 us");
	if (sched)
		snprintf(row[c++], TCELL, "sched p99 us");
	snprintf(row[c++], TCELL, "status");
	return c;
}

/*
 * A repeated cell's spread of IOPS into row[c..c+2]: min-max, the 95% interval (cut at 0, and
 * *clipped set, where it reaches below), the CV; "-" where the cell has one sample. Returns the
 * next column.
 */
static unsigned iops_spread_cells(char (*row)[TCELL], unsigned c, const struct rsummary *s,
				  bool have, bool noisy, bool *clipped)
{
	char a[32], b[32];

	if (!have || s->n <= 1) {
		snprintf(row[c++], TCELL, "-");
		snprintf(row[c++], TCELL, "-");
		snprintf(row[c++], TCELL, "-");
		return c;
	}
	fmt_metric(a, sizeof(a), MET_IOPS, s->min);
	fmt_metric(b, sizeof(b), MET_IOPS, s->max);
	snprintf(row[c++], TCELL, "%s-%s", a, b);
	/* IOPS are never negative: a t interval that reaches below is cut at 0 */
	if (s->ci_lo < 0)
		snprintf(a, sizeof(a), "0");
	else
		fmt_metric(a, sizeof(a), MET_IOPS, s->ci_lo);
	*clipped |= s->ci_lo < 0;
	fmt_metric(b, sizeof(b), MET_IOPS, s->ci_hi);
	snprintf(row[c++], TCELL, "%s-%s", a, b);
	snprintf(row[c++], TCELL, "%.1f%%%s", 100 * s->cv, noisy ? " !" : "");
	return c;
}

/* What follows the table: cells not direct, implausible ones and why, the notes that apply. */
static void cells_table_notes(FILE *f, const struct results *r, const struct plaus_cell *pc,
			      bool clipped, unsigned unreliable, double cv_warn)
{
	char why[400];
	unsigned i;

	not_direct_lines(f, r);
	/* a cell its neighbours contradict: which, and why */
	for (i = 0; pc && i < r->nr; i++)
		if (report_cell_implausible(pc, r->nr, i, why, sizeof(why)))
			fprintf(f, "implausible: %s: %s\n", r->cells[i].label, why);
	if (clipped)
		fprintf(f, "95%% CI: a lower end below zero (repeats too few or too spread for a symmetric interval) is shown as 0\n");
	if (unreliable)
		fprintf(f, "warning: %u cell(s) marked unreliable: IOPS or bandwidth varied by more than %.0f%% (coefficient of variation) across repeats; repeat more or quiet the machine\n",
			unreliable, cv_warn * 100);
	if (r->interrupted)
		fprintf(f, "(interrupted: only the cells shown with samples finished)\n");
}

void report_cells_table(FILE *f, const struct results *r, double cv_warn)
{
	const char *vary[TCOLS];
	unsigned nv = cells_identity_keys(r, true, vary, 10), i, k, c, unreliable = 0;
	struct table t = { 0 };
	bool repeated = false, clipped = false, sched = false;
	char (*row)[TCELL], (*fs)[160] = NULL, why[400];
	struct plaus_cell *pc;

	for (i = 0; i < r->nr; i++) {
		repeated |= r->cells[i].nr > 1;
		/* rate-limited cells: a column of their latency from the schedule */
		sched |= !isnan(cell_sched_p99(&r->cells[i]));
	}
	fixed_keys_line(f, r, vary, nv);
	row = table_row(&t);
	if (!row)
		return;
	pc = cells_plausibility(r, &fs);
	t.cols = cells_table_header(row, vary, nv, repeated, sched);
	for (i = 0; i < r->nr; i++) {
		const struct cell *cell = &r->cells[i];
		struct rsummary s[MET_NR];
		bool have[MET_NR], noisy;
		unsigned m;
		double cv;

		row = table_row(&t);
		if (!row)
			break;
		for (k = 0; k < nv; k++)
			snprintf(row[k], TCELL, "%s",
				 json_string_value(json_object_get(cell->identity, vary[k])) ?: "-");
		for (m = 0; m < MET_NR; m++)
			have[m] = !cell_summary(cell, m, &s[m]);
		noisy = cell_unreliable(cell, cv_warn, &cv);
		c = nv;
		snprintf(row[c++], TCELL, "%u", cell->nr);
		fmt_metric(row[c++], TCELL, MET_IOPS, have[MET_IOPS] ? s[MET_IOPS].median : NAN);
		if (repeated)
			c = iops_spread_cells(row, c, &s[MET_IOPS], have[MET_IOPS], noisy, &clipped);
		for (m = MET_BW; m < MET_COLUMNS; m++)	/* lat_sched's p99: its own column */
			fmt_metric(row[c++], TCELL, m, have[m] ? s[m].median : NAN);
		if (sched)
			fmt_metric(row[c++], TCELL, MET_CLAT_P99, cell_sched_p99(cell));
		cell_status_text(row[c++], TCELL, cell, noisy,
				 pc && report_cell_implausible(pc, r->nr, i, why, sizeof(why)));
		unreliable += noisy;
	}
	table_print(f, &t);
	cells_table_notes(f, r, pc, clipped, unreliable, cv_warn);
	free(pc);
	free(fs);
	free(t.cell);
}

#define NR_STAT_COLS 8

int report_cells_csv(FILE *f, const struct results *r)
{
	static const char *const stat_cols[NR_STAT_COLS] = { "median", "min", "max", "mean", "sd",
							     "cv", "ci95_lo", "ci95_hi" };
	const char *keys[64];
	unsigned nk = cells_identity_keys(r, false, keys, 64), i, k, m, s;

	for (k = 0; k < nk; k++) {
		report_csv_field(f, keys[k]);
		fputc(',', f);
	}
	fputs("label,status,reason,not_direct,repeats", f);
	/*
	 * units in the header (bw_bytes_per_s_median, clat_p99_ns_max); the cv is a ratio. The
	 * columns are the store's (MET_COLUMNS): lat_sched stays in the JSON, so that the CSV's
	 * layout is what its readers know
	 */
	for (m = 0; m < MET_COLUMNS; m++)
		for (s = 0; s < NR_STAT_COLS; s++) {
			const char *unit = metric_table[m].stored_unit;

			if (unit && strcmp(stat_cols[s], "cv"))
				fprintf(f, ",%s_%s_%s", metric_table[m].name, unit, stat_cols[s]);
			else
				fprintf(f, ",%s_%s", metric_table[m].name, stat_cols[s]);
		}
	fputc('\n', f);
	for (i = 0; i < r->nr; i++) {
		const struct cell *c = &r->cells[i];

		for (k = 0; k < nk; k++) {
			report_csv_field(f, json_string_value(json_object_get(c->identity, keys[k])) ?: "");
			fputc(',', f);
		}
		report_csv_field(f, c->label);
		fprintf(f, ",%s,", cell_status_name(c->status));
		report_csv_field(f, c->reason ? c->reason : "");
		fputc(',', f);
		/* direct=1 asked and not honoured: the note, as the table's footnote gives it */
		report_csv_field(f, cell_not_direct(c) ? cell_not_direct(c) : "");
		fprintf(f, ",%u", c->nr);
		for (m = 0; m < MET_COLUMNS; m++) {
			struct rsummary sm;
			double v[NR_STAT_COLS];

			if (cell_summary(c, m, &sm)) {
				fputs(",,,,,,,,", f);
				continue;
			}
			v[0] = sm.median;
			v[1] = sm.min;
			v[2] = sm.max;
			v[3] = sm.mean;
			v[4] = sm.sd;
			v[5] = sm.cv;
			/* no metric is below zero: a t interval that reaches below is cut at 0, as in the table */
			v[6] = sm.ci_lo < 0 ? 0 : sm.ci_lo;
			v[7] = sm.ci_hi;
			for (s = 0; s < NR_STAT_COLS; s++) {
				fputc(',', f);
				report_csv_number(f, v[s]);
			}
		}
		fputc('\n', f);
	}
	return ferror(f) ? -EIO : 0;
}

/* ---- compare ---- */

static void describe_side(FILE *f, const char *tag, const struct results *r)
{
	char when[32] = "time unknown";
	time_t t = (time_t)(r->timestamp_ms / 1000);
	struct tm tm;
	const char *k;
	json_t *v;

	if (r->timestamp_ms) {
		gmtime_r(&t, &tm);
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M UTC", &tm);
	}
	fprintf(f, "%-4s %s: %s, %s, %u cells", tag, r->source, r->format, when, r->nr);
	json_object_foreach(r->labels, k, v)
		fprintf(f, ", %s=%s", k, json_string_value(v) ?: "");
	fputc('\n', f);
}

static const char *verdict_mark(const struct cmp_metric *m, const struct cmp_opts *o)
{
	if (cmp_fails(m, o))
		return "!!";
	if (m->env_explained)
		return "?";
	if (m->verdict == CMP_IMPROVEMENT)
		return "++";
	if (m->inconclusive || m->verdict == CMP_NOISE)
		return "?";
	return "";
}

/* The verdict as the table shows it: failing ones in capitals. */
static const char *verdict_text(const struct cmp_metric *m, const struct cmp_opts *o)
{
	if (m->verdict == CMP_FAILED)
		return "FAILED in CUR";
	if (m->env_explained)
		return "regression? the environment differed";
	return cmp_fails(m, o) ? "REGRESSION" : cmp_verdict_name(m->verdict);
}

/* The bound the test decides by: "<= -12.3%" for a drop, ">= +8.1%" for a rise. */
void bound_text(char *buf, size_t len, const struct cmp_metric *m)
{
	metrics_bound_text(buf, len, m->ci_lo, m->ci_hi);
}

/* The cells whose repeats varied too much to trust, named. */
static void unreliable_lines(FILE *f, const struct cmp_report *rep)
{
	unsigned i;

	for (i = 0; i < rep->nr; i++) {
		const struct cmp_row *r = &rep->rows[i];

		if (!r->unreliable_base && !r->unreliable_cur)
			continue;
		fprintf(f, "unreliable: %s: IOPS or bandwidth varied %.0f%% across repeats in BASE, %.0f%% in CUR (over %.0f%%): its verdicts rest on noisy repeats\n",
			r->base->label, 100 * r->cv_base, 100 * r->cv_cur, 100 * CV_WARN_DEFAULT);
	}
}

/*
 * Changes beyond the threshold the test could not show: what it could have shown at the
 * spread it saw, so that a silent verdict says it could not have fired.
 */
static void undetectable_lines(FILE *f, const struct cmp_report *rep)
{
	unsigned i, k;

	for (i = 0; i < rep->nr; i++) {
		const struct cmp_row *r = &rep->rows[i];

		for (k = 0; k < r->nr; k++) {
			const struct cmp_metric *m = &r->met[k];

			if (m->verdict != CMP_NOISE || isnan(m->detectable))
				continue;
			if (fabs(m->detectable) < METRICS_BOUND_MAX)
				fprintf(f, "cannot show: %s %s: at this spread only a change beyond %+.0f%% could be shown (%s)\n",
					r->base->label, metric_table[m->m].name, 100 * m->detectable,
					m->pairs ? "more alternations of BASE and CUR" :
					"run BASE and CUR in alternation, A B A B, or repeat more");
			else
				fprintf(f, "cannot show: %s %s: at this spread no change under ten times could be shown (%s)\n",
					r->base->label, metric_table[m->m].name,
					m->pairs ? "more alternations of BASE and CUR" :
					"run BASE and CUR in alternation, A B A B, or repeat more");
		}
	}
}

/* What a regression is and how the compare tested it, one line. */
static void method_line(FILE *f, const struct cmp_report *rep, const struct cmp_opts *o)
{
	fprintf(f, "a regression: shown to be worse by more than %g%%: the one-sided bound of the change lies beyond it (Welch t on the log repeats",
		o->threshold * 100);
	if (rep->paired > rep->signed_ranked)
		fprintf(f, ", paired t on the %u metric(s) whose sides ran in alternation",
			rep->paired - rep->signed_ranked);
	if (rep->signed_ranked)
		fprintf(f, ", the pairs' signed ranks on the %u metric(s) with %u pairs or more: the Hodges-Lehmann shift, Wilcoxon",
			rep->signed_ranked, CMP_SIGNED_RANK_MIN);
	if (rep->ranked)
		fprintf(f, ", ranks on the %u metric(s) with %u repeats a side or more: the Hodges-Lehmann shift, Mann-Whitney",
			rep->ranked, CMP_RANK_MIN);
	fprintf(f, "; Benjamini-Hochberg over the %u metric(s) tested, alpha %g", rep->tested, o->alpha);
	if (rep->tested)
		fprintf(f, ": bounds at %.4g%% one-sided", 100 * rep->level);
	fputs(")\n", f);
}

void report_compare_text(FILE *f, const struct cmp_report *rep, const struct results *base,
			 const struct results *cur, const struct cmp_opts *o)
{
	struct table t = { 0 };
	char (*row)[TCELL], eb[160], ec[160];
	unsigned i, k, c, fails = 0;

	describe_side(f, "BASE", base);
	describe_side(f, "CUR", cur);
	method_line(f, rep, o);
	for (i = 0; i < rep->nr_warn; i++)
		fprintf(f, "warning: %s\n", rep->warn[i]);
	for (i = 0; i < rep->nr_changed; i++)
		fprintf(f, "changed: %s\n", rep->changed[i]);
	env_describe(&rep->env_base, eb, sizeof(eb));
	env_describe(&rep->env_cur, ec, sizeof(ec));
	fprintf(f, "environment: BASE %s; CUR %s\n", eb, ec);
	fputc('\n', f);
	row = table_row(&t);
	if (!row)
		return;
	c = 0;
	snprintf(row[c++], TCELL, " ");
	snprintf(row[c++], TCELL, "cell");
	snprintf(row[c++], TCELL, "metric");
	snprintf(row[c++], TCELL, "base");
	snprintf(row[c++], TCELL, "cur");
	snprintf(row[c++], TCELL, "change");
	snprintf(row[c++], TCELL, "bound");
	snprintf(row[c++], TCELL, "p adj");
	snprintf(row[c++], TCELL, "n");
	snprintf(row[c++], TCELL, "verdict");
	t.cols = c;
	for (i = 0; i < rep->nr; i++) {
		const struct cmp_row *r = &rep->rows[i];

		for (k = 0; k < r->nr; k++) {
			const struct cmp_metric *m = &r->met[k];

			row = table_row(&t);
			if (!row)
				goto print;
			c = 0;
			snprintf(row[c++], TCELL, "%s", verdict_mark(m, o));
			snprintf(row[c++], TCELL, "%.*s", TCELL - 1, k ? "" : r->base->label);
			snprintf(row[c++], TCELL, "%s", metric_table[m->m].name);
			fmt_metric(row[c++], TCELL, m->m, m->nb ? m->base : NAN);
			fmt_metric(row[c++], TCELL, m->m, m->nc ? m->cur : NAN);
			if (m->nb && m->nc)
				snprintf(row[c++], TCELL, "%+.1f%%", 100 * m->change);
			else
				snprintf(row[c++], TCELL, "-");
			bound_text(row[c++], TCELL, m);
			if (!isnan(m->p_adj))
				snprintf(row[c++], TCELL, "%.3g", m->p_adj);
			else
				snprintf(row[c++], TCELL, "-");
			if (m->pairs)
				snprintf(row[c++], TCELL, "%u/%u (%u pairs)", m->nb, m->nc, m->pairs);
			else if (m->ranked)
				snprintf(row[c++], TCELL, "%u/%u (ranks)", m->nb, m->nc);
			else
				snprintf(row[c++], TCELL, "%u/%u", m->nb, m->nc);
			snprintf(row[c++], TCELL, "%s%s%.*s", verdict_text(m, o),
				 m->note[0] ? ": " : "", TCELL - 40, m->note);
			fails += cmp_fails(m, o) && m->verdict != CMP_FAILED;
		}
	}
print:
	table_print(f, &t);
	free(t.cell);
	for (i = 0; i < rep->nr_only_base; i++)
		fprintf(f, "only in BASE (not compared): %s\n", rep->only_base[i]->label);
	for (i = 0; i < rep->nr_only_cur; i++)
		fprintf(f, "only in CUR (not compared): %s\n", rep->only_cur[i]->label);
	unreliable_lines(f, rep);
	undetectable_lines(f, rep);
	for (i = 0; i < rep->nr; i++)
		if (rep->rows[i].env_differed)
			fprintf(f, "environment: %s: %s\n", rep->rows[i].base->label, rep->rows[i].env_why);
	if (rep->tails_unjudged)
		fprintf(f, "%u tail percentile(s) not judged: too few I/Os or repeats for them (the rows say which)%s\n",
			rep->tails_unjudged, o->metrics_given ? "; asked for by --metric: inconclusive" : "");
	fprintf(f, "\n%u cell(s) compared: %u regression(s)%s, %u improvement(s), %u within noise, %u cannot be judged\n",
		rep->nr, fails, o->strict && rep->inconclusive ? " (--strict)" : "", rep->improvements,
		rep->noise, rep->unjudged);
	if (rep->failed)
		fprintf(f, "%u cell(s) FAILED in CUR (not in BASE): a failure fails the comparison\n",
			rep->failed);
	if (rep->base_failed)
		fprintf(f, "%u cell(s) failed in BASE: not judged\n", rep->base_failed);
	if (rep->env_explained && !fails)
		fprintf(f, "the environment differed: %s: %u regression(s) not judged (exit 3; --ignore-environment judges them)\n",
			rep->env_why, rep->env_explained);
	if (rep->inconclusive_cells && !o->strict)
		fprintf(f, "%u cell(s) could not be judged: the comparison is inconclusive%s\n",
			rep->inconclusive_cells, o->allow_inconclusive ? " (--allow-inconclusive)" : "");
}

static json_t *num_or_null(double v)
{
	return isnan(v) || isinf(v) ? json_null() : json_real(v);
}

/* A side's environment (envcmp.h), null where its repeats did not record one. */
json_t *report_env_json(const struct env_side *e)
{
	if (!e->n)
		return json_null();
	json_t *o = json_pack("{s:i, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
			 "repeats", (json_int_t)e->n,
			 "other_cpu", num_or_null(e->other_cpu), "steal", num_or_null(e->steal),
			 "load1", num_or_null(e->load1), "other_disk_bytes_per_s",
			 num_or_null(e->other_disk), "own_disk_bytes_per_s", num_or_null(e->own_disk),
			 "time_per_io_s", num_or_null(e->time_per_io), "runq_wait_per_io_s",
			 num_or_null(e->wait_per_io), "other_disk_ios_per_s", num_or_null(e->other_ios),
			 "own_disk_ios_per_s", num_or_null(e->own_ios), "wakeups_per_io",
			 num_or_null(e->wakes_per_io), "runq_wait_per_wakeup_s", num_or_null(e->wait_per_wake),
			 "other_disk_in_flight", num_or_null(e->other_flight), "own_in_flight_per_io_s",
			 num_or_null(e->own_flight_per_io), "other_disk_busy", num_or_null(e->other_busy));

	if (o) {
		json_object_set_new(o, "on_cpu_per_io_s", num_or_null(e->oncpu_per_io));
		json_object_set_new(o, "ref_cpu_ns", num_or_null(e->ref_cpu));
		json_object_set_new(o, "ref_mem_ns", num_or_null(e->ref_mem));
	}
	return o;
}

static json_t *reason_json(const struct cell *c)
{
	return c->reason ? json_string(c->reason) : json_null();
}

/* How the compare tested: the threshold, the tests, the correction and the bounds' level. */
static void method_json(json_t *root, const struct cmp_report *rep, const struct cmp_opts *o)
{
	json_object_set_new(root, "threshold", json_real(o->threshold));
	json_object_set_new(root, "alpha", json_real(o->alpha));
	json_object_set_new(root, "test", json_sprintf("Welch t on the log repeats (paired t on the log means of alternating runs where BASE and CUR ran in alternation, A B A B, %u pairs or more; from %u pairs, Wilcoxon's signed-rank test of the pairs' log differences with their Hodges-Lehmann shift; with %u repeats a side or more, not alternating, ranks: the Hodges-Lehmann shift of the log repeats with the Mann-Whitney test), one-sided against the threshold; Benjamini-Hochberg over the tests of the compare; the one-sided bound of the geometric-mean change (of the shift, for ranks) at ci_level", CMP_PAIRS_MIN, CMP_SIGNED_RANK_MIN, CMP_RANK_MIN));
	json_object_set_new(root, "correction", json_string("benjamini-hochberg"));
	json_object_set_new(root, "tests", json_integer(rep->tested));
	json_object_set_new(root, "paired_tests", json_integer(rep->paired));
	json_object_set_new(root, "ranked_tests", json_integer(rep->ranked));
	json_object_set_new(root, "signed_rank_tests", json_integer(rep->signed_ranked));
	json_object_set_new(root, "ci_level", num_or_null(rep->level));
}

/* One metric of a compared cell: the verdict, both sides, the change and how it was tested. */
static json_t *cmp_metric_json(const struct cmp_metric *m, const struct cmp_opts *o)
{
	json_t *m_json;

	m_json = json_pack("{s:s, s:s, s:b, s:b, s:i, s:i, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:s}",
		"metric", metric_table[m->m].name, "verdict", cmp_verdict_name(m->verdict),
		"fails", cmp_fails(m, o), "inconclusive", m->inconclusive,
		"n_base", (json_int_t)m->nb,
		"n_cur", (json_int_t)m->nc, "base", num_or_null(m->nb ? m->base : NAN),
		"cur", num_or_null(m->nc ? m->cur : NAN),
		"change", num_or_null(m->nb && m->nc ? m->change : NAN),
		"change_gm", num_or_null(m->gm_change),
		"change_ci_lo", num_or_null(m->ci_lo), "change_ci_hi", num_or_null(m->ci_hi),
		"p", num_or_null(m->p), "df", num_or_null(m->df), "cv_base", num_or_null(m->nb > 1 ? m->cv_base : NAN),
		"cv_cur", num_or_null(m->nc > 1 ? m->cv_cur : NAN), "note", m->note);
	json_object_update_missing_new(m_json,
		json_pack("{s:o, s:o, s:b, s:b, s:b}", "p_adj", num_or_null(m->p_adj),
			  "ci_level", num_or_null(m->level), "tested", m->tested,
			  "tail_unjudged", m->tail_unjudged,
			  "env_explained", m->env_explained));
	json_object_update_missing_new(m_json,
		json_pack("{s:i, s:o, s:s, s:o}", "pairs", (json_int_t)m->pairs,
			  "detectable_change", num_or_null(m->detectable), "test",
			  !m->tested ? "none" : m->pairs && m->ranked ? "signed-rank" : m->pairs ? "paired" :
			  m->ranked ? "rank" : "welch",
			  "shift", num_or_null(m->ranked ? expm1(m->diff) : NAN)));
	return m_json;
}

/* One compared cell: its identity, both sides' status and environment, its metrics (mets). */
static json_t *cmp_row_json(const struct cmp_row *r, json_t *mets)
{
	json_t *row;

	row = json_pack("{s:s, s:s, s:O, s:s, s:s, s:o, s:o, s:o, s:b, s:b, s:f, s:f}",
			"label", r->base->label, "key", r->base->key,
			"identity", r->base->identity,
			"status_base", cell_status_name(r->base->status),
			"status_cur", cell_status_name(r->cur->status),
			"reason_base", reason_json(r->base),
			"reason_cur", reason_json(r->cur), "metrics", mets,
			"unreliable_base", r->unreliable_base,
			"unreliable_cur", r->unreliable_cur,
			"cv_base", r->cv_base, "cv_cur", r->cv_cur);
	json_object_update_missing_new(row,
		json_pack("{s:o, s:o, s:b, s:o}", "environment_base", report_env_json(&r->env_base),
			  "environment_cur", report_env_json(&r->env_cur), "env_differed",
			  r->env_differed, "env_why", r->env_differed ?
			  json_string(r->env_why) : json_null()));
	return row;
}

json_t *report_compare_json(const struct cmp_report *rep, const struct results *base,
			    const struct results *cur, const struct cmp_opts *o)
{
	json_t *root = json_object(), *rows = json_array(), *warn = json_array(),
	       *changed = json_array(), *ob = json_array(), *oc = json_array(),
	       *unrel = json_array();
	unsigned i, k, fails = 0;

	if (!root || !rows || !warn || !changed || !ob || !oc || !unrel) {
		json_decref(unrel);
		json_decref(root);
		json_decref(rows);
		json_decref(warn);
		json_decref(changed);
		json_decref(ob);
		json_decref(oc);
		return NULL;
	}
	for (i = 0; i < rep->nr; i++) {
		const struct cmp_row *r = &rep->rows[i];
		json_t *mets = json_array();

		for (k = 0; k < r->nr; k++) {
			const struct cmp_metric *m = &r->met[k];

			fails += cmp_fails(m, o) && m->verdict != CMP_FAILED;
			json_array_append_new(mets, cmp_metric_json(m, o));
		}
		json_array_append_new(rows, cmp_row_json(r, mets));
		if (r->unreliable_base || r->unreliable_cur)
			json_array_append_new(unrel, json_string(r->base->label));
	}
	for (i = 0; i < rep->nr_warn; i++)
		json_array_append_new(warn, json_string(rep->warn[i]));
	for (i = 0; i < rep->nr_changed; i++)
		json_array_append_new(changed, json_string(rep->changed[i]));
	for (i = 0; i < rep->nr_only_base; i++)
		json_array_append_new(ob, json_string(rep->only_base[i]->label));
	for (i = 0; i < rep->nr_only_cur; i++)
		json_array_append_new(oc, json_string(rep->only_cur[i]->label));
	json_object_set_new(root, "base", json_string(base->source));
	json_object_set_new(root, "cur", json_string(cur->source));
	method_json(root, rep, o);
	json_object_set_new(root, "tails_unjudged", json_integer(rep->tails_unjudged));
	json_object_set_new(root, "unreliable_cells", unrel);
	json_object_set_new(root, "cv_warn", json_real(CV_WARN_DEFAULT));
	json_object_set_new(root, "strict", json_boolean(o->strict));
	json_object_set_new(root, "allow_inconclusive", json_boolean(o->allow_inconclusive));
	json_object_set_new(root, "exit_code", json_integer(cmp_exit_code(rep, o)));
	json_object_set_new(root, "outcome", json_string(cmp_exit_code(rep, o) == CMP_EXIT_REGRESSED ?
			    "regressed" : rep->env_explained ? "environment differed" :
			    rep->inconclusive ? "inconclusive" : "judged"));
	json_object_set_new(root, "environment", json_pack("{s:o, s:o, s:i, s:o, s:b}",
			    "base", report_env_json(&rep->env_base), "cur", report_env_json(&rep->env_cur),
			    "explained_regressions", (json_int_t)rep->env_explained, "why",
			    rep->env_why[0] ? json_string(rep->env_why) : json_null(),
			    "ignored", o->ignore_env));
	json_object_set_new(root, "regressions", json_integer(fails));
	json_object_set_new(root, "failed_in_cur", json_integer(rep->failed));
	json_object_set_new(root, "failed_in_base", json_integer(rep->base_failed));
	json_object_set_new(root, "improvements", json_integer(rep->improvements));
	json_object_set_new(root, "unjudged", json_integer(rep->unjudged));
	json_object_set_new(root, "inconclusive", json_integer(rep->inconclusive));
	json_object_set_new(root, "inconclusive_cells", json_integer(rep->inconclusive_cells));
	json_object_set_new(root, "within_noise", json_integer(rep->noise));
	json_object_set_new(root, "warnings", warn);
	json_object_set_new(root, "changed", changed);
	json_object_set_new(root, "cells", rows);
	json_object_set_new(root, "only_in_base", ob);
	json_object_set_new(root, "only_in_cur", oc);
	return root;
}

static void xml_escaped(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&apos;", f); break;
		default:
			if ((unsigned char)*s >= 0x20 || *s == '\n' || *s == '\t')
				fputc(*s, f);
		}
	}
}

int report_compare_junit(FILE *f, const struct cmp_report *rep, const struct results *base,
			 const struct results *cur, const struct cmp_opts *o)
{
	unsigned i, k, tests = 0, fails = 0, skipped = 0;
	char a[32], b[32];

	for (i = 0; i < rep->nr; i++) {
		for (k = 0; k < rep->rows[i].nr; k++) {
			tests++;
			fails += cmp_fails(&rep->rows[i].met[k], o);
			skipped += !cmp_fails(&rep->rows[i].met[k], o) &&
				   (rep->rows[i].met[k].inconclusive ||
				    rep->rows[i].met[k].verdict == CMP_NO_DATA);
		}
	}
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	fprintf(f, "<testsuites name=\"iopath compare\" tests=\"%u\" failures=\"%u\" skipped=\"%u\">\n",
		tests, fails, skipped);
	fprintf(f, "  <testsuite name=\"");
	xml_escaped(f, base->source);
	fputs(" vs ", f);
	xml_escaped(f, cur->source);
	fprintf(f, "\" tests=\"%u\" failures=\"%u\" skipped=\"%u\">\n", tests, fails, skipped);
	for (i = 0; i < rep->nr; i++) {
		const struct cmp_row *r = &rep->rows[i];

		for (k = 0; k < r->nr; k++) {
			const struct cmp_metric *m = &r->met[k];

			fputs("    <testcase classname=\"iopath.compare\" name=\"", f);
			xml_escaped(f, r->base->label);
			fprintf(f, " %s\">", metric_table[m->m].name);
			fmt_metric(a, sizeof(a), m->m, m->base);
			fmt_metric(b, sizeof(b), m->m, m->cur);
			if (m->verdict == CMP_FAILED) {
				fputs("\n      <failure type=\"failed\" message=\"failed in CUR: ", f);
				xml_escaped(f, m->note);
				fputs("\">", f);
				xml_escaped(f, r->base->key);
				fputs("</failure>\n    ", f);
			} else if (cmp_fails(m, o) && m->inconclusive) {
				fputs("\n      <failure type=\"inconclusive\" message=\"cannot judge (--strict): ", f);
				xml_escaped(f, m->note);
				fputs("\">", f);
				xml_escaped(f, r->base->key);
				fputs("</failure>\n    ", f);
			} else if (cmp_fails(m, o)) {
				fprintf(f, "\n      <failure type=\"regression\" message=\"%s %s -&gt; %s (%+.1f%%, adjusted p=%.3g)\">",
					metric_table[m->m].name, a, b, 100 * m->change, m->p_adj);
				xml_escaped(f, r->base->key);
				fputs("</failure>\n    ", f);
			} else if (m->inconclusive || m->verdict == CMP_NO_DATA) {
				fputs("<skipped message=\"", f);
				if (m->verdict == CMP_BASE_FAILED)
					fputs("failed in BASE: ", f);
				xml_escaped(f, m->note);
				fputs("\"/>", f);
			}
			fputs("</testcase>\n", f);
		}
	}
	fputs("  </testsuite>\n</testsuites>\n", f);
	return ferror(f) ? -EIO : 0;
}

int write_text_atomic(const char *path, const char *text, size_t len)
{
	struct atomic_file a;
	int ret = atomic_open(&a, path);

	if (ret)
		return ret;
	if (fwrite(text, 1, len, a.f) != len) {
		ret = errno ? -errno : -EIO;
		atomic_abort(&a);
		return ret;
	}
	return atomic_commit(&a);
}
