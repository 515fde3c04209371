/* Prune-Sig: the stores into the field are invisible to the projection
 * (made through an untyped generic setter), so F(sorter.cmp) is empty and
 * only the declared signature can refute; a void * parameter stays
 * compatible. */
#include <stdio.h>
#include <string.h>

struct item { int key; };
struct other { long v; };

struct sorter {
	int (*cmp)(const struct item *a, const struct item *b);
	int calls;
};

static int cmp_items(const struct item *a, const struct item *b) { return a->key - b->key; }
static int cmp_generic(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }
static int cmp_others(const struct other *a, const struct other *b) { return (int)(a->v - b->v); }

/* Sets any hook of any object: the offset is a parameter. */
__attribute__((noinline)) void set_hook(void *object, size_t offset, void *fn)
{
	memcpy((char *)object + offset, &fn, sizeof fn);
}

__attribute__((noinline)) int compare(struct sorter *s, const struct item *a, const struct item *b)
{
	s->calls++;
	return s->cmp(a, b); /* SITE cmp */
}

int main(int argc, char **argv)
{
	(void)argv;
	struct sorter s = {0};
	struct item a = {argc}, b = {2};
	set_hook(&s, 0, (void *)cmp_items);
	if (argc > 2)
		set_hook(&s, 0, (void *)cmp_generic);
	if (argc > 3)
		set_hook(&s, 0, (void *)cmp_others);
	printf("%d\n", compare(&s, &a, &b));
	return 0;
}

/* R0 has all three (the object collapses under the variable offset);
 * Prune-Sig refutes cmp_others (struct other * is not struct item *); the
 * site keeps two targets and abstains. With τ = 1 it does not abstain, and
 * the two unwarranted targets make a disambiguation question.
 // EXPECT cmp field: sorter.cmp
 // EXPECT cmp r0: cmp_items cmp_generic cmp_others
 // EXPECT cmp rulesonly: cmp_items cmp_generic
 // EXPECT cmp rpm: cmp_items cmp_generic
 // EXPECT cmp rplus: cmp_items cmp_generic cmp_others
 // EXPECT cmp decision cmp_others: prune supported Prune-Sig pi_sig
 // EXPECT cmp abstains: yes
 // EXPECT cmp question: none
 // EXPECT@tau=1 cmp abstains: no
 // EXPECT@tau=1 cmp rpm: cmp_items cmp_generic
 // EXPECT@tau=1 cmp question: disambiguation
 */
