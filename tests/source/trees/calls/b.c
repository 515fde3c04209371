/* b.c — its own static helper, the external shared, a registration. */
#include "ops.h"

static int helper(int x) { return x * 2; }
int shared(int x) { return helper(x); }        /* -> helper@b.c */
static void ping(int x) { (void)x; }
void log_line(const char *s) { (void)s; }

void reg(struct conn *c, void (*cb)(int))
{
	c->on_event = cb;
	cb(0);                                     /* -> ping@b.c:S */
}

typedef void (*getter_t)(int);
getter_t get(void);

void setup(struct conn *c)
{
	reg(c, ping);                              /* -> reg@b.c */
	c->on_event(7);                            /* -> ping@b.c:S tick@a.c:S !wrong@a.c */
	get()(1);                                  /* -> get unresolved alt@a.c:T boom@a.c:T ping@b.c:T tick@a.c:T */
}
