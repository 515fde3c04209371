/* variadic_prototype.c — a logger hook whose type is a variadic prototype,
 * called with no variadic argument (libxml2's `(*__xmlGenericError())(ctx,
 * msg)`), beside a hash hook declared without a prototype.
 *
 * Both calls lower to a variadic IR call type whose fixed parameters are
 * the arguments passed (void (ptr, ptr, ...) and i32 (ptr, ...)), so the
 * type filter's exception for unprototyped calls (a non-variadic function
 * taking exactly the passed arguments fits) cannot tell them apart by the
 * IR alone. The debug info can: the hook read is declared with a prototype
 * naming its parameters and `...`, so only variadic functions of the call's
 * type fit it (err_print); plain_two, stored into the same hook through a
 * cast and so in its points-to set, is left out. The unprototyped hash
 * keeps str_hash, which takes exactly the argument passed (its table is
 * external, so -O2 keeps the call indirect). The hook is read through
 * the pointer a function returns (at -O0; at -O2 get_handler is inlined
 * and the read is a phi of the global's load and the stored function) and
 * through the global itself. */
#include <stdio.h>
#include "observe.h"

#pragma clang diagnostic ignored "-Wdeprecated-non-prototype"   /* the hash hook is unprototyped on purpose */

typedef void (*errfn)(void *ctx, const char *msg, ...);

static int printed;

static void err_print(void *ctx, const char *msg, ...)
{
	OBSERVE_TARGET();
	printed += ctx == NULL && msg != NULL;
}

static void plain_two(void *ctx, const char *msg)
{
	OBSERVE_TARGET();
	printed += ctx != NULL || msg == NULL;
}

static errfn handler = err_print;

static errfn *get_handler(void)
{
	return &handler;
}

struct hashing { int (*hash)(); };

static int str_hash(const char *s)
{
	OBSERVE_TARGET();
	return s[0];
}

struct hashing table = { str_hash };   /* external: -O2 cannot know it is never written */

int main(int argc, char **argv)
{
	(void)argv;
	if (argc > 5)   /* never at run time: the hook may still hold it */
		handler = (errfn)plain_two;
	ICALL((*get_handler())(NULL, "first")); /* @r0: err_print @andersen: err_print plain_two */
	ICALL(handler(NULL, "second")); /* @r0: err_print @andersen: err_print plain_two */
	int h = ICALL(table.hash("abc")); /* @r0: str_hash */
	printf("%d %d\n", printed, h);
	return 0;
}
