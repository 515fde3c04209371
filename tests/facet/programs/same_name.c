/* Two unrelated structs with a same-named, same-signature field at the same
 * offset, kept behind void * in one generic table: the points-to analysis
 * mixes them, the field keys (reader.handler vs writer.handler) must not. */
#include <stdio.h>
#include <stdlib.h>

struct reader {
	int fd;
	int (*handler)(void *ctx, int ev);
};
struct writer {
	char *buf;
	int (*handler)(void *ctx, int ev);
};

static int on_read(void *ctx, int ev) { return ((struct reader *)ctx)->fd + ev; }
static int on_read_eof(void *ctx, int ev) { (void)ctx; return -ev; }
static int on_write(void *ctx, int ev) { return ((struct writer *)ctx)->buf != NULL ? ev : 0; }

struct reader readers[2] = {{0, on_read}, {1, on_read_eof}};

static struct writer *make_writer(void)
{
	struct writer *w = malloc(sizeof *w);
	w->buf = NULL;
	w->handler = on_write;
	return w;
}

/* The event loop keeps every source behind void *. */
static void *items[8];
static int n_items;

static void add_item(void *it) { items[n_items++] = it; }

__attribute__((noinline)) int dispatch_read(int i)
{
	struct reader *r = items[i];
	return r->handler(r, 1); /* SITE read */
}

__attribute__((noinline)) int dispatch_write(int i)
{
	struct writer *w = items[i];
	return w->handler(w, 2); /* SITE write */
}

int main(void)
{
	add_item(&readers[0]);
	add_item(&readers[1]);
	add_item(make_writer());
	printf("%d %d\n", dispatch_read(0), dispatch_write(2));
	return 0;
}

/* R0: items collapses and holds all three objects, whose handlers sit at
 * offset 8: FLTA keeps the three functions at both sites. Prune-Store splits
 * them by field; each site is then left with at most two targets and
 * abstains, which keeps the refutations.
 // EXPECT read field: reader.handler
 // EXPECT read r0: on_read on_read_eof on_write
 // EXPECT read rpm: on_read on_read_eof
 // EXPECT read rplus: on_read on_read_eof on_write
 // EXPECT read decision on_write: prune supported Prune-Store pi_proj
 // EXPECT read decision on_read: add supported Add-Witness true
 // EXPECT read abstains: yes
 // EXPECT write field: writer.handler
 // EXPECT write r0: on_read on_read_eof on_write
 // EXPECT write rpm: on_write
 // EXPECT write decision on_read_eof: prune supported Prune-Store pi_proj
 // EXPECT write decision on_write: add supported Add-Store pi_bind
 */
