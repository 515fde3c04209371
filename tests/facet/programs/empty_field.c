/* A destructor field the program writes, but never with a function
 * (Prune-Store with F empty). A client library's context takes its
 * private-data destructor from the options the caller fills in, and its
 * method table from a default that leaves one method NULL:
 *
 *     c->free_priv = opts->free_priv;     (no caller in the program sets it)
 *     static const struct conn_funcs default_funcs = {.close = net_close, .free_ctx = NULL};
 *
 * Contexts, options, a second method table and a server's commands are
 * carved from one heap pool that a byte offset collapses, so the points-to
 * set of anything loaded from the pool holds every function stored
 * anywhere in it, and the command procedures, close methods and the
 * coders' init functions a stream keeps all fit `void (void *)`. F of
 * each destructor field is empty, yet the program does write it: the
 * copy moves nothing (no code writes options.free_priv, and what the
 * loaded value points to is the pool's one location, which holds what
 * every field of it holds, not what that field was written), and the
 * default table's initializer holds NULL there. A timer's finalizer is
 * the parameter its one caller passes NULL (`t->finalize = fin`): the
 * store (in a function other units could call, so -O2 keeps it) writes
 * a value that holds no function. By π_proj (every write into the field
 * was seen) the field holds no function: Prune-Store refutes every R0
 * target and R± is empty; R+ keeps R0. (`t->finalize = NULL` itself is
 * not seen: the IR's null is no value the points-to model tracks.)
 *
 * A field nothing writes at all is different: it may be written through
 * another type (a table of encoders read as coders, same layout) or by
 * code outside the program, so with no write seen R± keeps R0, as the
 * paper's Prune-Store (F ≠ ∅) does: the `init` site, whose field is only
 * ever written as encoder.init. A copy out of such a field still brings
 * what the table holds there (points-to knows the table's slots): the
 * `stream` site, a stream in the pool that keeps its coder's init. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct options {
	const char *host;
	void (*free_priv)(void *priv);
};

struct conn_funcs {
	void (*close)(void *conn);
	void (*free_ctx)(void *ctx);
};

struct conn {
	const struct conn_funcs *funcs;
	void *priv;
	void *ctx;
	void (*free_priv)(void *priv);
};

struct timer {
	void (*finalize)(void *data);
	void *data;
};

struct command {
	const char *name;
	void (*proc)(void *client);
};

/* A coder is read through the encoder table it shares a layout with. */
struct coder {
	int id;
	void (*init)(void *state);
};
struct encoder {
	int id;
	void (*init)(void *state);
	int flags;
};

static unsigned char *pool;
static size_t pool_used;

/* Carved at a byte offset a cursor keeps: the pool is one collapsed object. */
__attribute__((noinline, malloc)) static void *carve(size_t n)
{
	void *p = pool + pool_used;
	pool_used = (pool_used + n) % 1024;
	return p;
}

static void net_close(void *c) { printf("close %p\n", c); }
static void tls_close(void *c) { printf("tls close %p\n", c); }
static void get_command(void *c) { printf("get %p\n", c); }
static void set_command(void *c) { printf("set %p\n", c); }
static void lz_init(void *s) { printf("lz %p\n", s); }
static void delta_init(void *s) { printf("delta %p\n", s); }

static const struct conn_funcs default_funcs = {.close = net_close, .free_ctx = NULL};

static const struct encoder encoders[] = {{1, lz_init, 0}, {2, delta_init, 1}};

struct stream {
	void *state;
	void (*init)(void *state);
};

__attribute__((noinline)) static struct command *new_command(const char *name, int set)
{
	struct command *c = (struct command *)carve(sizeof *c);
	c->name = name;
	c->proc = set ? set_command : get_command;
	return c;
}

/* A second method table made at run time: only close is set. */
__attribute__((noinline)) static const struct conn_funcs *tls_funcs(void)
{
	struct conn_funcs *f = (struct conn_funcs *)carve(sizeof *f);
	f->close = tls_close;
	return f;
}

__attribute__((noinline)) static struct conn *connect_with(const struct options *opts, int tls)
{
	struct conn *c = (struct conn *)carve(sizeof *c);
	c->funcs = tls ? tls_funcs() : &default_funcs;
	c->priv = (void *)opts->host;
	c->ctx = NULL;
	c->free_priv = opts->free_priv;
	return c;
}

__attribute__((noinline)) static void conn_free(struct conn *c)
{
	c->funcs->close(c); /* SITE close */
	if (c->free_priv)
		c->free_priv(c->priv); /* SITE priv */
	if (c->funcs->free_ctx)
		c->funcs->free_ctx(c->ctx); /* SITE ctx */
}

__attribute__((noinline)) struct timer *add_timer(void *data, void (*fin)(void *data))
{
	struct timer *t = (struct timer *)carve(sizeof *t);
	t->data = data;
	t->finalize = fin;
	return t;
}

__attribute__((noinline)) static void del_timer(struct timer *t)
{
	if (t->finalize)
		t->finalize(t->data); /* SITE fin */
}

__attribute__((noinline)) static const struct coder *find_coder(int id)
{
	for (size_t i = 0; i < sizeof encoders / sizeof *encoders; i++)
		if (encoders[i].id == id)
			return (const struct coder *)(const void *)&encoders[i];
	return NULL;
}

__attribute__((noinline)) static void start(int id, void *state)
{
	const struct coder *c = find_coder(id);
	if (c)
		c->init(state); /* SITE init */
}

__attribute__((noinline)) static struct stream *open_stream(int id, void *state)
{
	const struct coder *c = find_coder(id);
	struct stream *s = (struct stream *)carve(sizeof *s);
	s->state = state;
	s->init = c ? c->init : NULL;
	return s;
}

__attribute__((noinline)) static void stream_start(struct stream *s)
{
	if (s->init)
		s->init(s->state); /* SITE stream */
}

int main(int argc, char **argv)
{
	pool = (unsigned char *)calloc(1024, 1);
	if (!pool)
		return 1;
	struct command *cmd = new_command("get", argc > 2);
	cmd->proc(argv[0]); /* SITE proc */
	struct options *opts = (struct options *)carve(sizeof *opts);
	opts->host = argv[0];
	struct conn *c = connect_with(opts, argc > 3);
	conn_free(c);
	start(argc, argv);
	stream_start(open_stream(argc, argv));
	del_timer(add_timer(argv, NULL));
	return 0;
}

/*
 // EXPECT priv field: conn.free_priv
 // EXPECT priv r0: tls_close get_command set_command lz_init delta_init
 // EXPECT priv rplus: tls_close get_command set_command lz_init delta_init
 // EXPECT priv rpm: -
 // EXPECT priv decision get_command: prune supported Prune-Store pi_proj
 // EXPECT priv abstains: no
 // EXPECT ctx field: conn_funcs.free_ctx
 // EXPECT ctx r0: tls_close get_command set_command lz_init delta_init
 // EXPECT ctx rplus: tls_close get_command set_command lz_init delta_init
 // EXPECT ctx rpm: -
 // EXPECT ctx decision tls_close: prune supported Prune-Store pi_proj
 // EXPECT close field: conn_funcs.close
 // EXPECT close rpm: net_close tls_close
 // EXPECT init field: coder.init
 // EXPECT init r0: lz_init delta_init
 // EXPECT init rpm: lz_init delta_init
 // EXPECT init decision lz_init: none
 // EXPECT fin field: timer.finalize
 // EXPECT fin rpm: -
 // EXPECT fin decision get_command: prune supported Prune-Store pi_proj
 // EXPECT stream field: stream.init
 // EXPECT stream rpm: lz_init delta_init
 // EXPECT stream decision get_command: prune supported Prune-Store pi_proj
 */
