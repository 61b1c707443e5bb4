/* ftruncate: each write sets the file's size to the request's offset, as fio's ftruncate engine. */
#include <errno.h>
#include <unistd.h>

#include "iopath/engine.h"

static int ftrunc_init(struct engine *e, const struct engine_params *p)
{
	(void)p;
	e->priv = NULL;
	return 0;
}

static void ftrunc_exit(struct engine *e)
{
	(void)e;
}

/* The block size is not used: a write truncates at its offset and counts its length. */
static int64_t do_ftruncate(const struct io_req *r)
{
	switch (r->ddir) {
	case DDIR_WRITE:
		return ftruncate(r->file->fd, (off_t)r->offset) ? -errno : (int64_t)r->len;
	case DDIR_SYNC:
		return fsync(r->file->fd) ? -errno : 0;
	case DDIR_DATASYNC:
		return fdatasync(r->file->fd) ? -errno : 0;
	default:
		return -EINVAL;		/* fio: only writes truncate (the job refuses the rest) */
	}
}

static int ftrunc_submit(struct engine *e, struct io_req **reqs, unsigned n)
{
	unsigned i;

	(void)e;
	for (i = 0; i < n; i++)
		reqs[i]->res = do_ftruncate(reqs[i]);
	return (int)n;
}

const struct engine_ops ftruncate_engine = {
	.name = "ftruncate",
	.help = "ftruncate(2) to each write's offset (bs only counts); reads and trims refused",
	.flags = ENGINE_SYNC | ENGINE_NO_DATA | ENGINE_WRITES_ONLY,
	.init = ftrunc_init,
	.exit = ftrunc_exit,
	.submit = ftrunc_submit,
};
