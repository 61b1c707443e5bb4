/* The results database on PostgreSQL, through libpq. */
#include <errno.h>
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/db_pg.h"

static void pg_quiet(void *arg, const char *msg)
{
	(void)arg;
	(void)msg;
}

int db_pg_open(struct db *db, const char *uri, struct iop_err *err)
{
	PGconn *c = PQconnectdb(uri);
	char msg[400];

	if (!c)
		return iop_errf(err, -ENOMEM, "--db: out of memory connecting to PostgreSQL");
	if (PQstatus(c) != CONNECTION_OK) {
		snprintf(msg, sizeof(msg), "%s", PQerrorMessage(c));
		msg[strcspn(msg, "\n")] = '\0';
		PQfinish(c);
		return iop_errf(err, -ECONNREFUSED, "--db: cannot connect to PostgreSQL: %s", msg);
	}
	/* notices ("already exists, skipping") are not ours to print */
	PQsetNoticeProcessor(c, pg_quiet, NULL);
	snprintf(db->where, sizeof(db->where), "postgresql://%s:%s/%s", PQhost(c) ? PQhost(c) : "",
		 PQport(c) ? PQport(c) : "", PQdb(c) ? PQdb(c) : "");
	db->conn = c;
	return 0;
}

void db_pg_close(struct db *db)
{
	PQfinish(db->conn);
}

static int pg_result(struct db *db, PGresult *res, const char *sql, db_row_fn row, void *arg,
		     struct iop_err *err)
{
	ExecStatusType st = res ? PQresultStatus(res) : PGRES_FATAL_ERROR;
	char msg[400];
	int ret = 0;

	if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) {
		snprintf(msg, sizeof(msg), "%s", res ? PQresultErrorMessage(res) : PQerrorMessage(db->conn));
		msg[strcspn(msg, "\n")] = '\0';
		ret = iop_errf(err, -EIO, "%s: %s (in: %.60s)", db->where, msg, sql);
	} else if (st == PGRES_TUPLES_OK && row) {
		int n = PQntuples(res), nc = PQnfields(res), i, k;
		const char **vals = calloc((size_t)(nc ? nc : 1), sizeof(*vals));

		if (!vals)
			ret = iop_errf(err, -ENOMEM, "%s: out of memory", db->where);
		for (i = 0; !ret && i < n; i++) {
			for (k = 0; k < nc; k++)
				vals[k] = PQgetisnull(res, i, k) ? NULL : PQgetvalue(res, i, k);
			ret = row(arg, (unsigned)nc, vals);
		}
		free(vals);
	}
	PQclear(res);
	return ret;
}

int db_pg_query(struct db *db, const char *sql, unsigned nparams, const char *const *params,
		db_row_fn row, void *arg, struct iop_err *err)
{
	PGresult *res = nparams ? PQexecParams(db->conn, sql, (int)nparams, NULL, params, NULL, NULL, 0) :
			PQexec(db->conn, sql);

	return pg_result(db, res, sql, row, arg, err);
}
