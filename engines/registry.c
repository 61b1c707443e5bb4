/* The one table of engines: the runner finds an engine by name here and nowhere else. */
#include <string.h>

#include "iopath/engine.h"

extern const struct engine_ops sync_engine;
extern const struct engine_ops psync_engine;
extern const struct engine_ops libaio_engine;
extern const struct engine_ops io_uring_engine;
extern const struct engine_ops mmap_engine;
extern const struct engine_ops null_engine;
extern const struct engine_ops falloc_engine;
extern const struct engine_ops ftruncate_engine;
extern const struct engine_ops filecreate_engine;
extern const struct engine_ops filestat_engine;
extern const struct engine_ops filedelete_engine;

/*
 * To add an engine: write engines/NAME.c exporting one const struct engine_ops, declare it
 * above and add a line here. An alias names an existing engine with forced settings.
 */
const struct engine_entry engine_table[] = {
	{ "sync", &sync_engine, false },
	{ "psync", &psync_engine, false },
	{ "odirect", &psync_engine, true },
	{ "libaio", &libaio_engine, false },
	{ "io_uring", &io_uring_engine, false },
	{ "mmap", &mmap_engine, false },
	{ "null", &null_engine, false },
	{ "falloc", &falloc_engine, false },
	{ "ftruncate", &ftruncate_engine, false },
	{ "filecreate", &filecreate_engine, false },
	{ "filestat", &filestat_engine, false },
	{ "filedelete", &filedelete_engine, false },
	{ NULL, NULL, false },
};

const struct engine_entry *engine_find(const char *name)
{
	const struct engine_entry *e;

	for (e = engine_table; e->name; e++)
		if (!strcmp(e->name, name))
			return e;
	return NULL;
}
