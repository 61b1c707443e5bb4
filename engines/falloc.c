/* falloc: each request is a fallocate(2) of its range, as fio's falloc engine (no data moves). */
#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <unistd.h>

#include "iopath/engine.h"

static int falloc_init(struct engine *e, const struct engine_params *p)
{
	(void)p;
	e->priv = NULL;
	return 0;
}

static void falloc_exit(struct engine *e)
{
	(void)e;
}

/*
 * fio's mapping: a read allocates without changing the size (KEEP_SIZE), a write allocates
 * and extends, a trim punches a hole. The request counts its length as moved.
 */
static int64_t do_falloc(const struct io_req *r)
{
	int mode;

	switch (r->ddir) {
	case DDIR_READ:
		mode = FALLOC_FL_KEEP_SIZE;
		break;
	case DDIR_WRITE:
		mode = 0;
		break;
	case DDIR_TRIM:
		mode = FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE;
		break;
	case DDIR_SYNC:
		return fsync(r->file->fd) ? -errno : 0;
	default:
		return fdatasync(r->file->fd) ? -errno : 0;
	}
	return fallocate(r->file->fd, mode, (off_t)r->offset, (off_t)r->len) ? -errno :
	       (int64_t)r->len;
}

static int falloc_submit(struct engine *e, struct io_req **reqs, unsigned n)
{
	unsigned i;

	(void)e;
	for (i = 0; i < n; i++)
		reqs[i]->res = do_falloc(reqs[i]);
	return (int)n;
}

const struct engine_ops falloc_engine = {
	.name = "falloc",
	.help = "fallocate(2) per request: reads KEEP_SIZE, writes extend, trims PUNCH_HOLE",
	.flags = ENGINE_SYNC | ENGINE_MODIFIES | ENGINE_NO_DATA,
	.init = falloc_init,
	.exit = falloc_exit,
	.submit = falloc_submit,
};
