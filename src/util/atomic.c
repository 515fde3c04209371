/* atomic.c — see atomic.h.
 *
 * The signal handler removes the temporaries still registered and then
 * re-raises the signal with its previous disposition, so a killed writer
 * leaves no PATH.tmp-PID and still dies of the signal it got. The registry
 * is a fixed array written before a temporary exists and cleared after it
 * is gone, so the handler only ever sees complete names. */
#include "util/atomic.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/fsio.h"
#include "util/xalloc.h"

enum { MAX_LIVE = 16 };
static char *volatile live[MAX_LIVE];
static bool handlers_installed;
static const int cleanup_signals[] = {SIGINT, SIGTERM, SIGHUP};
static struct sigaction previous[3];

static void on_signal(int sig)
{
	for (int i = 0; i < MAX_LIVE; i++)
		if (live[i])
			unlink(live[i]);
	for (int i = 0; i < 3; i++)
		if (cleanup_signals[i] == sig) {
			if (previous[i].sa_handler != SIG_IGN && previous[i].sa_handler != SIG_DFL &&
			    !(previous[i].sa_flags & SA_SIGINFO)) {
				previous[i].sa_handler(sig);
				return;
			}
			sigaction(sig, &previous[i], NULL);
		}
	raise(sig);
}

static void install_handlers(void)
{
	if (handlers_installed)
		return;
	handlers_installed = true;
	for (int i = 0; i < 3; i++) {
		struct sigaction sa;
		memset(&sa, 0, sizeof sa);
		sa.sa_handler = on_signal;
		sigemptyset(&sa.sa_mask);
		sa.sa_flags = SA_RESETHAND;
		sigaction(cleanup_signals[i], NULL, &previous[i]);
		if (previous[i].sa_handler == SIG_IGN)   /* nohup: keep ignoring */
			continue;
		sigaction(cleanup_signals[i], &sa, NULL);
	}
}

static void register_tmp(char *tmp)
{
	sigset_t all, old;
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	for (int i = 0; i < MAX_LIVE; i++)
		if (!live[i]) {
			live[i] = tmp;
			break;
		}
	sigprocmask(SIG_SETMASK, &old, NULL);
}

static void unregister_tmp(const char *tmp)
{
	sigset_t all, old;
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	for (int i = 0; i < MAX_LIVE; i++)
		if (live[i] == tmp)
			live[i] = NULL;
	sigprocmask(SIG_SETMASK, &old, NULL);
}

bool atomic_check_target(const char *path, const atomic_target *t, facet_error *err)
{
	const char *what = t && t->what ? t->what : "the output";
	struct stat st;
	if (lstat(path, &st) != 0) {
		if (errno == ENOENT)
			return true;
		error_set(err, "%s: cannot write %s: %s", path, what, strerror(errno));
		return false;
	}
	if (!S_ISREG(st.st_mode)) {
		error_set(err, "%s: refusing to replace %s with %s (only a regular file of the same kind is replaced)",
		          path, fsio_type_name(st.st_mode), what);
		return false;
	}
	for (unsigned i = 0; t && i < t->n_protect; i++) {
		struct stat ps;
		if (stat(t->protect[i], &ps) == 0 && ps.st_dev == st.st_dev && ps.st_ino == st.st_ino) {
			error_set(err, "%s: refusing to write %s over an input (%s)", path, what, t->protect[i]);
			return false;
		}
	}
	if (t && t->kind) {
		unsigned char head[4096];
		int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
		ssize_t n = fd >= 0 ? read(fd, head, sizeof head) : -1;
		if (fd >= 0)
			close(fd);
		if (n < 0 || !t->kind(head, (size_t)n)) {
			error_set(err, "%s: refusing to replace this file with %s: it exists and is not %s", path, what,
			          t->kind_name ? t->kind_name : "a file of that kind");
			return false;
		}
	}
	return true;
}

/* Removes the temporaries PATH.tmp-PID and PATH.tmp-PID-N that a killed
 * writer left (SIGKILL cannot be caught): only when that PID no longer runs,
 * so a live writer's file is left alone. */
static void remove_stale_temporaries(const char *path)
{
	char *copy = xstrdup(path);
	char *slash = strrchr(copy, '/');
	const char *dir = slash ? (slash == copy ? "/" : copy) : ".";
	const char *base = slash ? slash + 1 : copy;
	if (slash)
		*slash = 0;
	size_t blen = strlen(base);
	DIR *d = opendir(dir);
	struct dirent *e;
	while (d && (e = readdir(d)) != NULL) {
		if (strncmp(e->d_name, base, blen) != 0 || strncmp(e->d_name + blen, ".tmp-", 5) != 0)
			continue;
		char *end;
		long pid = strtol(e->d_name + blen + 5, &end, 10);
		if (*end == '-') {
			char *end2;
			(void)strtol(end + 1, &end2, 10);
			end = end2 > end + 1 ? end2 : end;
		}
		if (*end || pid <= 0 || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		char *full = xmalloc(strlen(dir) + strlen(e->d_name) + 2);
		sprintf(full, "%s/%s", dir, e->d_name);
		unlink(full);
		free(full);
	}
	if (d)
		closedir(d);
	free(copy);
}

bool atomic_open(atomic_file *a, const char *path, const atomic_target *t, facet_error *err)
{
	a->path = NULL;
	a->tmp = NULL;
	a->fd = -1;
	if (!atomic_check_target(path, t, err))
		return false;
	const char *what = t && t->what ? t->what : "the output";
	remove_stale_temporaries(path);
	install_handlers();
	size_t n = strlen(path) + 48;
	char *tmp = xmalloc(n);
	for (int attempt = 0; attempt < 100; attempt++) {
		if (attempt == 0)
			snprintf(tmp, n, "%s.tmp-%ld", path, (long)getpid());
		else
			snprintf(tmp, n, "%s.tmp-%ld-%d", path, (long)getpid(), attempt);
		register_tmp(tmp);
		int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
		if (fd >= 0) {
			a->path = xstrdup(path);
			a->tmp = tmp;
			a->fd = fd;
			return true;
		}
		int e = errno;
		unregister_tmp(tmp);
		if (e != EEXIST) {
			error_set(err, "%s: cannot create %s for %s: %s", path, tmp, what, strerror(e));
			free(tmp);
			return false;
		}
	}
	error_set(err, "%s: cannot create a temporary file beside it for %s (100 names taken)", path, what);
	free(tmp);
	return false;
}

bool atomic_write(atomic_file *a, const void *buf, size_t n, facet_error *err)
{
	const char *p = buf;
	while (n > 0) {
		ssize_t w = write(a->fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			error_set(err, "%s: cannot write %s: %s", a->path, a->tmp, w < 0 ? strerror(errno) : "short write");
			return false;
		}
		p += w;
		n -= (size_t)w;
	}
	return true;
}

bool atomic_sync_dir(const char *path)
{
	char *copy = xstrdup(path);
	char *slash = strrchr(copy, '/');
	const char *dir = slash ? (slash == copy ? "/" : copy) : ".";
	if (slash && slash != copy)
		*slash = 0;
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	bool ok = fd >= 0 && fsync(fd) == 0;
	if (fd >= 0)
		close(fd);
	free(copy);
	return ok;
}

/* After the rename: the directory fsync'ed, so that the rename itself
 * survives a crash. */
static bool renamed_synced(const char *path, facet_error *err)
{
	if (atomic_sync_dir(path))
		return true;
	error_set(err, "%s: written, but its directory could not be synced: %s", path, strerror(errno));
	return false;
}

bool atomic_install(const char *tmp, const char *path, const atomic_target *t, facet_error *err)
{
	if (!atomic_check_target(path, t, err)) {
		unlink(tmp);
		return false;
	}
	int fd = open(tmp, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || fsync(fd) != 0) {
		error_set(err, "%s: cannot sync %s: %s", path, tmp, strerror(errno));
		if (fd >= 0)
			close(fd);
		unlink(tmp);
		return false;
	}
	close(fd);
	if (rename(tmp, path) != 0) {
		error_set(err, "%s: cannot rename %s over it: %s", path, tmp, strerror(errno));
		unlink(tmp);
		return false;
	}
	return renamed_synced(path, err);
}

bool atomic_commit(atomic_file *a, facet_error *err)
{
	if (!a->tmp) {
		error_set(err, "%s: nothing to commit", a->path ? a->path : "?");
		return false;
	}
	if (fsync(a->fd) != 0) {
		error_set(err, "%s: cannot sync %s: %s", a->path, a->tmp, strerror(errno));
		atomic_abort(a);
		return false;
	}
	int rc = close(a->fd);
	a->fd = -1;
	if (rc != 0) {
		error_set(err, "%s: cannot close %s: %s", a->path, a->tmp, strerror(errno));
		atomic_abort(a);
		return false;
	}
	if (rename(a->tmp, a->path) != 0) {
		error_set(err, "%s: cannot rename %s over it: %s", a->path, a->tmp, strerror(errno));
		atomic_abort(a);
		return false;
	}
	unregister_tmp(a->tmp);
	free(a->tmp);
	a->tmp = NULL;
	bool ok = renamed_synced(a->path, err);
	free(a->path);
	a->path = NULL;
	return ok;
}

void atomic_abort(atomic_file *a)
{
	if (a->fd >= 0)
		close(a->fd);
	a->fd = -1;
	if (a->tmp) {
		unlink(a->tmp);
		unregister_tmp(a->tmp);
		free(a->tmp);
		a->tmp = NULL;
	}
	free(a->path);
	a->path = NULL;
}
