/* byte_access.c — memory reached through a variable index only to read,
 * write or clear bytes and integers: a checksum over a struct's bytes, a
 * tail cleared with memset at a run-time offset (a pool's realloc
 * zeroing what it added), a histogram of ints in a heap block.
 *
 * Such an address moves no pointer: what it loads and stores is not
 * pointer-sized, and memset takes no pointer from it. So the variable
 * index must not collapse the object it reaches. Collapsed, each
 * object's two callbacks (of one type) would become one location, and
 * every call through either field would reach both functions: the codec's
 * encode would reach its flush, the connection's on_read its on_close, the
 * counter's report its reset. Each call reaches only the function its
 * field was given. The same at -O0 and -O2 (at -O0 the addresses go
 * through loads of the locals' stack slots; the byte and int accesses are
 * the same). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "observe.h"

struct codec {
	void (*encode)(int v);
	void (*flush)(int v);
	unsigned char state[16];
};

struct conn {
	void (*on_read)(int fd);
	void (*on_close)(int fd);
	int fd;
	char scratch[20];
};

struct counter {
	void (*report)(int n);
	void (*reset)(int n);
	int hist[8];
};

static int total;

static void encode_run(int v)
{
	OBSERVE_TARGET();
	total += v;
}

static void flush_run(int v)
{
	OBSERVE_TARGET();
	total -= v;
}

static void read_fd(int fd)
{
	OBSERVE_TARGET();
	total += fd;
}

static void close_fd(int fd)
{
	OBSERVE_TARGET();
	total -= 2 * fd;
}

static void report_n(int n)
{
	OBSERVE_TARGET();
	total += 3 * n;
}

static void reset_n(int n)
{
	OBSERVE_TARGET();
	total -= 3 * n;
}

static struct codec codec = {encode_run, flush_run, {0}};
static struct codec *volatile codec_of = &codec;   /* read at run time: -O2 keeps the calls indirect */

/* The bytes of any object, one at a time. */
__attribute__((noinline)) static unsigned checksum(const void *p, size_t n)
{
	const unsigned char *b = (const unsigned char *)p;
	unsigned sum = 0;
	for (size_t i = 0; i < n; i++)
		sum = sum * 31 + b[i];
	return sum;
}

/* Clears the bytes past `used`, as a growing buffer clears what it added. */
__attribute__((noinline)) static void clear_tail(void *p, size_t used, size_t size)
{
	memset((char *)p + used, 0, size - used);
}

/* Counts into the ints of a block, at an index computed at run time. */
__attribute__((noinline)) static void count(int *hist, int v)
{
	hist[v & 7] += 1;
}

static volatile size_t keep = offsetof(struct conn, fd);

int main(void)
{
	struct codec *cd = codec_of;
	unsigned sum = checksum(cd, sizeof *cd);
	ICALL(cd->encode(1)); /* @r0: encode_run */
	ICALL(cd->flush(1)); /* @r0: flush_run */

	struct conn *c = (struct conn *)malloc(sizeof *c);
	if (!c)
		return 1;
	c->on_read = read_fd;
	c->on_close = close_fd;
	clear_tail(c, keep, sizeof *c);
	ICALL(c->on_read(c->fd + 4)); /* @r0: read_fd */
	ICALL(c->on_close(c->fd + 4)); /* @r0: close_fd */

	struct counter *k = (struct counter *)malloc(sizeof *k);
	if (!k) {
		free(c);
		return 1;
	}
	k->report = report_n;
	k->reset = reset_n;
	memset(k->hist, 0, sizeof k->hist);
	for (int i = 0; i < 5; i++)
		count(k->hist, (int)(sum >> i));
	ICALL(k->report(k->hist[1])); /* @r0: report_n */
	ICALL(k->reset(k->hist[1])); /* @r0: reset_n */
	printf("total %d sum %u\n", total, sum);
	free(k);
	free(c);
	return 0;
}
