/* mmap: the file's region mapped MAP_SHARED; reads and writes are memcpy, fsync is msync. */
#include <errno.h>
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

static int mmap_init(struct engine *e, const struct engine_params *p)
{
	e->priv = p->writes ? (void *)1 : NULL;
	engine_applied(e, "map", "MAP_SHARED");
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
	int prot = PROT_READ | (e->priv && !f->read_only ? PROT_WRITE : 0);

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

static int mmap_submit(struct engine *e, struct io_req **reqs, unsigned n)
{
	unsigned i;

	(void)e;
	for (i = 0; i < n; i++) {
		struct io_req *r = reqs[i];
		struct map *m = r->file->engine_data;
		char *at = (char *)m->addr + (r->offset - m->base);

		if (r->ddir >= DDIR_SYNC) {
			r->res = msync(m->addr, m->len, MS_SYNC) ? -errno : 0;
			continue;
		}
		if (r->ddir == DDIR_READ)
			memcpy(r->buf, at, r->len);
		else
			memcpy(at, r->buf, r->len);
		r->res = r->len;
	}
	return (int)n;
}

const struct engine_ops mmap_engine = {
	.name = "mmap",
	.help = "memory-mapped file, memcpy in and out, msync for fsync (no O_DIRECT)",
	.flags = ENGINE_SYNC | ENGINE_NO_DIRECT | ENGINE_NEEDS_MAP,
	.init = mmap_init,
	.exit = mmap_exit,
	.open_file = mmap_open,
	.close_file = mmap_close,
	.submit = mmap_submit,
};
