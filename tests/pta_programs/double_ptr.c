/* double_ptr.c — an event loop's callback slots.  install() stores a
 * callback through a pointer to the slot (void (**)(int)); watch() takes a
 * fresh slot from a pool and hands it back through a double pointer
 * (void (***)(int)), then stores the callback through it.
 *
 * Covers: a function pointer stored through a (double) pointer.  install()
 * is one function for both of its calls (context insensitive), so
 * on_readable and on_writable each end up with {read_ready, write_ready};
 * on_error is stored directly and stays exact.  The pool is indexed by a
 * variable, so every slot it hands out holds both watch() callbacks. */
#include <stdio.h>
#include "observe.h"

typedef void (*io_cb)(int fd);

static int events;

static void read_ready(int fd)
{
	OBSERVE_TARGET();
	events += fd;
}

static void write_ready(int fd)
{
	OBSERVE_TARGET();
	events += 10 * fd;
}

static void error_cb(int fd)
{
	OBSERVE_TARGET();
	printf("error on %d\n", fd);
}

static void timer_cb(int fd)
{
	OBSERVE_TARGET();
	events += 100 * fd;
}

static void signal_cb(int fd)
{
	OBSERVE_TARGET();
	events += 1000 * fd;
}

static io_cb on_readable, on_writable, on_error;

static void install(io_cb *slot, io_cb fn)
{
	*slot = fn;
}

static io_cb pool[4];
static int npool;

static int watch(io_cb **where, io_cb fn)
{
	if (npool == 4)
		return -1;
	*where = &pool[npool++];
	**where = fn;
	return 0;
}

int main(void)
{
	io_cb *tslot, *sslot;

	install(&on_readable, read_ready);
	install(&on_writable, write_ready);
	on_error = error_cb;
	if (watch(&tslot, timer_cb) || watch(&sslot, signal_cb))
		return 1;

	for (int fd = 3; fd < 6; fd++) {
		if (fd == 3)
			ICALL(on_readable(fd)); /* @r0: read_ready write_ready */
		else if (fd == 4)
			ICALL(on_writable(fd)); /* @r0: read_ready write_ready */
		else
			ICALL(on_error(fd)); /* @r0: error_cb */
	}
	ICALL((*tslot)(7)); /* @r0: signal_cb timer_cb */
	for (int i = 0; i < npool; i++)
		ICALL(pool[i](i)); /* @r0: signal_cb timer_cb */
	printf("%d events\n", events);
	return 0;
}
