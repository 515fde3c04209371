/* print.c — the program model as text (print.h). */
#include "ir/print.h"

#include <string.h>

static void print_value(FILE *out, unsigned v)
{
	if (v == IR_NONE)
		fputs("_", out);
	else
		fprintf(out, "%%%u", v);
}

static void print_stmt(FILE *out, const ir_program *p, const ir_stmt *st)
{
	fprintf(out, "    %-6s ", ir_stmt_op_name(st->op));
	switch (st->op) {
	case ST_ALLOCA:
		print_value(out, st->dst);
		fprintf(out, " = alloca %llu bytes", (unsigned long long)st->size);
		break;
	case ST_COPY:
		print_value(out, st->dst);
		fputs(" = ", out);
		print_value(out, st->src);
		break;
	case ST_GEP:
		print_value(out, st->dst);
		fputs(" = ", out);
		print_value(out, st->src);
		if (st->var_offset)
			fputs(" + ?", out);
		else
			fprintf(out, " + %lld", (long long)st->offset);
		break;
	case ST_LOAD:
		print_value(out, st->dst);
		fputs(" = *(", out);
		print_value(out, st->src);
		fprintf(out, " + %lld)", (long long)st->offset);
		break;
	case ST_STORE:
		fputs("*(", out);
		print_value(out, st->dst);
		fprintf(out, " + %lld) = ", (long long)st->offset);
		print_value(out, st->src);
		break;
	case ST_CALL: {
		const ir_site *s = &p->sites[st->site];
		print_value(out, s->result);
		fprintf(out, " = site %u %s ", s->id, site_kind_name(s->kind));
		if (s->callee)
			fprintf(out, "@%s", s->callee->name);
		else
			print_value(out, s->callee_value);
		fputs("(", out);
		for (unsigned i = 0; i < s->n_args; i++) {
			if (i)
				fputs(", ", out);
			print_value(out, s->args[i]);
		}
		fprintf(out, ")  ; %s:%u:%u", s->loc.file ? s->loc.file : "?", s->loc.line, s->loc.col);
		break;
	}
	case ST_RET:
		print_value(out, st->src);
		break;
	}
	fputc('\n', out);
}

void ir_print_model(FILE *out, const ir_program *p)
{
	fprintf(out, "; %u functions, %u globals, %u sites, %u values, %u statements (%u for constants)\n",
	       p->n_functions, p->n_globals, p->n_sites, p->n_values, p->n_stmts, p->n_const_stmts);
	for (unsigned i = 0; i < p->n_globals; i++) {
		const ir_global *g = p->globals[i];
		fprintf(out, "global @%s = %%%u, %llu bytes", g->name, g->value, (unsigned long long)g->size);
		for (unsigned k = 0; k < g->n_slots; k++)
			fprintf(out, "%s [%llu] = @%s%+lld", k ? "," : ":", (unsigned long long)g->slots[k].offset,
			       g->slots[k].kind == SLOT_FUNCTION ? g->slots[k].function->name : g->slots[k].global->name,
			       (long long)g->slots[k].addend);
		fputc('\n', out);
	}
	if (p->n_const_stmts)
		fprintf(out, "%s\n", "constants:");
	for (unsigned i = 0; i < p->n_const_stmts; i++)
		print_stmt(out, p, &p->stmts[i]);
	for (unsigned i = 0; i < p->n_functions; i++) {
		const ir_function *f = p->functions[i];
		fprintf(out, "%s @%s = %%%u", f->defined ? "define" : "declare", f->name, f->value);
		if (f->n_args)
			fprintf(out, " args %%%u..%%%u", f->first_arg, f->first_arg + f->n_args - 1);
		fputc('\n', out);
		for (unsigned k = 0; k < f->n_stmts; k++)
			print_stmt(out, p, &p->stmts[f->first_stmt + k]);
	}
}
