/* cmd_oo.c — placeholder until the .oo lab lands (issue 6). */
#include "cli/cli.h"

#include <stdio.h>

int cmd_oo(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "facet oo: not built yet\n");
	return EXIT_INPUT;
}
