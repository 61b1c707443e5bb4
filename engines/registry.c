/* The one table of engines: the runner finds an engine by name here and nowhere else. */
#include <string.h>

#include "iopath/engine.h"

#include "engine_decls.h"	/* every engine file's ops table, declared (generated) */

/*
 * To add an engine: write engines/NAME.c exporting one "const struct engine_ops NAME_engine = {"
 * (the build declares it) and add a line here. What the probe, the planner and a sweep need
 * to know of it they ask its flags (include/iopath/engine.h), never its name. An alias names
 * an existing engine with forced settings.
 */
const struct engine_entry engine_table[] = {
	{ "sync", &sync_engine, false },
	{ "psync", &psync_engine, false },
	{ "pvsync", &pvsync_engine, false },
	{ "pvsync2", &pvsync2_engine, false },
	{ "posixaio", &posixaio_engine, false },
	{ "odirect", &psync_engine, true },
	{ "libaio", &libaio_engine, false },
	{ "io_uring", &io_uring_engine, false },
	{ "io_uring_cmd", &io_uring_cmd_engine, false },
	{ "mmap", &mmap_engine, false },
	{ "null", &null_engine, false },
	{ "falloc", &falloc_engine, false },
	{ "ftruncate", &ftruncate_engine, false },
	{ "filecreate", &filecreate_engine, false },
	{ "filestat", &filestat_engine, false },
	{ "filedelete", &filedelete_engine, false },
	{ "dircreate", &dircreate_engine, false },
	{ "dirstat", &dirstat_engine, false },
	{ "dirdelete", &dirdelete_engine, false },
	{ NULL, NULL, false },
};

const char engine_default[] = "psync";

const struct engine_entry *engine_find(const char *name)
{
	const struct engine_entry *e;

	for (e = engine_table; e->name; e++)
		if (!strcmp(e->name, name))
			return e;
	return NULL;
}
