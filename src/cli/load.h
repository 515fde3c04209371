/* load.h — what several subcommands share: option parsing helpers and
 * reading the input program with the user-facing messages. */
#ifndef FACET_CLI_LOAD_H
#define FACET_CLI_LOAD_H

#include <stdbool.h>

#include "cg/graph.h"
#include "facet/facet.h"
#include "ir/model.h"

/* Ingests files[0..n-1]; prints warnings and errors on stderr prefixed with
 * "facet CMD:"; returns NULL on failure. */
ir_program *cli_load(const char *cmd, char **files, int n, bool verify);
/* The same, reading only what a direct call graph needs (ingest_options.sites_only). */
ir_program *cli_load_sites(const char *cmd, char **files, int n, bool verify);

/* Matches "--name VALUE" or "--name=VALUE" at argv[*i]; on a match stores the
 * value, advances *i past it and returns 1; returns -1 (after printing) when
 * the value is missing, 0 when argv[*i] is another option. */
int cli_option(const char *cmd, int argc, char **argv, int *i, const char *name, const char **value);

/* Parses --tau's value: a decimal integer 0..1000000 (no sign). Prints
 * "facet CMD: --tau wants ..." and returns false otherwise. */
bool cli_parse_tau(const char *cmd, const char *s, unsigned *out);

/* The graph names every command accepts: direct, andersen, r0, rulesonly,
 * rplus, rpm. */
bool cli_graph_known(const char *name);
/* True when the graph needs the points-to analysis (everything but direct). */
bool cli_graph_needs_pta(const char *name);

typedef struct cli_graph_options {
	unsigned tau;              /* abstention threshold for rplus/rpm; 0 = the default (2) */
	bool tau_set;              /* tau was given (so 0 means 0: never abstain) */
	facet_oracle *oracle;      /* the residual oracle for rplus/rpm, NULL = none (cli/oracle_cli.h) */
} cli_graph_options;

/* Builds the named graph of p, running whatever analyses it needs. Prints a
 * "facet CMD: ..." message and returns NULL when the graph is unknown or
 * cannot be built. The caller frees the graph with cg_free. */
cg_graph *cli_graph(const char *cmd, const ir_program *p, const char *name, const cli_graph_options *opt);

/* Several graphs of one program: the points-to analysis and the refinement
 * run once for all of them (facet score asks for five). */
typedef struct cli_graphs cli_graphs;
cli_graphs *cli_graphs_new(const char *cmd, const ir_program *p, const cli_graph_options *opt);
cg_graph *cli_graphs_get(cli_graphs *s, const char *name);   /* NULL + message when unknown */
void cli_graphs_free(cli_graphs *s);

#endif
