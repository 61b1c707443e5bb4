/* What a loaded result is, by its content: one run given twice is told from two runs. */
#ifndef IOPATH_RUNID_H
#define IOPATH_RUNID_H

#include <stdint.h>

#include "results/results.h"

/*
 * A fingerprint of the run r holds: its start time and every cell's identity and samples
 * (the full job objects, keys sorted), hashed with XXH64. The same run read from a file,
 * from a copy of it, through a link or from the database gives the same value; two runs
 * (other samples, another time) do not.
 */
uint64_t results_fingerprint(const struct results *r);

#endif
