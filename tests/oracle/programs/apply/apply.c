/* apply.c — a disambiguation question with a runtime ground truth.
 *
 * The callee of apply's call is a parameter, not a value loaded from
 * memory: no field is recovered, no warrant decides, and R0 holds every
 * function any caller passes. One of them, triple, is passed only under a
 * condition the run never meets (more than five arguments), so the runtime
 * targets are a strict subset of R0: the symbolic result has three targets
 * (above τ = 2) without a warrant, and the site asks a disambiguation
 * question. Each callee prints the site it was called from. */
#include <stdio.h>

static const char *current_site = "?";

int twice(int x) { printf("%s twice\n", current_site); return 2 * x; }
int negate(int x) { printf("%s negate\n", current_site); return -x; }
int triple(int x) { printf("%s triple\n", current_site); return 3 * x; }

__attribute__((noinline)) int apply(int (*f)(int), int x)
{
	current_site = "app";
	return f(x); /* SITE app */
}

int main(int argc, char **argv)
{
	(void)argv;
	int r = apply(twice, argc) + apply(negate, argc);
	if (argc > 5)
		r += apply(triple, argc);
	return r == 2 * argc - argc ? 0 : 1;
}

/* Ground truth (checked against the native run by check_oracle.py):
 // TRUTH app: negate twice
 */
