/* The probes of the paths a run touches: described once, checked against jobs, embedded in results. */
#ifndef IOPATH_PATHPROBE_H
#define IOPATH_PATHPROBE_H

#include <jansson.h>
#include <limits.h>
#include <stdbool.h>

#include "iopath/probe.h"

struct iop_err;

struct probed_dir {
	char dir[PATH_MAX];		/* the directory as the jobs name it */
	unsigned flags;			/* PROBE_* flags it has been probed with */
	int error;			/* -errno when the probe itself failed */
	struct probe_path p;
};

/*
 * A run's probes, keyed by directory. The first time a directory is needed it is probed
 * with the flags asked; a later need for more (trials, timing) probes it again. Commands
 * that run several times on the same targets (suite) keep one set across runs.
 */
struct probe_set {
	bool have_host;
	struct probe_host host;
	unsigned nr, cap;
	struct probed_dir **dirs;
};

/* The probe of dir with at least flags; NULL only when out of memory. */
const struct probed_dir *probe_set_need(struct probe_set *s, const char *dir, unsigned flags);

/* The directory holding path (path itself when it is a directory), into out (PATH_MAX). */
void probe_dir_of(const char *path, char *out);

void probe_set_free(struct probe_set *s);

/* { "host": {...}, "targets": [ {probe + "dir"}, ... ] }, or NULL when out of memory. */
json_t *probe_set_json(struct probe_set *s);

#endif
