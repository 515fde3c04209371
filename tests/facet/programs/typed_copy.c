/* A method table copied whole out of a writable global whose points-to
 * object is collapsed, through a pointer whose type is known (form 2).
 *
 * The idiom: a hash table takes its behaviour from a type table, and a
 * caller wants the same table but one method: it copies the table and
 * changes the member (`struct dict_type keeper = instances_type;
 * keeper.val_destructor = NULL; dict_create(&keeper)`). Elsewhere the
 * program walks the tables' words through a variable index (a checksum),
 * so the tables' objects collapse: one location holds every method of a
 * table, and key_destructor and val_destructor share a signature. Read
 * through points-to alone, the copy may move free_key into
 * .val_destructor. But the source is a struct dict_type: each slot the
 * copy reads is that struct's field, and it holds only what the program
 * writes into that field (the premise π_proj every refutation rests on):
 * the copy moves F(dict_type.val_destructor) into .val_destructor, and
 * Prune-Store refutes free_key at the value-destructor site, free_instance
 * at the key-destructor site.
 *
 * At -O2 the optimiser leaves the tables' objects uncollapsed here and R0
 * is already exact; R± must be the same. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct dict_type {
	unsigned long (*hash)(const void *key);
	void (*key_destructor)(void *p);
	void (*val_destructor)(void *p);
};

struct dict {
	struct dict_type *type;
	void *key, *val;
};

static unsigned long hash_string(const void *k) { return strlen((const char *)k); }
static unsigned long hash_pointer(const void *k) { return (unsigned long)k >> 4; }
static void free_key(void *p) { printf("key %p\n", p); }
static void free_instance(void *p) { printf("instance %p\n", p); }
static void release_reply(void *p) { printf("reply %p\n", p); }

struct dict_type instances_type = {hash_string, free_key, free_instance};
struct dict_type replies_type = {hash_pointer, NULL, release_reply};

/* Walks an object's words (pointers among them) through a variable index:
 * its object collapses. (A walk of its bytes would not: bytes move no
 * pointer, and such an address collapses nothing.) The volatile slack keeps
 * -O2 from unrolling the walk into constant offsets. */
static volatile unsigned long walk_slack;

__attribute__((noinline)) static unsigned checksum(const void *p, unsigned long n)
{
	const void *const *w = (const void *const *)p;
	unsigned s = 0;
	unsigned long m = n / sizeof *w + walk_slack;
	for (unsigned long i = 0; i < m; i++)
		s = s * 31 + (unsigned)(unsigned long)w[i];
	return s;
}

__attribute__((noinline)) static struct dict *dict_create(struct dict_type *t, void *key, void *val)
{
	struct dict *d = (struct dict *)malloc(sizeof *d);
	if (!d)
		exit(1);
	d->type = t;
	d->key = key;
	d->val = val;
	return d;
}

__attribute__((noinline)) static unsigned long dict_release(struct dict *d)
{
	unsigned long h = d->type->hash(d->key); /* SITE hash */
	if (d->type->key_destructor)
		d->type->key_destructor(d->key); /* SITE keydtor */
	if (d->type->val_destructor)
		d->type->val_destructor(d->val); /* SITE valdtor */
	free(d);
	return h;
}

__attribute__((noinline)) static unsigned long info_cache(void *key, void *val)
{
	struct dict_type keeper = instances_type;
	keeper.val_destructor = NULL;
	return dict_release(dict_create(&keeper, key, val));
}

int main(int argc, char **argv)
{
	unsigned sum = checksum(&instances_type, sizeof instances_type) + checksum(&replies_type, sizeof replies_type);
	unsigned long h = info_cache(argv[0], argv);
	h += dict_release(dict_create(argc > 1 ? &replies_type : &instances_type, argv[0], argv));
	printf("%u %lu\n", sum, h);
	return 0;
}

/*
 * F(dict_type.val_destructor) = free_instance, release_reply (initializers);
 * F(dict_type.key_destructor) = free_key. R0 reads the collapsed tables whole:
 * every method of the void(void *) type at both destructor sites (-O0).
 // EXPECT hash field: dict_type.hash
 // EXPECT hash rpm: hash_pointer hash_string
 // EXPECT valdtor field: dict_type.val_destructor
 // EXPECT@O0 valdtor r0: free_instance free_key release_reply
 // EXPECT valdtor rpm: free_instance release_reply
 // EXPECT@O0 valdtor decision free_key: prune supported Prune-Store pi_proj
 // EXPECT valdtor decision free_instance: add supported Add-Witness true
 // EXPECT keydtor field: dict_type.key_destructor
 // EXPECT@O0 keydtor r0: free_instance free_key release_reply
 // EXPECT keydtor rpm: free_key
 // EXPECT@O0 keydtor decision release_reply: prune supported Prune-Store pi_proj
 */
