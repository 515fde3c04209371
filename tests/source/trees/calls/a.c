/* a.c — same-file static vs external, a libc call, macros, ops tables. */
#include "ops.h"
#include <stdio.h>

static int helper(int x) { return x + 1; }
static int rd(struct conn *c, int n) { (void)c; return n; }
static int wr(struct conn *c, int n) { (void)c; return -n; }
static void cl(struct conn *c) { (void)c; }
static int rd2(struct conn *c, int n) { (void)c; return n * 2; }
static void tick(int x) { (void)x; }
static void boom(int x) { (void)x; }
static void alt(int x) { (void)x; }
static long wrong(long x) { return x; }

const struct ops designated = { .write = wr, .read = rd, .close = cl };
const struct ops positional = { rd2, wr };
struct outer nested = { 1, { .fire = tick } };
struct outer list[] = { { 2, { boom } }, { .in.fire = tick } };

int use_table(struct conn *c)
{
	int r = helper(1);                         /* -> helper@a.c */
	r += shared(2);                            /* -> shared@b.c */
	r += c->ops->read(c, 3);                   /* -> rd@a.c:W rd2@a.c:W */
	r += c->ops->write(c, 4);                  /* -> wr@a.c:W */
	CLOSE(c);                                  /* -> cl@a.c:W */
	LOG("x");                                  /* -> log_line@b.c */
	printf("%d\n", r);                         /* -> printf */
	nested.in.fire(5);                         /* -> tick@a.c:W boom@a.c:W */
	list[0].in.fire(6);                        /* -> tick@a.c:W boom@a.c:W */
	return r + dup(1);                         /* -> ambiguous dup@c.c dup@d.c */
}

void runtime(struct conn *c)
{
	c->on_event = tick;
	c->as_int = alt;
	c->on_event = (void (*)(int))wrong;
	c->on_event(1);                            /* -> tick@a.c:S ping@b.c:S !wrong@a.c */
	c->as_other(2);                            /* -> alt@a.c:S */
	c->never();                                /* -> unresolved */
	void (*local)(int) = c ? boom : alt;
	local(3);                                  /* -> boom@a.c:W alt@a.c:W */
}
