/* Unit tests: crc32c, fio-format verified blocks, buffer fills (pattern, scramble). */
#include <criterion/criterion.h>
#include <errno.h>
#include <string.h>

#include <stdio.h>

#include "io/buffer.h"
#include "io/vhdr.h"

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

static void verify_job(struct job_spec *job, enum job_verify v)
{
	memset(job, 0, sizeof(*job));
	job->verify.kind = v;
}

Test(verify, every_type_checks_its_own_block_clean)
{
	static unsigned char buf[16384];
	static struct job_spec job;
	uint64_t bad;
	char why[300];
	unsigned v;

	for (v = VERIFY_CRC32C; v < VERIFY_KINDS; v++) {
		verify_job(&job, v);
		if (v == VERIFY_PATTERN) {
			memcpy(job.verify.pattern, "\xde\xad", 2);
			job.verify.pattern_len = 2;
			verify_pattern_fill(&job, buf, sizeof(buf), 0);
		} else {
			memset(buf, (int)v, sizeof(buf));
		}
		verify_stamp(&job, buf, 8192, sizeof(buf), 4096, 1, 1);
		cr_assert_eq(verify_check_job(&job, buf, 8192, sizeof(buf), 4096, -1, &bad, why, sizeof(why)),
			     0, "verify type %u: %s", v, why);
	}
}

Test(verify, detects_flipped_byte_and_names_offset)
{
	static unsigned char buf[16384];
	static struct job_spec job;
	uint64_t bad = 0;
	char why[300];

	verify_job(&job, VERIFY_MD5);
	verify_stamp(&job, buf, 0, sizeof(buf), 4096, 1, 1);
	buf[3 * 4096 + 100] ^= 1;
	cr_assert_eq(verify_check_job(&job, buf, 0, sizeof(buf), 4096, -1, &bad, why, sizeof(why)), -EILSEQ);
	cr_assert_eq(bad, 3 * 4096);
	cr_assert_not_null(strstr(why, "md5 mismatch"), "%s", why);
}

Test(verify, checks_the_write_number_when_asked)
{
	static unsigned char buf[8192];
	static struct job_spec job;
	uint64_t bad = 0;
	char why[300];

	verify_job(&job, VERIFY_CRC32C);
	verify_stamp(&job, buf, 0, sizeof(buf), 4096, 7, 1);
	cr_assert_eq(verify_check_job(&job, buf, 0, sizeof(buf), 4096, 7, &bad, why, sizeof(why)), 0,
		     "%s", why);
	cr_assert_eq(verify_check_job(&job, buf, 0, sizeof(buf), 4096, -1, &bad, why, sizeof(why)), 0,
		     "%s", why);
	cr_assert_eq(verify_check_job(&job, buf, 0, sizeof(buf), 4096, 3, &bad, why, sizeof(why)),
		     -EILSEQ);
	cr_assert_eq(bad, 0);
	cr_assert_str_eq(why, "bad header numberio 7, wanted 3");
}

Test(verify, detects_misplaced_block)
{
	static unsigned char buf[4096];
	static struct job_spec job;
	uint64_t bad;
	char why[300];

	verify_job(&job, VERIFY_CRC32C);
	verify_stamp(&job, buf, 4096, sizeof(buf), 4096, 1, 1);
	cr_assert_eq(verify_check_job(&job, buf, 8192, sizeof(buf), 4096, -1, &bad, why, sizeof(why)), -EILSEQ);
	cr_assert_not_null(strstr(why, "written for offset 4096"), "%s", why);
}

Test(verify, detects_foreign_data)
{
	static unsigned char buf[4096];
	static struct job_spec job;
	uint64_t bad;
	char why[300];

	verify_job(&job, VERIFY_SHA1);
	memset(buf, 0, sizeof(buf));
	cr_assert_eq(verify_check_job(&job, buf, 0, sizeof(buf), 4096, -1, &bad, why, sizeof(why)), -EILSEQ);
	cr_assert_not_null(strstr(why, "bad magic header"), "%s", why);
}

Test(verify, header_is_fios_layout)
{
	static unsigned char buf[4096];
	static struct job_spec job;
	uint32_t len;
	uint64_t off;

	/* fio's struct verify_header: magic 0xacca, type (md5 is 2), unit length, offset */
	verify_job(&job, VERIFY_MD5);
	verify_stamp(&job, buf, 12288, sizeof(buf), 4096, 7, 1);
	cr_assert_eq(buf[0], 0xca);
	cr_assert_eq(buf[1], 0xac);
	cr_assert_eq(buf[2], 2);
	memcpy(&len, buf + 4, 4);
	memcpy(&off, buf + 16, 8);
	cr_assert_eq(len, 4096);
	cr_assert_eq(off, 12288);
	cr_assert_eq(vhdr_size(VERIFY_MD5), 40 + 16);
}

Test(verify, md5_is_the_standard_digest_of_the_data)
{
	static unsigned char buf[4096];
	static struct job_spec job;
	/* md5 of 4040 bytes of 'a' (the unit less fio's 56-byte md5 header) */
	unsigned char want[16];
	FILE *p;
	unsigned i;

	verify_job(&job, VERIFY_MD5);
	memset(buf, 'a', sizeof(buf));
	verify_stamp(&job, buf, 0, sizeof(buf), 4096, 1, 1);
	p = popen("head -c 4040 /dev/zero | tr '\\0' a | md5sum", "r");
	cr_assert_not_null(p);
	for (i = 0; i < 16; i++)
		cr_assert_eq(fscanf(p, "%2hhx", &want[i]), 1);
	pclose(p);
	cr_assert_arr_eq(buf + 40, want, 16);
}

Test(verify, verify_offset_moves_the_header_and_back)
{
	static unsigned char buf[8192];
	static struct job_spec job;
	uint64_t bad;
	char why[300];

	verify_job(&job, VERIFY_CRC32);
	job.verify.offset = 512;
	memset(buf, 0x5a, sizeof(buf));
	verify_stamp(&job, buf, 0, sizeof(buf), 4096, 1, 1);
	cr_assert_eq(buf[512], 0xca);
	cr_assert_eq(buf[4096 + 513], 0xac);
	cr_assert_eq(verify_check_job(&job, buf, 0, sizeof(buf), 4096, -1, &bad, why, sizeof(why)), 0, "%s", why);
}

Test(verify, pattern_checks_every_byte)
{
	static unsigned char buf[4096];
	static struct job_spec job;
	uint64_t bad;
	char why[300];

	verify_job(&job, VERIFY_PATTERN);
	memcpy(job.verify.pattern, "\x01\x02\x03", 3);
	job.verify.pattern_len = 3;
	verify_pattern_fill(&job, buf, sizeof(buf), 0);
	buf[4000] ^= 0x80;
	cr_assert_eq(verify_check_job(&job, buf, 0, sizeof(buf), 1024, -1, &bad, why, sizeof(why)), -EILSEQ);
	cr_assert_eq(bad, 3072);
	cr_assert_not_null(strstr(why, "byte 928"), "%s", why);
}

Test(buffers, pattern_repeats_over_the_buffer)
{
	static struct job_spec job;
	unsigned char buf[1000];
	struct rng r;
	unsigned i;

	memset(&job, 0, sizeof(job));
	memcpy(job.buf.pattern, "\xde\xad\xbe", 3);
	job.buf.pattern_len = 3;
	rng_seed(&r, 1);
	buf_fill(&job, &r, buf, sizeof(buf));
	for (i = 0; i < sizeof(buf); i++)
		cr_assert_eq(buf[i], job.buf.pattern[i % 3], "byte %u", i);
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

/* buffer_compress_percentage's layout, as fio's: per unit its random bytes, then zeros. */
static unsigned zero_run_at_end(const unsigned char *p, unsigned n)
{
	unsigned z = 0;

	while (z < n && !p[n - 1 - z])
		z++;
	return z;
}

Test(buffers, compress_chunk_lays_out_each_unit_random_then_zero)
{
	static struct job_spec job;
	static unsigned char buf[16384];
	struct rng r;
	unsigned i;

	memset(&job, 0, sizeof(job));
	job.bs[1] = 8192;
	job.buf.compress_pct = 25;
	job.buf.compress_chunk = 1024;
	rng_seed(&r, 1);
	buf_fill(&job, &r, buf, sizeof(buf));
	for (i = 0; i < sizeof(buf); i += 1024) {
		/* 768 random bytes (a zero byte or two may end them by chance), 256 zeros */
		cr_assert_geq(zero_run_at_end(buf + i, 1024), 256, "unit at %u", i);
		cr_assert_lt(zero_run_at_end(buf + i, 1024), 260, "unit at %u", i);
	}
}

Test(buffers, compress_chunk_is_never_above_the_smallest_write)
{
	static struct job_spec job;
	static unsigned char buf[16384];
	unsigned units[2] = { 0, 65536 }, k, i;
	struct rng r;

	memset(&job, 0, sizeof(job));
	job.bs[1] = 4096;
	job.buf.compress_pct = 50;
	for (k = 0; k < 2; k++) {
		job.buf.compress_chunk = units[k];
		rng_seed(&r, 2);
		buf_fill(&job, &r, buf, sizeof(buf));
		for (i = 0; i < sizeof(buf); i += 4096) {
			cr_assert_geq(zero_run_at_end(buf + i, 4096), 2048, "chunk %u at %u", units[k], i);
			cr_assert_lt(zero_run_at_end(buf + i, 4096), 2052, "chunk %u at %u", units[k], i);
		}
	}
}

Test(buffers, compress_with_a_pattern_starts_it_in_each_unit)
{
	static struct job_spec job;
	unsigned char buf[2048];
	struct rng r;
	unsigned i;

	memset(&job, 0, sizeof(job));
	job.bs[1] = 2048;
	job.buf.compress_pct = 50;
	job.buf.compress_chunk = 512;
	memcpy(job.buf.pattern, "\xde\xad\xbe", 3);
	job.buf.pattern_len = 3;
	rng_seed(&r, 3);
	buf_fill(&job, &r, buf, sizeof(buf));
	for (i = 0; i < 256; i++)
		cr_assert_eq(buf[512 + 256 + i], job.buf.pattern[i % 3], "byte %u of the second unit's pattern", i);
}
