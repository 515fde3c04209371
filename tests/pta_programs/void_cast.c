/* void_cast.c — two uses of void *: a symbol table of text utilities
 * stored as void * and cast back to the right type after a lookup by name
 * (the dlsym(3) idiom), and a job queue whose jobs receive their context
 * as void *.
 *
 * Covers: function pointers through void * casts; the FLTA type filter:
 * lookup() returns every symbol (the table is indexed by a variable), so
 * Andersen's set at each lookup site is all five utilities, and R0 keeps
 * those whose IR type equals the call's.  long and unsigned long are both
 * i64, so checksum and total_len share a type.  A context passed as void *
 * still carries its field's targets. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include "observe.h"

static int count_vowels(const char *s)
{
	OBSERVE_TARGET();
	int n = 0;
	for (; *s; s++)
		n += strchr("aeiou", *s) != NULL;
	return n;
}

static int count_words(const char *s)
{
	OBSERVE_TARGET();
	int n = 0, in = 0;
	for (; *s; s++) {
		n += !in && !isspace((unsigned char)*s);
		in = !isspace((unsigned char)*s);
	}
	return n;
}

static void to_upper(char *s)
{
	OBSERVE_TARGET();
	for (; *s; s++)
		*s = (char)toupper((unsigned char)*s);
}

static unsigned long checksum(const char *s)
{
	OBSERVE_TARGET();
	unsigned long h = 0;
	while (*s)
		h = h * 31 + (unsigned char)*s++;
	return h;
}

static long total_len(const char *s)
{
	OBSERVE_TARGET();
	return (long)strlen(s);
}

struct symbol {
	const char *name;
	void *addr;
};

static const struct symbol symtab[] = {
	{"count_vowels", (void *)count_vowels},
	{"count_words", (void *)count_words},
	{"to_upper", (void *)to_upper},
	{"checksum", (void *)checksum},
	{"total_len", (void *)total_len},
};

static void *lookup(const char *name)
{
	for (size_t i = 0; i < sizeof symtab / sizeof symtab[0]; i++)
		if (strcmp(symtab[i].name, name) == 0)
			return symtab[i].addr;
	return NULL;
}

/* The job queue. */
struct tally {
	int (*match)(int c);
	int hits;
};

struct job {
	void (*run)(void *ctx);
	void *ctx;
};

static int is_vowel(int c)
{
	OBSERVE_TARGET();
	return strchr("aeiou", c) != NULL;
}

static int is_digit(int c)
{
	OBSERVE_TARGET();
	return c >= '0' && c <= '9';
}

char text[] = "we have 2 words and 3 digits, 42";

static void count_matching(void *ctx)
{
	OBSERVE_TARGET();
	struct tally *t = ctx;
	for (const char *p = text; *p; p++)
		t->hits += ICALL(t->match(*p)); /* @r0: is_digit is_vowel */
}

static void print_label(void *ctx)
{
	OBSERVE_TARGET();
	printf("[%s]\n", (const char *)ctx);
}

int main(void)
{
	char buf[sizeof text];
	int (*counter)(const char *) = (int (*)(const char *))lookup("count_words");
	void (*mutate)(char *) = (void (*)(char *))lookup("to_upper");
	unsigned long (*hash)(const char *) = (unsigned long (*)(const char *))lookup("checksum");

	if (!counter || !mutate || !hash)
		return 1;
	memcpy(buf, text, sizeof buf);
	int words = ICALL(counter(buf)); /* @r0: count_vowels count_words @andersen: checksum count_vowels count_words to_upper total_len */
	ICALL(mutate(buf)); /* @r0: to_upper @andersen: checksum count_vowels count_words to_upper total_len */
	unsigned long h = ICALL(hash(buf)); /* @r0: checksum total_len @andersen: checksum count_vowels count_words to_upper total_len */
	printf("%s: %d words, hash %lx\n", buf, words, h);

	struct tally vowels = {is_vowel, 0}, digits = {is_digit, 0};
	struct job jobs[] = {
		{print_label, "tallies"},
		{count_matching, &vowels},
		{count_matching, &digits},
	};
	for (int i = 0; i < 3; i++)
		ICALL(jobs[i].run(jobs[i].ctx)); /* @r0: count_matching print_label */
	printf("%d vowels, %d digits\n", vowels.hits, digits.hits);
	return 0;
}
