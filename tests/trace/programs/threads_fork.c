/* threads_fork.c — indirect calls from four threads, from a forked child
 * before it execs, and from the image it execs (this program again, with
 * argument "exec"). Function pointers are volatile so -O2 keeps the calls
 * indirect.
 *
 * Per run: the parent writes one record before fork (the runtime flushes
 * there) and one at exit, the child one before execv (the instrumentation
 * flushes before exec), the exec'd image one at exit: four records.
 * @trace-records: 4
 *
 * Expected counts (per run), from the loops below: each of 4 threads makes
 * 1000 calls alternating twice/square by (i + id) % 2, i.e. 500 + 500 each:
 * 2000 calls to twice and 2000 to square at the worker's site. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int twice(int x)
{
	return 2 * x;
}

static int square(int x)
{
	return x * x;
}

static int negate(int x)
{
	return -x;
}

static int in_child(int x)
{
	return x + 1;
}

static int after_exec(int x)
{
	return x - 1;
}

static int (*volatile table[2])(int) = {twice, square};
static int (*volatile child_fn)(int) = in_child;
static int (*volatile exec_fn)(int) = after_exec;
static int (*volatile parent_fn)(int) = negate;

static void *worker(void *arg)
{
	long id = (long)arg, sum = 0;
	for (int i = 0; i < 1000; i++)
		sum += table[(i + id) % 2](i); /* @trace: twice=2000 square=2000 */
	return (void *)sum;
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "exec") == 0)
		return exec_fn(1) == 0 ? 0 : 1; /* @trace: after_exec=1 */
	pthread_t t[4];
	for (long i = 0; i < 4; i++)
		if (pthread_create(&t[i], NULL, worker, (void *)i) != 0)
			return 1;
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	pid_t pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0) {
		int v = child_fn(3); /* @trace: in_child=1 */
		char *args[] = {argv[0], "exec", NULL};
		if (v == 4)
			execv("/proc/self/exe", args);
		_exit(1);
	}
	int status = 0;
	waitpid(pid, &status, 0);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return 1;
	return parent_fn(0); /* @trace: negate=1 */
}
