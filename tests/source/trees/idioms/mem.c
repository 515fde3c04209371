/* mem.c — function pointers kept in memory reached only through pointers:
 * pushed into a container of untyped elements through one pointer, read
 * back through another; and read from a byte buffer through a cast (any
 * location of the type read). */
#include <stdlib.h>

typedef int (*handler_pt)(int);
struct array { void *elts; unsigned n; };
struct phase { struct array handlers; };

static struct phase phases[2];

static int h_static(int x) { return x; }
static int h_index(int x) { return x + 1; }

static void *array_push(struct array *a)
{
	a->elts = realloc(a->elts, ++a->n * sizeof(handler_pt));   /* -> realloc */
	return (char *)a->elts + (a->n - 1) * sizeof(handler_pt);
}

void init_phases(void)
{
	handler_pt *h = array_push(&phases[0].handlers);   /* -> array_push@mem.c */
	*h = h_static;
	h = array_push(&phases[1].handlers);               /* -> array_push@mem.c */
	*h = h_index;
}

int run_phase(int i)
{
	handler_pt *h = phases[i].handlers.elts;
	int r = 0;
	for (unsigned j = 0; j < phases[i].handlers.n; j++)
		r += h[j]((int)j);                             /* -> h_static@mem.c:S h_index@mem.c:S h_patch@mem.c:S */
	return r;
}

/* a byte stream of instructions whose first member is the code to run */
typedef struct { handler_pt code; int len; } copy_code_t;

static int h_copy(int x) { return x + 2; }

void emit_copy(unsigned char *buf)
{
	copy_code_t *c = (copy_code_t *)buf;
	c->code = h_copy;
	c->len = 1;
}

static int h_patch(int x) { return x + 3; }

/* a store through the cast goes to the memory of the type */
void patch_code(unsigned char *ip)
{
	*(handler_pt *)ip = h_patch;
}

int run_code(unsigned char *ip)
{
	handler_pt code = *(handler_pt *)ip;
	/* by type: every int (*)(int) location, copy.c's vtab.run and step_fn tables too */
	return code(0);                                    /* -> h_static@mem.c:S h_index@mem.c:S h_copy@mem.c:S h_patch@mem.c:S run_fast@copy.c:S run_slow@copy.c:S step_one@copy.c:S step_two@copy.c:S */
}
