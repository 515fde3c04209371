/* A function written into a field whose signature does not fit the
 * field's, by way of a data pointer: Algorithm 1 keeps it out of F(job.run)
 * and records it as signature-rejected, so explain (and the catalog) can
 * show what the filter removed; Prune-Sig refutes it at the call. A
 * function cast to the field's type where its address is taken is another
 * matter: the cast says the program means it for that field (cast.c), so it
 * stays in F. */
#include <stdio.h>

struct job {
	int (*run)(int n);
	const char *name;
};

static int run_twice(int n) { return 2 * n; }
static int run_square(int n) { return n * n; }
static int run_text(const char *s) { return s ? (int)s[0] : 0; }
static int run_name(const char *s) { return s ? (int)s[1] : 0; }

/* Stores what it is given: the function reaches the field as a void *. */
__attribute__((noinline)) void set_run(struct job *j, void *f)
{
	j->run = (int (*)(int))f;
}

__attribute__((noinline)) int start(struct job *j, int n)
{
	return j->run(n); /* SITE run */
}

int main(int argc, char **argv)
{
	(void)argv;
	struct job j = {run_twice, "twice"};
	if (argc > 1)
		j.run = run_square;
	if (argc > 5)
		j.run = (int (*)(int))(void (*)(void))run_text;   /* the usual way past -Wcast-function-type */
	if (argc > 6)
		set_run(&j, (void *)run_name);
	printf("%s %d\n", j.name, start(&j, argc));
	return 0;
}

/* F(job.run) is {run_twice, run_square, run_text} (at -O2 the struct j lives
 * in a slot that only #dbg_assign records describe; its allocated IR type
 * names it): run_text is cast to the field's type where it is stored, and
 * its add is rejected only by Add-Type — R0 leaves it out, its IR type
 * (i32 (ptr)) is not the call's. run_name is written there through set_run's
 * void * parameter, with no cast where its address is taken: rejected by the
 * signature filter. Neither is a target.
 // EXPECT run field: job.run
 // EXPECT run r0: run_square run_twice
 // EXPECT run rejected: run_name
 // EXPECT run rpm: run_square run_twice
 // EXPECT run decision run_text: add rejected Add-Type pi_sig
 // EXPECT run collapsed: -
 // EXPECT run decision run_square: add supported Add-Store pi_bind
 // EXPECT run decision run_twice: add supported Add-Store pi_bind
 */
