/* The results database's connection: SQLite (libsqlite3) here, PostgreSQL in db_pg.c. */
#include <errno.h>
#include <fcntl.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "results/db.h"
#include "results/db_pg.h"

bool db_spec_is_postgres(const char *spec)
{
	return !strncmp(spec, "postgresql://", 13) || !strncmp(spec, "postgres://", 11);
}

/* The directories above a file, as mkdir -p would make them. */
static int make_parents(const char *file)
{
	char path[512], *p;

	if (snprintf(path, sizeof(path), "%s", file) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	p = strrchr(path, '/');
	if (!p || p == path)
		return 0;
	*p = '\0';
	for (p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0755) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(path, 0755) && errno != EEXIST)
		return -errno;
	return 0;
}

unsigned db_busy_timeout_ms(void)
{
	const char *v = getenv("IOPATH_DB_TIMEOUT");
	unsigned long s;
	char *end;

	if (!v || !*v || *v == '-')
		return DB_BUSY_TIMEOUT_MS;
	errno = 0;
	s = strtoul(v, &end, 10);
	if (errno || *end || s > 3600)
		return DB_BUSY_TIMEOUT_MS;
	return (unsigned)s * 1000;
}

/* PRAGMA application_id of an iopath results database: "iopt". */
#define SQLITE_APP_ID 0x696f7074

static int int_value(void *arg, unsigned ncols, const char *const *vals)
{
	*(long long *)arg = ncols && vals[0] ? strtoll(vals[0], NULL, 10) : 0;
	return 0;
}

/*
 * An existing file must be iopath's own database (or an empty one): another program's
 * database is refused before anything is written to it.
 */
static int sqlite_claim(struct db *db, struct iop_err *err)
{
	long long app = 0, tables = 0, ours = 0;
	char sql[64];
	int ret;

	ret = db_query(db, "PRAGMA application_id", 0, NULL, int_value, &app, err);
	if (!ret)
		ret = db_query(db, "SELECT COUNT(*) FROM sqlite_master", 0, NULL, int_value, &tables,
			       err);
	if (!ret)
		ret = db_query(db, "SELECT COUNT(*) FROM sqlite_master WHERE name = 'iopath_meta'", 0,
			       NULL, int_value, &ours, err);
	if (ret == -EBUSY)
		return ret;	/* another opener holds it: sqlite_open tries again */
	if (ret)
		return iop_errf(err, -EINVAL, "--db %s: not an SQLite database (%s)", db->where,
				sqlite3_errmsg(db->conn));
	if (app == SQLITE_APP_ID)
		return 0;
	if (app || (tables && !ours))
		return iop_errf(err, -EINVAL, "--db %s: an SQLite database, but not iopath's results (left untouched)",
				db->where);
	snprintf(sql, sizeof(sql), "PRAGMA application_id = %d", SQLITE_APP_ID);
	return db_exec(db, sql, err);
}

/* Does the file open on fd start as a write-ahead log does (or is it empty, not written yet)? */
static bool wal_header_ok(int fd, const struct stat *st)
{
	unsigned char h[4];

	if (st->st_size == 0)
		return true;
	if (st->st_size < 32 || pread(fd, h, sizeof(h), 0) != (ssize_t)sizeof(h))
		return false;
	/* the magic, big-endian: 0x377f0682 or 0x377f0683 (the checksums' byte order) */
	return h[0] == 0x37 && h[1] == 0x7f && h[2] == 0x06 && (h[3] == 0x82 || h[3] == 0x83);
}

/*
 * The -wal, -shm and -journal files SQLite opens beside the database, written and removed
 * by it: each that exists must be a regular file with one link (a hard link to a user's
 * file would be overwritten and unlinked), and an existing -wal must be one. Checked on the
 * file opened (O_NOFOLLOW), right before SQLite opens them; a foreign one is left alone.
 */
static int sqlite_side_files(const char *path, struct iop_err *err)
{
	static const char *const suffix[] = { "-wal", "-shm", "-journal" };
	char side[600];
	struct stat st;
	unsigned i;
	int fd;
	bool ok;

	for (i = 0; i < sizeof(suffix) / sizeof(suffix[0]); i++) {
		snprintf(side, sizeof(side), "%s%s", path, suffix[i]);
		fd = open(side, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0 && errno == ENOENT)
			continue;
		if (fd < 0)
			return iop_errf(err, -EINVAL, "--db %s: %s is not a regular file (%s); refused, left alone",
					path, side, errno == ELOOP ? "a symbolic link" : strerror(errno));
		ok = !fstat(fd, &st) && S_ISREG(st.st_mode);
		if (!ok) {
			close(fd);
			return iop_errf(err, -EINVAL, "--db %s: %s is not a regular file (a link or a device); refused, left alone",
					path, side);
		}
		ok = st.st_nlink == 1 && (i || wal_header_ok(fd, &st));
		close(fd);
		if (!ok)
			return iop_errf(err, -EINVAL, "--db %s: %s is not SQLite's (%s); refused, left alone",
					path, side, st.st_nlink != 1 ? "it has other hard links" :
					"no write-ahead log header");
	}
	return 0;
}

/*
 * Claim the file and switch it to WAL (readers never block the writer; writers queue on the
 * busy timeout). Two openers of a new database both write its header while still in rollback
 * mode, and there SQLite answers SQLITE_BUSY at once rather than wait where waiting could
 * deadlock (one holds a read lock and asks for the write lock the other holds): so the whole
 * step is tried again, up to the busy timeout.
 */
static int sqlite_settle(struct db *db, struct iop_err *err)
{
	const struct timespec pause = { 0, 20 * 1000 * 1000 };
	unsigned waited_ms = 0;
	int ret;

	for (;;) {
		ret = sqlite_claim(db, err);
		if (!ret)
			ret = db_exec(db, "PRAGMA journal_mode=WAL; PRAGMA foreign_keys=ON", err);
		if (ret != -EBUSY || waited_ms >= db_busy_timeout_ms())
			break;
		nanosleep(&pause, NULL);
		waited_ms += 20;
	}
	if (ret == -EBUSY)
		return iop_errf(err, ret, "--db %s: still locked by another writer after %u s; try again",
				db->where, waited_ms / 1000);
	return ret;
}

static int sqlite_open(struct db *db, const char *path, bool create, struct iop_err *err)
{
	int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOFOLLOW | SQLITE_OPEN_FULLMUTEX;
	struct stat st;
	sqlite3 *s = NULL;
	int ret;

	snprintf(db->where, sizeof(db->where), "%s", path);
	if (!lstat(path, &st)) {
		if (!S_ISREG(st.st_mode))
			return iop_errf(err, -EINVAL, "--db %s: not a regular file (a database file, or postgresql://...)",
					path);
	} else if (errno != ENOENT) {
		return iop_errf(err, -errno, "--db %s: %s", path, strerror(errno));
	} else if (!create) {
		return iop_errf(err, -ENOENT, "--db %s: no results database there (--save creates it; or give --db PATH, IOPATH_DB)",
				path);
	} else {
		ret = make_parents(path);
		if (ret)
			return iop_errf(err, ret, "--db %s: cannot create its directory: %s", path,
					strerror(-ret));
		flags |= SQLITE_OPEN_CREATE;
	}
	ret = sqlite_side_files(path, err);
	if (ret)
		return ret;
	ret = sqlite3_open_v2(path, &s, flags, NULL);
	if (ret != SQLITE_OK) {
		iop_errf(err, -EIO, "--db %s: %s", path, s ? sqlite3_errmsg(s) : sqlite3_errstr(ret));
		sqlite3_close(s);
		return -EIO;
	}
	sqlite3_extended_result_codes(s, 1);
	sqlite3_busy_timeout(s, (int)db_busy_timeout_ms());
	db->conn = s;
	/* SQLite falls back to reading a file it cannot write (0444, immutable, a read-only mount) */
	if (create && sqlite3_db_readonly(s, "main") == 1)
		ret = iop_errf(err, -EROFS, "--db %s: cannot be written here (read-only file, immutable, or a read-only mount)",
			       path);
	else
		ret = sqlite_settle(db, err);
	if (ret) {
		sqlite3_close(s);
		db->conn = NULL;
	}
	return ret;
}

int db_open(struct db *db, const char *spec, bool create, struct iop_err *err)
{
	memset(db, 0, sizeof(*db));
	if (!spec || !*spec)
		return iop_errf(err, -EINVAL, "--db: empty (a database file, or postgresql://...)");
	if (db_spec_is_postgres(spec)) {
		db->kind = DB_POSTGRES;
		return db_pg_open(db, spec, err);
	}
	db->kind = DB_SQLITE;
	return sqlite_open(db, spec, create, err);
}

void db_close(struct db *db)
{
	if (!db->conn)
		return;
	if (db->kind == DB_SQLITE)
		sqlite3_close(db->conn);
	else
		db_pg_close(db);
	db->conn = NULL;
}

static int sqlite_fail(struct db *db, const char *sql, struct iop_err *err)
{
	int code = sqlite3_extended_errcode(db->conn);

	return iop_errf(err, (code & 0xff) == SQLITE_BUSY ? -EBUSY : -EIO, "%s: %s (in: %.60s)",
			db->where, sqlite3_errmsg(db->conn), sql);
}

int db_exec(struct db *db, const char *sql, struct iop_err *err)
{
	if (db->kind == DB_POSTGRES)
		return db_pg_query(db, sql, 0, NULL, NULL, NULL, err);
	if (sqlite3_exec(db->conn, sql, NULL, NULL, NULL) != SQLITE_OK)
		return sqlite_fail(db, sql, err);
	return 0;
}

int db_query(struct db *db, const char *sql, unsigned nparams, const char *const *params,
	     db_row_fn row, void *arg, struct iop_err *err)
{
	const char *vals[64];
	sqlite3_stmt *st = NULL;
	unsigned i, nc;
	int ret = 0, rc;

	if (db->kind == DB_POSTGRES)
		return db_pg_query(db, sql, nparams, params, row, arg, err);
	if (sqlite3_prepare_v2(db->conn, sql, -1, &st, NULL) != SQLITE_OK)
		return sqlite_fail(db, sql, err);
	for (i = 0; i < nparams; i++) {
		rc = params[i] ? sqlite3_bind_text(st, (int)i + 1, params[i], -1, SQLITE_TRANSIENT) :
				 sqlite3_bind_null(st, (int)i + 1);
		if (rc != SQLITE_OK) {
			ret = sqlite_fail(db, sql, err);
			goto out;
		}
	}
	nc = (unsigned)sqlite3_column_count(st);
	if (nc > sizeof(vals) / sizeof(vals[0])) {
		ret = iop_errf(err, -E2BIG, "%s: too many columns", db->where);
		goto out;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		for (i = 0; i < nc; i++)
			vals[i] = (const char *)sqlite3_column_text(st, (int)i);
		if (row && (ret = row(arg, nc, vals)))
			goto out;
	}
	if (rc != SQLITE_DONE)
		ret = sqlite_fail(db, sql, err);
out:
	sqlite3_finalize(st);
	return ret;
}

int db_begin(struct db *db, struct iop_err *err)
{
	return db_exec(db, db->kind == DB_SQLITE ? "BEGIN IMMEDIATE" : "BEGIN", err);
}

int db_commit(struct db *db, struct iop_err *err)
{
	return db_exec(db, "COMMIT", err);
}

void db_rollback(struct db *db)
{
	struct iop_err ignored;

	db_exec(db, "ROLLBACK", &ignored);
}
