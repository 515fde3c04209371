/* codec.c — sites Andersen leaves empty, with a runtime ground truth.
 *
 * The codecs are registered with, and looked up from, a registry the
 * analysed program does not define (registry.c is linked only into the
 * native binary that produces the ground truth), so R0, R+ and the
 * symbolic R± are empty at both sites and each becomes a completion
 * question over the four address-taken int(int) functions. At run time the
 * encode site calls exactly the two encoders and the decode site exactly
 * the two decoders: each callee prints the site it was called from. */
#include <stdio.h>

struct codec {
	const char *name;
	int (*encode)(int x);
	int (*decode)(int x);
};

/* Defined in registry.c, which facet does not see. */
extern void codec_register(const char *name, int (*encode)(int), int (*decode)(int));
extern struct codec *codec_find(const char *name);

static const char *current_site = "?";

int rot_encode(int x) { printf("%s rot_encode\n", current_site); return x + 13; }
int rot_decode(int x) { printf("%s rot_decode\n", current_site); return x - 13; }
int xor_encode(int x) { printf("%s xor_encode\n", current_site); return x ^ 0x5a; }
int xor_decode(int x) { printf("%s xor_decode\n", current_site); return x ^ 0x5a; }

__attribute__((noinline)) int encode_with(const char *name, int x)
{
	struct codec *c = codec_find(name);
	current_site = "enc";
	return c->encode(x); /* SITE enc */
}

__attribute__((noinline)) int decode_with(const char *name, int x)
{
	struct codec *c = codec_find(name);
	current_site = "dec";
	return c->decode(x); /* SITE dec */
}

int main(void)
{
	codec_register("rot", rot_encode, rot_decode);
	codec_register("xor", xor_encode, xor_decode);
	int a = decode_with("rot", encode_with("rot", 7));
	int b = decode_with("xor", encode_with("xor", 7));
	return a == 7 && b == 7 ? 0 : 1;
}

/* Ground truth (checked against the native run by check_oracle.py):
 // TRUTH enc: rot_encode xor_encode
 // TRUTH dec: rot_decode xor_decode
 */
