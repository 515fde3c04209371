#include "cli/load.h"
#include "cli/progress.h"
#include "cli/cli.h"
#include "cli/opt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ir/ingest.h"
#include "util/error.h"
#include "util/xalloc.h"

static ir_program *load(const char *cmd, char **files, int n, bool verify, bool sites_only)
{
	facet_error err = {0};
	ingest_warnings warnings = {0};
	ingest_options opt = {.verify = verify, .sites_only = sites_only, .progress = cli_progress_phase};
	ir_program *p = ir_ingest((const char *const *)files, (unsigned)n, &opt, &warnings, &err);
	for (unsigned i = 0; i < warnings.n; i++)
		cli_warning(cmd, "%s", warnings.msgs[i]);
	ingest_warnings_free(&warnings);
	if (!p)
		cli_error(cmd, "%s", err.msg);
	return p;
}

ir_program *cli_load(const char *cmd, char **files, int n, bool verify)
{
	return load(cmd, files, n, verify, false);
}

ir_program *cli_load_sites(const char *cmd, char **files, int n, bool verify)
{
	return load(cmd, files, n, verify, true);
}

void cli_graph_progress(const char *phase) { cli_progress(phase, 0, 0); }

cg_graph *cli_graph(const char *cmd, facet_graphs *set, const char *name)
{
	facet_error err = {0};
	cg_graph *g = facet_graphs_get(set, name, &err);
	const char *note = facet_graphs_note(set);
	if (note)
		cli_note(cmd, "%s", note);
	if (!g)
		cli_error(cmd, "%s", err.msg);
	return g;
}

bool cli_parse_tau(const char *cmd, const char *s, unsigned *out)
{
	unsigned long v;
	if (!cli_uint(cmd, "--tau", s, 0, 1000000, &v))
		return false;
	*out = (unsigned)v;
	return true;
}

bool cli_inputs_check(const char *cmd, int nfiles, const char *const capture[2])
{
	if (capture && capture[0] && nfiles > 0)
		cli_error(cmd, "give either --capture DIR PROGRAM or bitcode files");
	else if (nfiles == 0 && !(capture && capture[0]))
		cli_error(cmd, "no input files (see --help)");
	else
		return true;
	return false;
}

int cli_run_open(cli_run *r, const char *cmd, const args_set *a, char **files, int n, const char *const capture[2])
{
	cli_oracle_args oargs = a ? cli_oracle_args_of(a) : (cli_oracle_args){0};
	memset(r, 0, sizeof *r);
	r->cmd = cmd;
	cli_progress_start(cmd);   /* a line on a terminal once the command runs over a second */
	int rc = cli_oracle_open(cmd, &oargs, &r->oracle);
	if (rc != EXIT_OK)
		return rc;
	r->files = files;
	r->n_files = n;
	if (capture && capture[0]) {
		if (!(r->captured = cli_capture_module(cmd, capture[0], capture[1])))
			return EXIT_INPUT;
		r->files = &r->captured;
		r->n_files = 1;
	}
	return EXIT_OK;
}

static void drop_captured(cli_run *r)
{
	if (r->captured)
		unlink(r->captured);
	free(r->captured);
	r->captured = NULL;
}

int cli_run_load(cli_run *r, bool verify, bool sites_only)
{
	cli_progress("reading and linking the inputs", 0, 0);
	r->prog = load(r->cmd, r->files, r->n_files, verify, sites_only);
	drop_captured(r);
	return r->prog ? EXIT_OK : EXIT_INPUT;
}

int cli_run_close(cli_run *r, int rc)
{
	cli_progress_finish();
	drop_captured(r);
	ir_program_free(r->prog);
	r->prog = NULL;
	if (r->cmd && !cli_oracle_close(r->cmd, &r->oracle) && rc == EXIT_OK)
		rc = EXIT_INPUT;
	if (r->cmd && !cli_flush(r->cmd) && rc == EXIT_OK)
		rc = EXIT_INPUT;
	return rc;
}
