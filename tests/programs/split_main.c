/* split_main.c — the driver half of the two-file program (see split.h):
 * reads key=value lines from a file or a built-in sample and prints them. */
/* @link-with split_util.c */
#include "split.h"

#include <stdio.h>

static int verbose;

static void report(const char *key, const char *value)
{
	if (verbose)
		printf("%s -> %s\n", key, value); /* @call(O0) printf (merged with the other printf at -O2) */
	else
		printf("%s=%s\n", key, value); /* @call(O0) printf (merged with the other printf at -O2) */
}

static int read_config(FILE *in, const char *name)
{
	char line[256];
	int bad = 0;

	while (fgets(line, sizeof line, in)) { /* @call fgets */
		struct setting s;
		if (line[0] == '#' || line[0] == '\n')
			continue;
		if (parse_setting(line, &s) != 0) { /* @call parse_setting */
			bad++;
			continue;
		}
		report(s.key, s.value); /* @inline-call report */
		free_setting(&s); /* @call free_setting */
	}
	char *label = xstrdup(name); /* @inline-call xstrdup */
	fprintf(stderr, "%s: %d bad line(s)\n", trim(label), bad); /* @call fprintf @call trim */
	free(label); /* @call free */
	return bad;
}

int main(int argc, char **argv)
{
	static const char sample[] = "name = facet\n# comment\nlevel=2\nbroken line\n";
	FILE *in;

	verbose = getenv("VERBOSE") != NULL; /* @call getenv */
	if (argc > 1)
		in = fopen(argv[1], "r"); /* @call fopen */
	else
		in = fmemopen((void *)sample, sizeof sample - 1, "r"); /* @call fmemopen */
	if (!in) {
		perror(argc > 1 ? argv[1] : "fmemopen"); /* @call perror */
		return 1;
	}
	int bad = read_config(in, argc > 1 ? argv[1] : "sample"); /* @inline-call read_config */
	fclose(in); /* @call fclose */
	return bad != 0;
}
