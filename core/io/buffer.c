/* Buffer contents: random, zero or compressible fills, and crc32c-verified blocks. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "io/buffer.h"

/*
 * crc32c (Castagnoli). Debian has no static crc32c library (ISA-L ships only a shared
 * object, and the guest build is static), so this uses the CPU's crc32 instruction, with a
 * table fallback for CPUs without SSE4.2.
 */
static uint32_t crc_table[256];

static void crc_table_init(void)
{
	uint32_t i, j, c;

	for (i = 0; i < 256; i++) {
		c = i;
		for (j = 0; j < 8; j++)
			c = (c >> 1) ^ (0x82f63b78u & (0u - (c & 1)));
		crc_table[i] = c;
	}
}

static uint32_t crc32c_sw(uint32_t crc, const unsigned char *p, uint64_t len)
{
	if (!crc_table[1])
		crc_table_init();
	while (len--)
		crc = crc_table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return crc;
}

#if defined(__x86_64__)
__attribute__((target("sse4.2")))
static uint32_t crc32c_hw(uint32_t crc, const unsigned char *p, uint64_t len)
{
	uint64_t c = crc, v;

	while (len >= 8) {
		memcpy(&v, p, 8);
		c = __builtin_ia32_crc32di(c, v);
		p += 8;
		len -= 8;
	}
	while (len--)
		c = __builtin_ia32_crc32qi((uint32_t)c, *p++);
	return (uint32_t)c;
}
#endif

uint32_t crc32c(uint32_t crc, const void *buf, uint64_t len)
{
	crc = ~crc;
#if defined(__x86_64__)
	if (__builtin_cpu_supports("sse4.2"))
		return ~crc32c_hw(crc, buf, len);
#endif
	return ~crc32c_sw(crc, buf, len);
}

/* Repeat the job's buffer_pattern over [p, p + len), starting at pattern byte phase. */
static void pattern_fill(const struct job_spec *job, unsigned char *p, uint64_t len,
			 uint64_t phase)
{
	uint64_t n = job->buf.pattern_len, done = 0, k;

	phase %= n;
	while (done < len) {
		k = n - phase < len - done ? n - phase : len - done;
		memcpy(p + done, job->buf.pattern + phase, k);
		done += k;
		phase = 0;
	}
}

/*
 * buffer_compress_chunk's unit, as fio's fill_io_buffer takes it: the chunk, but never above
 * the job's smallest write (0: that write).
 */
static uint64_t compress_unit(const struct job_spec *job)
{
	uint64_t min_write = job->bs[DDIR_WRITE], c = job->buf.compress_chunk;

	if (!c || !min_write)
		return c ? c : min_write;
	return c < min_write ? c : min_write;
}

void buf_fill(const struct job_spec *job, struct rng *r, void *buf, uint64_t len)
{
	unsigned char *p = buf;
	uint64_t unit, done, keep;

	if (job->buf.zero) {
		memset(buf, 0, len);
		return;
	}
	if (!job->buf.compress_pct) {
		if (job->buf.pattern_len)
			pattern_fill(job, p, len, 0);
		else
			rng_fill(r, buf, len);
		return;
	}
	/*
	 * Each unit as fio's fill_random_buf_percentage lays it out: (100 - pct)% random bytes,
	 * then zeros (or buffer_pattern from its first byte) to the unit's end.
	 */
	unit = compress_unit(job);
	if (!unit)
		unit = len;
	for (done = 0; done < len; done += unit) {
		uint64_t n = len - done < unit ? len - done : unit;

		keep = n * (100 - job->buf.compress_pct) / 100;
		rng_fill(r, p + done, keep);
		if (job->buf.pattern_len)
			pattern_fill(job, p + done + keep, n - keep, 0);
		else
			memset(p + done + keep, 0, n - keep);
	}
}

void buf_scramble(void *buf, uint32_t len, uint64_t offset, uint64_t seq)
{
	unsigned char *p = buf, *end = p + (len & ~511u);
	unsigned line = (unsigned)((seq ^ offset) & 7) * 64;

	/* each 512 bytes: its offset in one cache line, the write's sequence at the first's end */
	for (; p < end; p += 512, offset += 512) {
		memcpy(p + line, &offset, sizeof(offset));
		memcpy(p + 64 - sizeof(seq), &seq, sizeof(seq));
	}
}

void verify_pattern_at(const struct job_spec *job, uint64_t offset, unsigned char *out)
{
	unsigned char le[8];
	unsigned i;

	memcpy(out, job->verify.pattern, job->verify.pattern_len);
	for (i = 0; i < 8; i++)
		le[i] = (unsigned char)(offset >> (8 * i));
	for (i = 0; i < job->verify.fmt_nr; i++) {
		unsigned at = job->verify.fmt_off[i], n = job->verify.pattern_len - at;

		memcpy(out + at, le, n < 8 ? n : 8);
	}
}

void verify_pattern_fill(const struct job_spec *job, void *buf, uint32_t len, uint64_t offset)
{
	const unsigned char *pat = job->verify.pattern;
	unsigned char pasted[PATTERN_MAX];
	unsigned char *p = buf;
	uint32_t i;

	if (job->verify.fmt_nr) {
		verify_pattern_at(job, offset, pasted);
		pat = pasted;
	}
	for (i = 0; i < len; i++)
		p[i] = pat[i % job->verify.pattern_len];
}
