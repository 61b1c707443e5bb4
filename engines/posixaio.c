/* posixaio: POSIX asynchronous I/O (aio_read/aio_write, aio_suspend for completions; syncs and trims inline). */
#include <aio.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "iopath/engine.h"

struct paio_priv {
	struct aiocb *cbs;		/* one per request slot */
	struct io_req **inflight;	/* submitted, not yet reaped */
	const struct aiocb **wait;	/* aio_suspend's list */
	unsigned nr_inflight;
	struct io_req **synced;		/* completed inline, reaped next */
	unsigned nr_synced;
};

static int paio_init(struct engine *e, const struct engine_params *p)
{
	struct paio_priv *a = calloc(1, sizeof(*a));

	if (!a)
		return -ENOMEM;
	a->cbs = calloc(p->nr_reqs, sizeof(*a->cbs));
	a->inflight = calloc(p->nr_reqs, sizeof(*a->inflight));
	a->wait = calloc(p->nr_reqs, sizeof(*a->wait));
	a->synced = calloc(p->nr_reqs, sizeof(*a->synced));
	if (!a->cbs || !a->inflight || !a->wait || !a->synced) {
		free(a->cbs);
		free(a->inflight);
		free(a->wait);
		free(a->synced);
		free(a);
		return -ENOMEM;
	}
	e->priv = a;
	return 0;
}

static void paio_exit(struct engine *e)
{
	struct paio_priv *a = e->priv;
	unsigned i;

	/* the runner reaps everything first; cancel what an aborted run may leave */
	for (i = 0; i < a->nr_inflight; i++) {
		struct aiocb *cb = &a->cbs[a->inflight[i]->index];

		if (aio_cancel(cb->aio_fildes, cb) == AIO_NOTCANCELED)
			while (aio_error(cb) == EINPROGRESS)
				aio_suspend((const struct aiocb *const *)&cb, 1, NULL);
	}
	free(a->cbs);
	free(a->inflight);
	free(a->wait);
	free(a->synced);
	free(a);
}

static int paio_submit(struct engine *e, struct io_req **reqs, unsigned n)
{
	struct paio_priv *a = e->priv;
	unsigned i;

	for (i = 0; i < n; i++) {
		struct io_req *r = reqs[i];
		struct aiocb *cb = &a->cbs[r->index];
		int ret;

		if (r->ddir >= DDIR_SYNC || r->ddir == DDIR_TRIM) {
			/* as fio's posixaio: flushes and discards inline */
			r->res = r->ddir == DDIR_TRIM ? engine_trim(r) : engine_flush(e, r);
			a->synced[a->nr_synced++] = r;
			continue;
		}
		memset(cb, 0, sizeof(*cb));
		cb->aio_fildes = r->file->fd;
		cb->aio_buf = r->buf;
		cb->aio_nbytes = r->len;
		cb->aio_offset = (off_t)r->offset;
		cb->aio_sigevent.sigev_notify = SIGEV_NONE;
		ret = r->ddir == DDIR_READ ? aio_read(cb) : aio_write(cb);
		if (ret) {
			if (errno == EAGAIN)
				return (int)i;
			r->res = -errno;
			a->synced[a->nr_synced++] = r;
			continue;
		}
		a->inflight[a->nr_inflight++] = r;
	}
	return (int)n;
}

/* Move finished requests from the in-flight list to done[]; returns how many. */
static unsigned paio_collect(struct paio_priv *a, struct io_req **done, unsigned max)
{
	unsigned i = 0, got = 0;

	while (i < a->nr_inflight && got < max) {
		struct io_req *r = a->inflight[i];
		struct aiocb *cb = &a->cbs[r->index];
		int err = aio_error(cb);

		if (err == EINPROGRESS) {
			i++;
			continue;
		}
		r->res = err ? -err : (int64_t)aio_return(cb);
		done[got++] = r;
		a->inflight[i] = a->inflight[--a->nr_inflight];
	}
	return got;
}

static int paio_reap(struct engine *e, struct io_req **done, unsigned min, unsigned max)
{
	struct paio_priv *a = e->priv;
	unsigned got = 0, i;

	while (a->nr_synced && got < max)
		done[got++] = a->synced[--a->nr_synced];
	for (;;) {
		got += paio_collect(a, done + got, max - got);
		if (got >= min || got >= max || !a->nr_inflight)
			return (int)got;
		for (i = 0; i < a->nr_inflight; i++)
			a->wait[i] = &a->cbs[a->inflight[i]->index];
		if (aio_suspend(a->wait, (int)a->nr_inflight, NULL) && errno != EINTR &&
		    errno != EAGAIN)
			return -errno;
	}
}

const struct engine_ops posixaio_engine = {
	.name = "posixaio",
	.flags = ENGINE_SYNC_RANGE,
	.help = "POSIX asynchronous I/O (aio_read/aio_write, glibc's thread pool; aio_suspend to reap)",
	.init = paio_init,
	.exit = paio_exit,
	.submit = paio_submit,
	.reap = paio_reap,
};
