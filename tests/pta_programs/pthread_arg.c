/* pthread_arg.c — a tiny thread pool: each task carries its work function
 * and a report callback and is handed to a worker thread through
 * pthread_create's void * argument; one more thread gets a bare function
 * pointer (cast to void *) as its argument and calls it.
 *
 * Covers: a function pointer passed through pthread_create's arg.  The
 * worker runs only because pthread_create calls it, and its parameter
 * holds whatever pthread_create was given.  The tasks array is indexed by
 * a variable, which may merge its fields, but work (i64 (i64)) and report
 * (void (ptr)) differ in IR type, so R0 does not depend on that. */
#include <pthread.h>
#include <stdio.h>
#include "observe.h"

struct task {
	const char *name;
	long (*work)(long n);
	long input, result;
	void (*report)(const struct task *t);
};

static long sum_to(long n)
{
	OBSERVE_TARGET();
	long s = 0;
	for (long i = 1; i <= n; i++)
		s += i;
	return s;
}

static long fact_mod(long n)
{
	OBSERVE_TARGET();
	long f = 1;
	for (long i = 2; i <= n; i++)
		f = f * i % 1000003;
	return f;
}

static void report_value(const struct task *t)
{
	OBSERVE_TARGET();
	printf("%s(%ld) = %ld\n", t->name, t->input, t->result);
}

static void report_short(const struct task *t)
{
	OBSERVE_TARGET();
	printf("%s ok\n", t->name);
}

static int flushed;

static void flush_stats(void)
{
	OBSERVE_TARGET();
	flushed = 1;
}

static void *worker(void *arg)
{
	OBSERVE_TARGET();
	struct task *t = arg;
	t->result = ICALL(t->work(t->input)); /* @r0: fact_mod sum_to */
	return NULL;
}

static void *run_hook(void *arg)
{
	OBSERVE_TARGET();
	void (*hook)(void) = (void (*)(void))arg;
	ICALL(hook()); /* @r0: flush_stats */
	return NULL;
}

int main(void)
{
	struct task tasks[] = {
		{"sum_to", sum_to, 1000, 0, report_value},
		{"fact_mod", fact_mod, 20, 0, report_short},
	};
	pthread_t tid[3];

	for (int i = 0; i < 2; i++)
		if (pthread_create(&tid[i], NULL, worker, &tasks[i]) != 0)
			return 1;
	if (pthread_create(&tid[2], NULL, run_hook, (void *)flush_stats) != 0)
		return 1;
	for (int i = 0; i < 3; i++)
		pthread_join(tid[i], NULL);
	for (int i = 0; i < 2; i++)
		ICALL(tasks[i].report(&tasks[i])); /* @r0: report_short report_value */
	return flushed ? 0 : 1;
}
