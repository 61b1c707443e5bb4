/* Buffer contents: random, zero or compressible fills, patterns, and crc32c. */
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

/* A block of len bytes filled with the job's verify_pattern, from its start. */
/*
 * verify_pattern over buf, repeated; with %o formats, the pattern of an I/O at offset (fio's
 * paste_format: the offset pasted into the pattern, then the pattern repeated).
 */
void verify_pattern_fill(const struct job_spec *job, void *buf, uint32_t len, uint64_t offset);
/* The pattern of an I/O at offset into out (PATTERN_MAX bytes): %o formats filled in. */
void verify_pattern_at(const struct job_spec *job, uint64_t offset, unsigned char *out);

#endif
