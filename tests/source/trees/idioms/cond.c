/* cond.c — a call whose callee is a conditional expression: the functions
 * either arm names (premise-free, as an initializer names them), and the
 * contents of a location an arm reads (a copy); a conditional with no
 * function value in it stays unresolved. */
typedef int (*scan_fn)(const char *);

struct fmt { scan_fn scan; };

static int scan_tag(const char *s) { return s[0]; }
static int scan_notag(const char *s) { return s[1]; }
static int scan_fmt(const char *s) { return s[2]; }

static struct fmt deflt = { scan_fmt };

int scan(const char *s, int tagged)
{
	return (tagged ? scan_tag : scan_notag)(s);          /* -> scan_tag@cond.c:W scan_notag@cond.c:W */
}

int scan_with(const char *s, struct fmt *f)
{
	return (f ? f->scan : &scan_tag)(s);                 /* -> scan_fmt@cond.c:S scan_tag@cond.c:W */
}

int scan_nested(const char *s, int a, int b)
{
	return (a ? scan_tag : b ? scan_notag : deflt.scan)(s);   /* -> scan_tag@cond.c:W scan_notag@cond.c:W scan_fmt@cond.c:S */
}

int scan_any(const char *s, scan_fn *table, int i)
{
	return (i ? table[i] : table[0])(s);                 /* -> unresolved scan_fmt@cond.c:T scan_notag@cond.c:T scan_tag@cond.c:T */
}
