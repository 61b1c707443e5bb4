/* Rate limiting as fio paces I/O: a linear schedule of bytes, or a Poisson process of I/Os. */
#include <math.h>
#include <string.h>

#include "io/rate.h"

void rate_init(struct rate *r, uint64_t bps, uint32_t bs, bool poisson, uint64_t start_ns,
	       uint64_t seed)
{
	memset(r, 0, sizeof(*r));
	r->bps = bps;
	r->start_ns = start_ns;
	r->poisson = poisson && bps;
	r->next_ns = start_ns;
	if (r->poisson)
		r->mean_gap_ns = 1e9 * (double)(bs ? bs : 1) / (double)bps;
	rng_seed(&r->rng, seed);
}

void rate_issue(struct rate *r, uint32_t bytes)
{
	double u;

	r->issued += bytes;
	if (!r->poisson)
		return;
	/* an exponential gap: -ln(u) * mean, u uniform in (0, 1] */
	u = (double)((rng_next(&r->rng) >> 11) + 1) * 0x1p-53;
	r->next_ns += (uint64_t)(-log(u) * r->mean_gap_ns);
}

void rate_shift(struct rate *r, uint64_t ns)
{
	r->start_ns += ns;
	r->next_ns += ns;
}
