/* fio's steady state detection (ss=, ss_dur=, ss_ramp=): end a job once its rate is steady. */
#ifndef IOPATH_STEADY_H
#define IOPATH_STEADY_H

#include <stdbool.h>
#include <stdint.h>

#include "iopath/job.h"	/* SS_* */

/*
 * One steady-state unit: a worker, or (group_reporting) the workers of a reporting group,
 * whose data the group's last worker holds, as fio keeps it. Samples are taken once a
 * second by the runner, from the workers' progress counters.
 */
struct ss_data {
	unsigned dur;			/* samples in the window (ss_dur, seconds) */
	unsigned head, tail;
	bool full, attained, ramp_over;
	uint64_t *bw, *iops;		/* the window: bytes/s and IOPS per second */
	uint64_t sum_y, sum_xy, oldest_y;
	uint64_t sum_x, sum_x_sq;
	double slope, deviation, criterion;
	/* the worker's own counters at the previous sample */
	uint64_t prev_ns, prev_bytes, prev_ios;
};

int ss_alloc(struct ss_data *ss, unsigned dur);
void ss_free(struct ss_data *ss);

/* Add one second's sample; true when the criterion is met (fio's steadystate_slope/_deviation). */
bool ss_add(struct ss_data *ss, unsigned state, double limit, uint64_t iops, uint64_t bw);

#endif
