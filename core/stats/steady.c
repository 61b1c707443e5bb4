/* fio's steady state: the window of per-second samples and the two criteria. */
#include <stdlib.h>

#include "stats/steady.h"

int ss_alloc(struct ss_data *ss, unsigned dur)
{
	ss->dur = dur;
	ss->bw = calloc(dur, sizeof(*ss->bw));
	ss->iops = calloc(dur, sizeof(*ss->iops));
	if (!ss->bw || !ss->iops) {
		ss_free(ss);
		return -1;
	}
	ss->sum_x = (uint64_t)dur * (dur - 1) / 2;
	ss->sum_x_sq = (uint64_t)(dur - 1) * dur * (2 * (uint64_t)dur - 1) / 6;
	return 0;
}

void ss_free(struct ss_data *ss)
{
	free(ss->bw);
	free(ss->iops);
	ss->bw = ss->iops = NULL;
}

static uint64_t ss_y(const struct ss_data *ss, unsigned state, unsigned i)
{
	return state & SS_IOPS ? ss->iops[i] : ss->bw[i];
}

/* The window is full, or has just become so: update the sums and judge. */
static bool ss_judge(struct ss_data *ss, unsigned state, double limit, uint64_t new_val)
{
	double mean, d;
	unsigned i;

	if (!ss->full) {
		/* fio sums y in slot order and x*y from the head */
		ss->sum_y = ss->sum_xy = 0;
		for (i = 0; i < ss->dur; i++) {
			ss->sum_y += ss_y(ss, state, i);
			if (state & SS_SLOPE)
				ss->sum_xy += (uint64_t)i * ss_y(ss, state, (ss->head + i) % ss->dur);
		}
		ss->full = true;
	} else {
		ss->sum_y = ss->sum_y - ss->oldest_y + new_val;
		if (state & SS_SLOPE)
			ss->sum_xy = ss->sum_xy - ss->sum_y + (uint64_t)ss->dur * new_val;
	}
	ss->oldest_y = ss_y(ss, state, ss->head);
	mean = (double)ss->sum_y / ss->dur;
	if (state & SS_SLOPE) {
		ss->slope = ((double)ss->sum_xy - (double)ss->sum_x * ss->sum_y / ss->dur) /
			    ((double)ss->sum_x_sq - (double)ss->sum_x * ss->sum_x / ss->dur);
		ss->criterion = state & SS_PCT ? 100.0 * ss->slope / mean : ss->slope;
		return (ss->criterion < 0 ? -ss->criterion : ss->criterion) < limit;
	}
	ss->deviation = 0;
	for (i = 0; i < ss->dur; i++) {
		d = (double)ss_y(ss, state, i) - mean;
		d = d < 0 ? -d : d;
		if (d > ss->deviation)
			ss->deviation = d;
	}
	ss->criterion = state & SS_PCT ? 100.0 * ss->deviation / mean : ss->deviation;
	return ss->criterion < limit;
}

bool ss_add(struct ss_data *ss, unsigned state, double limit, uint64_t iops, uint64_t bw)
{
	uint64_t new_val = state & SS_IOPS ? iops : bw;

	ss->bw[ss->tail] = bw;
	ss->iops[ss->tail] = iops;
	if ((ss->full || ss->tail - ss->head == ss->dur - 1) &&
	    ss_judge(ss, state, limit, new_val))
		return true;
	ss->tail = (ss->tail + 1) % ss->dur;
	if (ss->tail <= ss->head)
		ss->head = (ss->head + 1) % ss->dur;
	return false;
}
