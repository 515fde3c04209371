/* two_tables.c — two digest algorithms behind one operations struct:
 * crc_ops and adler_ops have the same field types, so FLTA (type only)
 * would give every site both tables' functions.  The streaming path uses
 * only crc_ops through a local pointer, the verifier only adler_ops; a
 * shared helper digest() is called with both.
 *
 * Covers: two same-signature function tables where only one reaches a
 * site, so R0 there is exact (one function); the shared helper's sites get
 * both tables (context insensitivity); init/update/final fields of one
 * table keep apart (init and final have the same IR type, i32 (i32)). */
#include <stddef.h>
#include <stdio.h>
#include "observe.h"

struct digest_ops {
	const char *name;
	unsigned (*init)(unsigned seed);
	unsigned (*update)(unsigned state, const unsigned char *p, size_t n);
	unsigned (*final)(unsigned state);
};

static unsigned crc_init(unsigned seed)
{
	OBSERVE_TARGET();
	return ~seed;
}

static unsigned crc_update(unsigned state, const unsigned char *p, size_t n)
{
	OBSERVE_TARGET();
	while (n--) {
		state ^= *p++;
		for (int k = 0; k < 8; k++)
			state = (state >> 1) ^ (0xEDB88320u & -(state & 1));
	}
	return state;
}

static unsigned crc_final(unsigned state)
{
	OBSERVE_TARGET();
	return ~state;
}

static unsigned adler_init(unsigned seed)
{
	OBSERVE_TARGET();
	return seed ? seed : 1;
}

static unsigned adler_update(unsigned state, const unsigned char *p, size_t n)
{
	OBSERVE_TARGET();
	unsigned a = state & 0xffff, b = state >> 16;
	while (n--) {
		a = (a + *p++) % 65521;
		b = (b + a) % 65521;
	}
	return b << 16 | a;
}

static unsigned adler_final(unsigned state)
{
	OBSERVE_TARGET();
	return state;
}

static const struct digest_ops crc_ops = {"crc32", crc_init, crc_update, crc_final};
static const struct digest_ops adler_ops = {"adler32", adler_init, adler_update, adler_final};

static unsigned digest(const struct digest_ops *ops, const char *s, size_t n)
{
	unsigned st = ICALL(ops->init(0)); /* @r0: adler_init crc_init */
	st = ICALL(ops->update(st, (const unsigned char *)s, n)); /* @r0: adler_update crc_update */
	return ICALL(ops->final(st)); /* @r0: adler_final crc_final */
}

unsigned char blocks[3][9] = {"facet-r0", "andersen", "tables!!"};

static unsigned stream_crc(void)
{
	const struct digest_ops *fast = &crc_ops;
	unsigned st = ICALL(fast->init(0)); /* @r0: crc_init */
	for (int i = 0; i < 3; i++)
		st = ICALL(fast->update(st, blocks[i], sizeof blocks[i])); /* @r0: crc_update */
	return ICALL(fast->final(st)); /* @r0: crc_final */
}

static int verify_adler(unsigned expect)
{
	const struct digest_ops *v = &adler_ops;
	unsigned st = ICALL(v->init(1)); /* @r0: adler_init */
	st = ICALL(v->update(st, blocks[0], sizeof blocks[0])); /* @r0: adler_update */
	return ICALL(v->final(st)) == expect; /* @r0: adler_final */
}

int main(void)
{
	unsigned c = digest(&crc_ops, (const char *)blocks[0], sizeof blocks[0]);
	unsigned a = digest(&adler_ops, (const char *)blocks[0], sizeof blocks[0]);

	printf("%s %08x, %s %08x\n", crc_ops.name, c, adler_ops.name, a);
	printf("stream %08x, verify %s\n", stream_crc(), verify_adler(a) ? "ok" : "BAD");
	return 0;
}
