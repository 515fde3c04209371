/* Callbacks configured through a variadic setter (issue 15.4): a transfer
 * library's set_option(handle, OPT_WRITE, cb) hands its va_list to the v*
 * function that does the work, which stores va_arg(ap, write_fn) into a
 * handle field; a tag setter copies its list with va_copy before reading.
 * Every argument passed through a function's `...` reaches each va_arg of
 * that function and of the functions its va_list reaches; the arguments of
 * another variadic function (the logger) do not. */
#include <stdarg.h>
#include <stdio.h>

typedef int (*write_fn)(const char *buf, int len);
typedef void (*progress_fn)(int pct);
typedef int (*fill_fn)(void *dst, int n);

enum option { OPT_WRITE = 1, OPT_PROGRESS, OPT_LEVEL };

struct handle {
	write_fn write;
	progress_fn progress;
	int level;
	fill_fn fill;
};

static int file_write(const char *b, int n) { return (int)fwrite(b, 1, (size_t)n, stdout); }
static int null_write(const char *b, int n) { (void)b; return n; }
static int log_write(const char *b, int n) { return fprintf(stderr, "%.*s", n, b); }
static void bar_progress(int p) { printf("%d%%\n", p); }
static int zero_fill(void *dst, int n) { (void)dst; return n; }

static int vset_option(struct handle *h, enum option o, va_list ap)
{
	switch (o) {
	case OPT_WRITE:
		h->write = va_arg(ap, write_fn);
		break;
	case OPT_PROGRESS:
		h->progress = va_arg(ap, progress_fn);
		break;
	case OPT_LEVEL:
		h->level = va_arg(ap, int);
		break;
	}
	return 0;
}

__attribute__((noinline)) int set_option(struct handle *h, enum option o, ...)
{
	va_list ap;
	va_start(ap, o);
	int r = vset_option(h, o, ap);
	va_end(ap);
	return r;
}

__attribute__((noinline)) void set_fill(struct handle *h, int tag, ...)
{
	va_list ap, copy;
	va_start(ap, tag);
	va_copy(copy, ap);
	if (tag == 1)
		h->fill = va_arg(copy, fill_fn);
	va_end(copy);
	va_end(ap);
}

/* Another variadic function: what it is passed stays its own. */
__attribute__((noinline)) void log_msg(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	write_fn w = va_arg(ap, write_fn);
	w(fmt, 1); /* SITE logged */
	va_end(ap);
}

__attribute__((noinline)) void perform(struct handle *h, char *buf)
{
	h->write("x", 1); /* SITE write */
	h->progress(100); /* SITE progress */
	h->fill(buf, 4); /* SITE fill */
}

int main(int argc, char **argv)
{
	struct handle h = {0};
	char buf[4];
	set_option(&h, OPT_WRITE, argc > 1 ? file_write : null_write);
	set_option(&h, OPT_PROGRESS, bar_progress);
	set_option(&h, OPT_LEVEL, 3);
	set_fill(&h, 1, zero_fill);
	log_msg(argv[0], log_write);
	perform(&h, buf);
	return 0;
}

/* The write field holds the two writers passed to set_option (bar_progress,
 * passed through the same `...`, is signature-rejected there); log_write,
 * passed only to log_msg, reaches no handle field.
 // EXPECT write field: handle.write
 // EXPECT write r0: file_write null_write
 // EXPECT write rpm: file_write null_write
 // EXPECT write decision file_write: add supported Add-Store pi_bind
 // EXPECT progress field: handle.progress
 // EXPECT progress r0: bar_progress
 // EXPECT progress rpm: bar_progress
 // EXPECT fill field: handle.fill
 // EXPECT fill r0: zero_fill
 // EXPECT fill rpm: zero_fill
 // EXPECT logged r0: log_write
 // EXPECT logged rpm: log_write
 */
