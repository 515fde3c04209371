/* tbuild.c — instrument, then compile and link with the runtime; see tbuild.h. */
#include "trace/tbuild.h"

#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/xalloc.h"

extern char **environ;

/* The runtime source, in this order: $FACET_TRACE_RUNTIME; beside an
 * installed facet (PREFIX/bin/facet finds PREFIX/share/facet/runtime/, where
 * `cmake --install` puts it); the source tree this facet was built from
 * (FACET_SOURCE_RUNTIME, an absolute path CMake passes), so a build tree's
 * facet works without installing. The first that exists wins; when none
 * does, the installed path is named, so the message says where it belongs. */
const char *trace_runtime_path(void)
{
	static char path[4096];
	const char *env = getenv("FACET_TRACE_RUNTIME");
	if (env && *env)
		return env;
	char self[3072];
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	char *bin = n > 0 ? (self[n] = 0, strrchr(self, '/')) : NULL;
	if (bin) {
		*bin = 0;
		snprintf(path, sizeof path, "%s/../share/facet/runtime/facet_rt.c", self);
		struct stat st;
		if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
			return path;
	}
#ifdef FACET_SOURCE_RUNTIME
	struct stat st;
	if (stat(FACET_SOURCE_RUNTIME, &st) == 0 && S_ISREG(st.st_mode))
		return FACET_SOURCE_RUNTIME;
#endif
	return bin ? path : "share/facet/runtime/facet_rt.c";
}

static bool is_link_arg(const char *a)
{
	size_t n = strlen(a);
	if (strncmp(a, "-l", 2) == 0 || strncmp(a, "-L", 2) == 0 || strncmp(a, "-Wl,", 4) == 0 ||
	    strcmp(a, "-pthread") == 0 || strcmp(a, "-rdynamic") == 0 || strcmp(a, "-static") == 0 ||
	    strcmp(a, "-no-pie") == 0)
		return true;
	return (n > 2 && (strcmp(a + n - 2, ".a") == 0 || strcmp(a + n - 2, ".o") == 0)) ||
	       (n > 3 && strcmp(a + n - 3, ".so") == 0) || strstr(a, ".so.") != NULL;
}

int trace_build_split_args(int argc, char **argv, trace_build_options *o, const char **links)
{
	unsigned nl = 0;
	int n = 1;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--") == 0) {
			for (i++; i < argc; i++)
				links[nl++] = argv[i];
		} else if (!strcmp(a, "-O0") || !strcmp(a, "-O1") || !strcmp(a, "-O2") || !strcmp(a, "-O3") ||
		           !strcmp(a, "-Os")) {
			o->opt_level = a;
		} else if (i + 1 < argc && (!strcmp(a, "-o") || !strcmp(a, "--cc") || !strcmp(a, "--runtime") ||
		                            !strcmp(a, "--keep-bc"))) {
			argv[n++] = argv[i];   /* an option and its value, whatever the value looks like */
			argv[n++] = argv[++i];
		} else if (is_link_arg(a)) {
			links[nl++] = a;
		} else {
			argv[n++] = argv[i];
		}
	}
	o->link_args = links;
	o->n_link_args = nl;
	return n;
}

/* Runs argv, waiting for it; false and err set unless it exits 0. */
static bool run(char *const *argv, facet_error *err)
{
	pid_t pid;
	int rc = posix_spawnp(&pid, argv[0], NULL, NULL, argv, environ);
	if (rc != 0) {
		error_set(err, "cannot run %s: %s", argv[0], strerror(rc));
		return false;
	}
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			error_set(err, "%s: %s", argv[0], strerror(errno));
			return false;
		}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return true;
	if (WIFEXITED(status))
		error_set(err, "%s failed (exit status %d) compiling or linking the instrumented program", argv[0],
		          WEXITSTATUS(status));
	else
		error_set(err, "%s killed by signal %d", argv[0], WTERMSIG(status));
	return false;
}

bool trace_build(const trace_build_options *opt, ir_instrument_stats *stats, facet_error *err)
{
	const char *runtime = opt->runtime ? opt->runtime : trace_runtime_path();
	struct stat st;
	if (stat(runtime, &st) != 0 || !S_ISREG(st.st_mode)) {
		error_set(err, "%s: trace runtime source not found (set FACET_TRACE_RUNTIME or pass --runtime)", runtime);
		return false;
	}
	const char *tmpdir = getenv("TMPDIR");
	char dir[4096];
	snprintf(dir, sizeof dir, "%s/facet-trace-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
	if (!mkdtemp(dir)) {
		error_set(err, "%s: cannot make a temporary directory: %s", dir, strerror(errno));
		return false;
	}
	char tmp_bc[4200];
	snprintf(tmp_bc, sizeof tmp_bc, "%s/instrumented.bc", dir);
	char *bc = opt->keep_bc ? (char *)opt->keep_bc : tmp_bc;
	bool ok = ir_instrument(opt->inputs, opt->n_inputs, opt->verify, bc, stats, err);
	if (ok) {
		unsigned n = 0, cap = 16 + opt->n_link_args;
		char **argv = xcalloc(cap, sizeof *argv);
		argv[n++] = (char *)(opt->cc ? opt->cc : "clang-22");
		argv[n++] = (char *)(opt->opt_level ? opt->opt_level : "-O1");
		argv[n++] = "-Wno-override-module";
		argv[n++] = "-Wno-unused-command-line-argument";
		argv[n++] = bc;
		argv[n++] = (char *)runtime;
		argv[n++] = "-o";
		argv[n++] = (char *)opt->output;
		argv[n++] = "-pthread";
		for (unsigned i = 0; i < opt->n_link_args; i++)
			argv[n++] = (char *)opt->link_args[i];
		argv[n] = NULL;
		ok = run(argv, err);
		free(argv);
	}
	unlink(tmp_bc);
	rmdir(dir);
	return ok;
}
