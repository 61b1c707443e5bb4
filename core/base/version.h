/* The build's identity: version, git revision and compiler flags, for every result. */
#ifndef IOPATH_VERSION_H
#define IOPATH_VERSION_H

extern const char iopath_version[];
extern const char iopath_git_rev[];
extern const char iopath_cflags[];

/* The fio release whose behaviour iopath follows, in fio's own form ("fio-3.33"). */
#define IOPATH_FIO_FOLLOWS "fio-3.33"

/*
 * "iopath-VERSION (fio-3.33)", for the "fio version" key and the terse version field that
 * fio's readers look at: tools checking for fio 3 find "fio-3", and the value still says
 * iopath wrote it (iopath's own readers tell its results by their "iopath" section).
 */
const char *iopath_fio_version(void);

#endif
