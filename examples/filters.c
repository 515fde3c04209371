/* filters.c — facet's bundled example: a tiny text pipeline whose stages are
 * reached only through function pointers (an ops table, a registry array and
 * a comparator callback), the kind of code facet is made for. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct filter_ops {
	const char *name;
	void (*apply)(char *text);
	int (*accepts)(const char *text);
};

static void upper(char *t) { for (; *t; t++) *t = (char)toupper((unsigned char)*t); }
static void lower(char *t) { for (; *t; t++) *t = (char)tolower((unsigned char)*t); }
static void trim(char *t)
{
	size_t n = strlen(t);
	while (n && isspace((unsigned char)t[n - 1]))
		t[--n] = 0;
}
static int always(const char *t) { (void)t; return 1; }
static int nonempty(const char *t) { return t[0] != 0; }

static const struct filter_ops registry[] = {
	{"upper", upper, always},
	{"lower", lower, nonempty},
	{"trim", trim, always},
};

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct filter_ops *)a)->name, ((const struct filter_ops *)b)->name);
}

static const struct filter_ops *find(const char *name)
{
	struct filter_ops key = {name, NULL, NULL};
	return bsearch(&key, registry, sizeof registry / sizeof *registry, sizeof *registry, by_name);
}

static void run(const struct filter_ops *op, char *text)
{
	if (op->accepts(text))
		op->apply(text);
}

int main(int argc, char **argv)
{
	char text[256];
	snprintf(text, sizeof text, "%s", argc > 2 ? argv[2] : "  Hello, facet  ");
	const struct filter_ops *op = find(argc > 1 ? argv[1] : "trim");
	if (!op) {
		fprintf(stderr, "no such filter\n");
		return 1;
	}
	run(op, text);
	printf("[%s]\n", text);
	return 0;
}
