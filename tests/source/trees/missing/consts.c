/* consts.c — a table whose lengths come from a generated header the tree
 * lacks (nginx's ngx_auto_config.h: NGX_INT_T_LEN, NGX_OFF_T_LEN). One
 * undeclared constant made clang drop the whole initializer; declared (an
 * enumerator, not a macro: #ifdef still reads it as absent), every
 * function of the table is found, and two such names as case labels of
 * one switch do not collide. GEN_INT_T_LEN is also a configuration switch
 * (an #ifdef tests it, no file defines it: switches.c), so the parse with
 * the switches on reads has_len(), and there it is a macro, not also an
 * enumerator. */
typedef int (*run_pt)(int);
typedef struct { const char *name; unsigned long len; run_pt run; } var_t;
typedef struct { run_pt run; } op_t;

static int r_pipe(int x) { return x; }
static int r_time(int x) { return x + 1; }
static int r_status(int x) { return x + 2; }
static int r_sent(int x) { return x + 3; }
void has_len(void);

static var_t vars[] = {
	{ "pipe", 1, r_pipe },
	{ "time", sizeof("28/Sep/1970") - 1, r_time },
	{ "status", GEN_INT_T_LEN, r_status },
	{ "sent", GEN_OFF_T_LEN + 4, r_sent },
	{ 0, 0, 0 }
};

int run_var(op_t *op, int i)
{
#ifdef GEN_INT_T_LEN
	has_len();                           /* -> has_len */
#endif
	op->run = vars[i].run;
	return op->run(i);   /* -> r_pipe@consts.c:S r_time@consts.c:S r_status@consts.c:S r_sent@consts.c:S */
}

int check_std(int m);
int check_sync(int m);

int check_magic(int m)
{
	switch (m) {
	case 0x13579acd:
	case GEN_MAGIC:
		return check_std(m);                 /* -> check_std */
	case GEN_SYNC_MAGIC:
		return check_sync(m);                /* -> check_sync */
	default:
		return -1;
	}
}
