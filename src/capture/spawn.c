/* spawn.c — fork/exec/wait with the descriptors a caller chooses. */
#include "capture/spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/xalloc.h"

pid_t capture_spawn(char *const *argv, int out_fd, int err_fd)
{
	pid_t pid = fork();
	if (pid != 0)
		return pid;
	if (out_fd >= 0 && out_fd != STDOUT_FILENO)
		dup2(out_fd, STDOUT_FILENO);
	if (err_fd >= 0 && err_fd != STDERR_FILENO)
		dup2(err_fd, STDERR_FILENO);
	execvp(argv[0], argv);
	_exit(127);
}

pid_t capture_spawn_at(char *const *argv, const char *cwd, int out_fd, int err_fd)
{
	pid_t pid = fork();
	if (pid != 0)
		return pid;
	int devnull = open("/dev/null", O_RDONLY);
	if (devnull >= 0)
		dup2(devnull, STDIN_FILENO);
	if (out_fd >= 0 && out_fd != STDOUT_FILENO)
		dup2(out_fd, STDOUT_FILENO);
	if (err_fd >= 0 && err_fd != STDERR_FILENO)
		dup2(err_fd, STDERR_FILENO);
	if (cwd && chdir(cwd) != 0) {
		/* stays in the caller's directory: only relative paths among the
		 * flags (a profile, an ignore list) would notice */
	}
	execvp(argv[0], argv);
	_exit(127);
}

static int decode(int st)
{
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return 127;
}

int capture_wait(pid_t pid)
{
	if (pid < 0)
		return 127;
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return 127;
	return decode(st);
}

int capture_wait_any(pid_t *pid)
{
	int st;
	while ((*pid = waitpid(-1, &st, 0)) < 0)
		if (errno != EINTR)
			return 127;
	return decode(st);
}

int capture_run_collect(char *const *argv, char **text)
{
	FILE *tmp = tmpfile();
	if (!tmp) {
		if (text)
			*text = NULL;
		return 127;
	}
	int fd = fileno(tmp);
	int devnull = open("/dev/null", O_RDONLY);
	pid_t pid = fork();
	if (pid == 0) {
		if (devnull >= 0)
			dup2(devnull, STDIN_FILENO);
		dup2(fd, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
		execvp(argv[0], argv);
		_exit(127);
	}
	if (devnull >= 0)
		close(devnull);
	int status = capture_wait(pid);
	if (text) {
		long n = ftell(tmp);
		if (n < 0)
			n = 0;
		char *buf = xmalloc((size_t)n + 1);
		rewind(tmp);
		size_t got = fread(buf, 1, (size_t)n, tmp);
		buf[got] = 0;
		*text = buf;
	}
	fclose(tmp);
	return status;
}
