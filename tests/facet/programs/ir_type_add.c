/* Adds must fit the call's IR function type (issue 15.2). A symbol table
 * hands out functions as `void *` (a plugin loader's lookup, dlsym-like);
 * one of them is installed as a connection's data handler. The points-to
 * analysis cannot tell which entry the lookup returns, so the store into
 * `on_data` holds every function of the table, among them malloc and
 * realloc, which the module only declares: they have no debug-info
 * signature, and "unknown = compatible" would let Add-Store put them at a
 * three-argument handler call. R0's own filter (the call's IR type
 * i32 (ptr, ptr, i32)) keeps them out, and so must the adds: rejected by
 * Add-Type. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int (*data_fn)(void *ctx, const char *buf, int len);

struct conn {
	data_fn on_data;
	void *ctx;
};

struct symbol {
	const char *name;
	void *addr;
};

static int echo_data(void *ctx, const char *buf, int len)
{
	(void)ctx;
	return (int)fwrite(buf, 1, (size_t)len, stdout);
}

static const struct symbol symbols[] = {
	{"alloc", (void *)malloc},
	{"grow", (void *)realloc},
	{"echo", (void *)echo_data},
};

__attribute__((noinline)) static void *lookup(const char *name)
{
	for (unsigned i = 0; i < sizeof symbols / sizeof *symbols; i++)
		if (strcmp(symbols[i].name, name) == 0)
			return symbols[i].addr;
	return NULL;
}

__attribute__((noinline)) static int deliver(struct conn *c, const char *buf)
{
	return c->on_data(c->ctx, buf, (int)strlen(buf)); /* SITE deliver */
}

int main(int argc, char **argv)
{
	struct conn c = {0};
	c.on_data = (data_fn)lookup(argc > 1 ? argv[1] : "echo");
	return c.on_data ? deliver(&c, "hello\n") < 0 : 1;
}

/* R0 is the one function of the call's IR type; malloc and realloc reach
 * the field through the table, fit no signature test (none is known) and
 * are rejected by the IR type.
 // EXPECT deliver field: conn.on_data
 // EXPECT deliver r0: echo_data
 // EXPECT deliver rplus: echo_data
 // EXPECT deliver rpm: echo_data
 // EXPECT@tau=0 deliver rpm: echo_data
 // EXPECT deliver decision malloc: add rejected Add-Type pi_sig
 // EXPECT deliver decision realloc: add rejected Add-Type pi_sig
 // EXPECT deliver decision echo_data: add supported Add-Store pi_bind
 */
