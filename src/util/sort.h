/* sort.h — sorting arrays of 32-bit keys without a comparison call.
 *
 * qsort's merge sort calls its comparator through a pointer per step and
 * allocates its buffer per call; the solver sorts the locations a gep or an
 * index gives on every propagation (3% of dovecot's build), where a radix
 * sort is a few linear passes. */
#ifndef FACET_UTIL_SORT_H
#define FACET_UTIL_SORT_H

#include <stddef.h>
#include <stdint.h>

/* v[0..n) ascending; tmp holds n elements (scratch). */
void u32_sort(uint32_t *v, size_t n, uint32_t *tmp);

#endif
