/*
 * The results database's connection: SQLite (a file, the default) or PostgreSQL (a
 * postgresql:// URI), behind one small interface of text parameters and text rows, so the
 * store (store.c) writes its SQL once. Statements number their parameters $1, $2 ... in
 * order of appearance, which both SQLite and PostgreSQL read.
 */
#ifndef IOPATH_DB_H
#define IOPATH_DB_H

#include <stdbool.h>

#include "base/err.h"

enum db_kind {
	DB_SQLITE,
	DB_POSTGRES,
};

struct db {
	enum db_kind kind;
	char where[512];	/* for messages: the file, or the URI without its password */
	void *conn;		/* sqlite3 * or PGconn * */
};

/* How long a writer waits for another one's transaction before it gives up. */
#define DB_BUSY_TIMEOUT_MS 60000

/*
 * The wait: $IOPATH_DB_TIMEOUT seconds (0 to 3600) when set, else DB_BUSY_TIMEOUT_MS (a value
 * that is not whole seconds to 3600 refuses the database when it is opened).
 */
unsigned db_busy_timeout_ms(void);

/* Is this --db value a PostgreSQL connection URI (postgresql:// or postgres://)? */
bool db_spec_is_postgres(const char *spec);

/*
 * Open spec: a PostgreSQL URI, else an SQLite file (created, with its directory, when
 * create is set; in WAL mode with a busy timeout so that concurrent writers queue). With
 * create (to write), a file SQLite could open only for reading is refused (-EROFS).
 */
int db_open(struct db *db, const char *spec, bool create, struct iop_err *err);
void db_close(struct db *db);

/* One statement or several (';'-separated), no parameters, no rows. */
int db_exec(struct db *db, const char *sql, struct iop_err *err);

/* Called per row with the row's ncols values as text (NULL for SQL NULL); nonzero stops. */
typedef int (*db_row_fn)(void *arg, unsigned ncols, const char *const *vals);

/* One statement with nparams text parameters (NULL = SQL NULL); row may be NULL. */
int db_query(struct db *db, const char *sql, unsigned nparams, const char *const *params,
	     db_row_fn row, void *arg, struct iop_err *err);

/* A write transaction: SQLite takes the write lock at once (BEGIN IMMEDIATE). */
int db_begin(struct db *db, struct iop_err *err);
int db_commit(struct db *db, struct iop_err *err);
void db_rollback(struct db *db);

#endif
