/* dynarray.c — input and output filter chains kept in growable vectors:
 * the vector headers come from calloc, their item arrays grow with
 * realloc, and vec_push() stores each filter's accept callback.  A
 * rejection hook of the same IR type is kept apart in a plain local.
 *
 * Covers: function pointers in heap arrays allocated by calloc and grown
 * by realloc (the contents written before and after a move must both be
 * seen).  vec_push and its one realloc site serve both vectors, so the
 * filter site in pass() gets every pushed filter, whichever vector it
 * walks; count_reject is never pushed. */
#include <stdio.h>
#include <stdlib.h>
#include "observe.h"

struct filter {
	const char *name;
	int (*accept)(int c);
};

struct filter_vec {
	struct filter *items;
	size_t len, cap;
};

static int is_printable(int c)
{
	OBSERVE_TARGET();
	return c >= 32 && c < 127;
}

static int not_space(int c)
{
	OBSERVE_TARGET();
	return c != ' ';
}

static int not_vowel(int c)
{
	OBSERVE_TARGET();
	return c != 'a' && c != 'e' && c != 'i' && c != 'o' && c != 'u';
}

static int is_lower(int c)
{
	OBSERVE_TARGET();
	return c >= 'a' && c <= 'z';
}

static int rejected;

static int count_reject(int c)
{
	OBSERVE_TARGET();
	rejected++;
	return c;
}

static void vec_push(struct filter_vec *v, const char *name, int (*accept)(int))
{
	if (v->len == v->cap) {
		v->cap = v->cap ? 2 * v->cap : 1;
		v->items = realloc(v->items, v->cap * sizeof *v->items);
		if (!v->items)
			abort();
	}
	v->items[v->len].name = name;
	v->items[v->len].accept = accept;
	v->len++;
}

static int pass(const struct filter_vec *v, int c)
{
	for (size_t i = 0; i < v->len; i++)
		if (!ICALL(v->items[i].accept(c))) /* @r0: is_lower is_printable not_space not_vowel */
			return 0;
	return 1;
}

char input[] = "a dynamic\tarray of filters";

int main(void)
{
	struct filter_vec *in = calloc(1, sizeof *in), *out = calloc(1, sizeof *out);
	int (*on_reject)(int) = count_reject;
	char buf[sizeof input];
	size_t n = 0;

	if (!in || !out)
		return 1;
	vec_push(in, "printable", is_printable);
	vec_push(in, "nospace", not_space);
	vec_push(out, "novowel", not_vowel);
	vec_push(out, "lower", is_lower);
	vec_push(out, "printable", is_printable);
	for (const char *p = input; *p; p++) {
		if (pass(in, *p) && pass(out, *p))
			buf[n++] = *p;
		else
			ICALL(on_reject(*p)); /* @r0: count_reject */
	}
	buf[n] = '\0';
	printf("%s (%d rejected; last out filter %s)\n", buf, rejected, out->items[out->len - 1].name);
	free(in->items), free(out->items), free(in), free(out);
	return 0;
}
