/* member_array.c — a decoder context in the style of libjpeg's
 * jpeg_decompress_struct: one struct holding an error manager pointer,
 * member arrays indexed by a variable (an array of pointers to component
 * records, an array of component structs with callbacks, an array of stages
 * each holding its own array of step callbacks) and a hook after them.
 *
 * C's rule for a subscript is that it stays in the array it indexes, so a
 * variable index into one member array reaches that array's elements only:
 * the error manager, the hook and the other arrays keep their own fields.
 * A context that collapsed as a whole would merge every void (int)
 * callback stored in it into each of these sites.
 *
 * Two contexts: one on main's stack (as djpeg's cinfo), one global. Every
 * callback has the IR type void (i32), so the type filter separates none.
 *
 * The sets, from the stores below:
 *   ctx->err->error_exit      the one error handler stored in ctx's manager
 *   ctx->hook                 the one hook stored in ctx
 *   ctx->cur[i]->run          cur[i] = &comps[i]: the run callbacks of ctx's comps
 *   ctx->comps[i].stop        the stop callbacks of ctx's comps
 *   ctx->stages[s].steps[j]   the step callbacks of ctx's stages
 *   ctx->stages[s].done       the done callbacks of ctx's stages
 * The stack context and the global one are stored different callbacks, and
 * each is walked by a function of its own, so no site mixes the two. */
#include <stdio.h>
#include "observe.h"

typedef void (*cb)(int);

struct comp {
	int id;
	cb run;
	cb stop;
};

struct err_mgr {
	int msg;
	cb error_exit;
};

struct stage {
	int n;
	cb steps[3];
	cb done;
};

struct ctx {
	struct err_mgr *err;
	struct comp *cur[4];
	int ncomps;
	struct comp comps[3];
	struct stage stages[2];
	cb hook;
};

static int acc;

#define TARGET(name) static void name(int x) { OBSERVE_TARGET(); acc += x; }
TARGET(on_error)
TARGET(on_hook)
TARGET(run_a) TARGET(run_b) TARGET(run_c)
TARGET(stop_a) TARGET(stop_b) TARGET(stop_c)
TARGET(step_1) TARGET(step_2) TARGET(step_3) TARGET(step_4) TARGET(step_5) TARGET(step_6)
TARGET(done_1) TARGET(done_2)
TARGET(g_error) TARGET(g_hook) TARGET(g_run) TARGET(g_stop) TARGET(g_step) TARGET(g_done)

static volatile int vcount = 3;

__attribute__((noinline)) static void setup(struct ctx *c, struct err_mgr *e)
{
	static const cb runs[3] = {run_a, run_b, run_c};
	static const cb stops[3] = {stop_a, stop_b, stop_c};
	e->error_exit = on_error;
	c->err = e;
	c->hook = on_hook;
	c->ncomps = vcount;
	for (int i = 0; i < c->ncomps; i++) {
		c->comps[i].id = i;
		c->comps[i].run = runs[i];
		c->comps[i].stop = stops[i];
		c->cur[i] = &c->comps[i];
	}
	c->stages[0].steps[0] = step_1, c->stages[0].steps[1] = step_2, c->stages[0].steps[2] = step_3;
	c->stages[1].steps[0] = step_4, c->stages[1].steps[1] = step_5, c->stages[1].steps[2] = step_6;
	c->stages[0].done = done_1, c->stages[1].done = done_2;
	c->stages[0].n = c->stages[1].n = vcount;
}

__attribute__((noinline)) static void decode(struct ctx *c)
{
	for (int i = 0; i < c->ncomps; i++)
		ICALL(c->cur[i]->run(i)); /* @r0: run_a run_b run_c */
	for (int i = 0; i < c->ncomps; i++)
		ICALL(c->comps[i].stop(i)); /* @r0: stop_a stop_b stop_c */
	for (int s = 0; s < 2; s++) {
		for (int j = 0; j < c->stages[s].n; j++)
			ICALL(c->stages[s].steps[j](j)); /* @r0: step_1 step_2 step_3 step_4 step_5 step_6 */
		ICALL(c->stages[s].done(s)); /* @r0: done_1 done_2 */
	}
	ICALL(c->hook(1)); /* @r0: on_hook */
	ICALL(c->err->error_exit(2)); /* @r0: on_error */
}

static struct ctx gctx;
static struct err_mgr gerr;

__attribute__((noinline)) static void setup_global(void)
{
	gerr.error_exit = g_error;
	gctx.err = &gerr;
	gctx.hook = g_hook;
	gctx.ncomps = vcount;
	for (int i = 0; i < gctx.ncomps; i++) {
		gctx.comps[i].run = g_run;
		gctx.comps[i].stop = g_stop;
		gctx.cur[i] = &gctx.comps[i];
	}
	/* Constant indexes here: a loop storing steps[j] for j < n is
	 * vectorized at -O2 into stores of two lanes whose last lane, for
	 * n > 3 (a path C does not allow), lands on done, which a
	 * path-insensitive analysis cannot rule out. */
	gctx.stages[0].n = gctx.stages[1].n = vcount;
	gctx.stages[0].steps[0] = gctx.stages[0].steps[1] = gctx.stages[0].steps[2] = g_step;
	gctx.stages[1].steps[0] = gctx.stages[1].steps[1] = gctx.stages[1].steps[2] = g_step;
	gctx.stages[0].done = gctx.stages[1].done = g_done;
}

__attribute__((noinline)) static void decode_global(void)
{
	for (int i = 0; i < gctx.ncomps; i++)
		ICALL(gctx.cur[i]->run(i)); /* @r0: g_run */
	for (int i = 0; i < gctx.ncomps; i++)
		ICALL(gctx.comps[i].stop(i)); /* @r0: g_stop */
	for (int s = 0; s < 2; s++) {
		for (int j = 0; j < gctx.stages[s].n; j++)
			ICALL(gctx.stages[s].steps[j](j)); /* @r0: g_step */
		ICALL(gctx.stages[s].done(s)); /* @r0: g_done */
	}
	ICALL(gctx.hook(1)); /* @r0: g_hook */
	ICALL(gctx.err->error_exit(2)); /* @r0: g_error */
}

int main(void)
{
	struct ctx c;
	struct err_mgr e;
	setup(&c, &e);
	decode(&c);
	setup_global();
	decode_global();
	printf("acc %d\n", acc);
	return 0;
}
