/* The slots of an environment: a fixed array, or a dynamic one once it
 * grows (oniguruma's MemEnv: PARSEENV_MEMENV(env)[pos] = ...[i]). The
 * base of every access is a select of the two, typed alike by the debug
 * info (Slot[4] and Slot *); optimised IR names the struct only in the
 * GEP, with the linker's merged name. */
#include <stddef.h>

typedef struct {
	void *data;
	int (*fn)(long v);
} Slot;

typedef struct {
	int n;
	Slot fixed[4];
	Slot *dyn;
} Env;

#define ENV_SLOTS(e) ((e)->dyn != NULL ? (e)->dyn : (e)->fixed)

static int slot_inc(long v) { return (int)v + 1; }
static int slot_dec(long v) { return (int)v - 1; }

struct st_table;
int table_hash(const struct st_table *t, long key);
extern const struct st_hash_type type_num, type_ptr;

__attribute__((noinline)) void env_compact(Env *e, const int *keep)
{
	for (int i = 1, pos = 1; i < e->n; i++)
		if (keep[i])
			ENV_SLOTS(e)[pos++] = ENV_SLOTS(e)[i];
}

__attribute__((noinline)) int env_call(Env *e, int i, long v)
{
	return ENV_SLOTS(e)[i].fn(v); /* SITE slot */
}

int main(int argc, char **argv)
{
	(void)argv;
	Env e = {argc, {{NULL, slot_inc}, {NULL, slot_dec}, {NULL, slot_inc}, {NULL, slot_dec}}, NULL};
	int keep[4] = {1, argc > 1, 1, argc > 2};
	env_compact(&e, keep);
	const void *tables[2] = {&type_num, &type_ptr};
	struct { const void *type; long n; } t = {tables[argc % 2], 0};
	return env_call(&e, argc % 4, argc) + table_hash((const struct st_table *)&t, argc);
}

/* The slots' functions, whatever name the linker gave the IR type: the
 * initializer's copy fills all four elements of `fixed`, and the copy in
 * env_compact moves them between elements.
 // EXPECT slot field: Slot.fn
 // EXPECT slot r0: slot_dec slot_inc
 // EXPECT slot rpm: slot_dec slot_inc
 // EXPECT slot decision slot_dec: add supported Add-Store pi_bind
 */
