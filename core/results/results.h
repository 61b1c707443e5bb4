/*
 * The results model shared by sweep, run, suite, compare and history: cells (one measured
 * configuration each, with every repeat's full result kept as a sample), the environment
 * fingerprint and the targets' probes; saved and loaded as results/README.md describes.
 */
#ifndef IOPATH_RESULTS_H
#define IOPATH_RESULTS_H

#include <jansson.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "base/err.h"
#include "stats/metrics.h"
#include "stats/rstats.h"
#include "run/run.h"

/* The schema written; loaders accept every version from 1 up to it. */
#define RESULTS_SCHEMA_VERSION 1

/* Largest result file read: a sweep of thousands of cells with repeats stays far below. */
#define RESULTS_FILE_MAX (256u << 20)

enum cell_status {
	CELL_OK,
	CELL_SKIPPED,		/* refused before it started: incompatible, or the path refused it */
	CELL_FAILED,		/* started and failed */
	CELL_INTERRUPTED,	/* stopped part way: its numbers are partial and not used */
};

struct cell {
	char *key;		/* canonical identity: "k=v;k=v", keys sorted */
	char *label;		/* short human name */
	json_t *identity;	/* {"engine": "io_uring", "target": "disk", ...}, string values */
	enum cell_status status;
	char *reason;		/* why skipped / failed, or NULL */
	unsigned nr;		/* samples (complete repeats) */
	unsigned cap;
	double (*val)[MET_NR];	/* per sample, NAN where the sample lacks the metric */
	json_t *samples;	/* the samples' fio-shaped job objects, in order */
};

struct results {
	int schema_version;	/* as loaded; RESULTS_SCHEMA_VERSION when made here */
	char format[24];	/* "iopath-results", "iopath-json" (a plain run), "fio-json" */
	char kind[32];		/* sweep, run, suite, or fio for a plain job run */
	char name[128];		/* suite or workload name, or the --save name */
	uint64_t timestamp_ms;	/* when the run started */
	bool interrupted;
	json_t *env;		/* {hostname, host{...}, iopath{version,...}, command_line} */
	json_t *labels;		/* --label key=value tags */
	json_t *targets;	/* [{role, path, probe}] */
	struct cell *cells;
	unsigned nr, cap;
	char source[PATH_MAX];	/* the file(s) loaded, for messages */
};

/* A fresh, empty result of this machine and build: env and timestamp filled. */
int results_init(struct results *r, const char *kind, const char *name, int argc, char **argv,
		 struct iop_err *err);
void results_free(struct results *r);

/* Add a --label key=value tag. */
int results_add_label(struct results *r, const char *kv, struct iop_err *err);

struct probe_path;

/*
 * Add a target (its role names it across runs) with its probe, or with the reason it could
 * not be probed (probe NULL). Commands probe their targets themselves: probe_path() with
 * the flags they need (a sweep runs the trials, to skip what the path refuses).
 */
int results_add_target(struct results *r, const char *role, const char *path,
		       const struct probe_path *probe, const char *probe_error);

/* The entry results_add_target adds, on its own (NULL on ENOMEM). */
json_t *results_target_json(const char *role, const char *path, const struct probe_path *probe,
			    const char *probe_error);

/* The cell with this identity (an object of strings), created if new. NULL on ENOMEM. */
struct cell *results_cell(struct results *r, const json_t *identity, const char *label);
/* The cell whose identity key is key, or NULL. */
const struct cell *results_find(const struct results *r, const char *key);
/* The cell with this identity (an object of strings), or NULL (also on ENOMEM). */
const struct cell *results_find_identity(const struct results *r, const json_t *identity);

/* Mark a cell skipped or failed with a reason. */
int cell_set_status(struct cell *c, enum cell_status st, const char *reason);

/* Add one sample (takes the reference to job) and its metrics. */
int cell_add_sample(struct cell *c, json_t *job);

/*
 * One run of jobs into the result: each job's result becomes a sample of the cell whose
 * identity is identity plus, when the run has several jobs, {"job": name}. A job refused
 * before it started makes its cell skipped, a failed one failed, an interrupted one
 * interrupted (partial numbers are kept out of the samples).
 */
int results_add_run(struct results *r, const struct run_results *run, const json_t *identity,
		    const char *label, struct iop_err *err);

/* The non-missing values of metric m over the cell's samples; returns how many. */
unsigned cell_values(const struct cell *c, enum metric_id m, double *out);

/* Summary of metric m over the samples: -ENODATA when it has none. */
int cell_summary(const struct cell *c, enum metric_id m, struct rsummary *s);

/*
 * Did the cell's IOPS or bandwidth vary by more than cv_warn (coefficient of variation)
 * across its repeats? *cv gets the larger of the two (0 with fewer than 2 repeats). This is
 * what makes a sweep's table call a cell unreliable.
 */
bool cell_unreliable(const struct cell *c, double cv_warn, double *cv);

/* The whole result as the schema's JSON; NULL on ENOMEM. */
json_t *results_json(const struct results *r);

/* Write it atomically to path. */
int results_write(const struct results *r, const char *path, struct iop_err *err);

/*
 * Load a result file: iopath's results (any schema version up to ours), a plain
 * `iopath --output-format=json` result, fio's own JSON (each job one cell of one sample), or
 * the QEMU lab's lab.json.
 * Returns 0 or -errno with err naming the file and what is wrong with it.
 */
int results_load(const char *path, struct results *out, struct iop_err *err);

/* The same from a buffer (len bytes, no terminator needed); origin names it in messages. */
int results_parse(const char *buf, size_t len, const char *origin, struct results *out,
		  struct iop_err *err);

/* The same from parsed JSON (root is not taken). */
int results_from_json(json_t *root, const char *origin, struct results *out, struct iop_err *err);

/*
 * The same for what is not a lab's lab.json: iopath's results or fio-shaped JSON (what the
 * lab's loader reads embedded in its cells).
 */
int results_from_result_json(json_t *root, const char *origin, struct results *out,
			     struct iop_err *err);

/* An empty result with no environment yet: what the loaders start from. */
void results_zero(struct results *r);

/*
 * scripts/vmlab's lab.json (schema "iopath-vmlab/N"): each path a target, each job section a
 * cell over the rounds, the guest's --explain cells too. results_from_json calls it.
 */
bool results_is_vmlab(const json_t *root);
int results_load_vmlab(struct results *r, json_t *root, const char *origin, struct iop_err *err);

/*
 * How many of a result file's cells are sweep --explain's, kept in its explanation's section
 * (iopath.explain.cells): results_from_json loads them last, after the sweep's own.
 */
unsigned results_explain_cells(const json_t *root);

/* Pool src's samples into dst's cells with the same identity (repeats kept in files apart). */
int results_merge(struct results *dst, struct results *src, struct iop_err *err);

/*
 * The cells of src whose identity has key = value, as a result of their own (out, made
 * here) with key left out of each identity, so that the cells of two values match cell for
 * cell: sweep --compare's two sides. Samples, environment and targets are shared with src
 * (references). Returns the cells taken (0: none has it), or -ENOMEM.
 */
int results_split(const struct results *src, const char *key, const char *value,
		  struct results *out);

const char *cell_status_name(enum cell_status st);

/* An env value by path ("host.cpu_model"), or NULL. */
const char *results_env_str(const struct results *r, const char *path);

#endif
