/* A build without libpq (make static): postgresql:// databases are refused with the reason. */
#include <errno.h>

#include "results/db_pg.h"

int db_pg_open(struct db *db, const char *uri, struct iop_err *err)
{
	(void)db;
	(void)uri;
	return iop_errf(err, -EPROTONOSUPPORT,
			"--db postgresql://...: this iopath is built without PostgreSQL (the static build); use the dynamic one, or an SQLite file");
}

void db_pg_close(struct db *db)
{
	(void)db;
}

int db_pg_query(struct db *db, const char *sql, unsigned nparams, const char *const *params,
		db_row_fn row, void *arg, struct iop_err *err)
{
	(void)db;
	(void)sql;
	(void)nparams;
	(void)params;
	(void)row;
	(void)arg;
	return iop_errf(err, -EPROTONOSUPPORT, "PostgreSQL is not built in");
}
