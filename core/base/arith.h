/* Small integer arithmetic that more than one layer needs. */
#ifndef IOPATH_ARITH_H
#define IOPATH_ARITH_H

#include <stdint.h>

/* The greatest common divisor of a and b (Euclid's); gcd(a, 0) is a. */
static inline uint64_t iop_gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

#endif
