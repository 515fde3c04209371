/* cli.h — the subcommands of the facet binary.
 *
 * Each cmd_* gets argv with argv[0] = the subcommand name and returns the
 * process exit code:
 *   0  success
 *   1  bad input or failed analysis (the message names the file and the problem)
 *   2  usage error (unknown option, missing argument)
 * Results go to stdout, diagnostics to stderr. */
#ifndef FACET_CLI_H
#define FACET_CLI_H

enum { EXIT_OK = 0, EXIT_INPUT = 1, EXIT_USAGE = 2 };

int cmd_callgraph(int argc, char **argv);
int cmd_stats(int argc, char **argv);
int cmd_oo(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_pts(int argc, char **argv);
int cmd_build(int argc, char **argv);
int cmd_trace(int argc, char **argv);
int cmd_score(int argc, char **argv);
int cmd_explain(int argc, char **argv);
int cmd_fields(int argc, char **argv);
int cmd_rederive(int argc, char **argv);
int cmd_mcp(int argc, char **argv);
int cmd_capture(int argc, char **argv);
int cmd_source(int argc, char **argv);
int cmd_report(int argc, char **argv);

/* docs/concepts.md, embedded at build time (scripts/embed.cmake). */
extern const char *const cli_concepts_text;
/* The line every --help ends with: what R± may lose, where to read more. */
extern const char cli_rpm_note[];

#include <stdbool.h>
#include "capture/extract.h"
/* capture: writes PROGRAM's module from the capture DIR to out, messages
 * prefixed "facet CMD:"; returns the exit code (cmd_capture.c). */
int cli_capture_extract(const char *cmd, const char *dir, const char *program, const char *out,
                        const capture_extract_options *opt);
/* capture: the same into a new temporary file whose malloc'd path is
 * returned (the caller unlinks and frees it); NULL after a message. */
char *cli_capture_module(const char *cmd, const char *dir, const char *program);

/* facet query and facet overlay (cmd_query.c, no LLVM: facet-query links
 * it too). writer writes slice --emit-module's bitcode (NULL: refused). */
#include "cli/opt.h"
#include "query/query.h"
int cli_query(int argc, char **argv, query_module_writer writer);

/* The graph view's options (the query verb "graph"): the @view set of
 * cli/opt.h (--help: docs/help/view-options.txt), shared by facet query graph
 * and facet callgraph on a catalog. Adds them to the graph verb's JSON
 * arguments; false after the message. */
bool cli_view_args(const char *cmd, const args_set *a, json_t *args);
/* facet callgraph on a catalog: the graph verb's view of graph (NULL: the
 * catalog's default) drawn as format (dot, graphml, svg, json). */
int cli_view_catalog(const char *cmd, const char *path, const char *graph, const args_set *a, const char *format);
int cli_overlay(int argc, char **argv);

#endif
