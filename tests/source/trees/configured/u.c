/* u.c — code under the switches of two generated headers the tree lacks
 * (config.h, include/lib.h): their templates stand in, every switch on,
 * also where the tree holds another platform's config.h (win32/). */
#include "config.h"
#include "lib.h"

void slow(void);
void fast(void);
void trace(const char *m);
void stats(lib_count_t n);

const int answer = 42;   /* `#undef const` stays a no-op: const is still const */

void work(void)
{
#ifdef HAVE_FAST_PATH
	fast();                                    /* -> fast */
#else
	slow();
#endif
#ifdef HAVE_WIN32_THREADS
	win_lock();
#endif
#ifdef WITH_TRACE
	trace("work");                             /* -> trace */
#endif
#if WITH_STATS && LIB_VERSION
	stats((lib_count_t)1);                     /* -> stats */
#endif
}
