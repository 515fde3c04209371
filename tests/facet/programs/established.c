/* Add-Store adds only what the program establishes flows into the field
 * (issue 15.7). A verifier keeps a callback beside an array of user data;
 * the data is set through a table of byte offsets, a write at an offset
 * facet cannot know, so it may reach the callback field too. The stored
 * value is a `void *` that a reference-counting helper returned — the same
 * helper that also retained a function, so its points-to set holds
 * cert_check. That function stays in F(verifier.verify), so no refutation
 * loses it, but no store establishes its flow into the field: nothing
 * declares the stored value a function pointer, and at an unknown slot that
 * is what it takes. Add-Store must not add it where R0 has only the
 * initialised default and the function stored by name. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int (*verify_fn)(int ok, void *store);

struct verifier {
	verify_fn verify;
	void *ex_data[2];
	int depth;
};

static const size_t slot_offset[] = {offsetof(struct verifier, ex_data), offsetof(struct verifier, ex_data) + 8};
static int n_refs;

__attribute__((noinline)) static void *retain(void *p)
{
	n_refs++;
	return p;
}

static int default_verify(int ok, void *store) { (void)store; return ok; }
static int strict_verify(int ok, void *store) { return ok > 1 && store; }
static int cert_check(int ok, void *store) { return ok && store != NULL; }

__attribute__((noinline)) static void set_slot(struct verifier *v, int which, void *data)
{
	*(void **)((char *)v + slot_offset[which]) = data;
}

__attribute__((noinline)) static int run_verify(struct verifier *v, int ok)
{
	return v->verify(ok, v->ex_data[0]); /* SITE verify */
}

static struct verifier session = {default_verify, {NULL, NULL}, 0};

int main(int argc, char **argv)
{
	static char name[16];
	struct verifier *user = calloc(1, sizeof *user);
	void *kept = retain((void *)cert_check);
	set_slot(user, argc & 1, retain(name));
	strncpy(name, argv[0], sizeof name - 1);
	printf("%d %p\n", user->depth, kept);
	free(user);
	if (argc > 4)
		session.verify = strict_verify;
	return run_verify(&session, argc);
}

/* R0 at the site is the initialised default and strict_verify; cert_check
 * is in F through the unknown-offset store, but its flow is not
 * established, so it is no add.
 // EXPECT verify field: verifier.verify
 // EXPECT verify r0: default_verify strict_verify
 // EXPECT verify decision default_verify: add supported Add-Witness true
 // EXPECT verify decision strict_verify: add supported Add-Store pi_bind
 // EXPECT verify rpm: default_verify strict_verify
 // EXPECT@tau=0 verify rpm: default_verify strict_verify
 // EXPECT@tau=0 verify rplus: default_verify strict_verify
 */
