/* spawn.h — running a program and waiting for it, without a shell.
 *
 * Used by the wrapper (the native compiler, the bitcode compile, llvm-nm)
 * and by extract (llvm-link). Arguments are never re-parsed by a shell. */
#ifndef FACET_CAPTURE_SPAWN_H
#define FACET_CAPTURE_SPAWN_H

#include <stdbool.h>
#include <sys/types.h>

/* Starts argv[0] (looked up on PATH when it has no slash) with its stdin
 * inherited, stdout going to out_fd and stderr to err_fd (-1: inherited).
 * Returns the child's pid, or -1 when fork fails (an exec failure shows as
 * exit status 127). */
pid_t capture_spawn(char *const *argv, int out_fd, int err_fd);
/* The same, the child run in directory cwd (NULL, or one it cannot enter:
 * the caller's) with stdin from /dev/null. */
pid_t capture_spawn_at(char *const *argv, const char *cwd, int out_fd, int err_fd);
/* Waits for pid; returns its exit status, 128+N when killed by signal N. */
int capture_wait(pid_t pid);
/* Waits for any child; *pid is the one that ended (-1: no child left, the
 * status is then 127). Returns its status as capture_wait does. */
int capture_wait_any(pid_t *pid);
/* Runs argv to completion with stdout and stderr collected into one malloc'd
 * NUL-terminated string (*text, may be NULL); returns the exit status. */
int capture_run_collect(char *const *argv, char **text);

#endif
