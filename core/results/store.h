/*
 * The results store: runs, their cells and every repeat's sample in a database (SQLite by
 * default, PostgreSQL for a team), one transaction per run; results/README.md documents
 * the schema and how an older database is upgraded.
 *
 *	store_open(&st, store_default_db(), true, &err);
 *	store_save(&st, &res, NULL, &id, &err);            (after a sweep, run or suite)
 *	store_run_ids(&st, "latest~1", &ids, &n, &err);     (compare, history: then
 *	store_load_run(&st, ids[i], &run, &err);            each run, pooled by results_load_set)
 *	store_close(&st);
 */
#ifndef IOPATH_STORE_H
#define IOPATH_STORE_H

#include <stdbool.h>
#include <stdint.h>

#include "base/err.h"
#include "results/db.h"
#include "results/results.h"

/* The schema this iopath writes; older databases are upgraded when opened. */
#define STORE_SCHEMA_VERSION 1

/* Where --save goes without --db: $IOPATH_DB, else this. */
#define STORE_DEFAULT_DB "results/iopath.db"

struct store {
	struct db db;
	bool created;		/* the database did not exist before this open (SQLite) */
};

/* $IOPATH_DB when set and not empty, else STORE_DEFAULT_DB. */
const char *store_default_db(void);

/*
 * Open (and with create, make) the database at spec, creating or upgrading its schema;
 * -EPROTONOSUPPORT when it was written by a newer iopath.
 */
int store_open(struct store *st, const char *spec, bool create, struct iop_err *err);
void store_close(struct store *st);

/*
 * Save a run in one transaction; source names the file it was imported from (NULL for a
 * run made here). *id gets the run's id. -EEXIST (with err) when source was imported
 * before.
 */
int store_save(struct store *st, const struct results *r, const char *source, int64_t *id,
	       struct iop_err *err);

/* Is sel a run selector rather than a file: latest, latest~N, run:ID, KEY=VALUE? */
bool store_is_selector(const char *sel);

/* The ids of the runs sel names (every run when sel is NULL), oldest first; *n of them. */
int store_run_ids(struct store *st, const char *sel, int64_t **ids, unsigned *n,
		  struct iop_err *err);

/* Load one run by id. */
int store_load_run(struct store *st, int64_t id, struct results *out, struct iop_err *err);

/* One line per run, for `iopath results list`. */
struct store_run_info {
	int64_t id;
	uint64_t time_ms;
	char kind[32], name[128], host[128], labels[256], source[256];
	unsigned cells, samples;
};

typedef int (*store_list_fn)(void *arg, const struct store_run_info *info);

int store_list(struct store *st, store_list_fn fn, void *arg, struct iop_err *err);

#endif
