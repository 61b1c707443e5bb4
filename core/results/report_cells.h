/* Reports over cells: the sweep/run matrix table and CSV, and compare's table, JSON and JUnit. */
#ifndef IOPATH_REPORT_CELLS_H
#define IOPATH_REPORT_CELLS_H

#include <jansson.h>
#include <stdio.h>

#include "results/compare.h"
#include "results/results.h"

/* A coefficient of variation above this makes a cell's numbers unreliable (default). */
#define CV_WARN_DEFAULT 0.10

/* A metric's value for display, in its unit ("88.2k", "1234.5", "60.3"). */
void fmt_metric(char *buf, size_t len, enum metric_id m, double v);

/*
 * The cells as a table: one row per cell, a column for each identity key that varies
 * (the rest in a header line), medians with min-max and the 95% interval when repeated,
 * and a warning for every cell whose coefficient of variation exceeds cv_warn.
 */
void report_cells_table(FILE *f, const struct results *r, double cv_warn);

/* The cells as CSV, one row per cell: identity columns, status, summaries of every metric. */
int report_cells_csv(FILE *f, const struct results *r);

/* Identity keys in display order, only those whose value varies across cells when
 * varying_only; returns how many (at most max). */
struct plaus_cell;
/*
 * The cells as report_cell_implausible reads them (identity, median IOPS, the target's
 * filesystem from r->targets); *fs holds the names. Free both; NULL on ENOMEM.
 */
struct plaus_cell *cells_plausibility(const struct results *r, char (**fs)[160]);
unsigned cells_identity_keys(const struct results *r, bool varying_only, const char **keys,
			     unsigned max);

/* compare's human table: regressions first, clearly marked. */
/* A metric's one-sided bound as the tables show it: "<= -12.3%", ">= +8.1%", or "-". */
void bound_text(char *buf, size_t len, const struct cmp_metric *m);

void report_compare_text(FILE *f, const struct cmp_report *rep, const struct results *base,
			 const struct results *cur, const struct cmp_opts *o);
json_t *report_compare_json(const struct cmp_report *rep, const struct results *base,
			    const struct results *cur, const struct cmp_opts *o);
/* A side's environment (envcmp.h) as compare's JSON gives it; null when none recorded. */
json_t *report_env_json(const struct env_side *e);

int report_compare_junit(FILE *f, const struct cmp_report *rep, const struct results *base,
			 const struct results *cur, const struct cmp_opts *o);

/* Write text to path atomically (temp file, fsync, rename). */
int write_text_atomic(const char *path, const char *text, size_t len);

#endif
