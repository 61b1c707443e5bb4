/* Unit tests: sprandom's regions and offsets (fio's SanDisk pseudo-random preconditioning). */
#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "io/sprandom.h"

/* The first region keeps the garbage collector's invalid share, the last none (op 0.15: WA
 * 0.5/0.15 + 0.7, validity 1 - 1/WA = 0.752). */
Test(sprandom, regions_keep_the_models_invalid_shares)
{
	struct sprandom s;
	uint64_t phys;
	unsigned i;

	cr_assert_eq(sprandom_init(&s, 100 << 20, 4096, 100, 0.15, 1, &phys), 0);
	cr_assert_eq(phys, ((100ull << 20) + (uint64_t)ceil((100 << 20) * 0.15) + 4095) & ~4095ull);
	cr_assert_eq(s.invalid[0], (uint32_t)lround(SPR_PRECISION / (0.5 / 0.15 + 0.7)));
	cr_assert_eq(s.invalid[99], 0);
	for (i = 1; i < 100; i++)
		cr_assert_leq(s.invalid[i], s.invalid[i - 1], "region %u keeps more than %u", i, i - 1);
	sprandom_free(&s);
}

/* A run writes (nearly) every block once and writes again about the share it kept. */
Test(sprandom, writes_every_block_and_some_again)
{
	const uint64_t nb = 25600;	/* 100 MiB of 4 KiB blocks */
	unsigned *count = calloc(nb, sizeof(*count));
	uint64_t phys, blk, writes = 0, distinct = 0, i;
	struct sprandom s;

	cr_assert_not_null(count);
	cr_assert_eq(sprandom_init(&s, nb * 4096, 4096, 100, 0.15, 7, &phys), 0);
	while (!sprandom_next(&s, &blk)) {
		cr_assert_lt(blk, nb);
		count[blk]++;
		writes++;
		cr_assert_leq(writes, phys / 4096 + 100, "more writes than the physical size");
	}
	for (i = 0; i < nb; i++)
		distinct += count[i] > 0;
	cr_assert_geq(distinct, nb * 99 / 100, "%llu of %llu blocks written",
		      (unsigned long long)distinct, (unsigned long long)nb);
	/* rewritten: the kept shares, an eighth or so of the writes (fio's model at op 0.15) */
	cr_assert(writes - distinct > nb / 20 && writes - distinct < nb / 4, "%llu rewrites",
		  (unsigned long long)(writes - distinct));
	sprandom_free(&s);
	free(count);
}

Test(sprandom, refuses_what_fio_refuses)
{
	struct sprandom s;
	uint64_t phys;

	cr_assert_eq(sprandom_init(&s, 1 << 20, 3000, 100, 0.15, 1, &phys), -EINVAL);
	cr_assert_eq(sprandom_init(&s, 1 << 20, 4096, 0, 0.15, 1, &phys), -EINVAL);
	cr_assert_eq(sprandom_init(&s, 1 << 20, 4096, 100, 0.0, 1, &phys), -EINVAL);
}
