/* filecreate: the measured operation is creating each file, open(O_CREAT|O_RDWR), as fio's. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "iopath/engine.h"

static int fc_init(struct engine *e, const struct engine_params *p)
{
	(void)p;
	e->priv = NULL;
	return 0;
}

static void fc_exit(struct engine *e)
{
	(void)e;
}

/* fio's mode and flags: a file that exists is opened as it is, never truncated. */
static int fc_open(struct engine *e, struct io_file *f)
{
	f->fd = open(f->path, O_CREAT | O_RDWR | O_CLOEXEC, 0600);
	if (f->fd < 0)
		return engine_fail(e, -errno, "open(%s): %s", f->path, strerror(errno));
	return 0;
}

static void fc_close(struct engine *e, struct io_file *f)
{
	(void)e;
	if (f->fd >= 0)
		close(f->fd);
	f->fd = -1;
}

const struct engine_ops filecreate_engine = {
	.name = "filecreate",
	.help = "times creating each file (open O_CREAT|O_RDWR); its blocks count as I/O, nothing moves",
	.flags = ENGINE_SYNC | ENGINE_NO_DATA | ENGINE_FILE_OP | ENGINE_NO_LAYOUT,
	.init = fc_init,
	.exit = fc_exit,
	.open_file = fc_open,
	.close_file = fc_close,
	.submit = engine_file_op_submit,
};
