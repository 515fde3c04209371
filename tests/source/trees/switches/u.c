/* u.c — code under configuration switches no file of the tree defines
 * (a generated header without a template, a build's -D): the unit is
 * parsed a second time with them on and the edges are united. Lines
 * marked "switched" are found only by that parse (--no-assumed-switches
 * leaves them out); another platform's switches, reserved names,
 * lower-case predefines, names the system's headers define, debugging
 * switches and names the tree defines are no switches. */
#include <errno.h>

#include "sys.h"

int epoll_add(int fd);
int select_add(int fd);
int linux_init(void);
int kqueue_init(void);
int win_init(void);
int hook(void);
int no_hook(void);
int writev_chain(int c);
int write_chain(int c);
int self_call(void);
int reserved_call(void);
int lower_call(void);
int debug_log(const char *m);
int trace_log(const char *m);
int would_block(void);

int add_event(int fd)
{
#if (GEN_HAVE_EPOLL)
	return epoll_add(fd);                      /* -> epoll_add */ /* switched */
#else
	return select_add(fd);                     /* -> select_add */
#endif
}

int os_init(void)
{
#if (GEN_FREEBSD)
	return kqueue_init();
#elif (GEN_LINUX)
	return linux_init();                       /* -> linux_init */ /* switched */
#elif defined(GEN_WIN32) || defined(GEN_MSDOS)
	return win_init();
#else
	return 0;
#endif
}

int use_hook(void)
{
#ifdef GEN_HAVE_HOOK                            /* sys.h defines it under GEN_LINUX */
	return hook();                             /* -> hook */ /* switched */
#else
	return no_hook();                          /* -> no_hook */
#endif
}

/* Two bodies of one function: one function, the union of their calls. */
#if (GEN_HAVE_WRITEV)
int send_chain(int c)
{
	return writev_chain(c);                    /* -> writev_chain */ /* switched */
}
#else
int send_chain(int c)
{
	return write_chain(c);                     /* -> write_chain */
}
#endif

#if (GEN_HAVE_EPOLL)
static int epoll_init(int x) { return x; }
module_t epoll_module = { epoll_init };
#endif
static int select_init(int x) { return x + 1; }
module_t select_module = { select_init };

int others(void)
{
	int n = 0;
#ifdef GEN_SELF
	n += self_call();
#endif
#ifdef __GEN_RESERVED__
	n += reserved_call();
#endif
#ifdef _GEN_PRIVATE
	n += reserved_call();
#endif
#ifdef gen_lower
	n += lower_call();
#endif
#ifdef GEN_VERSION                              /* a function-like macro elsewhere: no switch */
#if GEN_VERSION(2, 0)
	n += lower_call();
#endif
#endif
#ifdef EWOULDBLOCK                              /* the system's: no switch (the first parse has it) */
	n += would_block();                        /* -> would_block */
#endif
	/* a comment naming GEN_IN_COMMENT is no test: #if GEN_IN_COMMENT */
#if defined(GEN_TRACE) /* GEN_NOT_A_TEST */ && \
    GEN_TRACE_LEVEL > 0
	n += trace_log("others");                  /* -> trace_log */ /* switched */
#endif
#ifdef GEN_DEBUG_PUSH                           /* a debugging switch: no configuration ships it on */
	n += debug_log("others");
#endif
	return n;
}

/* A macro that renames every function under a switch (sys.h, as
 * libxml2's elfgcchack.h under PIC): the renamed definition is the same
 * function, and a call of it under the new name is the call the first
 * parse has. */
int plain_helper(int x) { return x; }
int plain_user(int x)
{
	return plain_helper(x);                    /* -> plain_helper@u.c */
}
