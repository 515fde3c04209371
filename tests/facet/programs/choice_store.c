/* A counter incremented through a choice of two fields: the optimiser
 * sinks the two increments of
 *
 *     if (flags & 1) cmd->rejected++; else if (flags & 2) cmd->failed++;
 *
 * into one load, add and store through `gep i8, cmd, phi(24, 32)`. The
 * points-to analysis reads that GEP as one constant GEP per choice; the
 * refinement read the store as one at an unknown offset into struct
 * command, which may reach any of its function-pointer fields. The
 * commands live in a heap pool that a byte offset collapses, with lists
 * whose free method takes a `void *` like the command procedures: the
 * counter's value, loaded from the pool, points to every function of the
 * pool, so free_entry went into F(command.proc) and R± kept it at the
 * proc site. The store writes one of the two counters, both data: it puts
 * nothing into .proc, and Prune-Store refutes free_entry there. */
#include <stdio.h>
#include <stdlib.h>

struct command {
	const char *name;
	void (*proc)(void *client);
	long calls, rejected, failed;
};

struct list {
	void (*free)(void *p);
	void *head;
};

/* Every object comes from one heap block at a byte offset a cursor keeps:
 * the block is one collapsed object. */
static struct {
	unsigned char *base;
	size_t top;
} heap;

__attribute__((noinline)) static void *carve(size_t n)
{
	size_t at = heap.top;
	heap.top = (at + n) & 511;
	return heap.base + at;
}

static void ping_command(void *client) { puts(client ? "+PONG" : "-ERR"); }
static void echo_command(void *client) { puts(client ? "$echo" : "-ERR"); }
static void free_entry(void *p) { printf("free %p\n", p); }

/* A command with its counters cleared, from the pool. */
__attribute__((noinline)) static struct command *make_command(const char *name, int echo)
{
	struct command *cmd = (struct command *)carve(sizeof *cmd);
	cmd->calls = cmd->rejected = cmd->failed = 0;
	cmd->proc = echo ? echo_command : ping_command;
	cmd->name = name;
	return cmd;
}

__attribute__((noinline)) static struct list *new_list(void)
{
	struct list *l = (struct list *)carve(sizeof *l);
	l->free = free_entry;
	l->head = NULL;
	return l;
}

__attribute__((noinline)) static int count_error(struct command *cmd, int flags)
{
	int res = 0;
	if (flags & 1) {
		cmd->rejected++;
		res = 1;
	} else if (flags & 2) {
		cmd->failed++;
		res = 1;
	}
	return res;
}

__attribute__((noinline)) static void call(struct command *cmd, void *client)
{
	cmd->proc(client); /* SITE proc */
	cmd->calls++;
}

int main(int argc, char **argv)
{
	heap.base = (unsigned char *)calloc(512, 1);
	if (!heap.base)
		return 1;
	struct list *l = new_list();
	l->free(argv[0]); /* SITE free */
	struct command *c = make_command("ping", argc > 2);
	call(c, argv[0]);
	printf("%d\n", count_error(c, argc));
	return 0;
}

/*
 // EXPECT proc field: command.proc
 // EXPECT proc r0: echo_command free_entry ping_command
 // EXPECT proc rpm: echo_command ping_command
 // EXPECT proc decision free_entry: prune supported Prune-Store pi_proj
 // EXPECT free field: list.free
 // EXPECT free rpm: free_entry
 */
