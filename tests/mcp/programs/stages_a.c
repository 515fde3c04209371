/* stages_a.c, stages_b.c — two translation units that each define a static
 * function `step`, linked into one module with llvm-link-22 (which renames
 * one of them): the case where a bare name is ambiguous and a function
 * argument must be {module_id, symbol}.
 *
 * Expected answers, read from the two sources:
 *   - `step` names two definitions, one per file; each is called directly
 *     by one function only: stages_a.c's by a_run, stages_b.c's by b_run.
 *   - stages_a.c's step calls a_leaf, stages_b.c's calls b_leaf; neither
 *     step reaches the other's leaf.
 *   - main calls a_run and b_run directly, and calls through the table
 *     stage_lookup (declared only, outside the program) returns: in r0 that
 *     site has no target, so an agent may record an edge to one `step`.
 * The stage tables store both steps into `struct stage.run`. */
#include "stages.h"

int a_leaf(int x)
{
	return x * 2;
}

static int step(int x)
{
	return a_leaf(x) + 1;
}

int a_run(int x)
{
	return step(x);
}

const struct stage a_stage = {"a", step};

int main(int argc, char **argv)
{
	const struct stage *s = stage_lookup(argc > 1 ? argv[1] : "a");
	int r = a_run(argc) + b_run(argc);
	return r + s->run(argc); /* @site run */
}
