/* const_table.c — a C `const` table (LLVM's `constant` global, kept in
 * .rodata) is never written: a store through a pointer that may reach it
 * writes only the writable memory among its targets.
 *
 * A filter chain keeps its stages in a mutable table and falls back to a
 * const table of defaults; stage_for picks either, so the pointer it
 * returns may point to both. install() stores a custom handler through
 * that pointer, which at run time is always the mutable table (writing the
 * const one would fault). The const table's slot therefore still holds
 * its initializer alone: the call through it reaches default_run, not the
 * custom handler; the mutable table's call reaches both handlers stored
 * there. The same at -O0 and -O2. */
#include <stdio.h>
#include "observe.h"

struct stage {
	const char *name;
	void (*run)(int *acc);
};

static void default_run(int *acc)
{
	OBSERVE_TARGET();
	*acc += 1;
}

static void user_run(int *acc)
{
	OBSERVE_TARGET();
	*acc += 2;
}

static void custom_run(int *acc)
{
	OBSERVE_TARGET();
	*acc += 3;
}

static const struct stage defaults = {"default", default_run};
static struct stage user = {"user", user_run};

static volatile int use_defaults;
static const struct stage *volatile fallback = &defaults;

__attribute__((noinline)) static struct stage *stage_for(int defaults_wanted)
{
	return defaults_wanted ? (struct stage *)&defaults : &user;
}

__attribute__((noinline)) static void install(int defaults_wanted, void (*run)(int *acc))
{
	if (!defaults_wanted)   /* never writes the const table */
		stage_for(defaults_wanted)->run = run;
}

__attribute__((noinline)) static void run_stage(const struct stage *s, int *acc)
{
	ICALL(s->run(acc)); /* @r0: default_run user_run custom_run */
}

int main(void)
{
	int acc = 0;
	install(use_defaults, custom_run);
	run_stage(stage_for(use_defaults + 1), &acc);
	run_stage(stage_for(use_defaults), &acc);
	const struct stage *d = fallback;
	ICALL(d->run(&acc)); /* @r0: default_run */
	ICALL(user.run(&acc)); /* @r0: user_run custom_run */
	printf("%s %s %d\n", defaults.name, user.name, acc);
	return 0;
}
