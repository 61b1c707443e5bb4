/* Offset generation: sequential, random covering every block once, and plain random. */
#ifndef IOPATH_GEN_H
#define IOPATH_GEN_H

#include <stdbool.h>
#include <stdint.h>

#include "iopath/engine.h"
#include "iopath/job.h"

/* xoshiro256**: small, fast, good enough for offsets and buffer contents. */
struct rng {
	uint64_t s[4];
};

void rng_seed(struct rng *r, uint64_t seed);

static inline uint64_t rng_rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static inline uint64_t rng_next(struct rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rng_rotl(s[1] * 5, 7) * 9, t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rng_rotl(s[3], 45);
	return result;
}

/* Uniform in [0, n) (multiply-shift; bias below 2^-64 * n, irrelevant here). */
static inline uint64_t rng_below(struct rng *r, uint64_t n)
{
	return (uint64_t)(((unsigned __int128)rng_next(r) * n) >> 64);
}

void rng_fill(struct rng *r, void *buf, uint64_t len);

/*
 * fio's own 32-bit stream (its lib/rand: L'Ecuyer's taus88, seeded by fio's rule), for the
 * draws that must come out as fio's do: a mixed job's directions (rwmixread).
 */
struct frand32 {
	uint32_t s[3];
};

/* L'Ecuyer's combined Tausworthe step: ((s & c) << d) ^ (((s << a) ^ s) >> b). */
#define TAUS(s, a, b, c, d) ((((s) & (c)) << (d)) ^ ((((s) << (a)) ^ (s)) >> (b)))

static inline uint32_t taus88(uint32_t *t)
{
	t[0] = TAUS(t[0], 13, 19, 0xfffffffeu, 12);
	t[1] = TAUS(t[1], 2, 25, 0xfffffff8u, 4);
	t[2] = TAUS(t[2], 3, 11, 0xfffffff0u, 17);
	return t[0] ^ t[1] ^ t[2];
}

/* fio's init_rand_seed for a 32-bit state: an LCG from the seed, each part above its minimum. */
void frand32_seed(struct frand32 *r, uint32_t seed);

/* L'Ecuyer's 64-bit combined Tausworthe step (taus258), fio's with tausworthe64. */
static inline uint64_t taus258(uint64_t *t)
{
	t[0] = TAUS(t[0], 1, 53, 0xfffffffffffffffeull, 10);
	t[1] = TAUS(t[1], 24, 50, 0xfffffffffffffe00ull, 5);
	t[2] = TAUS(t[2], 3, 23, 0xfffffffffffff000ull, 29);
	t[3] = TAUS(t[3], 5, 24, 0xfffffffffffe0000ull, 23);
	t[4] = TAUS(t[4], 3, 33, 0xffffffffff800000ull, 8);
	return t[0] ^ t[1] ^ t[2] ^ t[3] ^ t[4];
}

/*
 * One of fio's streams as its frand_state: taus88, or taus258 where fio's use64 (the job's
 * random_generator=tausworthe64), seeded as fio's init_rand_seed.
 */
struct frand {
	bool use64;
	uint32_t s32[3];
	uint64_t s64[5];
};

void frand_seed(struct frand *r, uint64_t seed, bool use64);

/* fio's __rand: the next value, up to rand_max (2^32 - 1, or 2^64 - 1 with use64). */
static inline uint64_t frand_next(struct frand *r)
{
	return r->use64 ? taus258(r->s64) : taus88(r->s32);
}

/* 1..100, as fio's rand_between(state, 1, 100). */
static inline unsigned frand32_pct(struct frand32 *r)
{
	return 1 + (unsigned)(100.0 * (taus88(r->s) / 4294967296.0));
}

/*
 * fio's seed of random stream idx (its FIO_RAND_*_OFF) for the job of thread number tn
 * (from 1, clones included), from randseed (fio's default 0x89).
 */
uint64_t fio_stream_seed(uint64_t randseed, unsigned tn, unsigned idx);
#define FIO_STREAM_MIX 4	/* fio's FIO_RAND_MIX_OFF: the rwmix choices */
#define FIO_STREAM_SEQ_RAND 10	/* fio's FIO_RAND_SEQ_RAND_READ_OFF: percentage_random's draws */

/*
 * fio's generators of random offsets (random_generator=): the combined Tausworthe generators
 * of L'Ecuyer, 32-bit (taus88, fio's default) and 64-bit (taus258), drawing a block as
 * nblocks * r / (max + 1); and a maximal-length Galois LFSR over the smallest power of two
 * holding nblocks, whose period visits every block once (values past the end are skipped).
 */
struct offrand {
	unsigned kind;			/* enum rand_gen */
	uint32_t t32[3];
	uint64_t t64[5];
	uint64_t lfsr, lfsr_mask, lfsr_first, lfsr_spin;
	/* fio's own LFSR stream (offrand_lfsr_fio): its top bit, the values left in this pass,
	 * whether the next value takes two steps (the first of all does) */
	uint64_t lfsr_top, lfsr_left;
	bool lfsr_fio, lfsr_twice;
};

/*
 * fio's random map: which blocks this pass has done, one bit each, and above it a bit per
 * full word (per level, up to a single word), so that the next free block after a drawn one
 * that was done already is found in a few word reads, as fio's axmap finds it.
 */
#define BLOCKMAP_LEVELS 8
struct blockmap {
	uint64_t *lvl[BLOCKMAP_LEVELS];
	uint64_t bits[BLOCKMAP_LEVELS];
	unsigned nlvl;
	uint64_t left;			/* blocks not yet done in this pass */
};

/* Per-file offset state of one worker. Offsets are relative to the file's region. */
struct file_gen {
	uint64_t region;	/* bytes in the region */
	uint64_t unit;		/* block granularity of random offsets */
	uint64_t nblocks;
	uint64_t seq[2];	/* next sequential offset per direction */
	uint64_t passes;
	uint64_t seed;
	bool randommap;
	struct offrand rand;
	struct blockmap map;	/* randommap with a Tausworthe generator */
	/* rw=...:N (gen_seq_step): the region's start in the file and the file's end, as fio's
	 * file_offset and real_file_size, and where each direction's last I/O started */
	uint64_t start;
	uint64_t real;
	uint64_t last_start[2];
	uint64_t origin;	/* the region's own start: zonemode=strided moves start */
	/* invalidate=1: the file whose cached pages each new pass drops (NULL: none) */
	const struct io_file *inval;
};

/* The generator alone (for tests): seeded as gen_init seeds it, and its next block. */
void offrand_init(struct offrand *o, unsigned kind, uint64_t nblocks, uint64_t seed);
uint64_t offrand_block(struct offrand *o, uint64_t nblocks);

/*
 * random_generator=lfsr as fio 3.33 runs it: its register over the fewest bits (at least 3)
 * whose power of two is above nblocks, started from seed (fio's FIO_RAND_BLOCK_OFF seed),
 * nblocks values a pass and then from seed again, so that offsets are fio's. False (o as
 * it was) where fio cannot start from seed (its bits all ones: fio fails the job).
 */
bool offrand_lfsr_fio(struct offrand *o, uint64_t nblocks, uint64_t seed);

/*
 * Set up g for a region of region bytes in blocks of unit; randommap: every block once per
 * pass (rand_gen: enum rand_gen). 0, or -ENOMEM (the random map). gen_free releases it.
 */
int gen_init(struct file_gen *g, uint64_t region, uint64_t unit, bool randommap,
	     unsigned rand_gen, uint64_t seed);
void gen_free(struct file_gen *g);

/* Next offset for a request of len bytes (inline: the plain loop's every sequential I/O). */
/*
 * invalidate=1 at every pass, as fio: a pass that starts again over the file (a wrap, a full
 * random map, a new loop) drops the file's cached pages (gen_pass_invalidate), so buffered
 * reads of each pass come from the storage, not from the pages the last pass left.
 */
void gen_pass_invalidate(const struct file_gen *g);


static inline uint64_t gen_seq(struct file_gen *g, unsigned dir, uint32_t len)
{
	uint64_t off = g->seq[dir];

	if (off + len > g->region)
		off = 0;
	g->seq[dir] = off + len;
	return off;
}

/*
 * gen_seq where a pass may drop the file's cache (g->inval): the loops other than the lean
 * one, which takes no file with g->inval sequentially (loop_is_lean), since the call in the
 * wrap costs its per-I/O path registers (callgrind, null engine QD32: 492 -> 497).
 */
static inline uint64_t gen_seq_pass(struct file_gen *g, unsigned dir, uint32_t len)
{
	uint64_t off = g->seq[dir];

	if (__builtin_expect(off + len > g->region, 0)) {
		off = 0;
		if (g->inval)
			gen_pass_invalidate(g);
	}
	g->seq[dir] = off + len;
	return off;
}

/*
 * The next sequential offset for a request of at least min bytes, not yet taken: back at the
 * region's start (a new pass) where min does not fit before its end, as gen_seq_pass wraps.
 * gen_seq_take then moves past the request's len bytes.
 */
static inline uint64_t gen_seq_peek(struct file_gen *g, unsigned dir, uint32_t min)
{
	if (__builtin_expect(g->seq[dir] + min > g->region, 0)) {
		g->seq[dir] = 0;
		if (g->inval)
			gen_pass_invalidate(g);
	}
	return g->seq[dir];
}

static inline void gen_seq_take(struct file_gen *g, unsigned dir, uint32_t len)
{
	g->seq[dir] += len;
}

#define GEN_END UINT64_MAX	/* gen_seq_step: the direction has run off the file */

/*
 * The next sequential offset with fio's rw=...:N step (fio's get_next_seq_offset): add bytes
 * are skipped after each I/O (negative: backwards, wrapping to the region's end), and
 * time_based runs start again at the region's end. GEN_END when the last I/O ended at or past
 * the file's end; a result at or past the region's end also ends the pass (the caller's
 * check, as fio's get_next_offset). gen_seq_done records the I/O at the returned offset.
 */
uint64_t gen_seq_step(struct file_gen *g, unsigned dir, int64_t add, bool time_based);

/* Does an I/O of len bytes at pos (from gen_seq_step) fall inside the region and file? */
static inline bool gen_seq_fits(const struct file_gen *g, uint64_t pos, uint32_t len)
{
	return pos != GEN_END && pos + len <= g->region && g->start + pos < g->real;
}

static inline void gen_seq_done(struct file_gen *g, unsigned dir, uint64_t off, uint32_t len)
{
	g->last_start[dir] = off;
	g->seq[dir] = off + len;
}

/* Start every direction of g again at the region's start (a new loop). */
void gen_rewind(struct file_gen *g);

/* gen_rewind for a new pass over the same file: its cached pages dropped (invalidate=1). */
void gen_new_pass(struct file_gen *g);

/* gen_new_pass for a new loop of the job: the random map's blocks all free again too. */
void gen_new_loop(struct file_gen *g);

/*
 * fio's mark_random_map for a random job's I/O not drawn from the map (rw=randread:N's and
 * percentage_random's sequential ones): the blocks of len bytes at off done in this pass.
 */
void gen_mark(struct file_gen *g, uint64_t off, uint32_t len);

/* The next random offset for a request of len bytes (random map: the pass's next block). */
uint64_t gen_rand(struct file_gen *g, uint32_t len);

/*
 * A run of gen_rand's offsets with the generator's state in the caller's registers, for a
 * batch of requests of one length: where g draws from the 32-bit Tausworthe stream (fio's
 * default) with no random map, fewer than 2^32 blocks and every block's request inside the
 * region, each offset is the stream's next value scaled to a block, times the block size, as
 * gen_rand gives it, without gen_rand's call, its checks and its loads and stores of the
 * state per offset. gen_burst_ok says whether g draws so for requests of len bytes (false:
 * use gen_rand), once for a phase; gen_burst_begin takes the state, gen_burst_end hands it
 * back, so that gen_rand goes on where the burst stopped.
 */
struct gen_burst {
	uint32_t t[3];
	uint64_t nblocks, unit;
};

static inline bool gen_burst_ok(const struct file_gen *g, uint32_t len)
{
	return g->rand.kind == RAND_GEN_TAUSWORTHE && !g->map.nlvl && g->nblocks &&
	       g->nblocks <= UINT32_MAX && (g->nblocks - 1) * g->unit + len <= g->region;
}

static inline void gen_burst_begin(const struct file_gen *g, struct gen_burst *b)
{
	b->t[0] = g->rand.t32[0];
	b->t[1] = g->rand.t32[1];
	b->t[2] = g->rand.t32[2];
	b->nblocks = g->nblocks;
	b->unit = g->unit;
}

/* gen_rand's next offset: draw_block's nblocks * r >> 32 (r and nblocks below 2^32), rand_fit. */
static inline uint64_t gen_burst_next(struct gen_burst *b)
{
	return ((uint64_t)taus88(b->t) * b->nblocks >> 32) * b->unit;
}

static inline void gen_burst_end(struct file_gen *g, const struct gen_burst *b)
{
	g->rand.t32[0] = b->t[0];
	g->rand.t32[1] = b->t[1];
	g->rand.t32[2] = b->t[2];
}

/* gen_rand with fio's --debug=random lines: each value drawn, each drawn block done already. */
uint64_t gen_rand_traced(struct file_gen *g, uint32_t len);

/*
 * The same for a request of *len bytes that may span several blocks: with the random map, the
 * blocks it covers are marked done and, as fio does, it is cut short at the first block this
 * pass has done already (*len becomes a whole number of blocks), so that blocks of different
 * sizes never overlap and a pass covers every block once. sizes: the job draws requests of
 * several sizes (a done block then gives the next free one at once, fio's rule); trace: the
 * --debug=random lines.
 */
uint64_t gen_rand_cut(struct file_gen *g, uint32_t *len, bool sizes, bool trace);

/*
 * gen_rand_cut in fio's order, for a request whose size is drawn after its offset (fio's
 * get_next_offset, then get_next_buflen): gen_rand_first the block (with the random map one
 * not done in this pass, the next free one at once), then gen_rand_rest the offset of the
 * request of *len bytes there, cut short by the map as gen_rand_cut cuts it.
 */
uint64_t gen_rand_first(struct file_gen *g, bool trace);
uint64_t gen_rand_rest(struct file_gen *g, uint64_t blk, uint32_t *len);

/*
 * fio's random offsets where the directions' block sizes differ (bs=4k,64k, or bs=4k-16k on a
 * writing job; randommap): g's blocks are of the smallest size of any direction (fio's
 * rw_min_bs), but a direction of umin-byte blocks draws a block number over the region's
 * umin blocks and takes that bit of the map, as fio does; a drawn bit done already gives the
 * next free one, and an offset past the region (or a full map) ends the pass (fio's
 * get_next_offset fails, so its job moves less than its size). time_based: the map is started
 * again once first, as fio's get_next_rand_block does. GEN_END: the pass ends.
 */
uint64_t gen_rand_units(struct file_gen *g, uint32_t *len, uint32_t umin, bool time_based,
			bool trace);

/* Block sizes of one direction, decided at setup (bs / bsrange / bssplit / bs_unaligned). */
struct bs_gen {
	uint32_t min, max;
	bool unaligned;
	unsigned nr;				/* bssplit entries; 0 = uniform over [min, max] */
	uint32_t bs[BSSPLIT_MAX];
	uint32_t perc[BSSPLIT_MAX];		/* each entry's share, percent */
};

void bs_gen_init(struct bs_gen *g, const struct job_spec *job, unsigned dir);

/*
 * The next block size, drawn as fio's get_next_buflen draws it from its bsrange stream r: a
 * range gives min + max * v / (rand_max + 1); bssplit the first entry (of a share) whose
 * cumulative share covers v (v / share <= rand_max / 100) and that fits, else the last one;
 * then aligned down to a multiple of min (unless bs_unaligned) and capped at max, and drawn
 * again while it does not fit in room, the bytes from the I/O's offset to its region's end.
 * 0 when not even min fits (fio's job then has no next I/O there).
 */
static inline uint32_t bs_gen_next(const struct bs_gen *g, struct frand *r, uint64_t room)
{
	const uint64_t top = r->use64 ? UINT64_MAX : UINT32_MAX;
	uint64_t v, len, perc;
	unsigned i;

	if (g->min == g->max)
		return g->min;
	if (g->min > room)
		return 0;
	do {
		v = frand_next(r);
		len = 0;
		if (g->nr) {
			perc = 0;
			for (i = 0; i < g->nr; i++) {
				if (!g->perc[i])
					continue;
				len = g->bs[i];
				perc += g->perc[i];
				if (v / perc <= top / 100 && len <= room)
					break;
			}
		} else {
			len = g->min + (uint64_t)((double)g->max * ((double)v / ((double)top + 1.0)));
		}
		if (!g->unaligned)
			len -= len % g->min;
		if (len > g->max)
			len = g->max;
	} while (len > room);
	return (uint32_t)len;
}

#endif
