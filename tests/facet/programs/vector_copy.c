/* Two adjacent function-pointer fields copied from a table with one vector
 * load and store (`load <2 x ptr>` / `store <2 x ptr>` at -O2, as in
 * libxml2's xmlParserInputBufferCreateFilename): every lane is a slot, so
 * the close callbacks reach buf.closecb. Taking the vector as one slot lost
 * the second lane: R0 was empty here and libxml2's R± pruned the traced
 * xmlFileClose. */
#include <stdio.h>
#include <stdlib.h>

typedef int (*match_fn)(const char *name, int flags);
typedef void *(*open_fn)(const char *name);
typedef int (*read_fn)(void *ctx, char *buf, int len);
typedef int (*close_fn)(void *ctx);

typedef struct { match_fn match; open_fn open; read_fn read; close_fn close; } callbacks;
static callbacks table[15];
static int n_callbacks;

typedef struct buffer { void *ctx; read_fn readcb; close_fn closecb; int encoding; } buffer;

int register_callbacks(match_fn m, open_fn o, read_fn r, close_fn c)
{
	table[n_callbacks].match = m;
	table[n_callbacks].open = o;
	table[n_callbacks].read = r;
	table[n_callbacks].close = c;
	return n_callbacks++;
}

__attribute__((noinline)) buffer *alloc_buffer(int encoding)
{
	buffer *b = calloc(1, sizeof *b);
	if (b)
		b->encoding = encoding;
	return b;
}

static int file_match(const char *name, int flags) { return name[0] + flags; }
static void *file_open(const char *name) { return (void *)name; }
static int file_read(void *ctx, char *buf, int len) { (void)ctx; (void)buf; return len; }
static int file_close(void *ctx) { (void)ctx; return 0; }
static int gz_close(void *ctx) { (void)ctx; return 1; }

__attribute__((noinline)) buffer *create(const char *uri, int encoding)
{
	void *ctx = NULL;
	int i;
	for (i = n_callbacks - 1; i >= 0; i--)
		if (table[i].match && table[i].match(uri, 0) && (ctx = table[i].open(uri)) != NULL)
			break;
	buffer *ret = ctx ? alloc_buffer(encoding) : NULL;
	if (!ret)
		return NULL;
	ret->ctx = ctx;
	ret->readcb = table[i].read;
	ret->closecb = table[i].close;
	return ret;
}

__attribute__((noinline)) int release(buffer *b)
{
	return b->closecb(b->ctx); /* SITE closecb */
}

int main(int argc, char **argv)
{
	register_callbacks(file_match, file_open, file_read, file_close);
	if (argc > 2)
		register_callbacks(file_match, file_open, file_read, gz_close);
	buffer *b = create(argv[0], 1);
	return b ? release(b) : 2;
}

/*
 // EXPECT closecb field: buffer.closecb
 // EXPECT closecb r0: file_close gz_close
 // EXPECT closecb rpm: file_close gz_close
 // EXPECT closecb decision gz_close: add supported Add-Store pi_bind
 */
