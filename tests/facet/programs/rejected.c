/* A function written into a field through a cast whose signature does not
 * fit the field: Algorithm 1 keeps it out of F(job.run) and records it as
 * signature-rejected, so explain (and the catalog) can show what the filter
 * removed; Prune-Sig refutes it at the call. */
#include <stdio.h>

struct job {
	int (*run)(int n);
	const char *name;
};

static int run_twice(int n) { return 2 * n; }
static int run_square(int n) { return n * n; }
static int run_text(const char *s) { return s ? (int)s[0] : 0; }

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
	printf("%s %d\n", j.name, start(&j, argc));
	return 0;
}

/* F(job.run) is {run_twice, run_square} (at -O2 the struct j lives in a slot
 * that only #dbg_assign records describe; its allocated IR type names it);
 * run_text is written there too but rejected by the signature filter. R0
 * already leaves it out: its IR type (i32 (ptr)) is not the call's.
 // EXPECT run field: job.run
 // EXPECT run r0: run_square run_twice
 // EXPECT run rejected: run_text
 // EXPECT run rpm: run_square run_twice
 // EXPECT run decision run_square: add supported Add-Store pi_bind
 // EXPECT run decision run_twice: add supported Add-Store pi_bind
 */
