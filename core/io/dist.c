/* Skewed random distributions, computed as fio computes them: zipf, pareto and normal. */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "io/dist.h"
#include "job/job.h"

#define ZIPF_MAX_GEN 10000000ull	/* fio caps the zeta sum there: precision barely moves */
#define GAUSS_ITERS 12
#define GOLDEN_RATIO_64 0x61c8864680b583ebull

/* Uniform in [0, 1). */
static double uniform(struct rng *r)
{
	return (double)(rng_next(r) >> 11) * 0x1p-53;
}

int dist_init(struct dist *d, enum rand_dist type, uint64_t nranges, double arg, double center,
	      bool hash, uint64_t seed)
{
	uint64_t i, to_gen;

	memset(d, 0, sizeof(*d));
	if (!nranges || !dist_arg_valid(type, arg))
		return -EINVAL;
	d->type = type;
	d->nranges = nranges;
	d->hash = hash;
	rng_seed(&d->rng, seed);
	switch (type) {
	case DIST_ZIPF:
		d->theta = arg;
		d->zeta2 = 1.0 + pow(0.5, arg);
		to_gen = nranges < ZIPF_MAX_GEN ? nranges : ZIPF_MAX_GEN;
		for (i = 0; i < to_gen; i++)
			d->zetan += pow(1.0 / (double)(i + 1), arg);
		d->alpha = 1.0 / (1.0 - arg);
		d->eta = (1.0 - pow(2.0 / (double)nranges, 1.0 - arg)) /
			 (1.0 - d->zeta2 / d->zetan);
		break;
	case DIST_PARETO:
		d->pareto_pow = log(arg) / log(1.0 - arg);
		break;
	case DIST_NORMAL:
		if (arg != 0.0) {
			d->stddev = (uint64_t)ceil((double)nranges * arg / 100.0);
			if (d->stddev > nranges / 2)
				d->stddev = nranges / 2;
		}
		if (center >= 0)
			d->rand_off = (int64_t)((double)nranges * (center - 0.5));
		return 0;
	default:
		return -EINVAL;
	}
	/* zipf and pareto: the hot spot lands at a random place unless a centre is given */
	if (center >= 0)
		d->rand_off = (int64_t)((double)nranges * center);
	else
		d->rand_off = (int64_t)(rng_next(&d->rng) % nranges);
	return 0;
}

static uint64_t zipf_rank(struct dist *d)
{
	double u = uniform(&d->rng), z = u * d->zetan;

	if (z < 1.0)
		return 0;
	if (z < d->zeta2)
		return 1;
	return (uint64_t)((double)d->nranges * pow(d->eta * u - d->eta + 1.0, d->alpha));
}

static uint64_t normal_rank(struct dist *d)
{
	uint64_t sum = 0;
	int64_t dev;
	unsigned i;

	for (i = 0; i < GAUSS_ITERS; i++)
		sum += rng_next(&d->rng) % (d->nranges + 1);
	sum = (sum + GAUSS_ITERS - 1) / GAUSS_ITERS;
	if (d->stddev) {
		dev = (int64_t)((double)d->stddev * uniform(&d->rng)) - (int64_t)(d->stddev / 2);
		while ((int64_t)sum + dev < 0 || (uint64_t)((int64_t)sum + dev) >= d->nranges)
			dev /= 2;
		sum = (uint64_t)((int64_t)sum + dev);
	}
	return sum;
}

uint64_t dist_next(struct dist *d)
{
	uint64_t v, n = d->nranges;
	int64_t off;

	switch (d->type) {
	case DIST_ZIPF:
		v = zipf_rank(d);
		break;
	case DIST_PARETO:
		v = (uint64_t)((double)(n - 1) * pow(uniform(&d->rng), d->pareto_pow));
		break;
	default:
		v = normal_rank(d);
		break;
	}
	if (d->hash)
		v *= GOLDEN_RATIO_64;
	v %= n;
	off = d->rand_off % (int64_t)n;
	if (off < 0)
		off += (int64_t)n;
	return (v + (uint64_t)off) % n;
}
