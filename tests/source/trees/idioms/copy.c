/* copy.c — tables copied: a whole struct assigned, a struct copied by
 * initialization, an array of function pointers copied with memcpy. */
#include <string.h>

struct vtab { int (*run)(int); };
typedef int (*step_fn)(int);

static int run_fast(int x) { return x; }
static int run_slow(int x) { return x + 1; }
static int step_one(int x) { return x - 1; }
static int step_two(int x) { return x - 2; }

static const struct vtab fast = { run_fast };
static const struct vtab slow = { .run = run_slow };
static const step_fn default_steps[2] = { step_one, step_two };

struct engine { struct vtab vt; step_fn steps[2]; };

int engine_run(struct engine *e, int slow_mode)
{
	e->vt = slow_mode ? slow : fast;
	struct vtab local = e->vt;
	memcpy(e->steps, default_steps, sizeof e->steps);   /* -> memcpy */
	int r = local.run(1);                      /* -> run_fast@copy.c:W run_slow@copy.c:W */
	return r + e->steps[1](r);                 /* -> step_one@copy.c:S step_two@copy.c:S */
}

struct list { void (*free)(void *); };

static void free_node(void *p) { (void)p; }

void list_dup(struct list *copy, const struct list *orig)
{
	copy->free = orig->free;
	copy->free(0);                             /* -> free_node@copy.c:S */
}

void list_init(struct list *l)
{
	l->free = free_node;
}
