/* statics.c — static functions, some address-taken and some not: a tiny
 * command registry (handlers stored in a table, called through it), an
 * atexit hook, and static helpers that are only ever called directly.
 *
 * Usage: statics [COMMAND [ARG]]   (default: runs "help" then "count 3") */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int (*handler_fn)(const char *arg);

struct command {
	const char *name;
	handler_fn run;
};

#define MAX_COMMANDS 8

static struct command registry[MAX_COMMANDS];
static int n_commands;
static int calls_made;

static int streq(const char *a, const char *b)
{
	return strcmp(a, b) == 0; /* @call strcmp */
}

static void register_command(const char *name, handler_fn run)
{
	if (n_commands < MAX_COMMANDS) {
		registry[n_commands].name = name;
		registry[n_commands].run = run;
		n_commands++;
	}
}

static const struct command *lookup(const char *name)
{
	for (int i = 0; i < n_commands; i++)
		if (streq(registry[i].name, name)) /* @inline-call streq */
			return &registry[i];
	return NULL;
}

static int cmd_help(const char *arg) /* @address-taken */
{
	(void)arg;
	for (int i = 0; i < n_commands; i++)
		printf("  %s\n", registry[i].name); /* @call printf */
	return 0;
}

static int cmd_count(const char *arg) /* @address-taken */
{
	int n = arg ? atoi(arg) : 1; /* @inline-call atoi */
	for (int i = 1; i <= n; i++)
		printf("%d\n", i); /* @call printf */
	return n;
}

static int cmd_fail(const char *arg) /* @address-taken */
{
	fprintf(stderr, "fail: %s\n", arg ? arg : "(no argument)"); /* @call fprintf */
	return -1;
}

static void report_calls(void) /* @address-taken */
{
	fprintf(stderr, "statics: %d command(s) run\n", calls_made); /* @call fprintf */
}

static int run(const char *name, const char *arg)
{
	const struct command *c = lookup(name); /* @inline-call lookup */
	if (!c) {
		fprintf(stderr, "statics: unknown command '%s'\n", name); /* @call fprintf */
		return 1;
	}
	calls_made++;
	return c->run(arg) < 0; /* @icall c->run */
}

int main(int argc, char **argv)
{
	atexit(report_calls); /* @call atexit */
	register_command("help", cmd_help); /* @call(O0) register_command */
	register_command("count", cmd_count); /* @call(O0) register_command */
	register_command("fail", cmd_fail); /* @call(O0) register_command */

	if (argc > 1)
		return run(argv[1], argc > 2 ? argv[2] : NULL); /* @inline-call run */
	int status = run("help", NULL); /* @inline-call run */
	status |= run("count", "3"); /* @inline-call run */
	return status;
}
