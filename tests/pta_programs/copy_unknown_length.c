/* copy_unknown_length.c — a table of handlers saved with memcpy whose
 * length is known only at run time (a count of records times their size),
 * the way a program snapshots its state before a reload.
 *
 * Covers: a copy of unknown length reads its source from the source
 * pointer on without merging the source's fields. The source table keeps
 * on_read and on_write apart (same IR type), so the calls through it each
 * have one target. What lands where in the destination is not known: each
 * of its fields may hold anything the copy read, so a call through it has
 * every function read; a copy that starts at the second field reads
 * nothing before it, and its destination holds on_write's function only;
 * a field of the destination before the pointer is not written.
 *
 * Before copies read and wrote whole objects (pta_load_all, pta_store_all)
 * they collapsed the source too, and every call here had both handlers. */
#include <stdio.h>
#include <string.h>
#include "observe.h"

struct handlers {
	int (*on_read)(int fd);
	int (*on_write)(int fd);
};

static int read_file(int fd)
{
	OBSERVE_TARGET();
	return fd + 1;
}

static int write_file(int fd)
{
	OBSERVE_TARGET();
	return fd + 2;
}

static int close_file(int fd)
{
	OBSERVE_TARGET();
	return fd + 3;
}

struct handlers live;
struct handlers saved[4];
int (*tail[4])(int fd);

/* A destination field before the copy's start keeps what it holds. */
struct box {
	int (*on_close)(int fd);
	struct handlers h[4];
} box;

/* Not inlined, so that the table's contents are not folded into main. */
__attribute__((noinline)) void install(struct handlers *h)
{
	h->on_read = read_file;
	h->on_write = write_file;
}

int main(int argc, char **argv)
{
	(void)argv;
	size_t records = (size_t)argc;   /* 1 when run without arguments */
	install(&live);
	memcpy(saved, &live, records * sizeof live);
	memcpy(tail, &live.on_write, records * sizeof live.on_write);
	box.on_close = close_file;
	memcpy(box.h, &live, records * sizeof live);
	int r = ICALL(live.on_read(3)); /* @r0: read_file */
	r += ICALL(live.on_write(3)); /* @r0: write_file */
	r += ICALL(saved[0].on_write(4)); /* @r0: read_file write_file */
	r += ICALL(tail[0](5)); /* @r0: write_file */
	r += ICALL(box.on_close(6)); /* @r0: close_file */
	r += ICALL(box.h[0].on_read(7)); /* @r0: read_file write_file */
	printf("%d\n", r);
	return 0;
}
