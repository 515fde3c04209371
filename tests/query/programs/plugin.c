/* plugin.c — an ops table the program fills and a library hands back.
 *
 * use() calls through a struct ops that ops_lookup (a library function,
 * declared here, not defined) returns: no points-to analysis can see what it
 * holds, so those calls stay unresolved in r0, while the refinement knows the
 * field they dispatch through (ops.open, ops.close) and what the program
 * stores there. fire() calls a pointer hook_lookup returns: no field at all.
 * The query and overlay tests read this program's answers from its source:
 *
 *   main -> setup -> ops_register, main -> use -> ops_lookup,
 *   main -> fire -> hook_lookup, main -> direct_only -> helper
 *   ops.open  (offset 8):  file_open (initializer of file_ops), sock_open (store in setup)
 *   ops.close (offset 16): file_close (initializer and store)
 *   unresolved in r0: use's o->open and o->close, fire's h() */
#include <stdlib.h>

struct ops {
	const char *name;
	int (*open)(int fd);
	void (*close)(int fd);
};

extern struct ops *ops_lookup(const char *name);   /* a plugin's: unseen */
extern void ops_register(struct ops *o);
typedef void (*hook_fn)(void);
extern hook_fn hook_lookup(const char *name);

static int file_open(int fd) { return fd + 1; }
static void file_close(int fd) { (void)fd; }
static int sock_open(int fd) { return fd + 2; }

static struct ops file_ops = {"file", file_open, file_close};

void setup(void)
{
	struct ops *o = malloc(sizeof *o);
	if (!o)
		return;
	o->name = "sock";
	o->open = sock_open;
	o->close = file_close;
	ops_register(o);
	ops_register(&file_ops);
}

int use(const char *name)
{
	struct ops *o = ops_lookup(name);
	int fd = o->open(3);
	o->close(fd);
	return fd;
}

void fire(void)
{
	hook_fn h = hook_lookup("x");
	h();
}

static void helper(void) {}

void direct_only(void)
{
	helper();
}

int main(int argc, char **argv)
{
	setup();
	int r = use(argv[0]);
	fire();
	direct_only();
	return r + argc;
}
