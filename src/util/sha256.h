/* sha256.h — SHA-256 (FIPS 180-4): the oracle cache's prompt hashes, capture's object keys. */
#ifndef FACET_UTIL_SHA256_H
#define FACET_UTIL_SHA256_H

#include <stddef.h>

/* Writes the 64 lowercase hex digits and a NUL into hex[65]. */
void hash_sha256_hex(const void *data, size_t n, char hex[65]);

#endif
