/* callbacks.c — callbacks passed as arguments: records sorted with qsort and
 * a static comparator, then visited with our own for_each and two visitors.
 *
 * Usage: callbacks [NAME:SCORE...]   (default: a fixed roster) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct rec {
	char name[16];
	int score;
};

typedef void (*visit_fn)(const struct rec *r, void *ctx);

static int by_score_desc(const void *pa, const void *pb) /* @address-taken */
{
	const struct rec *a = pa, *b = pb;
	if (a->score != b->score)
		return a->score < b->score ? 1 : -1;
	return strcmp(a->name, b->name); /* @call strcmp */
}

void for_each(const struct rec *recs, size_t n, visit_fn visit, void *ctx)
{
	for (size_t i = 0; i < n; i++)
		visit(&recs[i], ctx); /* @icall visit */
}

static void print_rec(const struct rec *r, void *ctx) /* @address-taken */
{
	int *rank = ctx;
	printf("%2d. %-15s %d\n", ++*rank, r->name, r->score); /* @call printf */
}

static void add_score(const struct rec *r, void *ctx) /* @address-taken */
{
	long *total = ctx;
	*total += r->score;
}

static int parse_rec(const char *arg, struct rec *out)
{
	const char *colon = strchr(arg, ':'); /* @call strchr */
	if (!colon || colon == arg || (size_t)(colon - arg) >= sizeof out->name)
		return -1;
	memset(out, 0, sizeof *out); /* @call llvm.memset*=memset */
	memcpy(out->name, arg, (size_t)(colon - arg)); /* @call llvm.memcpy*=memcpy */
	out->score = atoi(colon + 1); /* @inline-call atoi */
	return 0;
}

int main(int argc, char **argv)
{
	static const struct rec roster[] = {{"ada", 92}, {"brian", 75}, {"grace", 92}, {"ken", 81}, {"linus", 68}};
	struct rec recs[16];
	size_t n = 0;

	if (argc > 1) {
		for (int i = 1; i < argc && n < 16; i++)
			if (parse_rec(argv[i], &recs[n]) == 0) /* @inline-call parse_rec */
				n++;
	} else {
		n = sizeof roster / sizeof *roster;
		memcpy(recs, roster, sizeof roster); /* @call llvm.memcpy*=memcpy */
	}
	qsort(recs, n, sizeof *recs, by_score_desc); /* @call qsort */
	int rank = 0;
	for_each(recs, n, print_rec, &rank); /* @inline-call for_each */
	long total = 0;
	for_each(recs, n, add_score, &total); /* @inline-call for_each */
	printf("total %ld over %zu\n", total, n); /* @call printf */
	return 0;
}
