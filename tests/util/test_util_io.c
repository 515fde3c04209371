/* test_util_io.c — util/fsio.h, util/atomic.h, util/hash.h, util/clock.h,
 * util/interner.h. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util/atomic.h"
#include "util/clock.h"
#include "util/fsio.h"
#include "util/hash.h"
#include "util/interner.h"
#include "util/intmap.h"
#include "util/procmem.h"
#include "util/ptrmap.h"
#include "util/template.h"
#include "util/xalloc.h"

static char dir[64];

static int make_dir(void **state)
{
	(void)state;
	snprintf(dir, sizeof dir, "/tmp/facet-util-io.XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int remove_dir(void **state)
{
	(void)state;
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	return system(cmd) == 0 ? 0 : -1;
}

/* A path in dir; the result lives until the 8th call after. */
static char *in_dir(const char *name)
{
	static char p[8][256];
	static int k;
	k = (k + 1) % 8;
	snprintf(p[k], sizeof p[k], "%s/%s", dir, name);
	return p[k];
}

static void put_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static char *slurp(const char *path)
{
	char *t = NULL;
	size_t n;
	facet_error e = {0};
	if (!fsio_read_file(path, 0, "test", &t, &n, &e))
		return NULL;
	return t;
}

/* Files in dir whose name contains ".tmp-". */
static int temporaries(void)
{
	char cmd[400];
	snprintf(cmd, sizeof cmd, "ls -A %s | grep -c '\\.tmp-' > %s/.count", dir, dir);
	if (system(cmd) < 0)
		return -1;
	char *c = slurp(in_dir(".count"));
	int n = c ? atoi(c) : -1;
	free(c);
	unlink(in_dir(".count"));
	return n;
}

static void test_fsio_regular(void **state)
{
	(void)state;
	put_file(in_dir("a.txt"), "hello");
	char *t = NULL;
	size_t n = 0;
	facet_error e = {0};
	assert_true(fsio_read_file(in_dir("a.txt"), 0, "the input", &t, &n, &e));
	assert_int_equal(n, 5);
	assert_string_equal(t, "hello");
	free(t);
	/* The bound holds. */
	error_clear(&e);
	assert_false(fsio_read_file(in_dir("a.txt"), 4, "the input", &t, &n, &e));
	assert_non_null(strstr(e.msg, "larger than 4 bytes"));
	/* Devices, directories, FIFOs: refused at once (a FIFO open would block). */
	error_clear(&e);
	assert_false(fsio_check_regular("/dev/zero", 0, "the input", &e));
	assert_non_null(strstr(e.msg, "character device"));
	error_clear(&e);
	assert_false(fsio_check_regular(dir, 0, "the input", &e));
	assert_non_null(strstr(e.msg, "directory"));
	assert_int_equal(mkfifo(in_dir("fifo"), 0600), 0);
	error_clear(&e);
	time_t t0 = time(NULL);
	assert_false(fsio_check_regular(in_dir("fifo"), 0, "the input", &e));
	assert_true(time(NULL) - t0 < 5);
	assert_non_null(strstr(e.msg, "FIFO"));
	error_clear(&e);
	assert_false(fsio_check_regular(in_dir("missing"), 0, "the input", &e));
	assert_non_null(strstr(e.msg, "missing"));
}

/* A pipe read to its end, NUL bytes kept; a descriptor that cannot be read
 * is an error naming it, not an empty text. */
static void test_fsio_read_fd(void **state)
{
	(void)state;
	int p[2];
	assert_int_equal(pipe(p), 0);
	assert_int_equal(write(p[1], "a\0b\n", 4), 4);
	close(p[1]);
	char *t = NULL;
	size_t n = 0;
	facet_error e = {0};
	assert_true(fsio_read_fd(p[0], "stdin", 0, "the records", &t, &n, &e));
	close(p[0]);
	assert_int_equal(n, 4);
	assert_memory_equal(t, "a\0b\n", 4);
	free(t);
	int w = open(in_dir("wo.txt"), O_WRONLY | O_CREAT, 0600);
	assert_false(fsio_read_fd(w, "stdin", 0, "the records", &t, &n, &e));
	close(w);
	assert_non_null(strstr(e.msg, "stdin: cannot read the records"));
}

static bool starts_ok(const unsigned char *h, size_t n)
{
	return n >= 2 && h[0] == 'O' && h[1] == 'K';
}

static void test_atomic_write(void **state)
{
	(void)state;
	char out[256];
	snprintf(out, sizeof out, "%s", in_dir("out"));
	atomic_target t = {.what = "the test file", .kind = starts_ok, .kind_name = "an OK file"};
	atomic_file af;
	facet_error e = {0};
	assert_true(atomic_open(&af, out, &t, &e));
	assert_int_equal(temporaries(), 1);
	assert_true(atomic_write(&af, "OK one\n", 7, &e));
	assert_true(atomic_commit(&af, &e));
	assert_int_equal(temporaries(), 0);
	char *c = slurp(out);
	assert_string_equal(c, "OK one\n");
	free(c);
	/* Replacing a file of the same kind. */
	assert_true(atomic_open(&af, out, &t, &e));
	assert_true(atomic_write(&af, "OK two\n", 7, &e));
	assert_true(atomic_commit(&af, &e));
	c = slurp(out);
	assert_string_equal(c, "OK two\n");
	free(c);
	/* Abort leaves the old file and no temporary. */
	assert_true(atomic_open(&af, out, &t, &e));
	assert_true(atomic_write(&af, "OK three\n", 9, &e));
	atomic_abort(&af);
	atomic_abort(&af);   /* twice is safe */
	assert_int_equal(temporaries(), 0);
	c = slurp(out);
	assert_string_equal(c, "OK two\n");
	free(c);
}

static void test_atomic_refusals(void **state)
{
	(void)state;
	atomic_target t = {.what = "the test file", .kind = starts_ok, .kind_name = "an OK file"};
	atomic_file af;
	facet_error e = {0};
	/* Another kind of file. */
	put_file(in_dir("notes"), "a user's notes\n");
	assert_false(atomic_open(&af, in_dir("notes"), &t, &e));
	assert_non_null(strstr(e.msg, "not an OK file"));
	/* A device. */
	error_clear(&e);
	assert_false(atomic_open(&af, "/dev/null", &t, &e));
	assert_non_null(strstr(e.msg, "character device"));
	/* A symlink as the target (even to a file of the kind). */
	put_file(in_dir("real"), "OK real\n");
	assert_int_equal(symlink(in_dir("real"), in_dir("link")), 0);
	error_clear(&e);
	assert_false(atomic_open(&af, in_dir("link"), &t, &e));
	assert_non_null(strstr(e.msg, "symbolic link"));
	/* A protected input. */
	const char *inputs[] = {in_dir("real")};
	atomic_target p = {.what = "the test file", .protect = inputs, .n_protect = 1};
	error_clear(&e);
	assert_false(atomic_open(&af, in_dir("real"), &p, &e));
	assert_non_null(strstr(e.msg, "input"));
	assert_int_equal(temporaries(), 0);
}

/* atomic_install: another program's output at a temporary becomes the
 * file; a refused target (a symlink, a protected input) leaves the old file
 * and removes the temporary. */
static void test_atomic_install(void **state)
{
	(void)state;
	atomic_target t = {.what = "the linked output"};
	facet_error e = {0};
	put_file(in_dir("linked"), "old\n");
	put_file(in_dir("linked.part"), "new\n");
	assert_true(atomic_install(in_dir("linked.part"), in_dir("linked"), &t, &e));
	char *c = slurp(in_dir("linked"));
	assert_string_equal(c, "new\n");
	free(c);
	assert_int_not_equal(access(in_dir("linked.part"), F_OK), 0);
	put_file(in_dir("target"), "target\n");
	assert_int_equal(symlink(in_dir("target"), in_dir("to-target")), 0);
	put_file(in_dir("linked.part"), "other\n");
	assert_false(atomic_install(in_dir("linked.part"), in_dir("to-target"), &t, &e));
	assert_non_null(strstr(e.msg, "symbolic link"));
	assert_int_not_equal(access(in_dir("linked.part"), F_OK), 0);
	c = slurp(in_dir("target"));
	assert_string_equal(c, "target\n");
	free(c);
	const char *inputs[] = {in_dir("linked")};
	atomic_target p = {.what = "the linked output", .protect = inputs, .n_protect = 1};
	put_file(in_dir("linked.part"), "other\n");
	error_clear(&e);
	assert_false(atomic_install(in_dir("linked.part"), in_dir("linked"), &p, &e));
	assert_non_null(strstr(e.msg, "input"));
	c = slurp(in_dir("linked"));
	assert_string_equal(c, "new\n");
	free(c);
	error_clear(&e);
	assert_false(atomic_install(in_dir("no-such.part"), in_dir("linked2"), &t, &e));
	assert_non_null(strstr(e.msg, "cannot sync"));
}

static void test_atomic_planted_symlink(void **state)
{
	(void)state;
	/* A link planted at this process's temporary name: the write goes to
	 * another name, the link's target is untouched. */
	put_file(in_dir("victim"), "victim\n");
	char dest[256], planted[300];
	snprintf(dest, sizeof dest, "%s", in_dir("dest"));
	snprintf(planted, sizeof planted, "%s.tmp-%ld", dest, (long)getpid());
	assert_int_equal(symlink(in_dir("victim"), planted), 0);
	atomic_file af;
	facet_error e = {0};
	assert_true(atomic_open(&af, dest, NULL, &e));
	assert_string_not_equal(af.tmp, planted);
	assert_true(atomic_write(&af, "new\n", 4, &e));
	assert_true(atomic_commit(&af, &e));
	char *c = slurp(in_dir("victim"));
	assert_string_equal(c, "victim\n");
	free(c);
	c = slurp(dest);
	assert_string_equal(c, "new\n");
	free(c);
	unlink(planted);
}

static void test_atomic_signal_cleanup(void **state)
{
	(void)state;
	int sigs[] = {SIGTERM, SIGINT};
	for (int i = 0; i < 2; i++) {
		pid_t pid = fork();
		assert_true(pid >= 0);
		if (pid == 0) {
			atomic_file af;
			facet_error e = {0};
			if (!atomic_open(&af, in_dir("killed"), NULL, &e))
				_exit(3);
			atomic_write(&af, "partial", 7, &e);
			raise(sigs[i]);
			_exit(4);   /* not reached: the signal kills the child */
		}
		int status;
		waitpid(pid, &status, 0);
		assert_true(WIFSIGNALED(status));
		assert_int_equal(WTERMSIG(status), sigs[i]);
		assert_int_equal(temporaries(), 0);
		assert_int_equal(access(in_dir("killed"), F_OK), -1);
	}
}

/* A writer killed by SIGKILL leaves PATH.tmp-PID behind; the next write of
 * PATH removes it (and a -N variant), but never a live writer's. */
static void test_atomic_stale_sweep(void **state)
{
	(void)state;
	pid_t dead = fork();
	assert_true(dead >= 0);
	if (dead == 0)
		_exit(0);
	waitpid(dead, NULL, 0);
	char stale[300], stale2[300], live[300];
	snprintf(stale, sizeof stale, "%s.tmp-%ld", in_dir("swept"), (long)dead);
	snprintf(stale2, sizeof stale2, "%s.tmp-%ld-3", in_dir("swept"), (long)dead);
	snprintf(live, sizeof live, "%s.tmp-%ld", in_dir("swept"), (long)getppid());
	const char *made[] = {stale, stale2, live};
	for (int i = 0; i < 3; i++) {
		FILE *f = fopen(made[i], "w");
		assert_non_null(f);
		fclose(f);
	}
	atomic_file af;
	facet_error e = {0};
	assert_true(atomic_open(&af, in_dir("swept"), NULL, &e));
	assert_true(atomic_write(&af, "x", 1, &e) && atomic_commit(&af, &e));
	assert_int_equal(access(stale, F_OK), -1);
	assert_int_equal(access(stale2, F_OK), -1);
	assert_int_equal(access(live, F_OK), 0);
	unlink(live);
	unlink(in_dir("swept"));
}

static void test_hash_fnv(void **state)
{
	(void)state;
	/* FNV-1a 64 reference values (the FNV authors' test vectors). */
	assert_true(hash_fnv64_str("") == 0xcbf29ce484222325ull);
	assert_true(hash_fnv64_str("a") == 0xaf63dc4c8601ec8cull);
	assert_true(hash_fnv64_str("foobar") == 0x85944171f73967e8ull);
	assert_true(hash_fnv64(HASH_FNV64_INIT, "foobar", 6) == 0x85944171f73967e8ull);
	/* Incremental equals whole. */
	assert_true(hash_fnv64(hash_fnv64(HASH_FNV64_INIT, "foo", 3), "bar", 3) == hash_fnv64_str("foobar"));
}

static void test_clock(void **state)
{
	(void)state;
	double a = clock_seconds();
	struct timespec ts = {0, 2000000};
	nanosleep(&ts, NULL);
	double b = clock_seconds();
	assert_true(b > a);
	assert_true(b - a < 10.0);
}

/* The phase log's figures: 64 MiB touched shows in the resident size, and
 * the peak is never below it. */
static void test_procmem(void **state)
{
	(void)state;
	unsigned long long rss0, peak0, rss, peak;
	procmem_kib(&rss0, &peak0);
	assert_true(rss0 > 0 && peak0 >= rss0);
	size_t n = 64u << 20;
	volatile char *block = malloc(n);   /* volatile: the compiler may not drop the touches */
	for (size_t i = 0; i < n; i += 4096)
		block[i] = 1;
	procmem_kib(&rss, &peak);
	assert_true(rss >= rss0 + 60 * 1024);
	assert_true(peak >= rss);
	free((void *)block);
}

static const char *shared(const char *name, size_t n)
{
	return n == 6 && strncmp(name, "shared", 6) == 0 ? "  --x {{what}}\n" : NULL;
}

/* Holes filled: a whole-line include (filled too), a value inside a line,
 * an unknown key and an include name inside a line left as they stand. */
static void test_template(void **state)
{
	(void)state;
	char *got = NULL;
	size_t n = 0;
	FILE *out = open_memstream(&got, &n);
	template_render(out, "use {{cmd}}:\n{{shared}}\nend {{nope}} {{shared}}\n{{open", shared,
	                (const template_value[]){{"cmd", "facet"}, {"what", "it"}, {NULL, NULL}});
	fclose(out);
	assert_string_equal(got, "use facet:\n  --x it\nend {{nope}} {{shared}}\n{{open");
	free(got);
}

static void test_interner(void **state)
{
	(void)state;
	u32_interner in;
	u32_interner_init(&in);
	uint32_t a[] = {1, 2}, b[] = {3}, c[] = {1, 2};
	assert_int_equal(u32_intern(&in, a, 2), 0);
	assert_int_equal(u32_intern(&in, b, 1), 1);
	assert_int_equal(u32_intern(&in, c, 2), 0);   /* equal contents, one id */
	assert_int_equal(u32_intern(&in, a, 1), 2);   /* a prefix is another list */
	/* Enough lists to grow the table several times; ids stay dense and
	 * every list reads back. */
	for (uint32_t i = 0; i < 5000; i++) {
		uint32_t w[3] = {i, i * 7, 0xffffffffu - i};
		assert_int_equal(u32_intern(&in, w, 3), 3 + i);
	}
	assert_int_equal(u32_interner_count(&in), 5003);
	for (uint32_t i = 0; i < 5000; i += 499) {
		uint32_t w[3] = {i, i * 7, 0xffffffffu - i};
		assert_int_equal(u32_intern(&in, w, 3), 3 + i);
		size_t n;
		const uint32_t *x = u32_interner_list(&in, 3 + i, &n);
		assert_int_equal(n, 3);
		assert_memory_equal(x, w, sizeof w);
	}
	size_t n;
	const uint32_t *x = u32_interner_list(&in, 1, &n);
	assert_int_equal(n, 1);
	assert_int_equal(x[0], 3);
	u32_interner_free(&in);
}

/* intmap: every key (0 and UINT64_MAX too) kept, replaced, absent ones
 * absent, through growth; checked against a plain array of what was put. */
static void test_intmap(void **state)
{
	(void)state;
	intmap m;
	intmap_init(&m);
	assert_false(intmap_get(&m, 0, NULL));
	assert_int_equal(intmap_get_or(&m, 7, 99), 99);
	intmap_put(&m, 0, 10);
	intmap_put(&m, UINT64_MAX, 20);
	uint64_t v = 0;
	assert_true(intmap_get(&m, 0, &v));
	assert_int_equal(v, 10);
	assert_true(intmap_get(&m, UINT64_MAX, &v));
	assert_int_equal(v, 20);
	/* 5000 keys spread over the whole range (and colliding low bits) */
	enum { N = 5000 };
	for (uint64_t i = 1; i <= N; i++)
		intmap_put(&m, i << 40, i * 3);
	for (uint64_t i = 1; i <= N; i += 2)
		intmap_put(&m, i << 40, i * 5);   /* replaces */
	assert_int_equal(m.len, N + 2);
	for (uint64_t i = 1; i <= N; i++) {
		assert_true(intmap_get(&m, i << 40, &v));
		assert_int_equal(v, i % 2 ? i * 5 : i * 3);
		assert_false(intmap_get(&m, (i << 40) + 1, NULL));
	}
	/* iteration sees every key once, 0 and UINT64_MAX too, with its value */
	size_t seen = 0, it = 0;
	uint64_t key, val;
	bool zero = false, max = false;
	while (intmap_next(&m, &it, &key, &val)) {
		seen++;
		zero |= key == 0 && val == 10;
		max |= key == UINT64_MAX && val == 20;
		if (key && key != UINT64_MAX)
			assert_int_equal(val, (key >> 40) % 2 ? (key >> 40) * 5 : (key >> 40) * 3);
	}
	assert_int_equal(seen, m.len);
	assert_true(zero && max);
	intmap_put(&m, 0, 11);   /* replaces the key 0 */
	assert_int_equal(m.len, N + 2);
	assert_int_equal(intmap_get_or(&m, 0, 0), 11);
	intmap_free(&m);
	assert_false(intmap_get(&m, 0, NULL));
}

/* ptrmap over intmap: addresses as keys, NULL for absent (and for a NULL
 * key), replaced values, through growth. */
static void test_ptrmap(void **state)
{
	(void)state;
	enum { N = 3000 };
	static char objs[N];
	ptrmap m;
	ptrmap_init(&m);
	assert_null(ptrmap_get(&m, objs));
	assert_null(ptrmap_get(&m, NULL));
	for (size_t i = 0; i < N; i++)
		ptrmap_put(&m, &objs[i], &objs[N - 1 - i]);
	ptrmap_put(&m, &objs[7], &objs[7]);   /* replaces */
	for (size_t i = 0; i < N; i++)
		assert_ptr_equal(ptrmap_get(&m, &objs[i]), i == 7 ? &objs[7] : &objs[N - 1 - i]);
	assert_int_equal(m.map.len, N);
	assert_null(ptrmap_get(&m, &m));
	ptrmap_free(&m);
	assert_null(ptrmap_get(&m, objs));
	/* owned values: freed with the map (ASan sees a leak otherwise) */
	for (size_t i = 0; i < 100; i++)
		ptrmap_put(&m, &objs[i], xstrdup("value"));
	assert_string_equal(ptrmap_get(&m, &objs[42]), "value");
	ptrmap_free_values(&m);
	assert_null(ptrmap_get(&m, &objs[42]));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fsio_regular),
		cmocka_unit_test(test_procmem),
		cmocka_unit_test(test_template),
		cmocka_unit_test(test_fsio_read_fd),
		cmocka_unit_test(test_atomic_write),
		cmocka_unit_test(test_atomic_refusals),
		cmocka_unit_test(test_atomic_install),
		cmocka_unit_test(test_atomic_planted_symlink),
		cmocka_unit_test(test_atomic_signal_cleanup),
		cmocka_unit_test(test_atomic_stale_sweep),
		cmocka_unit_test(test_hash_fnv),
		cmocka_unit_test(test_clock),
		cmocka_unit_test(test_interner),
		cmocka_unit_test(test_intmap),
		cmocka_unit_test(test_ptrmap),
	};
	return cmocka_run_group_tests(tests, make_dir, remove_dir);
}
