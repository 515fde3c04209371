/* analyze.c — one entry point over the six constructions; see oo.h. */
#include "oo/oo.h"

#include <string.h>

static const char *const names[OO_NALGO] = {"cha", "rta", "xta", "vta", "pta", "dyn"};

const char *oo_algo_name(int algo)
{
	return algo >= 0 && algo < OO_NALGO ? names[algo] : "?";
}

int oo_algo_parse(const char *name)
{
	for (int i = 0; i < OO_NALGO; i++)
		if (strcmp(name, names[i]) == 0)
			return i;
	return -1;
}

int oo_analyze(const oo_program *p, oo_algo algo, const oo_options *opt, oo_graph **out, oo_table **trace,
               facet_error *err)
{
	oo_options none = {0};
	if (!opt)
		opt = &none;
	if (trace)
		*trace = NULL;
	*out = NULL;
	switch (algo) {
	case OO_CHA: *out = oo_cha(p, trace); return 0;
	case OO_RTA: *out = opt->rta_rounds || trace ? oo_rta_rounds(p, trace) : oo_rta(p); return 0;
	case OO_XTA: *out = oo_xta(p, trace); return 0;
	case OO_VTA: *out = oo_vta(p, trace); return 0;
	case OO_PTA: *out = oo_pta(p, trace); return 0;
	case OO_DYN: return oo_dyn(p, opt->dyn_max_states, out, trace, err);
	case OO_NALGO: break;
	}
	error_set(err, "%s: unknown algorithm %d", p->file, (int)algo);
	return -1;
}
