/* sprandom: fio's SanDisk pseudo-random preconditioning, the write offsets it issues. */
#ifndef IOPATH_SPRANDOM_H
#define IOPATH_SPRANDOM_H

#include <stdint.h>

#include "io/gen.h"

/*
 * Writes that leave a drive in the steady state of random writes (Desnoyers' model, as fio's
 * sprandom builds it): the physical size (the logical one plus spr_op) is cut into regions
 * written one after the other. Each region takes new offsets (an LFSR over the file's blocks,
 * every block once) and first writes again the offsets the region before it kept; of its own
 * offsets it keeps, for the next region, the share the model says will be invalid in it
 * (most in the first region, at the garbage collector's validity, none in the last).
 */
struct sprandom {
	unsigned nregions, region;	/* regions, and the one being written */
	unsigned phase;			/* ring half the current region's kept offsets go to */
	uint32_t *invalid;		/* per region: share of its offsets kept, of SPR_PRECISION */
	uint64_t region_writes;		/* writes a region takes */
	uint64_t left;			/* new offsets the current region still takes */
	uint64_t kept[2];		/* offsets kept, per phase */
	uint64_t nblocks, drawn;	/* blocks, and new offsets drawn so far */
	/* the ring of kept offsets: [tail, commit) to rewrite, [commit, stage) kept for later */
	uint64_t *ring, cap, tail, commit, stage;
	struct offrand lfsr;
	struct rng rng;
};

#define SPR_PRECISION 10000

/*
 * Set up s for a file of logical bytes in blocks of bs (a power of two), with nregions
 * regions and over-provisioning op (0 < op < 5/3: the write amplification above 1).
 * *physical: the bytes the job writes. 0, -EINVAL or -ENOMEM.
 */
int sprandom_init(struct sprandom *s, uint64_t logical, uint64_t bs, unsigned nregions, double op,
		  uint64_t seed, uint64_t *physical);
void sprandom_free(struct sprandom *s);

/* The next block to write: 0, or 1 when the regions or the file's blocks are used up. */
int sprandom_next(struct sprandom *s, uint64_t *blk);

#endif
