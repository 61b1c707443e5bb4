/*
 * mmap: the file's region mapped MAP_SHARED; reads and writes are memcpy, fsync is msync. With
 * direct=1 (as fio's mmap engine): each read or write is followed by msync(MS_SYNC) of its
 * range and posix_madvise(POSIX_MADV_DONTNEED), so that its pages reach the file and may leave
 * the cache.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "iopath/engine.h"

struct map {
	void *addr;
	size_t len;
	uint64_t base;		/* file offset of addr */
};

/*
 * A mapped page that cannot be read or written (an I/O error, a full filesystem under a
 * sparse file, a file truncated by someone else) raises SIGBUS, which would end the whole
 * run and every result in it. Copies run under a per-thread jump buffer instead, and the
 * fault becomes -EIO for that request. SA_NODEFER: the handler leaves with siglongjmp and
 * must not leave SIGBUS blocked, and sigsetjmp(.., 0) then costs no system call per I/O.
 */
static __thread sigjmp_buf *volatile bus_jump;	/* volatile: memcpy may fault in between */

static void on_sigbus(int sig)
{
	if (bus_jump)
		siglongjmp(*bus_jump, 1);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void install_sigbus(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigbus;
	sa.sa_flags = SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, NULL);
}

static int64_t copy_guarded(void *dst, const void *src, uint32_t len)
{
	sigjmp_buf jb;

	if (sigsetjmp(jb, 0)) {
		bus_jump = NULL;
		return -EIO;
	}
	bus_jump = &jb;
	memcpy(dst, src, len);
	bus_jump = NULL;
	return len;
}

static int mmap_init(struct engine *e, const struct engine_params *p)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, install_sigbus);
	/* the settings, packed: bit 0 writes, bit 1 direct, the rest fadvise_hint */
	e->priv = (void *)(uintptr_t)((p->writes ? 1u : 0u) | (p->direct ? 2u : 0u) |
				      (unsigned)p->advise << 2);
	engine_applied(e, "map", "MAP_SHARED");
	if (p->direct)
		engine_applied(e, "direct", "msync+POSIX_MADV_DONTNEED per I/O");
	return 0;
}

static void mmap_exit(struct engine *e)
{
	(void)e;
}

static int mmap_open(struct engine *e, struct io_file *f)
{
	long page = sysconf(_SC_PAGESIZE);
	struct map *m = calloc(1, sizeof(*m));
	uintptr_t set = (uintptr_t)e->priv;
	int prot = PROT_READ | ((set & 1) && !f->read_only ? PROT_WRITE : 0);

	if (!m)
		return -ENOMEM;
	m->base = f->start / (uint64_t)page * (uint64_t)page;
	m->len = (size_t)(f->start + f->len - m->base);
	m->addr = mmap(NULL, m->len, prot, MAP_SHARED, f->fd, (off_t)m->base);
	if (m->addr == MAP_FAILED) {
		int err = errno;
		size_t len = m->len;

		free(m);
		return engine_fail(e, -err, "mmap of %zu bytes: %s", len, strerror(err));
	}
	/* fio's fio_madvise_file: the access pattern, unless fadvise_hint=0 */
	if ((set >> 2) == ENGINE_ADVISE_RANDOM)
		(void)posix_madvise(m->addr, m->len, POSIX_MADV_RANDOM);
	else if ((set >> 2) == ENGINE_ADVISE_SEQUENTIAL)
		(void)posix_madvise(m->addr, m->len, POSIX_MADV_SEQUENTIAL);
	f->engine_data = m;
	return 0;
}

static void mmap_close(struct engine *e, struct io_file *f)
{
	struct map *m = f->engine_data;

	(void)e;
	if (m) {
		munmap(m->addr, m->len);
		free(m);
		f->engine_data = NULL;
	}
}

/*
 * direct=1 (fio's fio_mmapio_queue): the I/O's range flushed and its pages let go. msync wants
 * a page-aligned start, as in fio, where an I/O that is not page-aligned fails with EINVAL;
 * posix_madvise returns its error rather than setting errno, and fio's check (< 0) never sees
 * one, so its result is not looked at here either.
 */
static int64_t flush_drop(char *at, uint32_t len, int64_t res)
{
	if (res < 0)
		return res;
	if (msync(at, len, MS_SYNC))
		return -errno;
	(void)posix_madvise(at, len, POSIX_MADV_DONTNEED);
	return res;
}

static int mmap_submit(struct engine *e, struct io_req **reqs, unsigned n)
{
	bool direct = (uintptr_t)e->priv & 2;
	unsigned i;

	for (i = 0; i < n; i++) {
		struct io_req *r = reqs[i];
		struct map *m = r->file->engine_data;
		char *at = (char *)m->addr + (r->offset - m->base);

		if (r->ddir >= DDIR_SYNC) {
			r->res = msync(m->addr, m->len, MS_SYNC) ? -errno : 0;
			continue;
		}
		if (r->ddir == DDIR_TRIM) {
			r->res = engine_trim(r);	/* on the descriptor, as fio's mmap engine */
			continue;
		}
		if (r->ddir == DDIR_READ)
			r->res = copy_guarded(r->buf, at, r->len);
		else
			r->res = copy_guarded(at, r->buf, r->len);
		if (__builtin_expect(direct, 0))
			r->res = flush_drop(at, r->len, r->res);
	}
	return (int)n;
}

const struct engine_ops mmap_engine = {
	.name = "mmap",
	.help = "memory-mapped file, memcpy in and out, msync for fsync (direct=1: msync and drop after each I/O, as fio)",
	.flags = ENGINE_SYNC | ENGINE_DIRECT_BY_FLUSH | ENGINE_NEEDS_MAP | ENGINE_MAPS_FILES |
		 ENGINE_SYNC_RANGE,
	.init = mmap_init,
	.exit = mmap_exit,
	.open_file = mmap_open,
	.close_file = mmap_close,
	.submit = mmap_submit,
};
