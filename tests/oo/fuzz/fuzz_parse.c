/* fuzz_parse.c — libFuzzer harness: any bytes into oo_parse, and every
 * analysis over whatever parses. Seed it with the .oo files of tests/oo:
 *   BUILD/tests/oo/oo_fuzz_parse -max_total_time=60 corpus/ tests/oo/ */
#include <stddef.h>
#include <stdint.h>

#include "oo/oo.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	facet_error err = {0};
	oo_program *p;
	if (oo_parse((const char *)data, size, "fuzz.oo", &p, &err))
		return 0;
	oo_options opt = {0, 5000};   /* a small budget keeps each input fast */
	for (int a = 0; a < OO_NALGO; a++) {
		oo_graph *g;
		oo_table *t;
		facet_error e = {0};
		if (oo_analyze(p, (oo_algo)a, &opt, &g, &t, &e) == 0) {
			oo_graph_free(g);
			oo_table_free(t);
		}
	}
	oo_graph_free(oo_rta(p));   /* the worklist RTA; oo_analyze ran the rounds for the trace */
	oo_program_free(p);
	return 0;
}
