/* filedelete: the measured operation is unlink(2) of each file, as fio's. */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "iopath/engine.h"

static int fd_init(struct engine *e, const struct engine_params *p)
{
	(void)p;
	e->priv = NULL;
	return 0;
}

static void fd_exit(struct engine *e)
{
	(void)e;
}

static int fd_open(struct engine *e, struct io_file *f)
{
	if (unlink(f->path))
		return engine_fail(e, -errno, "delete(%s): %s", f->path, strerror(errno));
	return 0;
}

const struct engine_ops filedelete_engine = {
	.name = "filedelete",
	.help = "times unlinking each file (laid out first); its blocks count as I/O, nothing moves",
	.flags = ENGINE_SYNC | ENGINE_NO_DATA | ENGINE_FILE_OP | ENGINE_REMOVES,
	.init = fd_init,
	.exit = fd_exit,
	.open_file = fd_open,
	.submit = engine_file_op_submit,
};
