/* array_walk.c — tables of structs walked by a pointer and indexed by a
 * variable: a web server's variable table (`for (v = vars; v->name; v++)`)
 * and its filter chain (`filters[i].run(...)`).
 *
 * Each table's elements are structs of a name and two callbacks of one IR
 * type, void (ptr): `get` and `set` in vars[], `run` and `done` in
 * filters[]. A pointer that steps by one element in a loop, or a variable
 * index, reaches every element but always the same field of it: vars' get
 * slots hold var_host, var_uri and var_args, its set slots set_host and
 * set_uri, and the walk's v->get(...) call reaches the three getters only,
 * v->set(...) the two setters only; filters[i].run(...) reaches the runs,
 * filters[i].done(...) the dones. Collapsing a table (every field one
 * location) would give each site all five (or four) functions of its
 * table.
 *
 * modes[] is read at constant indexes only: modes[1].get is mode_fast
 * exactly, modes[0].get mode_safe (an array that is never walked keeps its
 * elements apart). A stack array of the filter struct type, filled in main
 * and walked by a pointer in a function of its own, keeps its fields apart
 * too (f->run: lrun_a lrun_b; f->done: ldone_a).
 *
 * The tables have external linkage and the walkers are not inlined, so
 * that at -O2 clang can neither read the calls' targets out of the
 * initializers nor unroll the walks into direct calls.
 *
 * Every callback has the same IR type, void (ptr).
 *
 * Usage: array_walk   (runs every table once) */
#include <stdio.h>
#include "observe.h"

struct req {
	const char *host, *uri, *args;
	int flags;
	long work;
};

struct var {
	const char *name;
	void (*get)(struct req *r);
	void (*set)(struct req *r);
	long weight;
};

struct filter {
	int id;
	void (*run)(struct req *r);
	void (*done)(struct req *r);
};

static void var_host(struct req *r) { OBSERVE_TARGET(); r->work += r->host != NULL; }
static void var_uri(struct req *r) { OBSERVE_TARGET(); r->work += r->uri != NULL; }
static void var_args(struct req *r) { OBSERVE_TARGET(); r->work += r->args != NULL; }
static void set_host(struct req *r) { OBSERVE_TARGET(); r->host = "localhost"; }
static void set_uri(struct req *r) { OBSERVE_TARGET(); r->uri = "/"; }

static void run_gzip(struct req *r) { OBSERVE_TARGET(); r->work += 3; }
static void run_chunk(struct req *r) { OBSERVE_TARGET(); r->work += 5; }
static void done_gzip(struct req *r) { OBSERVE_TARGET(); r->work -= 1; }
static void done_chunk(struct req *r) { OBSERVE_TARGET(); r->work -= 2; }

static void mode_safe(struct req *r) { OBSERVE_TARGET(); r->flags |= 1; }
static void mode_fast(struct req *r) { OBSERVE_TARGET(); r->flags |= 2; }

static void lrun_a(struct req *r) { OBSERVE_TARGET(); r->work *= 2; }
static void lrun_b(struct req *r) { OBSERVE_TARGET(); r->work *= 3; }
static void ldone_a(struct req *r) { OBSERVE_TARGET(); r->work += 7; }

struct var vars[] = {
	{"host", var_host, set_host, 1},
	{"uri", var_uri, set_uri, 2},
	{"args", var_args, NULL, 3},
	{NULL, NULL, NULL, 0},
};

struct filter filters[] = {
	{1, run_gzip, done_gzip},
	{2, run_chunk, done_chunk},
};

struct var modes[] = {
	{"safe", mode_safe, NULL, 0},
	{"fast", mode_fast, NULL, 0},
};

__attribute__((noinline)) static void walk_vars(struct req *r)
{
	for (struct var *v = vars; v->name; v++) {
		if (v->set)
			ICALL(v->set(r)); /* @r0: set_host set_uri */
		ICALL(v->get(r)); /* @r0: var_args var_host var_uri */
	}
}

__attribute__((noinline)) static void run_filters(struct req *r, int n)
{
	for (int i = 0; i < n; i++)
		ICALL(filters[i].run(r)); /* @r0: run_chunk run_gzip */
	for (int i = n - 1; i >= 0; i--)
		ICALL(filters[i].done(r)); /* @r0: done_chunk done_gzip */
}

__attribute__((noinline)) static void walk_local(struct req *r, struct filter *local, int n)
{
	for (struct filter *f = local; f < local + n && f->id; f++) {
		ICALL(f->run(r)); /* @r0: lrun_a lrun_b */
		if (f->done)
			ICALL(f->done(r)); /* @r0: ldone_a */
	}
}

extern struct var vars[], modes[];
extern struct filter filters[];

int main(int argc, char **argv)
{
	(void)argv;
	struct req r = {"example.org", "/index.html", NULL, 0, 0};
	walk_vars(&r);
	run_filters(&r, 2);
	ICALL(modes[0].get(&r)); /* @r0: mode_safe */
	ICALL(modes[1].get(&r)); /* @r0: mode_fast */
	struct filter local[3] = {{1, lrun_a, ldone_a}, {2, lrun_b, NULL}, {0, NULL, NULL}};
	walk_local(&r, local, argc + 2);
	printf("work %ld flags %d\n", r.work, r.flags);
	return 0;
}
