/* sprandom: the offsets of fio's SanDisk pseudo-random preconditioning, region by region. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "io/sprandom.h"

/* y at x on the polyline through (xs[i], ys[i]) (xs increasing), held flat past its ends. */
static double interp(double x, const double *xs, const double *ys, unsigned n)
{
	unsigned i;

	if (x <= xs[0])
		return ys[0];
	if (x >= xs[n - 1])
		return ys[n - 1];
	for (i = 0; i + 1 < n && x > xs[i + 1]; i++)
		;
	if (xs[i + 1] - xs[i] < 1e-9)
		return ys[i];
	return ys[i] + (ys[i + 1] - ys[i]) * (x - xs[i]) / (xs[i + 1] - xs[i]);
}

/*
 * The validity of each of n equal regions, first to last. Validities spaced evenly from 1 down
 * to the garbage collector's (1 - 1/WA, WA = 0.5/op + 0.7) each occupy a share of the drive
 * inversely proportional to them (validity times share is constant in the steady state); the
 * curve of validity over the accumulated share is sampled at n evenly spaced points and read
 * from the low end, as fio orders its regions.
 */
static int validities(double *out, unsigned n, double op)
{
	double gc = 1.0 - 1.0 / (0.5 / op + 0.7), *v, *acc, sum = 0, x;
	unsigned i;

	v = calloc(n, sizeof(*v));
	acc = calloc(n, sizeof(*acc));
	if (!v || !acc) {
		free(v);
		free(acc);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		v[i] = n == 1 ? 1.0 : 1.0 + (gc - 1.0) * (double)i / (double)(n - 1);
		sum += 1.0 / v[i];
		acc[i] = sum;
	}
	for (i = 0; i < n; i++) {
		x = n == 1 ? acc[0] : acc[0] + (acc[n - 1] - acc[0]) * (double)i / (double)(n - 1);
		out[n - 1 - i] = interp(x, acc, v, n);
	}
	free(v);
	free(acc);
	return 0;
}

int sprandom_init(struct sprandom *s, uint64_t logical, uint64_t bs, unsigned nregions, double op,
		  uint64_t seed, uint64_t *physical)
{
	double *val, v0;
	uint64_t phys, region;
	unsigned i;
	int ret;

	memset(s, 0, sizeof(*s));
	if (!nregions || !(op > 0.0) || 0.5 / op + 0.7 <= 1.0 || !bs || (bs & (bs - 1)) ||
	    logical < bs)
		return -EINVAL;
	val = calloc(nregions, sizeof(*val));
	s->invalid = calloc(nregions, sizeof(*s->invalid));
	if (!val || !s->invalid) {
		ret = -ENOMEM;
		goto fail;
	}
	ret = validities(val, nregions, op);
	if (ret)
		goto fail;
	for (i = 0; i < nregions; i++)
		s->invalid[i] = (uint32_t)lround((1.0 - val[i]) * SPR_PRECISION);
	phys = logical + (uint64_t)ceil((double)logical * op);
	phys = (phys + bs - 1) & ~(bs - 1);
	region = phys / nregions;
	s->nregions = nregions;
	s->region_writes = region / bs;
	s->left = s->region_writes;
	s->nblocks = logical / bs;
	/* room for the most a region keeps (the first's share) and six standard deviations */
	v0 = val[0];
	s->cap = (uint64_t)ceil((double)s->region_writes * (1.0 - v0) +
				6.0 * sqrt((double)s->region_writes * v0 * (1.0 - v0))) + 2;
	s->ring = malloc(s->cap * sizeof(*s->ring));
	if (!s->ring) {
		ret = -ENOMEM;
		goto fail;
	}
	offrand_init(&s->lfsr, RAND_GEN_LFSR, s->nblocks, seed);
	rng_seed(&s->rng, seed ^ 0x5a5a5a5aull);
	free(val);
	*physical = phys;
	return 0;
fail:
	free(val);
	sprandom_free(s);
	return ret;
}

void sprandom_free(struct sprandom *s)
{
	free(s->invalid);
	free(s->ring);
	memset(s, 0, sizeof(*s));
}

/* Keep off for rewriting in the next region, with the current region's invalid share. */
static void keep_maybe(struct sprandom *s, uint64_t off, unsigned phase)
{
	uint64_t next = (s->stage + 1) % s->cap;

	if (s->region >= s->nregions || rng_below(&s->rng, SPR_PRECISION + 1) > s->invalid[s->region])
		return;
	if (next == s->tail)
		return;		/* the ring is full (past six standard deviations): not kept */
	s->ring[s->stage] = off;
	s->stage = next;
	s->kept[phase]++;
}

int sprandom_next(struct sprandom *s, uint64_t *blk)
{
	unsigned phase = s->phase;
	uint64_t off;

	/* first the offsets the region before kept: written again, maybe kept once more */
	if (s->tail != s->commit) {
		off = s->ring[s->tail];
		s->tail = (s->tail + 1) % s->cap;
		keep_maybe(s, off, phase ^ 1);
		*blk = off;
		return 0;
	}
	if (!s->left) {
		if (s->region >= s->nregions)
			return 1;
		s->kept[phase] = 0;
		s->region++;
		phase ^= 1;
		s->phase = phase;
		s->left = s->region_writes > s->kept[phase] ? s->region_writes - s->kept[phase] : 0;
		s->commit = s->stage;
	}
	if (s->drawn == s->nblocks)
		return 1;
	off = offrand_block(&s->lfsr, s->nblocks);
	s->drawn++;
	if (s->left)
		s->left--;
	keep_maybe(s, off, phase ^ 1);
	*blk = off;
	return 0;
}
