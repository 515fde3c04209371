/* select_field.c — a field chosen by a condition: `c ? &p->on_read :
 * &p->on_write` into one struct, which -O2 folds into one gep of a
 * selected offset (`getelementptr i8, ptr %p, i64 select(c, 8, 16)`), the
 * shape an image decoder's `is_decompressor ? &d->tables : &c->tables`
 * takes. The offset is one of two constants, not a variable index: the
 * struct keeps its fields, so what is stored through the chosen field
 * reaches those two fields only, and on_close keeps its one callback.
 * At -O0 the choice is two geps joined in a stack slot: the same sets. */
#include <stdio.h>
#include "observe.h"

struct conn;
typedef void (*handler)(struct conn *c);

struct conn {
	int fd;
	handler on_read, on_write, on_close;
};

static int total;

static void do_read(struct conn *c)
{
	OBSERVE_TARGET();
	total += c->fd;
}

static void do_write(struct conn *c)
{
	OBSERVE_TARGET();
	total += 2 * c->fd;
}

static void do_close(struct conn *c)
{
	OBSERVE_TARGET();
	total += 3 * c->fd;
}

static volatile int writing;

__attribute__((noinline)) static void set_handler(struct conn *c, int w, handler h)
{
	handler *slot = w ? &c->on_write : &c->on_read;
	*slot = h;
}

int main(void)
{
	struct conn c = {4, NULL, NULL, do_close};
	set_handler(&c, 0, do_read);
	set_handler(&c, writing + 1, do_write);
	ICALL(c.on_read(&c)); /* @r0: do_read do_write */
	ICALL(c.on_write(&c)); /* @r0: do_read do_write */
	ICALL(c.on_close(&c)); /* @r0: do_close */
	printf("total %d\n", total);
	return 0;
}
