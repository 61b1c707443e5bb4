/* CPU sets as fio's cpus_allowed and cpumask write them, and as /proc writes them. */
#ifndef IOPATH_CPULIST_H
#define IOPATH_CPULIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "iopath/cpuset.h"

/*
 * Parse "0-3,5" (numbers and A-B ranges, commas) into set (IOP_CPUS_MAX bits). 0 or -EINVAL
 * (bad syntax; *bad points at the token), -ERANGE (a CPU past IOP_CPUS_MAX).
 */
int iop_cpus_parse(const char *s, uint64_t *set, const char **bad);

/* The set as a list ("0-3,5"); "" when empty. */
void iop_cpus_format(const uint64_t *set, char *buf, size_t len);

static inline bool cpu_in(const uint64_t *set, unsigned cpu)
{
	return cpu < IOP_CPUS_MAX && (set[cpu / 64] >> (cpu % 64)) & 1;
}

static inline void cpu_add(uint64_t *set, unsigned cpu)
{
	set[cpu / 64] |= 1ull << (cpu % 64);
}

/* fio's cpus_allowed_policy=split: keep only the (index mod weight)-th CPU of set. */
void iop_cpus_split(uint64_t *set, unsigned index);

/* This machine's online CPUs. */
void iop_cpus_online(uint64_t *online);

/* The first CPU of set that this machine does not have online, or -1 (online: filled). */
int iop_cpus_first_absent(const uint64_t *set, uint64_t *online);

#endif
