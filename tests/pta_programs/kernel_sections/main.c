/* main.c — kernel_sections' walks (see sections.h): each site below gets
 * every function the program places in the sections its walk bounds, and
 * none placed elsewhere: late_hook sits in section "late_hooks", which no
 * walk reads, and unused_param's table is an ordinary array. */
#include <stdio.h>
#include <string.h>
#include "../observe.h"
#include "sections.h"

static int boot_hook(void)
{
	OBSERVE_TARGET();
	return 1;
}
HOOK(boot_hook);

static int quiet_param(const char *value)
{
	OBSERVE_TARGET();
	return (int)strlen(value);
}
PARAM("quiet", quiet_param);

int early_level(void)
{
	OBSERVE_TARGET();
	return 10;
}
LEVEL_CALL(0, early_level);

/* An entry in a form facet does not read (a scaled offset): counted by
 * facet stats as a data directive not understood, in a section no walk reads. */
asm(".pushsection .note.kernel_sections, \"a\"\n\t.quad early_level + 0x10 * 2\n\t.popsection");

static int late_hook(void)
{
	OBSERVE_TARGET();
	return 100;
}
__attribute__((used, section("late_hooks"))) static hook_fn late_entry = late_hook;

static int unused_param(const char *value)
{
	OBSERVE_TARGET();
	return value[0];
}
const struct param unused_table[] = {{"unused", unused_param}};

int run_hooks(void)
{
	int sum = 0;
	for (hook_fn *h = __start_hooks; h < __stop_hooks; h++)
		ICALL(sum += (*h)()); /* @r0: boot_hook net_hook disk_hook */
	return sum;
}

int apply_params(const char *value)
{
	int sum = 0;
	for (const struct param *p = __start_params; p < __stop_params; p++)
		ICALL(sum += p->handler(value)); /* @r0: quiet_param debug_param */
	return sum;
}

static hook_fn from_entry(const int *entry)
{
	return (hook_fn)((unsigned long)entry + *entry);
}

static const int *const levels[] = {__lvlcall0_start, __lvlcall1_start, __lvlcall_end};

int run_levels(void)
{
	int sum = 0;
	for (int l = 0; l < 2; l++)
		for (const int *e = levels[l]; e < levels[l + 1]; e++)
			ICALL(sum += from_entry(e)()); /* @r0: early_level core_level device_level */
	return sum;
}

int main(void)
{
	int hooks = run_hooks(), params = apply_params("on"), levels_sum = run_levels();
	printf("%d %d %d\n", hooks, params, levels_sum);
	/* Keep the unwalked tables alive and out of every site. */
	return late_entry == 0 || unused_table[0].handler == 0;
}
