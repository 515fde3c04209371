/* Calls through unprototyped function pointers (`int (*hash)()`, C before
 * C23; oniguruma's st.c): clang types such a call by its promoted arguments
 * plus varargs, `i32 (i64, ...)`, which no defined function's IR type
 * equals, and the debug info spells the field `int (...)`. R0's type filter
 * and the signature check both take an unprototyped type to fit any
 * function with the same return type. */
#pragma clang diagnostic ignored "-Wdeprecated-non-prototype"
#include <stdio.h>
#include <stdint.h>

typedef uintptr_t key_t_;

struct hash_type {
	int (*compare)();
	int (*hash)();
};

struct table {
	struct hash_type *type;
	int n;
};

struct str_key { const char *s; int len; };

static int str_hash(struct str_key *k) { return k->s[0] + k->len; }
static int str_cmp(struct str_key *a, struct str_key *b) { return a->len - b->len; }
static int num_hash(long k) { return (int)k; }
static long wide_hash(long k) { return k * 2; }   /* another return type: never fits `int ()` */

static struct hash_type str_type = {str_cmp, str_hash};
static struct hash_type num_type = {NULL, num_hash};
static long (*widen)(long) = wide_hash;

__attribute__((noinline)) int lookup(struct table *t, key_t_ key)
{
	return (*t->type->hash)(key); /* SITE hash */
}

int main(int argc, char **argv)
{
	struct str_key k = {argv[0], argc};
	struct table t = {argc > 1 ? &num_type : &str_type, 0};
	printf("%d %ld\n", lookup(&t, (key_t_)&k), widen(argc));
	return 0;
}

/* R0 holds the two hash functions (and nothing returning long); the field's
 * F is both initializers, and neither is refuted by its signature.
 // EXPECT hash field: hash_type.hash
 // EXPECT hash r0: num_hash str_hash
 // EXPECT hash rpm: num_hash str_hash
 // EXPECT hash decision str_hash: add supported Add-Witness true
 // EXPECT hash decision num_hash: add supported Add-Witness true
 // EXPECT hash rejected: -
 */
