/* A handler copied from field to field (issue 15, precision): an XML
 * parser makes a child parser for an external entity, which inherits its
 * parent's handlers (child->on_comment = parent->on_comment). The parsers
 * live in one heap pool that a byte offset collapses, so the points-to set
 * of any handler loaded from a parser holds every function stored anywhere
 * in the pool: R0 gives each handler site every handler of its type.
 * A copy moves only what its source field holds: F(parser.on_comment)
 * is what set_comment stores (show_comment), not the end handlers the
 * collapsed pool also holds; Prune-Store refutes those. A value merged
 * from two fields (the child's on_end takes the parent's on_comment when
 * the parent has no end handler) is not one field's copy: its whole
 * points-to set goes in (show_comment rightly among it). */
#include <stdio.h>
#include <stdlib.h>

typedef void (*text_fn)(void *user, const char *s);

struct parser {
	text_fn on_comment;
	text_fn on_end;
	void *user;
	int depth;
};

/* Parsers are carved from a heap block at a byte offset a cursor keeps: a
 * byte stride collapses the block (a stride of whole parsers would fold it). */
static unsigned char *pool;
static size_t pool_used;

static void show_comment(void *u, const char *s) { (void)u; printf("<!--%s-->\n", s); }
static void end_plain(void *u, const char *s) { (void)u; printf("</%s>\n", s); }
static void end_ns(void *u, const char *s) { (void)u; printf("</ns:%s>\n", s); }

__attribute__((noinline)) struct parser *new_parser(void)
{
	struct parser *p = (struct parser *)(void *)(pool + pool_used);
	pool_used = (pool_used + sizeof *p) % (8 * sizeof *p);
	return p;
}

__attribute__((noinline)) void set_comment(struct parser *p, text_fn h) { p->on_comment = h; }
__attribute__((noinline)) void set_end(struct parser *p, text_fn h) { p->on_end = h; }

__attribute__((noinline)) struct parser *child_of(struct parser *parent)
{
	struct parser *c = new_parser();
	c->on_comment = parent->on_comment;
	c->on_end = parent->on_end ? parent->on_end : parent->on_comment;
	c->depth = parent->depth + 1;
	return c;
}

__attribute__((noinline)) void parse(struct parser *p, const char *text)
{
	if (p->on_comment)
		p->on_comment(p->user, text); /* SITE comment */
	if (p->on_end)
		p->on_end(p->user, text); /* SITE end */
}

int main(int argc, char **argv)
{
	pool = (unsigned char *)calloc(8, sizeof(struct parser));   /* the cast: the program is C++ too (tests/cxx) */
	if (!pool)
		return 1;
	struct parser *root = new_parser();
	set_comment(root, show_comment);
	set_end(root, argc > 2 ? end_ns : end_plain);
	struct parser *child = child_of(root);
	parse(child, argv[0]);
	parse(root, argv[0]);
	return 0;
}

/*
 // EXPECT comment field: parser.on_comment
 // EXPECT comment r0: end_ns end_plain show_comment
 // EXPECT comment rpm: show_comment
 // EXPECT comment decision end_plain: prune supported Prune-Store pi_proj
 // EXPECT end field: parser.on_end
 // EXPECT end r0: end_ns end_plain show_comment
 // EXPECT end rpm: end_ns end_plain show_comment
 */
