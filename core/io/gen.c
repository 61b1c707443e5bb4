/* Offsets and block sizes: sequential; random as fio draws them, with its random map or not. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

#include "base/arith.h"
#include "base/msg.h"
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

void frand32_seed(struct frand32 *r, uint32_t seed)
{
	/* fio's start value, as its source writes it: (2^31) + (2^17) + (2^7), C's XOR: 53 */
	uint32_t x = 53u * 69069u ^ seed;
	int i;

	r->s[0] = x < 1 ? x + 1 : x;
	x = r->s[0] * 69069u ^ seed;
	r->s[1] = x < 7 ? x + 7 : x;
	x = r->s[1] * 69069u ^ seed;
	r->s[2] = x < 15 ? x + 15 : x;
	for (i = 0; i < 6; i++)
		taus88(r->s);
}

void frand_seed(struct frand *r, uint64_t seed, bool use64)
{
	/* fio's __init_rand64: an LCG from the seed, each part above its minimum, six steps */
	static const uint64_t min[5] = { 1, 7, 15, 33, 49 };
	uint64_t x = 53;
	struct frand32 r32;
	int i;

	memset(r, 0, sizeof(*r));
	r->use64 = use64;
	if (!use64) {
		frand32_seed(&r32, (uint32_t)seed);
		memcpy(r->s32, r32.s, sizeof(r->s32));
		return;
	}
	for (i = 0; i < 5; i++) {
		x = x * 6906969069ull ^ seed;
		r->s64[i] = x < min[i] ? x + min[i] : x;
		x = r->s64[i];
	}
	for (i = 0; i < 6; i++)
		taus258(r->s64);
}

uint64_t fio_stream_seed(uint64_t randseed, unsigned tn, unsigned idx)
{
	uint64_t seed = randseed;
	unsigned i;

	/* fio's setup_random_seeds: four rounds, then each stream's seed and one more round */
	for (i = 0; i < 4 + idx; i++)
		seed *= 0x9e370001ull;
	return seed * tn + idx;
}

/*
 * Maximal-length feedback masks (Galois form) for 2 to 64 bits: the taps of Xilinx XAPP052's
 * table, bit t-1 for tap t, so that the period is 2^bits - 1.
 */
static const uint64_t lfsr_masks[65] = {
	[2] = 0x3, [3] = 0x6, [4] = 0xc, [5] = 0x14, [6] = 0x30, [7] = 0x60, [8] = 0xb8,
	[9] = 0x110, [10] = 0x240, [11] = 0x500, [12] = 0x829, [13] = 0x100d, [14] = 0x2015,
	[15] = 0x6000, [16] = 0xd008, [17] = 0x12000, [18] = 0x20400, [19] = 0x40023,
	[20] = 0x90000, [21] = 0x140000, [22] = 0x300000, [23] = 0x420000, [24] = 0xe10000,
	[25] = 0x1200000, [26] = 0x2000023, [27] = 0x4000013, [28] = 0x9000000,
	[29] = 0x14000000, [30] = 0x20000029, [31] = 0x48000000, [32] = 0x80200003ull,
	[33] = 0x100080000ull, [34] = 0x204000003ull, [35] = 0x500000000ull,
	[36] = 0x801000000ull, [37] = 0x100000001full, [38] = 0x2000000031ull,
	[39] = 0x4400000000ull, [40] = 0xa000140000ull, [41] = 0x12000000000ull,
	[42] = 0x300000c0000ull, [43] = 0x63000000000ull, [44] = 0xc0000030000ull,
	[45] = 0x1b0000000000ull, [46] = 0x300003000000ull, [47] = 0x420000000000ull,
	[48] = 0xc00000180000ull, [49] = 0x1008000000000ull, [50] = 0x3000000c00000ull,
	[51] = 0x6000c00000000ull, [52] = 0x9000000000000ull, [53] = 0x18003000000000ull,
	[54] = 0x30000000030000ull, [55] = 0x40000040000000ull, [56] = 0xc0000600000000ull,
	[57] = 0x102000000000000ull, [58] = 0x200004000000000ull,
	[59] = 0x600003000000000ull, [60] = 0xc00000000000000ull,
	[61] = 0x1800300000000000ull, [62] = 0x3000000000000030ull,
	[63] = 0x6000000000000000ull, [64] = 0xd800000000000000ull,
};

static inline uint64_t lfsr_step(uint64_t s, uint64_t mask)
{
	return (s >> 1) ^ (-(s & 1) & mask);
}

void offrand_init(struct offrand *o, unsigned kind, uint64_t nblocks, uint64_t seed)
{
	unsigned i, bits = 2;
	uint64_t x = seed, period;

	memset(o, 0, sizeof(*o));
	o->kind = kind;
	/* the generators' seeding rule: each component above its minimum (1, 7, 15 for the
	 * 32-bit one; 1, 511, 4095, 131071, 8388607 for the 64-bit one), then a few steps */
	for (i = 0; i < 3; i++) {
		static const uint32_t min[3] = { 2, 8, 16 };

		o->t32[i] = (uint32_t)splitmix(&x);
		if (o->t32[i] < min[i])
			o->t32[i] += min[i];
	}
	for (i = 0; i < 5; i++) {
		static const uint64_t min[5] = { 2, 512, 4096, 131072, 8388608 };

		o->t64[i] = splitmix(&x);
		if (o->t64[i] < min[i])
			o->t64[i] += min[i];
	}
	for (i = 0; i < 6; i++) {
		taus88(o->t32);
		taus258(o->t64);
	}
	while (bits < 64 && (1ull << bits) - 1 < nblocks)
		bits++;
	period = bits == 64 ? UINT64_MAX : (1ull << bits) - 1;
	o->lfsr_mask = lfsr_masks[bits];
	o->lfsr_first = 1 + splitmix(&x) % period;
	o->lfsr = o->lfsr_first;
	/*
	 * Several steps per block, as fio spins its LFSR, so that one block is not half the last:
	 * a count prime to the period still visits every state once per period.
	 */
	for (o->lfsr_spin = bits | 1; iop_gcd(o->lfsr_spin, period) != 1; o->lfsr_spin += 2)
		;
}

/*
 * fio's LFSR (lib/lfsr.c) steps its register as an XNOR one: shifted right with the top bit
 * set, the taps flipped when the bit shifted out was 0; all ones is the state it never
 * reaches. Its taps are those of lfsr_masks but for 32 bits (fio: 32, 31, 29, 1).
 */
static inline uint64_t fio_lfsr_step(uint64_t v, uint64_t top, uint64_t mask)
{
	return ((v >> 1) | top) ^ ((v & 1) ? 0 : mask);
}

bool offrand_lfsr_fio(struct offrand *o, uint64_t nblocks, uint64_t seed)
{
	unsigned bits = 3;
	uint64_t all;

	while (bits < 63 && (1ull << bits) <= nblocks)
		bits++;
	all = (1ull << bits) - 1;
	if ((seed & all) == all || (1ull << bits) <= nblocks)
		return false;
	o->kind = RAND_GEN_LFSR;
	o->lfsr_fio = true;
	o->lfsr_top = 1ull << (bits - 1);
	o->lfsr_mask = bits == 32 ? 0xd0000001ull : lfsr_masks[bits];
	o->lfsr_first = o->lfsr = seed & all;
	o->lfsr_left = nblocks;
	o->lfsr_twice = true;
	return true;
}

/* fio's lfsr_reset: the pass starts from the seed again (its next value one step on). */
static inline void fio_lfsr_restart(struct offrand *o, uint64_t nblocks)
{
	o->lfsr = o->lfsr_first;
	o->lfsr_left = nblocks;
	o->lfsr_twice = false;
}

/* fio's lfsr_next: the register stepped until its value is a block (below nblocks). */
static inline __attribute__((always_inline)) uint64_t fio_lfsr_next(struct offrand *o,
								    uint64_t nblocks)
{
	unsigned steps;

	if (!o->lfsr_left)
		fio_lfsr_restart(o, nblocks);
	o->lfsr_left--;
	do {
		for (steps = o->lfsr_twice ? 2 : 1; steps; steps--)
			o->lfsr = fio_lfsr_step(o->lfsr, o->lfsr_top, o->lfsr_mask);
		o->lfsr_twice = false;
	} while (o->lfsr >= nblocks);
	return o->lfsr;
}

/* --debug=random: each value a Tausworthe generator gives for an offset, as fio prints it */
static void __attribute__((noinline, cold)) trace_draw(uint64_t r)
{
	iop_debugf(DBG_RANDOM, "off rand %llu", (unsigned long long)r);
}

/*
 * The next block: the generator's value r scaled to [0, nblocks) as fio's
 * nblocks * (r / (max + 1)), in integers (the same block for every r below 2^53). trace is a
 * constant: the untraced copy is the one the I/O loop runs unless --debug=random.
 */
static inline __attribute__((always_inline)) uint64_t draw_block(struct offrand *o,
								 uint64_t nblocks,
								 const bool trace)
{
	uint64_t v, i, r;

	if (__builtin_expect(o->kind == RAND_GEN_TAUSWORTHE, 1)) {
		r = taus88(o->t32);
		if (trace)
			trace_draw(r);
		return (uint64_t)(((unsigned __int128)r * nblocks) >> 32);
	}
	if (nblocks <= 1)
		return 0;
	switch (o->kind) {
	case RAND_GEN_LFSR:
		if (o->lfsr_fio)
			return fio_lfsr_next(o, nblocks);
		/* states 1..2^bits-1 once per period; state - 1 is the block, past the end skipped */
		do {
			v = o->lfsr - 1;
			for (i = 0; i < o->lfsr_spin; i++)
				o->lfsr = lfsr_step(o->lfsr, o->lfsr_mask);
		} while (v >= nblocks);
		return v;
	default:
		r = taus258(o->t64);
		if (trace)
			trace_draw(r);
		return (uint64_t)(((unsigned __int128)r * nblocks) >> 64);
	}
}

static inline uint64_t next_block(struct offrand *o, uint64_t nblocks)
{
	return draw_block(o, nblocks, false);
}

uint64_t offrand_block(struct offrand *o, uint64_t nblocks)
{
	return next_block(o, nblocks);
}

#define MAP_NONE UINT64_MAX

static void map_reset(struct blockmap *m, uint64_t n)
{
	unsigned l;

	for (l = 0; l < m->nlvl; l++) {
		uint64_t words = (m->bits[l] + 63) / 64;

		memset(m->lvl[l], 0, words * 8);
		/* the last word's bits past the end count as done, never found free */
		if (m->bits[l] % 64)
			m->lvl[l][words - 1] = ~0ull << (m->bits[l] % 64);
	}
	m->left = n;
}

static int map_init(struct blockmap *m, uint64_t n)
{
	uint64_t bits = n;

	memset(m, 0, sizeof(*m));
	do {
		if (m->nlvl == BLOCKMAP_LEVELS)
			return -ENOMEM;
		m->bits[m->nlvl] = bits;
		m->lvl[m->nlvl] = malloc((bits + 63) / 64 * 8);
		if (!m->lvl[m->nlvl])
			return -ENOMEM;
		m->nlvl++;
		bits = (bits + 63) / 64;
	} while (m->bits[m->nlvl - 1] > 64);
	map_reset(m, n);
	return 0;
}

static void map_free(struct blockmap *m)
{
	unsigned l;

	for (l = 0; l < m->nlvl; l++)
		free(m->lvl[l]);
	memset(m, 0, sizeof(*m));
}

static inline bool map_done(const struct blockmap *m, uint64_t b)
{
	return m->lvl[0][b / 64] >> (b % 64) & 1;
}

static inline void map_set(struct blockmap *m, uint64_t b)
{
	unsigned l;

	for (l = 0; l < m->nlvl; l++) {
		m->lvl[l][b / 64] |= 1ull << (b % 64);
		if (~m->lvl[l][b / 64])
			break;
		b /= 64;	/* that word is full: its bit one level up */
	}
	m->left--;
}

/* The first index at or after from whose bit is clear at level l; MAP_NONE if none. */
static uint64_t map_next_clear(const struct blockmap *m, unsigned l, uint64_t from)
{
	while (from < m->bits[l]) {
		uint64_t w = from / 64, word = ~m->lvl[l][w] & (~0ull << (from % 64));

		if (word)
			return w * 64 + (uint64_t)__builtin_ctzll(word);
		if (l + 1 == m->nlvl) {
			from = (w + 1) * 64;
			continue;
		}
		w = map_next_clear(m, l + 1, w + 1);
		if (w == MAP_NONE)
			return MAP_NONE;
		from = w * 64;
	}
	return MAP_NONE;
}

/* fio's axmap_next_free: the first block not done after b, from the start if none. */
static uint64_t map_next_free(const struct blockmap *m, uint64_t b)
{
	uint64_t v = map_next_clear(m, 0, b + 1);

	return v != MAP_NONE ? v : map_next_clear(m, 0, 0);
}

int gen_init(struct file_gen *g, uint64_t region, uint64_t unit, bool randommap,
	     unsigned rand_gen, uint64_t seed)
{
	memset(g, 0, sizeof(*g));
	g->region = region;
	g->unit = unit ? unit : 1;
	g->nblocks = region / g->unit;
	g->seed = seed;
	g->real = region;
	offrand_init(&g->rand, rand_gen, g->nblocks, seed);
	/* an LFSR does every block once by itself, with or without a map (as in fio) */
	g->randommap = randommap || rand_gen == RAND_GEN_LFSR;
	if (g->randommap && rand_gen != RAND_GEN_LFSR && g->nblocks > 1)
		return map_init(&g->map, g->nblocks);
	return 0;
}

void gen_free(struct file_gen *g)
{
	map_free(&g->map);
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

void __attribute__((noinline, cold)) gen_pass_invalidate(const struct file_gen *g)
{
	/* as fio's file_invalidate_cache (as file_invalidate calls it): a refusal does not stop it */
	if (g->inval->fd >= 0)
		(void)posix_fadvise(g->inval->fd, (off_t)g->inval->start, (off_t)g->inval->len,
				    POSIX_FADV_DONTNEED);
}

void gen_new_pass(struct file_gen *g)
{
	gen_rewind(g);
	/* fio's fio_file_reset: its LFSR starts from the seed again */
	if (g->rand.lfsr_fio)
		fio_lfsr_restart(&g->rand, g->nblocks);
	if (g->inval)
		gen_pass_invalidate(g);
}

void gen_new_loop(struct file_gen *g)
{
	gen_new_pass(g);
	if (g->map.nlvl)
		map_reset(&g->map, g->nblocks);
}

#define GEN_REDRAWS 8

/* The random map is full: the next pass begins, every block free again (invalidate=1 drops
 * the file's cache, as fio's reset of a done file). Out of line: once a pass. */
static void __attribute__((noinline)) map_new_pass(struct file_gen *g)
{
	map_reset(&g->map, g->nblocks);
	g->passes++;
	if (g->inval)
		gen_pass_invalidate(g);
}

/* --debug=random: a drawn block this pass has done already, as fio says it */
static void __attribute__((noinline, cold)) trace_busy(uint64_t blk)
{
	iop_debugf(DBG_RANDOM, "get_next_rand_offset: offset %llu busy", (unsigned long long)blk);
}

/*
 * The next random block; with the random map, one not done in this pass, marked done.
 * redraws: how often a done block is drawn again before the next free one is taken; trace:
 * fio's --debug=random lines.
 */
static inline __attribute__((always_inline)) uint64_t rand_block(struct file_gen *g,
								 unsigned redraws, const bool trace)
{
	uint64_t blk;
	unsigned i;

	blk = draw_block(&g->rand, g->nblocks, trace);
	if (g->map.nlvl) {
		/* fio: a drawn block done already in this pass gives the next one not done */
		if (__builtin_expect(!g->map.left, 0))
			map_new_pass(g);
		/*
		 * A block done already in this pass: draw again a few times, then take the next
		 * one not done (fio's axmap_next_free). Going to the next free block at once
		 * clusters a pass's last blocks into ascending runs (a runs test over 40 seeds
		 * failed 17 times); the redraws leave them as random as fio's.
		 */
		if (__builtin_expect(map_done(&g->map, blk), 0)) {
			for (i = 0; i < redraws && map_done(&g->map, blk); i++) {
				if (trace)
					trace_busy(blk);
				blk = draw_block(&g->rand, g->nblocks, trace);
			}
			if (trace && map_done(&g->map, blk))
				trace_busy(blk);
			if (map_done(&g->map, blk))
				blk = map_next_free(&g->map, blk);
		}
		map_set(&g->map, blk);
	}
	return blk;
}

static inline uint64_t rand_fit(const struct file_gen *g, uint64_t blk, uint32_t len)
{
	uint64_t off = blk * g->unit;

	if (off + len > g->region)
		off = (g->region - len) / g->unit * g->unit;
	return off;
}

void gen_mark(struct file_gen *g, uint64_t off, uint32_t len)
{
	uint64_t b, end = (off + len + g->unit - 1) / g->unit;

	for (b = off / g->unit; g->map.nlvl && b < end && b < g->nblocks; b++)
		if (!map_done(&g->map, b))
			map_set(&g->map, b);
}

uint64_t gen_rand(struct file_gen *g, uint32_t len)
{
	return rand_fit(g, rand_block(g, GEN_REDRAWS, false), len);
}

uint64_t gen_rand_traced(struct file_gen *g, uint32_t len)
{
	return rand_fit(g, rand_block(g, GEN_REDRAWS, true), len);
}

/*
 * fio's mark_random_map: the blocks after the first that the request covers are marked done
 * up to the first one done already (axmap_set_nr), and the request ends there. The number of
 * blocks marked, the first included.
 */
static uint64_t __attribute__((noinline)) map_set_run(struct file_gen *g, uint64_t blk,
						      uint64_t nr)
{
	uint64_t n = 1;

	while (n < nr && blk + n < g->nblocks && !map_done(&g->map, blk + n)) {
		map_set(&g->map, blk + n);
		n++;
	}
	return n;
}

uint64_t gen_rand_cut(struct file_gen *g, uint32_t *len, bool sizes, bool trace)
{
	/*
	 * Requests of several sizes take the next free block at once, as fio does: redraws
	 * scatter the pass's free blocks into short runs, which cut the larger requests further
	 * (bssplit=4k/50:64k/50 over 1 GiB: 12.8 KiB a request with redraws, fio 3.33 20.8)
	 */
	unsigned redraws = sizes ? 0 : GEN_REDRAWS;
	uint64_t blk = trace ? rand_block(g, redraws, true) : rand_block(g, redraws, false);

	return gen_rand_rest(g, blk, len);
}

uint64_t gen_rand_first(struct file_gen *g, bool trace)
{
	return trace ? rand_block(g, 0, true) : rand_block(g, 0, false);
}

uint64_t gen_rand_rest(struct file_gen *g, uint64_t blk, uint32_t *len)
{
	uint64_t nr;

	if (g->map.nlvl && *len > g->unit) {
		nr = map_set_run(g, blk, (*len + g->unit - 1) / g->unit);
		if (nr * g->unit < *len)
			*len = (uint32_t)(nr * g->unit);
	}
	return rand_fit(g, blk, *len);
}

uint64_t gen_rand_units(struct file_gen *g, uint32_t *len, uint32_t umin, bool time_based,
			bool trace)
{
	uint64_t nb = g->region / umin, blk = MAP_NONE, nr;
	unsigned round;

	for (round = 0; round < 2 && nb && g->map.nlvl; round++) {
		if (round) {
			if (!time_based)
				break;
			map_new_pass(g);	/* fio_file_reset and loop_cache_invalidate */
		}
		blk = trace ? draw_block(&g->rand, nb, true) : draw_block(&g->rand, nb, false);
		if (map_done(&g->map, blk)) {
			if (trace)
				trace_busy(blk);
			blk = map_next_free(&g->map, blk);
		}
		if (blk != MAP_NONE && blk * umin + *len <= g->region)
			break;
		blk = MAP_NONE;
	}
	if (blk == MAP_NONE)
		return GEN_END;
	map_set(&g->map, blk);
	nr = map_set_run(g, blk, (*len + umin - 1) / umin);
	if (nr * umin < *len)
		*len = (uint32_t)(nr * umin);
	return blk * umin;
}

void bs_gen_init(struct bs_gen *g, const struct job_spec *job, unsigned dir)
{
	unsigned i;

	memset(g, 0, sizeof(*g));
	g->min = job->bs[dir];
	g->max = job->bs_max[dir];
	g->unaligned = job->bs_unaligned;
	g->nr = job->nr_bssplit[dir];
	for (i = 0; i < g->nr; i++) {
		g->bs[i] = job->bssplit[dir][i].bs;
		g->perc[i] = job->bssplit[dir][i].perc;
	}
}
