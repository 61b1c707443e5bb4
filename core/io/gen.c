/* Offsets and block sizes: sequential, random covering every block once, plain random. */
#include <string.h>

#include "io/gen.h"

static uint64_t splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void rng_seed(struct rng *r, uint64_t seed)
{
	unsigned i;

	for (i = 0; i < 4; i++)
		r->s[i] = splitmix(&seed);
}

void rng_fill(struct rng *r, void *buf, uint64_t len)
{
	unsigned char *p = buf;
	uint64_t v;

	while (len >= 8) {
		v = rng_next(r);
		memcpy(p, &v, 8);
		p += 8;
		len -= 8;
	}
	if (len) {
		v = rng_next(r);
		memcpy(p, &v, len);
	}
}

void perm_init(struct blockperm *p, uint64_t n, uint64_t seed)
{
	unsigned bits = 2, i;

	memset(p, 0, sizeof(*p));
	p->n = n;
	while (bits < 64 && (1ull << bits) < n)
		bits += 2;
	p->half_bits = bits / 2;
	p->half_mask = (1ull << p->half_bits) - 1;
	p->shift = 64 - p->half_bits;
	for (i = 0; i < 4; i++)
		p->keys[i] = splitmix(&seed);
}

/*
 * Round function: multiplicative (Fibonacci) hashing of the keyed half, taking the product's
 * top bits, which depend on every input bit. One multiply per round keeps the permutation at a
 * few instructions per offset; statistical quality is that of a 4-round Feistel network.
 */
static inline uint64_t round_fn(const struct blockperm *p, uint64_t x, uint64_t key)
{
	return ((x ^ key) * 0x9e3779b97f4a7c15ull) >> p->shift;
}

static uint64_t feistel(const struct blockperm *p, uint64_t v)
{
	uint64_t l = v >> p->half_bits, r = v & p->half_mask, t;

	t = r;
	r = l ^ round_fn(p, r, p->keys[0]);
	l = t;
	t = r;
	r = l ^ round_fn(p, r, p->keys[1]);
	l = t;
	t = r;
	r = l ^ round_fn(p, r, p->keys[2]);
	l = t;
	t = r;
	r = l ^ round_fn(p, r, p->keys[3]);
	l = t;
	return (l << p->half_bits) | r;
}

uint64_t perm_at(const struct blockperm *p, uint64_t i)
{
	uint64_t v = i;

	if (p->n <= 1)
		return 0;
	do
		v = feistel(p, v);
	while (v >= p->n);
	return v;
}

void gen_init(struct file_gen *g, uint64_t region, uint64_t unit, bool randommap, uint64_t seed)
{
	memset(g, 0, sizeof(*g));
	g->region = region;
	g->unit = unit ? unit : 1;
	g->nblocks = region / g->unit;
	g->randommap = randommap;
	g->seed = seed;
	g->real = region;
	if (randommap)
		perm_init(&g->perm, g->nblocks, seed);
}

uint64_t gen_seq(struct file_gen *g, unsigned dir, uint32_t len)
{
	uint64_t off = g->seq[dir];

	if (off + len > g->region)
		off = 0;
	g->seq[dir] = off + len;
	return off;
}

/*
 * Offsets here are relative to the region's start (fio's pos); fio compares some of them with
 * the file's absolute end and sets others to absolute values (the forward wrap to
 * file_offset): kept as fio does it, so that the same job moves the same blocks.
 */
uint64_t gen_seq_step(struct file_gen *g, unsigned dir, int64_t add, bool time_based)
{
	uint64_t last = g->seq[dir], end = g->real > g->region ? g->region : g->real, pos;

	if (time_based && last >= g->region)
		last = g->seq[dir] = 0;
	if (g->start + last >= g->real)
		return GEN_END;
	if (!last && g->start && add < 0)
		last = end - g->start;
	pos = last;
	if (pos && add) {
		pos += (uint64_t)add;
		if (pos >= g->real)
			pos = add > 0 ? g->start : end + (uint64_t)add;
	}
	return pos;
}

void gen_rewind(struct file_gen *g)
{
	g->start = g->origin;
	g->seq[0] = g->seq[1] = 0;
	g->last_start[0] = g->last_start[1] = 0;
}

uint64_t gen_rand(struct file_gen *g, struct rng *r, uint32_t len)
{
	uint64_t blk, off;

	if (g->randommap) {
		if (g->pos == g->nblocks) {
			g->pos = 0;
			g->passes++;
			perm_init(&g->perm, g->nblocks, g->seed + g->passes);
		}
		blk = perm_at(&g->perm, g->pos++);
	} else {
		blk = rng_below(r, g->nblocks);
	}
	off = blk * g->unit;
	if (off + len > g->region)
		off = (g->region - len) / g->unit * g->unit;
	return off;
}

void bs_gen_init(struct bs_gen *g, const struct job_spec *job, unsigned dir)
{
	uint64_t cum = 0;
	unsigned i;

	memset(g, 0, sizeof(*g));
	g->min = job->bs[dir];
	g->max = job->bs_max[dir];
	g->unaligned = job->bs_unaligned;
	g->nr = job->nr_bssplit[dir];
	for (i = 0; i < g->nr; i++) {
		cum += job->bssplit[dir][i].perc;
		g->bs[i] = job->bssplit[dir][i].bs;
		g->thresh[i] = (uint64_t)((double)cum / 100.0 * 0x1p53);
	}
}
