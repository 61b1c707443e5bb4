/* Capability trials in a temporary file: O_DIRECT, async interfaces, mmap, fallocate, fsync. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "probe/probe_int.h"
#include "base/tempfiles.h"
#include "base/testhold.h"
#include "job/target.h"

#define DATA_LEN	(256u * 1024)	/* written, synced region at the start of the file */
#define FILE_LEN	(512u * 1024)	/* the rest is a hole */
#define BLK		4096u
#define BUF_LEN		(64u * 1024)
#define HONESTY_READS	32	/* pairs of timed reads; as many again when they do not decide */
#define HONESTY_MAX	(2 * HONESTY_READS)
#define FAST_US		5.0	/* a 4 KiB read faster than this did not cross a device */
#define DEVICE_US	10.0	/* data this much slower than a hole came from below memory */

struct trial_ctx {
	struct probe_path *p;
	char name[PATH_MAX];
	int fd;			/* buffered */
	int dfd;		/* O_DIRECT, -1 when refused */
	unsigned char *buf;	/* BUF_LEN, 4096-aligned */
};

/*
 * open(O_CREAT | O_EXCL) and register the name for removal, with the exit signals held off
 * in between: a SIGINT that came while the create was on its way (a FUSE create can take a
 * second) would otherwise remove the registered files and exit before this one is among
 * them. The signal is taken once the name is registered.
 */
static int create_registered(const char *name)
{
	sigset_t block, old;
	int fd, saved;

	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	fd = open(name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	saved = errno;
	if (fd >= 0) {
		/* a test's hold (IOPATH_TEST_HOLD_PROBE): made, not registered yet, signals held */
		test_hold("IOPATH_TEST_HOLD_PROBE", "");
		tempfiles_register(name);	/* removed on SIGINT/SIGTERM too */
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	errno = saved;
	return fd;
}

/* Create a fresh file in dir with O_EXCL; returns the fd or -errno. */
static int tmp_create(const char *dir, char *name, size_t len)
{
	unsigned long salt = (unsigned long)mono_ns();
	int i, fd;

	for (i = 0; i < 32; i++) {
		salt = salt * 6364136223846793005ul + 1442695040888963407ul;
		if (snprintf(name, len, "%s/.iopath-probe-%d-%08lx", dir, (int)getpid(),
			     (salt >> 32) & 0xfffffffful) >= (int)len)
			return -ENAMETOOLONG;
		fd = create_registered(name);
		if (fd >= 0)
			return fd;
		if (errno == EINTR) {
			/* a signal cut the create short: on FUSE the file may exist all the same */
			unlink(name);
			return -EINTR;
		}
		if (errno != EEXIST)
			return -errno;
	}
	return -EEXIST;
}

/* pwrite/pread all of len, or -errno (-EIO for a short transfer). */
static int xfer(int fd, void *buf, size_t len, off_t off, bool write)
{
	ssize_t n = write ? pwrite(fd, buf, len, off) : pread(fd, buf, len, off);

	if (n < 0)
		return -errno;
	return (size_t)n == len ? 0 : -EIO;
}

/* The data region, written buffered and synced, then dropped from the page cache. */
static int fill(struct trial_ctx *c)
{
	unsigned off;
	int ret;

	for (off = 0; off < DATA_LEN; off += BUF_LEN) {
		memset(c->buf, 0x40 + (int)(off / BUF_LEN), BUF_LEN);
		ret = xfer(c->fd, c->buf, BUF_LEN, off, true);
		if (ret)
			return ret;
	}
	if (ftruncate(c->fd, FILE_LEN) || fsync(c->fd))
		return -errno;
	posix_fadvise(c->fd, 0, 0, POSIX_FADV_DONTNEED);
	return 0;
}

static void trial_direct_open(struct trial_ctx *c)
{
	struct probe_trial *t = &c->p->trial[PROBE_T_DIRECT_OPEN];

	c->dfd = open(c->name, O_RDWR | O_DIRECT | O_CLOEXEC);
	if (c->dfd < 0)
		probe_trial_set(t, errno, "open(O_DIRECT): %s", strerror(errno));
	else
		probe_trial_set(t, 0, "accepted");
}

/* Write at off from buf+boff, read it back into another buffer of the same alignment. */
static int direct_rw_at(struct trial_ctx *c, unsigned boff, unsigned len, off_t off)
{
	unsigned char *w = c->buf + boff, *r = c->buf + BUF_LEN / 2 + boff;
	int ret;

	memset(w, 0xa5, len);
	memset(r, 0, len);
	ret = xfer(c->dfd, w, len, off, true);
	if (!ret)
		ret = xfer(c->dfd, r, len, off, false);
	if (!ret && memcmp(w, r, len))
		ret = -EIO;
	return ret;
}

/* One aligned O_DIRECT write and read back, at 512 then at 4096 alignment. */
static void trial_direct_rw(struct trial_ctx *c)
{
	struct probe_trial *t = &c->p->trial[PROBE_T_DIRECT_RW];
	int r512, r4k;

	if (c->dfd < 0) {
		probe_trial_set(t, EINVAL, "no O_DIRECT descriptor");
		return;
	}
	r512 = direct_rw_at(c, 512, 512, 512);
	if (!r512) {
		c->p->direct_align = 512;
		probe_trial_set(t, 0, "512-byte aligned write and read back");
		return;
	}
	r4k = direct_rw_at(c, 0, BLK, BLK);
	if (!r4k) {
		c->p->direct_align = BLK;
		probe_trial_set(t, 0, "4096-byte aligned write and read back (512: %s)",
				strerror(-r512));
		return;
	}
	probe_trial_set(t, r4k, "aligned O_DIRECT write/read fails: %s%s", strerror(-r4k),
			r4k == -EIO ? " (or data read back differs)" : "");
}

/* A read at byte offset 1: a real direct path rejects it (EINVAL), a cached one serves it. */
static void trial_unaligned(struct trial_ctx *c)
{
	struct probe_trial *t = &c->p->trial[PROBE_T_UNALIGNED];
	ssize_t n;

	if (c->dfd < 0)
		return;
	n = pread(c->dfd, c->buf, 512, 1);
	if (n >= 0)
		probe_trial_set(t, 0, "accepted: alignment is not enforced");
	else if (errno == EINVAL)
		probe_trial_set(t, EINVAL, "EINVAL: alignment is enforced");
	else
		probe_trial_set(t, errno, "%s", strerror(errno));
}

/* What atomic=1 could do there: the atomic write limits of the trial file, a new one. */
static void atomic_limits(struct trial_ctx *c)
{
	struct atomic_limits lim;

	if (target_atomic_limits(c->fd, &lim))
		return;
	c->p->atomic_unit_min = lim.unit_min;
	c->p->atomic_unit_max = lim.unit_max;
	c->p->atomic_segments_max = lim.segments_max;
}

static void dio_align(struct trial_ctx *c)
{
#ifdef STATX_DIOALIGN
	struct statx stx;

	if (statx(AT_FDCWD, c->name, 0, STATX_DIOALIGN, &stx) == 0 &&
	    (stx.stx_mask & STATX_DIOALIGN)) {
		c->p->dio_mem_align = stx.stx_dio_mem_align;
		c->p->dio_offset_align = stx.stx_dio_offset_align;
	}
#else
	(void)c;
#endif
}

static void trial_async(struct trial_ctx *c)
{
	bool direct = c->dfd >= 0 && c->p->direct_align;
	int fd = direct ? c->dfd : c->fd;

	probe_trial_engines(c->p, fd, direct, c->buf, BLK);
}

static void trial_mmap(struct trial_ctx *c)
{
	struct probe_trial *t = &c->p->trial[PROBE_T_MMAP];
	unsigned char *m;

	m = mmap(NULL, BLK, PROT_READ | PROT_WRITE, MAP_SHARED, c->fd, 0);
	if (m == MAP_FAILED) {
		probe_trial_set(t, errno, "mmap(MAP_SHARED): %s", strerror(errno));
		return;
	}
	memset(m, 0x5a, 64);
	if (msync(m, BLK, MS_SYNC))
		probe_trial_set(t, errno, "msync: %s", strerror(errno));
	else
		probe_trial_set(t, 0, "shared mapping stored and synced");
	munmap(m, BLK);
}

static void trial_fallocate(struct trial_ctx *c)
{
	struct probe_trial *t = &c->p->trial[PROBE_T_FALLOCATE];

	if (fallocate(c->fd, 0, FILE_LEN, BUF_LEN))
		probe_trial_set(t, errno, "fallocate: %s", strerror(errno));
	else
		probe_trial_set(t, 0, "64 KiB allocated");
}

static void trial_fsync(struct trial_ctx *c)
{
	struct probe_trial *t = &c->p->trial[PROBE_T_FSYNC];
	uint64_t t0;
	int ret;

	memset(c->buf, 0x33, BLK);
	ret = xfer(c->fd, c->buf, BLK, 0, true);
	if (ret) {
		probe_trial_set(t, ret, "buffered write before fsync: %s", strerror(-ret));
		return;
	}
	t0 = mono_ns();
	if (fsync(c->fd)) {
		probe_trial_set(t, errno, "fsync: %s", strerror(errno));
		return;
	}
	c->p->fsync_ns = mono_ns() - t0;
	probe_trial_set(t, 0, "4 KiB write + fsync: fsync took %.1f us", c->p->fsync_ns / 1e3);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

struct honesty_times {
	uint64_t d[HONESTY_MAX], h[HONESTY_MAX];	/* written data, the hole; in pairs */
	unsigned n;
};

/* Time O_DIRECT 4 KiB reads of written data and of the hole, alternating, up to n pairs. */
static int time_reads(struct trial_ctx *c, struct honesty_times *t, unsigned n)
{
	uint64_t t0;
	int ret;

	for (; t->n < n; t->n++) {
		t0 = mono_ns();
		ret = xfer(c->dfd, c->buf, BLK, (off_t)(t->n * BLK * 2) % DATA_LEN, false);
		t->d[t->n] = mono_ns() - t0;
		if (ret)
			return ret;
		t0 = mono_ns();
		ret = xfer(c->dfd, c->buf, BLK, DATA_LEN + (off_t)t->n * BLK, false);
		t->h[t->n] = mono_ns() - t0;
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * What a read costs when nothing gets in its way: the 6th percentile (the 3rd fastest of 32).
 * A busy machine, or an emulated guest whose CPU is taken away, stalls reads now and then;
 * stalls only ever add time, and on a loaded host they hit most of some runs' reads (the
 * lower quartile of virtiofs's reads rose from 120 us to 650-880 us at load 9, and with it
 * the ratio), so only the fastest reads are free of them; not the fastest itself, which one
 * lucky read would set.
 */
static uint64_t floor_of(const uint64_t *x, unsigned n)
{
	uint64_t s[HONESTY_MAX];

	memcpy(s, x, n * sizeof(s[0]));
	qsort(s, n, sizeof(s[0]), cmp_u64);
	return s[n / 16];
}

static void honesty_figures(struct probe_path *p, const struct honesty_times *t)
{
	p->direct_data_ns = floor_of(t->d, t->n);
	p->direct_hole_ns = floor_of(t->h, t->n);
	p->direct_hole_ns = p->direct_hole_ns ? p->direct_hole_ns : 1;
	p->direct_reads = t->n;
}

/* A loop device reading its backing file without dio answers from that file's page cache. */
static bool buffered_loop(const struct probe_path *p)
{
	const struct probe_dev *d = p->nr_chain ? &p->chain[p->nr_chain - 1] : NULL;

	return d && !strcmp(d->kind, "loop") && strstr(d->extra, "dio off");
}

/*
 * Reads of written data against reads of the hole: data that takes at least twice as long,
 * or DEVICE_US and 30% longer, was fetched from below memory (a device, or a host's O_DIRECT
 * read of its disk behind a share: 200 against 145 us on virtiofs with allow_direct_io under
 * TCG, 1.39-3.5x); data about as slow as the hole came from memory, whatever the path's round
 * trip costs around it (a FUSE or 9p request, a host's page cache behind the share: 0.80-1.24x
 * on virtiofs without allow_direct_io under TCG). Where unaligned O_DIRECT is refused (EINVAL),
 * a layer below enforces direct I/O's rules, and data DEVICE_US and 5% slower than the hole is
 * enough: behind a share whose round trip is long (180 us under TCG) a fast host disk adds
 * only 20-60 us (1.1-1.3x), which the 30% rule left undecided.
 */
void probe_direct_verdict(struct probe_path *p, bool sparse)
{
	double data = p->direct_data_ns / 1e3, hole = p->direct_hole_ns / 1e3;
	double ratio = (double)p->direct_data_ns / (double)p->direct_hole_ns, more = data - hole;
	bool unaligned = p->trial[PROBE_T_UNALIGNED].state == PROBE_OK;
	char *ev = p->direct_evidence;
	size_t len = sizeof(p->direct_evidence);

	if (p->fs_class == PROBE_FS_MEMORY) {
		p->direct_honoured = PROBE_NO;
		probe_fmt(ev, len, "memory-backed filesystem: O_DIRECT reads are memory copies (%.1f us)",
			  data);
	} else if (buffered_loop(p)) {
		p->direct_honoured = PROBE_NO;
		probe_fmt(ev, len, "loop device without dio: reads go through its backing file's page cache (%.1f us)",
			  data);
	} else if (!sparse) {
		p->direct_honoured = unaligned && data < FAST_US ? PROBE_NO : PROBE_UNKNOWN;
		probe_fmt(ev, len, "no hole to compare with; O_DIRECT data reads take %.1f us%s", data,
			  p->direct_honoured == PROBE_NO ?
			  " with unaligned reads accepted: a cache answers them" : "");
	} else if ((ratio >= 2.0 && data >= FAST_US) || (more >= DEVICE_US && ratio >= 1.3)) {
		p->direct_honoured = PROBE_YES;
		probe_fmt(ev, len, "O_DIRECT reads of written data take %.1f us against %.1f us for a hole: they reach the storage",
			  data, hole);
	} else if (!unaligned && more >= DEVICE_US && ratio >= 1.05) {
		p->direct_honoured = PROBE_YES;
		probe_fmt(ev, len, "O_DIRECT reads of written data take %.1f us against %.1f us for a hole, and unaligned O_DIRECT is refused: a layer below enforces direct I/O and the data comes from the storage",
			  data, hole);
	} else if (ratio < 1.5 && unaligned) {
		p->direct_honoured = PROBE_NO;
		probe_fmt(ev, len, "O_DIRECT reads of written data take %.1f us, no longer than a hole (%.1f us), unaligned ones accepted: the data comes from memory (a page cache here or behind the path), not the storage%s",
			  data, hole, data >= 50 ? "; the time is the path's round trip" : "");
	} else {
		p->direct_honoured = PROBE_UNKNOWN;
		probe_fmt(ev, len, "O_DIRECT reads of written data take %.1f us against %.1f us for a hole%s; unaligned O_DIRECT %s",
			  data, hole, data < FAST_US ? " (memory speed)" : "",
			  unaligned ? "accepted" : "rejected");
	}
}

/* Data 20-45% slower than a hole, and by DEVICE_US: a verdict 32 reads more make surer. */
static bool near_the_line(const struct probe_path *p)
{
	double ratio = (double)p->direct_data_ns / (double)p->direct_hole_ns;

	return ratio >= 1.2 && ratio < 1.45 &&
	       p->direct_data_ns >= p->direct_hole_ns + (uint64_t)(DEVICE_US * 1e3);
}

/*
 * Do O_DIRECT reads reach the storage? A read of written data has to fetch it from below;
 * a read of a hole is answered from metadata. Where both cost the same, something (the
 * guest's page cache, or a host's behind a shared folder, as virtiofs without allow_direct_io)
 * is answering the "direct" reads from memory.
 */
static void honesty(struct trial_ctx *c)
{
	struct probe_path *p = c->p;
	struct honesty_times t = { .n = 0 };
	struct stat st;
	bool sparse;
	int ret;

	if (c->dfd < 0 || !p->direct_align) {
		probe_fmt(p->direct_evidence, sizeof(p->direct_evidence), "no working O_DIRECT");
		return;
	}
	if (fsync(c->fd) == 0)
		posix_fadvise(c->fd, 0, 0, POSIX_FADV_DONTNEED);
	/* XFS preallocates past EOF, so ask where the hole starts before counting blocks. */
	sparse = lseek(c->fd, DATA_LEN, SEEK_HOLE) == (off_t)DATA_LEN ||
		 (fstat(c->fd, &st) == 0 && (uint64_t)st.st_blocks * 512 <= DATA_LEN + BUF_LEN);
	ret = time_reads(c, &t, HONESTY_READS);
	if (!ret) {
		honesty_figures(p, &t);
		probe_direct_verdict(p, sparse);
	}
	/* undecided, or near the line between a cache and the storage: as many reads again */
	if (!ret && sparse && (p->direct_honoured == PROBE_UNKNOWN || near_the_line(p))) {
		ret = time_reads(c, &t, HONESTY_MAX);
		if (!ret) {
			honesty_figures(p, &t);
			probe_direct_verdict(p, sparse);
		}
	}
	if (ret)
		probe_fmt(p->direct_evidence, sizeof(p->direct_evidence),
			 "timed O_DIRECT reads failed: %s", strerror(-ret));
}

static void trials_skipped(struct probe_path *p, int err)
{
	unsigned i;

	probe_trial_set(&p->trial[PROBE_T_CREATE], err, "cannot create a temporary file: %s",
			strerror(err));
	for (i = PROBE_T_CREATE + 1; i < PROBE_T_NR; i++)
		probe_fmt(p->trial[i].why, sizeof(p->trial[i].why), "not run: no temporary file");
}

void probe_trials(struct probe_path *p, const char *dir, unsigned flags)
{
	struct trial_ctx c = { .p = p, .fd = -1, .dfd = -1 };
	int ret;

	if (posix_memalign((void **)&c.buf, BLK, BUF_LEN)) {
		trials_skipped(p, ENOMEM);
		return;
	}
	c.fd = tmp_create(dir, c.name, sizeof(c.name));
	if (c.fd < 0) {
		trials_skipped(p, -c.fd);
		goto out_free;
	}
	ret = fill(&c);
	probe_trial_set(&p->trial[PROBE_T_CREATE], ret, "%s",
			ret ? strerror(-ret) : "512 KiB file, first half written and synced");
	if (ret)
		goto out_unlink;
	trial_direct_open(&c);
	trial_direct_rw(&c);
	trial_unaligned(&c);
	dio_align(&c);
	atomic_limits(&c);
	if (flags & PROBE_TIMING)
		honesty(&c);
	trial_async(&c);
	trial_mmap(&c);
	trial_fallocate(&c);
	trial_fsync(&c);
out_unlink:
	if (c.dfd >= 0)
		close(c.dfd);
	close(c.fd);
	tempfiles_remove(c.name);
out_free:
	free(c.buf);
}
