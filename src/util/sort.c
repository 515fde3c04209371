/* sort.c — LSD radix sort of 32-bit keys, a byte per pass (see sort.h). */
#include "util/sort.h"

#include <string.h>

/* Below this, insertion sort: the passes' counting costs more. */
#define SMALL 48

static void insertion_sort(uint32_t *v, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		uint32_t x = v[i];
		size_t j = i;
		for (; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

void u32_sort(uint32_t *v, size_t n, uint32_t *tmp)
{
	if (n < SMALL) {
		insertion_sort(v, n);
		return;
	}
	size_t count[4][256];
	memset(count, 0, sizeof count);
	for (size_t i = 0; i < n; i++)
		for (int d = 0; d < 4; d++)
			count[d][(v[i] >> (8 * d)) & 0xff]++;
	uint32_t *src = v, *dst = tmp;
	for (int d = 0; d < 4; d++) {
		size_t *c = count[d];
		/* A byte every key shares leaves the order as it is. */
		if (c[(src[0] >> (8 * d)) & 0xff] == n)
			continue;
		size_t sum = 0;
		for (int b = 0; b < 256; b++) {
			size_t k = c[b];
			c[b] = sum;
			sum += k;
		}
		for (size_t i = 0; i < n; i++)
			dst[c[(src[i] >> (8 * d)) & 0xff]++] = src[i];
		uint32_t *t = src;
		src = dst;
		dst = t;
	}
	if (src != v)
		memcpy(v, src, n * sizeof *v);
}
