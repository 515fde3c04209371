/* bsearch_cmds.c — a command interpreter: each script line is split into
 * words, the command is found with bsearch(3) in a table sorted by name
 * ({name, handler} entries), and its handler is called; names missing from
 * the table are tried in a short alias table, searched linearly.
 *
 * Covers: a function pointer reached through bsearch (it returns a pointer
 * into the table, so the site gets every handler of that table and of no
 * other); a second table of the same entry type whose handlers stay out of
 * the first site (cmd_version is only an alias). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "observe.h"

#define MAXARGS 8

struct command {
	const char *name;
	int (*run)(int argc, char **argv);
};

static long acc;

static int cmd_add(int argc, char **argv)
{
	OBSERVE_TARGET();
	for (int i = 1; i < argc; i++)
		acc += atol(argv[i]);
	return 0;
}

static int cmd_help(int argc, char **argv)
{
	OBSERVE_TARGET();
	(void)argc, (void)argv;
	puts("add help list quit rm");
	return 0;
}

static int cmd_list(int argc, char **argv)
{
	OBSERVE_TARGET();
	(void)argc, (void)argv;
	printf("acc = %ld\n", acc);
	return 0;
}

static int cmd_quit(int argc, char **argv)
{
	OBSERVE_TARGET();
	(void)argv;
	return argc > 1 ? atoi(argv[1]) : -1;
}

static int cmd_rm(int argc, char **argv)
{
	OBSERVE_TARGET();
	(void)argv;
	acc = argc > 1 ? 0 : acc;
	return 0;
}

static int cmd_version(int argc, char **argv)
{
	OBSERVE_TARGET();
	(void)argc, (void)argv;
	puts("cmds 1.0");
	return 0;
}

/* Sorted by name, for bsearch. */
static const struct command commands[] = {
	{"add", cmd_add},
	{"help", cmd_help},
	{"list", cmd_list},
	{"quit", cmd_quit},
	{"rm", cmd_rm},
};

static const struct command aliases[] = {
	{"ls", cmd_list},
	{"exit", cmd_quit},
	{"-v", cmd_version},
};

static int cmp_command(const void *key, const void *elem)
{
	OBSERVE_TARGET();
	return strcmp(key, ((const struct command *)elem)->name);
}

static int execute(int argc, char **argv)
{
	const struct command *cmd = bsearch(argv[0], commands, sizeof commands / sizeof commands[0],
	                                    sizeof commands[0], cmp_command);
	if (cmd)
		return ICALL(cmd->run(argc, argv)); /* @r0: cmd_add cmd_help cmd_list cmd_quit cmd_rm */
	for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
		if (strcmp(aliases[i].name, argv[0]) == 0)
			return ICALL(aliases[i].run(argc, argv)); /* @r0: cmd_list cmd_quit cmd_version */
	fprintf(stderr, "%s: unknown command\n", argv[0]);
	return 1;
}

const char *script[] = {"add 2 3", "help", "add 10", "ls", "rm all", "list", "-v", "exit 0"};

int main(void)
{
	int status = 0;

	for (size_t i = 0; i < sizeof script / sizeof script[0] && status >= 0; i++) {
		char line[64], *argv[MAXARGS];
		int argc = 0;

		snprintf(line, sizeof line, "%s", script[i]);
		for (char *w = strtok(line, " "); w && argc < MAXARGS; w = strtok(NULL, " "))
			argv[argc++] = w;
		if (argc == 0)
			continue;
		status = execute(argc, argv);
		if (strcmp(argv[0], "quit") == 0 || strcmp(argv[0], "exit") == 0)
			break;
	}
	return status < 0 ? 0 : status;
}
