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
	uint64_t n = job->buffer_pattern_len, done = 0, k;

	phase %= n;
	while (done < len) {
		k = n - phase < len - done ? n - phase : len - done;
		memcpy(p + done, job->buffer_pattern + phase, k);
		done += k;
		phase = 0;
	}
}

void buf_fill(const struct job_spec *job, struct rng *r, void *buf, uint64_t len)
{
	unsigned char *p = buf;
	uint64_t chunk = 512, done, keep;

	if (job->zero_buffers) {
		memset(buf, 0, len);
		return;
	}
	if (!job->buffer_compress_percentage) {
		if (job->buffer_pattern_len)
			pattern_fill(job, p, len, 0);
		else
			rng_fill(r, buf, len);
		return;
	}
	/* each chunk: (100 - pct)% random bytes, the rest zeros (or the pattern, as fio does) */
	for (done = 0; done < len; done += chunk) {
		uint64_t n = len - done < chunk ? len - done : chunk;

		keep = n * (100 - job->buffer_compress_percentage) / 100;
		rng_fill(r, p + done, keep);
		if (job->buffer_pattern_len)
			pattern_fill(job, p + done + keep, n - keep, keep);
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

struct verify_hdr {
	uint32_t magic;
	uint32_t crc;
	uint64_t offset;
	uint32_t unit;
	uint32_t pad;
	uint64_t seq;
};

_Static_assert(sizeof(struct verify_hdr) == VERIFY_HDR, "verify header size");

void verify_stamp(void *buf, uint64_t offset, uint32_t len, uint32_t unit, uint64_t seq)
{
	unsigned char *p = buf;
	struct verify_hdr h;
	uint32_t done;

	for (done = 0; done + unit <= len; done += unit) {
		h.magic = VERIFY_MAGIC;
		h.crc = 0;
		h.offset = offset + done;
		h.unit = unit;
		h.pad = 0;
		h.seq = seq;
		memcpy(p + done, &h, sizeof(h));
		h.crc = crc32c(0, p + done + 8, unit - 8);
		memcpy(p + done + 4, &h.crc, sizeof(h.crc));
	}
}

static int verify_units(const void *buf, uint64_t offset, uint32_t len, uint32_t unit,
			bool data_crc, uint64_t *bad_off, char *why, unsigned why_len);

int verify_check(const void *buf, uint64_t offset, uint32_t len, uint32_t unit,
		 uint64_t *bad_off, char *why, unsigned why_len)
{
	return verify_units(buf, offset, len, unit, true, bad_off, why, why_len);
}

void verify_pattern_fill(const struct job_spec *job, void *buf, uint32_t len)
{
	unsigned char *p = buf;
	uint32_t i;

	for (i = 0; i < len; i++)
		p[i] = job->verify_pattern[i % job->verify_pattern_len];
}

int verify_check_job(const struct job_spec *job, const void *buf, uint64_t offset,
		     uint32_t len, uint32_t unit, uint64_t *bad_off, char *why, unsigned why_len)
{
	const unsigned char *p = buf;
	uint32_t done, i;
	int ret = verify_units(buf, offset, len, unit, job->verify != VERIFY_META, bad_off, why,
			       why_len);

	if (ret || !job->verify_pattern_len)
		return ret;
	for (done = 0; done + unit <= len; done += unit) {
		for (i = done + VERIFY_HDR; i < done + unit; i++) {
			if (p[i] == job->verify_pattern[i % job->verify_pattern_len])
				continue;
			*bad_off = offset + done;
			snprintf(why, why_len, "byte %u: %02x where verify_pattern has %02x", i - done,
				 p[i], job->verify_pattern[i % job->verify_pattern_len]);
			return -EILSEQ;
		}
	}
	return 0;
}

static int verify_units(const void *buf, uint64_t offset, uint32_t len, uint32_t unit,
			bool data_crc, uint64_t *bad_off, char *why, unsigned why_len)
{
	const unsigned char *p = buf;
	struct verify_hdr h;
	uint32_t done, crc;

	for (done = 0; done + unit <= len; done += unit) {
		memcpy(&h, p + done, sizeof(h));
		*bad_off = offset + done;
		if (h.magic != VERIFY_MAGIC) {
			snprintf(why, why_len, "no verify header (magic %08x): data not written by a verify job", h.magic);
			return -EILSEQ;
		}
		if (h.offset != offset + done) {
			snprintf(why, why_len, "block holds data written for offset %llu",
				 (unsigned long long)h.offset);
			return -EILSEQ;
		}
		if (h.unit != unit) {
			snprintf(why, why_len, "block was written with verify unit %u, read with %u",
				 h.unit, unit);
			return -EILSEQ;
		}
		if (!data_crc)
			continue;
		crc = crc32c(0, p + done + 8, unit - 8);
		if (crc != h.crc) {
			snprintf(why, why_len, "crc32c mismatch (stored %08x, computed %08x)", h.crc, crc);
			return -EILSEQ;
		}
	}
	return 0;
}
