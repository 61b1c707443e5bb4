/* fio's options, engine options and engines that iopath recognises but does not implement. */
#ifndef IOPATH_FIO_UNSUPPORTED_H
#define IOPATH_FIO_UNSUPPORTED_H

#include <stdbool.h>

enum fio_unsup_kind {
	FIO_JOB_OPTION,		/* a job option of fio's */
	FIO_ENGINE_OPTION,	/* an option of a fio engine (what = the engines) */
	FIO_ENGINE,		/* a fio ioengine iopath lacks */
	FIO_PROFILE_OPTION,	/* fio parses it, for a profile, and it changes no job */
	FIO_DEPRECATED,		/* deprecated in fio: def "soft" accepted with fio's warning, else refused */
};

struct fio_unsupported {
	const char *name;
	enum fio_unsup_kind kind;
	const char *def;	/* fio's default: giving exactly that changes nothing */
	const char *what;	/* fio's one-line help, or the engines owning an engine option */
};

/* The entry for name of that kind, or NULL. */
const struct fio_unsupported *fio_unsupported_find(const char *name, enum fio_unsup_kind kind);

/* Every entry, NULL-name terminated (for --cmdhelp and the coverage test). */
extern const struct fio_unsupported fio_unsupported_table[];

#endif
