/* Proof labels through collapsed objects (issue 21.1): the points-to
 * analysis gives a collapsed object one location for all its fields, so
 * every function stored anywhere in it reaches every call that reads it.
 *
 *   struct ops o (a local of main, OBJECT local): o.open = op_open and
 *   o.close = op_close are stored; `(fnp *)po + (argc & 1)` indexes it by a
 *   variable (COLLAPSE local), so it collapses, holding op_open, op_close.
 *     main -> *slot (SITE slot): R0 {op_open, op_close}, both from the
 *       collapsed o; no field is recovered, R± keeps R0: both premised
 *       (collapsed), so reach main open_sink is not proven.
 *     main -> po->open (SITE open): R0 {op_open, op_close} (the collapse);
 *       field ops.open holds op_open by a store: R± keeps op_open,
 *       premised (collapsed); op_close is pruned.
 *   struct ops table[2] (a global, OBJECT table), initialised with
 *   {t_open, t_close}, {u_open, u_close}; `(fnp *)table + (argc & 3)`
 *   indexes it by a variable in steps of one pointer, half an element
 *   (COLLAPSE table), so it collapses, holding all four (table[k] alone
 *   would not: a stride of whole elements folds an array, keeping .open
 *   and .close apart).
 *     main -> table[k].open (SITE table): R0 the four (the collapse); field
 *       ops.open's initializers name t_open and u_open (witnesses), so R±
 *       keeps them premise-free although the object collapsed.
 *   main -> direct_sink (direct): proven. */
#include <stdio.h>

typedef int (*fnp)(int);

struct ops {
	fnp open;
	fnp close;
};

__attribute__((noinline)) int open_sink(int x) { return printf("open %d\n", x); }
__attribute__((noinline)) int close_sink(int x) { return printf("close %d\n", x); }
__attribute__((noinline)) int table_sink(int x) { return printf("table %d\n", x); }
__attribute__((noinline)) int direct_sink(int x) { return printf("direct %d\n", x); }
__attribute__((noinline)) int op_open(int x) { return open_sink(x + 1); }
__attribute__((noinline)) int op_close(int x) { return close_sink(x + 2); }
__attribute__((noinline)) int t_open(int x) { return table_sink(x + 3); }
__attribute__((noinline)) int t_close(int x) { return table_sink(x + 4); }
__attribute__((noinline)) int u_open(int x) { return table_sink(x + 5); }
__attribute__((noinline)) int u_close(int x) { return table_sink(x + 6); }

struct ops table[2] = {{t_open, t_close}, {u_open, u_close}}; /* OBJECT table */

int main(int argc, char **argv)
{
	(void)argv;
	struct ops o; /* OBJECT local */
	o.open = op_open;
	o.close = op_close;
	struct ops *volatile po = &o;
	fnp *slot = (fnp *)po + (argc & 1); /* COLLAPSE local */
	int r = (*slot)(argc); /* SITE slot */
	r += po->open(argc); /* SITE open */
	int k = argc > 2;
	fnp *tslot = (fnp *)table + (argc & 3); /* COLLAPSE table */
	r += *tslot == direct_sink;
	r += table[k].open(argc); /* SITE table */
	return r + direct_sink(argc);
}
