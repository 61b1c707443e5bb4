/* The built-in workloads: the workloads directory's .fio files compiled into the binary. */
#ifndef IOPATH_WORKLOADS_H
#define IOPATH_WORKLOADS_H

struct builtin_workload {
	const char *name;
	const char *description;
	const char *text;
};

/* Terminated by an entry whose name is NULL. */
extern const struct builtin_workload builtin_workloads[];

const struct builtin_workload *workload_find(const char *name);

#endif
