/* Callbacks configured through variadic setters (issue 15.4).
 *
 *   - A transfer library's set_option(handle, OPT_WRITE, cb) hands its
 *     va_list to the v* function that does the work, which stores
 *     va_arg(ap, write_fn) into a handle field.
 *   - A tool's wrapper takes its own `...` and passes what it read on
 *     (wrap_option(h, o, ...) → set_option(h, o, pval), pval read as a
 *     void *).
 *   - An image library's tag setter copies its list with va_copy and hands
 *     it through a method pointer (h->vsetfield(h, tag, ap)) to a codec's
 *     function, which stores va_arg(ap, fill_fn) into the codec state.
 *   - Another variadic function (the logger) stores what it is passed
 *     into a field of its own: its arguments stay its own.
 * Every function passed through a function's `...` reaches each va_arg of
 * that function and of the functions its va_list reaches; the field's
 * signature keeps those that fit (bar_progress is passed through the same
 * `...` as the writers). The points-to analysis does not carry arguments
 * through `...` (pta_options.varargs is off), so R0 is empty at every one
 * of these sites and the functions come in by Add-Store. */
#include <stdarg.h>
#include <stdio.h>

typedef int (*write_fn)(const char *buf, int len);
typedef void (*progress_fn)(int pct);
typedef int (*fill_fn)(void *dst, int n);

enum option { OPT_WRITE = 1, OPT_PROGRESS, OPT_LEVEL };

struct handle;
struct methods {
	int (*vsetfield)(struct handle *h, int tag, va_list ap);
};

struct codec_state {
	fill_fn fill;
	int mode;
};

struct handle {
	write_fn write;
	progress_fn progress;
	int level;
	struct methods methods;
	struct codec_state *codec;
};

struct logger {
	write_fn sink;
};

static struct logger the_log;

static int file_write(const char *b, int n) { return (int)fwrite(b, 1, (size_t)n, stdout); }
static int null_write(const char *b, int n) { (void)b; return n; }
static int log_write(const char *b, int n) { return fprintf(stderr, "%.*s", n, b); }
static void bar_progress(int p) { printf("%d%%\n", p); }
static void dot_progress(int p) { printf("%d.\n", p); }
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

/* The tool's wrapper: what it is passed goes on as a void *. */
__attribute__((noinline)) int wrap_option(struct handle *h, enum option o, ...)
{
	va_list ap;
	va_start(ap, o);
	void *pval = va_arg(ap, void *);
	int r = set_option(h, o, pval);
	va_end(ap);
	return r;
}

static int codec_vsetfield(struct handle *h, int tag, va_list ap)
{
	if (tag == 1)
		h->codec->fill = va_arg(ap, fill_fn);
	else
		h->codec->mode = va_arg(ap, int);
	return 1;
}

__attribute__((noinline)) int set_tag(struct handle *h, int tag, ...)
{
	va_list ap, copy;
	va_start(ap, tag);
	va_copy(copy, ap);
	int r = h->methods.vsetfield(h, tag, copy); /* SITE vsetfield */
	va_end(copy);
	va_end(ap);
	return r;
}

/* Another variadic function: what it is passed stays its own. */
__attribute__((noinline)) void log_to(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	the_log.sink = va_arg(ap, write_fn);
	va_end(ap);
}

__attribute__((noinline)) void perform(struct handle *h, char *buf)
{
	h->write("x", 1); /* SITE write */
	h->progress(100); /* SITE progress */
	h->codec->fill(buf, 4); /* SITE fill */
	the_log.sink("y", 1); /* SITE logged */
}

int main(int argc, char **argv)
{
	static struct codec_state codec;
	struct handle h = {.methods = {codec_vsetfield}, .codec = &codec};
	char buf[4];
	set_option(&h, OPT_WRITE, argc > 1 ? file_write : null_write);
	set_option(&h, OPT_PROGRESS, bar_progress);
	set_option(&h, OPT_LEVEL, 3);
	wrap_option(&h, OPT_PROGRESS, (void *)dot_progress);
	set_tag(&h, 1, zero_fill);
	set_tag(&h, 2, 7);
	log_to(argv[0], log_write);
	perform(&h, buf);
	return 0;
}

/* The write field holds the two writers passed to set_option (bar_progress
 * and dot_progress reach the same va_arg reads but do not fit it);
 * log_write, passed only to log_to, reaches no handle field and is the
 * logger's only sink.
 // EXPECT write field: handle.write
 // EXPECT write r0: -
 // EXPECT write rpm: file_write null_write
 // EXPECT write decision file_write: add supported Add-Store pi_bind
 // EXPECT write evidence file_write: store
 // EXPECT progress field: handle.progress
 // EXPECT progress r0: -
 // EXPECT progress rpm: bar_progress dot_progress
 // EXPECT progress decision dot_progress: add supported Add-Store pi_bind
 // EXPECT fill field: codec_state.fill
 // EXPECT fill r0: -
 // EXPECT fill rpm: zero_fill
 // EXPECT logged field: logger.sink
 // EXPECT logged r0: -
 // EXPECT logged rpm: log_write
 // EXPECT vsetfield r0: codec_vsetfield
 // EXPECT vsetfield rpm: codec_vsetfield
 */
