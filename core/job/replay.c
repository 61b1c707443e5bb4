/* fio's I/O logs for replay: version 2 and 3 iologs and blktrace binary traces, read into entries. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/parse.h"
#include "iopath/engine.h"
#include "job/replay.h"

static int add_entry(struct replay *r, const struct job_spec *job, uint64_t t_us,
		     unsigned file, unsigned ddir, uint64_t off, uint32_t len)
{
	struct replay_entry *e;

	if (job->replay_skip & (1u << ddir))
		return 0;
	if (r->nr == r->cap) {
		uint64_t cap = r->cap ? r->cap * 2 : 4096;

		e = realloc(r->e, cap * sizeof(*e));
		if (!e)
			return -ENOMEM;
		r->e = e;
		r->cap = cap;
	}
	if (job->replay_scale > 1)
		off /= job->replay_scale;
	if (job->replay_align)
		off -= off % job->replay_align;
	e = &r->e[r->nr++];
	e->t_us = t_us;
	e->offset = off;
	e->len = len;
	e->file = (uint16_t)file;
	e->ddir = (uint16_t)ddir;
	r->dirs |= 1u << ddir;
	if (ddir <= DDIR_TRIM) {
		if (off + len > r->extent[file])
			r->extent[file] = off + len;
		/* a trim moves no data: it does not size the buffers */
		if (ddir != DDIR_TRIM && len > r->max_len)
			r->max_len = len;
	}
	return 0;
}

/* The index of a file of the log (a redirected log has one), added when new. */
static int file_index(struct replay *r, const struct job_spec *job, const char *name)
{
	unsigned i;

	if (job->replay_redirect[0])
		name = job->replay_redirect;
	for (i = 0; i < r->nr_files; i++)
		if (!strcmp(r->files[i], name))
			return (int)i;
	if (r->nr_files == REPLAY_FILES_MAX || strlen(name) >= sizeof(r->files[0]))
		return -E2BIG;
	snprintf(r->files[r->nr_files], sizeof(r->files[0]), "%s", name);
	return (int)r->nr_files++;
}

static int ddir_of(const char *act)
{
	static const char *const names[] = { "read", "write", "trim", "sync", "datasync" };
	unsigned i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(act, names[i]))
			return (int)i;
	return -1;
}

/*
 * A number of a read_iolog line, strictly: digits only (or 0x hex), no sign, no wrap past
 * 2^64 - 1 (sscanf's %llu would take "-1" and 99999999999999999999 as 2^64 - 1).
 */
static int iolog_num(const struct job_spec *job, unsigned lineno, const char *what,
		     const char *s, unsigned long long *out, struct iop_err *err)
{
	uint64_t v;

	if (parse_u64(s, &v))
		return iop_errf(err, -EINVAL, "read_iolog %s:%u: %s '%s': expected a whole number from 0 to %llu",
				job->read_iolog, lineno, what, s, (unsigned long long)UINT64_MAX);
	*out = v;
	return 0;
}

/*
 * Split a line into [TIME] FILE ACTION [OFFSET LENGTH]: *n fields after the time (as the
 * sscanf this replaces counted them), -EINVAL when a number is not one.
 */
static int split_line(const struct job_spec *job, const struct replay *r, unsigned lineno,
		      char *line, char **name, char **act, unsigned long long *t,
		      unsigned long long *off, unsigned long long *len, int *n, struct iop_err *err)
{
	static const char *const what[] = { "offset", "length" };
	unsigned long long *num[] = { off, len };
	char *tok[6], *save = NULL, *p;
	unsigned nt = 0, first = r->version == 3, i;
	int ret = 0;

	for (p = strtok_r(line, " \t\r\n", &save); p && nt < 6; p = strtok_r(NULL, " \t\r\n", &save))
		tok[nt++] = p;
	*n = nt > first ? (int)(nt - first) : 0;
	if (nt > first + 4 || nt < first + 2) {
		*n = 0;
		return 0;	/* the caller names the line */
	}
	if (first)
		ret = iolog_num(job, lineno, "time", tok[0], t, err);
	*name = tok[first];
	*act = tok[first + 1];
	for (i = 0; !ret && first + 2 + i < nt; i++)
		ret = iolog_num(job, lineno, what[i], tok[first + 2 + i], num[i], err);
	if (!ret && nt == first + 4 && *off > UINT64_MAX - *len)
		ret = iop_errf(err, -EINVAL, "read_iolog %s:%u: offset %llu + length %llu is past the largest offset",
			       job->read_iolog, lineno, *off, *len);
	return ret;
}

static int load_text(const struct job_spec *job, struct replay *r, FILE *f, struct iop_err *err)
{
	char line[1024], copy[1024], *name, *act;
	unsigned long long t = 0, off = 0, len = 0, last_wait = 0;
	unsigned lineno = 1;
	int n, fi, d, ret;

	while (fgets(line, sizeof(line), f)) {
		lineno++;
		if (line[0] == '\n' || line[0] == '#')
			continue;
		snprintf(copy, sizeof(copy), "%s", line);
		ret = split_line(job, r, lineno, line, &name, &act, &t, &off, &len, &n, err);
		if (ret)
			return ret;
		if (n < 2) {
			n = 0;
			name = act = copy + strlen(copy);
		}
		if (n == 2 && (!strcmp(act, "add") || !strcmp(act, "open") || !strcmp(act, "close"))) {
			fi = file_index(r, job, name);
			if (fi < 0)
				return iop_errf(err, fi, "read_iolog %s:%u: more than %u files, or a name over 255 bytes",
						job->read_iolog, lineno, REPLAY_FILES_MAX);
			continue;
		}
		if (n == 4 && r->version == 2 && !strcmp(act, "wait")) {
			/* v2: wait until this many milliseconds from the start */
			last_wait = off * 1000;
			continue;
		}
		/* a sync may come without offset and length */
		if (n == 2 && (!strcmp(act, "sync") || !strcmp(act, "datasync"))) {
			off = len = 0;
			n = 4;
		}
		d = n == 4 ? ddir_of(act) : -1;
		if (d < 0)
			return iop_errf(err, -EINVAL,
					"read_iolog %s:%u: cannot read '%.*s' (accepted: [TIME] FILE add|open|close, or [TIME] FILE read|write|trim|sync|datasync OFFSET LENGTH)",
					job->read_iolog, lineno, (int)strcspn(copy, "\n"), copy);
		if (d == DDIR_TRIM ? len > UINT32_MAX : len > (1u << 30))
			return iop_errf(err, -EINVAL, "read_iolog %s:%u: length %llu over %s",
					job->read_iolog, lineno, len,
					d == DDIR_TRIM ? "4 GiB - 1 (a trim)" : "1 GiB (a read or write)");
		fi = file_index(r, job, name);
		if (fi < 0)
			return iop_errf(err, fi, "read_iolog %s:%u: more than %u files",
					job->read_iolog, lineno, REPLAY_FILES_MAX);
		if (add_entry(r, job, r->version == 3 ? t : last_wait, (unsigned)fi, (unsigned)d, off,
			      (uint32_t)len))
			return iop_errf(err, -ENOMEM, "read_iolog %s: out of memory", job->read_iolog);
	}
	return 0;
}

/* blktrace's struct blk_io_trace (blktrace_api.h), as blktrace writes it (host order). */
struct blk_io_trace {
	uint32_t magic;
	uint32_t sequence;
	uint64_t time;		/* ns */
	uint64_t sector;
	uint32_t bytes;
	uint32_t action;
	uint32_t pid;
	uint32_t device;
	uint32_t cpu;
	uint16_t error;
	uint16_t pdu_len;
};

#define BLK_MAGIC 0x65617400u
#define BLK_VERSION 0x07u
#define BLK_TC_SHIFT 16
#define BLK_TC_READ (1u << 0)
#define BLK_TC_WRITE (1u << 1)
#define BLK_TC_FLUSH (1u << 2)
#define BLK_TC_SYNC (1u << 3)
#define BLK_TC_QUEUE (1u << 4)
#define BLK_TC_NOTIFY (1u << 10)
#define BLK_TC_DISCARD (1u << 13)
#define BLK_TA_QUEUE 1u

static int load_blktrace(const struct job_spec *job, struct replay *r, FILE *f,
			 struct iop_err *err)
{
	struct blk_io_trace t;
	uint64_t t0 = 0;
	bool first = true;
	char skip[65536];
	int fi;

	if (!job->replay_redirect[0] && !job->filename[0])
		return iop_errf(err, -EINVAL,
				"read_iolog %s: a blktrace names devices by number: give replay_redirect= or filename= for the device or file to replay onto",
				job->read_iolog);
	fi = file_index(r, job, job->replay_redirect[0] ? job->replay_redirect : job->filename);
	if (fi < 0)
		return iop_errf(err, fi, "read_iolog %s: bad file name", job->read_iolog);
	while (fread(&t, sizeof(t), 1, f) == 1) {
		unsigned cat = t.action >> BLK_TC_SHIFT, d;

		if ((t.magic & 0xffffff00u) != BLK_MAGIC || (t.magic & 0xff) != BLK_VERSION)
			return iop_errf(err, -EINVAL, "read_iolog %s: bad blktrace record (magic %08x)",
					job->read_iolog, t.magic);
		if (t.pdu_len && fread(skip, 1, t.pdu_len, f) != t.pdu_len)
			break;
		if (cat & BLK_TC_NOTIFY || (t.action & 0xffff) != BLK_TA_QUEUE)
			continue;
		if (cat & BLK_TC_DISCARD)
			d = DDIR_TRIM;
		else if (cat & BLK_TC_WRITE)
			d = DDIR_WRITE;
		else if (cat & BLK_TC_READ)
			d = DDIR_READ;
		else if ((cat & BLK_TC_FLUSH) && !t.bytes)
			d = DDIR_SYNC;
		else
			continue;
		if (d <= DDIR_TRIM && !t.bytes)
			continue;
		if (first) {
			t0 = t.time;
			first = false;
		}
		if (add_entry(r, job, (t.time - t0) / 1000, (unsigned)fi, d, t.sector * 512, t.bytes))
			return iop_errf(err, -ENOMEM, "read_iolog %s: out of memory", job->read_iolog);
	}
	return 0;
}

int replay_load(const struct job_spec *job, struct replay *r, struct iop_err *err)
{
	char head[64];
	uint32_t magic;
	struct stat st;
	FILE *f;
	int ret, fd;

	memset(r, 0, sizeof(*r));
	/* checked on the descriptor it is read from (O_NONBLOCK: a FIFO's open would wait) */
	fd = open(job->read_iolog, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return iop_errf(err, -errno, "read_iolog %s: %s", job->read_iolog, strerror(errno));
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return iop_errf(err, -EINVAL,
				"read_iolog %s: not a regular file (accepted: a file holding fio's version 2 or 3 iolog or a blktrace binary trace)",
				job->read_iolog);
	}
	f = fdopen(fd, "rb");
	if (!f) {
		ret = -errno;
		close(fd);
		return iop_errf(err, ret, "read_iolog %s: %s", job->read_iolog, strerror(-ret));
	}
	if (fread(&magic, sizeof(magic), 1, f) == 1 && (magic & 0xffffff00u) == BLK_MAGIC) {
		rewind(f);
		ret = load_blktrace(job, r, f, err);
	} else if (rewind(f), !fgets(head, sizeof(head), f)) {
		ret = iop_errf(err, -EINVAL, "read_iolog %s: empty", job->read_iolog);
	} else if (!strncmp(head, "fio version 2 iolog", 19) || !strncmp(head, "fio version 3 iolog", 19)) {
		r->version = head[12] == '2' ? 2 : 3;
		ret = load_text(job, r, f, err);
	} else {
		ret = iop_errf(err, -EINVAL,
			       "read_iolog %s: not an I/O log (accepted: fio's version 2 and 3 iologs, blktrace binary traces)",
			       job->read_iolog);
	}
	fclose(f);
	if (!ret && !r->nr)
		ret = iop_errf(err, -EINVAL, "read_iolog %s: no I/O to replay", job->read_iolog);
	if (ret)
		replay_free(r);
	return ret;
}

void replay_free(struct replay *r)
{
	free(r->e);
	r->e = NULL;
	r->nr = r->cap = 0;
}
