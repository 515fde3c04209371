/* container_of.c — a work queue in the style of an OS kernel: a struct
 * work (next, func) is embedded in larger request structs; the queue
 * runs work->func(work), and each func recovers its enclosing request by
 * subtracting the member's offset (CONTAINER_OF) and calls the request's
 * own callback.
 *
 * Covers: the container_of pattern: pointers into the middle of an object
 * (struct download embeds its work at offset 16), moved back by a
 * constant negative offset.  The queue site gets both step functions;
 * each step's site gets the callbacks of its own request type.  (A step
 * applied to the other request type would read another field, but that
 * field's value has another IR type, so R0 stays exact however the
 * analysis treats offsets that leave an object.) */
#include <stddef.h>
#include <stdio.h>
#include "observe.h"

#define CONTAINER_OF(ptr, type, member) ((type *)((char *)(ptr) - offsetof(type, member)))

struct work {
	struct work *next;
	void (*func)(struct work *w);
};

struct download {
	int id;
	const char *url;
	struct work work;
	void (*done)(struct download *d, int status);
};

struct cleanup {
	struct work work;
	int fd;
	void (*close_fd)(int fd);
};

static struct work *queue_head, **queue_tail = &queue_head;

static void queue_work(struct work *w)
{
	w->next = NULL;
	*queue_tail = w;
	queue_tail = &w->next;
}

static void run_queue(void)
{
	for (struct work *w = queue_head; w; w = w->next)
		ICALL(w->func(w)); /* @r0: cleanup_step download_step */
}

static void done_print(struct download *d, int status)
{
	OBSERVE_TARGET();
	printf("%d %s: %d\n", d->id, d->url, status);
}

static int retries;

static void done_retry(struct download *d, int status)
{
	OBSERVE_TARGET();
	retries += status != 200 || d->id == 2;
}

static void close_quietly(int fd)
{
	OBSERVE_TARGET();
	(void)fd;
}

static void download_step(struct work *w)
{
	OBSERVE_TARGET();
	struct download *d = CONTAINER_OF(w, struct download, work);
	ICALL(d->done(d, 200)); /* @r0: done_print done_retry */
}

static void cleanup_step(struct work *w)
{
	OBSERVE_TARGET();
	struct cleanup *c = CONTAINER_OF(w, struct cleanup, work);
	ICALL(c->close_fd(c->fd)); /* @r0: close_quietly */
}

int main(void)
{
	struct download d1 = {1, "http://a/", {NULL, download_step}, done_print};
	struct download d2 = {2, "http://b/", {NULL, download_step}, done_retry};
	struct cleanup c1 = {{NULL, cleanup_step}, 9, close_quietly};

	queue_work(&d1.work);
	queue_work(&c1.work);
	queue_work(&d2.work);
	run_queue();
	printf("%d retries\n", retries);
	return 0;
}
