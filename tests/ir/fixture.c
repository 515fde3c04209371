/* fixture.c — input of test_ingest.c: each construct below is asserted on by
 * name there. Keep the line numbers of the marked lines in sync with the test. */
#include <stdlib.h>

typedef int (*handler_fn)(void *ctx, int code);

typedef struct {                 /* anonymous struct behind a typedef (LLVM getter trap) */
	int kind;
	handler_fn on_event;
} anon_ops;

struct base {
	void (*init)(struct base *self);
	long count;
};

struct derived {
	struct base pub;             /* embedded struct at offset 0 */
	char tag[12];
	union {                      /* anonymous union of function pointers */
		int (*as_int)(void *ctx, int code);
		void (*as_void)(void);
	} u;
	struct derived *next;
};

static int on_a(void *ctx, int code) { (void)ctx; return code + 1; }
static int on_b(void *ctx, int code) { (void)ctx; return code * 2; }
static void base_init(struct base *self) { self->count = 0; }
static int unused_static(int x) { return x; }

anon_ops ops_table[2] = {{1, on_a}, {2, on_b}};
handler_fn global_handler = on_b;
struct derived proto = {{base_init, 7}, "proto", {on_a}, 0};

int dispatch(anon_ops *ops, int code)
{
	return ops->on_event(0, code);                                   /* line 38: indirect */
}

int main(int argc, char **argv)
{
	(void)argv;
	struct derived *d = malloc(sizeof *d);
	if (!d)
		return 1;
	*d = proto;
	d->pub.init(&d->pub);                                            /* line 48: indirect */
	int r = dispatch(&ops_table[argc & 1], argc) + global_handler(0, 3);
	__asm__ volatile("" ::: "memory");                               /* line 50: asm */
	free(d);
	return r + unused_static(0);
}
