/* sha256.h — SHA-256 (FIPS 180-4), for the cache's prompt hashes. */
#ifndef FACET_ORACLE_SHA256_H
#define FACET_ORACLE_SHA256_H

#include <stddef.h>

/* Writes the 64 lowercase hex digits and a NUL into hex[65]. */
void oracle_sha256_hex(const void *data, size_t n, char hex[65]);

#endif
