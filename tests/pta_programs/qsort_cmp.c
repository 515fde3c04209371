/* qsort_cmp.c — a staff list sorted with qsort(3) twice, by name and by
 * age, each time checked with is_sorted() through the same comparator
 * pointer; both comparators break ties through a global tie_break pointer.
 *
 * Covers: qsort with two comparators.  The comparators are called by libc,
 * which no site of ours sees; the sites are is_sorted()'s call (both
 * comparators: is_sorted is called with each) and the tie-break calls
 * inside the comparators, which run only because qsort calls the
 * comparators — an analysis must treat them as reachable to fill them.
 * by_id has the comparators' IR type, i32 (ptr, ptr), but reaches only the
 * tie-break sites. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "observe.h"

struct employee {
	char name[12];
	int age;
	int id;
};

typedef int (*cmp_fn)(const void *a, const void *b);

static cmp_fn tie_break;

static int by_id(const void *a, const void *b)
{
	OBSERVE_TARGET();
	const struct employee *x = a, *y = b;
	return (x->id > y->id) - (x->id < y->id);
}

static int by_name(const void *a, const void *b)
{
	OBSERVE_TARGET();
	const struct employee *x = a, *y = b;
	int c = strcmp(x->name, y->name);
	if (c == 0 && tie_break)
		c = ICALL(tie_break(a, b)); /* @r0: by_id */
	return c;
}

static int by_age(const void *a, const void *b)
{
	OBSERVE_TARGET();
	const struct employee *x = a, *y = b;
	int c = (x->age > y->age) - (x->age < y->age);
	if (c == 0 && tie_break)
		c = ICALL(tie_break(a, b)); /* @r0: by_id */
	return c;
}

static int is_sorted(const void *base, size_t n, size_t size, cmp_fn cmp)
{
	const char *p = base;
	for (size_t i = 1; i < n; i++)
		if (ICALL(cmp(p + (i - 1) * size, p + i * size)) > 0) /* @r0: by_age by_name */
			return 0;
	return 1;
}

struct employee staff[] = {
	{"mira", 41, 7}, {"ola", 29, 3}, {"jan", 41, 5}, {"ola", 35, 1}, {"eve", 29, 9}, {"jan", 52, 2},
};

int main(void)
{
	const size_t n = sizeof staff / sizeof staff[0];
	cmp_fn order = by_name;

	tie_break = by_id;
	qsort(staff, n, sizeof staff[0], order);
	int ok = is_sorted(staff, n, sizeof staff[0], order);
	printf("by name: %s ... %s (%s)\n", staff[0].name, staff[n - 1].name, ok ? "ok" : "BAD");

	order = by_age;
	qsort(staff, n, sizeof staff[0], order);
	ok = is_sorted(staff, n, sizeof staff[0], order);
	printf("by age: %d ... %d (%s)\n", staff[0].age, staff[n - 1].age, ok ? "ok" : "BAD");
	return 0;
}
