/* inlining.c — a static inline helper that gets inlined at -O2.
 * checked_add() is called from two functions and itself calls
 * warn_overflow(), a second static inline helper that calls fprintf; at -O2
 * the fprintf call lands in sum_all() and in add_scaled() with an inlining
 * chain warn_overflow <- checked_add <- caller.
 *
 * Usage: inlining [N...]   (sums the numbers, then adds each one divided by 2) */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

static long overflows;

static inline void warn_overflow(const char *where, int a, int b)
{
	overflows++;
	fprintf(stderr, "%s: %d + %d overflows\n", where, a, b); /* @call fprintf */
}

static inline int checked_add(const char *where, int a, int b)
{
	int r;
	if (__builtin_add_overflow(a, b, &r)) { /* @call(O0) llvm.sadd.with.overflow*=__builtin_add_overflow */
		warn_overflow(where, a, b); /* @inline-call warn_overflow */
		return b > 0 ? INT_MAX : INT_MIN;
	}
	return r;
}

int sum_all(const int *v, int n)
{
	int s = 0;
	for (int i = 0; i < n; i++)
		s = checked_add("sum_all", s, v[i]); /* @inline-call checked_add */
	return s;
}

int add_scaled(int acc, int x, int scale)
{
	return checked_add("add_scaled", acc, x / scale); /* @inline-call checked_add */
}

int main(int argc, char **argv)
{
	int v[16] = {INT_MAX - 5, 3, 4};
	int n = 3;

	if (argc > 1) {
		n = 0;
		for (int i = 1; i < argc && n < 16; i++)
			v[n++] = atoi(argv[i]); /* @inline-call atoi */
	}
	int s = sum_all(v, n); /* @inline-call sum_all */
	int acc = 0;
	for (int i = 0; i < n; i++)
		acc = add_scaled(acc, v[i], 2); /* @inline-call add_scaled */
	printf("sum %d, scaled %d, %ld overflow(s)\n", s, acc, overflows); /* @call printf */
	return 0;
}
