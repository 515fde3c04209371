/* hash.h — content hashes that key capture's records (SHA-256, lowercase hex).
 *
 * An object is known by the hash of its bytes, so its bitcode is found again
 * wherever the object went: copied, renamed, installed, or stored unchanged as
 * an archive member. */
#ifndef FACET_CAPTURE_HASH_H
#define FACET_CAPTURE_HASH_H

#include <stdbool.h>
#include <stddef.h>

#include "util/error.h"

#define CAPTURE_HASH_HEX 65   /* 64 hex digits and a NUL */

/* The hash of n bytes at data. */
void capture_hash_mem(const void *data, size_t n, char hex[CAPTURE_HASH_HEX]);
/* The hash of a file's bytes; false (err names the file) when it cannot be read. */
bool capture_hash_file(const char *path, char hex[CAPTURE_HASH_HEX], facet_error *err);
/* Reads a whole file into a malloc'd buffer (*n bytes); NULL and err on failure. */
unsigned char *capture_read_file(const char *path, size_t *n, facet_error *err);

#endif
