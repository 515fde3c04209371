/* guard.c — see guard.h. Signal-handler code here uses only write, _exit
 * and plain loads: it runs after LLVM's state is already broken. */
#include "ir/guard.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <llvm-c/ErrorHandling.h>

static const char *volatile guard_path;
static const char *volatile guard_what;
static volatile int guard_fd = 2;
static const int crash_signals[] = {SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL, SIGTRAP};
enum { N_CRASH = sizeof crash_signals / sizeof *crash_signals };
static struct sigaction saved[N_CRASH];
static char altstack[64 * 1024];
static stack_t saved_stack;
static int depth;   /* guard_begin calls not yet ended */
static struct sigaction saved_cpu;
static double cpu_base = GUARD_CPU_BASE, cpu_per_mib = GUARD_CPU_PER_MIB;
static double named_mib;   /* the files guards have named (a first file named again by the next
                              guard counts again: more budget, never less) */
static char budget_text[32];   /* "N.N s", the budget; written before the timer can fire */

static void put(const char *s)
{
	size_t n = strlen(s);
	while (n > 0) {
		ssize_t w = write(guard_fd, s, n);
		if (w <= 0)
			return;
		s += w;
		n -= (size_t)w;
	}
}

static void report(const char *cause, const char *detail)
{
	put("facet: ");
	put(guard_path ? guard_path : "(input)");
	put(": ");
	put(guard_what ? guard_what : "LLVM failed");
	put(": ");
	put(cause);
	if (detail) {
		put(": ");
		put(detail);
	}
	put("\n");
}

static void on_fatal(const char *reason)
{
	report("LLVM fatal error", reason);
	_exit(1);
}

static void on_crash(int sig)
{
	char num[16];
	int k = 0;
	char rev[16];
	for (int v = sig; v > 0 && k < 15; v /= 10)
		rev[k++] = (char)('0' + v % 10);
	int j = 0;
	while (k > 0)
		num[j++] = rev[--k];
	num[j] = 0;
	report(sig == SIGABRT ? "LLVM aborted (corrupt input, or out of memory)" : "LLVM crashed (corrupt input), signal",
	       sig == SIGABRT ? NULL : num);
	_exit(1);
}

static void on_cpu(int sig)
{
	(void)sig;
	report("LLVM did not finish (a corrupt input can make its reader loop); CPU budget spent", budget_text);
	_exit(1);
}

/* Arms the CPU timer for what is left of the budget plus extra seconds. */
static void extend_budget(double extra)
{
	struct itimerval left;
	double now_left = 0;
	if (getitimer(ITIMER_VIRTUAL, &left) == 0)
		now_left = (double)left.it_value.tv_sec + (double)left.it_value.tv_usec / 1e6;
	double total = now_left + extra;
	struct itimerval t = {{0, 0}, {(time_t)total, (suseconds_t)((total - (double)(time_t)total) * 1e6)}};
	if (t.it_value.tv_sec == 0 && t.it_value.tv_usec == 0)
		t.it_value.tv_usec = 1;
	snprintf(budget_text, sizeof budget_text, "%.1f s", total);
	setitimer(ITIMER_VIRTUAL, &t, NULL);
}

static double mib_of(const char *path)
{
	struct stat st;
	return path && stat(path, &st) == 0 ? (double)st.st_size / (1024.0 * 1024.0) : 0;
}

void guard_set_cpu_budget(double base_seconds, double per_mib_seconds)
{
	cpu_base = base_seconds;
	cpu_per_mib = per_mib_seconds;
}

void guard_set_fd(int fd)
{
	guard_fd = fd;
}

void guard_set_path(const char *path)
{
	if (depth > 0 && path && path != guard_path) {   /* the next input: its share of the budget */
		double mib = mib_of(path);
		named_mib += mib;
		extend_budget(cpu_per_mib * mib);
	}
	guard_path = path;
}

void guard_begin(const char *path, const char *what)
{
	if (depth > 0) {   /* nested: a new file adds its share of the budget */
		guard_set_path(path);
		guard_what = what;
		depth++;
		return;
	}
	named_mib += mib_of(path);
	guard_path = path;
	guard_what = what;
	depth++;
	struct sigaction cpu;
	memset(&cpu, 0, sizeof cpu);
	cpu.sa_handler = on_cpu;
	cpu.sa_flags = SA_ONSTACK;
	sigemptyset(&cpu.sa_mask);
	sigaction(SIGVTALRM, &cpu, &saved_cpu);
	LLVMInstallFatalErrorHandler(on_fatal);
	struct itimerval off = {{0, 0}, {0, 0}};
	setitimer(ITIMER_VIRTUAL, &off, NULL);
	extend_budget(cpu_base + cpu_per_mib * named_mib);
	stack_t ss = {.ss_sp = altstack, .ss_size = sizeof altstack, .ss_flags = 0};
	sigaltstack(&ss, &saved_stack);
	for (int i = 0; i < N_CRASH; i++) {
		struct sigaction sa;
		memset(&sa, 0, sizeof sa);
		sa.sa_handler = on_crash;
		sa.sa_flags = SA_ONSTACK | SA_RESETHAND;
		sigemptyset(&sa.sa_mask);
		sigaction(crash_signals[i], &sa, &saved[i]);
	}
}

void guard_end(void)
{
	if (depth == 0 || --depth > 0)
		return;
	struct itimerval off = {{0, 0}, {0, 0}};
	setitimer(ITIMER_VIRTUAL, &off, NULL);
	sigaction(SIGVTALRM, &saved_cpu, NULL);
	for (int i = 0; i < N_CRASH; i++)
		sigaction(crash_signals[i], &saved[i], NULL);
	sigaltstack(&saved_stack, NULL);
	LLVMResetFatalErrorHandler();
	guard_path = NULL;
	guard_what = NULL;
}

bool guard_run_child(bool (*fn)(void *arg, facet_error *err), void *arg, const char *path, facet_error *err)
{
	int p[2];
	if (pipe(p) != 0) {
		error_set(err, "%s: cannot start the isolated reader: %s", path, strerror(errno));
		return false;
	}
	fflush(NULL);   /* the child must not repeat buffered output */
	pid_t pid = fork();
	if (pid < 0) {
		error_set(err, "%s: cannot start the isolated reader: %s", path, strerror(errno));
		close(p[0]);
		close(p[1]);
		return false;
	}
	if (pid == 0) {
		close(p[0]);
		guard_set_fd(p[1]);
		facet_error e = {0};
		bool ok = fn(arg, &e);
		if (!ok) {
			guard_fd = p[1];
			put(e.set ? e.msg : "failed without a message");
		}
		_exit(ok ? 0 : 1);
	}
	close(p[1]);
	char msg[sizeof err->msg];
	size_t n = 0;
	for (;;) {
		ssize_t got = read(p[0], msg + n, sizeof msg - 1 - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		n += (size_t)got;
		if (n == sizeof msg - 1) {   /* keep draining so the child never blocks */
			char sink[256];
			while (read(p[0], sink, sizeof sink) > 0)
				;
			break;
		}
	}
	close(p[0]);
	msg[n] = 0;
	while (n > 0 && msg[n - 1] == '\n')
		msg[--n] = 0;
	int status = 0;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return true;
	if (n > 0)
		error_set(err, "%s", msg);
	else if (WIFSIGNALED(status))
		error_set(err, "%s: LLVM's reader died (signal %d) reading it; the file is corrupt or was replaced",
		          path, WTERMSIG(status));
	else
		error_set(err, "%s: the isolated reader failed (exit %d)", path, WEXITSTATUS(status));
	return false;
}
