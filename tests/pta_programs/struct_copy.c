/* struct_copy.c — byte codecs as small structs of two same-typed function
 * pointers (encode, decode), copied around: by struct assignment, by
 * memcpy, into a heap object, and into a local pipeline array.
 *
 * Covers: a function pointer copied by struct assignment and by memcpy
 * (both lower to a memory copy; a field-sensitive copy keeps encode and
 * decode apart); a copy into a heap object; a variably indexed array of
 * structs (see the comment at the pipeline site). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "observe.h"

struct codec {
	const char *name;
	int (*encode)(int c);
	int (*decode)(int c);
};

static int rot_enc(int c)
{
	OBSERVE_TARGET();
	if (c >= 'a' && c <= 'z')
		return 'a' + (c - 'a' + 13) % 26;
	return c;
}

static int rot_dec(int c)
{
	OBSERVE_TARGET();
	if (c >= 'a' && c <= 'z')
		return 'a' + (c - 'a' + 13) % 26;
	return c;
}

static int xor_enc(int c)
{
	OBSERVE_TARGET();
	return c ^ 0x20;
}

static int xor_dec(int c)
{
	OBSERVE_TARGET();
	return c ^ 0x20;
}

static const struct codec rot13 = {"rot13", rot_enc, rot_dec};
static const struct codec flipcase = {"flipcase", xor_enc, xor_dec};

char plain[] = "hello";

int main(void)
{
	struct codec a = rot13;
	struct codec b;
	char buf[sizeof plain];

	memcpy(&b, &flipcase, sizeof b);
	for (size_t i = 0; i < sizeof plain - 1; i++) {
		int c = ICALL(a.encode(plain[i])); /* @r0: rot_enc */
		c = ICALL(b.encode(c)); /* @r0: xor_enc */
		c = ICALL(b.decode(c)); /* @r0: xor_dec */
		buf[i] = (char)ICALL(a.decode(c)); /* @r0: rot_dec */
	}
	buf[sizeof plain - 1] = '\0';

	struct codec *h = malloc(sizeof *h);
	if (!h)
		return 1;
	*h = b;
	printf("%s via %s: %c\n", buf, h->name, ICALL(h->encode('q'))); /* @r0: xor_enc */

	/* A variable index into an array of structs: an analysis that keeps the
	 * fields of the elements apart answers {rot_enc, xor_enc}; one that
	 * collapses the array (DESIGN: a variable index collapses the whole
	 * object) also merges the decode fields, which have the same IR type. */
	struct codec pipeline[2];
	pipeline[0] = a;
	pipeline[1] = *h;
	int c = 'm';
	for (int i = 0; i < 2; i++)
		c = ICALL(pipeline[i].encode(c)); /* @r0-superset-of-observed @r0-within: rot_dec rot_enc xor_dec xor_enc */
	printf("%c\n", c);
	free(h);
	return 0;
}
