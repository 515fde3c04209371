/* Proof labels (issue 21.1): one indirect site whose points-to set is empty
 * (the ops come from a function the program does not define), so every
 * target R± gives it is an addition, and one site whose R0 target is kept.
 *
 *   main -> ops->run (SITE run): R0 empty; R± adds
 *       fast_run  (written in the initializer of default_ops: Add-Witness, premise-free)
 *       slow_run  (stored by install(): Add-Store, premise pi_bind)
 *   fast_run -> fast_sink (direct), slow_run -> slow_sink (direct)
 *   main -> local.run (SITE local): R0 = {local_run} (its address is stored
 *       into a local struct), kept in R±: premise-free (R0)
 *
 * So reach main fast_sink is proven (premise-free, direct), reach main
 * slow_sink is premised (Add-Store, pi_bind), reach main local_sink is proven. */
#include <stdio.h>

struct ops {
	int (*run)(int);
	const char *name;
};

struct ops *external_ops(void);   /* not defined in the program: its result points nowhere known */

__attribute__((noinline)) int fast_sink(int x) { return printf("fast %d\n", x); }
__attribute__((noinline)) int slow_sink(int x) { return printf("slow %d\n", x); }
__attribute__((noinline)) int local_sink(int x) { return printf("local %d\n", x); }
int fast_run(int x) { return fast_sink(x + 1); }
int slow_run(int x) { return slow_sink(x + 2); }
int local_run(int x) { return local_sink(x + 3); }

struct ops default_ops = {fast_run, "fast"};

__attribute__((noinline)) void install(struct ops *o) { o->run = slow_run; }

struct lops {
	int (*run)(int);
	int id;
};

int main(int argc, char **argv)
{
	(void)argv;
	struct ops *ops = external_ops();
	if (argc > 3)
		install(&default_ops);
	int r = ops->run(argc); /* SITE run */
	struct lops local = {local_run, argc};
	struct lops *volatile lp = &local;
	r += lp->run(argc); /* SITE local */
	return r;
}
