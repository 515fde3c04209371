/* command.c — the `command` backend: an external program reads the question
 * as JSON on stdin (prompt.h's question_json, docs/oracle.md) and writes its
 * answer as JSON on stdout. A non-zero exit, a signal or no answer within
 * the timeout is a failure: no usable answer, the symbolic result stands. */
#include "oracle/internal.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util/vec.h"
#include "util/xalloc.h"
#include "util/clock.h"

enum { MAX_OUTPUT = 16 << 20 };   /* an answer larger than this is not an answer */

typedef struct command_ctx {
	char *command;
	char *model;
	unsigned timeout_ms;
} command_ctx;

static long long now_ms(void)
{
	return (long long)(clock_seconds() * 1000.0);
}

static void tokens_from(const char *text, oracle_reply *out)
{
	json_t *j = json_loads(text, 0, NULL);
	json_t *u = json_object_get(j, "usage");
	if (json_is_object(u)) {
		json_int_t pt = json_integer_value(json_object_get(u, "prompt_tokens"));
		json_int_t ct = json_integer_value(json_object_get(u, "completion_tokens"));
		out->prompt_tokens = pt > 0 ? (unsigned)pt : 0;
		out->completion_tokens = ct > 0 ? (unsigned)ct : 0;
	}
	json_decref(j);
}

typedef VEC(char) char_vec;

/* Writes q[0..qlen) to infd (non-blocking) while reading outfd into buf,
 * until outfd ends, the deadline passes (*timed_out) or the output passes
 * MAX_OUTPUT (*too_big); closes both descriptors. */
static void pump(int infd, int outfd, const char *q, size_t qlen, long long deadline, char_vec *buf, bool *timed_out,
                 bool *too_big)
{
	size_t written = 0;
	int wfd = infd, rfd = outfd;
	if (qlen == 0) {
		close(wfd);
		wfd = -1;
	}
	while (rfd >= 0) {
		long long left = deadline - now_ms();
		if (left <= 0) {
			*timed_out = true;
			break;
		}
		struct pollfd fds[2] = {{.fd = rfd, .events = POLLIN}, {.fd = wfd, .events = POLLOUT}};
		int n = poll(fds, wfd >= 0 ? 2 : 1, (int)(left > 1000 ? 1000 : left));
		if (n < 0 && errno != EINTR)
			break;
		if (n <= 0)
			continue;
		if (wfd >= 0 && fds[1].revents) {
			ssize_t w = write(wfd, q + written, qlen - written);
			if (w > 0)
				written += (size_t)w;
			if (w < 0 && errno != EAGAIN && errno != EINTR)
				written = qlen;   /* the reader went away: stop writing */
			if (written == qlen) {
				close(wfd);
				wfd = -1;
			}
		}
		if (fds[0].revents) {
			char chunk[8192];
			ssize_t r = read(rfd, chunk, sizeof chunk);
			if (r > 0) {
				if (buf->len + (size_t)r > MAX_OUTPUT) {
					*too_big = true;
					break;
				}
				VEC_RESERVE(buf, buf->len + (size_t)r + 1);
				memcpy(buf->items + buf->len, chunk, (size_t)r);
				buf->len += (size_t)r;
			} else if (r == 0 || (errno != EAGAIN && errno != EINTR)) {
				close(rfd);
				rfd = -1;
			}
		}
	}
	if (wfd >= 0)
		close(wfd);
	if (rfd >= 0)
		close(rfd);
}

static oracle_call_status run(oracle_backend *b, const oracle_prompt *p, oracle_reply *out, oracle_stats *st,
                              facet_error *err)
{
	command_ctx *c = b->ctx;
	int in[2], outp[2];
	memset(out, 0, sizeof *out);
	if (pipe2(in, O_CLOEXEC) != 0)
		goto sys_fail0;
	if (pipe2(outp, O_CLOEXEC) != 0) {
		close(in[0]);
		close(in[1]);
		goto sys_fail0;
	}
	/* The child may exit without reading: a write must fail, not kill us. */
	sigset_t pipe_set, old_set;
	sigemptyset(&pipe_set);
	sigaddset(&pipe_set, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &pipe_set, &old_set);
	st->requests++;
	/* posix_spawn, not fork: facet's address space is large and copying its
	 * page tables per question costs more than the question. */
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, in[0], 0);
	posix_spawn_file_actions_adddup2(&fa, outp[1], 1);
	posix_spawnattr_init(&attr);
	posix_spawnattr_setsigmask(&attr, &old_set);
	posix_spawnattr_setpgroup(&attr, 0);   /* a group of its own: a timeout kills the whole pipeline */
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP);
	pid_t pid;
	char *const args[] = {"sh", "-c", c->command, NULL};
	int serr = posix_spawn(&pid, "/bin/sh", &fa, &attr, args, environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&attr);
	if (serr != 0) {
		close(in[0]); close(in[1]); close(outp[0]); close(outp[1]);
		pthread_sigmask(SIG_SETMASK, &old_set, NULL);
		errno = serr;
		goto sys_fail0;
	}
	close(in[0]);
	close(outp[1]);
	fcntl(in[1], F_SETFL, O_NONBLOCK);
	const char *q = p->question_json;
	size_t qlen = strlen(q);
	char_vec buf = {0};
	long long deadline = now_ms() + c->timeout_ms;
	bool timed_out = false, too_big = false;
	pump(in[1], outp[0], q, qlen, deadline, &buf, &timed_out, &too_big);
	if (timed_out || too_big)
		kill(-pid, SIGKILL);
	int status = 0;
	/* stdout closed: the command is done or about to be; wait for it within the deadline. */
	while (!timed_out && !too_big) {
		pid_t w = waitpid(pid, &status, WNOHANG);
		if (w == pid)
			break;
		if (w < 0 && errno != EINTR)
			break;
		if (now_ms() >= deadline) {
			timed_out = true;
			kill(-pid, SIGKILL);
			break;
		}
		struct timespec ts = {0, 5 * 1000 * 1000};
		nanosleep(&ts, NULL);
	}
	if (timed_out || too_big)
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
	/* Clear a SIGPIPE our writes raised before unblocking it. */
	struct timespec zero = {0, 0};
	while (sigtimedwait(&pipe_set, NULL, &zero) > 0)
		;
	pthread_sigmask(SIG_SETMASK, &old_set, NULL);
	VEC_RESERVE(&buf, buf.len + 1);
	buf.items[buf.len] = 0;
	if (timed_out) {
		error_set(err, "oracle command '%s': no answer within %u ms", c->command, c->timeout_ms);
		free(buf.items);
		return CALL_TIMEOUT;
	}
	if (too_big) {
		error_set(err, "oracle command '%s': more than %d bytes of output", c->command, MAX_OUTPUT);
		free(buf.items);
		return CALL_FAILED;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		if (WIFEXITED(status))
			error_set(err, "oracle command '%s' exited with status %d", c->command, WEXITSTATUS(status));
		else
			error_set(err, "oracle command '%s' was killed by signal %d", c->command,
			          WIFSIGNALED(status) ? WTERMSIG(status) : 0);
		free(buf.items);
		return CALL_FAILED;
	}
	out->content = buf.items;
	tokens_from(out->content, out);
	return CALL_OK;
sys_fail0:
	error_set(err, "oracle command '%s': %s", c->command, strerror(errno));
	return CALL_FAILED;
}

static void command_free(oracle_backend *b)
{
	command_ctx *c = b->ctx;
	free(c->command);
	free(c->model);
	free(c);
	free(b);
}

oracle_backend *oracle_command_backend(const oracle_config *cfg, facet_error *err)
{
	if (!cfg->command || !*cfg->command) {
		error_set(err, "the command oracle needs a command (--oracle-command)");
		return NULL;
	}
	command_ctx *c = xcalloc(1, sizeof *c);
	c->command = xstrdup(cfg->command);
	c->model = xstrdup(cfg->model && *cfg->model ? cfg->model : cfg->command);
	c->timeout_ms = cfg->timeout_ms ? cfg->timeout_ms : 60000;
	oracle_backend *b = xcalloc(1, sizeof *b);
	b->name = "command";
	b->model = c->model;
	b->ctx = c;
	b->call = run;
	b->free = command_free;
	return b;
}
