/* arith.h — integer arithmetic the analysis shares: the greatest common
 * divisor, with which ingest reads an array's element size from a gep's
 * strides and the solver folds heap memory by the strides it sees. */
#ifndef FACET_UTIL_ARITH_H
#define FACET_UTIL_ARITH_H

#include <stdint.h>

/* gcd(a, 0) = a, so a gcd folded over strides may start from 0. */
static inline uint64_t u64_gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

#endif
