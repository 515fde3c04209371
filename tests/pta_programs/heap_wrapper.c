/* heap_wrapper.c — timers on the heap, each with its own fire callback.
 * One timer comes from malloc, two from the allocation wrapper xmalloc
 * (called at two places), two from timer_new (one xmalloc call inside it,
 * and the callback stored there).
 *
 * Covers: heap objects from malloc and from an allocation wrapper.  Each
 * call site of a wrapper is its own allocation site, so b and c are two
 * objects and their sites are exact.  timer_new stores its argument into
 * whatever it allocates, so d and e both hold {buzz, chime} whether or not
 * timer_new is itself taken as a wrapper. */
#include <stdio.h>
#include <stdlib.h>
#include "observe.h"

struct timer {
	int due;
	void (*fire)(struct timer *t);
	const char *name;
};

static void *xmalloc(size_t n)
{
	void *p = malloc(n);
	if (!p)
		abort();
	return p;
}

static int fired;

static void beep(struct timer *t)
{
	OBSERVE_TARGET();
	fired += t->due;
}

static void tick(struct timer *t)
{
	OBSERVE_TARGET();
	fired += 2 * t->due;
}

static void tock(struct timer *t)
{
	OBSERVE_TARGET();
	fired += 3 * t->due;
}

static void chime(struct timer *t)
{
	OBSERVE_TARGET();
	printf("chime at %d\n", t->due);
}

static void buzz(struct timer *t)
{
	OBSERVE_TARGET();
	printf("buzz at %d\n", t->due);
}

static struct timer *timer_new(int due, void (*fire)(struct timer *), const char *name)
{
	struct timer *t = xmalloc(sizeof *t);
	t->due = due;
	t->fire = fire;
	t->name = name;
	return t;
}

int main(void)
{
	struct timer *a = malloc(sizeof *a);
	if (!a)
		return 1;
	a->due = 1, a->fire = beep, a->name = "a";
	struct timer *b = xmalloc(sizeof *b);
	b->due = 2, b->fire = tick, b->name = "b";
	struct timer *c = xmalloc(sizeof *c);
	c->due = 3, c->fire = tock, c->name = "c";
	struct timer *d = timer_new(4, chime, "d");
	struct timer *e = timer_new(5, buzz, "e");

	ICALL(a->fire(a)); /* @r0: beep */
	ICALL(b->fire(b)); /* @r0: tick */
	ICALL(c->fire(c)); /* @r0: tock */
	ICALL(d->fire(d)); /* @r0: buzz chime */

	struct timer *wheel[] = {e, c, b, a};
	for (int i = 0; i < 4; i++)
		ICALL(wheel[i]->fire(wheel[i])); /* @r0: beep buzz chime tick tock */
	printf("fired %d\n", fired);
	free(a), free(b), free(c), free(d), free(e);
	return 0;
}
