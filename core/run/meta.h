/* rw=metadata: the small-file loop (create, stat, open-read, unlink over a directory tree). */
#ifndef IOPATH_META_H
#define IOPATH_META_H

#include <stdint.h>

#include "iopath/result.h"

struct worker;

/* The worker thread of a metadata job (run.c starts it in place of worker_main). */
void *meta_main(void *arg);

/* Directories a tree of nrfiles needs, and how deep it goes. */
uint64_t meta_nr_dirs(uint64_t nrfiles, unsigned files_per_dir);
unsigned meta_depth(uint64_t nr_dirs, unsigned fanout);

#endif
