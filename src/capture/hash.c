/* hash.c — SHA-256 of memory and files through OpenSSL's libcrypto. */
#include "capture/hash.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "util/xalloc.h"

static void to_hex(const unsigned char *md, unsigned len, char hex[CAPTURE_HASH_HEX])
{
	static const char digits[] = "0123456789abcdef";
	for (unsigned i = 0; i < len && i < 32; i++) {
		hex[2 * i] = digits[md[i] >> 4];
		hex[2 * i + 1] = digits[md[i] & 15];
	}
	hex[64] = 0;
}

void capture_hash_mem(const void *data, size_t n, char hex[CAPTURE_HASH_HEX])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned len = 0;
	EVP_Digest(data, n, md, &len, EVP_sha256(), NULL);
	to_hex(md, len, hex);
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
