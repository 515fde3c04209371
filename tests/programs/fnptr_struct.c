/* fnptr_struct.c — function pointers in globals and in heap structs: a
 * miniature device layer.  Each device is malloc'd and carries its own
 * read/write/close pointers; a global log hook can be swapped at run time.
 *
 * Usage: fnptr_struct [quiet]   ("quiet" installs the silent log hook) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct device {
	const char *name;
	char buf[64];
	size_t len;
	size_t (*read)(struct device *d, char *out, size_t n);
	size_t (*write)(struct device *d, const char *in, size_t n);
	void (*close)(struct device *d);
};

static void log_stderr(const char *msg) /* @address-taken */
{
	fprintf(stderr, "[dev] %s\n", msg); /* @call fprintf */
}

static void log_silent(const char *msg) /* @address-taken */
{
	(void)msg;
}

void (*log_hook)(const char *msg) = log_stderr;

static size_t null_read(struct device *d, char *out, size_t n) /* @address-taken */
{
	(void)d;
	(void)out;
	(void)n;
	return 0;
}

static size_t null_write(struct device *d, const char *in, size_t n) /* @address-taken */
{
	(void)d;
	(void)in;
	return n;
}

static size_t mem_read(struct device *d, char *out, size_t n) /* @address-taken */
{
	if (n > d->len)
		n = d->len;
	memcpy(out, d->buf, n); /* @call llvm.memcpy*=memcpy */
	memmove(d->buf, d->buf + n, d->len - n); /* @call llvm.memmove*=memmove */
	d->len -= n;
	return n;
}

static size_t mem_write(struct device *d, const char *in, size_t n) /* @address-taken */
{
	if (n > sizeof d->buf - d->len)
		n = sizeof d->buf - d->len;
	memcpy(d->buf + d->len, in, n); /* @call llvm.memcpy*=memcpy */
	d->len += n;
	return n;
}

static void dev_free(struct device *d) /* @address-taken */
{
	log_hook(d->name); /* @icall log_hook */
	free(d); /* @call free */
}

struct device *dev_open(const char *name)
{
	struct device *d = calloc(1, sizeof *d); /* @call calloc */
	if (!d)
		return NULL;
	d->name = name;
	if (strcmp(name, "null") == 0) { /* @call strcmp */
		d->read = null_read;
		d->write = null_write;
	} else {
		d->read = mem_read;
		d->write = mem_write;
	}
	d->close = dev_free;
	(*log_hook)("open"); /* @icall (*log_hook) */
	return d;
}

int main(int argc, char **argv)
{
	char out[32];

	if (argc > 1 && strcmp(argv[1], "quiet") == 0) /* @call strcmp */
		log_hook = log_silent;
	struct device *devs[2] = {dev_open("null"), dev_open("mem")}; /* @inline-call dev_open @inline-call dev_open */
	for (int i = 0; i < 2; i++) {
		struct device *d = devs[i];
		size_t w = d->write(d, "hello, device", 13); /* @icall d->write */
		size_t r = d->read(d, out, sizeof out - 1); /* @icall d->read */
		out[r] = '\0';
		printf("%s: wrote %zu, read %zu \"%s\"\n", d->name, w, r, out); /* @call printf */
		(*d->close)(d); /* @icall (*d->close) */
	}
	return 0;
}
