/*
 * slowio: a real, proportional slowdown of a process's direct reads and writes, for make
 * verdict-test's A/B pairs (LD_PRELOAD=build/slowio.so).
 *
 *   SLOWIO_FACTOR=F (0 < F <= 1, e.g. 0.7): every pread, pwrite, preadv, pwritev, preadv2 and
 *   pwritev2 on a descriptor opened with O_DIRECT lasts 1/F times as long as the call itself
 *   took: after the real call returns, the calling thread is held (1/F - 1) of the call's own
 *   time, so a job issuing one request at a time moves F times the I/Os it would have moved
 *   in the same conditions, whatever the disk does meanwhile. A throttle (blkio/io.max) is a
 *   cap, not that: repeats already below the cap are not slowed, and blk-throttle lets a
 *   100 ms slice's worth through at once.
 *
 *   The hold is a sleep of the calling thread (timer slack 1 ns), so a slowed request wakes
 *   its thread twice (the I/O, the sleep's end) where a slower device would wake it once:
 *   on a busy machine the second wakeup adds a wait for a CPU, which iopath.machine records
 *   as the workers' run-queue wait. It records the wakeups too (workers_sched_in: measured
 *   1.2-1.4 an I/O slowed against 1.0 plain, each wait as long), and compare counts as the
 *   environment's only what each wait grew by, so this wait, the slowed run's own, does not
 *   excuse the slowdown (make verdict-test prints both with every miss). The ways
 *   round it measured worse: spinning instead loses the thread its share of the CPU to the
 *   scheduler's fairness (4-10x slower, not 1.43x), and a helper thread sleeping for it and
 *   waking it through a semaphore (making the call itself or not) changed how long the
 *   caller waited for a CPU after its I/O so much that the slowed side often ran faster
 *   than the plain one. The holds
 *   are accounted: one that overshoots (timer slack, a busy run queue) is paid back by the
 *   following ones, so over a run the extra time is (1/F - 1) of the calls' time within one
 *   overshoot. Descriptors without O_DIRECT (a database, a log) are left alone. Without
 *   SLOWIO_FACTOR, or with F = 1, nothing is slowed. An unreadable SLOWIO_FACTOR stops the
 *   process with one line and exit code 2.
 *
 *   SLOWIO_PATH=DIR/ (optional): only descriptors whose file's path (/proc/self/fd) begins
 *   with it are slowed, so that one process running two targets alternately (sweep
 *   --compare target=base,cur) runs one of them slower. Every direct call of either target
 *   pays the same check (one readlink, before the call is timed), so the other is not.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

static double extra = -1;		/* 1/F - 1; 0: slow nothing */
static const char *only_path;		/* SLOWIO_PATH: slow only files below it; NULL: all */

static __thread int64_t owed_ns;	/* extra time due less extra time held, this thread */
static __thread int slack_set;

static void init_factor(void)
{
	const char *s = getenv("SLOWIO_FACTOR");
	char *end;
	double f;

	if (!s || !*s) {
		extra = 0;
		return;
	}
	f = strtod(s, &end);
	if (*end || !(f > 0 && f <= 1)) {
		fprintf(stderr, "slowio: SLOWIO_FACTOR=%s: expected a number above 0 and at most 1 (0.7: 30%% slower)\n", s);
		_exit(2);
	}
	extra = 1 / f - 1;
	only_path = getenv("SLOWIO_PATH");
	if (only_path && !*only_path)
		only_path = NULL;
}

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* A descriptor to slow: opened with O_DIRECT, and below SLOWIO_PATH where it is given. */
static int is_direct(int fd)
{
	int fl = fcntl(fd, F_GETFL);
	char link[64], path[4096];
	ssize_t n;

	if (fl < 0 || !(fl & O_DIRECT))
		return 0;
	if (!only_path)
		return 1;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, path, sizeof(path) - 1);
	if (n <= 0)
		return 0;
	path[n] = 0;
	return !strncmp(path, only_path, strlen(only_path));
}

/* After a call that took took_ns: sleep what is owed (errno kept). */
static void slow_down(int64_t took_ns)
{
	int saved = errno;
	int64_t t0;
	struct timespec ts;

	owed_ns += (int64_t)(extra * (double)took_ns);
	if (owed_ns > 0) {
		if (!slack_set) {
			prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
			slack_set = 1;
		}
		t0 = now_ns();
		ts.tv_sec = owed_ns / 1000000000;
		ts.tv_nsec = owed_ns % 1000000000;
		while (nanosleep(&ts, &ts) && errno == EINTR)
			;
		owed_ns -= now_ns() - t0;	/* an overshoot is paid back by the next holds */
	}
	errno = saved;
}

#define NEXT(name, type) \
	static type next_##name; \
	if (!next_##name) \
		next_##name = (type)dlsym(RTLD_NEXT, #name); \
	if (extra < 0) \
		init_factor()

#define TIMED(call) \
	do { \
		int slow = extra > 0 && is_direct(fd); \
		int64_t t0 = slow ? now_ns() : 0; \
		ssize_t ret = call; \
		if (slow) \
			slow_down(now_ns() - t0); \
		return ret; \
	} while (0)

typedef ssize_t (*rw_fn)(int, void *, size_t, off_t);
typedef ssize_t (*wr_fn)(int, const void *, size_t, off_t);
typedef ssize_t (*vec_fn)(int, const struct iovec *, int, off_t);
typedef ssize_t (*vec2_fn)(int, const struct iovec *, int, off_t, int);

ssize_t pread(int fd, void *buf, size_t n, off_t off)
{
	NEXT(pread, rw_fn);
	TIMED(next_pread(fd, buf, n, off));
}

ssize_t pread64(int fd, void *buf, size_t n, off_t off)
{
	NEXT(pread64, rw_fn);
	TIMED(next_pread64(fd, buf, n, off));
}

ssize_t pwrite(int fd, const void *buf, size_t n, off_t off)
{
	NEXT(pwrite, wr_fn);
	TIMED(next_pwrite(fd, buf, n, off));
}

ssize_t pwrite64(int fd, const void *buf, size_t n, off_t off)
{
	NEXT(pwrite64, wr_fn);
	TIMED(next_pwrite64(fd, buf, n, off));
}

ssize_t preadv(int fd, const struct iovec *iov, int cnt, off_t off)
{
	NEXT(preadv, vec_fn);
	TIMED(next_preadv(fd, iov, cnt, off));
}

ssize_t pwritev(int fd, const struct iovec *iov, int cnt, off_t off)
{
	NEXT(pwritev, vec_fn);
	TIMED(next_pwritev(fd, iov, cnt, off));
}

ssize_t preadv2(int fd, const struct iovec *iov, int cnt, off_t off, int flags)
{
	NEXT(preadv2, vec2_fn);
	TIMED(next_preadv2(fd, iov, cnt, off, flags));
}

ssize_t pwritev2(int fd, const struct iovec *iov, int cnt, off_t off, int flags)
{
	NEXT(pwritev2, vec2_fn);
	TIMED(next_pwritev2(fd, iov, cnt, off, flags));
}
