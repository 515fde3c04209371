/* Dispatch through a plain global function pointer and through a global
 * array of them, with a constant and a variable index. */
#include <stdio.h>

typedef int (*binop)(int a, int b);

static int add(int a, int b) { return a + b; }
static int sub(int a, int b) { return a - b; }
static int mul(int a, int b) { return a * b; }
static int logged_add(int a, int b) { printf("add\n"); return a + b; }

binop ops[3] = {add, sub, mul};
binop pair[2] = {add, sub};
binop current = add;

__attribute__((noinline)) void set_op(binop f) { current = f; }

__attribute__((noinline)) int apply(int a, int b)
{
	return current(a, b); /* SITE current */
}

__attribute__((noinline)) int second(int a, int b)
{
	return pair[1](a, b); /* SITE second */
}

__attribute__((noinline)) int any(int i, int a, int b)
{
	return ops[i](a, b); /* SITE any */
}

int main(int argc, char **argv)
{
	(void)argv;
	set_op(argc > 1 ? mul : logged_add);
	printf("%d %d %d\n", apply(2, 3), second(2, 3), any(argc % 3, 2, 3));
	return 0;
}

/* current: keyed on the variable; F = {add (initializer), mul, logged_add
 * (stored through set_op's parameter)}.
 // EXPECT current field: global current
 // EXPECT current r0: add mul logged_add
 // EXPECT current rpm: add mul logged_add
 // EXPECT current decision add: add supported Add-Witness true
 // EXPECT current decision logged_add: add supported Add-Store pi_bind
 // EXPECT current abstains: no
 *
 * pair[1]: the field-sensitive analysis already has the one target; the
 * array key's F holds both, but the site abstains (one symbolic target), so
 * neither graph adds the other — unless τ = 0.
 // EXPECT second field: array pair
 // EXPECT second r0: sub
 // EXPECT second rpm: sub
 // EXPECT second rplus: sub
 // EXPECT second abstains: yes
 // EXPECT@tau=0 second rpm: add sub
 // EXPECT@tau=0 second rplus: add sub
 // EXPECT@tau=0 second abstains: no
 *
 * ops[i]: a variable index into a global array of function pointers is keyed
 * on the array too (facet's extension; the paper leaves it unrecovered).
 // EXPECT any field: array ops
 // EXPECT any r0: add sub mul
 // EXPECT any rpm: add sub mul
 // EXPECT any decision mul: add supported Add-Witness true
 */
