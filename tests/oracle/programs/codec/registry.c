/* registry.c — the codec registry codec.c uses; linked only into the native
 * binary (the ground truth), never given to facet. */
#include <string.h>

struct codec {
	const char *name;
	int (*encode)(int x);
	int (*decode)(int x);
};

static struct codec codecs[8];
static int n_codecs;

void codec_register(const char *name, int (*encode)(int), int (*decode)(int))
{
	codecs[n_codecs].name = name;
	codecs[n_codecs].encode = encode;
	codecs[n_codecs].decode = decode;
	n_codecs++;
}

struct codec *codec_find(const char *name)
{
	for (int i = 0; i < n_codecs; i++)
		if (!strcmp(codecs[i].name, name))
			return &codecs[i];
	return 0;
}
