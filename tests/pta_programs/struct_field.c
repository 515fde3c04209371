/* struct_field.c — streams with an operations table: pump() copies one
 * stream into another through ops->read and ops->write, then every stream
 * is closed through ops->close.  read and write have the same IR type
 * (i64 (ptr, ptr, i64)), so only field sensitivity keeps them apart.
 *
 * Covers: a function pointer in a struct field (of a constant table reached
 * through a pointer field); two fields of one type stay separate; tables
 * never reaching a site stay out of it (null_read, mem_write).
 *
 * pump() is called as pump(&in, &out) and pump(&out, &sink), so its src is
 * {in, out} (tables mem_ops, upper_ops) and its dst {out, sink} (tables
 * upper_ops, null_ops). */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include "observe.h"

struct stream;

struct stream_ops {
	long (*read)(struct stream *s, char *buf, long n);
	long (*write)(struct stream *s, const char *buf, long n);
	void (*close)(struct stream *s);
};

struct stream {
	const struct stream_ops *ops;
	char *data;
	long len, pos, cap;
};

static long mem_read(struct stream *s, char *buf, long n)
{
	OBSERVE_TARGET();
	if (n > s->len - s->pos)
		n = s->len - s->pos;
	memcpy(buf, s->data + s->pos, (size_t)n);
	s->pos += n;
	return n;
}

static long mem_write(struct stream *s, const char *buf, long n)
{
	OBSERVE_TARGET();
	if (n > s->cap - s->len)
		n = s->cap - s->len;
	memcpy(s->data + s->len, buf, (size_t)n);
	s->len += n;
	return n;
}

static long upper_write(struct stream *s, const char *buf, long n)
{
	OBSERVE_TARGET();
	long i;
	for (i = 0; i < n && s->len < s->cap; i++)
		s->data[s->len++] = (char)toupper((unsigned char)buf[i]);
	return i;
}

static void mem_close(struct stream *s)
{
	OBSERVE_TARGET();
	s->pos = s->len;
}

static long null_read(struct stream *s, char *buf, long n)
{
	OBSERVE_TARGET();
	(void)s, (void)buf, (void)n;
	return 0;
}

static long null_write(struct stream *s, const char *buf, long n)
{
	OBSERVE_TARGET();
	(void)buf;
	s->len += n;
	return n;
}

static void null_close(struct stream *s)
{
	OBSERVE_TARGET();
	s->len = 0;
}

static const struct stream_ops mem_ops = {mem_read, mem_write, mem_close};
static const struct stream_ops upper_ops = {mem_read, upper_write, mem_close};
static const struct stream_ops null_ops = {null_read, null_write, null_close};

static long pump(struct stream *src, struct stream *dst)
{
	char buf[8];
	long n, total = 0;

	while ((n = ICALL(src->ops->read(src, buf, sizeof buf))) > 0) { /* @r0: mem_read */
		ICALL(dst->ops->write(dst, buf, n)); /* @r0: null_write upper_write */
		total += n;
	}
	return total;
}

char message[] = "field sensitivity keeps read and write apart";

int main(void)
{
	char out_buf[64];
	struct stream in = {.ops = &mem_ops, .data = message, .len = (long)strlen(message)};
	struct stream out = {.ops = &upper_ops, .data = out_buf, .cap = sizeof out_buf - 1};
	struct stream sink = {.ops = &null_ops};
	struct stream *all[] = {&in, &out, &sink};
	long copied = pump(&in, &out);

	out_buf[out.len] = '\0';
	copied += pump(&out, &sink);
	printf("%s (%ld bytes, %ld discarded)\n", out_buf, copied, sink.len);
	for (int i = 0; i < 3; i++)
		ICALL(all[i]->ops->close(all[i])); /* @r0: mem_close null_close */
	return 0;
}
