/* facet_rt.c — the trace runtime, compiled into every program that
 * `facet trace build` instruments (it is not part of the facet binary).
 *
 * The instrumented module calls __facet_trace_hit(site, callee) before each
 * indirect call (__facet_trace_hit_tramp before a call of a patchable
 * trampoline, the kernel's static_call) and __facet_trace_flush() before
 * exec* and _exit. The runtime
 * maps the callee address to a function id through the table the
 * instrumentation emitted (exact addresses, no symbolisation), counts each
 * (site, function) pair, and at exit appends the pairs it counted to the file
 * named by $FACET_TRACE_OUT in the observed-edges format of docs/formats.md,
 * so many runs accumulate in one file. Nothing is written when the variable
 * is unset. It is read when the process starts: daemons clean their
 * environment (dovecot keeps a short list; nginx workers keep only what
 * `env` names), and the record is written long after.
 *
 * Concurrency: counting is lock-free (an open-addressing table of atomics),
 * so threads and signal handlers may hit at any time. fork() flushes in the
 * parent first and the child starts from zero, so what came before the fork
 * is written once, even when one side later leaves without running exit
 * handlers (daemon() ends its parent with _exit inside libc); exec and _exit
 * called by the program flush first. Each flush is one append under flock, so runs and
 * processes writing the same file do not interleave lines.
 *
 * Only libc and pthreads; no function pointer of the program passes through
 * here, and nothing here is instrumented. */
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <unistd.h>

/* Emitted by the instrumentation (src/ir/instrument.c). */
extern void *const __facet_trace_fns[] __attribute__((visibility("hidden")));
extern const char *const __facet_trace_names[] __attribute__((visibility("hidden")));
extern const uint32_t __facet_trace_nfns __attribute__((visibility("hidden")));
extern const uint32_t __facet_trace_nsites __attribute__((visibility("hidden")));
extern const uint64_t __facet_trace_key __attribute__((visibility("hidden")));

void __facet_trace_hit(uint32_t site, void *callee);
void __facet_trace_hit_tramp(uint32_t site, const void *tramp);
void __facet_trace_flush(void);

#define RT_UNKNOWN 0xffffffffu          /* function id of a callee not in the table */
#define RT_CAP (1u << 20)               /* distinct (site, function) pairs */

typedef struct rt_slot {
	_Atomic uint64_t key;               /* (site << 32 | function) + 1; 0 = free */
	_Atomic uint64_t count;
} rt_slot;

typedef struct rt_addr {
	uintptr_t addr;
	uint32_t id;
} rt_addr;

static rt_slot *rt_table;               /* RT_CAP slots, mmap'd (pages appear when touched) */
static _Atomic uint32_t *rt_used;       /* indexes of slots taken, in order */
static _Atomic uint32_t rt_nused;
static _Atomic uint64_t rt_dropped;     /* hits lost because the table was full */
static rt_addr *rt_addrs;               /* the table sorted by address */
static uint32_t rt_naddrs;
static _Atomic int rt_ready;
static pthread_once_t rt_once = PTHREAD_ONCE_INIT;
static _Atomic int rt_flushing;
static char rt_path[4096];              /* $FACET_TRACE_OUT at start; "" = write nothing */

static int rt_addr_cmp(const void *a, const void *b)
{
	const rt_addr *x = a, *y = b;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Before fork, in the parent: write what was counted so far. */
static void rt_before_fork(void)
{
	__facet_trace_flush();
}

/* A forked child: every pair counted so far belongs to the parent. */
static void rt_after_fork_child(void)
{
	uint32_t n = atomic_load(&rt_nused);
	for (uint32_t i = 0; i < n; i++)
		atomic_store_explicit(&rt_table[atomic_load(&rt_used[i])].count, 0, memory_order_relaxed);
	atomic_store(&rt_dropped, 0);
}

static void rt_init(void)
{
	size_t bytes = (size_t)RT_CAP * sizeof *rt_table + (size_t)RT_CAP * sizeof *rt_used;
	void *mem = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (mem == MAP_FAILED)
		return;                         /* rt_ready stays 0: hits are ignored */
	const char *path = getenv("FACET_TRACE_OUT");
	if (path && strlen(path) < sizeof rt_path)
		strcpy(rt_path, path);
	rt_table = mem;
	rt_used = (_Atomic uint32_t *)(rt_table + RT_CAP);
	uint32_t nf = __facet_trace_nfns;
	rt_addrs = malloc((nf ? nf : 1) * sizeof *rt_addrs);
	if (!rt_addrs)
		return;
	for (uint32_t i = 0; i < nf; i++)
		if (__facet_trace_fns[i])
			rt_addrs[rt_naddrs++] = (rt_addr){(uintptr_t)__facet_trace_fns[i], i};
	qsort(rt_addrs, rt_naddrs, sizeof *rt_addrs, rt_addr_cmp);
	pthread_atfork(rt_before_fork, NULL, rt_after_fork_child);
	atomic_store_explicit(&rt_ready, 1, memory_order_release);
}

__attribute__((constructor(101))) static void rt_constructor(void)
{
	pthread_once(&rt_once, rt_init);
}

/* Destructors of the executable run after every atexit handler, so calls
 * made from those handlers are counted too. */
__attribute__((destructor(101))) static void rt_destructor(void)
{
	__facet_trace_flush();
}

static uint32_t rt_function_id(uintptr_t addr)
{
	uint32_t lo = 0, hi = rt_naddrs;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (rt_addrs[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < rt_naddrs && rt_addrs[lo].addr == addr ? rt_addrs[lo].id : RT_UNKNOWN;
}

void __facet_trace_hit(uint32_t site, void *callee)
{
	if (!atomic_load_explicit(&rt_ready, memory_order_acquire)) {
		pthread_once(&rt_once, rt_init);
		if (!atomic_load_explicit(&rt_ready, memory_order_acquire))
			return;
	}
	uint32_t fn = rt_function_id((uintptr_t)callee);
	uint64_t key = ((uint64_t)site << 32 | fn) + 1;
	uint64_t h = key * 0x9e3779b97f4a7c15ULL;
	for (uint32_t probe = 0; probe < 64; probe++) {
		uint32_t i = (uint32_t)(h >> 40) + probe * (probe + 1) / 2;
		rt_slot *s = &rt_table[i & (RT_CAP - 1)];
		uint64_t k = atomic_load_explicit(&s->key, memory_order_acquire);
		if (k == 0) {
			uint64_t expected = 0;
			if (atomic_compare_exchange_strong(&s->key, &expected, key)) {
				uint32_t u = atomic_fetch_add(&rt_nused, 1);
				atomic_store(&rt_used[u], (uint32_t)(s - rt_table));
				k = key;
			} else {
				k = expected;
			}
		}
		if (k == key) {
			atomic_fetch_add_explicit(&s->count, 1, memory_order_relaxed);
			return;
		}
	}
	atomic_fetch_add_explicit(&rt_dropped, 1, memory_order_relaxed);
}

/* A growable output buffer; on allocation failure it stops growing and the
 * flush writes nothing rather than a torn record. */
typedef struct rt_buf {
	char *p;
	size_t len, cap;
	int failed;
} rt_buf;

static void rt_put(rt_buf *b, const char *s, size_t n)
{
	if (b->failed)
		return;
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 4096;
		while (cap < b->len + n)
			cap *= 2;
		char *p = realloc(b->p, cap);
		if (!p) {
			b->failed = 1;
			return;
		}
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
}

static void rt_puts(rt_buf *b, const char *s)
{
	rt_put(b, s, strlen(s));
}

/* A name as the format writes it: bytes outside '!'..'~' and '%' as %XX. */
static void rt_put_name(rt_buf *b, const char *name)
{
	for (const unsigned char *s = (const unsigned char *)name; *s; s++) {
		if (*s > ' ' && *s < 0x7f && *s != '%') {
			rt_put(b, (const char *)s, 1);
		} else {
			char esc[4];
			snprintf(esc, sizeof esc, "%%%02X", *s);
			rt_put(b, esc, 3);
		}
	}
}

void __facet_trace_flush(void)
{
	if (!rt_path[0] || !atomic_load(&rt_ready))
		return;
	if (atomic_exchange(&rt_flushing, 1))
		return;                         /* a flush from a signal handler during a flush */
	rt_buf b = {0};
	char line[160];
	uint64_t dropped = atomic_exchange(&rt_dropped, 0);
	snprintf(line, sizeof line, "facet-trace 1 key=%016llx sites=%u functions=%u pid=%ld dropped=%llu\n",
	         (unsigned long long)__facet_trace_key, (unsigned)__facet_trace_nsites,
	         (unsigned)__facet_trace_nfns, (long)getpid(), (unsigned long long)dropped);
	rt_puts(&b, line);
	uint32_t n = atomic_load(&rt_nused);
	for (uint32_t i = 0; i < n; i++) {
		rt_slot *s = &rt_table[atomic_load(&rt_used[i])];
		uint64_t count = atomic_exchange_explicit(&s->count, 0, memory_order_relaxed);
		if (count == 0)
			continue;
		uint64_t key = atomic_load(&s->key) - 1;
		uint32_t site = (uint32_t)(key >> 32), fn = (uint32_t)key;
		snprintf(line, sizeof line, "%u ", site);
		rt_puts(&b, line);
		if (fn == RT_UNKNOWN)
			rt_puts(&b, "?");
		else
			rt_put_name(&b, __facet_trace_names[fn]);
		snprintf(line, sizeof line, " %llu\n", (unsigned long long)count);
		rt_puts(&b, line);
	}
	if (!b.failed) {   /* a record without edges still says the process ran */
		int fd = open(rt_path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
		if (fd >= 0) {
			flock(fd, LOCK_EX);
			size_t off = 0;
			while (off < b.len) {
				ssize_t w = write(fd, b.p + off, b.len - off);
				if (w <= 0)
					break;
				off += (size_t)w;
			}
			flock(fd, LOCK_UN);
			close(fd);
		}
	}
	free(b.p);
	atomic_store(&rt_flushing, 0);
}

/* A call of a patchable trampoline (ir_site.trampoline) runs the function
 * its first instruction jumps to, as the program last patched it; a ret
 * there (a static call set to NULL) runs nothing. The bytes are read when
 * the call is made, so a patch made since is seen. Other architectures, or
 * a first instruction of another shape, count the trampoline itself, which
 * the table names (the site's observed target is then the trampoline). */
void __facet_trace_hit_tramp(uint32_t site, const void *tramp)
{
#if defined(__x86_64__)
	const unsigned char *c = tramp;
	if (c[0] == 0xf3 && c[1] == 0x0f && c[2] == 0x1e && c[3] == 0xfa)
		c += 4;   /* endbr64 */
	if (c[0] == 0xe9) {
		int32_t rel;
		memcpy(&rel, c + 1, sizeof rel);
		__facet_trace_hit(site, (void *)(uintptr_t)((uintptr_t)(c + 5) + (uintptr_t)(intptr_t)rel));
		return;
	}
	if (c[0] == 0xeb) {
		__facet_trace_hit(site, (void *)(uintptr_t)((uintptr_t)(c + 2) + (uintptr_t)(intptr_t)(signed char)c[1]));
		return;
	}
	if (c[0] == 0xc3)
		return;
#endif
	__facet_trace_hit(site, (void *)(uintptr_t)tramp);
}
