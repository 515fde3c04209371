/* cmd_dump.c — `facet dump`: the program model as text, for debugging the
 * analyses (pointer statements, call sites with their operands, globals'
 * initializer slots). Value ids are printed as %N. */
#include "cli/cli.h"
#include "cli/load.h"

#include <stdio.h>
#include <string.h>

static void print_value(unsigned v)
{
	if (v == IR_NONE)
		fputs("_", stdout);
	else
		printf("%%%u", v);
}

static void print_stmt(const ir_program *p, const ir_stmt *st)
{
	printf("    %-6s ", ir_stmt_op_name(st->op));
	switch (st->op) {
	case ST_ALLOCA:
		print_value(st->dst);
		printf(" = alloca %llu bytes", (unsigned long long)st->size);
		break;
	case ST_COPY:
		print_value(st->dst);
		fputs(" = ", stdout);
		print_value(st->src);
		break;
	case ST_GEP:
		print_value(st->dst);
		fputs(" = ", stdout);
		print_value(st->src);
		if (st->var_offset)
			fputs(" + ?", stdout);
		else
			printf(" + %lld", (long long)st->offset);
		break;
	case ST_LOAD:
		print_value(st->dst);
		fputs(" = *(", stdout);
		print_value(st->src);
		printf(" + %lld)", (long long)st->offset);
		break;
	case ST_STORE:
		fputs("*(", stdout);
		print_value(st->dst);
		printf(" + %lld) = ", (long long)st->offset);
		print_value(st->src);
		break;
	case ST_CALL: {
		const ir_site *s = &p->sites[st->site];
		print_value(s->result);
		printf(" = site %u %s ", s->id, site_kind_name(s->kind));
		if (s->callee)
			printf("@%s", s->callee->name);
		else
			print_value(s->callee_value);
		fputs("(", stdout);
		for (unsigned i = 0; i < s->n_args; i++) {
			if (i)
				fputs(", ", stdout);
			print_value(s->args[i]);
		}
		printf(")  ; %s:%u:%u", s->loc.file ? s->loc.file : "?", s->loc.line, s->loc.col);
		break;
	}
	case ST_RET:
		print_value(st->src);
		break;
	}
	putchar('\n');
}

int cmd_dump(int argc, char **argv)
{
	if (cli_wants_help(argc, argv) || argc < 2) {
		fputs("usage: facet dump FILE...\n\n"
		      "Prints facet's program model of the linked files: globals with the\n"
		      "functions and globals in their initializers (byte offsets), and per\n"
		      "function the pointer statements the points-to analysis reads.\n",
		      argc < 2 ? stderr : stdout);
		return argc < 2 ? EXIT_USAGE : EXIT_OK;
	}
	ir_program *p = cli_load("dump", argv + 1, argc - 1, true);
	if (!p)
		return EXIT_INPUT;
	printf("; %u functions, %u globals, %u sites, %u values, %u statements (%u for constants)\n",
	       p->n_functions, p->n_globals, p->n_sites, p->n_values, p->n_stmts, p->n_const_stmts);
	for (unsigned i = 0; i < p->n_globals; i++) {
		const ir_global *g = p->globals[i];
		printf("global @%s = %%%u, %llu bytes", g->name, g->value, (unsigned long long)g->size);
		for (unsigned k = 0; k < g->n_slots; k++)
			printf("%s [%llu] = @%s%+lld", k ? "," : ":", (unsigned long long)g->slots[k].offset,
			       g->slots[k].kind == SLOT_FUNCTION ? g->slots[k].function->name : g->slots[k].global->name,
			       (long long)g->slots[k].addend);
		putchar('\n');
	}
	if (p->n_const_stmts)
		puts("constants:");
	for (unsigned i = 0; i < p->n_const_stmts; i++)
		print_stmt(p, &p->stmts[i]);
	for (unsigned i = 0; i < p->n_functions; i++) {
		const ir_function *f = p->functions[i];
		printf("%s @%s = %%%u", f->defined ? "define" : "declare", f->name, f->value);
		if (f->n_args)
			printf(" args %%%u..%%%u", f->first_arg, f->first_arg + f->n_args - 1);
		putchar('\n');
		for (unsigned k = 0; k < f->n_stmts; k++)
			print_stmt(p, &p->stmts[f->first_stmt + k]);
	}
	ir_program_free(p);
	return EXIT_OK;
}
