/* help.h — every command's --help text, in one home: docs/help/NAME.txt,
 * embedded at build time (scripts/embed-help.cmake). A line that is only
 * {{NAME}} stands for the text NAME (the option sets several commands share:
 * oracle-options, view-options, source-options); {{KEY}} inside a line for a
 * value the command passes (what a registry lists, a default, a path). */
#ifndef FACET_CLI_HELP_H
#define FACET_CLI_HELP_H

#include <stdio.h>

#include "util/template.h"

typedef struct cli_help_text {
	const char *name, *text;
} cli_help_text;
/* docs/help's texts, by file name without .txt; ends with a NULL name. */
extern const cli_help_text cli_help_texts[];

/* Prints text name on out, its {{...}} replaced (util/template.h): by the
 * texts they name, and by values (ending with a NULL key; NULL: none). */
void cli_help(FILE *out, const char *name, const template_value *values);

#include "cli/opt.h"
/* The opening every command shares: with -h or --help, prints help text cmd
 * on stdout and returns 0; else parses argv by spec into a (cli_args_parse)
 * and returns 2 after its message, or -1 when the command goes on. */
int cli_begin(const char *cmd, const char *spec, args_set *a, int argc, char **argv);

#endif
