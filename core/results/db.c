/* The results database's connection: SQLite (libsqlite3) here, PostgreSQL in db_pg.c. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/testhold.h"
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

/* $IOPATH_DB_TIMEOUT in seconds: 0 unset or empty, 1 set (*s), -1 not whole seconds to 3600. */
static int busy_timeout_env(unsigned long *s)
{
	const char *v = getenv("IOPATH_DB_TIMEOUT");
	char *end;

	if (!v || !*v)
		return 0;
	if (*v < '0' || *v > '9')
		return -1;
	errno = 0;
	*s = strtoul(v, &end, 10);
	return errno || *end || *s > 3600 ? -1 : 1;
}

unsigned db_busy_timeout_ms(void)
{
	unsigned long s;

	return busy_timeout_env(&s) > 0 ? (unsigned)s * 1000 : DB_BUSY_TIMEOUT_MS;
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
	if (ret == -EBUSY || ret == -EPERM)
		return ret;	/* another opener holds it (sqlite_open tries again), a side file refused */
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

static uint32_t get32(const unsigned char *b, bool big)
{
	return big ? (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3] :
		     (uint32_t)b[3] << 24 | (uint32_t)b[2] << 16 | (uint32_t)b[1] << 8 | b[0];
}

/*
 * Why the file open on fd is not a write-ahead log (NULL: it is one, or empty, not written
 * yet). Its 32-byte header, as SQLite's documentation of the WAL format gives it: the magic
 * 0x377f0682 or 0x377f0683 (the low bit: the checksums' words are big-endian), the format
 * version 3007000, a page size that is a power of two from 512 to 65536, and the header's
 * own checksum over its first 24 bytes (two 32-bit sums, stored big-endian).
 */
static const char *wal_header_bad(int fd, const struct stat *st)
{
	unsigned char h[32];
	uint32_t magic, page, s1 = 0, s2 = 0;
	unsigned i;
	bool big;

	if (st->st_size == 0)
		return NULL;
	if (st->st_size < 32 || pread(fd, h, sizeof(h), 0) != (ssize_t)sizeof(h))
		return "shorter than a write-ahead log's header";
	magic = get32(h, true);
	if ((magic & ~1u) != 0x377f0682)
		return "no write-ahead log header";
	if (get32(h + 4, true) != 3007000)
		return "a write-ahead log header of another version than 3007000";
	page = get32(h + 8, true);
	if (page < 512 || page > 65536 || (page & (page - 1)))
		return "a write-ahead log header whose page size is not a power of two from 512 to 65536";
	big = magic & 1;
	for (i = 0; i < 24; i += 8) {
		s1 += get32(h + i, big) + s2;
		s2 += get32(h + i + 4, big) + s1;
	}
	if (s1 != get32(h + 24, true) || s2 != get32(h + 28, true))
		return "a write-ahead log header whose checksum does not match";
	return NULL;
}

/* Why the side file open on fd is not one SQLite may use (NULL: it may). */
static const char *side_file_bad(int fd, bool wal)
{
	struct stat st;

	if (fstat(fd, &st))
		return strerror(errno);
	if (!S_ISREG(st.st_mode))
		return "not a regular file";
	if (st.st_nlink != 1)
		return "it has other hard links";
	return wal ? wal_header_bad(fd, &st) : NULL;
}

static const char *const side_suffix[] = { "-wal", "-shm", "-journal" };

/* Is path one of a database's side files (*wal: its -wal)? */
static bool is_side_file(const char *path, bool *wal)
{
	size_t n = strlen(path), k;
	unsigned i;

	for (i = 0; i < sizeof(side_suffix) / sizeof(side_suffix[0]); i++) {
		k = strlen(side_suffix[i]);
		if (n > k && !strcmp(path + n - k, side_suffix[i])) {
			*wal = i == 0;
			return true;
		}
	}
	return false;
}

/*
 * SQLite opens the side files by name whenever it needs them, after any check made here: the
 * unix VFS's open system call is replaced (xSetSystemCall) by one that opens a side file
 * without following a link and checks the descriptor SQLite gets (side_file_bad). A refusal
 * is a failed open (SQLITE_CANTOPEN) and its reason is kept for sqlite_fail's message.
 */
typedef int (*open_fn)(const char *, int, int);
static open_fn vfs_open;
static __thread char side_refused[400];
static pthread_once_t side_hook_once = PTHREAD_ONCE_INIT;
static bool side_hooked;

static int side_open(const char *path, int flags, int mode)
{
	const char *why;
	bool wal;
	int fd;

	if (!is_side_file(path, &wal))
		return vfs_open(path, flags, mode);
	fd = vfs_open(path, flags | O_NOFOLLOW | O_NONBLOCK, mode);
	if (fd < 0) {
		if (errno == ELOOP)
			snprintf(side_refused, sizeof(side_refused), "%s is not a regular file (a symbolic link)",
				 path);
		return fd;
	}
	why = side_file_bad(fd, wal);
	if (!why && !(flags & O_NONBLOCK) && fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK))
		why = strerror(errno);
	if (!why)
		return fd;
	snprintf(side_refused, sizeof(side_refused), "%s is not SQLite's (%s)", path, why);
	close(fd);
	errno = EACCES;
	return -1;
}

static void side_hook(void)
{
	sqlite3_vfs *vfs = sqlite3_vfs_find("unix");

	if (!vfs || vfs->iVersion < 3 || !vfs->xGetSystemCall || !vfs->xSetSystemCall)
		return;
	vfs_open = (open_fn)vfs->xGetSystemCall(vfs, "open");
	side_hooked = vfs_open &&
		      vfs->xSetSystemCall(vfs, "open", (sqlite3_syscall_ptr)side_open) == SQLITE_OK;
}

/*
 * The -wal, -shm and -journal files SQLite opens beside the database, written and removed
 * by it: each that exists must be a regular file with one link (a hard link to a user's
 * file would be overwritten and unlinked), and an existing -wal must be one. Checked here
 * on the file opened (O_NOFOLLOW) for a clear refusal before anything, and again by
 * side_open on every descriptor SQLite opens later; a foreign one is left alone.
 */
static int sqlite_side_files(const char *path, struct iop_err *err)
{
	char side[600];
	const char *why;
	unsigned i;
	int fd;

	pthread_once(&side_hook_once, side_hook);
	if (!side_hooked)
		return iop_errf(err, -ENOSYS, "--db %s: cannot watch SQLite's side files (its unix VFS has no open system call to replace)",
				path);
	for (i = 0; i < sizeof(side_suffix) / sizeof(side_suffix[0]); i++) {
		snprintf(side, sizeof(side), "%s%s", path, side_suffix[i]);
		fd = open(side, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0 && errno == ENOENT)
			continue;
		if (fd < 0)
			return iop_errf(err, -EINVAL, "--db %s: %s is not a regular file (%s); refused, left alone",
					path, side, errno == ELOOP ? "a symbolic link" : strerror(errno));
		why = side_file_bad(fd, i == 0);
		close(fd);
		if (why)
			return iop_errf(err, -EINVAL, "--db %s: %s is not SQLite's (%s); refused, left alone",
					path, side, why);
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
	uint64_t start = mono_ns();
	unsigned waited_ms = 0;
	int ret;

	/*
	 * The time waited is read from the clock: each try may itself wait in SQLite's busy
	 * handler for up to the whole timeout (another writer holding the file locked), so
	 * counting only the pauses between tries would wait about 50 timeouts instead of one.
	 */
	for (;;) {
		ret = sqlite_claim(db, err);
		if (!ret)
			ret = db_exec(db, "PRAGMA journal_mode=WAL; PRAGMA foreign_keys=ON", err);
		waited_ms = (unsigned)((mono_ns() - start) / 1000000);
		if (ret != -EBUSY || waited_ms >= db_busy_timeout_ms())
			break;
		nanosleep(&pause, NULL);
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
	/* a busy timeout that is not whole seconds is refused, never replaced by the default */
	if (busy_timeout_env(&(unsigned long){ 0 }) < 0)
		return iop_errf(err, -EINVAL, "--db %s: $IOPATH_DB_TIMEOUT '%s': expected whole seconds from 0 to 3600",
				path, getenv("IOPATH_DB_TIMEOUT"));
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
	/* for the tests: a side file may be swapped here, after the check */
	test_hold("IOPATH_TEST_HOLD_SIDE", "");
	side_refused[0] = '\0';
	ret = sqlite3_open_v2(path, &s, flags, NULL);
	if (ret != SQLITE_OK) {
		if (side_refused[0])
			iop_errf(err, -EPERM, "--db %s: %s; refused, left alone", path, side_refused);
		else
			iop_errf(err, -EIO, "--db %s: %s", path, s ? sqlite3_errmsg(s) : sqlite3_errstr(ret));
		side_refused[0] = '\0';
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

	if (side_refused[0]) {
		iop_errf(err, -EPERM, "--db %s: %s; refused, left alone", db->where, side_refused);
		side_refused[0] = '\0';
		return -EPERM;
	}

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
