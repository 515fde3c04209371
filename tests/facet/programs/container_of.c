/* A handler called through the struct that embeds a list link
 * (container_of). An event loop keeps its posted events on an intrusive
 * queue and finds each event from its link:
 *
 *     #define queue_data(q, type, link) ((type *)((char *)(q) - offsetof(type, link)))
 *     ev = queue_data(q, struct event, queue);
 *     ev->handler(ev);
 *
 * At -O2 the optimiser keeps `ev` only as a debug record on `q - 24` and
 * loads the handler from `q - 16`: the base `q` is a link (struct queue),
 * the typed address is a sibling at a negative offset from it. The
 * nearest typed sibling at or below the access names the memory, as for a
 * positive one (the rebased step): event.handler, whose F is the two
 * handlers the program stores there. Events and a server's commands are
 * carved from one heap pool that a byte offset collapses, so R0 holds the
 * command procedures too, which fit the handler's IR type; Prune-Store
 * refutes them.
 *
 * The same handler through a receiver in an array of structs
 * (`c[i].read->handler(c[i].read)`, closing idle connections): the
 * receiver's address has a variable index, which picks an element; the
 * field loaded is the element's `read`, a typed pointer to an event, so
 * the chained step keys the site on event.handler as it keys a store
 * through `c[i].read` (the `idle` site); and through an array of
 * pointers to events (`evs[i]->handler(evs[i])`, the `each` site), where
 * the index picks the pointer itself.
 *
 * And a connection found from its link and never materialised (`c =
 * queue_data(q, struct lconn, queue); c->read->handler(c->read)`, draining
 * reusable connections, the `drain` site): at -O2 no value holds c; the
 * only record of it is `#dbg_value(q, c, DW_OP_constu 16, DW_OP_minus,
 * DW_OP_stack_value)`, c as q - 16, and `read` is loaded from q - 8. The
 * record types the memory at q - 16 as struct lconn, so the load is
 * lconn.read, a typed pointer to an event: event.handler. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

struct queue {
	struct queue *prev;
	struct queue *next;
};

struct event {
	void *data;
	void (*handler)(struct event *ev);
	struct queue queue;
	int posted;
};

struct conn {
	int fd;
	struct event *read;
};

struct lconn {
	int fd;
	int close;
	struct event *read;
	struct queue queue;
};

struct command {
	const char *name;
	void (*proc)(struct event *ev);
};

#define queue_data(q, type, link) ((type *)(void *)((char *)(q) - offsetof(type, link)))

static unsigned char *pool;
static size_t pool_used;
static struct queue posted = {&posted, &posted};
static struct conn *conns;
static size_t n_conns;
static struct event **evs;
static struct queue reusable = {&reusable, &reusable};

/* Carved at a byte offset a cursor keeps: the pool is one collapsed object. */
__attribute__((noinline, malloc)) static void *carve(size_t n)
{
	void *p = pool + pool_used;
	pool_used = (pool_used + n) % 1024;
	return p;
}

static void read_handler(struct event *ev) { printf("read %p\n", ev->data); }
static void write_handler(struct event *ev) { printf("write %p\n", ev->data); }
static void get_command(struct event *ev) { printf("get %p\n", (void *)ev); }
static void set_command(struct event *ev) { printf("set %p\n", (void *)ev); }

__attribute__((noinline)) static struct command *new_command(const char *name, int set)
{
	struct command *c = (struct command *)carve(sizeof *c);
	c->name = name;
	c->proc = set ? set_command : get_command;
	return c;
}

__attribute__((noinline)) static void post_event(void *data, int write)
{
	struct event *ev = (struct event *)carve(sizeof *ev);
	ev->data = data;
	ev->handler = write ? write_handler : read_handler;
	ev->posted = 1;
	ev->queue.prev = posted.prev;
	ev->queue.next = &posted;
	posted.prev->next = &ev->queue;
	posted.prev = &ev->queue;
}

__attribute__((noinline)) static void process_posted(void)
{
	while (posted.next != &posted) {
		struct queue *q = posted.next;
		struct event *ev = queue_data(q, struct event, queue);
		q->prev->next = q->next;
		q->next->prev = q->prev;
		ev->posted = 0;
		ev->handler(ev); /* SITE posted */
	}
}

__attribute__((noinline)) static void close_idle(void)
{
	for (size_t i = 0; i < n_conns; i++)
		if (conns[i].fd != -1)
			conns[i].read->handler(conns[i].read); /* SITE idle */
}

__attribute__((noinline)) static void run_each(size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (evs[i])
			evs[i]->handler(evs[i]); /* SITE each */
}

__attribute__((noinline)) static void drain(void)
{
	for (int i = 0; i < 32 && reusable.prev != &reusable; i++) {
		struct queue *q = reusable.prev;
		struct lconn *c = queue_data(q, struct lconn, queue);
		q->prev->next = q->next;
		q->next->prev = q->prev;
		c->close = 1;
		c->read->handler(c->read); /* SITE drain */
	}
}

int main(int argc, char **argv)
{
	pool = (unsigned char *)calloc(1024, 1);
	if (!pool)
		return 1;
	struct command *cmd = new_command("get", argc > 2);
	cmd->proc(NULL); /* SITE proc */
	post_event(argv[0], argc > 1);
	process_posted();
	n_conns = (size_t)argc;
	conns = (struct conn *)calloc(n_conns, sizeof *conns);
	if (!conns)
		return 1;
	for (size_t i = 0; i < n_conns; i++) {
		conns[i].fd = (int)i;
		conns[i].read = (struct event *)carve(sizeof(struct event));
		conns[i].read->handler = i ? read_handler : write_handler;
	}
	close_idle();
	evs = (struct event **)calloc(n_conns, sizeof *evs);
	if (!evs)
		return 1;
	for (size_t i = 0; i < n_conns; i++)
		evs[i] = conns[i].read;
	run_each(n_conns);
	struct lconn *lc = (struct lconn *)carve(sizeof *lc);
	lc->read = conns[0].read;
	lc->queue.prev = reusable.prev;
	lc->queue.next = &reusable;
	reusable.prev->next = &lc->queue;
	reusable.prev = &lc->queue;
	drain();
	return 0;
}

/*
 // EXPECT posted field: event.handler
 // EXPECT posted r0: read_handler write_handler get_command set_command
 // EXPECT posted rpm: read_handler write_handler
 // EXPECT posted decision get_command: prune supported Prune-Store pi_proj
 // EXPECT idle field: event.handler
 // EXPECT idle rpm: read_handler write_handler
 // EXPECT idle decision set_command: prune supported Prune-Store pi_proj
 // EXPECT each field: event.handler
 // EXPECT each rpm: read_handler write_handler
 // EXPECT each decision get_command: prune supported Prune-Store pi_proj
 // EXPECT drain field: event.handler
 // EXPECT drain rpm: read_handler write_handler
 // EXPECT drain decision get_command: prune supported Prune-Store pi_proj
 // EXPECT proc field: command.proc
 */
