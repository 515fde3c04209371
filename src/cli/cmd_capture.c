/* cmd_capture.c — `facet capture`: observe a build, list its programs,
 * extract one program's whole-program bitcode (src/capture does the work). */
#include "cli/cli.h"
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

static void usage(FILE *out)
{
	fputs("usage: facet capture [-o DIR] [--no-exec-hook] -- COMMAND [ARG...]\n"
	      "       facet capture list [DIR] [--format text|json]\n"
	      "       facet capture extract [DIR] PROGRAM -o FILE.bc [--allow-missing] [--with-shared]\n"
	      "                             [--keep-dead]\n"
	      "\n"
	      "Runs COMMAND (make -j2, ./configure && make, cmake --build build, ninja...)\n"
	      "with every C and C++ compile and link observed: a wrapper first on PATH\n"
	      "(cc, gcc, clang, c++, g++, clang++, the versioned names, and the linkers\n"
	      "ld, ld.lld... for builds that link with $(LD)) and in CC/CXX\n"
	      "runs the real compiler with the original arguments, so the native build\n"
	      "is unchanged, and also compiles each source with clang-22 -flto -g and\n"
	      "the command's own flags into bitcode kept in DIR (default .facet-capture),\n"
	      "keyed by the content of the native object; each link records the objects\n"
	      "and archive members the linker used. Exits with COMMAND's status; what\n"
	      "was captured before a failure is kept. DIR/manifest.json is described in\n"
	      "docs/formats.md. Run configure (and cmake's configure step) under capture\n"
	      "too: they record the compiler's path. A compiler named by absolute path\n"
	      "(CC=/usr/bin/gcc in a Makefile) is seen through an exec hook preloaded\n"
	      "into the build's processes (facet-exec.so, on LD_PRELOAD; ASAN_OPTIONS\n"
	      "gets verify_asan_link_order=0); --no-exec-hook leaves it out, and such\n"
	      "compiles are then listed as missing.\n"
	      "\n"
	      "  list      every executable and shared library the build linked: path,\n"
	      "            units behind it, how many have no bitcode (which and why)\n"
	      "  extract   one whole-program module for PROGRAM (a path, or a basename\n"
	      "            unique in 'list'), linked as the native link was (llvm-link),\n"
	      "            then stripped of what no root reaches, as an LTO link does\n"
	      "            (roots: main and the entry symbol, the symbols PROGRAM exports\n"
	      "            in .dynsym, those that its inputs without bitcode reference;\n"
	      "            a program linked with a linker script is not stripped)\n"
	      "  --allow-missing  extract even when linked units have no bitcode\n"
	      "  --with-shared    merge the build's own shared libraries PROGRAM links\n"
	      "                   (a symbol PROGRAM defines wins over a library's, as\n"
	      "                   the dynamic linker's interposition has it)\n"
	      "  --keep-dead      no stripping: every function of every linked unit\n"
	      "\n"
	      "'facet build' and 'facet callgraph' take --capture DIR PROGRAM in place\n"
	      "of bitcode files. Exit codes: COMMAND's for a capture; else 0 success,\n"
	      "1 bad input (missing bitcode, corrupt manifest), 2 usage error.\n",
	      out);
}

/* facet-cc beside this executable (FACET_CAPTURE_WRAPPER overrides). */
static char *wrapper_path(void)
{
	const char *e = getenv("FACET_CAPTURE_WRAPPER");
	if (e && *e)
		return xstrdup(e);
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 16);
	if (n <= 0)
		return xstrdup("facet-cc");
	self[n] = 0;
	char *slash = strrchr(self, '/');
	strcpy(slash ? slash + 1 : self, "facet-cc");
	return xstrdup(self);
}

/* facet-exec.so beside this executable, else in ../lib/facet (installed);
 * NULL when neither exists (compilers named by path are then not seen). */
static char *exec_hook_path(void)
{
	const char *e = getenv("FACET_CAPTURE_EXEC_HOOK");
	if (e)
		return *e ? xstrdup(e) : NULL;
	char *w = wrapper_path(), *slash = strrchr(w, '/');
	if (!slash) {
		free(w);
		return NULL;
	}
	*slash = 0;
	char path[PATH_MAX + 64];
	const char *rel[] = {"/facet-exec.so", "/../lib/facet/facet-exec.so"};
	for (int k = 0; k < 2; k++) {
		snprintf(path, sizeof path, "%s%s", w, rel[k]);
		if (access(path, R_OK) == 0) {
			free(w);
			return xstrdup(path);
		}
	}
	free(w);
	return NULL;
}

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
	char *wrapper = wrapper_path();
	if (access(wrapper, X_OK) != 0) {
		fprintf(stderr, "facet capture: error: the compiler wrapper %s is missing (it is built beside facet)\n",
		        wrapper);
		free(wrapper);
		return EXIT_INPUT;
	}
	char *exec_hook = hook ? exec_hook_path() : NULL;
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

static void print_text(const capture_manifest *m)
{
	printf("%-60s %-11s %6s %8s\n", "program", "type", "units", "missing");
	for (size_t i = 0; i < m->programs.len; i++) {
		const capture_program *p = &m->programs.items[i];
		unsigned bc, miss, ext;
		capture_program_counts(p, &bc, &miss, &ext);
		printf("%-60s %-11s %6u %8u\n", p->path, p->type, bc + miss, miss);
		for (size_t k = 0; k < p->inputs.len; k++) {
			const capture_ref *r = &p->inputs.items[k];
			if (r->status != CAPTURE_REF_MISSING)
				continue;
			printf("    no bitcode: %s%s%s%s%s: %s\n", r->path, r->member ? "(" : "", r->member ? r->member : "",
			       r->member ? ")" : "", r->unit >= 0 ? "" : "", r->reason ? r->reason : "?");
		}
		for (size_t k = 0; k < p->shared.len; k++)
			if (p->shared.items[k].program >= 0)
				printf("    shared library of this build: %s\n", p->shared.items[k].path);
	}
}

static void print_json(const capture_manifest *m)
{
	json_t *progs = json_array();
	for (size_t i = 0; i < m->programs.len; i++) {
		const capture_program *p = &m->programs.items[i];
		unsigned bc, miss, ext;
		capture_program_counts(p, &bc, &miss, &ext);
		json_t *missing = json_array(), *shared = json_array();
		for (size_t k = 0; k < p->inputs.len; k++) {
			const capture_ref *r = &p->inputs.items[k];
			if (r->status != CAPTURE_REF_MISSING)
				continue;
			json_t *o = json_pack("{s:s, s:s}", "path", r->path, "reason", r->reason ? r->reason : "");
			json_object_set_new(o, "member", r->member ? json_string(r->member) : json_null());
			json_object_set_new(o, "source", r->unit >= 0 ? json_string(m->units.items[r->unit].source) : json_null());
			json_array_append_new(missing, o);
		}
		for (size_t k = 0; k < p->shared.len; k++)
			if (p->shared.items[k].program >= 0)
				json_array_append_new(shared, json_string(p->shared.items[k].path));
		json_array_append_new(progs, json_pack("{s:s, s:s, s:i, s:i, s:i, s:o, s:o}", "path", p->path, "type",
		                                       p->type, "units", (int)(bc + miss), "missing", (int)miss, "external",
		                                       (int)ext, "missing_units", missing, "shared", shared));
	}
	json_t *o = json_pack("{s:s, s:o}", "directory", m->dir, "programs", progs);
	char *s = json_dumps(o, JSON_INDENT(2));
	puts(s);
	free(s);
	json_decref(o);
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
		print_json(m);
	else
		print_text(m);
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
		return cli_wants_help(argc - 1, argv + 1) ? (usage(stdout), EXIT_OK) : run_list(argc - 1, argv + 1);
	if (argc >= 2 && strcmp(argv[1], "extract") == 0)
		return cli_wants_help(argc - 1, argv + 1) ? (usage(stdout), EXIT_OK) : run_extract(argc - 1, argv + 1);
	if (argc >= 2 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
		usage(stdout);
		return EXIT_OK;
	}
	return run_capture(argc, argv);
}
