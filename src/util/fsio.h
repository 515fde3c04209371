/* fsio.h — reading files that may be hostile: regular files of bounded size.
 *
 * A path given by a person or an agent may name a FIFO (opening it blocks),
 * a device (/dev/zero never ends), a directory, or a file larger than any
 * input facet reads. Every reader checks first, through here, so none of
 * them hangs or grows without bound. Opening uses O_NONBLOCK, so the check
 * itself never blocks on a FIFO. */
#ifndef FACET_UTIL_FSIO_H
#define FACET_UTIL_FSIO_H

#include <stdbool.h>
#include <stddef.h>

#include "util/error.h"

/* Opens path read-only after checking it is a regular file of at most
 * max_bytes (0: no limit). Returns the descriptor (blocking mode restored),
 * or -1 with err "PATH: cannot read WHAT: ..." / "PATH: WHAT is not a
 * regular file (a FIFO)" / "... is larger than N bytes". */
int fsio_open_regular(const char *path, size_t max_bytes, const char *what, facet_error *err);

/* The same check for readers that open the file themselves (SQLite, LLVM). */
bool fsio_check_regular(const char *path, size_t max_bytes, const char *what, facet_error *err);

/* Reads the whole of a checked regular file into a NUL-terminated heap
 * buffer (*text, length *len). */
bool fsio_read_file(const char *path, size_t max_bytes, const char *what, char **text, size_t *len,
                    facet_error *err);
/* The same from an open descriptor (a pipe, stdin) to its end, named path
 * in messages; max_bytes 0: no bound. The caller closes fd. */
bool fsio_read_fd(int fd, const char *path, size_t max_bytes, const char *what, char **text, size_t *len,
                  facet_error *err);

/* The name of a file type for messages: "a FIFO", "a directory", ... */
const char *fsio_type_name(unsigned mode);

#endif
