/* state_machine.c — a tokenizer written as a state machine: each state is
 * a function that consumes one character and returns the next state,
 * wrapped in a one-field struct so that it can name its own type.  A
 * character classifier with the same IR type is called through a pointer
 * of its own.
 *
 * Covers: function pointers returned from functions inside a struct
 * returned by value (one pointer: returned as a plain ptr in IR) and
 * called in a loop; the state sites get every state, and not class_name,
 * whose IR type ptr (i32) is the states' type too. */
#include <ctype.h>
#include <stdio.h>
#include "observe.h"

struct state {
	struct state (*next)(int c);
};

static int nwords, nnumbers, nerrors;

static struct state st_start(int c);
static struct state st_word(int c);
static struct state st_number(int c);
static struct state st_done(int c);

static struct state st_start(int c)
{
	OBSERVE_TARGET();
	if (isalpha(c)) {
		nwords++;
		return (struct state){st_word};
	}
	if (isdigit(c)) {
		nnumbers++;
		return (struct state){st_number};
	}
	if (c == '\0')
		return (struct state){st_done};
	if (!isspace(c))
		nerrors++;
	return (struct state){st_start};
}

static struct state st_word(int c)
{
	OBSERVE_TARGET();
	if (isalnum(c))
		return (struct state){st_word};
	return st_start(c);
}

static struct state st_number(int c)
{
	OBSERVE_TARGET();
	if (isdigit(c))
		return (struct state){st_number};
	if (isalpha(c))
		nerrors++;
	return st_start(c);
}

static struct state st_done(int c)
{
	OBSERVE_TARGET();
	(void)c;
	return (struct state){st_done};
}

static const char *class_name(int c)
{
	OBSERVE_TARGET();
	return isalpha(c) ? "alpha" : isdigit(c) ? "digit" : "other";
}

char tokens[] = "let x1 = 42 + y;";

int main(void)
{
	struct state s = {st_start};
	const char *(*classify)(int) = class_name;
	const char *p = tokens;

	do {
		s = ICALL(s.next((unsigned char)*p)); /* @r0: st_done st_number st_start st_word */
	} while (*p++);
	s = ICALL(s.next(0)); /* @r0: st_done st_number st_start st_word */
	const char *first = ICALL(classify(tokens[0])); /* @r0: class_name */
	printf("%d words, %d numbers, %d errors; first is %s\n", nwords, nnumbers, nerrors, first);
	return 0;
}
