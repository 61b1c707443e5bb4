/* Skewed random distributions, computed as fio computes them: zipf, pareto and normal. */
#ifndef IOPATH_DIST_H
#define IOPATH_DIST_H

#include <stdbool.h>
#include <stdint.h>

#include "io/gen.h"
#include "iopath/job.h"
#include "job/job.h"	/* DIST_DEF_*, dist_arg_valid */

/*
 * One generator over [0, nranges). zipf follows Gray et al.'s approximation as in fio's
 * lib/zipf.c (theta != 1), pareto draws (nranges - 1) * u^(log h / log(1 - h)), normal sums
 * twelve uniforms plus fio's deviation term (lib/gauss.c). The value is then scrambled with
 * a multiplicative hash (unless hash is off, as fio does for choosing files) and shifted by
 * the centre offset.
 */
struct dist {
	enum rand_dist type;		/* DIST_ZIPF, DIST_PARETO or DIST_NORMAL */
	uint64_t nranges;
	double theta, zeta2, zetan, alpha, eta;	/* zipf */
	double pareto_pow;
	uint64_t stddev;		/* normal: width of the deviation term */
	int64_t rand_off;
	bool hash;
	struct rng rng;
};

/*
 * arg: zipf theta, pareto h, normal deviation in percent. center: 0..1, or < 0 for fio's
 * default (random for zipf/pareto, the middle for normal). Returns 0 or -EINVAL.
 */
int dist_init(struct dist *d, enum rand_dist type, uint64_t nranges, double arg, double center,
	      bool hash, uint64_t seed);
uint64_t dist_next(struct dist *d);

#endif
