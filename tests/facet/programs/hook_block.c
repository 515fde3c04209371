/* Hook lists packed in one allocation (issue 15.5): each hook a plugin may
 * implement is a member of struct hooks; the server keeps, for every hook,
 * a NULL-terminated list of the plugins' handlers, all of them in one
 * malloc'd block, the list of hook `on_x` at byte offset
 * offsetof(struct hooks, on_x) * MAX_PLUGINS. The block has no type:
 * registration and dispatch reach a list by byte arithmetic on the pointer
 * the server holds (server.slots). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

struct conn {
	int fd;
	int state;
};
typedef int (*hook_fn)(struct conn *c);

struct hooks {
	hook_fn on_accept;
	hook_fn on_read;
	hook_fn on_close;
};

struct plugin {
	const char *name;
	struct hooks h;
};

enum { MAX_PLUGINS = 4 };

struct server {
	int n_plugins;
	void *slots;   /* every hook's handler list, one allocation */
};

static int log_accept(struct conn *c) { return printf("log accept %d\n", c->fd); }
static int log_read(struct conn *c) { return printf("log read %d\n", c->fd); }
static int log_close(struct conn *c) { return printf("log close %d\n", c->fd); }
static int auth_accept(struct conn *c) { return c->state = 1; }
static int gzip_read(struct conn *c) { return c->state * 2; }
static int stat_close(struct conn *c) { return c->fd + c->state; }
static int late_any(struct conn *c) { return c->fd - 1; }

static const struct plugin plugins[] = {
	{"log", {log_accept, log_read, log_close}},
	{"auth", {auth_accept, NULL, NULL}},
	{"gzip", {NULL, gzip_read, NULL}},
	{"stat", {NULL, NULL, stat_close}},
};

/* The list of the hook at byte offset `off` of struct hooks. */
#define HOOK_LIST(srv, off) ((hook_fn *)((char *)(srv)->slots + (off) * MAX_PLUGINS))

/* Appends p's handler of each hook it implements to that hook's list. */
#define ADD_HOOK(srv, p, member)                                                     \
	do {                                                                             \
		if ((p)->h.member) {                                                         \
			hook_fn *l = HOOK_LIST(srv, offsetof(struct hooks, member));             \
			while (*l)                                                               \
				l++;                                                                 \
			*l = (p)->h.member;                                                      \
		}                                                                            \
	} while (0)

static void server_init(struct server *srv, int n)
{
	srv->slots = calloc(MAX_PLUGINS + 1, sizeof(struct hooks));
	srv->n_plugins = n;
	for (int i = 0; i < n; i++) {
		ADD_HOOK(srv, &plugins[i], on_accept);
		ADD_HOOK(srv, &plugins[i], on_read);
		ADD_HOOK(srv, &plugins[i], on_close);
	}
}

static int on_accept(struct server *srv, struct conn *c)
{
	int rc = 0;
	for (hook_fn *l = HOOK_LIST(srv, offsetof(struct hooks, on_accept)); *l; l++)
		rc += (*l)(c); /* SITE accept */
	return rc;
}

static int on_read(struct server *srv, struct conn *c)
{
	int rc = 0;
	for (hook_fn *l = HOOK_LIST(srv, offsetof(struct hooks, on_read)); *l; l++)
		rc += (*l)(c); /* SITE read */
	return rc;
}

static int on_close(struct server *srv, struct conn *c)
{
	int rc = 0;
	for (hook_fn *l = HOOK_LIST(srv, offsetof(struct hooks, on_close)); *l; l++)
		rc += (*l)(c); /* SITE close */
	return rc;
}

/* A hook chosen at run time: the offset is not known. */
__attribute__((noinline)) static int run_hook(struct server *srv, size_t off, struct conn *c)
{
	int rc = 0;
	for (hook_fn *l = HOOK_LIST(srv, off); *l; l++)
		rc += (*l)(c); /* SITE any */
	return rc;
}

/* A handler registered for a hook chosen at run time: it may land on any
 * list, so every list's F holds it. */
__attribute__((noinline)) static void add_hook_at(struct server *srv, size_t off, hook_fn f)
{
	hook_fn *l = HOOK_LIST(srv, off);
	while (*l)
		l++;
	*l = f;
}

static const size_t hook_offsets[] = {offsetof(struct hooks, on_accept), offsetof(struct hooks, on_read),
                                      offsetof(struct hooks, on_close)};

int main(int argc, char **argv)
{
	(void)argv;
	struct server srv;
	struct conn c = {argc, 0};
	server_init(&srv, argc < 4 ? 4 : argc);
	add_hook_at(&srv, hook_offsets[(argc + 1) % 3], late_any);
	int rc = on_accept(&srv, &c) + on_read(&srv, &c) + on_close(&srv, &c);
	rc += run_hook(&srv, hook_offsets[argc % 3], &c);
	free(srv.slots);
	return rc & 1;
}

/* Each constant offset keeps its hook's handlers and the one registered at
 * a run-time offset; the run-time dispatch keeps every handler of the type,
 * and explain says why.
 // EXPECT accept r0: auth_accept gzip_read late_any log_accept log_close log_read stat_close
 // EXPECT accept rpm: auth_accept late_any log_accept
 // EXPECT accept decision gzip_read: prune supported Prune-Store pi_proj
 // EXPECT read rpm: gzip_read late_any log_read
 // EXPECT read decision log_accept: prune supported Prune-Store pi_proj
 // EXPECT close rpm: late_any log_close stat_close
 // EXPECT any field: unrecovered
 // EXPECT any rpm: auth_accept gzip_read late_any log_accept log_close log_read stat_close
 */
