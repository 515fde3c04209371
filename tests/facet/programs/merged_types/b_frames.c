/* The frame side of a_builtins.c: an extra-information record reached
 * through a client-data pointer (void *), so no variable declares its type
 * at -O2 and only the GEP's IR struct type, merged with builtin_def at the
 * link, names it. */
#include <stdio.h>
#include <stdlib.h>

typedef struct {
	const char *name;
	void *(*render)(void *cd);
	void *cd;
} frame_field;

typedef struct {
	int length;
	frame_field fields[2];
} frame_info;

struct command {
	const char *name;
	void *client;
};

static void *render_name(void *cd) { return cd; }
static void *render_kind(void *cd) { return (char *)cd + 1; }

__attribute__((noinline)) void *info_frame(struct command *c)
{
	void *last = NULL;
	for (int i = 0; i < ((frame_info *)c->client)->length; i++)
		if (((frame_info *)c->client)->fields[i].render)
			last = ((frame_info *)c->client)->fields[i].render(((frame_info *)c->client)->fields[i].cd); /* SITE render */
	return last;
}

int run_builtins(int argc, const char **argv);

int main(int argc, const char **argv)
{
	frame_info *fi = calloc(1, sizeof *fi);
	static char text[] = "method";
	fi->length = 2;
	fi->fields[0] = (frame_field){"name", render_name, text};
	fi->fields[1] = (frame_field){"kind", argc > 3 ? render_kind : render_name, text};
	struct command c = {"frame", fi};
	printf("%s %d\n", (char *)info_frame(&c), run_builtins(argc, argv));
	free(fi);
	return 0;
}

/* render: frame_field.render holds render_name and render_kind (R0 has
 * both: one IR type). Keyed by the merged name, builtin_def@8, Prune-Store
 * would refute both (F is the two commands). At -O0 the GEPs name
 * frame_field and frame_info, which the debug info agrees with; at -O2 the
 * merged name is all there is, and its field's three-parameter type cannot
 * make a one-argument call: the site stays unrecovered and R± keeps R0.
 * Linked the other way round, the merged name is frame_field's, and the
 * site is keyed by it: R± is the same.
 // EXPECT render r0: render_kind render_name
 // EXPECT render rpm: render_kind render_name
 // EXPECT@O2@linked render field: unrecovered
 */
