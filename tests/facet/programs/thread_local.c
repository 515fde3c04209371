/* Thread-local globals (issue 15.8). clang reaches a `__thread` variable
 * through llvm.threadlocal.address(@g), this thread's copy: the address is
 * g's and has g's debug type, a plain function pointer (keyed on the
 * variable) or a struct (keyed on its field) — never the label of some
 * other struct the walk met. */
#include <stdio.h>

struct block {
	int (*first)(int);
	int (*second)(int);
};

struct state {
	long depth;
	int (*on_error)(int);
};

static int f1(int x) { return x + 1; }
static int f2(int x) { return x + 2; }
static int g1(int x) { return x * 3; }
static int e1(int x) { return -x; }
static int e2(int x) { return x - 7; }

static struct block blk = {f1, f2};
static __thread struct state st;
static __thread int (*tls_hook)(int);

__attribute__((noinline)) int use_block(struct block *b, int x)
{
	return b->first(x); /* SITE first */
}

__attribute__((noinline)) int use_tls(int x)
{
	st.depth++;
	int r = tls_hook(x); /* SITE hook */
	return r + st.on_error(x); /* SITE on_error */
}

int main(int argc, char **argv)
{
	(void)argv;
	tls_hook = argc > 2 ? g1 : f2;
	st.on_error = argc > 3 ? e1 : e2;
	return use_block(&blk, argc) + use_tls(argc);
}

/*
 // EXPECT first field: block.first
 // EXPECT first r0: f1
 // EXPECT hook field: global tls_hook
 // EXPECT hook r0: f2 g1
 // EXPECT hook decision g1: add supported Add-Store pi_bind
 // EXPECT on_error field: state.on_error
 // EXPECT on_error r0: e1 e2
 // EXPECT on_error decision e2: add supported Add-Store pi_bind
 // EXPECT@tau=0 hook rpm: f2 g1
 // EXPECT@tau=0 on_error rpm: e1 e2
 */
