/*
 * The HTML report: finished results (as their JSON documents) turned into one self-contained
 * page: inline CSS, inline SVG charts, a tiny inline script that sorts tables; nothing is
 * fetched. Every string from the data is escaped.
 */
#ifndef IOPATH_HTML_H
#define IOPATH_HTML_H

#include <jansson.h>
#include <stdio.h>

#include "base/err.h"

enum html_kind {
	HTML_RESULTS,	/* iopath results (schema_version): sweep, run, suite, or loaded jobs */
	HTML_PROBE,	/* iopath probe --json: {host, paths} */
	HTML_COMPARE,	/* iopath compare --json */
	HTML_HISTORY,	/* iopath history --json: groups, and per metric cells and steps */
};

struct html_doc {
	enum html_kind kind;
	const json_t *doc;
	/*
	 * For results: the file as written when it was fio-shaped (iopath --output-format=json,
	 * suite vm-paths): its host, probed targets and suite table, which the cells lack. NULL
	 * when doc is all there is.
	 */
	const json_t *raw;
	const char *origin;	/* the file it came from, for the page */
};

/* Several results of one set of cells, in order: each cell's line across them. */
struct html_trend {
	unsigned nr;
	const json_t *const *runs;	/* results documents */
	const char *const *xlabels;	/* a name per run (its shortest distinct time, or LABEL=value) */
	const char *by;			/* what orders them: "time (UTC, the day they share)" or a label */
};

struct html_page {
	const char *title;
	unsigned nr;
	const struct html_doc *docs;
	const struct html_trend *trend;	/* NULL: none */
};

/* What kind of document this is, by its shape: 0, or -EINVAL with err naming origin. */
int html_doc_kind(const json_t *doc, const char *origin, enum html_kind *kind,
		  struct iop_err *err);

/* The page into f (the caller writes it out atomically). 0 or -errno with err. */
int html_report(FILE *f, const struct html_page *p, struct iop_err *err);

#endif
