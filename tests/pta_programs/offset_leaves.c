/* offset_leaves.c — a pointer the analysis cannot tell apart reaches small
 * objects and larger ones; offsets that fit only the larger ones are
 * applied to all of them.
 *
 * One function hands out four objects (a hook of one callback, a global
 * and a stack one; a connection of three fields; a job's embedded link at
 * offset 16), so, context-insensitively, every caller's pointer may be any
 * of the four. Through it the program stores a connection's on_close (+16)
 * and recovers a job from its link (container_of: -16). At run time each
 * pointer is the right object; for the small hooks (8 bytes) +16 is past
 * one past the end and -16 before the start, and for the connection -16 is
 * before the start: no defined program forms such a pointer into them, so
 * they name nothing there (solver.h, PTA_OBJ_BOUNDED). Collapsing them
 * instead (the rule before) made each one location, and every callback
 * stored through the pointer reached every call through them: the hooks'
 * fire would reach close_late and done_late, the connection's on_read its
 * on_close, the job's run the hooks' and the connection's callbacks. The
 * job's container_of stays exact: -16 from its link is inside it. The
 * stores are made in functions of their own, so -O2 forwards no stored
 * value to a call; the same sets at -O0 and -O2. */
#include <stddef.h>
#include <stdio.h>
#include "observe.h"

#define CONTAINER_OF(ptr, type, member) ((type *)((char *)(ptr) - offsetof(type, member)))

typedef void (*handler)(int v);

struct hook {
	handler fire;
};

struct conn {
	handler on_read;
	long fd;
	handler on_close;
};

struct link {
	struct link *next;
};

struct job {
	handler run;
	long id;
	struct link node;
	handler done;
	long tail;
};

static int total;

static void fire_hook(int v)
{
	OBSERVE_TARGET();
	total += v;
}

static void fire_local(int v)
{
	OBSERVE_TARGET();
	total += 2 * v;
}

static void read_conn(int v)
{
	OBSERVE_TARGET();
	total += 3 * v;
}

static void close_conn(int v)
{
	OBSERVE_TARGET();
	total -= v;
}

static void close_late(int v)
{
	OBSERVE_TARGET();
	total -= 2 * v;
}

static void run_job(int v)
{
	OBSERVE_TARGET();
	total += 5 * v;
}

static void done_job(int v)
{
	OBSERVE_TARGET();
	total -= 3 * v;
}

static void done_late(int v)
{
	OBSERVE_TARGET();
	total -= 5 * v;
}

static struct hook hook = {fire_hook};
static struct conn conn = {read_conn, 3, close_conn};
static struct job job = {run_job, 7, {NULL}, done_job, 0};

static struct hook *volatile hook_of = &hook;   /* read at run time: -O2 keeps the calls indirect */
static struct conn *volatile conn_of = &conn;
static volatile int which_conn = 1, which_job = 2;

/* Every object through one function: its result is all four, whatever k. */
__attribute__((noinline)) static void *pick(int k, struct hook *local)
{
	switch (k) {
	case 0:
		return &hook;
	case 1:
		return &conn;
	case 2:
		return &job.node;
	default:
		return local;
	}
}

__attribute__((noinline)) static void set_close(struct conn *c, handler h)
{
	c->on_close = h;   /* +16: the connection's on_close, the job's tail; past the hooks */
}

__attribute__((noinline)) static void set_done(struct job *j, handler h)
{
	j->done = h;
}

int main(void)
{
	struct hook local = {fire_local};
	struct hook *volatile local_of = &local;

	struct conn *c = (struct conn *)pick(which_conn, &local);
	set_close(c, close_late);
	ICALL(c->on_read(1)); /* @r0: fire_hook fire_local read_conn */
	ICALL(c->on_close(2)); /* @r0: close_conn close_late */

	struct job *j = CONTAINER_OF((struct link *)pick(which_job, &local), struct job, node);
	ICALL(j->run(3)); /* @r0: run_job */
	set_done(j, done_late);
	ICALL(j->done(4)); /* @r0: done_job done_late */

	struct hook *h = hook_of;
	ICALL(h->fire(5)); /* @r0: fire_hook */
	struct hook *l = local_of;
	ICALL(l->fire(6)); /* @r0: fire_local */
	struct conn *cc = conn_of;
	ICALL(cc->on_read(7)); /* @r0: read_conn */
	printf("total %d\n", total);
	return 0;
}
