/* An anonymous union of function pointers is one location: a store through
 * either member reaches a call through the other. */
#include <stdio.h>
#include <stdlib.h>

struct ev {
	int kind;
	union {
		void (*on_int)(struct ev *self, long v);
		void (*on_long)(struct ev *self, long v);
	};
	void (*on_done)(struct ev *self, long v);
	long total;
};

static void print_int(struct ev *self, long v) { self->total += v; }
static void print_long(struct ev *self, long v) { self->total += 2 * v; }
static void done(struct ev *self, long v) { self->total -= v; }
static void done2(struct ev *self, long v) { self->total ^= v; }

static struct ev e1 = {.kind = 1, .on_int = print_int, .on_done = done};

/* Counts the hooks as an array (a variable index): the analysis then merges
 * each event's fields, so R0 holds on_done's functions too. */
__attribute__((noinline)) int count_hooks(struct ev *e, int n)
{
	void **hook = (void **)&e->on_int;
	int count = 0;
	for (int i = 0; i < n; i++)
		count += hook[i] != NULL;
	return count;
}

__attribute__((noinline)) long fire(struct ev **all, int i)
{
	struct ev *e = all[i];
	e->on_int(e, 5); /* SITE fire */
	return e->total;
}

int main(int argc, char **argv)
{
	(void)argv;
	struct ev *e2 = calloc(1, sizeof *e2);
	e2->on_long = print_long;
	e2->on_done = done2;
	struct ev *all[2] = {&e1, e2};
	int hooks = count_hooks(all[argc & 1], argc);
	printf("%d %ld\n", hooks, fire(all, argc - 1));
	return 0;
}

/* The union is keyed as one location, ev@8 (unnamed: "@8").
 // EXPECT fire field: ev.@8
 // EXPECT fire r0: print_int print_long done done2
 // EXPECT fire rpm: print_int print_long
 // EXPECT fire decision print_int: add supported Add-Witness true
 // EXPECT fire decision print_long: add supported Add-Store pi_bind
 // EXPECT fire decision done2: prune supported Prune-Store pi_proj
 // EXPECT fire abstains: yes
 */
