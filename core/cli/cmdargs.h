/* Command-line helpers shared by the commands: value options, result sets, the database. */
#ifndef IOPATH_CMDARGS_H
#define IOPATH_CMDARGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "base/err.h"
#include "results/compare.h"
#include "results/results.h"
#include "results/store.h"

/*
 * Is argv[*i] the option --name, given as "--name=value" or "--name value"? On a match *val
 * is the value (the next argument is consumed); -EINVAL with err when the value is missing.
 * Returns 1 on a match, 0 when argv[*i] is another argument.
 */
int arg_value(int argc, char **argv, int *i, const char *name, const char **val,
	      struct iop_err *err);

/* How a value option of a command's table is checked and where it is stored. */
enum arg_kind {
	ARG_STRING,	/* .s: the value as given */
	ARG_HTML,	/* .s: a page path that html_check_path accepts */
	ARG_PERCENT,	/* .d: parse_percent */
	ARG_ALPHA,	/* .d: a significance level between 0 and 1 */
	ARG_REPEAT,	/* .u: a repeat count, 1 to 1000 */
	ARG_METRICS,	/* .u: a mask of metric_parse_list */
};

/*
 * One value option of a command. A command lists those it shares with others in a table
 * ended by a NULL name, e.g. { "db", ARG_STRING, { .s = &a->db } }, and hands each argument
 * to arg_table before its own options.
 */
struct arg_opt {
	const char *name;	/* without the leading "--" */
	enum arg_kind kind;
	union {
		const char **s;
		double *d;
		unsigned *u;
	} dst;
};

/*
 * Is argv[*i] one of the table's options (as arg_value matches them)? On a match the value
 * is checked and stored. Returns 1 on a match, 0 when argv[*i] is none of them, -errno with
 * err when the value is missing or not accepted.
 */
int arg_table(int argc, char **argv, int *i, const struct arg_opt *opts, struct iop_err *err);

/* --html FILE: checked before anything runs, so that the results are not lost at the end. */
int html_check_path(const char *opt, const char *path, struct iop_err *err);

/* A relative change: "5%", "5" (percent) -> 0.05. */
int parse_percent(const char *opt, const char *s, double *out, struct iop_err *err);

/* An unsigned count in [min, max]. */
int parse_count(const char *opt, const char *s, unsigned min, unsigned max, unsigned *out,
		struct iop_err *err);

/*
 * Load one side of a comparison: a result file, a run selector of the database db (NULL:
 * the default; latest, latest~N, run:ID, LABEL=VALUE), a comma list of them, or a
 * directory of files (*.json, searched recursively when recursive); the samples of cells
 * with the same identity are pooled, the environment is the first one's. A run given twice
 * (seen_meet) is refused (-EINVAL, naming both).
 */
int results_load_set(const char *spec, bool recursive, const char *db, struct results *out,
		     struct iop_err *err);

/*
 * The runs met so far, by what they are (results_fingerprint), each with the name it was
 * first met by: one run read twice (another name, a link, a copy, the database) counts once.
 */
struct seen_runs {
	uint64_t *fp;
	char **from;
	unsigned n;
};

/*
 * results_load_set with the runs met by earlier sets in seen: a command pooling several
 * arguments into one (explain) refuses a run that an earlier argument gave already.
 */
int results_load_seen(const char *spec, bool recursive, const char *db, struct results *out,
		      struct seen_runs *seen, struct iop_err *err);

/* Was a run with r's content met before (*first: its name then)? 1 yes, 0 no (now met), -ENOMEM. */
int seen_meet(struct seen_runs *s, const struct results *r, const char **first);
void seen_free(struct seen_runs *s);

/* The database: --db, else --results-dir's iopath.db, else $IOPATH_DB or the default. */
const char *db_spec(const char *db, const char *results_dir, char *buf, size_t len);

/*
 * --save's database, opened (made if new, importing the JSON store beside it) and found
 * writable before the first I/O, so that a directory, a read-only or immutable file, a
 * foreign database or one locked past the busy timeout is refused with exit 2 rather than
 * found after the run. 0 or -errno with a line naming --db.
 */
int save_check(const char *spec, struct iop_err *err);

/*
 * --save: r into the database spec (made if new, importing the JSON store beside it). When
 * it fails, the whole result is kept in the fallback file (results_keep).
 */
int save_to_db(const struct results *r, const char *spec);

/*
 * An output that failed at the end (what: the option, e.g. "--json"): the whole result is
 * written to the process's fallback file ($TMPDIR/iopath-result.PID.json), once, and the
 * file is named on stderr; json_keep does the same for a command's JSON document (one that
 * iopath results import takes when importable: a suite's; not a comparison, a history or an
 * explanation).
 */
void results_keep(const struct results *r, const char *what);
void json_keep(json_t *root, const char *what, bool importable);

/* One result file (iopath or fio JSON) into the store, as a run; -EEXIST if imported before. */
int store_import_file(struct store *st, const char *path, int64_t *id, struct iop_err *err);

/*
 * List the *.json files under dir (sorted); returns how many, or -errno. Free with free_list.
 * Links are followed, but no directory is entered twice and no file listed twice (a loop of
 * links, two links to one file).
 */
int list_json_files(const char *dir, bool recursive, char ***out, struct iop_err *err);
void free_list(char **list, int n);

/* --debug's sink: a line as fio prints it (type, thread id, message), on stdout or where told. */
void print_debug(unsigned type, const char *line);
/* --debug's lines go to f from now on (NULL: stdout, the default). */
void debug_lines_to(FILE *f);

/* compare's and history's verdict flags (--strict, --allow-inconclusive, --ignore-environment)
 * into o; true when arg was one of them. */
bool cmp_flag_arg(const char *arg, struct cmp_opts *o);

#endif
