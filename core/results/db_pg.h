/*
 * The PostgreSQL side of db.c: db_pg.c with libpq, or db_pg_none.c in a build without it
 * (make static: Debian ships no static libpq dependencies), which refuses postgresql://.
 */
#ifndef IOPATH_DB_PG_H
#define IOPATH_DB_PG_H

#include "results/db.h"

int db_pg_open(struct db *db, const char *uri, struct iop_err *err);
void db_pg_close(struct db *db);

/* Without parameters (nparams 0) sql may hold several statements. */
int db_pg_query(struct db *db, const char *sql, unsigned nparams, const char *const *params,
		db_row_fn row, void *arg, struct iop_err *err);

#endif
