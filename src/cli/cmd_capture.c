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

#include <jansson.h>

#include "capture/capture.h"
#include "capture/extract.h"
#include "capture/manifest.h"
#include "util/error.h"
#include "util/xalloc.h"

#define DEFAULT_DIR ".facet-capture"

static int run_capture(int argc, char **argv)
{
	const char *dir = DEFAULT_DIR;
	bool hook = true;
	int i = 1;
	for (; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0) {
			i++;
			break;
		}
		if (strcmp(argv[i], "--no-exec-hook") == 0) {
			hook = false;
		} else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) {
			dir = argv[++i];
		} else if (strncmp(argv[i], "-o", 2) == 0 && argv[i][2]) {
			dir = argv[i] + 2;
		} else if (argv[i][0] == '-') {
			fprintf(stderr, "facet capture: unknown option '%s' (see --help)\n", argv[i]);
			return EXIT_USAGE;
		} else {
			break;   /* the command, without -- */
		}
	}
	if (i >= argc) {
		fputs("facet capture: no command to run (facet capture [-o DIR] -- COMMAND...)\n", stderr);
		return EXIT_USAGE;
	}
	char *wrapper = capture_wrapper_path();
	if (access(wrapper, X_OK) != 0) {
		fprintf(stderr, "facet capture: error: the compiler wrapper %s is missing (it is built beside facet)\n",
		        wrapper);
		free(wrapper);
		return EXIT_INPUT;
	}
	char *exec_hook = hook ? capture_exec_hook_path() : NULL;
	capture_run_options opt = {.dir = dir, .argv = argv + i, .wrapper = wrapper, .exec_hook = exec_hook};
	facet_error err = {0};
	int status;
	bool ok = capture_run(&opt, &status, &err);
	free(wrapper);
	free(exec_hook);
	if (!ok) {
		fprintf(stderr, "facet capture: error: %s\n", err.msg);
		return status != 127 ? status : EXIT_INPUT;
	}
	return status;
}

static capture_manifest *load(const char *dir)
{
	facet_error err = {0};
	capture_manifest *m = capture_manifest_load(dir, &err);
	if (!m)
		fprintf(stderr, "facet capture: error: %s\n", err.msg);
	return m;
}

static int run_list(int argc, char **argv)
{
	const char *dir = DEFAULT_DIR, *format = "text";
	int npos = 0;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--format") == 0 && i + 1 < argc)
			format = argv[++i];
		else if (strncmp(argv[i], "--format=", 9) == 0)
			format = argv[i] + 9;
		else if (argv[i][0] == '-' || npos++ > 0) {
			fprintf(stderr, "facet capture list: unexpected argument '%s' (see --help)\n", argv[i]);
			return EXIT_USAGE;
		} else
			dir = argv[i];
	}
	if (strcmp(format, "text") != 0 && strcmp(format, "json") != 0) {
		fprintf(stderr, "facet capture list: unknown format '%s' (text, json)\n", format);
		return EXIT_USAGE;
	}
	capture_manifest *m = load(dir);
	if (!m)
		return EXIT_INPUT;
	if (strcmp(format, "json") == 0)
		capture_manifest_print_json(stdout, m);
	else
		capture_manifest_print_text(stdout, m);
	capture_manifest_free(m);
	if (fflush(stdout) != 0) {
		perror("facet capture list: writing output");
		return EXIT_INPUT;
	}
	return EXIT_OK;
}

int cli_capture_extract(const char *cmd, const char *dir, const char *program, const char *out,
                        const capture_extract_options *opt)
{
	capture_manifest *m = load(dir);
	if (!m)
		return EXIT_INPUT;
	facet_error err = {0};
	const capture_program *p = capture_find_program(m, program, &err);
	capture_messages warnings = {0};
	bool ok = p && capture_extract(m, p, opt, out, &warnings, &err);
	for (size_t i = 0; i < warnings.len; i++)
		fprintf(stderr, "facet %s: warning: %s\n", cmd, warnings.items[i]);
	if (!ok)
		fprintf(stderr, "facet %s: error: %s\n", cmd, err.msg);
	capture_messages_free(&warnings);
	capture_manifest_free(m);
	return ok ? EXIT_OK : EXIT_INPUT;
}

static int run_extract(int argc, char **argv)
{
	const char *pos[3] = {0}, *out = NULL;
	int npos = 0;
	capture_extract_options opt = {0};
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-o") == 0 && i + 1 < argc)
			out = argv[++i];
		else if (strcmp(argv[i], "--allow-missing") == 0)
			opt.allow_missing = true;
		else if (strcmp(argv[i], "--with-shared") == 0)
			opt.with_shared = true;
		else if (strcmp(argv[i], "--keep-dead") == 0)
			opt.keep_dead = true;
		else if (argv[i][0] == '-' || npos == 2) {
			fprintf(stderr, "facet capture extract: unexpected argument '%s' (see --help)\n", argv[i]);
			return EXIT_USAGE;
		} else
			pos[npos++] = argv[i];
	}
	if (npos == 0 || !out) {
		fputs("facet capture extract: usage: facet capture extract [DIR] PROGRAM -o FILE.bc\n", stderr);
		return EXIT_USAGE;
	}
	const char *dir = npos == 2 ? pos[0] : DEFAULT_DIR, *prog = npos == 2 ? pos[1] : pos[0];
	char probe[PATH_MAX + 32];
	if (npos == 1 && snprintf(probe, sizeof probe, "%s/manifest.json", pos[0]) < (int)sizeof probe &&
	    access(probe, F_OK) == 0) {
		fprintf(stderr, "facet capture extract: %s is a capture directory: which PROGRAM? (see 'facet capture list %s')\n",
		        pos[0], pos[0]);
		return EXIT_USAGE;
	}
	int rc = cli_capture_extract("capture extract", dir, prog, out, &opt);
	if (rc == EXIT_OK)
		fprintf(stderr, "facet capture extract: wrote %s\n", out);
	return rc;
}

char *cli_capture_module(const char *cmd, const char *dir, const char *program)
{
	const char *tmpdir = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	char path[PATH_MAX];
	snprintf(path, sizeof path, "%s/facet-capture-XXXXXX", tmpdir);
	int fd = mkstemp(path);
	if (fd < 0) {
		fprintf(stderr, "facet %s: error: cannot create a temporary file in %s\n", cmd, tmpdir);
		return NULL;
	}
	close(fd);
	capture_extract_options opt = {0};
	if (cli_capture_extract(cmd, dir, program, path, &opt) != EXIT_OK) {
		unlink(path);
		return NULL;
	}
	return xstrdup(path);
}

int cmd_capture(int argc, char **argv)
{
	if (argc >= 2 && strcmp(argv[1], "list") == 0)
		return cli_wants_help(argc - 1, argv + 1) ? (cli_help(stdout, "capture", NULL), EXIT_OK) : run_list(argc - 1, argv + 1);
	if (argc >= 2 && strcmp(argv[1], "extract") == 0)
		return cli_wants_help(argc - 1, argv + 1) ? (cli_help(stdout, "capture", NULL), EXIT_OK) : run_extract(argc - 1, argv + 1);
	if (argc >= 2 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
		cli_help(stdout, "capture", NULL);
		return EXIT_OK;
	}
	return run_capture(argc, argv);
}
