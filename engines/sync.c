/* sync and psync: one system call per request (lseek + read/write, or pread/pwrite; trims BLKDISCARD). */
#include <errno.h>
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

static int64_t do_sync(const struct io_req *r)
{
	int ret = r->ddir == DDIR_SYNC ? fsync(r->file->fd) : fdatasync(r->file->fd);

	return ret ? -errno : 0;
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

static int sync_submit(struct engine *e, struct io_req **reqs, unsigned n)
{
	unsigned i;

	(void)e;
	for (i = 0; i < n; i++)
		reqs[i]->res = reqs[i]->ddir >= DDIR_SYNC ? do_sync(reqs[i]) :
			       reqs[i]->ddir == DDIR_TRIM ? engine_trim(reqs[i]) : do_rw(reqs[i]);
	return (int)n;
}

static int psync_submit(struct engine *e, struct io_req **reqs, unsigned n)
{
	unsigned i;

	(void)e;
	for (i = 0; i < n; i++)
		reqs[i]->res = reqs[i]->ddir >= DDIR_SYNC ? do_sync(reqs[i]) :
			       reqs[i]->ddir == DDIR_TRIM ? engine_trim(reqs[i]) : do_prw(reqs[i]);
	return (int)n;
}

const struct engine_ops sync_engine = {
	.name = "sync",
	.help = "lseek + read/write, one request at a time",
	.flags = ENGINE_SYNC | ENGINE_FILE_POS | ENGINE_PLAIN_CALLS,
	.init = sync_init,
	.exit = sync_exit,
	.submit = sync_submit,
};

const struct engine_ops psync_engine = {
	.name = "psync",
	.help = "pread/pwrite, one request at a time (odirect: the same with direct=1)",
	.flags = ENGINE_SYNC | ENGINE_PLAIN_CALLS,
	.init = sync_init,
	.exit = sync_exit,
	.submit = psync_submit,
};
