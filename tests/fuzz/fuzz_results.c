/*
 * libFuzzer harness: a result file through the loader `iopath compare` and `history` use
 * (iopath results of any schema, a plain iopath JSON run, fio's JSON with its notes).
 */
#include <stdint.h>
#include <stddef.h>

#include "results/results.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct results r;
	struct iop_err err;

	if (!results_parse((const char *)data, size, "fuzz.json", &r, &err))
		results_free(&r);
	return 0;
}
