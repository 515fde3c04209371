/* cmd_query.c — placeholder while the query module is written. */
#include "cli/cli.h"
#include <stdio.h>
int cmd_query(int argc, char **argv) { (void)argc; (void)argv; fputs("facet query: not built yet\n", stderr); return EXIT_INPUT; }
int cmd_overlay(int argc, char **argv) { (void)argc; (void)argv; fputs("facet overlay: not built yet\n", stderr); return EXIT_INPUT; }
