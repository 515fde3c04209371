#include "cli/cli.h"
int cmd_callgraph(int argc, char **argv) { (void)argc; (void)argv; return 1; }
int cmd_stats(int argc, char **argv) { (void)argc; (void)argv; return 1; }
