/* recursion.c — direct recursion: factorial, Fibonacci, and a binary search
 * tree that is built, measured and freed by recursive walks.
 *
 * Usage: recursion [N] [KEY...]   (defaults: N = 10, a fixed key list)
 * Markers: see tests/cg/check_sites.py. */
#include <stdio.h>
#include <stdlib.h>

struct node {
	int key;
	struct node *left, *right;
};

static unsigned long factorial(unsigned n)
{
	if (n <= 1)
		return 1;
	return n * factorial(n - 1); /* @call(O0) factorial */
}

static unsigned fib(unsigned n)
{
	if (n < 2)
		return n;
	unsigned a = fib(n - 1); /* @call fib */
	unsigned b = fib(n - 2); /* @call(O0) fib */
	return a + b;
}

static struct node *new_node(int key)
{
	struct node *n = malloc(sizeof *n); /* @call malloc */
	if (!n) {
		perror("malloc"); /* @call perror */
		exit(1); /* @call exit */
	}
	n->key = key;
	n->left = n->right = NULL;
	return n;
}

static struct node *insert(struct node *t, int key)
{
	if (!t)
		return new_node(key); /* @inline-call new_node */
	if (key < t->key)
		t->left = insert(t->left, key); /* @call insert */
	else if (key > t->key)
		t->right = insert(t->right, key); /* @call insert */
	return t;
}

static int depth(const struct node *t)
{
	if (!t)
		return 0;
	int l = depth(t->left); /* @call depth */
	int r = depth(t->right); /* @call depth */
	return 1 + (l > r ? l : r);
}

static void free_tree(struct node *t)
{
	if (!t)
		return;
	free_tree(t->left); /* @call free_tree */
	free_tree(t->right); /* @call free_tree */
	free(t); /* @call free */
}

int main(int argc, char **argv)
{
	static const int defaults[] = {50, 30, 70, 20, 40, 60, 80, 35, 45, 65};
	unsigned n = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 10; /* @call strtoul */
	struct node *root = NULL;

	if (argc > 2) {
		for (int i = 2; i < argc; i++)
			root = insert(root, atoi(argv[i])); /* @call insert @inline-call atoi */
	} else {
		for (size_t i = 0; i < sizeof defaults / sizeof *defaults; i++)
			root = insert(root, defaults[i]); /* @call insert */
	}
	printf("%u! = %lu\n", n, factorial(n)); /* @call printf @inline-call factorial */
	printf("fib(%u) = %u\n", n, fib(n)); /* @call printf @call fib */
	printf("depth = %d\n", depth(root)); /* @call printf @call depth */
	free_tree(root); /* @call free_tree */
	return 0;
}
