/* libaio: Linux native AIO, io_submit in batches and io_getevents for completions (trims inline). */
#include <errno.h>
#include <libaio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "iopath/engine.h"

/* linux/aio_abi.h's, which cannot be included beside libaio.h (both define struct iocb) */
#ifndef IOCB_FLAG_IOPRIO
#define IOCB_FLAG_IOPRIO (1 << 1)
#endif

struct aio_priv {
	io_context_t ctx;
	struct iocb *iocbs;		/* one per request slot */
	struct iocb **iocbps;
	struct io_event *events;
	struct io_req **synced;		/* sync and trim requests completed inline, reaped next */
	unsigned nr_synced;
	unsigned depth;
	unsigned wflags;		/* the RWF_* flags of every write (aio_rw_flags) */
};

static int aio_init(struct engine *e, const struct engine_params *p)
{
	struct aio_priv *a = calloc(1, sizeof(*a));
	int ret;

	if (!a)
		return -ENOMEM;
	a->depth = p->iodepth;
	a->iocbs = calloc(p->iodepth, sizeof(*a->iocbs));
	a->iocbps = calloc(p->iodepth, sizeof(*a->iocbps));
	a->events = calloc(p->iodepth, sizeof(*a->events));
	a->synced = calloc(p->iodepth, sizeof(*a->synced));
	if (!a->iocbs || !a->iocbps || !a->events || !a->synced) {
		ret = -ENOMEM;
		goto err_free;
	}
	ret = io_setup((int)p->iodepth, &a->ctx);
	if (ret) {
		if (ret == -EAGAIN)
			engine_fail(e, ret,
				    "io_setup(%u): %s (the system-wide limit /proc/sys/fs/aio-max-nr is reached; raise it or lower iodepth/numjobs)",
				    p->iodepth, strerror(-ret));
		else
			engine_fail(e, ret, "io_setup(%u): %s", p->iodepth, strerror(-ret));
		goto err_free;
	}
	engine_applied(e, "io_setup_nr", "%u", p->iodepth);
	if (p->atomic) {
		a->wflags = RWF_ATOMIC;
		engine_applied(e, "atomic", "RWF_ATOMIC in aio_rw_flags");
	}
	e->priv = a;
	return 0;

err_free:
	free(a->iocbs);
	free(a->iocbps);
	free(a->events);
	free(a->synced);
	free(a);
	return ret;
}

static void aio_exit(struct engine *e)
{
	struct aio_priv *a = e->priv;

	io_destroy(a->ctx);
	free(a->iocbs);
	free(a->iocbps);
	free(a->events);
	free(a->synced);
	free(a);
}

static int aio_submit(struct engine *e, struct io_req **reqs, unsigned n)
{
	struct aio_priv *a = e->priv;
	unsigned i, nr = 0;
	int ret;

	for (i = 0; i < n; i++) {
		struct io_req *r = reqs[i];
		struct iocb *cb = &a->iocbs[r->index];

		if (r->ddir >= DDIR_SYNC) {
			/* most filesystems refuse IOCB_CMD_FSYNC: the runner drained writes, sync here */
			if (nr)
				break;
			r->res = engine_flush(e, r);
			a->synced[a->nr_synced++] = r;
			return 1;
		}
		if (r->ddir == DDIR_TRIM) {
			/* AIO has no discard: inline, after what this call queued (as fio's libaio) */
			if (nr)
				break;
			r->res = engine_trim(r);
			a->synced[a->nr_synced++] = r;
			return 1;
		}
		if (r->ddir == DDIR_READ)
			io_prep_pread(cb, r->file->fd, r->buf, r->len, (long long)r->offset);
		else {
			io_prep_pwrite(cb, r->file->fd, r->buf, r->len, (long long)r->offset);
			cb->aio_rw_flags = a->wflags;
		}
		if (r->ioprio) {
			/* the request's own priority (cmdprio), as fio's libaio sets it */
			cb->u.c.flags |= IOCB_FLAG_IOPRIO;
			cb->aio_reqprio = (short)r->ioprio;
		}
		cb->data = r;
		a->iocbps[nr++] = cb;
	}
	do {
		ret = io_submit(a->ctx, (long)nr, a->iocbps);
	} while (ret == -EINTR);
	if (ret == -EAGAIN)
		return 0;
	if (ret < 0 && nr) {
		/* the kernel refused the first iocb (a write's RWF_ATOMIC where the file has no
		 * atomic writes: EOPNOTSUPP): that request's failure, completed next, as fio has it */
		struct io_req *r = a->iocbps[0]->data;

		r->res = ret;
		a->synced[a->nr_synced++] = r;
		return 1;
	}
	return ret;
}

static int aio_reap(struct engine *e, struct io_req **done, unsigned min, unsigned max)
{
	struct aio_priv *a = e->priv;
	unsigned got = 0, i;
	int ret;

	while (a->nr_synced && got < max)
		done[got++] = a->synced[--a->nr_synced];
	if (got >= max || (got && got >= min))
		return (int)got;
	ret = io_getevents(a->ctx, got >= min ? 0 : (long)(min - got), (long)(max - got), a->events,
			   NULL);
	if (ret == -EINTR)
		return (int)got;
	if (ret < 0)
		return ret;
	for (i = 0; i < (unsigned)ret; i++) {
		struct io_req *r = a->events[i].data;

		r->res = (long)a->events[i].res;
		done[got++] = r;
	}
	return (int)got;
}

const struct engine_ops libaio_engine = {
	.name = "libaio",
	.flags = ENGINE_TRIAL | ENGINE_CMDPRIO | ENGINE_ATOMIC | ENGINE_KERNEL_QUEUE | ENGINE_SYNC_RANGE,
	.help = "Linux native asynchronous I/O (io_submit/io_getevents); asynchronous with direct=1",
	.init = aio_init,
	.exit = aio_exit,
	.submit = aio_submit,
	.reap = aio_reap,
};
