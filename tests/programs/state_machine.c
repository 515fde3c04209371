/* state_machine.c — states as functions that return the next state: a
 * tokenizer for comma-separated fields with quoting.  Each state handler is
 * found through the struct returned by the previous one, so every step is an
 * indirect call.  Definitions use the GNU layout (type on its own line).
 *
 * Usage: state_machine [LINE]   (default: a sample CSV line) */
#include <stdio.h>
#include <string.h>

struct lexer;
struct state {
	struct state (*fn)(struct lexer *lx);
};

struct lexer {
	const char *p;
	char field[64];
	size_t len;
	int fields;
};

static struct state st_field(struct lexer *lx);
static struct state st_quoted(struct lexer *lx);

static void
emit(struct lexer *lx)
{
	lx->field[lx->len] = '\0';
	printf("field %d: [%s]\n", ++lx->fields, lx->field); /* @call printf */
	lx->len = 0;
}

static void
push(struct lexer *lx, char c)
{
	if (lx->len + 1 < sizeof lx->field)
		lx->field[lx->len++] = c;
}

static struct state
st_start(struct lexer *lx) /* @address-taken */
{
	struct state next = {st_field};
	if (*lx->p == '"') {
		lx->p++;
		next.fn = st_quoted;
	}
	return next;
}

static struct state
st_field(struct lexer *lx) /* @address-taken */
{
	struct state next = {st_field};
	char c = *lx->p++;
	if (c == ',' || c == '\0') {
		emit(lx); /* @inline-call emit */
		next.fn = c == ',' ? st_start : NULL;
	} else {
		push(lx, c); /* @call(O0) push */
	}
	return next;
}

static struct state
st_quoted(struct lexer *lx) /* @address-taken */
{
	struct state next = {st_quoted};
	char c = *lx->p++;
	if (c == '"' && *lx->p == '"') {
		push(lx, '"'); /* @call(O0) push */
		lx->p++;
	} else if (c == '"') {
		next.fn = st_field;
	} else if (c == '\0') {
		emit(lx); /* @inline-call emit */
		next.fn = NULL;
	} else {
		push(lx, c); /* @call(O0) push */
	}
	return next;
}

int
main(int argc, char **argv)
{
	struct lexer lx;
	struct state s = {st_start};

	memset(&lx, 0, sizeof lx); /* @call llvm.memset*=memset */
	lx.p = argc > 1 ? argv[1] : "plain,\"quoted, with comma\",\"say \"\"hi\"\"\",,end";
	while (s.fn)
		s = s.fn(&lx); /* @icall s.fn */
	return lx.fields == 0;
}
