/* signal_atexit.c — a daemon's lifecycle hooks: a SIGUSR1 handler is
 * installed with signal(2), then a second one that chains to the handler
 * it replaced (the value signal returned); an exit hook registered with
 * atexit(3) flushes a log through a global sink pointer.
 *
 * Covers: signal and atexit handler registration.  The handlers are called
 * by the kernel and by libc, which no site of ours sees; our sites are the
 * chained call (its callee comes out of signal's return value) and the
 * call inside the exit hook (which runs only because atexit calls it).
 *
 * The chained site: how a model of signal() describes its return value
 * decides the set — any handler ever passed to signal (on_usr1,
 * chain_usr1, on_term), or only the handler installed before (on_usr1); it
 * must hold on_usr1 and can hold nothing but void (i32) functions whose
 * address is taken.  Hence @r0-superset-of-observed with an upper bound. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "observe.h"

static volatile sig_atomic_t usr1_count;
static void (*prev_usr1)(int sig);
static void (*log_sink)(const char *msg);
static char log_buf[128];

static void on_usr1(int sig)
{
	OBSERVE_TARGET();
	(void)sig;
	usr1_count++;
}

static void chain_usr1(int sig)
{
	OBSERVE_TARGET();
	usr1_count += 10;
	if (prev_usr1 != SIG_DFL && prev_usr1 != SIG_IGN && prev_usr1 != SIG_ERR)
		ICALL(prev_usr1(sig)); /* @r0-superset-of-observed @r0-within: chain_usr1 on_usr1 on_term */
}

static void on_term(int sig)
{
	OBSERVE_TARGET();
	(void)sig;
	_Exit(3);
}

static void sink_stdout(const char *msg)
{
	OBSERVE_TARGET();
	fputs(msg, stdout);
}

static void sink_null(const char *msg)
{
	OBSERVE_TARGET();
	(void)msg;
}

static void flush_log(void)
{
	OBSERVE_TARGET();
	ICALL(log_sink(log_buf)); /* @r0: sink_null sink_stdout */
}

int main(void)
{
	void (*term_handler)(int) = on_term;

	log_sink = getenv("QUIET") ? sink_null : sink_stdout;
	if (atexit(flush_log) != 0)
		return 1;
	if (signal(SIGUSR1, on_usr1) == SIG_ERR)
		return 1;
	raise(SIGUSR1);
	prev_usr1 = signal(SIGUSR1, chain_usr1);
	raise(SIGUSR1);
	if (getenv("NO_TERM") == NULL)
		term_handler = SIG_DFL;
	signal(SIGTERM, term_handler);
	snprintf(log_buf, sizeof log_buf, "usr1 count %d\n", (int)usr1_count);
	return 0;
}
