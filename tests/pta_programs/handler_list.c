/* handler_list.c — an event bus: register_handler() pushes a malloc'd node
 * holding the handler on a linked list and emit() walks the list; error
 * handlers have a list of their own, with nodes from another allocation
 * site.  debug_event is registered only when EVENTS_DEBUG is set, which the
 * test never does: it is still in R0 (the analysis is path insensitive).
 *
 * Covers: function pointers through a linked list of registered handlers;
 * heap objects per allocation site (both registries call the wrapper
 * xmalloc, at two different places, so the lists do not mix although the
 * handlers have one IR type, i32 (ptr)). */
#include <stdio.h>
#include <stdlib.h>
#include "observe.h"

struct event {
	int type;
	const char *what;
};

typedef int (*handler_fn)(const struct event *ev);

struct handler_node {
	handler_fn fn;
	struct handler_node *next;
};

static struct handler_node *handlers, *error_handlers;

static void *xmalloc(size_t n)
{
	void *p = malloc(n);
	if (!p)
		abort();
	return p;
}

void register_handler(handler_fn fn)
{
	struct handler_node *n = xmalloc(sizeof *n);
	n->fn = fn;
	n->next = handlers;
	handlers = n;
}

void register_error_handler(handler_fn fn)
{
	struct handler_node *n = xmalloc(sizeof *n);
	n->fn = fn;
	n->next = error_handlers;
	error_handlers = n;
}

static int nlogged, ncounted[4];

static int log_event(const struct event *ev)
{
	OBSERVE_TARGET();
	nlogged++;
	return ev->type == 0;
}

static int count_event(const struct event *ev)
{
	OBSERVE_TARGET();
	ncounted[ev->type & 3]++;
	return 0;
}

static int audit_event(const struct event *ev)
{
	OBSERVE_TARGET();
	return ev->what[0] == '!';
}

static int debug_event(const struct event *ev)
{
	OBSERVE_TARGET();
	printf("event %d: %s\n", ev->type, ev->what);
	return 0;
}

static int report_error(const struct event *ev)
{
	OBSERVE_TARGET();
	printf("error: %s\n", ev->what);
	return 1;
}

static int count_error(const struct event *ev)
{
	OBSERVE_TARGET();
	ncounted[3] += ev->type;
	return 0;
}

static int emit(const struct event *ev)
{
	int handled = 0;
	for (struct handler_node *n = handlers; n; n = n->next)
		handled += ICALL(n->fn(ev)); /* @r0: audit_event count_event debug_event log_event */
	return handled;
}

static int emit_error(const struct event *ev)
{
	int handled = 0;
	for (struct handler_node *n = error_handlers; n; n = n->next)
		handled += ICALL(n->fn(ev)); /* @r0: count_error report_error */
	return handled;
}

int main(void)
{
	static const struct event events[] = {{0, "start"}, {1, "!login"}, {2, "tick"}, {0, "stop"}};
	int handled = 0;

	register_handler(log_event);
	register_handler(count_event);
	register_handler(audit_event);
	if (getenv("EVENTS_DEBUG"))
		register_handler(debug_event);
	register_error_handler(report_error);
	register_error_handler(count_error);

	for (int i = 0; i < 4; i++) {
		handled += emit(&events[i]);
		if (events[i].what[0] == '!')
			handled += emit_error(&events[i]);
	}
	printf("%d handled, %d logged\n", handled, nlogged);
	return 0;
}
