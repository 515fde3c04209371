/* offset.c — a positional initializer whose element before the function
 * is an offsetof (a header table: name, where its value goes, handler). */
#include <stddef.h>

struct headers { char *host; char *agent; };
typedef int (*header_handler)(struct headers *h, size_t offset);
typedef struct { const char *name; size_t offset; header_handler handler; } header_t;

static int process_host(struct headers *h, size_t offset) { (void)h; return (int)offset; }
static int process_line(struct headers *h, size_t offset) { (void)h; return (int)offset + 1; }

header_t headers_in[] = {
	{ "Host", offsetof(struct headers, host), process_host },
	{ "User-Agent", offsetof(struct headers, agent), process_line },
};

int process(struct headers *h, header_t *hh)
{
	return hh->handler(h, hh->offset);         /* -> process_host@offset.c:W process_line@offset.c:W */
}
