/* The HTML report's inputs as the commands gather them, and writing the page (iopath report, --html). */
#ifndef IOPATH_HTMLOUT_H
#define IOPATH_HTMLOUT_H

#include <jansson.h>

#include "base/err.h"
#include "report/html.h"
#include "results/results.h"

#define HTML_DOCS_MAX 64

struct html_set {
	struct html_doc docs[HTML_DOCS_MAX];
	unsigned nr;
	json_t *own[3 * HTML_DOCS_MAX];		/* documents held for the page */
	unsigned nown;
	char *strs[2 * HTML_DOCS_MAX];		/* origins */
	unsigned nstrs;
	/* a trend across runs (a directory of results, history) */
	json_t **runs;
	char **xlabels;
	struct html_trend trend;
	bool has_trend;
};

/* A result already in memory (sweep, run --repeat, compare's sides). */
int html_add_results(struct html_set *s, const struct results *r, const char *origin,
		     struct iop_err *err);

/* The same with its explanation (the explain JSON object, or NULL). */
int html_add_explained(struct html_set *s, const struct results *r, const json_t *explain,
		       const char *origin, struct iop_err *err);

/* A JSON document of any kind the report reads; takes the reference to doc. */
int html_add_json(struct html_set *s, json_t *doc, const char *origin, struct iop_err *err);

/*
 * A file (results, fio or probe JSON, compare --json), or a directory of saved results: its
 * runs' trend by time, and the latest run in full.
 */
int html_add_path(struct html_set *s, const char *path, struct iop_err *err);

/* The runs in this order as a trend, xlabels naming them, ordered by by ("time" or a label). */
int html_add_trend(struct html_set *s, const struct results *const *runs, unsigned nr,
		   const char *const *xlabels, const char *by, struct iop_err *err);

/* Write the page to path atomically ("-": stdout). */
int html_set_write(struct html_set *s, const char *title, const char *path, struct iop_err *err);

void html_set_free(struct html_set *s);

/* --html FILE of a command: the page of this one result (results, or a fio-shaped JSON). */
int html_write_results(const struct results *r, const json_t *explain, const char *path,
		       struct iop_err *err);
int html_write_json(const json_t *doc, const char *origin, const char *path, struct iop_err *err);


#endif
