/* fio's on-disk verify format: the header of every verify unit and the checksums of verify=. */
#ifndef IOPATH_VHDR_H
#define IOPATH_VHDR_H

#include <stdint.h>

#include "base/err.h"
#include "iopath/job.h"

#define VHDR_MAGIC 0xaccau	/* fio's FIO_HDR_MAGIC */
#define VHDR_BASE 40u		/* sizeof fio's struct verify_header */
#define VHDR_MAX (VHDR_BASE + 128u)	/* the largest header: sha512's */

/* Bytes a unit's header and checksum take (0: verify=pattern, null, none: no header). */
uint32_t vhdr_size(enum job_verify v);

/*
 * Stamp every unit bytes of a block written at offset with fio's header and the checksum of
 * job->verify.kind over the rest of the unit (after any verify_pattern fill), the header moved
 * verify_offset bytes in when the job says so. seq is the write's number (fio's numberio: the
 * worker's writes counted from 0), thread the worker's.
 */
void verify_stamp(const struct job_spec *job, void *buf, uint64_t offset, uint32_t len,
		  uint32_t unit, uint64_t seq, unsigned thread);

/*
 * Check a block read from offset as fio does: magic, unit length, offset, the write number
 * (numberio >= 0: every header must carry it, fio's verify_write_sequence) and header crc,
 * then the checksum (verify=meta: a verify_pattern instead, if any; verify=pattern: the
 * pattern only). Returns 0, or -EILSEQ with *bad_off at the first bad unit and why filled
 * in. The buffer is changed where verify_offset moved headers back.
 */
int verify_check_job(const struct job_spec *job, void *buf, uint64_t offset, uint32_t len,
		     uint32_t unit, int numberio, uint64_t *bad_off, char *why, unsigned why_len);

/*
 * Can job->verify.kind stamp units of unit bytes: room past its header, a verify_offset that keeps
 * the header inside, a pattern for verify=pattern? 0, or -EINVAL with err saying why.
 */
int verify_fits(const struct job_spec *job, uint32_t unit, struct iop_err *err);

#endif
