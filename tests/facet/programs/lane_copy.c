/* Handlers copied field to field in one vector (the field copy of
 * field_copy.c, optimised). A generic list keeps its element methods in
 * adjacent fields, and a duplicate inherits them:
 *
 *     copy->dup = orig->dup; copy->free = orig->free; copy->match = orig->match;
 *
 * At -O2 the SLP vectorizer moves the first two with one `load <2 x ptr>`
 * and one `store <2 x ptr>`: the loaded value has two defining loads (one
 * per lane, at offsets 0 and 8) and the store two slots. Each lane still
 * moves one field into the same field of the copy: lane k of the store
 * writes what lane k of the load read. Lists and commands are carved from
 * one heap pool that a byte offset collapses, so the points-to set of
 * anything loaded from a list holds every function stored anywhere in the
 * pool (the command procedures too, which fit the free method's type
 * through its `void *`): taken whole, the copy puts every command into
 * F(list.free) with an established place, Add-Store supports them all and
 * R± keeps R0. As a copy of list.dup and list.free, it brings F(list.dup)
 * and F(list.free): only free_entry reaches the free site, only dup_entry
 * the dup site. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct list {
	struct list *head;
	struct list *tail;
	void *(*dup)(void *ptr);
	void (*free)(void *ptr);
	int (*match)(void *ptr, void *key);
	unsigned long len;
};

struct command {
	const char *name;
	void (*proc)(void *client);
};

static unsigned char *pool;
static size_t pool_used;

/* Carved at a byte offset a cursor keeps: the pool is one collapsed object. */
__attribute__((noinline, malloc)) static void *carve(size_t n)
{
	void *p = pool + pool_used;
	pool_used = (pool_used + n) % 512;
	return p;
}

static void *dup_entry(void *p) { return strdup((const char *)p); }
static void free_entry(void *p) { free(p); }
static int match_entry(void *p, void *key) { return strcmp((const char *)p, (const char *)key) == 0; }
static void get_command(void *c) { printf("get %p\n", c); }
static void set_command(void *c) { printf("set %p\n", c); }

__attribute__((noinline)) static struct command *new_command(const char *name, int set)
{
	struct command *c = (struct command *)carve(sizeof *c);
	c->name = name;
	c->proc = set ? set_command : get_command;
	return c;
}

__attribute__((noinline)) static struct list *new_list(void)
{
	struct list *l = (struct list *)carve(sizeof *l);
	memset(l, 0, sizeof *l);
	return l;
}

__attribute__((noinline)) static struct list *list_dup(const struct list *orig)
{
	struct list *copy = new_list();
	copy->dup = orig->dup;
	copy->free = orig->free;
	copy->match = orig->match;
	return copy;
}

__attribute__((noinline)) static void list_release(struct list *l, void *value)
{
	if (l->free)
		l->free(value); /* SITE free */
}

__attribute__((noinline)) static void *list_copy_value(struct list *l, void *value)
{
	return l->dup ? l->dup(value) : value; /* SITE dup */
}

int main(int argc, char **argv)
{
	pool = (unsigned char *)calloc(512, 1);
	if (!pool)
		return 1;
	struct command *cmd = new_command("get", argc > 2);
	cmd->proc(argv[0]); /* SITE proc */
	struct list *l = new_list();
	l->dup = dup_entry;
	l->free = free_entry;
	l->match = match_entry;
	struct list *c = list_dup(l);
	void *v = list_copy_value(c, argv[0]);
	list_release(c, v);
	return 0;
}

/*
 // EXPECT free field: list.free
 // EXPECT free r0: free_entry get_command set_command
 // EXPECT free rpm: free_entry
 // EXPECT free decision get_command: prune supported Prune-Store pi_proj
 // EXPECT dup field: list.dup
 // EXPECT dup r0: dup_entry
 // EXPECT dup rpm: dup_entry
 // EXPECT proc field: command.proc
 // EXPECT proc rpm: get_command set_command
 */
