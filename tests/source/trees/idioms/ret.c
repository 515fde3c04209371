/* ret.c — function pointers a call returns: a lookup returning one of a
 * set, its result stored or called at once, and an accessor returning the
 * address of a global function pointer, used through a macro for reads and
 * writes (the way a library hides a per-thread handler). */
#include <string.h>

typedef int (*cmd_fn)(int);
typedef void (*err_fn)(const char *);

static int cmd_get(int x) { return x; }
static int cmd_set(int x) { return -x; }
static int cmd_del(int x) { return x * 2; }
static void err_default(const char *m) { (void)m; }
static void err_quiet(const char *m) { (void)m; }
static void err_loud(const char *m) { (void)m; }

static cmd_fn lookup(const char *name)
{
	if (strcmp(name, "get") == 0)              /* -> strcmp */
		return cmd_get;
	return name[0] == 's' ? cmd_set : cmd_del;
}

err_fn handler = err_default;

err_fn *get_handler(void)
{
	return &handler;
}

#define HANDLER (*(get_handler()))

int dispatch(const char *name, int x)
{
	cmd_fn cb = lookup(name);                  /* -> lookup@ret.c */
	int r = cb(x);                             /* -> cmd_get@ret.c:S cmd_set@ret.c:S cmd_del@ret.c:S */
	return r + lookup(name)(x);                /* -> lookup@ret.c cmd_get@ret.c:S cmd_set@ret.c:S cmd_del@ret.c:S */
}

void set_quiet(void)
{
	HANDLER = err_quiet;                       /* -> get_handler@ret.c */
}

void report(const char *m)
{
	HANDLER(m);                                /* -> get_handler@ret.c err_default@ret.c:S err_quiet@ret.c:S err_loud@ret.c:S */
	handler(m);                                /* -> err_default@ret.c:W err_quiet@ret.c:S err_loud@ret.c:S */
}

void set_loud(void)
{
	handler = err_loud;
}
