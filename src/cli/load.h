/* load.h — what the analysing subcommands share around their one library
 * call: the oracle opened, the input program read (with the user-facing
 * messages), the graphs built by name, and everything closed again. */
#ifndef FACET_CLI_LOAD_H
#define FACET_CLI_LOAD_H

#include <stdbool.h>

#include "cg/graph.h"
#include "facet/facet.h"
#include "facet/graphs.h"
#include "ir/model.h"
#include "cli/oracle_cli.h"

/* Ingests files[0..n-1]; prints warnings and errors on stderr prefixed with
 * "facet CMD:"; returns NULL on failure. */
ir_program *cli_load(const char *cmd, char **files, int n, bool verify);
/* The same, reading only what a direct call graph needs (ingest_options.sites_only). */
ir_program *cli_load_sites(const char *cmd, char **files, int n, bool verify);

/* An analysing command's run: the oracle its options name, its inputs and
 * the program read from them. */
typedef struct cli_run {
	const char *cmd;
	cli_oracle oracle;         /* the none backend unless the options name one */
	char **files;              /* the inputs (the extracted module with --capture) */
	int n_files;
	char *captured;            /* --capture's temporary module, removed once read */
	ir_program *prog;
} cli_run;

/* Checks a command's inputs: bitcode files, or capture[0..1] = --capture DIR
 * PROGRAM (NULL when not given), not both, not neither. False after the
 * usage message. */
bool cli_inputs_check(const char *cmd, int nfiles, const char *const capture[2]);

/* Opens the oracle the @oracle options of a name (a NULL: none) and settles
 * the inputs: files[0..n-1], or --capture's program extracted to a temporary
 * module. EXIT_OK, or the exit code after the message. */
int cli_run_open(cli_run *r, const char *cmd, const args_set *a, char **files, int n, const char *const capture[2]);
/* Reads the inputs into r->prog (only what a direct call graph needs when
 * sites_only); removes a captured module. EXIT_OK or EXIT_INPUT after the
 * message. */
int cli_run_load(cli_run *r, bool verify, bool sites_only);
/* Closes the oracle (printing its accounting, saving its cache), frees the
 * program and flushes stdout. Returns rc, or EXIT_INPUT when one of those
 * failed. Safe after a failed cli_run_open. */
int cli_run_close(cli_run *r, int rc);

/* Parses --tau's value: a decimal integer 0..1000000 (no sign). Prints
 * cli_error's "--tau wants ..." and returns false otherwise. */
bool cli_parse_tau(const char *cmd, const char *s, unsigned *out);

/* The named graph of set (facet/graphs.h), printing the refinement's note
 * and, returning NULL, the error as "facet CMD: ..." messages. */
cg_graph *cli_graph(const char *cmd, facet_graphs *set, const char *name);
/* facet_graph_options.progress for the commands: the terminal progress line (cli/progress.h). */
void cli_graph_progress(const char *phase);

#endif
