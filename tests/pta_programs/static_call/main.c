/* main.c — static_call: calls through the kernel's patchable trampolines
 * (static_call.h), at run time and in R0.
 *
 * A trampoline goes to its initial function (the jmp module asm writes) and
 * to every function patched in by static_call_update, and nowhere else:
 *   - compute starts at compute_plain; compute_fast is patched in through
 *     a wrapper whose parameter carries it (set_compute), and both entries
 *     of `modes` through a variable index (the analysis cannot tell which);
 *   - hash starts at hash_a and is never updated: same IR type as compute,
 *     so only keeping the two trampolines apart keeps compute's functions out;
 *   - notify is DEFINE_STATIC_CALL_NULL (`ret` until patched: no initial
 *     target, and a call before the first update would reach nothing, so
 *     none is made): notify_log is patched in, then NULL or notify_count
 *     by a select;
 *   - a tracepoint-style call: tp_func_event starts at event_iter and is
 *     patched to probe_a by tp_update through the trampoline's address kept
 *     in a struct (`tp->static_call_tramp`, as kernel/tracepoint.c does):
 *     the patcher's argument is a pointer, not the trampoline named;
 *   - compute_spare has compute's type and its address is taken (a table
 *     called below), but it is never patched in: in no trampoline's set.
 * Targets are not static: the trampoline's asm names its initial function. */
#include <stdio.h>

#include "../observe.h"
#include "static_call.h"

int compute_plain(int x)
{
	OBSERVE_TARGET();
	return x + 1;
}
int compute_fast(int x)
{
	OBSERVE_TARGET();
	return x + 2;
}
int compute_checked(int x)
{
	OBSERVE_TARGET();
	return x + 3;
}
int compute_spare(int x)
{
	OBSERVE_TARGET();
	return x + 4;
}
int hash_a(int x)
{
	OBSERVE_TARGET();
	return x * 31;
}
void notify_log(int x)
{
	OBSERVE_TARGET();
	printf("notify %d\n", x);
}
void notify_count(int x)
{
	OBSERVE_TARGET();
	(void)x;
}

void event_iter(int x)
{
	OBSERVE_TARGET();
	(void)x;
}
void probe_a(int x)
{
	OBSERVE_TARGET();
	(void)x;
}

DEFINE_STATIC_CALL(compute, compute_plain);
DEFINE_STATIC_CALL(tp_func_event, event_iter);

struct tracepoint {
	struct static_call_key *static_call_key;
	void *static_call_tramp;
};
struct tracepoint event_tp = {&STATIC_CALL_KEY(tp_func_event), STATIC_CALL_TRAMP_ADDR(tp_func_event)};

static void tp_update(struct tracepoint *tp, void (*probe)(int))
{
	__static_call_update(tp->static_call_key, tp->static_call_tramp, probe);
}
DEFINE_STATIC_CALL(hash, hash_a);
DEFINE_STATIC_CALL_NULL(notify, notify_log);

static int (*const modes[2])(int) = {compute_fast, compute_checked};
int (*spare_table[1])(int) = {compute_spare};

static void set_compute(int (*fn)(int))
{
	static_call_update(compute, fn);
}

int main(int argc, char **argv)
{
	(void)argv;
	int sum = 0;
	ICALL(sum += static_call(compute)(1)); /* @r0: compute_plain compute_fast compute_checked */
	set_compute(compute_fast);
	ICALL(sum += static_call(compute)(2)); /* @r0: compute_plain compute_fast compute_checked */
	static_call_update(compute, modes[argc % 2]);
	ICALL(sum += static_call(compute)(3)); /* @r0: compute_plain compute_fast compute_checked */
	ICALL(sum += static_call(hash)(4)); /* @r0: hash_a */
	static_call_update(notify, notify_log);
	ICALL(static_call(notify)(6)); /* @r0: notify_log notify_count */
	static_call_update(notify, argc > 5 ? NULL : notify_count);
	ICALL(static_call(notify)(7)); /* @r0: notify_log notify_count */
	ICALL(static_call(tp_func_event)(9)); /* @r0: event_iter probe_a */
	tp_update(&event_tp, probe_a);
	ICALL(static_call(tp_func_event)(10)); /* @r0: event_iter probe_a */
	ICALL(sum += spare_table[argc - 1](8)); /* @r0: compute_spare */
	printf("%d\n", sum);
	return 0;
}
