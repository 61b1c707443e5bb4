/* dircreate, dirstat, dirdelete: the measured operation is mkdir(2), stat(2) or rmdir(2) of each "file", as fio's. */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "iopath/engine.h"

enum { DIR_CREATE, DIR_STAT, DIR_DELETE };

/* The measured call of each, by the enum. */
static const char *const dir_call[] = { "mkdir", "stat", "rmdir" };

static int refuse_existing(struct engine *e, const char *path)
{
	return engine_fail(e, -EEXIST,
			   "%s exists: dirdelete removes only the directories it made (remove it first)",
			   path);
}

static int dir_init_as(struct engine *e, const struct engine_params *p, long op)
{
	struct stat st;
	unsigned i;

	e->priv = (void *)op;
	if (op == DIR_CREATE)
		return 0;
	/*
	 * fio's set-up for dirstat and dirdelete: the directories are made before the measured
	 * pass. dirdelete removes only what it made: a directory already there is refused,
	 * before any is made.
	 */
	for (i = 0; op == DIR_DELETE && i < p->nr_files; i++)
		if (!lstat(p->files[i].path, &st))
			return refuse_existing(e, p->files[i].path);
	for (i = 0; i < p->nr_files; i++) {
		const char *path = p->files[i].path;

		if (!mkdir(path, 0700) || (errno == EEXIST && op == DIR_STAT))
			continue;
		if (errno == EEXIST)
			return refuse_existing(e, path);
		return engine_fail(e, -errno, "mkdir(%s): %s", path, strerror(errno));
	}
	return 0;
}

static int dc_init(struct engine *e, const struct engine_params *p)
{
	return dir_init_as(e, p, DIR_CREATE);
}

static int ds_init(struct engine *e, const struct engine_params *p)
{
	return dir_init_as(e, p, DIR_STAT);
}

static int dd_init(struct engine *e, const struct engine_params *p)
{
	return dir_init_as(e, p, DIR_DELETE);
}

static void dir_exit(struct engine *e)
{
	(void)e;
}

static int dir_open(struct engine *e, struct io_file *f)
{
	struct stat st;
	int ret;

	f->fd = -1;
	switch ((long)e->priv) {
	case DIR_CREATE:
		ret = mkdir(f->path, 0700);
		break;
	case DIR_STAT:
		ret = stat(f->path, &st);
		break;
	default:
		ret = rmdir(f->path);
		break;
	}
	if (ret)
		return engine_fail(e, -errno, "%s(%s): %s", dir_call[(long)e->priv], f->path,
				   strerror(errno));
	return 0;
}

const struct engine_ops dircreate_engine = {
	.name = "dircreate",
	.help = "times creating each file's name as a directory (mkdir); its blocks count as I/O, nothing moves",
	.flags = ENGINE_SYNC | ENGINE_NO_DATA | ENGINE_FILE_OP | ENGINE_NO_LAYOUT | ENGINE_DIRS,
	.init = dc_init,
	.exit = dir_exit,
	.open_file = dir_open,
	.submit = engine_file_op_submit,
};

const struct engine_ops dirstat_engine = {
	.name = "dirstat",
	.help = "times stat(2) of each file's name as a directory (made before the pass); nothing moves",
	.flags = ENGINE_SYNC | ENGINE_NO_DATA | ENGINE_FILE_OP | ENGINE_NO_LAYOUT | ENGINE_DIRS,
	.init = ds_init,
	.exit = dir_exit,
	.open_file = dir_open,
	.submit = engine_file_op_submit,
};

const struct engine_ops dirdelete_engine = {
	.name = "dirdelete",
	.help = "times rmdir(2) of each file's name as a directory (made before the pass); nothing moves",
	.flags = ENGINE_SYNC | ENGINE_NO_DATA | ENGINE_FILE_OP | ENGINE_NO_LAYOUT | ENGINE_DIRS |
		 ENGINE_REMOVES,
	.init = dd_init,
	.exit = dir_exit,
	.open_file = dir_open,
	.submit = engine_file_op_submit,
};
