/* Two compile units declare structs of one layout ({ptr, ptr, ptr}) under
 * different names: a table of builtin commands here, the fields of a frame
 * description in b_frames.c. Linking the units merges the two IR struct
 * types into one, named after the first unit's (LLVM's IR mover unifies
 * isomorphic types), so a GEP in b_frames.c names this file's struct. A
 * key found only through that name (the typed step) must agree with the
 * call: builtin_def.cmd takes three arguments, the frame's render call
 * one. Where it cannot agree, the site is not keyed by it. */
#include <stdio.h>

typedef struct {
	const char *name;
	int (*cmd)(void *cd, int argc, const char **argv);
	void *cd;
} builtin_def;

static int cmd_puts(void *cd, int argc, const char **argv)
{
	(void)cd;
	for (int i = 0; i < argc; i++)
		puts(argv[i]);
	return argc;
}

static int cmd_count(void *cd, int argc, const char **argv)
{
	(void)argv;
	return argc + (cd != NULL);
}

static const builtin_def builtins[] = {{"puts", cmd_puts, NULL}, {"count", cmd_count, NULL}};

int run_builtins(int argc, const char **argv)
{
	int n = 0;
	for (int i = 0; i < argc; i++)   /* a run-time index: the GEP names the struct at -O2 too */
		n += builtins[i % 2].cmd(builtins[i % 2].cd, argc, argv); /* SITE cmd */
	return n;
}

/* cmd: the table's field, from its initializer.
 // EXPECT cmd field: builtin_def.cmd
 // EXPECT cmd r0: cmd_count cmd_puts
 // EXPECT cmd rpm: cmd_count cmd_puts
 */
