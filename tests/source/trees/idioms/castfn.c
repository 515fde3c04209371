/* castfn.c — a slot of one function-pointer type holding functions of
 * several: a length code is cast to the slot's type when it is stored
 * and read back through a cast to its own type (a byte stream of codes,
 * each a struct whose first member is the code). */
typedef struct engine { unsigned char *ip; } engine_t;
typedef void (*code_pt)(engine_t *e);
typedef unsigned long (*len_code_pt)(engine_t *e);
typedef struct { code_pt code; unsigned long len; } script_copy_t;

static unsigned long copy_len_code(engine_t *e) { (void)e; return 1; }
static void copy_code(engine_t *e) { e->ip += sizeof(script_copy_t); }

void emit(unsigned char *buf)
{
	script_copy_t *c = (script_copy_t *)buf;
	c->code = (code_pt)(void *)copy_len_code;
	c[1].code = copy_code;
}

unsigned long length(engine_t *e)
{
	len_code_pt lcode = *(len_code_pt *)e->ip;
	return lcode(e);                           /* -> copy_len_code@castfn.c:S */
}

void run(engine_t *e)
{
	code_pt code = *(code_pt *)e->ip;
	code(e);                                   /* -> copy_code@castfn.c:S !copy_len_code@castfn.c */
}
