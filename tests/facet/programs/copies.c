/* An ops table copied into objects by struct assignment and by memcpy, one
 * of them from a table of another (layout-compatible) type: form 2 of
 * Algorithm 1 brings its functions into the destination's fields. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct file_ops {
	int (*open)(const char *path);
	int (*close)(int fd);
};
struct file {
	struct file_ops ops;
	int fd;
};
/* An older plugin interface with the same layout. */
struct legacy_ops {
	int (*lopen)(const char *path);
	int (*lclose)(int fd);
};

static int disk_open(const char *path) { return path[0]; }
static int disk_close(int fd) { return fd; }
static int net_open(const char *path) { return path[1]; }
static int net_close(int fd) { return -fd; }
static int legacy_open(const char *path) { return (int)strlen(path); }
static int legacy_close(int fd) { return fd + 1; }

static const struct file_ops disk_ops = {disk_open, disk_close};
static struct file_ops net_ops;
struct legacy_ops legacy = {legacy_open, legacy_close};

static void net_init(void)
{
	net_ops.open = net_open;
	net_ops.close = net_close;
}

__attribute__((noinline)) struct file *file_new(int kind)
{
	struct file *f = malloc(sizeof *f);
	if (kind == 0)
		f->ops = disk_ops;                           /* struct assignment */
	else if (kind == 1)
		memcpy(&f->ops, &net_ops, sizeof net_ops);   /* memcpy */
	else
		memcpy(&f->ops, &legacy, sizeof legacy);     /* from another type */
	f->fd = kind;
	return f;
}

__attribute__((noinline)) int file_open(struct file *f, const char *path)
{
	return f->ops.open(path); /* SITE open */
}

int main(int argc, char **argv)
{
	net_init();
	struct file *f = file_new(argc % 3);
	printf("%d\n", file_open(f, argv[0]));
	return 0;
}

/* f->ops.open keys on file_ops.open (the embedded struct is descended into).
 // EXPECT open field: file_ops.open
 // EXPECT open r0: disk_open net_open legacy_open
 // EXPECT open rpm: disk_open net_open legacy_open
 // EXPECT open decision disk_open: add supported Add-Witness true
 // EXPECT open decision net_open: add supported Add-Store pi_bind
 // EXPECT open decision legacy_open: add supported Add-Store pi_bind
 // EXPECT open evidence legacy_open: copy
 // EXPECT open abstains: no
 */
