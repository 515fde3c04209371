/* capture.c — the capture directory, the wrapped environment, the run. */
#include "capture/capture.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <regex.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "capture/args.h"
#include "capture/extract.h"
#include "capture/manifest.h"
#include "capture/record.h"
#include "capture/rewrite.h"
#include "capture/spawn.h"
#include "util/xalloc.h"

static bool mkdir_p(const char *path, facet_error *err)
{
	char buf[PATH_MAX];
	snprintf(buf, sizeof buf, "%s", path);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		mkdir(buf, 0777);
		*p = '/';
	}
	if (mkdir(buf, 0777) != 0 && errno != EEXIST) {
		error_set(err, "%s: cannot create (%s)", path, strerror(errno));
		return false;
	}
	return true;
}

/* DIR/capture.json names the build a directory belongs to; a directory
 * that has files but no capture.json is not a capture directory. */
static bool claim(const char *dir, const char *root, facet_error *err)
{
	char path[PATH_MAX + 32];
	snprintf(path, sizeof path, "%s/capture.json", dir);
	struct stat st;
	if (stat(path, &st) == 0) {
		json_error_t je;
		json_t *c = json_load_file(path, 0, &je);
		const char *fmt = c ? json_string_value(json_object_get(c, "format")) : NULL;
		const char *r = c ? json_string_value(json_object_get(c, "root")) : NULL;
		bool ok = fmt && r && strcmp(fmt, CAPTURE_FORMAT) == 0;
		if (!ok)
			error_set(err, "%s: not a facet capture file (corrupt?)", path);
		else if (strcmp(r, root) != 0) {
			error_set(err, "%s: this capture directory belongs to the build in %s, not %s (use another -o DIR)",
			          path, r, root);
			ok = false;
		}
		json_decref(c);
		return ok;
	}
	DIR *d = opendir(dir);
	struct dirent *e;
	bool empty = true;
	while (d && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			empty = false;
	if (d)
		closedir(d);
	if (!empty) {
		error_set(err, "%s: exists and is not a capture directory (no capture.json)", dir);
		return false;
	}
	json_t *c = json_pack("{s:s, s:i, s:s}", "format", CAPTURE_FORMAT, "version", CAPTURE_VERSION, "root", root);
	bool ok = capture_json_write_atomic(path, c, err);
	json_decref(c);
	return ok;
}

static bool link_name(const char *bin, const char *wrapper, const char *name, facet_error *err)
{
	char path[PATH_MAX + 256];
	snprintf(path, sizeof path, "%s/%s", bin, name);
	unlink(path);
	if (symlink(wrapper, path) != 0) {
		error_set(err, "%s: cannot create the wrapper link (%s)", path, strerror(errno));
		return false;
	}
	return true;
}

/* The compiler names to wrap: the usual ones, every versioned or
 * triplet-prefixed gcc/g++/cc/c++/clang/clang++ on PATH (gcc-12,
 * x86_64-linux-gnu-gcc-12, clang-22), the linkers on PATH (ld, ld.lld,
 * ld.bfd...: builds that link with $(LD) directly) and the object rewriters
 * (objcopy, strip: capture/rewrite.h). A linker or rewriter name is
 * wrapped only where one exists, so a build's probe for ld.gold still
 * finds what the machine has. */
static bool make_bin(const char *bin, const char *wrapper, facet_error *err)
{
	static const char *const fixed[] = {"cc", "gcc", "clang", "c++", "g++", "clang++", "facet-env-cc",
	                                    "facet-env-cxx"};
	for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++)
		if (!link_name(bin, wrapper, fixed[i], err))
			return false;
	regex_t re;
	if (regcomp(&re, "^(([A-Za-z0-9_]+-){2,3})?(gcc|g\\+\\+|cc|c\\+\\+|clang|clang\\+\\+)(-[0-9][0-9.]*)?$",
	            REG_EXTENDED | REG_NOSUB) != 0)
		return true;
	const char *path = getenv("PATH");
	char *copy = xstrdup(path ? path : ""), *save = NULL;
	for (char *d = strtok_r(copy, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		if (strcmp(d, bin) == 0)
			continue;
		DIR *dd = opendir(d);
		struct dirent *e;
		while (dd && (e = readdir(dd))) {
			if (regexec(&re, e->d_name, 0, NULL, 0) != 0 && !capture_is_linker_name(e->d_name) &&
			    !capture_is_rewriter_name(e->d_name))
				continue;
			char p[PATH_MAX + 256];
			struct stat st;
			if (snprintf(p, sizeof p, "%s/%s", bin, e->d_name) < (int)sizeof p && lstat(p, &st) != 0)
				link_name(bin, wrapper, e->d_name, err);
		}
		if (dd)
			closedir(dd);
	}
	free(copy);
	regfree(&re);
	return true;
}

static void set_environment(const char *dir, const char *bin, const char *root)
{
	const char *path = getenv("PATH");
	size_t n = strlen(bin) + (path ? strlen(path) : 0) + 2;
	char *p = xmalloc(n);
	snprintf(p, n, "%s%s%s", bin, path && *path ? ":" : "", path ? path : "");
	setenv("PATH", p, 1);
	free(p);
	setenv("FACET_CAPTURE_DIR", dir, 1);
	setenv("FACET_CAPTURE_BIN", bin, 1);
	setenv("FACET_CAPTURE_ROOT", root, 1);
	const char *llvm = capture_llvm_bindir();
	char tool[PATH_MAX + 32];
	snprintf(tool, sizeof tool, "%s/clang", llvm);
	setenv("FACET_CAPTURE_CLANG", tool, 1);
	snprintf(tool, sizeof tool, "%s/clang++", llvm);
	setenv("FACET_CAPTURE_CLANGXX", tool, 1);
	snprintf(tool, sizeof tool, "%s/llvm-nm", llvm);
	setenv("FACET_CAPTURE_NM", tool, 1);
	unsetenv("FACET_CAPTURE_ACTIVE");
	/* $CC/$CXX name the compiler the build would use: the wrapper runs that
	 * one (launchers such as ccache included, so its cache still serves the
	 * native compile while the bitcode is always made). */
	const char *vars[][2] = {{"CC", "facet-env-cc"}, {"CXX", "facet-env-cxx"}};
	for (int i = 0; i < 2; i++) {
		const char *v = getenv(vars[i][0]);
		if (!v || !*v)
			continue;
		char real[32], w[PATH_MAX + 32];
		snprintf(real, sizeof real, "FACET_CAPTURE_REAL_%s", vars[i][0]);
		setenv(real, v, 1);
		snprintf(w, sizeof w, "%s/%s", bin, vars[i][1]);
		setenv(vars[i][0], w, 1);
	}
}

/* Appends `value` to the list in environment variable `var` (sep between). */
static void env_append(const char *var, const char *value, const char *sep)
{
	const char *old = getenv(var);
	size_t n = (old ? strlen(old) : 0) + strlen(sep) + strlen(value) + 1;
	char *v = xmalloc(n);
	snprintf(v, n, "%s%s%s", old && *old ? old : "", old && *old ? sep : "", value);
	setenv(var, v, 1);
	free(v);
}

/* The exec hook on LD_PRELOAD (after the build's own preloads, which keep
 * their place); the dynamic loader splits that list at spaces and colons, so a
 * hook path holding one cannot be preloaded and the hook is left out. */
static void set_exec_hook(const char *hook)
{
	if (!hook || strpbrk(hook, " :\t"))
		return;
	env_append("LD_PRELOAD", hook, ":");
	env_append("ASAN_OPTIONS", "verify_asan_link_order=0", ":");
}

static char *absolute_dir(const char *dir)
{
	char *r = realpath(dir, NULL);
	return r ? r : xstrdup(dir);
}

bool capture_run(const capture_run_options *opt, int *status, facet_error *err)
{
	*status = 127;
	if (access(opt->wrapper, X_OK) != 0) {
		error_set(err, "the compiler wrapper %s is missing (it is built beside facet)", opt->wrapper);
		return false;
	}
	char root[PATH_MAX];
	if (!getcwd(root, sizeof root)) {
		error_set(err, "cannot read the current directory (%s)", strerror(errno));
		return false;
	}
	if (!mkdir_p(opt->dir, err))
		return false;
	char *dir = absolute_dir(opt->dir);
	char sub[PATH_MAX + 32];
	bool ok = claim(dir, root, err);
	const char *subs[] = {"bin", "records", "bc", "tmp"};
	for (int i = 0; ok && i < 4; i++) {
		snprintf(sub, sizeof sub, "%s/%s", dir, subs[i]);
		ok = mkdir_p(sub, err);
	}
	snprintf(sub, sizeof sub, "%s/bin", dir);
	if (ok)
		ok = make_bin(sub, opt->wrapper, err);
	if (!ok) {
		free(dir);
		return false;
	}
	set_environment(dir, sub, root);
	set_exec_hook(opt->exec_hook);
	/* The build gets the terminal's signals; capture outlives them to write
	 * the manifest of what was done. */
	struct sigaction ign = {.sa_handler = SIG_IGN}, old_int, old_quit;
	sigaction(SIGINT, &ign, &old_int);
	sigaction(SIGQUIT, &ign, &old_quit);
	/* The child never prints: an exec failure's errno comes back through a
	 * close-on-exec pipe (empty when the exec succeeded), and the caller
	 * reports it in facet's one message format. */
	int fds[2] = {-1, -1};
	if (pipe2(fds, O_CLOEXEC) != 0) {
		error_set(err, "cannot create a pipe (%s)", strerror(errno));
		free(dir);
		return false;
	}
	pid_t pid = fork();
	if (pid == 0) {
		sigaction(SIGINT, &old_int, NULL);
		sigaction(SIGQUIT, &old_quit, NULL);
		close(fds[0]);
		execvp(opt->argv[0], opt->argv);
		int e = errno;
		ssize_t w = write(fds[1], &e, sizeof e);
		(void)w;
		_exit(127);
	}
	close(fds[1]);
	int exec_errno = 0;
	ssize_t got = pid > 0 ? read(fds[0], &exec_errno, sizeof exec_errno) : 0;
	close(fds[0]);
	*status = pid > 0 ? capture_wait(pid) : 127;
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGQUIT, &old_quit, NULL);
	if (pid < 0 || got == (ssize_t)sizeof exec_errno) {
		error_set(err, "cannot run %s: %s", opt->argv[0], strerror(pid < 0 ? errno : exec_errno));
		free(dir);
		*status = 127;
		return false;
	}
	ok = capture_assemble(dir, root, err);
	free(dir);
	return ok;
}

/* facet-cc beside this executable (FACET_CAPTURE_WRAPPER overrides). */
char *capture_wrapper_path(void)
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
char *capture_exec_hook_path(void)
{
	const char *e = getenv("FACET_CAPTURE_EXEC_HOOK");
	if (e)
		return *e ? xstrdup(e) : NULL;
	char *w = capture_wrapper_path(), *slash = strrchr(w, '/');
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
