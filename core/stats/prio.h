/* cmdprio: latencies per I/O priority (fio's clat_prio), kept, merged and reset by priority value. */
#ifndef IOPATH_PRIO_H
#define IOPATH_PRIO_H

#include "iopath/result.h"

/* The index of priority ioprio in direction dir, added (empty) when new. Index or -ENOMEM. */
int prio_stats_add(struct prio_stats *s, unsigned dir, uint16_t ioprio);

/* The latencies lat into priority ioprio of direction dir (added when new). 0 or -ENOMEM. */
int prio_stats_add_lat(struct prio_stats *s, unsigned dir, uint16_t ioprio,
		       const struct lat_stat *lat);

/* Fold src into *dst (allocated when NULL), entries matched by priority value. 0 or -ENOMEM. */
int prio_stats_merge(struct prio_stats **dst, const struct prio_stats *src);

/* unified_rw_reporting: every direction's priorities as one direction (index 0), or NULL. */
struct prio_stats *prio_stats_mixed(const struct prio_stats *s);

/* How many priorities of direction dir have samples (fio lists them apart from two on). */
unsigned prio_with_samples(const struct prio_stats *s, unsigned dir);

/* Empty every histogram, keeping the priorities (the end of ramp_time). */
void prio_stats_reset(struct prio_stats *s);

void prio_stats_free(struct prio_stats *s);

/* The entry of priority ioprio in direction dir, or NULL. */
static inline struct prio_lat *prio_find(const struct prio_stats *s, unsigned dir, uint16_t ioprio)
{
	unsigned i;

	for (i = 0; i < s->nr[dir]; i++)
		if (s->p[dir][i].ioprio == ioprio)
			return &s->p[dir][i];
	return NULL;
}

#endif
