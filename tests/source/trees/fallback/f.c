/* f.c — the type fallback (source.h): at a call whose evidence is
 * incomplete the site stays unresolved and gets every function whose
 * address the tree takes and whose type fits the call's (:T). The cases:
 * no candidate (a field nothing writes, a callee a call returns), a store
 * of an expression naming no function, a copy from a location nothing in
 * the tree writes (and a copy of that copy), an API parameter no call in
 * the tree passes anything; and two complete ones: a location written with
 * NULL and a function, a parameter every caller fills. The default rule is
 * C's (canonical types equal); `ir ->` marks what the IR shape's rule
 * gives where it differs (every pointer alike). */
#include <stddef.h>

typedef int (*str_fn)(const char *);
typedef int str_fn_t(const char *);

struct ops { str_fn parse; str_fn never; str_fn copied; str_fn api; str_fn dup; str_fn fine; };

int p_len(const char *s) { return s ? 1 : 0; }          /* int (const char *) */
int p_mut(char *s) { return s ? 2 : 0; }                /* qualifiers dropped: fits C's rule */
static int p_void(void *s) { return s ? 3 : 0; }        /* void *: another type in C, a ptr in IR */
static int p_long(long x) { return (int)x; }            /* fits neither */
static str_fn_t p_typed;                                 /* the same type through a function typedef */
static int p_typed(const char *s) { return s ? 4 : 0; }
int only_called(const char *s) { return s ? 5 : 0; }    /* named only as a callee: never a candidate */
static int by_cast(const char *s) { return s ? 6 : 0; } /* its address taken by a file-scope cast */

static long tag = (long) by_cast;
void *lookup_symbol(const char *name);
struct ops *current(void);

void setup(struct ops *o, void *h)
{
	o->parse = p_len;
	o->parse = (str_fn) lookup_symbol("parse");    /* -> lookup_symbol */
	o->fine = NULL;
	o->fine = p_typed;
	o->copied = o->never;                           /* nothing writes ops.never */
	o->dup = o->copied;                             /* a copy of that copy */
	(void)h;
	(void)tag;
	(void)p_mut;
	(void)p_void;
	(void)p_long;
}

/* an API: no call in the tree registers anything */
void api_register(struct ops *o, str_fn cb)
{
	o->api = cb;
}

static int each(str_fn f, const char *s)
{
	return f(s);   /* -> p_len@f.c:S */
}

int run(struct ops *o, const char *s)
{
	int r = only_called(s);                 /* -> only_called@f.c */
	r += o->parse(s);                       /* -> p_len@f.c:S unresolved by_cast@f.c:T p_mut@f.c:T p_typed@f.c:T */
	/* ir -> p_len@f.c:S unresolved by_cast@f.c:T p_mut@f.c:T p_typed@f.c:T p_void@f.c:T */
	r += o->never(s);                       /* -> unresolved by_cast@f.c:T p_len@f.c:T p_mut@f.c:T p_typed@f.c:T */
	/* ir -> unresolved by_cast@f.c:T p_len@f.c:T p_mut@f.c:T p_typed@f.c:T p_void@f.c:T */
	r += o->copied(s);                      /* -> unresolved by_cast@f.c:T p_len@f.c:T p_mut@f.c:T p_typed@f.c:T */
	/* ir -> unresolved by_cast@f.c:T p_len@f.c:T p_mut@f.c:T p_typed@f.c:T p_void@f.c:T */
	r += o->dup(s);                         /* -> unresolved by_cast@f.c:T p_len@f.c:T p_mut@f.c:T p_typed@f.c:T */
	/* ir -> unresolved by_cast@f.c:T p_len@f.c:T p_mut@f.c:T p_typed@f.c:T p_void@f.c:T */
	r += o->api(s);                         /* -> unresolved by_cast@f.c:T p_len@f.c:T p_mut@f.c:T p_typed@f.c:T */
	/* ir -> unresolved by_cast@f.c:T p_len@f.c:T p_mut@f.c:T p_typed@f.c:T p_void@f.c:T */
	r += o->fine(s);                        /* -> p_typed@f.c:S */
	r += current()->fine(s);                /* -> current p_typed@f.c:S */
	r += each(p_len, s);                    /* -> each@f.c */
	return r;
}
