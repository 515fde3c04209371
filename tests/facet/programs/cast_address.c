/* A function cast to a function-pointer type where its address is taken
 * (issue 15): the cast is the program saying that the function is meant
 * for pointers of that type, though its own signature differs. Three
 * shapes, as compression libraries, interpreters and JSON processors write
 * them:
 *   - a lookup function returning a struct that starts like the parameter's
 *     (`(coder_find_fn)&enc_find`, passed to a parameter of that type);
 *   - a free procedure taking its own struct, cast to the `void (char *)`
 *     type of a deferred-free field (`(free_proc *)drop_interp`);
 *   - a table of builtins in an unprototyped generic holder
 *     (`typedef void (*cfn)()`) returning a struct, not void; the call casts
 *     the field back to the arity it needs.
 * A function whose address reaches the same place without such a cast (kept
 * in a `void *` table first, converted only where it is loaded) is no
 * evidence: Prune-Sig still refutes it. */
#pragma clang diagnostic ignored "-Wdeprecated-non-prototype"
#pragma clang diagnostic ignored "-Wcast-function-type-mismatch"
#include <stdio.h>
#include <stdlib.h>

/* ---- lookup functions returning a struct with a common prefix ---- */
struct coder { unsigned long id; int (*init)(void); };
struct enc { unsigned long id; int (*init)(void); int level; };
struct dec { unsigned long id; int (*init)(void); long memlimit; };
struct other { unsigned long id; int (*init)(void); char tag[4]; };

typedef const struct coder *(*coder_find_fn)(unsigned long id);

static int enc_init(void) { return 1; }
static int dec_init(void) { return 2; }
static const struct enc encs[] = {{1, enc_init, 6}, {2, enc_init, 9}};
static const struct dec decs[] = {{1, dec_init, 1L << 20}};
static const struct other others[] = {{7, enc_init, "x"}};

static const struct enc *enc_find(unsigned long id)
{
	for (unsigned i = 0; i < sizeof encs / sizeof *encs; i++)
		if (encs[i].id == id)
			return &encs[i];
	return NULL;
}

static const struct dec *dec_find(unsigned long id)
{
	return id == decs[0].id ? &decs[0] : NULL;
}

static const struct other *other_find(unsigned long id)
{
	return id == others[0].id ? &others[0] : NULL;
}

/* Where other_find's address is taken: a store into a data table, no cast
 * to a function-pointer type (filled and indexed at run time, so -O2 cannot
 * fold the load into a constant argument, which would look like a cast
 * where the address is taken). */
static void *finders[4];

__attribute__((noinline)) static int coder_init(unsigned long id, coder_find_fn find)
{
	const struct coder *c = find(id); /* SITE find */
	return c ? c->init() : -1;
}

/* ---- a deferred free procedure in a field ---- */
typedef void free_proc(char *block);
struct interp { int depth; char *result; };
struct ref { void *client; free_proc *proc; };

static struct ref refs[4];
static unsigned n_refs;

static void free_block(char *block) { free(block); }
static void drop_interp(struct interp *ip) { free(ip->result); free(ip); }

__attribute__((noinline)) static void eventually_free(void *client, free_proc *proc)
{
	refs[n_refs].client = client;
	refs[n_refs].proc = proc;
	n_refs++;
}

__attribute__((noinline)) static void release_all(void)
{
	for (unsigned i = 0; i < n_refs; i++)
		refs[i].proc(refs[i].client); /* SITE proc */
}

/* ---- builtins in an unprototyped generic holder ---- */
typedef struct { int kind; double num; } jv;
struct state { int depth; };
typedef void (*cfn)();
struct builtin { cfn fptr; const char *name; int nargs; };
typedef jv (*func_1)(struct state *, jv);
typedef jv (*func_2)(struct state *, jv, jv);

static jv f_neg(struct state *st, jv a) { (void)st; a.num = -a.num; return a; }
static jv f_floor(struct state *st, jv a) { (void)st; a.num = (double)(long)a.num; return a; }
static jv f_add(struct state *st, jv a, jv b) { (void)st; a.num += b.num; return a; }
static jv f_min(struct state *st, jv a, jv b) { (void)st; return a.num < b.num ? a : b; }

static const struct builtin builtins[] = {
	{(cfn)f_neg, "neg", 1},
	{(cfn)f_floor, "floor", 1},
	{(cfn)f_add, "add", 2},
	{(cfn)f_min, "min", 2},
};

__attribute__((noinline)) static jv call_builtin(struct state *st, const struct builtin *b, jv a, jv c)
{
	if (b->nargs == 1)
		return ((func_1)b->fptr)(st, a); /* SITE one */
	return ((func_2)b->fptr)(st, a, c); /* SITE two */
}

int main(int argc, char **argv)
{
	(void)argv;
	int r = coder_init(1, (coder_find_fn)&enc_find) + coder_init(1, (coder_find_fn)&dec_find);
	finders[argc & 3] = (void *)other_find;
	if (argc > 5 && finders[(argc >> 2) & 3])
		r += coder_init(7, (coder_find_fn)finders[(argc >> 2) & 3]);

	struct interp *ip = calloc(1, sizeof *ip);
	eventually_free(malloc(8), free_block);
	eventually_free(ip, (free_proc *)drop_interp);
	release_all();

	struct state st = {0};
	jv a = {1, 2.5}, b = {1, -1.0}, sum = {1, 0};
	for (unsigned i = 0; i < sizeof builtins / sizeof *builtins; i++)
		sum.num += call_builtin(&st, &builtins[i], a, b).num;
	printf("%d %g\n", r, sum.num);
	return 0;
}

/* find: a parameter declared coder_find_fn. R0 holds the three finders (one
 * IR type). enc_find's and dec_find's signatures return other structs, so
 * Prune-Sig would refute them, but each is cast to coder_find_fn where its
 * address is passed (main): Keep-Cast rejects the prune. other_find's
 * address is taken into a void * table; the cast at the load is no
 * evidence about the function, and Prune-Sig refutes it. Two targets left:
 * the site abstains (τ = 2), which changes nothing here.
 // EXPECT find field: unrecovered
 // EXPECT find r0: dec_find enc_find other_find
 // EXPECT find rulesonly: dec_find enc_find
 // EXPECT find rpm: dec_find enc_find
 // EXPECT find decision enc_find: prune rejected Keep-Cast pi_cast
 // EXPECT find decision dec_find: prune rejected Keep-Cast pi_cast
 // EXPECT find decision other_find: prune supported Prune-Sig pi_sig
 * proc: the field ref.proc (void (char *)) is written in eventually_free
 * with its parameter, which holds free_block and drop_interp (cast to
 * free_proc * where main passes it). Both are in F; drop_interp's add is
 * Add-Cast, free_block's Add-Store.
 // EXPECT proc field: ref.proc
 // EXPECT proc r0: drop_interp free_block
 // EXPECT proc rpm: drop_interp free_block
 // EXPECT proc rulesonly: drop_interp free_block
 // EXPECT proc rejected: -
 // EXPECT proc decision drop_interp: add supported Add-Cast pi_cast
 // EXPECT proc decision drop_interp: prune rejected Keep-Cast pi_cast
 // EXPECT proc decision free_block: add supported Add-Store pi_bind
 * one, two: builtin.fptr is `void ()`; the builtins return jv, so none fits
 * it by C's rule, but each is cast to cfn in the initializer. R0's IR type
 * filter tells the arities apart (the calls cast back to func_1 and
 * func_2); the casts keep them.
 // EXPECT one field: builtin.fptr
 // EXPECT one r0: f_floor f_neg
 // EXPECT one rpm: f_floor f_neg
 // EXPECT one rejected: -
 // EXPECT one decision f_neg: add supported Add-Cast pi_cast
 // EXPECT one evidence f_neg: initializer
 // EXPECT two field: builtin.fptr
 // EXPECT two r0: f_add f_min
 // EXPECT two rpm: f_add f_min
 */
