/* v.c — calls into u.c: send_chain has one definition whatever the
 * switches (not ambiguous), and the ops table under GEN_HAVE_EPOLL is read
 * by the parse with the switches on. A call the first parse has is read
 * under its types: with GEN_HAVE_FAST on, `o->run` would read fast_ops.run,
 * which nothing writes (an open site); the first parse's site stays the
 * only one there. */
#include "sys.h"

int send_chain(int c);

int start(module_t *m, int c)
{
	send_chain(c);                             /* -> send_chain@u.c */
	plain_helper(c);                           /* -> plain_helper@u.c */
	return m->init(c);                         /* -> select_init@u.c:W epoll_init@u.c:W */
}

struct slow_ops { int (*run)(int); };
struct fast_ops { int (*run)(int); };
#if (GEN_HAVE_FAST)
typedef struct fast_ops ops_t;
#else
typedef struct slow_ops ops_t;
#endif

static int slow_run(int x) { return x; }
static struct slow_ops slow = { slow_run };

int go(int x)
{
	ops_t *o = (ops_t *) &slow;
	return o->run(x);                          /* -> slow_run@v.c:W */
}
