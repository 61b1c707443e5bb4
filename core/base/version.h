/* The build's identity: version, git revision and compiler flags, for every result. */
#ifndef IOPATH_VERSION_H
#define IOPATH_VERSION_H

extern const char iopath_version[];
extern const char iopath_git_rev[];
extern const char iopath_cflags[];

/* "iopath-VERSION", for the "fio version" key fio's readers look at. */
const char *iopath_fio_version(void);

#endif
