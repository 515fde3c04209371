/* atomic.h — replacing a file whole, or not at all.
 *
 * Every output facet writes (catalog, overlay, bitcode) goes through here:
 * a temporary file PATH.tmp-PID created with O_CREAT|O_EXCL|O_NOFOLLOW in
 * the target's own directory (a planted file or symlink makes the create
 * fail instead of redirecting the write), written, fsync'ed, renamed over
 * PATH, and the directory fsync'ed, so after a crash or power loss PATH
 * holds either the old file or the whole new one. A failure, or SIGINT,
 * SIGTERM or SIGHUP while the temporary exists, removes it; temporaries of
 * PATH that a killed writer left (its PID no longer runs) are removed when
 * PATH is next opened for writing.
 *
 * Before anything is created the destination is checked: when PATH exists
 * it must be a regular file (never a device, FIFO, directory or symlink), of
 * the kind being written (the caller's kind test over its first bytes: an
 * overlay is only replaced by an overlay), and none of the files the caller
 * protects (its inputs). */
#ifndef FACET_UTIL_ATOMIC_H
#define FACET_UTIL_ATOMIC_H

#include <stdbool.h>
#include <stddef.h>

#include "util/error.h"

/* True when the existing file whose first n bytes are head (n may be less
 * than asked for) is of the kind being written and may be replaced. */
typedef bool (*atomic_kind_fn)(const unsigned char *head, size_t n);

typedef struct atomic_target {
	const char *what;              /* "the overlay", for messages */
	atomic_kind_fn kind;           /* NULL: any regular file may be replaced */
	const char *kind_name;         /* "a facet overlay", for messages */
	const char *const *protect;    /* files that must not be replaced (inputs) */
	unsigned n_protect;
} atomic_target;

typedef struct atomic_file {
	char *path;      /* the destination */
	char *tmp;       /* the temporary, or NULL once committed/aborted */
	int fd;          /* open on tmp, -1 after commit/abort */
} atomic_file;

/* Checks path against t and creates the temporary (mode 0644 less umask). */
bool atomic_open(atomic_file *a, const char *path, const atomic_target *t, facet_error *err);
/* Writes n bytes to the temporary (retrying short writes). */
bool atomic_write(atomic_file *a, const void *buf, size_t n, facet_error *err);
/* fsync, close, rename over the destination, fsync the directory. On
 * failure the temporary is removed and err says why. */
bool atomic_commit(atomic_file *a, facet_error *err);
/* A file another program wrote at tmp (the caller's temporary, in path's
 * directory: a linker's output) becomes path as a committed one does: path
 * checked against t, tmp fsync'ed, renamed over path, the directory
 * fsync'ed. On failure tmp is removed and err says why. */
bool atomic_install(const char *tmp, const char *path, const atomic_target *t, facet_error *err);
/* Removes the temporary (after a failure). Safe to call twice. */
void atomic_abort(atomic_file *a);

/* Checks only (what atomic_open checks before creating anything). */
bool atomic_check_target(const char *path, const atomic_target *t, facet_error *err);

/* fsync of the directory holding path (after a rename). */
bool atomic_sync_dir(const char *path);

#endif
