/* fio's on-disk verify format: the header of every verify unit and the checksums of verify=. */
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* SHA256_Update and its state: fio's sha256 is SHA-256's compression with its own padding */
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/evp.h>
#include <openssl/sha.h>
#include <xxhash.h>

#include "io/buffer.h"
#include "io/vhdr.h"

/*
 * fio's struct verify_header (verify.h), little-endian on disk: magic 0xacca, the verify type as
 * fio numbers it, the unit length, the seed of the data, the unit's offset, the write's time,
 * thread and number, and a crc32c of the fields before it. The checksum of the rest of the unit
 * follows it (the "vhdr"), then the data the checksum covers.
 */
struct fio_vhdr {
	uint16_t magic;
	uint16_t verify_type;
	uint32_t len;
	uint64_t rand_seed;
	uint64_t offset;
	uint32_t time_sec;
	uint32_t time_nsec;
	uint16_t thread;
	uint16_t numberio;
	uint32_t crc32;
};

_Static_assert(sizeof(struct fio_vhdr) == VHDR_BASE, "fio verify header size");

/* Each type: fio's name, its number in fio's header, the checksum's room after the header. */
static const struct vtype {
	const char *name;	/* as messages name it */
	uint16_t fio_type;
	uint16_t room;		/* bytes of checksum space (fio's struct vhdr_*) */
	uint16_t digest;	/* of which the checksum fills this many */
} vtypes[VERIFY_KINDS] = {
	[VERIFY_NONE] = { "none", 0, 0, 0 },
	[VERIFY_META] = { "meta", 1, 0, 0 },
	[VERIFY_MD5] = { "md5", 2, 16, 16 },
	[VERIFY_CRC64] = { "crc64", 3, 8, 8 },
	[VERIFY_CRC32] = { "crc32", 4, 4, 4 },
	[VERIFY_CRC32C] = { "crc32c", 5, 4, 4 },
	[VERIFY_CRC16] = { "crc16", 7, 2, 2 },
	[VERIFY_CRC7] = { "crc7", 8, 1, 1 },
	[VERIFY_SHA256] = { "sha256", 9, 64, 64 },
	[VERIFY_SHA512] = { "sha512", 10, 128, 128 },
	[VERIFY_SHA3_224] = { "sha3-224", 11, 28, 28 },
	[VERIFY_SHA3_256] = { "sha3-256", 12, 32, 32 },
	[VERIFY_SHA3_384] = { "sha3-384", 13, 48, 48 },
	[VERIFY_SHA3_512] = { "sha3-512", 14, 64, 64 },
	[VERIFY_XXHASH] = { "xxhash", 15, 4, 4 },
	[VERIFY_SHA1] = { "sha1", 16, 20, 20 },
	[VERIFY_PATTERN] = { "pattern", 18, 0, 0 },
	[VERIFY_NULL] = { "null", 19, 0, 0 },
};

uint32_t vhdr_size(enum job_verify v)
{
	if (v == VERIFY_PATTERN || v == VERIFY_NULL || v == VERIFY_NONE)
		return 0;
	return VHDR_BASE + vtypes[v].room;
}

/*
 * crc32, crc16, crc7 and crc64 as fio computes them: POSIX's non-reflected crc32 from zero
 * without the length or a final inversion, Linux's crc16 and crc7, and the Jones crc64 from
 * zero without a final inversion. No Debian library offers these variants (zlib's crc32 is
 * the reflected one), so their tables are derived here from the polynomials at first use.
 */
static uint32_t crc32_tab[256];
static uint16_t crc16_tab[256];
static uint8_t crc7_tab[256];
static uint64_t crc64_tab[256];
static pthread_once_t tabs_once = PTHREAD_ONCE_INIT;

static void tabs_init(void)
{
	unsigned i, j;

	for (i = 0; i < 256; i++) {
		uint16_t c16 = (uint16_t)i;
		uint64_t c64 = i;
		uint8_t c7 = (uint8_t)i;
		uint32_t c32 = (uint32_t)i << 24;

		for (j = 0; j < 8; j++) {
			c16 = (uint16_t)(c16 & 1 ? (c16 >> 1) ^ 0xa001u : c16 >> 1);
			c64 = c64 & 1 ? (c64 >> 1) ^ 0x95ac9329ac4bc9b5ull : c64 >> 1;
			c32 = c32 & 0x80000000u ? (c32 << 1) ^ 0x04c11db7u : c32 << 1;
			c7 = (uint8_t)(c7 & 0x80 ? (unsigned)(c7 << 1) ^ 0x12u : (unsigned)(c7 << 1));
		}
		crc32_tab[i] = c32;
		crc16_tab[i] = c16;
		crc64_tab[i] = c64;
		crc7_tab[i] = (uint8_t)(c7 >> 1);
	}
}

static uint32_t crc32(const unsigned char *p, size_t len)
{
	uint32_t c = 0;

	while (len--)
		c = (c << 8) ^ crc32_tab[((c >> 24) ^ *p++) & 0xff];
	return c;
}

static uint16_t crc16(const unsigned char *p, size_t len)
{
	uint16_t c = 0;

	while (len--)
		c = (uint16_t)((c >> 8) ^ crc16_tab[(c ^ *p++) & 0xff]);
	return c;
}

static uint8_t crc7(const unsigned char *p, size_t len)
{
	uint8_t c = 0;

	while (len--)
		c = crc7_tab[(uint8_t)(c << 1) ^ *p++];
	return c;
}

static uint64_t crc64(const unsigned char *p, size_t len)
{
	uint64_t c = 0;

	while (len--)
		c = crc64_tab[(c ^ *p++) & 0xff] ^ (c >> 8);
	return c;
}

/* fio's crc32c: Castagnoli from an all-ones start, without the final inversion. */
static uint32_t fio_crc32c(const void *p, size_t len)
{
	return ~crc32c(0, p, len);
}

static const EVP_MD *evp_of(enum job_verify v)
{
	switch (v) {
	case VERIFY_MD5: return EVP_md5();
	case VERIFY_SHA1: return EVP_sha1();
	case VERIFY_SHA3_224: return EVP_sha3_224();
	case VERIFY_SHA3_256: return EVP_sha3_256();
	case VERIFY_SHA3_384: return EVP_sha3_384();
	case VERIFY_SHA3_512: return EVP_sha3_512();
	default: return NULL;
	}
}

/*
 * fio's "sha256" (fio 3.33 and on, as its files hold it): SHA-256's compression over the data
 * padded with the bit length little-endian, and stored as fio's context buffer holds it at the
 * end: the last padded block, its first 8 bytes the low bytes of the 8 state words.
 */
static void fio_sha256(const unsigned char *p, size_t len, unsigned char out[64])
{
	static const unsigned char pad[64] = { 0x80 };
	uint64_t bits = (uint64_t)len << 3;
	size_t r = len % 64, padn = r < 56 ? 56 - r : 120 - r;
	SHA256_CTX c;
	unsigned i;

	SHA256_Init(&c);
	SHA256_Update(&c, p, len);
	SHA256_Update(&c, pad, padn);
	SHA256_Update(&c, &bits, sizeof(bits));
	/* the last block: the data's tail (if it fits before the length), padding, the length */
	memset(out, 0, 64);
	if (r < 56)
		memcpy(out, p + len - r, r);
	out[r < 56 ? r : 64] = 0x80;
	memcpy(out + 56, &bits, sizeof(bits));
	for (i = 0; i < 8; i++)
		out[i] = (unsigned char)c.h[i];
}

/*
 * fio 3.33's "sha512": its context buffer after the data went in, without the final step:
 * the first 128 bytes of the data with the tail (len % 128 bytes) over their start. fio
 * compares those 128 bytes; no digest is stored.
 */
static void fio_sha512(const unsigned char *p, size_t len, unsigned char out[128])
{
	size_t r = len % 128;

	memset(out, 0, 128);
	memcpy(out, p, len < 128 ? len : 128);
	if (len >= 128)
		memcpy(out, p + len - r, r);
}

/* The checksum of [p, p + len) for type v, in the layout fio stores, into out (room bytes). */
static int checksum(enum job_verify v, const unsigned char *p, size_t len, unsigned char *out)
{
	const EVP_MD *md = evp_of(v);
	uint64_t c64;
	uint32_t c32, w;
	uint16_t c16;
	unsigned n, i;

	memset(out, 0, vtypes[v].room);
	if (md) {
		if (EVP_Digest(p, len, out, &n, md, NULL) != 1)
			return -EIO;
		/* fio keeps sha1's five words in host order */
		for (i = 0; v == VERIFY_SHA1 && i < 5; i++) {
			memcpy(&w, out + 4 * i, 4);
			w = __builtin_bswap32(w);
			memcpy(out + 4 * i, &w, 4);
		}
		return 0;
	}
	pthread_once(&tabs_once, tabs_init);
	switch (v) {
	case VERIFY_SHA256:
		fio_sha256(p, len, out);
		break;
	case VERIFY_SHA512:
		fio_sha512(p, len, out);
		break;
	case VERIFY_CRC64:
		c64 = crc64(p, len);
		memcpy(out, &c64, 8);
		break;
	case VERIFY_CRC32:
		c32 = crc32(p, len);
		memcpy(out, &c32, 4);
		break;
	case VERIFY_CRC32C:
		c32 = fio_crc32c(p, len);
		memcpy(out, &c32, 4);
		break;
	case VERIFY_CRC16:
		c16 = crc16(p, len);
		memcpy(out, &c16, 2);
		break;
	case VERIFY_CRC7:
		out[0] = crc7(p, len);
		break;
	case VERIFY_XXHASH:
		c32 = XXH32(p, len, 1);
		memcpy(out, &c32, 4);
		break;
	default:
		break;
	}
	return 0;
}

/* fio's verify_offset: the header sits that far into the unit, swapped with what was there. */
static void swap_header(unsigned char *u, uint32_t at, uint32_t n)
{
	unsigned char tmp[VHDR_MAX];

	memcpy(tmp, u, n);
	memmove(u, u + at, n);
	memcpy(u + at, tmp, n);
}

void verify_stamp(const struct job_spec *job, void *buf, uint64_t offset, uint32_t len,
		  uint32_t unit, uint64_t seq, unsigned thread)
{
	enum job_verify v = job->verify.kind;
	uint32_t hs = vhdr_size(v), done;
	unsigned char *p = buf;
	struct fio_vhdr h;

	if (!hs)
		return;
	for (done = 0; done + unit <= len; done += unit) {
		unsigned char *u = p + done;

		memset(&h, 0, sizeof(h));
		h.magic = VHDR_MAGIC;
		h.verify_type = vtypes[v].fio_type;
		h.len = unit;
		h.rand_seed = seq;
		h.offset = offset + done;
		h.thread = (uint16_t)thread;
		h.numberio = (uint16_t)seq;
		h.crc32 = fio_crc32c(&h, offsetof(struct fio_vhdr, crc32));
		memcpy(u, &h, sizeof(h));
		if (vtypes[v].room)
			(void)checksum(v, u + hs, unit - hs, u + VHDR_BASE);
		if (job->verify.offset)
			swap_header(u, job->verify.offset, hs);
	}
}

/*
 * The pattern over [i, end) of a unit, where i counts from the start of the request, which is
 * at req_off in its file: with %o formats, the pattern holds that offset (fio's
 * verify_io_u_pattern pastes the reading I/O's offset).
 */
static int check_pattern(const struct job_spec *job, const unsigned char *p, uint32_t from,
			 uint32_t to, uint32_t unit_start, uint64_t req_off, char *why,
			 unsigned why_len)
{
	const unsigned char *pat = job->verify.pattern;
	unsigned char pasted[PATTERN_MAX];
	uint32_t i;

	if (job->verify.fmt_nr) {
		verify_pattern_at(job, req_off, pasted);
		pat = pasted;
	}
	for (i = from; i < to; i++) {
		unsigned char want = pat[i % job->verify.pattern_len];

		if (p[i] == want)
			continue;
		snprintf(why, why_len, "byte %u: %02x where verify_pattern has %02x",
			 i - unit_start, p[i], want);
		return -EILSEQ;
	}
	return 0;
}

static void hex(char *out, size_t len, const unsigned char *p, unsigned n)
{
	size_t at = 0;
	unsigned i;

	out[0] = 0;
	for (i = 0; i < n && at + 3 <= len; i++)
		at += (size_t)snprintf(out + at, len - at, "%02x", p[i]);
}

static int check_unit(const struct job_spec *job, unsigned char *u, uint64_t off, uint32_t unit,
		      uint32_t start, const unsigned char *req, int numberio, char *why,
		      unsigned why_len)
{
	enum job_verify v = job->verify.kind;
	uint32_t hs = vhdr_size(v);
	unsigned char sum[VHDR_MAX - VHDR_BASE];
	char want[2 * 128 + 1], got[2 * 128 + 1];
	struct fio_vhdr h;
	uint32_t crc;

	if (v == VERIFY_PATTERN)
		return check_pattern(job, req, start, start + unit, start, off - start, why, why_len);
	if (job->verify.offset)
		swap_header(u, job->verify.offset, hs);
	memcpy(&h, u, sizeof(h));
	if (h.magic != VHDR_MAGIC) {
		snprintf(why, why_len, "bad magic header %x, wanted %x (data not written with verify)",
			 h.magic, VHDR_MAGIC);
		return -EILSEQ;
	}
	if (h.len != unit) {
		snprintf(why, why_len, "bad header length %u, wanted %u (verify_interval differs)",
			 h.len, unit);
		return -EILSEQ;
	}
	if (h.offset != off) {
		snprintf(why, why_len, "bad header offset %llu: block holds data written for offset %llu",
			 (unsigned long long)h.offset, (unsigned long long)h.offset);
		return -EILSEQ;
	}
	/* fio's order: the write number after the offset, before the header's crc */
	if (numberio >= 0 && h.numberio != (uint16_t)numberio) {
		snprintf(why, why_len, "bad header numberio %u, wanted %u", h.numberio,
			 (unsigned)numberio);
		return -EILSEQ;
	}
	crc = fio_crc32c(&h, offsetof(struct fio_vhdr, crc32));
	if (crc != h.crc32) {
		snprintf(why, why_len, "bad header crc %08x, calculated %08x", h.crc32, crc);
		return -EILSEQ;
	}
	if (v == VERIFY_META)
		return job->verify.pattern_len ?
		       check_pattern(job, req, start + hs, start + unit, start, off - start, why,
				     why_len) : 0;
	if (checksum(v, u + hs, unit - hs, sum))
		return -EIO;
	if (!memcmp(sum, u + VHDR_BASE, vtypes[v].digest))
		return 0;
	hex(want, sizeof(want), u + VHDR_BASE, vtypes[v].digest);
	hex(got, sizeof(got), sum, vtypes[v].digest);
	if (h.verify_type != vtypes[v].fio_type)
		snprintf(why, why_len, "%s mismatch (stored %s, computed %s; the block was written with fio verify type %u)",
			 vtypes[v].name, want, got, h.verify_type);
	else
		snprintf(why, why_len, "%s mismatch (stored %s, computed %s)", vtypes[v].name, want,
			 got);
	return -EILSEQ;
}

int verify_check_job(const struct job_spec *job, void *buf, uint64_t offset, uint32_t len,
		     uint32_t unit, int numberio, uint64_t *bad_off, char *why, unsigned why_len)
{
	unsigned char *p = buf;
	uint32_t done;
	int ret;

	if (job->verify.kind == VERIFY_NONE || job->verify.kind == VERIFY_NULL)
		return 0;
	for (done = 0; done + unit <= len; done += unit) {
		ret = check_unit(job, p + done, offset + done, unit, done, p, numberio, why,
				 why_len);
		if (ret) {
			*bad_off = offset + done;
			return ret;
		}
	}
	return 0;
}

int verify_fits(const struct job_spec *job, uint32_t unit, struct iop_err *err)
{
	uint32_t hs = vhdr_size(job->verify.kind);
	const char *name = vtypes[job->verify.kind].name;

	if (hs && unit <= hs)
		return iop_errf(err, -EINVAL, "job %s: verify=%s needs verify units (bs, verify_interval) over its %u-byte header; they are %u bytes",
				job->name, name, hs, unit);
	if (job->verify.offset && (job->verify.offset < hs || job->verify.offset + hs > unit))
		return iop_errf(err, -EINVAL, "job %s: verify_offset=%u must be from %u (the verify=%s header's size) to %u (the unit less the header)",
				job->name, job->verify.offset, hs, name, unit - hs);
	if (job->verify.kind == VERIFY_PATTERN && !job->verify.pattern_len)
		return iop_errf(err, -EINVAL, "job %s: verify=pattern needs verify_pattern=", job->name);
	return 0;
}
