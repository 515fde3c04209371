/* plugin_extra.c — a second module with its own static file_open, linked
 * with plugin.c for the symbol-lookup and overlay tests: the linked module
 * renames one of the two, and a bare "file_open" names both. */
struct ops {
	const char *name;
	int (*open)(int fd);
	void (*close)(int fd);
};

extern void ops_register(struct ops *o);

static int file_open(int fd) { return fd - 1; }

static struct ops extra_ops = {"extra", file_open, 0};

void extra_setup(void)
{
	ops_register(&extra_ops);
}
