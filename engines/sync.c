/* sync, psync, pvsync, pvsync2: one system call per request (read/write, pread/pwrite, preadv/pwritev, preadv2/pwritev2 with RWF_* flags; trims BLKDISCARD). */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <sys/uio.h>
#include <unistd.h>

#include "iopath/engine.h"

static int sync_init(struct engine *e, const struct engine_params *p)
{
	(void)p;
	e->priv = NULL;
	return 0;
}

static void sync_exit(struct engine *e)
{
	(void)e;
}

static int64_t do_rw(const struct io_req *r)
{
	ssize_t ret;

	if (lseek(r->file->fd, (off_t)r->offset, SEEK_SET) < 0)
		return -errno;
	ret = r->ddir == DDIR_READ ? read(r->file->fd, r->buf, r->len)
				   : write(r->file->fd, r->buf, r->len);
	return ret < 0 ? -errno : ret;
}

static int64_t do_prw(const struct io_req *r)
{
	ssize_t ret = r->ddir == DDIR_READ ? pread(r->file->fd, r->buf, r->len, (off_t)r->offset)
					   : pwrite(r->file->fd, r->buf, r->len, (off_t)r->offset);

	return ret < 0 ? -errno : ret;
}

static int64_t do_pv(const struct io_req *r)
{
	struct iovec iov = { r->buf, r->len };
	ssize_t ret = r->ddir == DDIR_READ ? preadv(r->file->fd, &iov, 1, (off_t)r->offset)
					   : pwritev(r->file->fd, &iov, 1, (off_t)r->offset);

	return ret < 0 ? -errno : ret;
}

/* pvsync2's options, fio's names */
struct pv2_opts {
	int hipri;
};

static const struct engine_option pv2_options[] = {
	{ "hipri", EOPT_BOOL, offsetof(struct pv2_opts, hipri), 0, 1, 0,
	  "RWF_HIPRI: poll for completion (needs direct=1 and a device with poll queues)", NULL },
	{ NULL, 0, 0, 0, 0, 0, NULL, NULL },
};

/* The RWF_* flags of pvsync2's reads and of its writes, decided at init. */
struct pv2_priv {
	int rflags;
	int wflags;
};

static int pv2_init(struct engine *e, const struct engine_params *p)
{
	const struct pv2_opts *o = p->opts;
	struct pv2_priv *v = calloc(1, sizeof(*v));

	if (!v)
		return -ENOMEM;
	v->rflags = v->wflags = o->hipri ? RWF_HIPRI : 0;
	if (p->atomic)
		v->wflags |= RWF_ATOMIC;
	e->priv = v;
	engine_applied(e, "hipri", "%s", o->hipri ? "yes" : "no");
	if (p->atomic)
		engine_applied(e, "atomic", "RWF_ATOMIC on pwritev2");
	return 0;
}

static void pv2_exit(struct engine *e)
{
	free(e->priv);
}

static int64_t do_pv2(const struct io_req *r, const struct pv2_priv *v)
{
	struct iovec iov = { r->buf, r->len };
	ssize_t ret = r->ddir == DDIR_READ ? preadv2(r->file->fd, &iov, 1, (off_t)r->offset, v->rflags)
					   : pwritev2(r->file->fd, &iov, 1, (off_t)r->offset, v->wflags);

	return ret < 0 ? -errno : ret;
}

static int pvsync_submit(struct engine *e, struct io_req **reqs, unsigned n)
{
	unsigned i;

	(void)e;
	for (i = 0; i < n; i++)
		reqs[i]->res = reqs[i]->ddir >= DDIR_SYNC ? engine_flush(e, reqs[i]) :
			       reqs[i]->ddir == DDIR_TRIM ? engine_trim(reqs[i]) : do_pv(reqs[i]);
	return (int)n;
}

static int pvsync2_submit(struct engine *e, struct io_req **reqs, unsigned n)
{
	const struct pv2_priv *v = e->priv;
	unsigned i;

	for (i = 0; i < n; i++)
		reqs[i]->res = reqs[i]->ddir >= DDIR_SYNC ? engine_flush(e, reqs[i]) :
			       reqs[i]->ddir == DDIR_TRIM ? engine_trim(reqs[i]) : do_pv2(reqs[i], v);
	return (int)n;
}

static int sync_submit(struct engine *e, struct io_req **reqs, unsigned n)
{
	unsigned i;

	(void)e;
	for (i = 0; i < n; i++)
		reqs[i]->res = reqs[i]->ddir >= DDIR_SYNC ? engine_flush(e, reqs[i]) :
			       reqs[i]->ddir == DDIR_TRIM ? engine_trim(reqs[i]) : do_rw(reqs[i]);
	return (int)n;
}

static int psync_submit(struct engine *e, struct io_req **reqs, unsigned n)
{
	unsigned i;

	(void)e;
	for (i = 0; i < n; i++)
		reqs[i]->res = reqs[i]->ddir >= DDIR_SYNC ? engine_flush(e, reqs[i]) :
			       reqs[i]->ddir == DDIR_TRIM ? engine_trim(reqs[i]) : do_prw(reqs[i]);
	return (int)n;
}

const struct engine_ops sync_engine = {
	.name = "sync",
	.help = "lseek + read/write, one request at a time",
	.flags = ENGINE_SYNC | ENGINE_FILE_POS | ENGINE_PLAIN_CALLS | ENGINE_SYNC_RANGE,
	.init = sync_init,
	.exit = sync_exit,
	.submit = sync_submit,
};

const struct engine_ops psync_engine = {
	.name = "psync",
	.help = "pread/pwrite, one request at a time (odirect: the same with direct=1)",
	.flags = ENGINE_SYNC | ENGINE_PLAIN_CALLS | ENGINE_SYNC_RANGE,
	.init = sync_init,
	.exit = sync_exit,
	.submit = psync_submit,
};

const struct engine_ops pvsync_engine = {
	.name = "pvsync",
	.help = "preadv/pwritev (one vector), one request at a time",
	.flags = ENGINE_SYNC | ENGINE_PLAIN_CALLS | ENGINE_SYNC_RANGE,
	.init = sync_init,
	.exit = sync_exit,
	.submit = pvsync_submit,
};

const struct engine_ops pvsync2_engine = {
	.name = "pvsync2",
	.help = "preadv2/pwritev2 (one vector), RWF_HIPRI with hipri, RWF_ATOMIC writes with atomic=1, one request at a time",
	.flags = ENGINE_SYNC | ENGINE_ATOMIC | ENGINE_SYNC_RANGE,
	.opts_size = sizeof(struct pv2_opts),
	.options = pv2_options,
	.init = pv2_init,
	.exit = pv2_exit,
	.submit = pvsync2_submit,
};
