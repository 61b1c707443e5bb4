/* Rate limiting as fio paces I/O: a linear schedule of bytes, or a Poisson process of I/Os. */
#ifndef IOPATH_RATE_H
#define IOPATH_RATE_H

#include <stdbool.h>
#include <stdint.h>

#include "io/gen.h"

/*
 * One direction's schedule. Linear (fio's default): the I/O after `issued` bytes is due at
 * start + issued / bps. Poisson: each I/O moves the due time on by an exponential gap of
 * mean bs / bps (fio: lambda = 10^6 / IOPS). Times are CLOCK_MONOTONIC nanoseconds.
 */
struct rate {
	uint64_t bps;			/* 0: not limited */
	uint64_t start_ns;
	uint64_t issued;		/* bytes issued so far */
	bool poisson;
	double mean_gap_ns;		/* poisson: 1e9 / IOPS */
	uint64_t next_ns;		/* poisson: when the next I/O is due */
	struct rng rng;
};

void rate_init(struct rate *r, uint64_t bps, uint32_t bs, bool poisson, uint64_t start_ns,
	       uint64_t seed);

/* When the next I/O of this direction may be issued. */
static inline uint64_t rate_due(const struct rate *r)
{
	if (r->poisson)
		return r->next_ns;
	return r->start_ns + (uint64_t)((unsigned __int128)r->issued * 1000000000u / r->bps);
}

/* An I/O of bytes was issued. */
void rate_issue(struct rate *r, uint32_t bytes);

/* Shift the schedule by ns (rate_ignore_thinktime: the think time does not count). */
void rate_shift(struct rate *r, uint64_t ns);

#endif
