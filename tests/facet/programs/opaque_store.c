/* A function stored through an opaque handle: an interpreter hands out
 * commands as `Tcl_Command`-like tokens, a pointer to a struct the headers
 * never define, and its own code casts the token back to write a member:
 *
 *     ((struct command *) token)->compile = compile_noop;
 *
 * The cast leaves no trace in the IR (a store at token + 8), and the
 * token's declared type has no members, so no key explains the store.
 * Dropped, it left F(command.compile) without compile_noop, and Prune-Store
 * refuted a target the program does call (π_proj failed). The store's
 * function now counts for every dispatched struct field at that offset
 * whose signature fits (not established: no Add-Store), so R± keeps it;
 * a function of another signature (print_value) does not enter. */
#include <stdio.h>
#include <stdlib.h>

typedef struct token_ *token;   /* opaque: never defined */

struct command {
	const char *name;
	int (*compile)(void *env, int words);
	void (*print)(const char *s);
};

static int compile_set(void *env, int words) { return env ? words : -words; }
static int compile_noop(void *env, int words) { return env ? 0 : words; }
static int compile_unused(void *env, int words) { return env ? 2 * words : 0; }
static void print_value(const char *s) { puts(s); }

__attribute__((noinline)) static token create_command(const char *name)
{
	struct command *c = (struct command *)calloc(1, sizeof *c);
	if (!c)
		exit(1);
	c->name = name;
	c->compile = compile_set;
	c->print = print_value;
	return (token)(void *)c;
}

/* The body is empty: the command compiles to nothing. */
__attribute__((noinline)) void make_noop(token t);
__attribute__((noinline)) void make_noop(token t)
{
	((struct command *)(void *)t)->compile = compile_noop;
}

__attribute__((noinline)) static int compile(struct command *c, void *env)
{
	return c->compile(env, 3); /* SITE compile */
}

int main(int argc, char **argv)
{
	int (*volatile keep)(void *, int) = compile_unused;   /* address taken: in R0 by type */
	token t = create_command(argv[0]);
	if (argc > 1)
		make_noop(t);
	printf("%d %p\n", compile((struct command *)(void *)t, argv), (void *)keep);
	return 0;
}

/*
 // EXPECT compile field: command.compile
 // EXPECT compile rpm: compile_noop compile_set
 // EXPECT compile decision compile_noop: none
 // EXPECT compile decision compile_set: add supported Add-Store pi_bind
 */
