/* paired_call.c — calls whose callee and argument are read from one
 * object: a memory pool's methods called with the pool itself
 * (`p->v->release(p)`, `(*pp)->v->unref(pp)`) and a timer's callback
 * called with the timer's own context (`t->cb(t->ctx)`).
 *
 * The value passed is the value the callee is read from, so a method gets
 * only the pools whose table holds it: sys_release gets system_pool and
 * stack_release the stack pool, not both. Bound to every pool, the stack
 * pool's methods would step from system_pool (16 bytes) to on_free at
 * offset 16 (container_of, then a field the smaller pool does not have),
 * which collapses system_pool: its trace and its table merge, so
 * sys_release's p->trace(p) would reach stack_trace and stack_release's
 * on_free sys_trace. Likewise on_client gets only the client timer's
 * context, so c->input reaches client_input alone, not the server's accept
 * stored at the same offset of the other context.
 *
 * Both levels give the same sets: at -O2 the callee and the argument are
 * one SSA value; at -O0 two loads of a parameter's stack slot, stored once
 * and never passed on. */
#include <stddef.h>
#include <stdio.h>
#include "observe.h"

#define container_of(ptr, type, member) ((type *)((char *)(ptr) - offsetof(type, member)))

struct pool;

struct pool_vfuncs {
	void (*ref)(struct pool *p);
	void (*release)(struct pool *p);
	void (*unref)(struct pool **pp);
};

struct pool {
	const struct pool_vfuncs *v;
	void (*trace)(struct pool *p);
};

struct stack_pool {
	struct pool pool;
	void (*on_free)(struct pool *p);
	int frames;
};

static int total;

static void sys_trace(struct pool *p)
{
	OBSERVE_TARGET();
	total += p->v != NULL;
}

static void stack_trace(struct pool *p)
{
	OBSERVE_TARGET();
	total += 2 * (p->v != NULL);
}

static void stack_on_free(struct pool *p)
{
	OBSERVE_TARGET();
	total += 3 * (p->v != NULL);
}

static void sys_ref(struct pool *p)
{
	OBSERVE_TARGET();
	total += p != NULL;
}

static void sys_release(struct pool *p)
{
	OBSERVE_TARGET();
	ICALL(p->trace(p)); /* @r0: sys_trace */
}

static void stack_release(struct pool *p)
{
	OBSERVE_TARGET();
	struct stack_pool *sp = container_of(p, struct stack_pool, pool);
	sp->frames--;
	ICALL(sp->on_free(p)); /* @r0: stack_on_free */
}

static void sys_unref(struct pool **pp)
{
	OBSERVE_TARGET();
	*pp = NULL;
}

static void stack_unref(struct pool **pp)
{
	OBSERVE_TARGET();
	struct stack_pool *sp = container_of(*pp, struct stack_pool, pool);
	ICALL(sp->on_free(*pp)); /* @r0: stack_on_free */
	*pp = NULL;
}

static const struct pool_vfuncs sys_vfuncs = {sys_ref, sys_release, sys_unref};
static const struct pool_vfuncs stack_vfuncs = {sys_ref, stack_release, stack_unref};

static struct pool system_pool = {&sys_vfuncs, sys_trace};
static struct stack_pool spool = {{&stack_vfuncs, stack_trace}, stack_on_free, 1};

__attribute__((noinline)) static void pool_release(struct pool *p)
{
	ICALL(p->v->release(p)); /* @r0: sys_release stack_release */
}

__attribute__((noinline)) static void pool_unref(struct pool **pp)
{
	ICALL((*pp)->v->unref(pp)); /* @r0: sys_unref stack_unref */
}

/* A callback and its context in one struct. */
struct client {
	void (*input)(struct client *c);
	int fd;
};

struct server {
	void (*accept)(struct server *s);
	int port;
};

struct timer {
	void (*cb)(void *ctx);
	void *ctx;
};

static void client_input(struct client *c)
{
	OBSERVE_TARGET();
	total += c->fd;
}

static void server_accept(struct server *s)
{
	OBSERVE_TARGET();
	total += s->port;
}

static void on_client(void *ctx)
{
	OBSERVE_TARGET();
	struct client *c = (struct client *)ctx;
	ICALL(c->input(c)); /* @r0: client_input */
}

static void on_server(void *ctx)
{
	OBSERVE_TARGET();
	struct server *s = (struct server *)ctx;
	ICALL(s->accept(s)); /* @r0: server_accept */
}

static struct timer client_timer, server_timer;
static struct client client = {client_input, 5};
static struct server server = {server_accept, 7};

__attribute__((noinline)) static void fire(struct timer *t)
{
	ICALL(t->cb(t->ctx)); /* @r0: on_client on_server */
}

static volatile int which;

int main(void)
{
	pool_release(which ? &spool.pool : &system_pool);
	pool_release(which ? &system_pool : &spool.pool);
	struct pool *a = &system_pool, *b = &spool.pool;
	pool_unref(&a);
	pool_unref(&b);
	client_timer.cb = on_client;
	client_timer.ctx = &client;
	server_timer.cb = on_server;
	server_timer.ctx = &server;
	fire(which ? &server_timer : &client_timer);
	fire(which ? &client_timer : &server_timer);
	printf("total %d\n", total);
	return a == b ? 0 : 1;
}
