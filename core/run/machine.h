/* What else used the machine during a run: /proc/stat, getrusage and /proc/loadavg at both ends. */
#ifndef IOPATH_MACHINE_H
#define IOPATH_MACHINE_H

#include <stdbool.h>
#include <stdint.h>

#include "iopath/result.h"

/* /proc/stat's aggregate "cpu" line: user nice system idle iowait irq softirq steal. */
#define MACHINE_STATES 8

struct machine_snap {
	bool ok;
	uint64_t ns;			/* CLOCK_MONOTONIC */
	uint64_t ticks[MACHINE_STATES];	/* USER_HZ */
	double own_s;			/* this process's user + system */
	double load1;
	unsigned cpus;
};

/* Read it now; s->ok false when /proc/stat could not be read. */
void machine_snap(struct machine_snap *s);

/* From a to b: out->valid false unless both were read. */
void machine_span(const struct machine_snap *a, const struct machine_snap *b,
		  struct run_machine *out);

/*
 * The calling thread's scheduler figures (/proc/thread-self/schedstat): v[0] the time it ran
 * on a CPU, v[1] the time it waited on a run queue for one (runnable, not running), in
 * nanoseconds since it started, and v[2] the times it was put on a CPU (each wakeup or
 * preemption's end; the waits of v[1] are theirs). False where the kernel keeps no
 * schedstat.
 */
bool machine_thread_sched(uint64_t v[3]);

/* The parsing, apart for the tests: /proc/stat's text into s->ticks; false if no cpu line. */
bool machine_parse_stat(const char *text, struct machine_snap *s);
/* A file in /proc/stat's form (path: "/proc/stat" but for the tests), read whole and parsed. */
bool machine_stat_file(const char *path, struct machine_snap *s);

#endif
