/* dlsym_commands.c — a shell whose commands are found by name at run time:
 * "cmd_" plus the word typed is looked up with dlsym(3) in the program
 * itself (RTLD_DEFAULT, and a handle from dlopen(NULL)), and the help
 * text is found by a constant name. (A lookup in a library loaded from a
 * file, which finds nothing in the program, is tests/pta/test_andersen.c's:
 * it cannot run here.)
 *
 * Covers: symbol lookups (pta/andersen.h, "symbols"). A name computed at
 * run time may find any externally visible function of the program, so R0
 * at those calls is every exported function of the call's IR type, void
 * (i32): cmd_add, cmd_sub, emit_help, and report_count, whose unsigned
 * parameter is an i32 as well (main's type differs). The static
 * cmd_secret, whose address is taken for `builtin`, has no dynamic symbol
 * and is not found. A constant name finds exactly that function.
 * The test links the executable with -rdynamic, as a program that looks
 * itself up must be. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include "observe.h"

typedef void (*cmd_fn)(int arg);

static int total;

/* The names looked up are C names: compiled as C++ (tests/cxx), the
 * exported functions keep them. */
#ifdef __cplusplus
extern "C" {
#endif

void cmd_add(int arg)
{
	OBSERVE_TARGET();
	total += arg;
}

void cmd_sub(int arg)
{
	OBSERVE_TARGET();
	total -= arg;
}

void emit_help(int arg)
{
	OBSERVE_TARGET();
	printf("commands: add sub (%d)\n", arg);
}

void report_count(unsigned n)
{
	printf("%u commands\n", n);
}

#ifdef __cplusplus
}
#endif

static void cmd_secret(int arg)
{
	OBSERVE_TARGET();
	total *= arg;
}

static cmd_fn builtin = cmd_secret;

static cmd_fn find(void *handle, const char *word)
{
	char name[64];
	snprintf(name, sizeof name, "cmd_%s", word);
	return (cmd_fn)dlsym(handle, name);
}

int main(void)
{
	static const char *const script[] = {"add", "add", "sub", "nosuch"};
	void *self = dlopen(NULL, RTLD_NOW);
	unsigned n = 0;
	for (size_t i = 0; i < sizeof script / sizeof script[0]; i++) {
		cmd_fn run = find(RTLD_DEFAULT, script[i]);
		if (run)
			ICALL(run((int)i + 1)); /* @r0: cmd_add cmd_sub emit_help report_count */
		cmd_fn again = find(self, script[i]);
		if (again)
			ICALL(again(1)); /* @r0: cmd_add cmd_sub emit_help report_count */
		n += run != NULL;
	}
	cmd_fn help = (cmd_fn)dlsym(RTLD_DEFAULT, "emit_help");
	if (help)
		ICALL(help(total)); /* @r0: emit_help */
	ICALL(builtin(2)); /* @r0: cmd_secret */
	report_count(n);
	printf("total %d\n", total);
	return 0;
}
