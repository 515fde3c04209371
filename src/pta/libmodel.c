/* libmodel.c — the table of library functions; see libmodel.h.
 *
 * Rows are sorted by name (strcmp order; a unit test checks it) so lookup is
 * a binary search; the few prefix rows (intrinsic families) are searched
 * after. Functions whose only effect is on non-pointer data (strlen, printf,
 * free) are a list of names (no_effect) that finds the one model with no
 * effects, so that they do not count as unmodelled. */
#include "pta/libmodel.h"

#include <stdlib.h>
#include <string.h>

#define ALLOC_RET        {.kind = LIB_ALLOC, .a = LIB_RET}
#define ALLOC_OUT(n)     {.kind = LIB_ALLOC, .a = (n)}
#define STATIC_RET       {.kind = LIB_STATIC, .a = LIB_RET}
#define ALIAS(n)         {.kind = LIB_ALIAS, .a = LIB_RET, .b = (n)}
#define ALIAS_IN(n)      {.kind = LIB_ALIAS, .a = LIB_RET, .b = (n), .anywhere = true}
#define COPY(d, s)       {.kind = LIB_COPY_MEM, .a = (d), .b = (s)}
#define STORE_IN(d, s)   {.kind = LIB_STORE, .a = (d), .b = (s), .anywhere = true}
#define CALL0(f)         {.kind = LIB_CALLBACK, .a = (f), .cb_args = {LIB_NOARG, LIB_NOARG, LIB_NOARG, LIB_NOARG}}
#define CALL1(f, x)      {.kind = LIB_CALLBACK, .a = (f), .cb_args = {(x), LIB_NOARG, LIB_NOARG, LIB_NOARG}}
#define CALL_IN2(f, x, y) {.kind = LIB_CALLBACK, .a = (f), .cb_args = {(x), (y), LIB_NOARG, LIB_NOARG}, \
                           .cb_anywhere = {true, true}}
#define KEEP(n)          {.kind = LIB_KEEP, .a = LIB_RET, .b = (n)}
#define KEEP_FIELD(d, s) {.kind = LIB_KEEP_FIELD, .a = (d), .b = (s)}
#define OPEN(n)          {.kind = LIB_OPEN, .a = (n)}
#define SYMBOL(h, n)     {.kind = LIB_SYMBOL, .a = (h), .b = (n)}

static const lib_model exact[] = {
	/* C++: operator new (one heap object per new-expression, as malloc); delete is in no_effect */
	{"_Znam", 1, {ALLOC_RET}},
	{"_ZnamRKSt9nothrow_t", 1, {ALLOC_RET}},
	{"_ZnamSt11align_val_t", 1, {ALLOC_RET}},
	{"_Znwm", 1, {ALLOC_RET}},
	{"_ZnwmRKSt9nothrow_t", 1, {ALLOC_RET}},
	{"_ZnwmSt11align_val_t", 1, {ALLOC_RET}},
	{"__ctype_b_loc", 1, {STATIC_RET}},
	{"__ctype_tolower_loc", 1, {STATIC_RET}},
	{"__ctype_toupper_loc", 1, {STATIC_RET}},
	{"__cxa_allocate_exception", 1, {ALLOC_RET}},
	{"__errno_location", 1, {STATIC_RET}},
	{"__memcpy_chk", 2, {ALIAS(0), COPY(0, 1)}},
	{"__memmove_chk", 2, {ALIAS(0), COPY(0, 1)}},
	{"__memset_chk", 1, {ALIAS(0)}},
	{"__strcpy_chk", 1, {ALIAS(0)}},
	{"__strdup", 1, {ALLOC_RET}},
	{"aligned_alloc", 1, {ALLOC_RET}},
	{"asctime", 1, {STATIC_RET}},
	{"atexit", 1, {CALL0(0)}},
	{"bsd_signal", 2, {CALL1(1, LIB_NOARG), KEEP(1)}},
	{"bsearch", 2, {ALIAS_IN(1), CALL_IN2(4, 0, 1)}},
	{"calloc", 1, {ALLOC_RET}},
	{"ctime", 1, {STATIC_RET}},
	{"ctime_r", 1, {STATIC_RET}},
	{"dlerror", 1, {STATIC_RET}},
	{"dlmopen", 1, {OPEN(1)}},
	{"dlopen", 1, {OPEN(0)}},
	{"dlsym", 1, {SYMBOL(0, 1)}},
	{"dlvsym", 1, {SYMBOL(0, 1)}},
	{"fdopen", 1, {ALLOC_RET}},
	{"fdopendir", 1, {ALLOC_RET}},
	{"fgets", 1, {ALIAS(0)}},
	{"fopen", 1, {ALLOC_RET}},
	{"fopen64", 1, {ALLOC_RET}},
	{"freopen", 1, {ALIAS(2)}},
	{"freopen64", 1, {ALIAS(2)}},
	{"getaddrinfo", 1, {ALLOC_OUT(3)}},
	{"getcwd", 1, {ALIAS(0)}},
	{"getdelim", 1, {ALLOC_OUT(0)}},
	{"getenv", 1, {STATIC_RET}},
	{"getgrent", 1, {STATIC_RET}},
	{"getgrgid", 1, {STATIC_RET}},
	{"getgrnam", 1, {STATIC_RET}},
	{"gethostbyname", 1, {STATIC_RET}},
	{"getline", 1, {ALLOC_OUT(0)}},
	{"getlogin", 1, {STATIC_RET}},
	{"getpwent", 1, {STATIC_RET}},
	{"getpwnam", 1, {STATIC_RET}},
	{"getpwuid", 1, {STATIC_RET}},
	{"gmtime", 1, {STATIC_RET}},
	{"gmtime_r", 1, {ALIAS(1)}},
	{"inet_ntoa", 1, {STATIC_RET}},
	{"localeconv", 1, {STATIC_RET}},
	{"localtime", 1, {STATIC_RET}},
	{"localtime_r", 1, {ALIAS(1)}},
	{"malloc", 1, {ALLOC_RET}},
	{"memalign", 1, {ALLOC_RET}},
	{"memchr", 1, {ALIAS_IN(0)}},
	{"memcpy", 2, {ALIAS(0), COPY(0, 1)}},
	{"memmove", 2, {ALIAS(0), COPY(0, 1)}},
	{"memrchr", 1, {ALIAS_IN(0)}},
	{"memset", 1, {ALIAS(0)}},
	{"mmap", 1, {ALLOC_RET}},
	{"mmap64", 1, {ALLOC_RET}},
	{"mremap", 2, {ALLOC_RET, COPY(LIB_RET, 0)}},
	{"nl_langinfo", 1, {STATIC_RET}},
	{"on_exit", 1, {CALL1(0, LIB_NOARG)}},
	{"opendir", 1, {ALLOC_RET}},
	{"popen", 1, {ALLOC_RET}},
	{"posix_memalign", 1, {ALLOC_OUT(0)}},
	{"pthread_create", 1, {CALL1(2, 3)}},
	{"pthread_getspecific", 1, {STATIC_RET}},
	{"pthread_once", 1, {CALL0(1)}},
	{"qsort", 1, {CALL_IN2(3, 0, 0)}},
	{"readdir", 1, {STATIC_RET}},
	{"readdir64", 1, {STATIC_RET}},
	{"realloc", 2, {ALLOC_RET, COPY(LIB_RET, 0)}},
	{"reallocarray", 2, {ALLOC_RET, COPY(LIB_RET, 0)}},
	{"realpath", 2, {ALIAS(1), ALLOC_RET}},
	{"setlocale", 1, {STATIC_RET}},
	{"sigaction", 1, {KEEP_FIELD(2, 1)}},
	{"signal", 2, {CALL1(1, LIB_NOARG), KEEP(1)}},
	{"stpcpy", 1, {ALIAS_IN(0)}},
	{"strcasestr", 1, {ALIAS_IN(0)}},
	{"strcat", 1, {ALIAS(0)}},
	{"strchr", 1, {ALIAS_IN(0)}},
	{"strchrnul", 1, {ALIAS_IN(0)}},
	{"strcpy", 1, {ALIAS(0)}},
	{"strdup", 1, {ALLOC_RET}},
	{"strerror", 1, {STATIC_RET}},
	{"strerrordesc_np", 1, {STATIC_RET}},
	{"strncat", 1, {ALIAS(0)}},
	{"strncpy", 1, {ALIAS(0)}},
	{"strndup", 1, {ALLOC_RET}},
	{"strpbrk", 1, {ALIAS_IN(0)}},
	{"strrchr", 1, {ALIAS_IN(0)}},
	{"strsep", 2, {STATIC_RET, ALIAS_IN(0)}},
	{"strstr", 1, {ALIAS_IN(0)}},
	{"strtod", 1, {STORE_IN(1, 0)}},
	{"strtok", 2, {ALIAS_IN(0), STATIC_RET}},
	{"strtok_r", 2, {ALIAS_IN(0), STORE_IN(2, 0)}},
	{"strtol", 1, {STORE_IN(1, 0)}},
	{"strtoll", 1, {STORE_IN(1, 0)}},
	{"strtoul", 1, {STORE_IN(1, 0)}},
	{"strtoull", 1, {STORE_IN(1, 0)}},
	{"sysv_signal", 2, {CALL1(1, LIB_NOARG), KEEP(1)}},
	{"tmpfile", 1, {ALLOC_RET}},
	{"tmpfile64", 1, {ALLOC_RET}},
	{"ttyname", 1, {STATIC_RET}},
	{"valloc", 1, {ALLOC_RET}},
};

/* Known functions that move no pointer (strlen, printf, free): a model with
 * no effects, so that they do not count as unmodelled. Sorted (strcmp
 * order; a unit test checks it and that no name is also a row above). */
static const char *const no_effect[] = {
	"_ZdaPv", "_ZdaPvm", "_ZdlPv", "_ZdlPvm", "__assert_fail", "__cxa_end_catch", "__cxa_free_exception",
	"__cxa_guard_abort", "__cxa_guard_acquire", "__cxa_guard_release", "__cxa_pure_virtual", "__cxa_rethrow",
	"__cxa_throw", "__isoc99_sscanf", "__sigsetjmp", "__stack_chk_fail", "__uflow", "_longjmp", "_setjmp",
	"abort", "accept", "accept4", "access", "alarm", "asprintf", "atof", "atoi", "atol", "atoll", "bcmp", "bind",
	"chdir", "chmod", "chown", "chroot", "clearerr", "clock_gettime", "close", "closedir", "dlclose", "dup",
	"dup2", "epoll_ctl", "epoll_wait", "execve", "exit", "fclose", "fcntl", "fdatasync", "feof", "ferror",
	"fflush", "fgetc", "fgetpos", "fileno", "flockfile", "fork", "fprintf", "fputc", "fputs", "fputws", "fread",
	"free", "freeaddrinfo", "frexp", "fscanf", "fseek", "fseeko64", "fsetpos", "fstat", "fstat64", "fstatat64",
	"fsync", "ftell", "ftello64", "ftruncate", "ftruncate64", "funlockfile", "fwrite", "getc", "getchar",
	"getegid", "geteuid", "getgid", "gethostname", "getpeername", "getpid", "getrlimit64", "getrusage",
	"getsockname", "getsockopt", "gettimeofday", "getuid", "globfree", "globfree64", "htonl", "htons",
	"inet_pton", "initgroups", "isatty", "iswalpha", "iswspace", "kill", "link", "listen", "longjmp", "lseek",
	"lstat", "lstat64", "malloc_usable_size", "mblen", "mbrtowc", "mbstowcs", "memcmp", "mkdir", "mkstemp",
	"mkstemp64", "mktime", "munmap", "nanosleep", "ntohl", "ntohs", "open", "open64", "openat", "openat64",
	"pclose", "perror", "pipe", "poll", "pread", "pread64", "printf", "pthread_attr_destroy", "pthread_attr_init",
	"pthread_attr_setstacksize", "pthread_cond_broadcast", "pthread_cond_destroy", "pthread_cond_init",
	"pthread_cond_signal", "pthread_cond_wait", "pthread_detach", "pthread_join", "pthread_key_create",
	"pthread_key_delete", "pthread_mutex_destroy", "pthread_mutex_init", "pthread_mutex_lock",
	"pthread_mutex_trylock", "pthread_mutex_unlock", "pthread_mutexattr_destroy", "pthread_mutexattr_init",
	"pthread_mutexattr_settype", "pthread_self", "pthread_setspecific", "pthread_sigmask", "putc", "putchar",
	"putenv", "puts", "pwrite", "pwrite64", "pwritev64", "raise", "read", "readlink", "readv", "recv", "recvmsg",
	"remove", "rename", "rewind", "rewinddir", "rmdir", "scanf", "sched_setaffinity", "seekdir", "select",
	"sem_destroy", "sem_init", "sem_post", "sem_wait", "send", "sendfile", "sendfile64", "sendmsg", "sendto",
	"setenv", "setgid", "setitimer", "setjmp", "setrlimit64", "setsockopt", "setuid", "setvbuf", "shutdown",
	"sigaddset", "sigdelset", "sigemptyset", "sigfillset", "siglongjmp", "sigprocmask", "sigsuspend", "sleep",
	"snprintf", "socket", "socketpair", "sprintf", "sscanf", "stat", "stat64", "statfs64", "strcasecmp", "strcmp",
	"strcoll", "strcspn", "strftime", "strlen", "strncasecmp", "strncmp", "strnlen", "strspn", "strverscmp",
	"symlink", "system", "telldir", "time", "tolower", "toupper", "towlower", "towupper", "truncate", "umask",
	"uname", "ungetc", "unlink", "unsetenv", "usleep", "utime", "utimes", "vasprintf", "vfprintf", "vprintf",
	"vsnprintf", "vsprintf", "wait", "waitpid", "wcrtomb", "wcslen", "wcstombs", "write", "writev",
};

/* Intrinsic families: llvm.memcpy.p0.p0.i64 and friends. Every other
 * intrinsic (lifetime, dbg, assume, arithmetic) moves no pointer; the
 * `llvm.*` row last makes them known. */
static const lib_model prefixed[] = {
	{"llvm.memcpy.*", 1, {COPY(0, 1)}},
	{"llvm.memcpy.inline.*", 1, {COPY(0, 1)}},
	{"llvm.memmove.*", 1, {COPY(0, 1)}},
	{"llvm.ptrmask.*", 1, {ALIAS(0)}},
	{"llvm.threadlocal.address.*", 1, {ALIAS(0)}},
	{"llvm.launder.invariant.group.*", 1, {ALIAS(0)}},
	{"llvm.strip.invariant.group.*", 1, {ALIAS(0)}},
	{"llvm.*", 0, {{0}}},
};

static int by_name(const void *key, const void *row)
{
	return strcmp(key, ((const lib_model *)row)->name);
}

static int by_string(const void *key, const void *row)
{
	return strcmp(key, *(const char *const *)row);
}

const lib_model *lib_model_find(const char *name)
{
	static const lib_model none = {"(no pointer effects)", 0, {{0}}};
	const lib_model *m = bsearch(name, exact, sizeof exact / sizeof *exact, sizeof *exact, by_name);
	if (m)
		return m;
	if (bsearch(name, no_effect, sizeof no_effect / sizeof *no_effect, sizeof *no_effect, by_string))
		return &none;
	for (size_t i = 0; i < sizeof prefixed / sizeof *prefixed; i++) {
		size_t len = strlen(prefixed[i].name) - 1;   /* without the '*' */
		if (strncmp(name, prefixed[i].name, len) == 0)
			return &prefixed[i];
	}
	return NULL;
}

unsigned lib_model_count(void)
{
	return (unsigned)(sizeof exact / sizeof *exact + sizeof no_effect / sizeof *no_effect +
	                  sizeof prefixed / sizeof *prefixed);
}

const char *const *lib_model_no_effect_names(unsigned *n)
{
	*n = (unsigned)(sizeof no_effect / sizeof *no_effect);
	return no_effect;
}

/* For the unit test: the exact rows must be sorted for the binary search. */
const lib_model *lib_model_exact_rows(unsigned *n)
{
	*n = (unsigned)(sizeof exact / sizeof *exact);
	return exact;
}
