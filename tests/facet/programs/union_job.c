/* A job record that is a union of per-kind argument structs, the
 * function pointer inside one of them (a background-job queue):
 *
 *     typedef union job {
 *         struct { int fd; unsigned sync : 1; } file;
 *         struct { job_fn *free_fn; void *args[2]; } lazy;
 *     } job;
 *     job->lazy.free_fn = free_fn;  ...  job->lazy.free_fn(job->lazy.args);
 *
 * A union is one location: the read and the write both key on the union
 * (job@0). Its function pointer sits in an anonymous struct member, which
 * no other type names, so every write of it goes through the union. The
 * field is one that holds a function pointer, and F(job@0) is what the
 * stores put there: lazy_free_object and lazy_free_list, not the timer
 * callbacks of the same type that share the jobs' collapsed pool. Before,
 * only a union's own members were looked at: the field held no function
 * pointer, so F was empty and R± kept R0.
 *
 * A union whose function pointer is in a *named* member struct (union req:
 * struct call) is not so: a pointer to struct call writes call.fn, which
 * keys on struct call, not on the union; the union's F would miss that
 * write. The union stays a field of no function pointer there, and R± keeps
 * R0 (call_done must stay). */
#include <stdio.h>
#include <stdlib.h>

typedef void job_fn(void *args[]);

typedef union job {
	struct {
		int fd;
		unsigned sync : 1;
	} file;
	struct {
		job_fn *free_fn;
		void *args[2];
	} lazy;
} job;

struct timer {
	job_fn *on_fire;
	void *args[2];
};

struct call {
	job_fn *fn;
	void *args[2];
};

union req {
	struct call c;
	long code;
};

static unsigned char *pool;
static size_t pool_used;

/* Carved at a byte offset a cursor keeps: the pool is one collapsed object. */
__attribute__((noinline)) static void *carve(size_t n)
{
	void *p = pool + pool_used;
	pool_used = (pool_used + n) % 512;
	return p;
}

static void lazy_free_object(void *args[]) { printf("object %p\n", args[0]); }
static void lazy_free_list(void *args[]) { printf("list %p\n", args[0]); }
static void timer_tick(void *args[]) { printf("tick %p\n", args[0]); }
static void timer_expire(void *args[]) { printf("expire %p\n", args[0]); }
static void call_done(void *args[]) { printf("done %p\n", args[0]); }

__attribute__((noinline)) static job *create_lazy_job(job_fn *free_fn, void *arg)
{
	job *j = (job *)carve(sizeof *j);
	j->lazy.free_fn = free_fn;
	j->lazy.args[0] = arg;
	return j;
}

__attribute__((noinline)) static void run_job(job *j)
{
	j->lazy.free_fn(j->lazy.args); /* SITE lazy */
}

__attribute__((noinline)) static struct timer *create_timer(int expire)
{
	struct timer *t = (struct timer *)carve(sizeof *t);
	t->on_fire = expire ? timer_expire : timer_tick;
	t->args[0] = t;
	return t;
}

__attribute__((noinline)) static void set_call(struct call *c, job_fn *fn)
{
	c->fn = fn;
}

__attribute__((noinline)) static void run_req(union req *r)
{
	r->c.fn(r->c.args); /* SITE named */
}

int main(int argc, char **argv)
{
	pool = (unsigned char *)calloc(512, 1);
	if (!pool)
		return 1;
	struct timer *t = create_timer(argc > 2);
	t->on_fire(t->args); /* SITE timer */
	run_job(create_lazy_job(argc > 1 ? lazy_free_list : lazy_free_object, argv[0]));
	union req *r = (union req *)carve(sizeof *r);
	set_call(&r->c, call_done);
	run_req(r);
	return 0;
}

/*
 // EXPECT lazy field: job.(union)
 // EXPECT lazy r0: call_done lazy_free_list lazy_free_object timer_expire timer_tick
 // EXPECT lazy rpm: lazy_free_list lazy_free_object
 // EXPECT lazy decision timer_tick: prune supported Prune-Store pi_proj
 // EXPECT timer field: timer.on_fire
 // EXPECT timer rpm: timer_expire timer_tick
 // EXPECT named r0: call_done lazy_free_list lazy_free_object timer_expire timer_tick
 // EXPECT named rpm: call_done lazy_free_list lazy_free_object timer_expire timer_tick
 */
