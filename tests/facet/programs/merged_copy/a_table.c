/* Isomorphic structs merged by the IR linker (issue 14): this unit's hash
 * types and b_env.c's slots are both { ptr, ptr }. Linking the units names
 * both IR types after whichever the linker maps first, so an access in one
 * unit may carry the other unit's struct name. Keys must come from the
 * debug info, which is exact in every unit, not from that name: the sites
 * here and in b_env.c answer the same in either link order (check_facet.py
 * links a directory's units in both orders). */
struct st_hash_type {
	int (*compare)(long a, long b);
	int (*hash)(long a);
};

struct st_table {
	const struct st_hash_type *type;
	long n;
};

static int num_cmp(long a, long b) { return a != b; }
static int num_hash(long a) { return (int)a; }
static int ptr_cmp(long a, long b) { return a < b; }
static int ptr_hash(long a) { return (int)(a >> 3); }

const struct st_hash_type type_num = {num_cmp, num_hash};
const struct st_hash_type type_ptr = {ptr_cmp, ptr_hash};

int table_hash(const struct st_table *t, long key)
{
	return (*t->type->hash)(key); /* SITE hash */
}

/* The hash types' own functions, from their initializers.
 // EXPECT hash field: st_hash_type.hash
 // EXPECT hash rpm: num_hash ptr_hash
 */
