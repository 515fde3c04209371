/* threads.c — pthread_create with a static worker, and a spawn() wrapper
 * declared with clang's callback attribute, so LLVM's call graph gets a
 * callback edge from spawn()'s caller to the worker it hands over.
 *
 * Usage: threads [N]   (N workers count to 1000 each; default 4) */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_THREADS 8

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long counter;

struct job {
	int id;
	int iterations;
};

__attribute__((callback(fn, arg)))
int spawn(pthread_t *t, void *(*fn)(void *), void *arg);

/* address_taken follows LLVM's CallGraph rule (Function::hasAddressTaken with
 * callback uses ignored): at -O0 count_worker is only passed as the callback
 * argument of spawn(), declared with the callback attribute, so it is not
 * address-taken there; at -O2 spawn is inlined and its pthread_create call
 * passes count_worker as a plain argument. */
static void *count_worker(void *arg) /* @address-taken(O2) */
{
	struct job *j = arg;
	for (int i = 0; i < j->iterations; i++) {
		pthread_mutex_lock(&lock); /* @call pthread_mutex_lock */
		counter++;
		pthread_mutex_unlock(&lock); /* @call pthread_mutex_unlock */
	}
	return NULL;
}

static void *hello_worker(void *arg) /* @address-taken */
{
	printf("hello from job %d\n", ((struct job *)arg)->id); /* @call printf */
	return arg;
}

int spawn(pthread_t *t, void *(*fn)(void *), void *arg)
{
	int rc = pthread_create(t, NULL, fn, arg); /* @call pthread_create */
	if (rc != 0)
		fprintf(stderr, "threads: pthread_create failed (%d)\n", rc); /* @call fprintf */
	return rc;
}

int main(int argc, char **argv)
{
	pthread_t tids[MAX_THREADS], greeter;
	struct job jobs[MAX_THREADS], hello = {0, 0};
	int n = argc > 1 ? atoi(argv[1]) : 4; /* @inline-call atoi */

	if (n < 1 || n > MAX_THREADS)
		n = 4;
	if (pthread_create(&greeter, NULL, hello_worker, &hello) != 0) /* @call pthread_create */
		return 1;
	for (int i = 0; i < n; i++) {
		jobs[i].id = i + 1;
		jobs[i].iterations = 1000;
		if (spawn(&tids[i], count_worker, &jobs[i]) != 0) /* @inline-call spawn */
			return 1;
	}
	for (int i = 0; i < n; i++)
		pthread_join(tids[i], NULL); /* @call pthread_join */
	pthread_join(greeter, NULL); /* @call pthread_join */
	printf("counter = %ld\n", counter); /* @call printf */
	return 0;
}
