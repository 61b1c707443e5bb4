/*
 * Control references: fixed work timed beside a run, so that a compare can tell a CPU that got
 * slower from a path that did. A CPU-bound unit (a chain of multiply-xorshift rounds, in
 * registers) and a memory-bound one (dependent loads along a random cycle of cache lines
 * over a buffer larger than the last-level cache), each timed by the calling thread's own
 * CPU clock, as the workers' time on a CPU is counted (the wait for a CPU is not in it).
 */
#ifndef IOPATH_REFWORK_H
#define IOPATH_REFWORK_H

#include <stddef.h>
#include <stdint.h>

/* the work of one measure: about 2 ms of each on a current CPU (2.2 ns a round, 230 ns a load
 * measured on a 2-core KVM guest of an EPYC host) */
#define REF_CPU_ROUNDS 1000000u
#define REF_MEM_LOADS 10000u

struct ref_work {
	uint64_t *lines;	/* the cycle: lines[8 k] holds the next line's index */
	size_t nr_lines;
	uint64_t sink;		/* what the work computed, kept so that it is not optimised away */
};

/* One measure: CPU nanoseconds a round and a load; the wall time of both. */
struct ref_times {
	double cpu_ns, mem_ns;
	double wall_ns;
};

/*
 * The buffer for the memory walk: twice the last-level cache (sysconf), at least 16 MiB and
 * at most 64 MiB, touched and linked once. 0 or -ENOMEM.
 */
int ref_work_init(struct ref_work *w);

/* Time both references now. */
void ref_work_measure(struct ref_work *w, struct ref_times *t);

void ref_work_free(struct ref_work *w);

#endif
