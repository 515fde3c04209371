/* prelink.c — the deferred pre-link optimizer: keys, the cache, the job pool. */
#include "capture/prelink.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capture/hash.h"
#include "capture/resolve.h"
#include "capture/spawn.h"
#include "util/atomic.h"
#include "util/strmap.h"
#include "util/xalloc.h"

typedef struct job {
	const capture_unit *u;
	char key[CAPTURE_HASH_HEX];
	char *in, *out, *tmp, *log;   /* absolute paths */
	pid_t pid;
	int log_fd;
} job;

typedef VEC(job) jobs;

/* Grows *buf by the NUL-terminated s (the NUL kept: words stay apart). */
static void add_word(char **buf, size_t *len, size_t *cap, const char *s)
{
	size_t n = strlen(s) + 1;
	while (*len + n > *cap) {
		*cap = *cap ? *cap * 2 : 1024;
		*buf = xrealloc(*buf, *cap);
	}
	memcpy(*buf + *len, s, n);
	*len += n;
}

/* The clang that runs the command, as a string that changes when the file
 * does: a package upgrade changes its output, so it must change the key. */
static void tool_identity(const char *tool, char *out, size_t n)
{
	char *real = strchr(tool, '/') ? realpath(tool, NULL) : NULL;
	struct stat st;
	if (real && stat(real, &st) == 0)
		snprintf(out, n, "%s %lld %lld.%09ld", real, (long long)st.st_size, (long long)st.st_mtim.tv_sec,
		         st.st_mtim.tv_nsec);
	else
		snprintf(out, n, "%s", tool);   /* found on PATH when it runs */
	free(real);
}

static void unit_key(const capture_unit *u, char key[CAPTURE_HASH_HEX])
{
	char *buf = NULL, id[PATH_MAX + 80];
	size_t len = 0, cap = 0;
	tool_identity(u->prelink.items[0], id, sizeof id);
	add_word(&buf, &len, &cap, "facet-prelink 1");
	add_word(&buf, &len, &cap, u->bitcode_hash);
	add_word(&buf, &len, &cap, id);
	add_word(&buf, &len, &cap, u->cwd ? u->cwd : "");
	for (size_t i = 0; i < u->prelink.len; i++)
		add_word(&buf, &len, &cap, u->prelink.items[i]);
	capture_hash_mem(buf, len, key);
	free(buf);
}

static char *path_in(const char *dir, const char *name, const char *suffix)
{
	size_t n = strlen(dir) + strlen(name) + strlen(suffix) + 2;
	char *p = xmalloc(n);
	snprintf(p, n, "%s/%s%s", dir, name, suffix);
	return p;
}

static bool start(job *j, facet_error *err)
{
	j->log_fd = open(j->log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (j->log_fd < 0) {
		error_set(err, "%s: %s", j->log, strerror(errno));
		return false;
	}
	size_t n = j->u->prelink.len;
	char **argv = xcalloc(n + 7, sizeof *argv);
	for (size_t i = 0; i < n; i++)
		argv[i] = j->u->prelink.items[i];
	argv[n] = "-x", argv[n + 1] = "ir", argv[n + 2] = j->in;
	argv[n + 3] = "-o", argv[n + 4] = j->tmp;
	j->pid = capture_spawn_at(argv, j->u->cwd, j->log_fd, j->log_fd);
	free(argv);
	if (j->pid < 0) {
		error_set(err, "%s: cannot start %s (%s)", j->u->source, j->u->prelink.items[0], strerror(errno));
		close(j->log_fd);
		unlink(j->log);
		return false;
	}
	return true;
}

/* clang's first "error:" line in the job's log (else its first line: LLVM's
 * own option parser says "Unknown command line argument"), for the message. */
static void first_error(const job *j, char *out, size_t n)
{
	facet_error ignore = {0};
	size_t len = 0;
	unsigned char *text = capture_read_file(j->log, &len, &ignore);
	const char *e = text ? memmem(text, len, "error:", 6) : NULL;
	if (!e && text && len)
		e = (const char *)text;
	if (e) {
		size_t k = 0;
		while (e + k < (const char *)text + len && e[k] != '\n' && k < n - 1)
			k++;
		snprintf(out, n, "%.*s", (int)k, e);
	} else {
		snprintf(out, n, "no output");
	}
	free(text);
}

static bool finish(job *j, int status, facet_error *err, bool report)
{
	close(j->log_fd);
	static const atomic_target cached = {"a pre-link cache file", NULL, NULL, NULL, 0};
	facet_error why_install = {0};
	bool ok = status == 0 && atomic_install(j->tmp, j->out, &cached, &why_install);
	if (!ok && report && status == 0) {
		error_set(err, "%s: the pre-link optimization of its bitcode %s: %s", j->u->source, j->in, why_install.msg);
	} else if (!ok && report) {
		char why[600];
		first_error(j, why, sizeof why);
		error_set(err, "%s: the pre-link optimization of its bitcode %s failed (%s, status %d): %s", j->u->source,
		          j->in, j->u->prelink.items[0], status, why);
	}
	unlink(j->tmp);
	unlink(j->log);
	return ok;
}

static unsigned pool_size(size_t todo)
{
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	size_t k = cores > 0 ? (size_t)cores : 1;
	return (unsigned)(k < todo ? k : todo);
}

/* Runs every job, at most pool_size at once; after a failure no new one
 * starts, and the running ones are waited for. */
static bool run_jobs(jobs *js, facet_error *err)
{
	size_t next = 0, running = 0;
	unsigned width = pool_size(js->len);
	bool ok = true;
	while (running > 0 || (ok && next < js->len)) {
		while (ok && next < js->len && running < width) {
			ok = start(&js->items[next++], err);
			running += ok;
		}
		if (running == 0)
			break;
		pid_t pid;
		int st = capture_wait_any(&pid);
		if (pid < 0)
			break;   /* no child left: cannot happen while one is counted */
		for (size_t i = 0; i < next; i++)
			if (js->items[i].pid == pid) {
				js->items[i].pid = 0;
				running--;
				ok = finish(&js->items[i], st, err, ok) && ok;
				break;
			}
	}
	return ok;
}

static char *absolute(const char *p)
{
	char cwd[PATH_MAX];
	if (p[0] == '/' || !getcwd(cwd, sizeof cwd))
		return xstrdup(p);
	return capture_absolute(cwd, p);
}

static void jobs_free(jobs *js)
{
	for (size_t i = 0; i < js->len; i++) {
		free(js->items[i].in), free(js->items[i].out);
		free(js->items[i].tmp), free(js->items[i].log);
	}
	VEC_FREE(js);
}

static char *cache_file(const char *cache, const char *key, const char *what)
{
	char tail[96];
	snprintf(tail, sizeof tail, "%s-%ld", what, (long)getpid());
	size_t n = strlen(cache) + strlen(key) + strlen(tail) + 8;
	char *p = xmalloc(n);
	snprintf(p, n, "%s/%s.bc%s", cache, key, *what ? tail : "");
	return p;
}

bool capture_prelink(const capture_manifest *m, const int *units, size_t n, char **paths, size_t *ran,
                     facet_error *err)
{
	char *dir = absolute(m->dir), *cache = path_in(dir, "prelink", "");
	jobs js = {0};
	VEC(char *) keys = {0};
	strmap scheduled;   /* the keys of js: one run for equal inputs */
	strmap_init(&scheduled);
	bool ok = true, made = false;
	for (size_t i = 0; ok && i < n; i++) {
		const capture_unit *u = &m->units.items[units[i]];
		if (u->prelink.len == 0) {   /* optimized in the build */
			paths[i] = xstrdup(u->bitcode);
			continue;
		}
		if (!made && mkdir(cache, 0777) != 0 && errno != EEXIST) {
			error_set(err, "%s: cannot create the pre-link cache (%s)", cache, strerror(errno));
			ok = false;
			break;
		}
		made = true;
		job j = {.u = u};
		unit_key(u, j.key);
		paths[i] = cache_file(cache, j.key, "");
		if (access(paths[i], F_OK) == 0 || strmap_has(&scheduled, j.key))
			continue;
		j.in = absolute(u->bitcode);
		j.out = xstrdup(paths[i]);
		j.tmp = cache_file(cache, j.key, ".tmp");   /* a killed extract may leave it: never read */
		j.log = cache_file(cache, j.key, ".log");
		VEC_PUSH(&js, j);
		VEC_PUSH(&keys, xstrdup(j.key));
		strmap_put(&scheduled, keys.items[keys.len - 1], NULL);
	}
	ok = ok && run_jobs(&js, err);
	*ran = ok ? js.len : 0;
	strmap_free(&scheduled);
	for (size_t i = 0; i < keys.len; i++)
		free(keys.items[i]);
	VEC_FREE(&keys);
	jobs_free(&js);
	free(cache);
	free(dir);
	if (!ok)
		for (size_t i = 0; i < n; i++) {
			free(paths[i]);
			paths[i] = NULL;
		}
	return ok;
}
