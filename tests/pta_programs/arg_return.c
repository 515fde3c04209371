/* arg_return.c — predicates chosen by name, passed to a counting loop,
 * passed through a logging helper that returns its argument, and returned
 * inside a small struct by value (two pointers: returned in registers, so
 * the IR carries the pair as an aggregate { ptr, ptr }).
 *
 * Covers: a function pointer passed as an argument and returned from a
 * function; context insensitivity (logged() returns every predicate it is
 * ever given, so a and b both see is_even and is_prime); a struct of two
 * function pointers returned by value (test and report differ in IR type,
 * so their R0 sets do not depend on how the pair is tracked). */
#include <stdio.h>
#include <string.h>
#include "observe.h"

typedef int (*pred_fn)(int v);

static int is_even(int v)
{
	OBSERVE_TARGET();
	return v % 2 == 0;
}

static int is_odd(int v)
{
	OBSERVE_TARGET();
	return v % 2 != 0;
}

static int is_prime(int v)
{
	OBSERVE_TARGET();
	if (v < 2)
		return 0;
	for (int d = 2; d * d <= v; d++)
		if (v % d == 0)
			return 0;
	return 1;
}

static int is_square(int v)
{
	OBSERVE_TARGET();
	int r = 0;
	while (r * r < v)
		r++;
	return r * r == v;
}

static void report_quiet(int hits, int total)
{
	OBSERVE_TARGET();
	(void)hits, (void)total;
}

static void report_loud(int hits, int total)
{
	OBSERVE_TARGET();
	printf("%d of %d\n", hits, total);
}

static pred_fn choose_pred(const char *name)
{
	if (strcmp(name, "even") == 0)
		return is_even;
	if (strcmp(name, "odd") == 0)
		return is_odd;
	return is_prime;
}

static int count_if(const int *v, int n, pred_fn pred)
{
	int hits = 0;
	for (int i = 0; i < n; i++)
		hits += ICALL(pred(v[i])) != 0; /* @r0: is_even is_odd is_prime is_square */
	return hits;
}

static int nlogged;

static pred_fn logged(pred_fn p)
{
	nlogged++;
	return p;
}

struct checker {
	int (*test)(int v);
	void (*report)(int hits, int total);
};

static struct checker make_checker(int strict)
{
	struct checker c;
	c.test = strict ? is_prime : is_odd;
	c.report = strict ? report_loud : report_quiet;
	return c;
}

int values[] = {2, 3, 4, 9, 10, 11, 16, 21};

int main(int argc, char **argv)
{
	const int n = sizeof values / sizeof values[0];
	const char *names[] = {"even", "odd", "prime"};
	int total = 0;

	(void)argv;
	for (int i = 0; i < 3; i++)
		total += count_if(values, n, choose_pred(names[i]));
	total += count_if(values, n, is_square);

	pred_fn a = logged(is_even);
	pred_fn b = logged(is_prime);
	total += ICALL(a(values[0])); /* @r0: is_even is_prime */
	total += ICALL(b(values[1])); /* @r0: is_even is_prime */

	struct checker ck = make_checker(argc < 2);
	int hits = 0;
	for (int i = 0; i < n; i++)
		hits += ICALL(ck.test(values[i])); /* @r0: is_odd is_prime */
	ICALL(ck.report(hits, n)); /* @r0: report_loud report_quiet */
	printf("total %d, %d logged\n", total, nlogged);
	return 0;
}
