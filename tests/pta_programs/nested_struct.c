/* nested_struct.c — listeners of a small server, each with connection
 * handlers in a struct nested two levels deep (listener.cfg.h.on_open).
 * Connections are dispatched straight through the nested field, closed
 * through a pointer to the inner struct, and a listener's error hook lives
 * in an anonymous struct member.
 *
 * Covers: a function pointer in a nested struct, at a non-zero offset, read
 * through the outer object and through a pointer to the inner struct;
 * on_open and on_close (same type) stay separate; the two listeners are
 * separate objects, but both flow through the same pointer array, so each
 * site sees both. */
#include <stdio.h>
#include "observe.h"

struct conn_handlers {
	void (*on_open)(int fd);
	void (*on_close)(int fd);
};

struct listener {
	int port;
	struct {
		char name[12];
		struct conn_handlers h;
		int backlog;
	} cfg;
	struct {
		int errors;
		void (*on_error)(int port, int code);
	};
};

static int open_count, close_count;

static void http_open(int fd)
{
	OBSERVE_TARGET();
	open_count += fd;
}

static void http_close(int fd)
{
	OBSERVE_TARGET();
	close_count += fd;
}

static void admin_open(int fd)
{
	OBSERVE_TARGET();
	open_count += 100 * fd;
}

static void admin_close(int fd)
{
	OBSERVE_TARGET();
	close_count += 100 * fd;
}

static void log_error(int port, int code)
{
	OBSERVE_TARGET();
	printf("port %d: error %d\n", port, code);
}

static struct listener http = {
	.port = 80,
	.cfg = {.name = "http", .h = {http_open, http_close}, .backlog = 128},
	.on_error = log_error,
};

static struct listener admin = {
	.port = 8080,
	.cfg = {.name = "admin", .h = {.on_open = admin_open, .on_close = admin_close}},
};

static void close_conn(const struct conn_handlers *h, int fd)
{
	ICALL(h->on_close(fd)); /* @r0: admin_close http_close */
}

static void accept_conn(struct listener *l, int fd)
{
	ICALL(l->cfg.h.on_open(fd)); /* @r0: admin_open http_open */
	if (fd % 3 == 0 && l->on_error) {
		l->errors++;
		ICALL(l->on_error(l->port, fd)); /* @r0: log_error */
	}
}

int main(void)
{
	struct listener *all[] = {&http, &admin};

	for (int fd = 3; fd < 9; fd++) {
		struct listener *l = all[fd % 2];
		accept_conn(l, fd);
		close_conn(&l->cfg.h, fd);
	}
	printf("%s: %d errors; opens %d, closes %d\n", http.cfg.name, http.errors, open_count, close_count);
	return 0;
}
