/* preload.c — facet-exec.so: the exec hook of `facet capture` (capture/capture.h).
 *
 * A PATH shim cannot see a compiler named by absolute path (CC=/usr/bin/gcc
 * in a Makefile, a path configure wrote). This library, preloaded into every
 * dynamically linked process of the captured build, looks at each exec: when
 * the program it starts has a slash in its name and a base name that capture
 * wraps (a name present in DIR/bin), it starts DIR/bin/NAME instead, with
 * the same arguments and FACET_CAPTURE_EXEC=PATH added to the environment, so
 * the wrapper runs exactly that compiler. Nothing else changes: any other
 * exec, and every exec once the wrapper has started the real tool
 * (FACET_CAPTURE_ACTIVE in the environment), goes through untouched.
 *
 * It runs in vfork children (make, gcc's own driver), so the hooks allocate
 * nothing and take no lock: the real functions are resolved in the
 * constructor, and the rewritten environment lives on the stack. Static
 * programs and setuid ones never load it (the dynamic loader's rules); a
 * static program that runs a compiler by absolute path is not seen. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

extern char **environ;

typedef int (*execve_fn)(const char *, char *const[], char *const[]);
typedef int (*spawn_fn)(pid_t *, const char *, const posix_spawn_file_actions_t *, const posix_spawnattr_t *,
                        char *const[], char *const[]);

static execve_fn real_execve;
static execve_fn real_execvpe;
static spawn_fn real_spawn, real_spawnp;

__attribute__((constructor)) static void resolve(void)
{
	real_execve = (execve_fn)dlsym(RTLD_NEXT, "execve");
	real_execvpe = (execve_fn)dlsym(RTLD_NEXT, "execvpe");
	real_spawn = (spawn_fn)dlsym(RTLD_NEXT, "posix_spawn");
	real_spawnp = (spawn_fn)dlsym(RTLD_NEXT, "posix_spawnp");
}

static const char *env_get(char *const *envp, const char *name)
{
	size_t n = strlen(name);
	for (size_t i = 0; envp && envp[i]; i++)
		if (strncmp(envp[i], name, n) == 0 && envp[i][n] == '=')
			return envp[i] + n + 1;
	return NULL;
}

/* The wrapper to start in place of `path` (into buf), or NULL to exec path
 * itself: path names a program with a slash, whose base name capture wraps,
 * outside DIR/bin, and the environment is a capture's and not the wrapper's
 * own run of the real tool. */
static const char *redirect(const char *path, char *const *envp, char *buf, size_t size)
{
	const char *bin = env_get(envp, "FACET_CAPTURE_BIN");
	if (!path || !strchr(path, '/') || !bin || !*bin || env_get(envp, "FACET_CAPTURE_ACTIVE"))
		return NULL;
	const char *base = strrchr(path, '/') + 1;
	size_t nbin = strlen(bin), dirlen = (size_t)(base - path - 1);
	if (!*base || strncmp(base, "facet-env-", 10) == 0 || (dirlen == nbin && strncmp(path, bin, nbin) == 0))
		return NULL;
	if (nbin + strlen(base) + 2 > size)
		return NULL;
	memcpy(buf, bin, nbin);
	buf[nbin] = '/';
	strcpy(buf + nbin + 1, base);
	struct stat st;
	return lstat(buf, &st) == 0 && S_ISLNK(st.st_mode) ? buf : NULL;
}

/* envp with FACET_CAPTURE_EXEC=path added (an old one dropped), into out
 * (room for n+2 pointers) and var. */
static char **with_exec_var(char *const *envp, const char *path, char **out, char *var, size_t size)
{
	size_t n = strlen(path);
	if (n + 20 > size)
		n = size - 20;   /* not reached: the caller checked the length */
	memcpy(var, "FACET_CAPTURE_EXEC=", 19);
	memcpy(var + 19, path, n);
	var[19 + n] = 0;
	size_t k = 0;
	for (size_t i = 0; envp && envp[i]; i++)
		if (strncmp(envp[i], "FACET_CAPTURE_EXEC=", 19) != 0)
			out[k++] = envp[i];
	out[k++] = var;
	out[k] = NULL;
	return out;
}

static size_t env_count(char *const *envp)
{
	size_t n = 0;
	while (envp && envp[n])
		n++;
	return n;
}

/* Runs CALL with use_ and env_: the wrapper and the environment with
 * FACET_CAPTURE_EXEC when path is redirected, else path and envp. A macro,
 * so that the environment copy lives in the caller's frame (no allocation). */
#define HOOKED(path, envp, CALL)                                                        \
	do {                                                                            \
		char wrap_[PATH_MAX], var_[PATH_MAX + 32];                              \
		const char *to_ = redirect((path), (envp), wrap_, sizeof wrap_);        \
		if (!to_ || strlen(path) + 20 >= sizeof var_) {                         \
			const char *use_ = (path);                                      \
			char *const *env_ = (envp);                                     \
			CALL;                                                           \
		} else {                                                                \
			char *newenv_[env_count(envp) + 2];                             \
			char *const *env_ = with_exec_var((envp), (path), newenv_, var_, sizeof var_); \
			const char *use_ = to_;                                         \
			CALL;                                                           \
		}                                                                       \
	} while (0)

int execve(const char *path, char *const argv[], char *const envp[])
{
	if (!real_execve)
		resolve();
	HOOKED(path, envp, return real_execve(use_, argv, env_));
}

int execv(const char *path, char *const argv[])
{
	return execve(path, argv, environ);
}

/* execvp and kin: a name without a slash is PATH's (DIR/bin comes first);
 * with a slash, it is an exec of that file. */
int execvpe(const char *file, char *const argv[], char *const envp[])
{
	if (!real_execvpe)
		resolve();
	if (strchr(file, '/'))
		return execve(file, argv, envp);
	return real_execvpe(file, argv, envp);
}

int execvp(const char *file, char *const argv[])
{
	return execvpe(file, argv, environ);
}

/* execl, execle, execlp: the arguments gathered on the stack. */
#define GATHER(first, ap, argv, extra)                                  \
	size_t n_ = 1;                                                  \
	va_start(ap, first);                                            \
	while (va_arg(ap, char *))                                      \
		n_++;                                                   \
	va_end(ap);                                                     \
	char *argv[n_ + 1];                                             \
	va_start(ap, first);                                            \
	argv[0] = (char *)(first);                                      \
	for (size_t i_ = 1; i_ <= n_; i_++)                             \
		argv[i_] = va_arg(ap, char *);                          \
	extra;                                                          \
	va_end(ap)

int execl(const char *path, const char *arg, ...)
{
	va_list ap;
	GATHER(arg, ap, argv, (void)0);
	return execve(path, argv, environ);
}

int execlp(const char *file, const char *arg, ...)
{
	va_list ap;
	GATHER(arg, ap, argv, (void)0);
	return execvpe(file, argv, environ);
}

int execle(const char *path, const char *arg, ...)
{
	va_list ap;
	char **envp;
	GATHER(arg, ap, argv, envp = va_arg(ap, char **));
	return execve(path, argv, envp);
}

int posix_spawn(pid_t *pid, const char *path, const posix_spawn_file_actions_t *fa, const posix_spawnattr_t *attr,
                char *const argv[], char *const envp[])
{
	if (!real_spawn)
		resolve();
	HOOKED(path, envp, return real_spawn(pid, use_, fa, attr, argv, env_));
}

int posix_spawnp(pid_t *pid, const char *file, const posix_spawn_file_actions_t *fa, const posix_spawnattr_t *attr,
                 char *const argv[], char *const envp[])
{
	if (!real_spawnp)
		resolve();
	if (strchr(file, '/'))
		return posix_spawn(pid, file, fa, attr, argv, envp);
	return real_spawnp(pid, file, fa, attr, argv, envp);
}
