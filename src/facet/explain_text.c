/* explain_text.c — the explain model (explain.h) as text for people: the
 * one text renderer of a site object, whoever filled it (facet explain from
 * a refinement result, the query layer from a catalog). */
#include "facet/explain.h"

#include <stdio.h>
#include <string.h>

#include "cg/registry.h"

static const char *str(json_t *o, const char *key, const char *none)
{
	json_t *v = json_object_get(o, key);
	return json_is_string(v) ? json_string_value(v) : none;
}

static bool in_graph(json_t *target, const char *graph)
{
	size_t i;
	json_t *g;
	json_array_foreach(json_object_get(target, "in_graphs"), i, g)
		if (strcmp(json_string_value(g), graph) == 0)
			return true;
	return false;
}

static void print_field(FILE *out, json_t *d, json_t *f)
{
	fprintf(out, "  dispatched field: %s %s (%s.%s, signature %s) — %s, found %s\n", str(f, "kind", "?"),
	       str(f, "key", "?"), str(f, "record", "?"), str(f, "name", "?"), str(f, "signature", "?"),
	       str(d, "status", "?"), str(d, "step", "?"));
	if (json_is_string(json_object_get(f, "block")))
		fprintf(out, "  %s (no type describes the block; its lists start where walks along them start)\n",
		        str(f, "block", "?"));
	if (json_is_string(json_object_get(f, "element")))
		fprintf(out, "  the index is not a constant: the key is the whole array, and F every element's\n");
	fprintf(out, "  F(field): %lld functions, %lld by initializers", (long long)json_integer_value(json_object_get(f, "assigned")),
	       (long long)json_integer_value(json_object_get(f, "init")));
	size_t i;
	json_t *r;
	json_array_foreach(json_object_get(f, "signature_rejected"), i, r)
		fprintf(out, "%s%s", i ? ", " : "; written there with an incompatible signature: ", str(r, "function", "?"));
	fprintf(out, "\n");
}

void facet_explain_print_text(FILE *out, json_t *s)
{
	fprintf(out, "site %lld in %s at %s:%lld:%lld\n", (long long)json_integer_value(json_object_get(s, "id")),
	       str(s, "caller", "?"), str(s, "file", "?"), (long long)json_integer_value(json_object_get(s, "line")),
	       (long long)json_integer_value(json_object_get(s, "column")));
	json_t *f = json_object_get(s, "field"), *d = json_object_get(s, "dispatch");
	if (json_is_object(f)) {
		print_field(out, d, f);
	} else {
		fprintf(out, "  dispatched field: unrecovered (%s)\n", str(d, "reason", "(null)"));
		if (json_is_string(json_object_get(d, "callee_type")))
			fprintf(out, "  callee declared as %s (variable %s)\n", str(d, "callee_type", "?"),
			       str(d, "callee_variable", "(null)"));
	}
	json_t *c = json_object_get(s, "collapsed"), *h;
	size_t w;
	json_array_foreach(json_object_get(c, "widest"), w, h) {
		fprintf(out, "  collapsed object %s holds %lld of the callee's %lld locations; collapsed by %s",
		       str(h, "object", "?"), (long long)json_integer_value(json_object_get(h, "holds")),
		       (long long)json_integer_value(json_object_get(c, "callee_locations")), str(h, "cause", "?"));
		/* A collapse with no statement of its own (a stack slot's) has no place to name. */
		if (json_is_string(json_object_get(h, "file")))
			fprintf(out, " (%s in %s at %s:%lld)\n", str(h, "statement", "a statement"), str(h, "function", "?"),
			       str(h, "file", "?"), (long long)json_integer_value(json_object_get(h, "line")));
		else
			fprintf(out, " (where is not recorded)\n");
	}
	if (json_integer_value(json_object_get(c, "objects")) > (json_int_t)json_array_size(json_object_get(c, "widest")))
		fprintf(out, "  ... and %lld more collapsed objects hold some of them\n",
		       (long long)(json_integer_value(json_object_get(c, "objects")) - (json_int_t)json_array_size(json_object_get(c, "widest"))));
	fprintf(out, "  |R0| = %lld, symbolic result %lld%s\n", (long long)json_integer_value(json_object_get(d, "n_r0")),
	       (long long)json_integer_value(json_object_get(d, "n_sym")),
	       json_is_true(json_object_get(d, "abstains")) ? " — abstains (no addition, no residual removal)" : "");
	if (json_is_true(json_object_get(d, "runtime_code")))
		fprintf(out, "  the callee may also be code loaded at run time (a dlsym result): outside the module, "
		        "in no graph\n");
	json_t *v = json_object_get(s, "virtual");
	if (json_is_object(v)) {   /* a C++ virtual call: the C++ graphs' columns too */
		json_t *slot = json_object_get(v, "slot");
		fprintf(out, "  virtual call: class %s, slot ", str(v, "class", "not known"));
		if (json_is_integer(slot))
			fprintf(out, "%lld\n", (long long)json_integer_value(slot));
		else
			fprintf(out, "any (a member-function pointer)\n");
	}
	int last = json_is_object(v) ? CG_VSLOT : CG_RPM;
	size_t i;
	json_t *t;
	json_array_foreach(json_object_get(s, "targets"), i, t) {
		bool derived = json_array_size(json_object_get(t, "warrants")) > 0;
		for (int g = CG_R0; g <= last; g++)
			derived |= g != CG_SOURCE && in_graph(t, cg_graph_name(g));
		if (!derived)
			continue;   /* andersen's alone: the text shows the derived graphs */
		fprintf(out, "  %-40s", str(t, "name", "?"));
		for (int g = CG_R0; g <= last; g++)
			if (g != CG_SOURCE)
				fprintf(out, " %s%s", in_graph(t, cg_graph_name(g)) ? "+" : "-", cg_graph_name(g));
		fprintf(out, "\n");
		size_t k;
		json_t *wr;
		json_array_foreach(json_object_get(t, "warrants"), k, wr) {
			const char *premise = str(wr, "premise", "");
			fprintf(out, "      %s%s %s by %s%s%s%s: %s\n", strcmp(str(wr, "graph", "rpm"), "rpm") ? "vslot: " : "",
			       str(wr, "fact", "?"), str(wr, "outcome", "?"), str(wr, "rule", "?"),
			       *premise ? " [premise " : "", premise, *premise ? "]" : "", str(wr, "evidence", ""));
		}
	}
	json_t *q;
	json_array_foreach(json_object_get(s, "questions"), i, q)
		fprintf(out, "  residual question (%s): %zu candidates%s\n", str(q, "kind", "?"),
		       json_array_size(json_object_get(q, "candidates")),
		       json_is_true(json_object_get(q, "answered")) ? ", answered" : ", unanswered (no oracle, or no usable answer)");
}
