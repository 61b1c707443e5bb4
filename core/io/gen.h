/* Offset generation: sequential, random covering every block once, and plain random. */
#ifndef IOPATH_GEN_H
#define IOPATH_GEN_H

#include <stdbool.h>
#include <stdint.h>

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
 * A keyed bijection on [0, n): a balanced Feistel network over the smallest even bit width
 * that holds n, with cycle walking. Walking i = 0..n-1 visits every block exactly once in
 * a random order, with no memory per block.
 */
struct blockperm {
	uint64_t n;
	unsigned half_bits;
	unsigned shift;		/* 64 - half_bits: a round keeps the product's top bits */
	uint64_t half_mask;
	uint64_t keys[4];
};

void perm_init(struct blockperm *p, uint64_t n, uint64_t seed);
uint64_t perm_at(const struct blockperm *p, uint64_t i);

/* Per-file offset state of one worker. Offsets are relative to the file's region. */
struct file_gen {
	uint64_t region;	/* bytes in the region */
	uint64_t unit;		/* block granularity of random offsets */
	uint64_t nblocks;
	uint64_t seq[2];	/* next sequential offset per direction */
	uint64_t pos;		/* position in the current random pass */
	uint64_t passes;
	uint64_t seed;
	bool randommap;
	struct blockperm perm;
	/* rw=...:N (gen_seq_step): the region's start in the file and the file's end, as fio's
	 * file_offset and real_file_size, and where each direction's last I/O started */
	uint64_t start;
	uint64_t real;
	uint64_t last_start[2];
	uint64_t origin;	/* the region's own start: zonemode=strided moves start */
};

void gen_init(struct file_gen *g, uint64_t region, uint64_t unit, bool randommap, uint64_t seed);

/* Next offset for a request of len bytes. */
uint64_t gen_seq(struct file_gen *g, unsigned dir, uint32_t len);

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
uint64_t gen_rand(struct file_gen *g, struct rng *r, uint32_t len);

/* Block sizes of one direction, decided at setup (bs / bsrange / bssplit / bs_unaligned). */
struct bs_gen {
	uint32_t min, max;
	bool unaligned;
	unsigned nr;				/* bssplit entries; 0 = uniform over [min, max] */
	uint32_t bs[BSSPLIT_MAX];
	uint64_t thresh[BSSPLIT_MAX];		/* cumulative share, scaled to 2^53 */
};

void bs_gen_init(struct bs_gen *g, const struct job_spec *job, unsigned dir);

/*
 * The next block size, drawn as fio draws it (io_u.c get_next_buflen): bssplit takes the
 * first entry whose cumulative share covers the draw (the last one when the shares leave a
 * gap); bsrange takes min + max * u. Either is then aligned down to a multiple of min
 * (unless bs_unaligned) and capped at max.
 */
static inline uint32_t bs_gen_next(const struct bs_gen *g, struct rng *r)
{
	uint64_t v, len;
	unsigned i;

	if (g->min == g->max)
		return g->min;
	v = rng_next(r) >> 11;
	if (g->nr) {
		len = g->bs[g->nr - 1];
		for (i = 0; i < g->nr; i++) {
			if (v < g->thresh[i]) {
				len = g->bs[i];
				break;
			}
		}
	} else {
		len = g->min + (uint64_t)((double)g->max * ((double)v * 0x1p-53));
	}
	if (!g->unaligned)
		len -= len % g->min;
	return (uint32_t)(len > g->max ? g->max : len);
}

#endif
