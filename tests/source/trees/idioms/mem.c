/* mem.c — function pointers kept in memory reached only through pointers:
 * pushed into a container of untyped elements through one pointer, read
 * back through another; and read from a byte buffer through a cast. */
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
		r += h[j]((int)j);                             /* -> h_static@mem.c:S h_index@mem.c:S */
	return r;
}

int run_code(unsigned char *ip)
{
	handler_pt code = *(handler_pt *)ip;
	return code(0);                                    /* -> h_static@mem.c:S h_index@mem.c:S */
}
