/*
 * explain: why a storage path is as fast as it is. From the cells of a result (a sweep, a
 * suite, a run, fio's own JSON) each target gets findings from a fixed vocabulary, with the
 * figures that support them, the cells they came from and a confidence; what the cells
 * cannot tell is said, not guessed. docs/explain.md is the reference of the vocabulary.
 */
#ifndef IOPATH_EXPLAIN_H
#define IOPATH_EXPLAIN_H

#include <jansson.h>
#include <stdbool.h>

#include "base/err.h"
#include "probe/pathprobe.h"
#include "results/results.h"

/* The schema of the "explain" object written. */
#define EXPLAIN_SCHEMA 1

/* The verdicts, in the order that breaks ties between findings of equal confidence. */
enum explain_code {
	EXPLAIN_SYNC,		/* fsync/fdatasync dominates the synced writes' time */
	EXPLAIN_CACHE,		/* the figures come from a cache (or memory), not the storage */
	EXPLAIN_SERIALIZED,	/* requests are served one at a time: depth adds latency only */
	EXPLAIN_CPU,		/* the worker's CPU is the limit */
	EXPLAIN_DEVICE,		/* IOPS reach the path's limit within the depths tried */
	EXPLAIN_LATENCY,	/* each request's latency sets the pace; depth still scales */
	EXPLAIN_NO_DATA,	/* the cells cannot tell */
	EXPLAIN_NR,
};

enum explain_conf {
	EXPLAIN_LOW,
	EXPLAIN_MEDIUM,
	EXPLAIN_HIGH,
};

const char *explain_code_name(enum explain_code c);
const char *explain_conf_name(enum explain_conf c);

/*
 * The explain object of a result: {"schema", "codes", "targets": [...]} as docs/explain.md
 * describes; NULL with err on ENOMEM. A result with no usable cell gives targets = [].
 */
json_t *explain_results(const struct results *r, struct iop_err *err);

/* Where the extra cells of --explain run: a target's role, its directory, and optionally the
 * file to use (a sweep's own target file); without one, a temporary directory is made. */
struct explain_target {
	const char *role;
	const char *dir;
	const char *file;
};

struct explain_opts {
	const char *size;	/* of the file the cells use (default 64m) */
	const char *runtime;	/* per cell (default 1s) */
};

/* Called before each extra cell (i counts from 0 of n); false stops before it. */
typedef bool (*explain_progress_fn)(void *arg, const char *label, unsigned i, unsigned n);

/*
 * Run the cells explain needs on each target into r, through the runner: an io_uring
 * (else libaio) 4 KiB random-read ladder at iodepth 1, 4, 16, 64 with direct=1, the same
 * read at QD1 buffered, a 1 MiB sequential read, and 4 KiB random writes each followed by
 * fsync. A cell the path refuses is run buffered (direct=0) or with the other engine where
 * that answers the refusal, else kept as skipped with the reason. A cell whose identity r
 * holds already (one of a sweep's own) is not run again: the explanation reads r's, and that
 * cell keeps the repeats it had. Targets not yet in r are
 * added with their probe (taken from probes, with the honesty check). 0, or -errno with err
 * when a cell could not be set up at all; a stop request, or fn saying stop, ends it early
 * (r is then marked interrupted).
 */
int explain_run(struct results *r, const struct explain_target *t, unsigned nt,
		struct probe_set *probes, const struct explain_opts *o, explain_progress_fn fn,
		void *arg, struct iop_err *err);

/*
 * Under MPI, each rank's own cells (explain_run's, and a sweep's own under --explain) are
 * kept apart on rank 0 as one target per rank: the role with the rank and its host.
 */
struct fleet_rank;

/* This rank's role for the target role: ROLE-rankN-HOST. */
void explain_rank_role(const char *role, char *out, size_t len);

/*
 * The note this rank sends with its run of a cell (fleet_gather_run): its own target (dir,
 * with its probe from probes) and the cell's identity and label, both renamed to this rank's
 * role. JSON text to free, NULL on ENOMEM.
 */
char *explain_rank_note(const char *role, const char *dir, struct probe_set *probes,
			const json_t *identity, const char *label);

/* Rank 0 (a fleet_rank_fn, arg the struct results): one rank's run of a cell, by its note. */
int explain_add_rank(void *arg, const struct fleet_rank *rk);

#endif
