/*
 * The results database on PostgreSQL, through libpq. libpq is loaded (dlopen) when the first
 * postgresql:// database is opened, not linked: it brings some twenty libraries (Kerberos,
 * LDAP, TLS) whose loading and relocation every other run of iopath would pay at start-up.
 */
#include <dlfcn.h>
#include <errno.h>
#include <libpq-fe.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/db_pg.h"

/* libpq's soname (Debian's libpq5; its major has been 5 since PostgreSQL 8.2) */
#define PQ_LIB "libpq.so.5"

#define PQ_FUNCS(X)                                                                         \
	X(PQconnectdb) X(PQstatus) X(PQerrorMessage) X(PQfinish) X(PQsetNoticeProcessor)    \
	X(PQhost) X(PQport) X(PQdb) X(PQresultStatus) X(PQresultErrorMessage) X(PQntuples) \
	X(PQnfields) X(PQgetisnull) X(PQgetvalue) X(PQclear) X(PQexecParams) X(PQexec)

/* libpq's functions used here, each of the type libpq-fe.h declares */
static struct {
#define PQ_FIELD(f) __typeof__(f) *f;
	PQ_FUNCS(PQ_FIELD)
#undef PQ_FIELD
} pq;
static pthread_once_t pq_once = PTHREAD_ONCE_INIT;
static char pq_why[300];

static void pq_load(void)
{
	void *h = dlopen(PQ_LIB, RTLD_NOW | RTLD_LOCAL);
	const char *e;

	if (!h) {
		e = dlerror();
		snprintf(pq_why, sizeof(pq_why), "%s", e ? e : "dlopen failed");
		return;
	}
#define PQ_SYM(f)                                                                             \
	if (!pq_why[0] && !(*(void **)&pq.f = dlsym(h, #f)))                                  \
		snprintf(pq_why, sizeof(pq_why), "%s has no %s", PQ_LIB, #f);
	PQ_FUNCS(PQ_SYM)
#undef PQ_SYM
	if (pq_why[0])
		dlclose(h);
}

static void pg_quiet(void *arg, const char *msg)
{
	(void)arg;
	(void)msg;
}

int db_pg_open(struct db *db, const char *uri, struct iop_err *err)
{
	PGconn *c;
	char msg[400];

	pthread_once(&pq_once, pq_load);
	if (pq_why[0])
		return iop_errf(err, -ELIBACC,
				"--db postgresql://...: cannot load PostgreSQL's client library: %s (Debian: apt-get install libpq5)",
				pq_why);
	c = pq.PQconnectdb(uri);
	if (!c)
		return iop_errf(err, -ENOMEM, "--db: out of memory connecting to PostgreSQL");
	if (pq.PQstatus(c) != CONNECTION_OK) {
		snprintf(msg, sizeof(msg), "%s", pq.PQerrorMessage(c));
		msg[strcspn(msg, "\n")] = '\0';
		pq.PQfinish(c);
		return iop_errf(err, -ECONNREFUSED, "--db: cannot connect to PostgreSQL: %s", msg);
	}
	/* notices ("already exists, skipping") are not ours to print */
	pq.PQsetNoticeProcessor(c, pg_quiet, NULL);
	snprintf(db->where, sizeof(db->where), "postgresql://%s:%s/%s",
		 pq.PQhost(c) ? pq.PQhost(c) : "", pq.PQport(c) ? pq.PQport(c) : "",
		 pq.PQdb(c) ? pq.PQdb(c) : "");
	db->conn = c;
	return 0;
}

void db_pg_close(struct db *db)
{
	pq.PQfinish(db->conn);
}

static int pg_result(struct db *db, PGresult *res, const char *sql, db_row_fn row, void *arg,
		     struct iop_err *err)
{
	ExecStatusType st = res ? pq.PQresultStatus(res) : PGRES_FATAL_ERROR;
	char msg[400];
	int ret = 0;

	if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) {
		snprintf(msg, sizeof(msg), "%s",
			 res ? pq.PQresultErrorMessage(res) : pq.PQerrorMessage(db->conn));
		msg[strcspn(msg, "\n")] = '\0';
		ret = iop_errf(err, -EIO, "%s: %s (in: %.60s)", db->where, msg, sql);
	} else if (st == PGRES_TUPLES_OK && row) {
		int n = pq.PQntuples(res), nc = pq.PQnfields(res), i, k;
		const char **vals = calloc((size_t)(nc ? nc : 1), sizeof(*vals));

		if (!vals)
			ret = iop_errf(err, -ENOMEM, "%s: out of memory", db->where);
		for (i = 0; !ret && i < n; i++) {
			for (k = 0; k < nc; k++)
				vals[k] = pq.PQgetisnull(res, i, k) ? NULL : pq.PQgetvalue(res, i, k);
			ret = row(arg, (unsigned)nc, vals);
		}
		free(vals);
	}
	pq.PQclear(res);
	return ret;
}

int db_pg_query(struct db *db, const char *sql, unsigned nparams, const char *const *params,
		db_row_fn row, void *arg, struct iop_err *err)
{
	PGresult *res = nparams ? pq.PQexecParams(db->conn, sql, (int)nparams, NULL, params, NULL,
						  NULL, 0) :
				  pq.PQexec(db->conn, sql);

	return pg_result(db, res, sql, row, arg, err);
}
