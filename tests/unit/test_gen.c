/* Unit tests: offset generators (random map coverage, repeatability, sequential wrap). */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "gen.h"

static void check_covers_once(uint64_t n, uint64_t seed)
{
	struct blockperm p;
	unsigned char *seen = calloc(n, 1);
	uint64_t i, v;

	cr_assert_not_null(seen);
	perm_init(&p, n, seed);
	for (i = 0; i < n; i++) {
		v = perm_at(&p, i);
		cr_assert_lt(v, n, "n=%llu: %llu out of range", (unsigned long long)n,
			     (unsigned long long)v);
		cr_assert_eq(seen[v], 0, "n=%llu: block %llu visited twice", (unsigned long long)n,
			     (unsigned long long)v);
		seen[v] = 1;
	}
	free(seen);
}

Test(randommap, covers_every_block_exactly_once)
{
	const uint64_t sizes[] = { 1, 2, 3, 7, 64, 1000, 4097, 65536, 100003 };
	unsigned i;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		check_covers_once(sizes[i], 42 + i);
}

Test(randommap, is_not_the_identity)
{
	struct blockperm p;
	uint64_t i, fixed = 0;

	perm_init(&p, 10000, 1);
	for (i = 0; i < 10000; i++)
		fixed += perm_at(&p, i) == i;
	cr_assert_lt(fixed, 100);
}

Test(randommap, generator_pass_covers_region)
{
	struct file_gen g;
	struct rng r;
	unsigned char seen[256] = { 0 };
	unsigned i;

	rng_seed(&r, 3);
	gen_init(&g, 256 * 4096, 4096, true, 9);
	for (i = 0; i < 256; i++) {
		uint64_t off = gen_rand(&g, &r, 4096);

		cr_assert_eq(off % 4096, 0);
		cr_assert_eq(seen[off / 4096], 0);
		seen[off / 4096] = 1;
	}
}

Test(randrepeat, same_seed_same_sequence)
{
	struct file_gen a, b;
	struct rng ra, rb;
	unsigned i;

	rng_seed(&ra, 5);
	rng_seed(&rb, 5);
	gen_init(&a, 1 << 24, 4096, false, 1);
	gen_init(&b, 1 << 24, 4096, false, 1);
	for (i = 0; i < 1000; i++)
		cr_assert_eq(gen_rand(&a, &ra, 4096), gen_rand(&b, &rb, 4096));
	gen_init(&a, 1 << 24, 4096, true, 77);
	gen_init(&b, 1 << 24, 4096, true, 77);
	for (i = 0; i < 1000; i++)
		cr_assert_eq(gen_rand(&a, &ra, 4096), gen_rand(&b, &rb, 4096));
}

Test(randrepeat, different_seed_different_sequence)
{
	struct file_gen a, b;
	struct rng r;
	unsigned i, same = 0;

	rng_seed(&r, 5);
	gen_init(&a, 1 << 24, 4096, true, 1);
	gen_init(&b, 1 << 24, 4096, true, 2);
	for (i = 0; i < 1000; i++)
		same += gen_rand(&a, &r, 4096) == gen_rand(&b, &r, 4096);
	cr_assert_lt(same, 10);
}

Test(norandommap, offsets_stay_in_region_and_aligned)
{
	struct file_gen g;
	struct rng r;
	unsigned i;

	rng_seed(&r, 11);
	gen_init(&g, 1000 * 4096, 4096, false, 1);
	for (i = 0; i < 100000; i++) {
		uint64_t off = gen_rand(&g, &r, 4096);

		cr_assert_lt(off, 1000 * 4096);
		cr_assert_eq(off % 4096, 0);
	}
}

Test(sequential, wraps_at_region_end)
{
	struct file_gen g;

	gen_init(&g, 3 * 4096, 4096, false, 1);
	cr_assert_eq(gen_seq(&g, 0, 4096), 0);
	cr_assert_eq(gen_seq(&g, 0, 4096), 4096);
	cr_assert_eq(gen_seq(&g, 0, 4096), 8192);
	cr_assert_eq(gen_seq(&g, 0, 4096), 0);
	/* each direction has its own position */
	cr_assert_eq(gen_seq(&g, 1, 4096), 0);
}
