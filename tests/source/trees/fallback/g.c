/* g.c — callees no location names: what a call through a field returns,
 * and a long that holds a function (the address is taken in another unit:
 * the fallback's candidates are the whole tree's). */
typedef int (*str_fn)(const char *);
typedef long (*long_fn)(long);

struct table { str_fn (*get)(int); };

static long l_one(long x) { return x; }
static long_fn keep = l_one;

int call_got(struct table *t, const char *s)
{
	return t->get(0)(s);   /* -> unresolved by_cast@f.c:T p_len@f.c:T p_mut@f.c:T p_typed@f.c:T */
	/* ir -> unresolved by_cast@f.c:T p_len@f.c:T p_mut@f.c:T p_typed@f.c:T p_void@f.c:T */
}

long call_long(long v, long bits)
{
	long r = keep(v);                       /* -> l_one@g.c:W */
	return r + ((long_fn) bits)(v);         /* -> unresolved l_one@g.c:T */
}
