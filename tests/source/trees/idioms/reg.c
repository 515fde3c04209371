/* reg.c — a handler registered through an ops table's function (the
 * argument of an indirect call reaches its targets' parameters), and a
 * function defined without a prototype stored into a (void) pointer. */
struct conn;
typedef void (*conn_handler)(struct conn *);
struct conn_type { int (*set_handler)(struct conn *c, conn_handler fn); };
struct conn { const struct conn_type *type; conn_handler handler; };

static int sock_set_handler(struct conn *c, conn_handler fn)
{
	c->handler = fn;
	return 0;
}

static const struct conn_type sock_type = { sock_set_handler };

static inline int conn_set_handler(struct conn *c, conn_handler fn)
{
	return c->type->set_handler(c, fn);        /* -> sock_set_handler@reg.c:W */
}

static void on_read(struct conn *c) { (void)c; }

void serve(struct conn *c)
{
	c->type = &sock_type;
	conn_set_handler(c, on_read);              /* -> conn_set_handler@reg.c */
	c->handler(c);                             /* -> on_read@reg.c:S */
}

static long tick_posix() { return 1; }

long (*tick)(void);

void init_tick(void)
{
	tick = tick_posix;
}

long now(void)
{
	return tick();                             /* -> tick_posix@reg.c:S */
}
