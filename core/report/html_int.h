/* Inside the HTML report: the cell model the sections share, and the section writers. */
#ifndef IOPATH_HTML_INT_H
#define IOPATH_HTML_INT_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "report/html.h"
#include "report/svg.h"
#include "stats/metrics.h"

/* Latency percentiles drawn: fio's, p50 up to p99.99. */
#define HPCT_NR 8
extern const double hpct_points[HPCT_NR];
extern const char *const hpct_keys[HPCT_NR];

/* One cell as the page shows it: its figures are medians over the samples. */
struct hcell {
	const char *key, *label, *status, *reason;
	const json_t *identity;
	const json_t *samples;
	unsigned n;				/* samples */
	double med[MET_NR], min[MET_NR], max[MET_NR], cv[MET_NR];
	double pct[HPCT_NR];			/* completion latency, ns, NAN where absent */
	double spct[HPCT_NR];			/* rate-limited: latency from the schedule, ns */
	double p1;				/* its first percentile, ns (the band's floor) */
	const char *direct_note;		/* "NOT direct I/O" of a sample, or NULL */
};

struct hset {
	const json_t *doc;
	struct hcell *cells;
	unsigned nr;
	const char *keys[32];			/* identity keys whose values differ between cells */
	unsigned nkeys;
};

/* The cells of a results document; 0 or -ENOMEM. */
int hset_load(struct hset *s, const json_t *doc);
void hset_free(struct hset *s);

/* The cell's identity value for key, "" when absent. */
const char *hcell_get(const struct hcell *c, const char *key);

/* The cell's varying keys it has, except those in skip (NULL-terminated), as "k=v k=v". */
void hcell_name(const struct hset *s, const struct hcell *c, const char *const *skip, char *buf,
		size_t len);

/* A JSON string member or def. */
const char *jstr(const json_t *o, const char *key, const char *def);

/* Text, escaped. */
void h_text(FILE *f, const char *s);
/* printf, then escaped: for text built from data. */
void h_textf(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A row of a two-column (kv) table: k, then v; nothing when v is NULL or empty. */
void h_kv_row(FILE *f, const char *k, const char *v);

/* A table cell holding a number: data-v carries it exactly (sorting, tests), text shows it. */
void h_num_td(FILE *f, double v, const char *shown);

/* The sections. */
void html_env(FILE *f, const json_t *env, const json_t *labels, const char *time_utc);
void html_probes(FILE *f, const json_t *targets, const struct hset *s);
void html_results(FILE *f, const struct hset *s, const char *id);
void html_charts(FILE *f, const struct hset *s);
void html_suite_rows(FILE *f, const json_t *suite, const char *id);
/* iopath.explain of doc (else raw): each target's card, then explain's own cells, folded. */
void html_explain(FILE *f, const json_t *doc, const json_t *raw, const char *id);
void html_compare(FILE *f, const json_t *cmp, const char *id);
void html_history(FILE *f, const json_t *hist, const char *id);
void html_trend(FILE *f, const struct html_trend *t, const char *id);

/* A chart wrapped in its figure (skipped when it has nothing to draw). */
void h_chart_lines(FILE *f, const struct svg_chart *c);
void h_chart_bars(FILE *f, const struct svg_chart *c);

#endif
