/*
 * fio's --idle-prof: how idle each CPU stayed while the jobs ran. A thread per configured CPU,
 * pinned to it, times a unit of work (touching a page, byte by byte) while nothing else of the
 * run is going, then repeats the unit at SCHED_IDLE, which runs only when the CPU has nothing
 * else to do; the units it got through while the jobs ran, times the unit's calibrated time,
 * over the time they ran, is the CPU's idleness.
 */
#ifndef IOPATH_IDLEPROF_H
#define IOPATH_IDLEPROF_H

#include "base/err.h"
#include "iopath/result.h"

struct idle_prof;

/*
 * Parse --idle-prof's value (calibrate, system, percpu) into *mode (enum run_idle_mode);
 * -EINVAL with one line otherwise.
 */
int idle_prof_mode(const char *val, unsigned *mode, struct iop_err *err);

/*
 * Start profiling (mode: IDLE_SYSTEM or IDLE_PERCPU; IDLE_CALIBRATE only calibrates): the
 * threads calibrated, each on its CPU, then spinning at SCHED_IDLE until idle_prof_stop.
 * -errno with one line when a configured CPU cannot be had (offline, outside this process's
 * CPUs) or SCHED_IDLE is refused: fio's figures need every CPU.
 */
int idle_prof_start(unsigned mode, struct idle_prof **out, struct iop_err *err);

/* Stop the threads and fill out (its cpu array allocated; run_idle_free frees it); frees p. */
void idle_prof_stop(struct idle_prof *p, struct run_idle *out);

void run_idle_free(struct run_idle *r);

#endif
