/* cmdprio: latencies per I/O priority (fio's clat_prio), kept, merged and reset by priority value. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "stats/prio.h"
#include "stats/stats.h"

int prio_stats_add(struct prio_stats *s, unsigned dir, uint16_t ioprio)
{
	struct prio_lat *p;
	unsigned i;

	for (i = 0; i < s->nr[dir]; i++)
		if (s->p[dir][i].ioprio == ioprio)
			return (int)i;
	p = realloc(s->p[dir], (s->nr[dir] + 1) * sizeof(*p));
	if (!p)
		return -ENOMEM;
	s->p[dir] = p;
	p[s->nr[dir]].ioprio = ioprio;
	lat_init(&p[s->nr[dir]].lat);
	return (int)s->nr[dir]++;
}

/* Every entry of src's direction sd into dst's direction dd, matched by priority value. */
static int merge_dir(struct prio_stats *dst, unsigned dd, const struct prio_stats *src,
		     unsigned sd)
{
	unsigned i;
	int k;

	for (i = 0; i < src->nr[sd]; i++) {
		k = prio_stats_add(dst, dd, src->p[sd][i].ioprio);
		if (k < 0)
			return k;
		lat_merge(&dst->p[dd][k].lat, &src->p[sd][i].lat);
	}
	return 0;
}

int prio_stats_add_lat(struct prio_stats *s, unsigned dir, uint16_t ioprio,
		       const struct lat_stat *lat)
{
	int k = prio_stats_add(s, dir, ioprio);

	if (k < 0)
		return k;
	lat_merge(&s->p[dir][k].lat, lat);
	return 0;
}

int prio_stats_merge(struct prio_stats **dst, const struct prio_stats *src)
{
	unsigned d;
	int ret;

	if (!*dst && !(*dst = calloc(1, sizeof(**dst))))
		return -ENOMEM;
	for (d = 0; d < PRIO_DIRS; d++) {
		ret = merge_dir(*dst, d, src, d);
		if (ret)
			return ret;
	}
	return 0;
}

struct prio_stats *prio_stats_mixed(const struct prio_stats *s)
{
	struct prio_stats *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	unsigned d;

	for (d = 0; d < PRIO_DIRS; d++) {
		if (merge_dir(m, 0, s, d)) {
			prio_stats_free(m);
			return NULL;
		}
	}
	return m;
}

unsigned prio_with_samples(const struct prio_stats *s, unsigned dir)
{
	unsigned i, n = 0;

	for (i = 0; s && i < s->nr[dir]; i++)
		n += s->p[dir][i].lat.n != 0;
	return n;
}

void prio_stats_reset(struct prio_stats *s)
{
	unsigned d, i;

	for (d = 0; d < PRIO_DIRS; d++)
		for (i = 0; i < s->nr[d]; i++)
			lat_init(&s->p[d][i].lat);
}

void prio_stats_free(struct prio_stats *s)
{
	unsigned d;

	if (!s)
		return;
	for (d = 0; d < PRIO_DIRS; d++)
		free(s->p[d]);
	free(s);
}
