/* A callee copied into a local variable before the call: at -O0 every local
 * lives in a stack slot (h = p->open; h(name)), and at -O2 a volatile one
 * still does (lua's aux_close: volatile lua_CFunction cf = p->closef). The
 * slot is private (only loaded and stored whole), so what the call loads is
 * what was stored there: the field it came from keys the site. A slot whose
 * address escapes is not followed. */
#include <stdio.h>

struct ops {
	int (*open)(const char *name);
	int (*close)(int fd);
};
struct hooks {
	int (*open)(const char *name);   /* the same signature in another struct */
};

static int open_file(const char *name) { return name[0]; }
static int open_pipe(const char *name) { return name[1]; }
static int open_hook(const char *name) { return name[2]; }
static int close_file(int fd) { return fd; }

__attribute__((noinline)) int start(struct ops *p, const char *name)
{
	int (*h)(const char *) = p->open;
	return h(name); /* SITE via_local */
}

__attribute__((noinline)) int stop(struct ops *p, int fd)
{
	int (*volatile cf)(int) = p->close;
	p->close = NULL;
	return cf(fd); /* SITE via_volatile */
}

__attribute__((noinline)) void peek(int (**slot)(const char *)) { printf("%p\n", (void *)slot); }

__attribute__((noinline)) int escaped(struct ops *p, const char *name)
{
	int (*h)(const char *) = p->open;
	peek(&h);   /* h's address escapes: anything may be written there */
	return h(name); /* SITE via_escaped */
}

int main(int argc, char **argv)
{
	struct ops o = {open_file, close_file};
	struct hooks k = {open_hook};
	if (argc > 1)
		o.open = open_pipe;
	int (*volatile any)(const char *) = argc > 3 ? open_hook : open_file;
	printf("%d %d %d %d %d\n", start(&o, argv[0]), escaped(&o, argv[0]), k.open(argv[0]), any(argv[0]),
	       stop(&o, argc));
	return 0;
}

/* via_local and via_volatile are keyed by the field stored into the slot;
 * via_escaped is not (peek could store anything into h).
 // EXPECT via_local field: ops.open
 // EXPECT via_local rpm: open_file open_pipe
 // EXPECT via_volatile field: ops.close
 // EXPECT via_volatile rpm: close_file
 // EXPECT via_escaped field: unrecovered
 */
