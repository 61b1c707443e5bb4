/* Time stamps for the workers: CLOCK_MONOTONIC, or the CPU's TSC calibrated against it. */
#ifndef IOPATH_CLOCK_H
#define IOPATH_CLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define IOPATH_HAVE_TSC 1
#else
#define IOPATH_HAVE_TSC 0
#endif

static inline uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/*
 * A TSC calibrated against CLOCK_MONOTONIC: ns = ns0 + (tsc - tsc0) * mult / 2^32. Its
 * readings are CLOCK_MONOTONIC nanoseconds (same origin), so they mix with mono_ns().
 */
struct tsc_clock {
	uint64_t tsc0;
	uint64_t ns0;
	uint64_t mult;		/* nanoseconds per tick, 32.32 fixed point */
};

static inline uint64_t tsc_ticks(void)
{
#if IOPATH_HAVE_TSC
	return __rdtsc();
#else
	return 0;
#endif
}

static inline uint64_t tsc_to_ns(const struct tsc_clock *c, uint64_t ticks)
{
	return c->ns0 + (uint64_t)(((unsigned __int128)(ticks - c->tsc0) * c->mult) >> 32);
}

/*
 * Whether the TSC can stand in for CLOCK_MONOTONIC: the CPU says it is invariant (constant
 * rate in every P/C-state) and the kernel itself keeps time with it (so it found it
 * synchronised across CPUs). false with the reason in why otherwise.
 */
bool tsc_usable(char *why, size_t len);

/*
 * One (TSC, CLOCK_MONOTONIC) pair read as close together as the machine allows: the TSC read
 * between the two clock reads of the narrowest of several tries, ns their midpoint. -EAGAIN
 * when no try was narrower than a few microseconds.
 */
int tsc_pair(uint64_t *ticks, uint64_t *ns);

/*
 * Calibrate over about window_ns of CLOCK_MONOTONIC. Each end is the TSC read between two
 * clock reads that lie close together, so a preemption cannot skew it. 0 or -errno.
 */
int tsc_calibrate(struct tsc_clock *c, uint64_t window_ns);

/* Ticks per microsecond (the TSC rate in MHz) of a calibrated clock. */
double tsc_mhz(const struct tsc_clock *c);

#endif
