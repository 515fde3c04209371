/* hash.c — SHA-256 of memory and files (util/sha256, the one SHA-256 of facet). */
#include "capture/hash.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/sha256.h"
#include "util/xalloc.h"

void capture_hash_mem(const void *data, size_t n, char hex[CAPTURE_HASH_HEX])
{
	hash_sha256_hex(data, n, hex);
}

unsigned char *capture_read_file(const char *path, size_t *n, facet_error *err)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		error_set(err, "%s: %s", path, strerror(errno));
		return NULL;
	}
	size_t cap = 1 << 16, len = 0;
	unsigned char *buf = xmalloc(cap);
	for (;;) {
		if (len == cap)
			buf = xrealloc(buf, cap *= 2);
		size_t got = fread(buf + len, 1, cap - len, f);
		len += got;
		if (got == 0)
			break;
	}
	bool bad = ferror(f);
	fclose(f);
	if (bad) {
		error_set(err, "%s: read error", path);
		free(buf);
		return NULL;
	}
	*n = len;
	return buf;
}

bool capture_hash_file(const char *path, char hex[CAPTURE_HASH_HEX], facet_error *err)
{
	size_t n;
	unsigned char *buf = capture_read_file(path, &n, err);
	if (!buf)
		return false;
	capture_hash_mem(buf, n, hex);
	free(buf);
	return true;
}
