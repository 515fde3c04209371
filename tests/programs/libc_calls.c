/* libc_calls.c — a word-frequency counter made of libc calls: stdio, string
 * functions, heap management, and character classes through a lookup of our
 * own (the <ctype.h> macros would hide the calls behind glibc internals).
 *
 * Usage: libc_calls [FILE]   (reads FILE, or standard input) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct word {
	char *text;
	unsigned count;
};

struct table {
	struct word *words;
	size_t len, cap;
};

static int is_word_char(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

static int add_word(struct table *t, const char *w)
{
	for (size_t i = 0; i < t->len; i++) {
		if (strcmp(t->words[i].text, w) == 0) { /* @call strcmp */
			t->words[i].count++;
			return 0;
		}
	}
	if (t->len == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 16;
		struct word *nw = realloc(t->words, cap * sizeof *nw); /* @call realloc */
		if (!nw)
			return -1;
		t->words = nw;
		t->cap = cap;
	}
	char *copy = strdup(w); /* @call strdup */
	if (!copy)
		return -1;
	t->words[t->len].text = copy;
	t->words[t->len].count = 1;
	t->len++;
	return 0;
}

static int count_words(FILE *in, struct table *t)
{
	char line[256], word[64];

	while (fgets(line, sizeof line, in)) { /* @call fgets */
		size_t n = 0;
		for (char *p = line;; p++) {
			if (is_word_char((unsigned char)*p) && n + 1 < sizeof word) { /* @call(O0) is_word_char */
				word[n++] = *p;
				continue;
			}
			if (n > 0) {
				word[n] = '\0';
				if (add_word(t, word) != 0) /* @inline-call add_word */
					return -1;
				n = 0;
			}
			if (*p == '\0')
				break;
		}
	}
	return ferror(in) ? -1 : 0; /* @call ferror */
}

int main(int argc, char **argv)
{
	FILE *in = stdin;
	struct table t = {NULL, 0, 0};

	if (argc > 1) {
		in = fopen(argv[1], "r"); /* @call fopen */
		if (!in) {
			perror(argv[1]); /* @call perror */
			return 1;
		}
	}
	int status = count_words(in, &t); /* @inline-call count_words */
	if (in != stdin)
		fclose(in); /* @call fclose */
	for (size_t i = 0; i < t.len; i++) {
		printf("%6u %s\n", t.words[i].count, t.words[i].text); /* @call printf */
		free(t.words[i].text); /* @call free */
	}
	free(t.words); /* @call free */
	if (status != 0)
		fputs("libc_calls: read error or out of memory\n", stderr); /* @call(O0) fputs @call(O2) fwrite=fputs */
	return status != 0;
}
