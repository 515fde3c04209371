/* model.c — small helpers over the program model; see model.h. */
#include "ir/model.h"

#include <string.h>

static const char *const linkage_names[] = {
	"external", "available_externally", "linkonce", "weak", "appending",
	"internal", "private", "extern_weak", "common", "other",
};

const char *ir_linkage_name(ir_linkage l) { return linkage_names[l]; }

bool ir_linkage_is_local(ir_linkage l) { return l == LINK_INTERNAL || l == LINK_PRIVATE; }

const char *site_kind_name(site_kind k)
{
	return k == SITE_DIRECT ? "direct" : k == SITE_INDIRECT ? "indirect" : "asm";
}

const char *ir_stmt_op_name(ir_stmt_op op)
{
	static const char *const names[] = {"alloca", "copy", "gep", "load", "store", "call", "ret"};
	return names[op];
}

static const char *const di_kind_names[] = {
	"basic", "pointer", "typedef", "const", "volatile", "restrict", "atomic",
	"struct", "union", "array", "enum", "subroutine", "member", "other",
};

const char *di_kind_name(di_kind k) { return di_kind_names[k]; }

di_type *di_strip(di_type *t)
{
	while (t && (t->kind == DI_TYPEDEF || t->kind == DI_CONST || t->kind == DI_VOLATILE ||
	             t->kind == DI_RESTRICT || t->kind == DI_ATOMIC))
		t = t->base;
	return t;
}

bool di_is_function_pointer(di_type *t)
{
	t = di_strip(t);
	if (!t || t->kind != DI_POINTER)
		return false;
	t = di_strip(t->base);
	return t && t->kind == DI_SUBROUTINE;
}

const char *ir_function_label(const ir_function *f)
{
	return f->demangled ? f->demangled : f->name;
}

const char *ir_global_label(const ir_global *g)
{
	return g->demangled ? g->demangled : g->name;
}

ir_function *ir_find_function(const ir_program *p, const char *name)
{
	return strmap_get(&p->function_by_name, name);
}

ir_global *ir_find_global(const ir_program *p, const char *name)
{
	return strmap_get(&p->global_by_name, name);
}

const char *ir_intern(ir_program *p, const char *s)
{
	const char *hit = strmap_get(&p->interned, s);
	if (hit)
		return hit;
	char *copy = arena_strdup(&p->arena, s);
	strmap_put(&p->interned, copy, copy);
	return copy;
}

void ir_program_free(ir_program *p)
{
	if (!p)
		return;
	strmap_free(&p->function_by_name);
	strmap_free(&p->global_by_name);
	strmap_free(&p->interned);
	arena a = p->arena;   /* p itself lives in its arena */
	arena_free(&a);
}
