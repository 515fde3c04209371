/* cmd_capture.c — `facet capture`: observe a build, list its programs,
 * extract one program's whole-program bitcode (src/capture does the work). */
#include "cli/cli.h"
#include "cli/help.h"
#include "cli/opt.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture/capture.h"
#include "capture/extract.h"
#include "capture/manifest.h"
#include "util/error.h"

#define DEFAULT_DIR ".facet-capture"

static int run_capture(int argc, char **argv)
{
	args_set a;
	if (!cli_args_parse("capture", "+ -o= --no-exec-hook", &a, argc, argv))   /* the command follows, -- or not */
		return EXIT_USAGE;
	if (a.n_pos == 0) {
		cli_error("capture", "no command to run (facet capture [-o DIR] -- COMMAND...)");
		return EXIT_USAGE;
	}
	char *wrapper = capture_wrapper_path();
	char *exec_hook = args_has(&a, "--no-exec-hook") ? NULL : capture_exec_hook_path();
	capture_run_options opt = {.dir = args_str_or(&a, "-o", DEFAULT_DIR), .argv = a.pos, .wrapper = wrapper,
	                           .exec_hook = exec_hook};
	facet_error err = {0};
	int status;
	bool ok = capture_run(&opt, &status, &err);
	free(wrapper);
	free(exec_hook);
	if (!ok) {
		cli_error("capture", "%s", err.msg);
		return status != 127 ? status : EXIT_INPUT;
	}
	return status;
}

static capture_manifest *load(const char *dir)
{
	facet_error err = {0};
	capture_manifest *m = capture_manifest_load(dir, &err);
	if (!m)
		cli_error("capture", "%s", err.msg);
	return m;
}

static int run_list(int argc, char **argv)
{
	args_set a;
	const char *cmd = "capture list";
	if (!cli_args_parse(cmd, "--format=", &a, argc, argv))
		return EXIT_USAGE;
	const char *format = args_str_or(&a, "--format", "text");
	if (a.n_pos > 1) {
		cli_error(cmd, "unexpected argument '%s' (see --help)", a.pos[1]);
		return EXIT_USAGE;
	}
	if (!cli_choice(cmd, "format", format, "text\0json\0"))
		return EXIT_USAGE;
	capture_manifest *m = load(a.n_pos ? a.pos[0] : DEFAULT_DIR);
	if (!m)
		return EXIT_INPUT;
	if (strcmp(format, "json") == 0)
		capture_manifest_print_json(stdout, m);
	else
		capture_manifest_print_text(stdout, m);
	capture_manifest_free(m);
	return cli_flush(cmd) ? EXIT_OK : EXIT_INPUT;
}

/* The warnings, then the error when !ok: the exit code. */
static int said(const char *cmd, bool ok, capture_messages *warnings, const facet_error *err)
{
	for (size_t i = 0; i < warnings->len; i++)
		cli_warning(cmd, "%s", warnings->items[i]);
	if (!ok)
		cli_error(cmd, "%s", err->msg);
	capture_messages_free(warnings);
	return ok ? EXIT_OK : EXIT_INPUT;
}

int cli_capture_extract(const char *cmd, const char *dir, const char *program, const char *out,
                        const capture_extract_options *opt)
{
	facet_error err = {0};
	capture_messages warnings = {0};
	return said(cmd, capture_extract_named(dir, program, opt, out, &warnings, &err), &warnings, &err);
}

static int run_extract(int argc, char **argv)
{
	args_set a;
	const char *cmd = "capture extract";
	if (!cli_args_parse(cmd, "-o= --allow-missing --with-shared --keep-dead", &a, argc, argv))
		return EXIT_USAGE;
	capture_extract_options opt = {.allow_missing = args_has(&a, "--allow-missing"),
	                               .with_shared = args_has(&a, "--with-shared"), .keep_dead = args_has(&a, "--keep-dead")};
	const char *const *pos = (const char *const *)a.pos, *out = args_str(&a, "-o");
	int npos = a.n_pos;
	if (npos > 2) {
		cli_error(cmd, "unexpected argument '%s' (see --help)", pos[2]);
		return EXIT_USAGE;
	}
	if (npos == 0 || !out) {
		cli_error(cmd, "usage: facet capture extract [DIR] PROGRAM -o FILE.bc");
		return EXIT_USAGE;
	}
	const char *dir = npos == 2 ? pos[0] : DEFAULT_DIR, *prog = npos == 2 ? pos[1] : pos[0];
	char probe[PATH_MAX + 32];
	if (npos == 1 && snprintf(probe, sizeof probe, "%s/manifest.json", pos[0]) < (int)sizeof probe &&
	    access(probe, F_OK) == 0) {
		cli_error(cmd, "%s is a capture directory: which PROGRAM? (see 'facet capture list %s')", pos[0], pos[0]);
		return EXIT_USAGE;
	}
	int rc = cli_capture_extract(cmd, dir, prog, out, &opt);
	if (rc == EXIT_OK)
		fprintf(stderr, "facet capture extract: wrote %s\n", out);
	return rc;
}

char *cli_capture_module(const char *cmd, const char *dir, const char *program)
{
	facet_error err = {0};
	capture_messages warnings = {0};
	char *path = capture_extract_temp(dir, program, &warnings, &err);
	said(cmd, path != NULL, &warnings, &err);
	return path;
}

int cmd_capture(int argc, char **argv)
{
	if (argc >= 2 && strcmp(argv[1], "list") == 0)
		return args_wants_help(argc - 1, argv + 1) ? (cli_help(stdout, "capture", NULL), EXIT_OK) : run_list(argc - 1, argv + 1);
	if (argc >= 2 && strcmp(argv[1], "extract") == 0)
		return args_wants_help(argc - 1, argv + 1) ? (cli_help(stdout, "capture", NULL), EXIT_OK) : run_extract(argc - 1, argv + 1);
	if (argc >= 2 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
		cli_help(stdout, "capture", NULL);
		return EXIT_OK;
	}
	return run_capture(argc, argv);
}
