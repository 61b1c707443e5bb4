/* Buffer contents: random, zero or compressible fills, and crc32c-verified blocks. */
#ifndef IOPATH_BUFFER_H
#define IOPATH_BUFFER_H

#include <stdbool.h>
#include <stdint.h>

#include "io/gen.h"
#include "iopath/job.h"

uint32_t crc32c(uint32_t crc, const void *buf, uint64_t len);

/* Fill a buffer as the job's zero_buffers / buffer_pattern / buffer_compress_percentage ask. */
void buf_fill(const struct job_spec *job, struct rng *r, void *buf, uint64_t len);

/*
 * scramble_buffers (fio's default): stamp the offset and a write sequence number into every
 * 512 bytes, so that no two written blocks are the same and naive dedupe finds nothing.
 */
void buf_scramble(void *buf, uint32_t len, uint64_t offset, uint64_t seq);

/*
 * Verified blocks: every unit bytes of a written request start with a header naming its
 * offset and carrying a crc32c of the unit, so a read can tell corrupt, misplaced and
 * foreign data apart.
 */
#define VERIFY_MAGIC 0x56504f49u	/* "IOPV" */
#define VERIFY_HDR 32u

void verify_stamp(void *buf, uint64_t offset, uint32_t len, uint32_t unit, uint64_t seq);

/*
 * Check a block read from offset. Returns 0 when every unit is good, else -EILSEQ with
 * *bad_off set to the offset of the first bad unit and why filled in.
 */
int verify_check(const void *buf, uint64_t offset, uint32_t len, uint32_t unit,
		 uint64_t *bad_off, char *why, unsigned why_len);

/*
 * verify_check as the job asks: verify=meta checks the headers only; a verify_pattern must
 * fill the rest of every unit (byte i of a block being pattern[i % len]).
 */
int verify_check_job(const struct job_spec *job, const void *buf, uint64_t offset,
		     uint32_t len, uint32_t unit, uint64_t *bad_off, char *why, unsigned why_len);

/* A block of len bytes filled with the job's verify_pattern, from its start. */
void verify_pattern_fill(const struct job_spec *job, void *buf, uint32_t len);

#endif
