/* plugins.c — a program whose indirect calls a points-to analysis cannot
 * bound: codecs register their operation tables with a registry outside the
 * program (codec_register, codec_lookup are only declared), and main calls
 * through the table the registry hands back.  The functions stored into the
 * table's fields are visible only in the initializers below: exactly the
 * case seed 001's loop is for (resolution_candidates lists them; an agent
 * reads the assignments and records the edges).
 *
 * Compiled to bitcode only (the registry is never linked); the MCP tests
 * build a catalog from it.  Expected answers, read from this source:
 *   - codec->decode(...) in run_codec (line marked @site decode) has no
 *     target in r0: the table comes from codec_lookup, an external.
 *   - candidates for codec_ops.decode: rle_decode and hex_decode, both with
 *     the field's signature; for codec_ops.reset: rle_reset (same
 *     signature) and legacy_reset (stored through a cast; int against
 *     void *, which the paper's compatibility accepts); for codec_ops.flush:
 *     legacy_flush only, stored through a cast and taking two ints against
 *     the field's one pointer, so no signature rule lets the refinement add
 *     it either: codec->flush(...) stays unresolved in every graph, the
 *     site an agent completes.
 *   - main reaches run_codec directly, and legacy_flush only through the
 *     unresolved flush site. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

struct codec_ops {
	const char *name;
	size_t (*decode)(const char *in, char *out, size_t n);
	void (*reset)(void *state);
	void (*flush)(void *state);
};

/* The registry lives outside the program. */
void codec_register(const struct codec_ops *ops);
const struct codec_ops *codec_lookup(const char *name);

static size_t rle_decode(const char *in, char *out, size_t n)
{
	size_t k = 0;
	for (size_t i = 0; i + 1 < n && in[i]; i += 2)
		for (int r = in[i] - '0'; r > 0; r--)
			out[k++] = in[i + 1];
	out[k] = 0;
	return k;
}

static size_t hex_decode(const char *in, char *out, size_t n)
{
	size_t k = 0;
	for (size_t i = 0; i + 1 < n && in[i]; i += 2) {
		unsigned v;
		sscanf(in + i, "%2x", &v);
		out[k++] = (char)v;
	}
	out[k] = 0;
	return k;
}

static void rle_reset(void *state)
{
	memset(state, 0, 16);
}

/* An old reset that takes an int: stored below through a cast (by way of
 * void (*)(void), the idiom that tells the compiler the mismatch is meant). */
static void legacy_reset(int level)
{
	printf("legacy reset %d\n", level);
}

/* Flushes with a level and a force flag: also stored through a cast. */
static void legacy_flush(int level, int force)
{
	printf("legacy flush %d %d\n", level, force);
}

static const struct codec_ops rle_ops = {"rle", rle_decode, rle_reset, NULL};
static const struct codec_ops hex_ops = {"hex", hex_decode, (void (*)(void *))(void (*)(void))legacy_reset,
                                         (void (*)(void *))(void (*)(void))legacy_flush};

size_t run_codec(const char *name, const char *in, char *out, size_t n)
{
	const struct codec_ops *codec = codec_lookup(name);
	if (!codec)
		return 0;
	char state[16];
	codec->reset(state); /* @site reset */
	size_t k = codec->decode(in, out, n); /* @site decode */
	if (codec->flush)
		codec->flush(state); /* @site flush */
	return k;
}

int main(int argc, char **argv)
{
	char out[64];
	codec_register(&rle_ops);
	codec_register(&hex_ops);
	size_t k = run_codec(argc > 1 ? argv[1] : "rle", "3a2b", out, sizeof out);
	printf("%zu %s\n", k, out);
	return 0;
}
