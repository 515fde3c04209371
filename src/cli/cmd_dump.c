/* cmd_dump.c — `facet dump`: the program model as text, for debugging the
 * analyses (pointer statements, call sites with their operands, globals'
 * initializer slots). Value ids are printed as %N. */
#include "cli/cli.h"
#include "cli/help.h"
#include "cli/load.h"
#include "cli/opt.h"

#include <stdio.h>
#include <string.h>

#include "ir/print.h"

int cmd_dump(int argc, char **argv)
{
	if (args_wants_help(argc, argv) || argc < 2) {
		cli_help(argc < 2 ? stderr : stdout, "dump", NULL);
		return argc < 2 ? EXIT_USAGE : EXIT_OK;
	}
	ir_program *p = cli_load("dump", argv + 1, argc - 1, true);
	if (!p)
		return EXIT_INPUT;
	ir_print_model(stdout, p);
	ir_program_free(p);
	return EXIT_OK;
}
