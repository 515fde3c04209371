/* u.c — code under the switches of two generated headers the tree lacks
 * (config.h, include/lib.h): their templates stand in, every switch on,
 * also where the tree holds another platform's config.h (win32/); sizes
 * and headers as configure would find them on this host. */
#include "config.h"
#include "lib.h"

void slow(void);
void fast(void);
void trace(const char *m);
void stats(lib_count_t n);
void wide(void);
void narrow(void);
void with_stdio(void);
void gone(void);
void sized(void);

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
#if SIZEOF_LONG_LONG == 8                       /* this host's size, not 1 */
	wide();                                    /* -> wide */
#else
	narrow();
#endif
#ifdef HAVE_STDIO_H                             /* this host has <stdio.h> */
	with_stdio();                              /* -> with_stdio */
#endif
#ifdef HAVE_FACET_NO_SUCH_HEADER_HERE_H         /* and no such header: off, as configure leaves it */
	gone();
#endif
#if SIZEOF_SIZE_T > 1                           /* a CMake template's measured size */
	sized();                                   /* -> sized */
#endif
}
