/* h.c — calls whose type says little: through a member whose type clang
 * cannot form (its header is missing) and through an unprototyped
 * pointer. A call still passes its arguments, so only functions taking
 * that many fit (C11 6.5.2.2), under C's rule as C11 6.7.6.3p15 has it. */
#include "hooks_gen.h"   /* missing: would declare gen_fn */

struct hooks { gen_fn alloc; };

static int a3(struct hooks *h, long n, int f) { return h && n && f; }
static int a2(struct hooks *h, long n) { return h && n; }
static int two(int a, int b) { return a + b; }
static int one(int a) { return a; }
static int spread(int a, ...) { return a; }
static int narrow(short a, short b) { return a + b; }

int use(struct hooks *h)
{
	(void)a3, (void)a2, (void)two, (void)one, (void)spread, (void)narrow;
	return h->alloc(h, 1, 2);   /* -> unresolved a3@h.c:T spread@h.c:T */
}

int call_unproto(int (*f)(), int x)
{
	return f(x, 1);             /* -> unresolved a2@h.c:T two@h.c:T */
	/* ir -> unresolved a2@h.c:T two@h.c:T narrow@h.c:T */
}
