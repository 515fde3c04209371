/* Registration functions store their parameter into a field. */
#include <stdio.h>
#include <stdlib.h>

struct server;
typedef void (*request_fn)(struct server *s, int code);

struct server {
	const char *name;
	request_fn on_request;
	request_fn on_close;
	int hits;
};

static void serve_static(struct server *s, int code) { s->hits += code; }
static void serve_api(struct server *s, int code) { s->hits += 2 * code; }
static void log_close(struct server *s, int code) { printf("%s %d\n", s->name, code); }
static void free_close(struct server *s, int code) { s->hits = code; }

__attribute__((noinline)) void server_on(struct server *s, request_fn h) { s->on_request = h; }
__attribute__((noinline)) void server_on_close(struct server *s, request_fn h) { s->on_close = h; }

/* Counts the hooks as an array (a variable index): the analysis merges the
 * server's fields. */
__attribute__((noinline)) int server_hooks(struct server *s, int n)
{
	request_fn *hook = &s->on_request;
	int count = 0;
	for (int i = 0; i < n; i++)
		count += hook[i] != NULL;
	return count;
}

__attribute__((noinline)) void run(struct server *s)
{
	s->on_request(s, 1); /* SITE request */
	s->on_close(s, 0); /* SITE close */
}

int main(int argc, char **argv)
{
	(void)argv;
	struct server *a = calloc(1, sizeof *a), *b = calloc(1, sizeof *b);
	a->name = "a";
	b->name = "b";
	server_on(a, serve_static);
	server_on(b, serve_api);
	server_on_close(a, log_close);
	server_on_close(b, free_close);
	printf("%d\n", server_hooks(argc > 1 ? a : b, argc) + server_hooks(argc > 2 ? b : a, argc));
	run(a);
	run(b);
	return 0;
}

/*
 // EXPECT request field: server.on_request
 // EXPECT request r0: serve_static serve_api log_close free_close
 // EXPECT request rpm: serve_static serve_api
 // EXPECT request decision serve_api: add supported Add-Store pi_bind
 // EXPECT request evidence serve_api: store
 // EXPECT request decision log_close: prune supported Prune-Store pi_proj
 // EXPECT close field: server.on_close
 // EXPECT close r0: serve_static serve_api log_close free_close
 // EXPECT close rpm: log_close free_close
 // EXPECT close decision serve_static: prune supported Prune-Store pi_proj
 */
