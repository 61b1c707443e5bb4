/* Unit tests: offset and block-size generators (fio's three, the random map, repeatability, bssplit). */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "io/gen.h"

static const unsigned gens[] = { RAND_GEN_TAUSWORTHE, RAND_GEN_TAUSWORTHE64, RAND_GEN_LFSR };

/* A pass of the random map (or of the LFSR) visits every block exactly once. */
static void check_covers_once(uint64_t n, unsigned kind, bool map, uint64_t seed)
{
	struct file_gen g;
	unsigned char *seen = calloc(n, 1);
	uint64_t i, b;

	cr_assert_not_null(seen);
	cr_assert_eq(gen_init(&g, n * 512, 512, map, kind, seed), 0);
	for (i = 0; i < n; i++) {
		b = gen_rand(&g, 512) / 512;
		cr_assert_lt(b, n, "n=%llu gen %u: %llu out of range", (unsigned long long)n, kind,
			     (unsigned long long)b);
		cr_assert_eq(seen[b], 0, "n=%llu gen %u: block %llu visited twice",
			     (unsigned long long)n, kind, (unsigned long long)b);
		seen[b] = 1;
	}
	/* and the next pass starts again over every block */
	memset(seen, 0, n);
	for (i = 0; i < n; i++) {
		b = gen_rand(&g, 512) / 512;
		cr_assert_eq(seen[b], 0, "n=%llu gen %u: second pass repeats %llu",
			     (unsigned long long)n, kind, (unsigned long long)b);
		seen[b] = 1;
	}
	gen_free(&g);
	free(seen);
}

Test(randommap, covers_every_block_exactly_once)
{
	const uint64_t sizes[] = { 1, 2, 3, 7, 64, 65, 1000, 4097, 65536, 100003, 300000 };
	unsigned i, k;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		for (k = 0; k < 3; k++)
			check_covers_once(sizes[i], gens[k], true, 42 + i);
}

/* random_generator=lfsr needs no map: each block once per pass by itself, as in fio */
/*
 * Requests of several blocks (bsrange/bssplit): a request that runs into a block done already
 * is cut there, as fio's mark_random_map cuts it, so that a pass covers every block exactly
 * once and no two requests overlap.
 */
Test(randommap, multi_block_requests_are_cut_at_the_first_done_block)
{
	const uint64_t n = 2048;
	static const uint32_t sizes[] = { 4096, 512, 3584, 1024, 2560, 1536, 3072, 2048 };
	unsigned char *seen = calloc(n, 1);
	uint64_t done = 0, off, b, cut = 0;
	struct file_gen g;
	uint32_t len;
	unsigned i = 0;

	cr_assert_not_null(seen);
	cr_assert_eq(gen_init(&g, n * 512, 512, true, RAND_GEN_TAUSWORTHE, 7), 0);
	while (done < n) {
		len = sizes[i++ % 8];
		off = gen_rand_cut(&g, &len, true, false);
		cr_assert_eq(off % 512, 0);
		cr_assert_eq(len % 512, 0, "a cut request is whole blocks: %u", len);
		cr_assert(len >= 512 && len <= sizes[(i - 1) % 8]);
		cut += len < sizes[(i - 1) % 8];
		for (b = off / 512; b < (off + len) / 512; b++) {
			cr_assert_lt(b, n);
			cr_assert_eq(seen[b], 0, "block %llu done twice in a pass",
				     (unsigned long long)b);
			seen[b] = 1;
			done++;
		}
	}
	cr_assert_eq(done, n);
	cr_assert_gt(cut, 0, "no request ran into a done block: the test proves nothing");
	/* the next request starts the next pass */
	len = 4096;
	gen_rand_cut(&g, &len, true, false);
	cr_assert_eq(g.passes, 1);
	gen_free(&g);
	free(seen);
}

/* Without the random map a request keeps its size. */
Test(norandommap, multi_block_requests_keep_their_size)
{
	struct file_gen g;
	uint32_t len;
	unsigned i;

	cr_assert_eq(gen_init(&g, 1 << 20, 512, false, RAND_GEN_TAUSWORTHE, 7), 0);
	for (i = 0; i < 1000; i++) {
		len = 4096;
		cr_assert_leq(gen_rand_cut(&g, &len, true, false) + 4096, 1 << 20);
		cr_assert_eq(len, 4096);
	}
	gen_free(&g);
}

Test(randommap, lfsr_covers_every_block_without_a_map)
{
	const uint64_t sizes[] = { 1, 2, 3, 5, 100, 1023, 1024, 1025, 77777 };
	unsigned i;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		check_covers_once(sizes[i], RAND_GEN_LFSR, false, 7 + i);
}

/* Every width's feedback mask is maximal up to 2^22: the period visits 2^bits - 1 states. */
Test(randommap, lfsr_masks_have_full_period)
{
	unsigned bits;

	for (bits = 2; bits <= 22; bits++) {
		uint64_t n = (1ull << bits) - 1, i;
		struct offrand o;
		unsigned char *seen = calloc(n, 1);

		cr_assert_not_null(seen);
		offrand_init(&o, RAND_GEN_LFSR, n, bits);
		for (i = 0; i < n; i++) {
			uint64_t b = offrand_block(&o, n);

			cr_assert_eq(seen[b], 0, "%u bits: block %llu again after %llu", bits,
				     (unsigned long long)b, (unsigned long long)i);
			seen[b] = 1;
		}
		free(seen);
	}
}

/* The three generators give three different sequences from one seed. */
Test(randommap, each_generator_has_its_own_sequence)
{
	uint64_t first[3][64];
	unsigned k, j, i, same;

	for (k = 0; k < 3; k++) {
		struct file_gen g;

		cr_assert_eq(gen_init(&g, 1 << 24, 4096, true, gens[k], 9), 0);
		for (i = 0; i < 64; i++)
			first[k][i] = gen_rand(&g, 4096);
		gen_free(&g);
	}
	for (k = 0; k < 3; k++) {
		for (j = k + 1; j < 3; j++) {
			for (i = same = 0; i < 64; i++)
				same += first[k][i] == first[j][i];
			cr_assert_lt(same, 4, "generators %u and %u agree on %u of 64", gens[k],
				     gens[j], same);
		}
	}
}

Test(randommap, is_not_sequential)
{
	struct file_gen g;
	uint64_t i, prev = 0, seq = 0;

	cr_assert_eq(gen_init(&g, 10000 * 4096ull, 4096, true, RAND_GEN_TAUSWORTHE, 1), 0);
	for (i = 0; i < 10000; i++) {
		uint64_t off = gen_rand(&g, 4096);

		seq += i && off == prev + 4096;
		prev = off;
	}
	gen_free(&g);
	cr_assert_lt(seq, 100);
}

Test(randrepeat, same_seed_same_sequence)
{
	struct file_gen a, b;
	unsigned i, k;

	for (k = 0; k < 3; k++) {
		cr_assert_eq(gen_init(&a, 1 << 24, 4096, false, gens[k], 1), 0);
		cr_assert_eq(gen_init(&b, 1 << 24, 4096, false, gens[k], 1), 0);
		for (i = 0; i < 1000; i++)
			cr_assert_eq(gen_rand(&a, 4096), gen_rand(&b, 4096));
		gen_free(&a);
		gen_free(&b);
		cr_assert_eq(gen_init(&a, 1 << 24, 4096, true, gens[k], 77), 0);
		cr_assert_eq(gen_init(&b, 1 << 24, 4096, true, gens[k], 77), 0);
		for (i = 0; i < 1000; i++)
			cr_assert_eq(gen_rand(&a, 4096), gen_rand(&b, 4096));
		gen_free(&a);
		gen_free(&b);
	}
}

Test(randrepeat, different_seed_different_sequence)
{
	struct file_gen a, b;
	unsigned i, k, same;

	for (k = 0; k < 3; k++) {
		cr_assert_eq(gen_init(&a, 1 << 24, 4096, true, gens[k], 1), 0);
		cr_assert_eq(gen_init(&b, 1 << 24, 4096, true, gens[k], 2), 0);
		for (i = same = 0; i < 1000; i++)
			same += gen_rand(&a, 4096) == gen_rand(&b, 4096);
		cr_assert_lt(same, 10, "generator %u", gens[k]);
		gen_free(&a);
		gen_free(&b);
	}
}

Test(norandommap, offsets_stay_in_region_and_aligned)
{
	struct file_gen g;
	unsigned i, k;

	for (k = 0; k < 3; k++) {
		cr_assert_eq(gen_init(&g, 1000 * 4096, 4096, false, gens[k], 1), 0);
		for (i = 0; i < 100000; i++) {
			uint64_t off = gen_rand(&g, 4096);

			cr_assert_lt(off, 1000 * 4096);
			cr_assert_eq(off % 4096, 0);
		}
		gen_free(&g);
	}
}

Test(sequential, wraps_at_region_end)
{
	struct file_gen g;

	gen_init(&g, 3 * 4096, 4096, false, RAND_GEN_TAUSWORTHE, 1);
	cr_assert_eq(gen_seq(&g, 0, 4096), 0);
	cr_assert_eq(gen_seq(&g, 0, 4096), 4096);
	cr_assert_eq(gen_seq(&g, 0, 4096), 8192);
	cr_assert_eq(gen_seq(&g, 0, 4096), 0);
	/* each direction has its own position */
	cr_assert_eq(gen_seq(&g, 1, 4096), 0);
}

static void split_job(struct job_spec *job, const struct bs_split *s, unsigned nr)
{
	unsigned i;

	memset(job, 0, sizeof(*job));
	job->bs[0] = UINT32_MAX;
	for (i = 0; i < nr; i++) {
		job->bssplit[0][i] = s[i];
		if (s[i].bs < job->bs[0])
			job->bs[0] = s[i].bs;
		if (s[i].bs > job->bs_max[0])
			job->bs_max[0] = s[i].bs;
	}
	job->nr_bssplit[0] = nr;
}

Test(bssplit, draws_sizes_in_their_shares)
{
	/* as parsed: smallest share first */
	static const struct bs_split s[] = { { 4096, 10 }, { 32768, 40 }, { 65536, 50 } };
	unsigned counts[3] = { 0 }, i, n = 100000;
	struct job_spec job;
	struct bs_gen g;
	struct frand r;

	split_job(&job, s, 3);
	bs_gen_init(&g, &job, 0);
	frand_seed(&r, 99, false);
	for (i = 0; i < n; i++) {
		uint32_t len = bs_gen_next(&g, &r, UINT64_MAX);

		counts[len == 65536 ? 0 : len == 32768 ? 1 : 2]++;
		cr_assert(len == 65536 || len == 32768 || len == 4096, "len %u", len);
	}
	cr_assert_float_eq(counts[0] / (double)n, 0.50, 0.01);
	cr_assert_float_eq(counts[1] / (double)n, 0.40, 0.01);
	cr_assert_float_eq(counts[2] / (double)n, 0.10, 0.01);
}

Test(bssplit, sizes_are_aligned_down_to_the_smallest)
{
	static const struct bs_split s[] = { { 6144, 50 }, { 4096, 50 } };
	struct job_spec job;
	struct bs_gen g;
	struct frand r;
	unsigned i;

	split_job(&job, s, 2);
	bs_gen_init(&g, &job, 0);
	frand_seed(&r, 1, false);
	/* fio rounds 6k down to a multiple of the 4k minimum */
	for (i = 0; i < 1000; i++)
		cr_assert_eq(bs_gen_next(&g, &r, UINT64_MAX), 4096);
}

Test(bsrange, sizes_are_multiples_of_min_within_range)
{
	struct job_spec job;
	struct bs_gen g;
	struct frand r;
	unsigned i, seen_max = 0, seen_min = 0;

	memset(&job, 0, sizeof(job));
	job.bs[0] = 4096;
	job.bs_max[0] = 65536;
	bs_gen_init(&g, &job, 0);
	frand_seed(&r, 5, false);
	for (i = 0; i < 10000; i++) {
		uint32_t len = bs_gen_next(&g, &r, UINT64_MAX);

		cr_assert(len >= 4096 && len <= 65536 && len % 4096 == 0, "len %u", len);
		seen_max |= len == 65536;
		seen_min |= len == 4096;
	}
	cr_assert(seen_max && seen_min);
}

Test(bsrange, unaligned_sizes_take_any_value)
{
	struct job_spec job;
	struct bs_gen g;
	struct frand r;
	unsigned i, odd = 0;

	memset(&job, 0, sizeof(job));
	job.bs[0] = 1000;
	job.bs_max[0] = 9000;
	job.bs_unaligned = true;
	bs_gen_init(&g, &job, 0);
	frand_seed(&r, 5, false);
	for (i = 0; i < 1000; i++) {
		uint32_t len = bs_gen_next(&g, &r, UINT64_MAX);

		cr_assert(len >= 1000 && len <= 9000);
		odd += len % 1000 != 0;
	}
	/* all but the draws past max, which fio caps at max (about 1 in 9 here) */
	cr_assert_gt(odd, 800);
}

/*
 * rw=read:N: up to max I/Os of 4k from gen_seq_step in KiB, as fio 3.33 issues them (its
 * write_iolog on the same job); stops where the pass runs off the file.
 */
static unsigned seq_steps(uint64_t start, uint64_t region, uint64_t real, int64_t add,
			  unsigned max, unsigned *kib)
{
	struct file_gen g;
	unsigned n = 0;
	uint64_t pos;

	gen_init(&g, region, 4096, false, RAND_GEN_TAUSWORTHE, 1);
	g.start = start;
	g.real = real;
	while (n < max) {
		pos = gen_seq_step(&g, 0, add, false);
		if (!gen_seq_fits(&g, pos, 4096))
			break;
		gen_seq_done(&g, 0, pos, 4096);
		kib[n++] = (unsigned)((start + pos) >> 10);
	}
	return n;
}

static void expect_steps(const unsigned *got, unsigned n, const unsigned *want, unsigned nw,
			 const char *what)
{
	unsigned i;

	cr_assert_eq(n, nw, "%s: %u I/Os, fio issues %u", what, n, nw);
	for (i = 0; i < n; i++)
		cr_expect_eq(got[i], want[i], "%s: I/O %u at %uk, fio's at %uk", what, i, got[i],
			     want[i]);
}

Test(seq_step, backwards_wraps_to_the_region_end_as_fio)
{
	static const unsigned want[] = { 0, 56, 52, 48, 44, 40, 36, 32, 28, 24, 20, 16, 12, 8, 4, 0 };
	unsigned got[16];

	expect_steps(got, seq_steps(0, 64 << 10, 64 << 10, -8192, 16, got), want, 16, "read:-8k");
}

Test(seq_step, backwards_by_three_blocks_as_fio)
{
	static const unsigned want[] = { 0, 52, 44, 36, 28, 20, 12, 4, 52, 44, 36, 28, 20, 12, 4, 52 };
	unsigned got[16];

	expect_steps(got, seq_steps(0, 64 << 10, 64 << 10, -12288, 16, got), want, 16, "read:-12k");
}

Test(seq_step, holes_end_the_pass_at_the_file_end_as_fio)
{
	static const unsigned want[] = { 0, 12, 24, 36, 48, 60 };
	unsigned got[16];

	expect_steps(got, seq_steps(0, 64 << 10, 64 << 10, 8192, 16, got), want, 6, "read:8k");
}

Test(seq_step, step_past_the_file_wraps_to_the_start_as_fio)
{
	static const unsigned want[] = { 0, 0, 0, 0 };
	unsigned got[4];

	expect_steps(got, seq_steps(0, 64 << 10, 64 << 10, 112 << 10, 4, got), want, 4,
		     "write:112k");
}

Test(seq_step, backwards_from_an_offset_starts_at_the_region_end_as_fio)
{
	/* offset=16k size=64k: an 80k file; fio mixes the region's size and the file's end */
	static const unsigned want[] = { 56, 52, 48, 44, 40, 36, 32, 28, 24, 20, 16, 72, 68, 64, 60, 56 };
	unsigned got[16];

	expect_steps(got, seq_steps(16 << 10, 64 << 10, 80 << 10, -8192, 16, got), want, 16,
		     "offset=16k read:-8k");
}

Test(seq_step, rewind_starts_the_next_loop_at_the_region_start)
{
	struct file_gen g;

	gen_init(&g, 64 << 10, 4096, false, RAND_GEN_TAUSWORTHE, 1);
	gen_seq_done(&g, 0, 60 << 10, 4096);
	cr_assert_eq(gen_seq_step(&g, 0, 8192, false), GEN_END);
	gen_rewind(&g);
	cr_assert_eq(gen_seq_step(&g, 0, 8192, false), 0);
}

/*
 * gen_mark (fio's mark_random_map for a random job's sequential I/O): the blocks it covers are
 * done in this pass, so the random draws give only the others, each once, and then a new pass.
 */
Test(gen, marked_blocks_are_not_drawn_again)
{
	struct file_gen g;
	unsigned char seen[64] = { 0 };
	uint64_t i, b;

	cr_assert_eq(gen_init(&g, 64 * 512, 512, true, RAND_GEN_TAUSWORTHE, 7), 0);
	gen_mark(&g, 0, 40 * 512);
	gen_mark(&g, 38 * 512, 4 * 512);	/* over blocks done already: marked once */
	for (i = 0; i < 22; i++) {
		b = gen_rand(&g, 512) / 512;
		cr_assert_geq(b, 42, "block %llu was marked done", (unsigned long long)b);
		cr_assert_eq(seen[b], 0, "block %llu drawn twice", (unsigned long long)b);
		seen[b] = 1;
	}
	cr_assert_eq(g.passes, 0);
	(void)gen_rand(&g, 512);
	cr_assert_eq(g.passes, 1, "the pass ends when the marked and drawn blocks are all done");
	gen_free(&g);
}
