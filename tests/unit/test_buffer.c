/* Unit tests: crc32c, verified blocks, buffer fills (pattern, scramble). */
#include <criterion/criterion.h>
#include <errno.h>
#include <string.h>

#include "io/buffer.h"

Test(crc32c, known_vector)
{
	/* the standard check value of CRC-32C */
	cr_assert_eq(crc32c(0, "123456789", 9), 0xe3069283u);
	cr_assert_eq(crc32c(0, "", 0), 0);
}

Test(crc32c, chained_equals_whole)
{
	const char *s = "the quick brown fox jumps over the lazy dog";
	uint32_t a = crc32c(0, s, 10);

	cr_assert_eq(crc32c(a, s + 10, strlen(s) - 10), crc32c(0, s, strlen(s)));
}

Test(verify, stamped_block_checks_clean)
{
	static unsigned char buf[16384];
	uint64_t bad;
	char why[128];

	memset(buf, 0xab, sizeof(buf));
	verify_stamp(buf, 8192, sizeof(buf), 4096, 1);
	cr_assert_eq(verify_check(buf, 8192, sizeof(buf), 4096, &bad, why, sizeof(why)), 0);
}

Test(verify, detects_flipped_byte_and_names_offset)
{
	static unsigned char buf[16384];
	uint64_t bad = 0;
	char why[128];

	verify_stamp(buf, 0, sizeof(buf), 4096, 1);
	buf[3 * 4096 + 100] ^= 1;
	cr_assert_eq(verify_check(buf, 0, sizeof(buf), 4096, &bad, why, sizeof(why)), -EILSEQ);
	cr_assert_eq(bad, 3 * 4096);
	cr_assert_not_null(strstr(why, "crc32c mismatch"));
}

Test(verify, detects_misplaced_block)
{
	static unsigned char buf[4096];
	uint64_t bad;
	char why[128];

	verify_stamp(buf, 4096, sizeof(buf), 4096, 1);
	cr_assert_eq(verify_check(buf, 8192, sizeof(buf), 4096, &bad, why, sizeof(why)), -EILSEQ);
	cr_assert_not_null(strstr(why, "written for offset 4096"));
}

Test(verify, detects_foreign_data)
{
	static unsigned char buf[4096];
	uint64_t bad;
	char why[128];

	memset(buf, 0, sizeof(buf));
	cr_assert_eq(verify_check(buf, 0, sizeof(buf), 4096, &bad, why, sizeof(why)), -EILSEQ);
	cr_assert_not_null(strstr(why, "no verify header"));
}

Test(buffers, pattern_repeats_over_the_buffer)
{
	static struct job_spec job;
	unsigned char buf[1000];
	struct rng r;
	unsigned i;

	memset(&job, 0, sizeof(job));
	memcpy(job.buffer_pattern, "\xde\xad\xbe", 3);
	job.buffer_pattern_len = 3;
	rng_seed(&r, 1);
	buf_fill(&job, &r, buf, sizeof(buf));
	for (i = 0; i < sizeof(buf); i++)
		cr_assert_eq(buf[i], job.buffer_pattern[i % 3], "byte %u", i);
}

Test(buffers, scramble_makes_equal_blocks_differ)
{
	unsigned char a[4096], b[4096];

	memset(a, 0x11, sizeof(a));
	memset(b, 0x11, sizeof(b));
	buf_scramble(a, sizeof(a), 0, 1);
	buf_scramble(b, sizeof(b), 4096, 2);
	cr_assert_neq(memcmp(a, b, sizeof(a)), 0);
	/* each 512-byte sector differs from its neighbour too */
	cr_assert_neq(memcmp(a, a + 512, 512), 0);
}
