/* v.c — calls into u.c: send_chain has one definition whatever the
 * switches (not ambiguous), and the ops table under GEN_HAVE_EPOLL is read
 * by the parse with the switches on. */
#include "sys.h"

int send_chain(int c);

int start(module_t *m, int c)
{
	send_chain(c);                             /* -> send_chain@u.c */
	return m->init(c);                         /* -> select_init@u.c:W epoll_init@u.c:W */
}
