/*
 * libFuzzer harness: a result file through the loader `iopath compare` and `history` use
 * (iopath results of any schema, a plain iopath JSON run, fio's JSON).
 */
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "results.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct results r;
	struct iop_err err;
	char path[64];
	int fd = memfd_create("fuzz-result", MFD_CLOEXEC);

	if (fd < 0)
		return 0;
	if (write(fd, data, size) == (ssize_t)size) {
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		if (!results_load(path, &r, &err))
			results_free(&r);
	}
	close(fd);
	return 0;
}
