/* guard.h — what happens when LLVM's reader dies on a hostile input.
 *
 * LLVM's bitcode and IR readers are not hardened: a one-byte flip can make
 * them dereference garbage (SIGSEGV), report_fatal_error ("Broken module
 * found"), or abort on an allocation they cannot make. None of these can
 * be returned from, so while a guard is up the process reports the file it
 * was reading and the cause on a file descriptor, then _exits with status 1:
 * facet dies with a message naming the file instead of a core dump. This is
 * the one place src/ir writes and exits by itself; it runs only on the way
 * to a crash that would end the process anyway.
 *
 * A reader can also loop for ever on a corrupt input (LLVM 22's metadata
 * loader does, on some flipped bytes of a 5 KB module). While a guard is up
 * the process's CPU time is therefore bounded: GUARD_CPU_BASE seconds plus
 * GUARD_CPU_PER_MIB seconds per MiB of every file a guard has named so far
 * (reading a 20 MiB module takes under 2 s; its budget is 100 s); past it
 * the process reports "did not finish" the same way and exits 1.
 *
 * Callers that must survive (the MCP server, through ir_slice_write) run the
 * guarded read in a child process (guard_run_child) and get the message as
 * an ordinary error. */
#ifndef FACET_IR_GUARD_H
#define FACET_IR_GUARD_H

#include <stdbool.h>

#include "util/error.h"

/* Installs the LLVM fatal-error handler and crash-signal handlers; until
 * guard_end, a fatal error writes "PATH: WHAT: CAUSE" to fd and exits 1.
 * Guards nest (the inner begin renames the file and cause; the outermost
 * end takes the handlers down). */
void guard_begin(const char *path, const char *what);
/* Changes the file named in the message (the next input). */
void guard_set_path(const char *path);
void guard_end(void);
/* Where guarded messages go (default 2, stderr); set in a child to a pipe. */
void guard_set_fd(int fd);

#define GUARD_CPU_BASE 20.0
#define GUARD_CPU_PER_MIB 4.0
/* The CPU budget's terms (tests make them small); the defaults above. */
void guard_set_cpu_budget(double base_seconds, double per_mib_seconds);

/* Runs fn(arg, err) in a forked child with guarded messages going to a
 * pipe; returns what fn returned. A child that died (a crash in LLVM, a
 * fatal error) gives false and err holds its message, or, when it left
 * none, "PATH: LLVM's reader died (signal N) reading it". */
bool guard_run_child(bool (*fn)(void *arg, facet_error *err), void *arg, const char *path, facet_error *err);

#endif
