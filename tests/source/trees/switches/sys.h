/* sys.h — a platform header as a configure step selects it: the switches
 * (GEN_LINUX, GEN_FREEBSD, GEN_HAVE_*) are written by a generated header
 * the tree lacks, with no template. */
#ifndef SYS_H
#define SYS_H

#if (GEN_FREEBSD)
#include <sys/event.h>
#define GEN_HAVE_KQUEUE_HOOK 1
#elif (GEN_LINUX)
#define GEN_HAVE_HOOK 1
#endif

#if (GEN_ALIASES)
#define plain_helper plain_helper__alias
#define plain_user plain_user__alias
#endif
int plain_helper(int x);

typedef struct module_s {
	int (*init)(int);
} module_t;

extern module_t *modules[];

#endif
