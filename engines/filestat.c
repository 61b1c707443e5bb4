/* filestat: the measured operation is stat(2), lstat(2) or statx(2) of each file, as fio's. */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "iopath/engine.h"

enum { FS_STAT, FS_LSTAT, FS_STATX };

struct fs_opts {
	int stat_type;
};

static const struct engine_option fs_options[] = {
	{ "stat_type", EOPT_CHOICE, offsetof(struct fs_opts, stat_type), 0, 0, FS_STAT,
	  "the call timed: stat, lstat, or statx (of the file's real path, as fio resolves it)",
	  "stat|lstat|statx" },
	{ NULL, 0, 0, 0, 0, 0, NULL, NULL },
};

static int fs_init(struct engine *e, const struct engine_params *p)
{
	static const char *const names[] = { "stat", "lstat", "statx" };
	int type = ((const struct fs_opts *)p->opts)->stat_type;

	e->priv = (void *)(long)type;
	engine_applied(e, "stat_type", "%s", names[type]);
	return 0;
}

static void fs_exit(struct engine *e)
{
	(void)e;
}

/* statx as fio 3.33 calls it: realpath(3) first, then every field asked for (STATX_ALL). */
static int do_statx(const char *path)
{
	struct statx stx;
	char *abs = realpath(path, NULL);
	int ret;

	if (!abs)
		return -1;
	ret = statx(AT_FDCWD, abs, 0, STATX_ALL, &stx);
	free(abs);
	return ret;
}

static int fs_open(struct engine *e, struct io_file *f)
{
	struct stat st;
	int ret;

	switch ((long)e->priv) {
	case FS_LSTAT:
		ret = lstat(f->path, &st);
		break;
	case FS_STATX:
		ret = do_statx(f->path);
		break;
	default:
		ret = stat(f->path, &st);
		break;
	}
	if (ret)
		return engine_fail(e, -errno, "stat(%s): %s", f->path, strerror(errno));
	return 0;
}

const struct engine_ops filestat_engine = {
	.name = "filestat",
	.help = "times stat/lstat/statx of each file (stat_type=); its blocks count as I/O, nothing moves",
	.flags = ENGINE_SYNC | ENGINE_NO_DATA | ENGINE_FILE_OP,
	.opts_size = sizeof(struct fs_opts),
	.options = fs_options,
	.init = fs_init,
	.exit = fs_exit,
	.open_file = fs_open,
	.submit = engine_file_op_submit,
};
