/* A whole ops table copied by struct assignment out of a source whose
 * points-to object is collapsed (form 2 of Algorithm 1).
 *
 * The idiom: a driver keeps its ops in a read-only table and hands a copy
 * to another subsystem (`*ops = term_ops` in a helper the other side calls
 * to fill its own table). Two of the table's members, .ioctl and
 * .compat_ioctl, have the same signature. Elsewhere the program walks the
 * table's bytes through a variable index (a checksum), so Andersen's
 * analysis collapses the table's object: one location for all its fields.
 * A copy out of a collapsed object cannot tell the fields apart through
 * points-to; read field by field it would put every function of the table
 * into every field of the destination, and term_compat_ioctl would count as
 * written into .ioctl. The table is a constant, so what it holds at each
 * offset is its initializer.
 *
 * A writable table copied after a collapse (spare_ops) through a pointer
 * that names no type (`memcpy(o, from, sizeof *o)` with `const void
 * *from`) has no initializer to read and no field to read from: its
 * functions count for the destination's every field of their signature (F
 * keeps them: recall), but the copy is not an established flow into any
 * one field, so it supports no Add-Store. (A source whose type is known
 * moves what its fields hold: typed_copy.c.)
 *
 * A table that is neither (plain_ops, const and never walked) is copied
 * field by field as before. */
#include <stdio.h>
#include <string.h>

struct dev_ops {
	long (*ioctl)(int fd, unsigned cmd, unsigned long arg);
	long (*compat_ioctl)(int fd, unsigned cmd, unsigned long arg);
	int (*open)(int fd);
	int (*release)(int fd);
	long (*read)(int fd, char *buf, unsigned long n);
	long (*write)(int fd, const char *buf, unsigned long n);
};

struct handle {
	const struct dev_ops *ops;
	int fd;
};

static long term_ioctl(int fd, unsigned cmd, unsigned long arg) { return fd + (long)cmd + (long)arg; }
static long term_compat_ioctl(int fd, unsigned cmd, unsigned long arg) { return fd - (long)cmd + (long)arg; }
static int term_open(int fd) { return fd + 1; }
static long term_read(int fd, char *buf, unsigned long n) { return buf[0] + fd + (long)n; }

static long hangup_ioctl(int fd, unsigned cmd, unsigned long arg) { return -fd + (long)cmd + (long)arg; }
static long hangup_compat_ioctl(int fd, unsigned cmd, unsigned long arg) { return -fd - (long)cmd + (long)arg; }

static long spare_ioctl(int fd, unsigned cmd, unsigned long arg) { return 2 * fd + (long)cmd + (long)arg; }
static long spare_compat_ioctl(int fd, unsigned cmd, unsigned long arg) { return 2 * fd - (long)cmd + (long)arg; }

static long plain_ioctl(int fd, unsigned cmd, unsigned long arg) { return 3 * fd + (long)cmd + (long)arg; }
static long plain_compat_ioctl(int fd, unsigned cmd, unsigned long arg) { return 3 * fd - (long)cmd + (long)arg; }

static const struct dev_ops term_ops = {
	.ioctl = term_ioctl,
	.compat_ioctl = term_compat_ioctl,
	.open = term_open,
	.read = term_read,
};
static const struct dev_ops hangup_ops = {
	.ioctl = hangup_ioctl,
	.compat_ioctl = hangup_compat_ioctl,
};
static const struct dev_ops plain_ops = {
	.ioctl = plain_ioctl,
	.compat_ioctl = plain_compat_ioctl,
};
static struct dev_ops spare_ops;   /* filled at run time */

static struct dev_ops console_ops, spare_copy, plain_copy;   /* filled by whole copies */

/* Walks an object's words (pointers among them) through a variable index:
 * its object collapses. (A walk of its bytes would not: bytes move no
 * pointer, and such an address collapses nothing.) The volatile slack keeps
 * -O2 from unrolling the walk into constant offsets. */
static volatile unsigned long walk_slack;

__attribute__((noinline)) static unsigned checksum(const void *p, unsigned long n)
{
	const void *const *w = p;
	unsigned s = 0;
	unsigned long m = n / sizeof *w + walk_slack;
	for (unsigned long i = 0; i < m; i++)
		s = s * 31 + (unsigned)(unsigned long)w[i];
	return s;
}

__attribute__((noinline)) static void default_ops(struct dev_ops *o)
{
	*o = term_ops;   /* the copy out of a collapsed constant */
}

__attribute__((noinline)) void spare_default(struct dev_ops *o, const void *from);
__attribute__((noinline)) void spare_default(struct dev_ops *o, const void *from)
{
	memcpy(o, from, sizeof *o);   /* the copy out of a collapsed writable table, untyped */
}

__attribute__((noinline)) static void plain_default(struct dev_ops *o)
{
	*o = plain_ops;   /* the copy out of a constant nothing collapses */
}

__attribute__((noinline)) static long do_ioctl(struct handle *h, unsigned cmd, unsigned long arg)
{
	return h->ops->ioctl(h->fd, cmd, arg); /* SITE ioctl */
}

__attribute__((noinline)) static long do_compat_ioctl(struct handle *h, unsigned cmd, unsigned long arg)
{
	return h->ops->compat_ioctl(h->fd, cmd, arg); /* SITE compat */
}

int main(int argc, char **argv)
{
	(void)argv;
	spare_ops.ioctl = spare_ioctl;
	spare_ops.compat_ioctl = spare_compat_ioctl;
	unsigned sum = checksum(&term_ops, sizeof term_ops) + checksum(&spare_ops, sizeof spare_ops);
	default_ops(&console_ops);
	spare_default(&spare_copy, &spare_ops);
	plain_default(&plain_copy);
	const struct dev_ops *pick[] = {&term_ops, &hangup_ops, &console_ops, &spare_copy, &plain_copy};
	struct handle h = {pick[(unsigned)argc % 5], argc};
	long r = do_ioctl(&h, sum, 1) + do_compat_ioctl(&h, sum, 2);
	printf("%ld\n", r);
	return 0;
}

/*
 * R0 reads the collapsed objects whole: term_ops' one location holds all
 * four of its functions, and console_ops (a copy of it) holds them in every
 * field; the IR type keeps the two ioctl-typed ones. spare_ops collapses
 * the same way and spare_copy receives both of its functions in every
 * field. hangup_ops and plain_ops are read field by field.
 *
 * F(dev_ops.ioctl): term_ioctl, hangup_ioctl, plain_ioctl (initializers),
 * spare_ioctl (the store in main), the copy out of term_ops at .ioctl's
 * offset (term_ioctl), out of plain_ops (plain_ioctl), and the untyped copy
 * out of the collapsed writable spare_ops, which may have held either of
 * its functions in any field: spare_ioctl and spare_compat_ioctl. So
 * Prune-Store refutes term_compat_ioctl (stored only into .compat_ioctl)
 * and keeps spare_compat_ioctl, which the copy may have moved into .ioctl;
 * R0 has it, and nothing supports adding it (the copy is no established
 * flow into .ioctl), so it carries no decision. spare_ioctl's store in main
 * is established: Add-Store.
 // EXPECT ioctl field: dev_ops.ioctl
 // EXPECT ioctl r0: term_ioctl term_compat_ioctl hangup_ioctl spare_ioctl spare_compat_ioctl plain_ioctl
 // EXPECT ioctl rpm: term_ioctl hangup_ioctl spare_ioctl spare_compat_ioctl plain_ioctl
 // EXPECT ioctl decision term_compat_ioctl: prune supported Prune-Store pi_proj
 // EXPECT ioctl decision spare_compat_ioctl: none
 // EXPECT ioctl decision spare_ioctl: add supported Add-Store pi_bind
 // EXPECT ioctl evidence spare_ioctl: store
 // EXPECT ioctl decision term_ioctl: add supported Add-Witness true
 // EXPECT compat field: dev_ops.compat_ioctl
 // EXPECT compat r0: term_ioctl term_compat_ioctl hangup_compat_ioctl spare_ioctl spare_compat_ioctl plain_compat_ioctl
 // EXPECT compat rpm: term_compat_ioctl hangup_compat_ioctl spare_ioctl spare_compat_ioctl plain_compat_ioctl
 // EXPECT compat decision term_ioctl: prune supported Prune-Store pi_proj
 */
