/* The built-in workloads: the workloads directory's .fio files compiled into the binary. */
#ifndef IOPATH_WORKLOADS_H
#define IOPATH_WORKLOADS_H

#include "base/err.h"

struct job_list;

struct builtin_workload {
	const char *name;
	const char *description;
	const char *text;
};

/* Terminated by an entry whose name is NULL. */
extern const struct builtin_workload builtin_workloads[];

const struct builtin_workload *workload_find(const char *name);

/* An option given on top of a workload, as key=value (val NULL for a bare flag). */
struct workload_override {
	const char *key;
	const char *val;
};

/* How to turn a built-in workload into jobs. */
struct workload_setup {
	const char *directory;		/* where its files go (directory=), NULL to keep */
	double scale;			/* 0 < scale <= 1: see workload_scale(); 1 = as written */
	const struct workload_override *overrides;
	unsigned nr_overrides;
};

/* The default factor of a bare --scale: quick runs of a few seconds at most per workload. */
#define WORKLOAD_QUICK_SCALE (1.0 / 64)

/*
 * Parse a built-in workload into jobs (an empty list; finished and ready to run): its
 * text, then directory=, then the scale, then the overrides, so an override such as size=
 * always wins. A block size larger than the job's size shrinks to it.
 */
int workload_load(const struct builtin_workload *w, const struct workload_setup *ws,
		  struct job_list *jobs, struct iop_err *err);

/*
 * Shrink one job by factor f: size, io_size, runtime and ramp_time (not below 100 ms), the
 * metadata workload's nrfiles (not below 8), and block sizes above 1 MiB (so dd keeps its
 * count of 10 blocks). Sizes stay multiples of 4 KiB and at least one block.
 */
struct job_spec;
int workload_scale(struct job_spec *job, double f, struct iop_err *err);

/* Parse a scale: "0.01", "1/100" or "1%"; 0 < value <= 1. */
int workload_parse_scale(const char *s, double *out);

#endif
