/* Callees no field key explains, whose type a variable or parameter
 * declares (facet's extension of Prune-Sig): an nginx-style script engine
 * that reads code pointers out of a byte buffer through a cast, and a
 * callback passed as a parameter. R0 cannot tell the length codes from the
 * value codes (the same IR type: i64 (ptr) against void (ptr) differs, but
 * struct engine * against struct request * does not); the declared type can. */
#include <stdio.h>
#include <stdint.h>
#include <string.h>

struct engine { unsigned char *ip; size_t len; };
struct request { int status; };

typedef size_t (*len_code_pt)(struct engine *e);
typedef void (*value_code_pt)(struct engine *e);
typedef void (*done_pt)(struct request *r);

static size_t copy_len(struct engine *e) { e->ip += sizeof(uintptr_t); return 3; }
static size_t var_len(struct engine *e) { e->ip += sizeof(uintptr_t); return 5; }
static size_t req_len(struct request *r) { return (size_t)r->status; }
static void copy_value(struct engine *e) { e->ip += sizeof(uintptr_t); e->len += 3; }
static void req_done(struct request *r) { r->status = 200; }
static void req_fail(struct request *r) { r->status = 500; }
static void log_engine(struct engine *e) { printf("%zu\n", e->len); }

static void *codes[8];
static size_t (*any_len)(struct request *);
static void (*handlers[4])(void *);

__attribute__((noinline)) size_t run_lengths(struct engine *e)
{
	size_t n = 0;
	while (*(uintptr_t *)e->ip) {
		len_code_pt lcode = *(len_code_pt *)e->ip;
		n += lcode(e); /* SITE lcode */
	}
	return n;
}

__attribute__((noinline)) void finish(struct request *r, done_pt done)
{
	done(r); /* SITE done */
}

int main(int argc, char **argv)
{
	(void)argv;
	codes[0] = (void *)copy_len;
	codes[1] = argc > 1 ? (void *)var_len : (void *)copy_len;
	codes[3] = (void *)copy_value;
	codes[5] = (void *)req_len;   /* a request's length code, kept in the same table */
	any_len = req_len;
	handlers[0] = (void (*)(void *))(void (*)(void))log_engine;
	struct engine e = {(unsigned char *)codes, 0};
	printf("%zu %zu\n", run_lengths(&e), any_len(&(struct request){1}));
	struct request r = {0};
	finish(&r, argc > 2 ? req_fail : req_done);
	return r.status == 200 ? 0 : 1;
}

/* lcode: the loaded pointer has no struct behind it (the base is a byte
 * buffer) and the table holds all three length codes; the variable lcode
 * declares len_code_pt, which req_len's struct request * parameter does not
 * fit (copy_value's IR type already keeps it out of R0). done: a parameter; R0 already
 * holds exactly what the callers pass, and the declared type agrees.
 // EXPECT lcode field: unrecovered
 // EXPECT lcode r0: copy_len req_len var_len
 // EXPECT lcode rpm: copy_len var_len
 // EXPECT lcode rulesonly: copy_len var_len
 // EXPECT lcode decision req_len: prune supported Prune-Sig pi_sig
 // EXPECT done field: unrecovered
 // EXPECT done r0: req_done req_fail
 // EXPECT done rpm: req_done req_fail
 */
