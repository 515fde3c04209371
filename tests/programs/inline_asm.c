/* inline_asm.c — inline assembly next to ordinary calls: a checksum loop
 * kept honest with an optimisation barrier, a compiler memory fence, and a
 * no-op used as a marker instruction.  The asm is target-neutral.
 *
 * Usage: inline_asm [TEXT...]   (checksums each argument, or a fixed text) */
#include <stdio.h>
#include <string.h>

static unsigned opaque(unsigned v)
{
	__asm__ volatile("" : "+r"(v)); /* @asm */
	return v;
}

static void fence(void)
{
	__asm__ volatile("" ::: "memory"); /* @asm */
}

unsigned checksum(const char *s, size_t n)
{
	unsigned h = 2166136261u;
	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h = opaque(h * 16777619u); /* @inline-call opaque */
	}
	return h;
}

int main(int argc, char **argv)
{
	static const char fallback[] = "the quick brown fox";
	unsigned acc = 0;

	__asm__ volatile("nop"); /* @asm */
	if (argc < 2) {
		acc = checksum(fallback, strlen(fallback)); /* @inline-call checksum (strlen of a constant array is folded by clang) */
	} else {
		for (int i = 1; i < argc; i++) {
			fence(); /* @inline-call fence */
			acc ^= checksum(argv[i], strlen(argv[i])); /* @inline-call checksum @call strlen */
		}
	}
	printf("%08x\n", acc); /* @call printf */
	return 0;
}
