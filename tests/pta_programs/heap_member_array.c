/* heap_member_array.c — a decoder context in heap memory (as libjpeg's
 * memory manager, `mem = (my_mem_ptr)jpeg_get_small(cinfo, sizeof(...))`,
 * with its pool lists `mem->small_list[pool_id]`): the heap has no declared
 * type, but the pointer the allocation is assigned to names the struct, so
 * its member arrays are known and a variable index into one stays there,
 * as in a stack or global struct (member_array.c): the error handler and
 * the hook keep their one callback.
 *
 * At -O2 the allocation's result carries the variable's debug record
 * (#dbg_value); at -O0 the result goes through a stack slot, which this
 * does not follow: the struct is untyped heap there and a pointer-sized
 * index collapses it, so -O0 is only checked to hold what ran.
 *
 * Every callback has the IR type void (i32). */
#include <stdio.h>
#include <stdlib.h>
#include "observe.h"

typedef void (*cb)(int);

struct unit {
	int id;
	cb run;
	cb stop;
};

struct hctx {
	cb error_exit;
	struct unit *cur[4];
	int n;
	struct unit units[3];
	cb hook;
};

static int acc;

#define TARGET(name) static void name(int x) { OBSERVE_TARGET(); acc += x; }
TARGET(on_error)
TARGET(on_hook)
TARGET(run_a) TARGET(run_b) TARGET(run_c)
TARGET(stop_a) TARGET(stop_b) TARGET(stop_c)

static volatile int vcount = 3;

__attribute__((noinline)) static void decode(struct hctx *c)
{
	for (int i = 0; i < c->n; i++)
		ICALL(c->cur[i]->run(i)); /* @r0(O2): run_a run_b run_c @r0-superset-of-observed(O0) */
	for (int i = 0; i < c->n; i++)
		ICALL(c->units[i].stop(i)); /* @r0(O2): stop_a stop_b stop_c @r0-superset-of-observed(O0) */
	ICALL(c->hook(1)); /* @r0(O2): on_hook @r0-superset-of-observed(O0) */
	ICALL(c->error_exit(2)); /* @r0(O2): on_error @r0-superset-of-observed(O0) */
}

int main(void)
{
	static const cb runs[3] = {run_a, run_b, run_c};
	static const cb stops[3] = {stop_a, stop_b, stop_c};
	struct hctx *c = malloc(sizeof *c);
	if (!c)
		return 1;
	c->error_exit = on_error;
	c->hook = on_hook;
	c->n = vcount;
	for (int i = 0; i < c->n; i++) {
		c->units[i].id = i;
		c->units[i].run = runs[i];
		c->units[i].stop = stops[i];
		c->cur[i] = &c->units[i];
	}
	decode(c);
	free(c);
	printf("acc %d\n", acc);
	return 0;
}
