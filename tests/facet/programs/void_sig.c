/* `void (void)` signatures: the debug info spells them !{null}, which
 * LLVM's C API reads back as an empty list unless facet takes care — and an
 * empty list is an unknown signature, compatible with everything. Here a
 * void (void) function written into an int (int, int) field must be
 * signature-rejected. A field of type void (*)(void) is C's generic function
 * pointer (sqlite keeps its system calls in one and casts at the call): it
 * holds any function: tock, stored there through a cast, passes the
 * signature test; but the call `j->hook()` has IR type void (), which tock
 * (void (i32)) does not fit, so its add is rejected by Add-Type, the filter
 * R0 applies (issue 15.2; the site abstains with one target anyway). */
#include <stdio.h>

struct job {
	int (*run)(int n, int m);
	void (*hook)(void);
};

static int add(int n, int m) { return n + m; }
static void tick(void) { puts("tick"); }
static void tock(int n) { printf("tock %d\n", n); }

/* Stores what it is given: the function reaches the field as a void *, with
 * no cast to a function-pointer type where its address is taken. */
__attribute__((noinline)) void set_run(struct job *j, void *f)
{
	j->run = (int (*)(int, int))f;
}

__attribute__((noinline)) int start(struct job *j)
{
	j->hook(); /* SITE hook */
	return j->run(1, 2); /* SITE run */
}

int main(int argc, char **argv)
{
	(void)argv;
	struct job j = {add, tick};
	if (argc > 3)
		set_run(&j, (void *)tick);
	if (argc > 4)
		j.hook = (void (*)(void))tock;
	return start(&j);
}

/*
 // EXPECT run field: job.run
 // EXPECT run rejected: tick
 // EXPECT run rpm: add
 // EXPECT hook field: job.hook
 // EXPECT hook rejected: -
 // EXPECT hook r0: tick
 // EXPECT hook rpm: tick
 // EXPECT hook abstains: yes
 // EXPECT hook decision tock: add rejected Add-Type pi_sig
 */
