/* ingest.c — parse, link, verify and lower LLVM modules; see ingest.h.
 *
 * Lowering runs in three passes over the linked module:
 *   1. number every function and global (value ids, ir_function/ir_global);
 *   2. per defined function: number arguments and instructions, record call
 *      sites (kind, callee, IR call type, debug location and inlined-at chain,
 *      callback arguments) and #dbg_value/#dbg_declare bindings;
 *   3. global initializers (pointer slots at byte offsets) and the
 *      address-taken flag of every function, by LLVM CallGraph's rule.
 * Nothing LLVM outlives ir_ingest: the module and context are disposed. */
#include "ir/ingest.h"
#include "ir/asmcall.h"
#include "ir/dinfo.h"
#include "ir/lowering.h"
#include "ir/sections.h"

#include <errno.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/Core.h>
#include <llvm-c/DebugInfo.h>
#include <llvm-c/IRReader.h>
#include <llvm-c/Linker.h>
#include <llvm-c/Target.h>

#include "ir/guard.h"
#include "ir/inkind.h"
#include "util/fsio.h"
#include "util/ptrmap.h"
#include "util/vec.h"
#include "util/xalloc.h"



/* ---- diagnostics -------------------------------------------------------------------- */

typedef struct diag_sink { char msg[768]; int set; } diag_sink;

static void on_diagnostic(LLVMDiagnosticInfoRef info, void *opaque)
{
	diag_sink *sink = opaque;
	if (LLVMGetDiagInfoSeverity(info) != LLVMDSError || sink->set)
		return;
	char *d = LLVMGetDiagInfoDescription(info);
	snprintf(sink->msg, sizeof sink->msg, "%s", d ? d : "unknown error");
	LLVMDisposeMessage(d);
	sink->set = 1;
}

/* ---- small helpers -------------------------------------------------------------------- */

static ir_linkage linkage_of(LLVMValueRef g)
{
	switch (LLVMGetLinkage(g)) {
	case LLVMExternalLinkage: return LINK_EXTERNAL;
	case LLVMAvailableExternallyLinkage: return LINK_AVAILABLE_EXTERNALLY;
	case LLVMLinkOnceAnyLinkage: case LLVMLinkOnceODRLinkage: return LINK_LINKONCE;
	case LLVMWeakAnyLinkage: case LLVMWeakODRLinkage: return LINK_WEAK;
	case LLVMAppendingLinkage: return LINK_APPENDING;
	case LLVMInternalLinkage: return LINK_INTERNAL;
	case LLVMPrivateLinkage: return LINK_PRIVATE;
	case LLVMExternalWeakLinkage: return LINK_EXTERN_WEAK;
	case LLVMCommonLinkage: return LINK_COMMON;
	default: return LINK_OTHER;
	}
}

const char *lower_type_string(lowering *L, LLVMTypeRef ty)
{
	const char *s = ptrmap_get(&L->type_strings, ty);
	if (s)
		return s;
	char *text = LLVMPrintTypeToString(ty);
	s = ir_intern(L->prog, text);
	LLVMDisposeMessage(text);
	ptrmap_put(&L->type_strings, ty, (void *)s);
	return s;
}

const ir_fn_type *lower_fn_type(lowering *L, LLVMTypeRef fty)
{
	ir_fn_type *t = ptrmap_get(&L->fn_types, fty);
	if (t)
		return t;
	t = ARENA_NEW(&L->prog->arena, ir_fn_type);
	t->text = lower_type_string(L, fty);
	t->ret = lower_type_string(L, LLVMGetReturnType(fty));
	t->n_params = LLVMCountParamTypes(fty);
	t->vararg = LLVMIsFunctionVarArg(fty) != 0;
	t->params = ARENA_ARRAY(&L->prog->arena, const char *, t->n_params ? t->n_params : 1);
	LLVMTypeRef *types = xmalloc((t->n_params ? t->n_params : 1) * sizeof *types);
	LLVMGetParamTypes(fty, types);
	for (unsigned i = 0; i < t->n_params; i++)
		t->params[i] = lower_type_string(L, types[i]);
	free(types);
	t->mentions_pointer = strstr(t->text, "ptr") != NULL;
	ptrmap_put(&L->fn_types, fty, t);
	return t;
}

static const char *value_name(lowering *L, LLVMValueRef v)
{
	size_t len = 0;
	const char *name = LLVMGetValueName2(v, &len);
	return arena_strndup(&L->prog->arena, name ? name : "", len);
}

unsigned lower_new_value(lowering *L, LLVMValueRef v)
{
	unsigned id = L->prog->n_values++;
	ptrmap_put(&L->value_ids, v, (void *)(uintptr_t)(id + 1));
	return id;
}

unsigned lower_value_id(lowering *L, LLVMValueRef v)
{
	uintptr_t raw = (uintptr_t)ptrmap_get(&L->value_ids, v);
	return raw ? (unsigned)(raw - 1) : IR_NONE;
}

/* The metadata node attached to a global object under a kind, or NULL. */
static LLVMMetadataRef global_metadata(LLVMValueRef g, unsigned kind)
{
	size_t n = 0;
	LLVMValueMetadataEntry *entries = LLVMGlobalCopyAllMetadata(g, &n);
	LLVMMetadataRef found = NULL;
	for (size_t i = 0; i < n && !found; i++)
		if (LLVMValueMetadataEntriesGetKind(entries, (unsigned)i) == kind)
			found = LLVMValueMetadataEntriesGetMetadata(entries, (unsigned)i);
	if (entries)
		LLVMDisposeValueMetadataEntries(entries);
	return found;
}

/* ---- pass 1: functions and globals ------------------------------------------------------ */

static void lower_function_decl(lowering *L, LLVMValueRef f)
{
	ir_program *p = L->prog;
	ir_function *fn = ARENA_NEW(&p->arena, ir_function);
	fn->id = p->n_functions;
	fn->value = lower_new_value(L, f);
	fn->name = value_name(L, f);
	fn->linkage = linkage_of(f);
	fn->defined = !LLVMIsDeclaration(f);
	fn->intrinsic = LLVMGetIntrinsicID(f) != 0;
	fn->nocallback = LLVMGetEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, L->nocallback_attr) != NULL;
	LLVMTypeRef fty = LLVMGlobalGetValueType(f);
	fn->fn_type = lower_fn_type(L, fty);
	fn->ir_type = fn->fn_type->text;
	fn->vararg = fn->fn_type->vararg;
	LLVMMetadataRef sp = LLVMGetSubprogram(f);
	if (sp)
		dinfo_subprogram(&L->di, sp, &fn->di_name, &fn->loc, L->sites_only ? NULL : &fn->di_sig);
	p->functions[p->n_functions++] = fn;
	ptrmap_put(&L->functions, f, fn);
	if (!strmap_has(&p->function_by_name, fn->name))
		strmap_put(&p->function_by_name, fn->name, fn);
}

static void lower_global_decl(lowering *L, LLVMValueRef g)
{
	ir_program *p = L->prog;
	ir_global *gl = ARENA_NEW(&p->arena, ir_global);
	gl->id = p->n_globals;
	gl->value = lower_new_value(L, g);
	gl->name = value_name(L, g);
	gl->linkage = linkage_of(g);
	gl->defined = !LLVMIsDeclaration(g);
	gl->constant = LLVMIsGlobalConstant(g) != 0;
	LLVMTypeRef ty = LLVMGlobalGetValueType(g);
	gl->ir_type = lower_type_string(L, ty);
	gl->size = LLVMTypeIsSized(ty) ? LLVMABISizeOfType(L->layout, ty) : 0;
	gl->elem = lower_array_elem(L, ty);
	gl->arrays = gl->defined && gl->size ? lower_arrays(L, ty) : NULL;
	const char *section = LLVMGetSection(g);
	gl->section = section && *section ? ir_intern(p, section) : NULL;
	LLVMMetadataRef gve = global_metadata(g, L->dbg_kind);
	if (gve && !L->sites_only && LLVMGetMetadataKind(gve) == LLVMDIGlobalVariableExpressionMetadataKind) {
		gl->var = dinfo_variable(&L->di, LLVMDIGlobalVariableExpressionGetVariable(gve));
		uint64_t size_bits = 0;
		gl->var_fragment = dinfo_expr_fragment(&L->di, LLVMDIGlobalVariableExpressionGetExpression(gve),
		                                       &gl->var_offset_bits, &size_bits);
		if (!gl->var_fragment)
			gl->var_offset_bits = 0;
	}
	p->globals[p->n_globals++] = gl;
	ptrmap_put(&L->globals, g, gl);
	if (!strmap_has(&p->global_by_name, gl->name))
		strmap_put(&p->global_by_name, gl->name, gl);
}

/* ---- pass 2: function bodies ------------------------------------------------------------ */

bool lower_is_call(LLVMValueRef inst)
{
	LLVMOpcode op = LLVMGetInstructionOpcode(inst);
	return op == LLVMCall || op == LLVMInvoke || op == LLVMCallBr;
}

/* The function a call calls directly, with LLVM's rule (CallBase::getCalledFunction):
 * the callee operand is a Function whose type is the call's type. */
LLVMValueRef lower_direct_callee(LLVMValueRef call)
{
	LLVMValueRef callee = LLVMGetCalledValue(call);
	if (callee && LLVMIsAFunction(callee) &&
	    LLVMGlobalGetValueType(callee) == LLVMGetCalledFunctionType(call))
		return callee;
	return NULL;
}

/* Argument positions a broker function's !callback metadata names as callees. */
static unsigned callback_positions(lowering *L, LLVMValueRef broker, unsigned *pos, unsigned max)
{
	LLVMMetadataRef md = global_metadata(broker, L->callback_kind);
	if (!md || LLVMGetMetadataKind(md) != LLVMMDTupleMetadataKind)
		return 0;
	LLVMValueRef v = LLVMMetadataAsValue(L->ctx, md);
	unsigned n = LLVMGetMDNodeNumOperands(v), count = 0;
	LLVMValueRef *ops = xcalloc(n ? n : 1, sizeof *ops);
	LLVMGetMDNodeOperands(v, ops);
	for (unsigned i = 0; i < n && count < max; i++) {
		if (!ops[i] || LLVMGetValueKind(ops[i]) != LLVMMetadataAsValueValueKind)
			continue;
		LLVMMetadataRef enc = LLVMValueAsMetadata(ops[i]);
		if (LLVMGetMetadataKind(enc) != LLVMMDTupleMetadataKind || LLVMGetMDNodeNumOperands(ops[i]) == 0)
			continue;
		LLVMValueRef first;
		unsigned en = LLVMGetMDNodeNumOperands(ops[i]);
		LLVMValueRef *eops = xcalloc(en, sizeof *eops);
		LLVMGetMDNodeOperands(ops[i], eops);
		first = eops[0];
		free(eops);
		if (first && LLVMIsAConstantInt(first))
			pos[count++] = (unsigned)LLVMConstIntGetZExtValue(first);
	}
	free(ops);
	return count;
}

static void lower_inlined_at(lowering *L, ir_site *s, LLVMMetadataRef loc)
{
	VEC(ir_inline_frame) frames = {0};
	LLVMMetadataRef at = LLVMDILocationGetInlinedAt(loc);
	for (int depth = 0; at && depth < 256; depth++) {
		if (LLVMGetMetadataKind(at) != LLVMDILocationMetadataKind)
			break;
		ir_inline_frame fr = {0};
		fr.loc = dinfo_location(&L->di, at);
		LLVMMetadataRef sp = dinfo_subprogram_of(&L->di, LLVMDILocationGetScope(at));
		if (sp) {
			ir_loc unused;
			di_type *sig;
			dinfo_subprogram(&L->di, sp, &fr.function, &unused, &sig);
		}
		VEC_PUSH(&frames, fr);
		at = LLVMDILocationGetInlinedAt(at);
	}
	s->n_inlined = (unsigned)frames.len;
	s->inlined_at = arena_memdup(&L->prog->arena, frames.items, frames.len * sizeof *frames.items);
	VEC_FREE(&frames);
}

/* The function a constant names through casts and aliases, or NULL. */
static ir_function *constant_function(lowering *L, LLVMValueRef c)
{
	for (int depth = 0; c && depth < 8 && !LLVMIsAFunction(c); depth++)
		c = LLVMIsAGlobalAlias(c) ? LLVMAliasGetAliasee(c)
		    : LLVMIsAConstantExpr(c) && (LLVMGetConstOpcode(c) == LLVMBitCast ||
		                                 LLVMGetConstOpcode(c) == LLVMAddrSpaceCast) ? LLVMGetOperand(c, 0)
		    : NULL;
	return c && LLVMIsAFunction(c) ? ptrmap_get(&L->functions, c) : NULL;
}

/* The function a name in asm text calls: a function, or an alias of one. */
static ir_function *named_function(lowering *L, const char *name, size_t len)
{
	char buf[256];
	if (len >= sizeof buf)
		return NULL;
	memcpy(buf, name, len);
	buf[len] = 0;
	LLVMValueRef f = LLVMGetNamedFunction(L->mod, buf);
	if (!f)
		f = LLVMGetNamedGlobalAlias(L->mod, buf, len);
	return f ? constant_function(L, f) : NULL;
}

/* One site for a call the asm's text makes (asmcall.h), after the asm's
 * own site; false when it names nothing the program has (a jmp to a label). */
static bool lower_asm_call(lowering *L, const ir_site *asm_site, LLVMValueRef inst, const asm_calls *ac,
                           const asm_call *c)
{
	ir_site s = *asm_site;
	s.id = (unsigned)L->sites.len;
	s.kind = SITE_INDIRECT;
	s.asm_goto = false;
	s.asm_pointer_operands = s.asm_unread_calls = 0;
	s.asm_call = true;
	s.asm_memory = c->form == ASM_CALL_MEMORY;
	s.asm_arg = c->form == ASM_CALL_SYMBOL ? IR_NONE : c->arg;
	ir_function *f = c->form == ASM_CALL_SYMBOL ? named_function(L, c->name, c->name_len)
	                 : c->form == ASM_CALL_VALUE ? constant_function(L, LLVMGetOperand(inst, c->arg)) : NULL;
	if (f)
		s.kind = SITE_DIRECT, s.callee = f;
	else if (c->form == ASM_CALL_SYMBOL)
		return false;
	s.result = s.callee_value = IR_NONE;
	s.n_args = 0;
	s.args = NULL;
	s.arg_consts = NULL;
	s.arg_strings = NULL;
	if (L->keep_site_insts)
		VEC_PUSH(&L->site_insts, inst);
	if (!L->sites_only) {
		if (f)
			s.callee_value = f->value;
		else if (s.asm_memory)
			s.callee_value = L->prog->n_values++;   /* the load lower.c makes from the operand */
		else
			s.callee_value = lower_operand(L, LLVMGetOperand(inst, c->arg));
		for (unsigned k = 0; k < ASM_ABI_ARGS; k++)
			if (ac->abi_arg[k] >= 0)
				s.n_args = k + 1;
		s.args = ARENA_ARRAY(&L->prog->arena, unsigned, s.n_args ? s.n_args : 1);
		s.arg_consts = ARENA_ARRAY(&L->prog->arena, int64_t, s.n_args ? s.n_args : 1);
		for (unsigned k = 0; k < s.n_args; k++) {
			LLVMValueRef arg = ac->abi_arg[k] >= 0 ? LLVMGetOperand(inst, (unsigned)ac->abi_arg[k]) : NULL;
			s.args[k] = arg ? lower_operand(L, arg) : IR_NONE;
			s.arg_consts[k] = arg && LLVMIsAConstantInt(arg) && LLVMGetIntTypeWidth(LLVMTypeOf(arg)) <= 64
			                      ? LLVMConstIntGetSExtValue(arg) : IR_NOT_CONST;
		}
		s.result = ac->returns && lower_tracked_type(L, LLVMTypeOf(inst)) ? s.value : IR_NONE;
	}
	VEC_PUSH(&L->sites, s);
	return true;
}

/* The sites for the calls an inline asm's text makes, after its own (the
 * last site). AT&T x86-64 only: another target's or dialect's text is not
 * read, and its calls are not counted. */
static void lower_asm_calls(lowering *L, LLVMValueRef inst)
{
	LLVMValueRef ia = LLVMGetCalledValue(inst);
	if (!L->x86_64 || LLVMGetInlineAsmDialect(ia) != LLVMInlineAsmDialectATT)
		return;
	size_t tlen = 0, clen = 0;
	const char *t = LLVMGetInlineAsmAsmString(ia, &tlen), *cons = LLVMGetInlineAsmConstraintString(ia, &clen);
	asm_calls ac;
	unsigned asm_id = (unsigned)L->sites.len - 1;
	if (!t || !cons || !asm_calls_read(t, tlen, cons, clen, &ac))
		return;
	L->sites.items[asm_id].asm_unread_calls = ac.unread;
	for (unsigned i = 0; i < ac.n_calls; i++) {
		const asm_call *c = &ac.calls[i];
		ir_site base = L->sites.items[asm_id];   /* copied: pushing may move the vector */
		if (c->form != ASM_CALL_SYMBOL && c->arg >= LLVMGetNumArgOperands(inst))
			continue;   /* asmcall counted an argument the call does not pass */
		if (!lower_asm_call(L, &base, inst, &ac, c) && !c->jump)
			L->sites.items[asm_id].asm_unread_calls++;   /* a name the program lacks */
	}
}

/* The subroutine type a pointer-to-function type t points to (typedefs
 * and qualifiers stripped), NULL when t is none. */
static di_type *pointee_subroutine(di_type *t)
{
	t = di_strip(t);
	if (!t || t->kind != DI_POINTER)
		return NULL;
	t = di_strip(t->base);
	return t && t->kind == DI_SUBROUTINE ? t : NULL;
}

/* The declared type of what a global's debug info says is at its offset 0:
 * the variable itself, or the first member of a struct (nested). */
static di_type *type_at_start(di_type *t)
{
	for (int depth = 0; depth < 8; depth++) {
		t = di_strip(t);
		if (!t || t->kind != DI_STRUCT || t->n_members == 0 || t->members[0].offset_bits != 0 ||
		    t->members[0].bitfield)
			return t;
		t = t->members[0].type;
	}
	return NULL;
}

static di_type *declared_callee(lowering *L, LLVMValueRef c, int depth);

/* A phi or select of pointers (the optimizer merging `handler = f` into a
 * later read of handler): what each operand that is not a function's
 * address is declared as, when every such operand states one and they are
 * the same type; NULL otherwise. */
static di_type *declared_merge(lowering *L, LLVMValueRef c, int depth)
{
	unsigned n = LLVMIsAPHINode(c) ? LLVMCountIncoming(c) : 2;
	di_type *found = NULL;
	for (unsigned i = 0; i < n; i++) {
		LLVMValueRef v = LLVMIsAPHINode(c) ? LLVMGetIncomingValue(c, i) : LLVMGetOperand(c, i + 1);
		if (LLVMIsAFunction(v))
			continue;
		di_type *t = declared_callee(L, v, depth + 1);
		if (!t || (found && found != t))
			return NULL;
		found = t;
	}
	return found;
}

/* ir_site.callee_decl of the called value c (model.h). */
static di_type *declared_callee(lowering *L, LLVMValueRef c, int depth)
{
	if (c && depth < 4 && (LLVMIsAPHINode(c) || LLVMIsASelectInst(c)))
		return declared_merge(L, c, depth);
	if (!c || !LLVMIsALoadInst(c))
		return NULL;
	LLVMValueRef from = LLVMGetOperand(c, 0);
	if (LLVMIsAGlobalVariable(from)) {
		const ir_global *g = ptrmap_get(&L->globals, from);
		return g && g->var && !g->var_fragment ? pointee_subroutine(type_at_start(g->var->type)) : NULL;
	}
	if (LLVMIsACallInst(from)) {   /* `*get_handler()`: the pointer a function returns, loaded */
		const ir_function *f = ptrmap_get(&L->functions, LLVMGetCalledValue(from));
		di_type *ret = f && f->di_sig && f->di_sig->n_params ? di_strip(f->di_sig->params[0]) : NULL;
		return ret && ret->kind == DI_POINTER ? pointee_subroutine(ret->base) : NULL;
	}
	return NULL;
}

/* The C string a constant argument points to: a constant global whose
 * initializer is one NUL-terminated i8 array with no NUL inside. */
static const char *constant_c_string(lowering *L, LLVMValueRef v)
{
	if (!LLVMIsAGlobalVariable(v) || !LLVMIsGlobalConstant(v) || LLVMIsDeclaration(v))
		return NULL;
	LLVMValueRef init = LLVMGetInitializer(v);
	if (!init || !LLVMIsAConstantDataSequential(init) || !LLVMIsConstantString(init))
		return NULL;
	size_t len = 0;
	const char *text = LLVMGetAsString(init, &len);
	if (!text || len == 0 || memchr(text, 0, len) != text + len - 1)
		return NULL;
	return ir_intern(L->prog, text);
}

/* ir_site.arg_strings of a call to a declared function; NULL when no
 * argument is a constant string. */
static const char **lower_arg_strings(lowering *L, LLVMValueRef inst, unsigned n_args)
{
	const char **strings = NULL;
	for (unsigned i = 0; i < n_args; i++) {
		const char *text = constant_c_string(L, LLVMGetOperand(inst, i));
		if (!text)
			continue;
		if (!strings)
			strings = ARENA_ARRAY(&L->prog->arena, const char *, n_args);   /* zeroed: NULL */
		strings[i] = text;
	}
	return strings;
}

static void lower_call(lowering *L, ir_function *fn, LLVMValueRef inst, unsigned value)
{
	L->call_first_site = (unsigned)L->sites.len;
	ir_site s = {0};
	s.id = (unsigned)L->sites.len;
	s.caller = fn;
	s.value = value;
	s.call_fn_type = lower_fn_type(L, LLVMGetCalledFunctionType(inst));
	s.call_type = s.call_fn_type->text;
	LLVMValueRef callee = lower_direct_callee(inst);
	if (callee) {
		s.kind = SITE_DIRECT;
		s.callee = ptrmap_get(&L->functions, callee);
		unsigned pos[8], npos = callback_positions(L, callee, pos, 8);
		unsigned nargs = LLVMGetNumArgOperands(inst);
		ir_function *cbs[8];
		unsigned ncb = 0;
		for (unsigned i = 0; i < npos; i++) {
			if (pos[i] >= nargs)
				continue;
			LLVMValueRef arg = LLVMGetOperand(inst, pos[i]);
			ir_function *target = arg ? ptrmap_get(&L->functions, arg) : NULL;
			if (target)
				cbs[ncb++] = target;
		}
		s.n_callbacks = ncb;
		s.callbacks = arena_memdup(&L->prog->arena, cbs, ncb * sizeof *cbs);
	} else if (LLVMIsAInlineAsm(LLVMGetCalledValue(inst))) {
		s.kind = SITE_ASM;
		s.asm_goto = LLVMGetInstructionOpcode(inst) == LLVMCallBr;
		unsigned nargs = LLVMGetNumArgOperands(inst);
		for (unsigned i = 0; i < nargs; i++)
			s.asm_pointer_operands += LLVMGetTypeKind(LLVMTypeOf(LLVMGetOperand(inst, i))) == LLVMPointerTypeKind;
	} else {
		s.kind = SITE_INDIRECT;
		s.through_alias = constant_function(L, LLVMGetCalledValue(inst));
		if (!L->sites_only)
			s.callee_decl = declared_callee(L, LLVMGetCalledValue(inst), 0);
	}
	s.result = s.callee_value = s.vcall = s.asm_arg = IR_NONE;
	if (L->keep_site_insts)
		VEC_PUSH(&L->site_insts, inst);   /* indexed by s.id, for the trace instrumentation */
	LLVMMetadataRef loc = LLVMInstructionGetDebugLoc(inst);
	if (loc && LLVMGetMetadataKind(loc) == LLVMDILocationMetadataKind) {
		s.loc = dinfo_location(&L->di, loc);
		lower_inlined_at(L, &s, loc);
	}
	if (L->sites_only) {
		VEC_PUSH(&L->sites, s);
		if (s.kind == SITE_ASM)
			lower_asm_calls(L, inst);
		return;
	}
	s.callee_value = s.kind == SITE_ASM ? IR_NONE : lower_operand(L, LLVMGetCalledValue(inst));
	s.n_args = LLVMGetNumArgOperands(inst);
	s.args = ARENA_ARRAY(&L->prog->arena, unsigned, s.n_args);
	s.arg_consts = ARENA_ARRAY(&L->prog->arena, int64_t, s.n_args);
	for (unsigned i = 0; i < s.n_args; i++) {
		LLVMValueRef arg = LLVMGetOperand(inst, i);
		s.args[i] = lower_operand(L, arg);
		s.arg_consts[i] = LLVMIsAConstantInt(arg) && LLVMGetIntTypeWidth(LLVMTypeOf(arg)) <= 64
		                      ? LLVMConstIntGetSExtValue(arg) : IR_NOT_CONST;
	}
	if (s.kind == SITE_DIRECT && s.callee && !s.callee->defined)
		s.arg_strings = lower_arg_strings(L, inst, s.n_args);
	s.result = lower_tracked_type(L, LLVMTypeOf(inst)) ? value : IR_NONE;
	VEC_PUSH(&L->sites, s);
	if (s.kind == SITE_ASM)
		lower_asm_calls(L, inst);
}

static void lower_dbg_records(lowering *L, ir_function *fn, LLVMValueRef inst)
{
	for (LLVMDbgRecordRef r = LLVMGetFirstDbgRecord(inst); r; r = LLVMGetNextDbgRecord(r)) {
		LLVMDbgRecordKind k = LLVMDbgRecordGetKind(r);
		if (k != LLVMDbgRecordDeclare && k != LLVMDbgRecordValue && k != LLVMDbgRecordAssign)
			continue;
		LLVMValueRef v = LLVMDbgVariableRecordGetValue(r, 0);
		unsigned id = v ? lower_value_id(L, v) : IR_NONE;
		if (id == IR_NONE)
			continue;   /* poison, constants, argument lists: nothing to bind */
		ir_dbg_binding b = {0};
		b.value = id;
		b.function = fn;
		b.var = dinfo_variable(&L->di, LLVMDbgVariableRecordGetVariable(r));
		b.declare = k == LLVMDbgRecordDeclare;
		LLVMMetadataRef expr = LLVMDbgVariableRecordGetExpression(r);
		b.empty_expr = dinfo_expr_is_empty(&L->di, expr);
		b.fragment = !b.empty_expr && dinfo_expr_fragment(&L->di, expr, &b.fragment_offset_bits, &b.fragment_size_bits);
		b.offset = !b.empty_expr && !b.fragment && dinfo_expr_offset(&L->di, expr, &b.offset_bytes);
		if (b.var)
			VEC_PUSH(&L->bindings, b);
	}
}

static void lower_body(lowering *L, ir_function *fn, LLVMValueRef f)
{
	fn->first_arg = L->prog->n_values;
	fn->n_args = LLVMCountParams(f);
	for (LLVMValueRef a = LLVMGetFirstParam(f); a; a = LLVMGetNextParam(a))
		lower_new_value(L, a);
	fn->first_site = (unsigned)L->sites.len;
	fn->first_stmt = (unsigned)L->stmts.len;   /* shifted past the constant statements later */
	fn->returns_tracked = lower_tracked_type(L, LLVMGetReturnType(LLVMGlobalGetValueType(f)));
	/* Number every instruction before reading debug records: a record may
	 * name a value defined later in the function (a phi's operand). */
	for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
		for (LLVMValueRef inst = LLVMGetFirstInstruction(bb); inst; inst = LLVMGetNextInstruction(inst))
			lower_new_value(L, inst);
	for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
		for (LLVMValueRef inst = LLVMGetFirstInstruction(bb); inst; inst = LLVMGetNextInstruction(inst)) {
			if (!L->sites_only)
				lower_dbg_records(L, fn, inst);
			if (lower_is_call(inst))
				lower_call(L, fn, inst, lower_value_id(L, inst));
			if (!L->sites_only)
				lower_instruction(L, inst);
		}
	fn->n_sites = (unsigned)L->sites.len - fn->first_site;
	fn->n_stmts = (unsigned)L->stmts.len - fn->first_stmt;
}

/* ---- pass 3: initializers and address-taken ----------------------------------------------- */

typedef VEC(ir_init_slot) slot_vec;

static void walk_constant(lowering *L, LLVMValueRef c, uint64_t offset, int64_t addend, slot_vec *out,
                          int depth)
{
	if (!c || depth > 64)
		return;
	ir_function *fn = ptrmap_get(&L->functions, c);
	if (fn) {
		ir_init_slot s = {.offset = offset, .kind = SLOT_FUNCTION, .function = fn, .addend = addend};
		VEC_PUSH(out, s);
		return;
	}
	ir_global *gl = ptrmap_get(&L->globals, c);
	if (gl) {
		ir_init_slot s = {.offset = offset, .kind = SLOT_GLOBAL, .global = gl, .addend = addend};
		VEC_PUSH(out, s);
		return;
	}
	if (LLVMIsAGlobalAlias(c)) {
		walk_constant(L, LLVMAliasGetAliasee(c), offset, addend, out, depth + 1);
		return;
	}
	LLVMTypeRef ty = LLVMTypeOf(c);
	if (LLVMIsAConstantStruct(c)) {
		unsigned n = LLVMGetNumOperands(c);
		for (unsigned i = 0; i < n; i++)
			walk_constant(L, LLVMGetOperand(c, i), offset + LLVMOffsetOfElement(L->layout, ty, i), 0, out,
			              depth + 1);
		return;
	}
	if (LLVMIsAConstantArray(c) || LLVMIsAConstantVector(c)) {
		uint64_t elem = LLVMABISizeOfType(L->layout, LLVMGetElementType(ty));
		unsigned n = LLVMGetNumOperands(c);
		for (unsigned i = 0; i < n; i++)
			walk_constant(L, LLVMGetOperand(c, i), offset + i * elem, 0, out, depth + 1);
		return;
	}
	if (LLVMIsAConstantExpr(c)) {
		LLVMOpcode op = LLVMGetConstOpcode(c);
		if (op == LLVMGetElementPtr) {
			int64_t off = 0;
			if (lower_gep_offset(L, c, &off))
				walk_constant(L, LLVMGetOperand(c, 0), offset, addend + off, out, depth + 1);
			else
				walk_constant(L, LLVMGetOperand(c, 0), offset, addend, out, depth + 1);
		} else if (op == LLVMBitCast || op == LLVMAddrSpaceCast || op == LLVMPtrToInt ||
		           op == LLVMIntToPtr) {
			walk_constant(L, LLVMGetOperand(c, 0), offset, addend, out, depth + 1);
		}
		/* Other expressions (arithmetic on addresses) carry no slot we can place. */
	}
}

static void lower_initializers(lowering *L)
{
	slot_vec slots = {0};
	unsigned i = 0;
	for (LLVMValueRef g = LLVMGetFirstGlobal(L->mod); g; g = LLVMGetNextGlobal(g), i++) {
		ir_global *gl = L->prog->globals[i];
		LLVMValueRef init = gl->defined ? LLVMGetInitializer(g) : NULL;
		if (!init)
			continue;
		VEC_CLEAR(&slots);
		walk_constant(L, init, 0, 0, &slots, 0);
		gl->n_slots = (unsigned)slots.len;
		gl->slots = arena_memdup(&L->prog->arena, slots.items, slots.len * sizeof *slots.items);
	}
	VEC_FREE(&slots);
}

/* Intrinsics that only mark memory (Instruction::isAssumeLikeIntrinsic); a
 * function used only by them is not address-taken. */
static bool is_assume_like(LLVMValueRef call)
{
	LLVMValueRef callee = lower_direct_callee(call);
	if (!callee || LLVMGetIntrinsicID(callee) == 0)
		return false;
	size_t len;
	const char *n = LLVMGetValueName2(callee, &len);
	static const char *const prefixes[] = {
		"llvm.assume", "llvm.sideeffect", "llvm.pseudoprobe", "llvm.dbg.", "llvm.invariant.",
		"llvm.lifetime.", "llvm.experimental.noalias.scope.decl", "llvm.objectsize",
		"llvm.var.annotation", "llvm.ptr.annotation", "llvm.annotation",
		"llvm.codeview.annotation", "llvm.allow.runtime.check", "llvm.allow.ubsan.check",
	};
	for (size_t i = 0; i < sizeof prefixes / sizeof *prefixes; i++)
		if (strncmp(n, prefixes[i], strlen(prefixes[i])) == 0)
			return true;
	return false;
}

/* Function::hasAddressTaken(nullptr, IgnoreCallbackUses=true,
 * IgnoreAssumeLikeCalls=true, IgnoreLLVMUsed=false), as CallGraph asks it:
 * any use that is not the callee operand of a call of the function's own type
 * takes the address, except a broker's callback argument. */
static bool address_taken(lowering *L, LLVMValueRef f)
{
	for (LLVMUseRef u = LLVMGetFirstUse(f); u; u = LLVMGetNextUse(u)) {
		LLVMValueRef user = LLVMGetUser(u);
		bool call = LLVMIsAInstruction(user) && lower_is_call(user);
		if (!call) {
			/* A cast whose every user is an assume-like intrinsic is ignored too. */
			if (LLVMIsAConstantExpr(user) &&
			    (LLVMGetConstOpcode(user) == LLVMBitCast || LLVMGetConstOpcode(user) == LLVMAddrSpaceCast)) {
				bool all_assume = LLVMGetFirstUse(user) != NULL;
				for (LLVMUseRef cu = LLVMGetFirstUse(user); cu && all_assume; cu = LLVMGetNextUse(cu)) {
					LLVMValueRef cuser = LLVMGetUser(cu);
					all_assume = LLVMIsAInstruction(cuser) && lower_is_call(cuser) && is_assume_like(cuser);
				}
				if (all_assume)
					continue;
			}
			return true;
		}
		unsigned nops = LLVMGetNumOperands(user);
		bool is_callee = LLVMGetOperandUse(user, nops - 1) == u;
		if (!is_callee) {
			/* A callback argument of a broker (pthread_create) is not an address use. */
			LLVMValueRef broker = lower_direct_callee(user);
			unsigned pos[8], npos = broker ? callback_positions(L, broker, pos, 8) : 0;
			bool callback = false;
			for (unsigned i = 0; i < npos && !callback; i++)
				callback = pos[i] < LLVMGetNumArgOperands(user) && LLVMGetOperandUse(user, pos[i]) == u;
			if (callback)
				continue;
		}
		if (is_assume_like(user))
			continue;
		if (!is_callee || LLVMGetCalledFunctionType(user) != LLVMGlobalGetValueType(f))
			return true;
	}
	return false;
}

/* ---- driver ---------------------------------------------------------------------------- */

static void lower_module(lowering *L)
{
	ir_program *p = L->prog;
	unsigned nf = 0, ng = 0;
	for (LLVMValueRef f = LLVMGetFirstFunction(L->mod); f; f = LLVMGetNextFunction(f))
		nf++;
	for (LLVMValueRef g = LLVMGetFirstGlobal(L->mod); g; g = LLVMGetNextGlobal(g))
		ng++;
	p->functions = ARENA_ARRAY(&p->arena, ir_function *, nf);
	p->globals = ARENA_ARRAY(&p->arena, ir_global *, ng);

	for (LLVMValueRef f = LLVMGetFirstFunction(L->mod); f; f = LLVMGetNextFunction(f))
		lower_function_decl(L, f);
	for (LLVMValueRef g = LLVMGetFirstGlobal(L->mod); g; g = LLVMGetNextGlobal(g))
		lower_global_decl(L, g);

	unsigned fi = 0;
	for (LLVMValueRef f = LLVMGetFirstFunction(L->mod); f; f = LLVMGetNextFunction(f), fi++) {
		ir_function *fn = p->functions[fi];
		if (fn->defined)
			lower_body(L, fn, f);
		fn->address_taken = address_taken(L, f);
	}
	lower_initializers(L);
	for (LLVMValueRef a = LLVMGetFirstGlobalAlias(L->mod); a; a = LLVMGetNextGlobalAlias(a))
		p->n_aliases++;
	/* Section arrays: entries module asm places, then which declared
	 * symbols bound which sections (sections.h). */
	size_t asm_len = 0;
	const char *asm_text = LLVMGetModuleInlineAsm(L->mod, &asm_len);
	ir_sections_parse_asm(p, asm_text, asm_len);
	ir_sections_bind(p);

	p->n_sites = (unsigned)L->sites.len;
	p->sites = arena_memdup(&p->arena, L->sites.items, L->sites.len * sizeof *L->sites.items);
	ir_sections_trampoline_calls(p);
	p->n_bindings = (unsigned)L->bindings.len;
	p->bindings = arena_memdup(&p->arena, L->bindings.items, L->bindings.len * sizeof *L->bindings.items);

	/* Statements: constant-expression definitions first, then each function's. */
	unsigned nc = (unsigned)L->const_stmts.len;
	p->n_const_stmts = nc;
	p->n_stmts = nc + (unsigned)L->stmts.len;
	p->stmts = ARENA_ARRAY(&p->arena, ir_stmt, p->n_stmts);
	if (nc)
		memcpy(p->stmts, L->const_stmts.items, nc * sizeof *p->stmts);
	if (L->stmts.len)
		memcpy(p->stmts + nc, L->stmts.items, L->stmts.len * sizeof *p->stmts);
	for (unsigned i = 0; i < p->n_functions; i++)
		p->functions[i]->first_stmt += nc;
	cxx_demangle_functions(p);
	if (!L->sites_only)
		cxx_lower(L);
}

/* Bitcode (raw or in its wrapper) by its magic; otherwise the bytes must
 * look like IR text: no NUL byte and something besides blanks. LLVM reads
 * a file of NULs or of newlines as an empty module, which is never what a
 * person meant to analyse. */
static bool plausible_module(const char *b, size_t n)
{
	if (n >= 4 && ((unsigned char)b[0] == 'B' && (unsigned char)b[1] == 'C' && (unsigned char)b[2] == 0xC0 &&
	               (unsigned char)b[3] == 0xDE))
		return true;
	if (n >= 4 && (unsigned char)b[0] == 0xDE && (unsigned char)b[1] == 0xC0 && (unsigned char)b[2] == 0x17 &&
	    (unsigned char)b[3] == 0x0B)
		return true;
	if (memchr(b, 0, n))
		return false;
	for (size_t i = 0; i < n; i++)
		if (b[i] != ' ' && b[i] != '\t' && b[i] != '\n' && b[i] != '\r')
			return true;
	return false;
}

/* Reads one file into a module of ctx; NULL and err set on failure. The
 * caller holds a guard (guard.h): LLVM's parser may die on hostile bytes. */
static LLVMModuleRef read_module(LLVMContextRef ctx, const char *path, facet_error *err)
{
	/* A FIFO would block the read and a device never ends: regular files only. */
	if (!fsio_check_regular(path, 0, "the input", err))
		return NULL;
	LLVMMemoryBufferRef buf = NULL;
	char *msg = NULL;
	if (LLVMCreateMemoryBufferWithContentsOfFile(path, &buf, &msg)) {
		error_set(err, "%s: cannot read: %s", path, msg ? msg : "unknown error");
		LLVMDisposeMessage(msg);
		return NULL;
	}
	size_t size = LLVMGetBufferSize(buf);
	const char *advice = ir_input_kind_advice(
		ir_input_kind_of(path, (const unsigned char *)LLVMGetBufferStart(buf), size < 65536 ? size : 65536));
	if (advice && size > 0) {   /* the build's other products: say what to do (inkind.h) */
		error_set(err, "%s: %s", path, advice);
		LLVMDisposeMemoryBuffer(buf);
		return NULL;
	}
	if (size == 0 || !plausible_module(LLVMGetBufferStart(buf), size)) {
		error_set(err, "%s: %s, not LLVM bitcode or IR", path, size == 0 ? "empty file" : "no module in it");
		LLVMDisposeMemoryBuffer(buf);
		return NULL;
	}
	LLVMModuleRef mod = NULL;
	guard_set_path(path);
	if (LLVMParseIRInContext2(ctx, buf, &mod, &msg)) {
		const char *m = msg ? msg : "unknown error";
		/* LLVM prefixes textual-IR errors with the buffer name; keep one file name. */
		error_set(err, "%s: not valid LLVM bitcode or IR: %s", path, m);
		LLVMDisposeMessage(msg);
		LLVMDisposeMemoryBuffer(buf);
		return NULL;
	}
	LLVMDisposeMemoryBuffer(buf);
	return mod;
}

static bool module_has_debug_info(LLVMModuleRef mod)
{
	return LLVMGetNamedMetadataNumOperands(mod, "llvm.dbg.cu") > 0;
}

/* Whether LLVM's reader has run the whole verifier on mod already. It does
 * so, as part of upgrading debug info (UpgradeDebugInfo), for every module
 * whose "Debug Info Version" flag is the current one: a module the verifier
 * rejects is a fatal error there (the guard's refusal), and one whose debug
 * info alone is broken loses its debug info and is otherwise valid. On the
 * corpus that second run was 3-6% of `facet build`; opt pays it too. */
static bool reader_verified(LLVMModuleRef mod)
{
	return LLVMGetModuleDebugMetadataVersion(mod) == LLVMDebugMetadataVersion();
}

/* Parses paths[0..n-1] into ctx and links them as llvm-link does; verifies
 * the result unless opt says not to. The one place inputs become a module, so
 * ingest and the trace instrumentation see the same module in the same order. */
LLVMModuleRef lower_link_inputs(LLVMContextRef ctx, const char *const *paths, unsigned n,
                                const ingest_options *opt, ingest_warnings *warnings, facet_error *err)
{
	if (n == 0) {
		error_set(err, "no input files");
		return NULL;
	}
	diag_sink sink = {0};
	LLVMContextSetDiagnosticHandler(ctx, on_diagnostic, &sink);
	guard_begin(paths[0], "not valid LLVM bitcode or IR");

	LLVMModuleRef mod = NULL;
	for (unsigned i = 0; i < n; i++) {
		LLVMModuleRef m = read_module(ctx, paths[i], err);
		if (!m)
			goto fail;
		if (warnings && !module_has_debug_info(m)) {
			char *w = NULL;
			if (asprintf(&w, "%s: no debug info (compile with -g): source locations and fields are unknown, "
			                 "refined graphs will equal R0", paths[i]) >= 0) {
				warnings->msgs = xrealloc(warnings->msgs, (warnings->n + 1) * sizeof *warnings->msgs);
				warnings->msgs[warnings->n++] = w;
			}
		}
		if (n == 1) {
			mod = m;
			break;
		}
		/* Several inputs are linked, as llvm-link does, into a fresh module, so
		 * the linked function order (and every output ordered by it) is the
		 * one llvm-link gives. */
		if (!mod)
			mod = LLVMModuleCreateWithNameInContext("llvm-link", ctx);
		if (LLVMLinkModules2(mod, m)) {   /* consumes m */
			error_set(err, "%s: cannot link with %s: %s", paths[i], paths[0],
			          sink.set ? sink.msg : "link error");
			goto fail;
		}
	}
	if (opt && opt->verify && opt->progress)
		opt->progress(opt->progress_arg, "verifying the module");
	/* A linked module is new: only its inputs were read (and verified). */
	if ((!opt || opt->verify) && !(n == 1 && reader_verified(mod))) {
		char *msg = NULL;
		if (LLVMVerifyModule(mod, LLVMReturnStatusAction, &msg)) {
			char *nl = msg ? strchr(msg, '\n') : NULL;
			if (nl)
				*nl = 0;
			error_set(err, "%s%s: invalid module: %s", paths[0], n > 1 ? " (linked)" : "",
			          msg ? msg : "verifier failed");
			LLVMDisposeMessage(msg);
			goto fail;
		}
		LLVMDisposeMessage(msg);
	}
	LLVMContextSetDiagnosticHandler(ctx, NULL, NULL);   /* sink dies with this frame */
	guard_end();
	return mod;

fail:
	if (mod)
		LLVMDisposeModule(mod);
	LLVMContextSetDiagnosticHandler(ctx, NULL, NULL);
	guard_end();
	return NULL;
}

/* Lowers a linked module (it stays alive). When site_insts is non-NULL it
 * receives a malloc'd array of the call instructions indexed by site id. */
ir_program *lower_linked_module(LLVMContextRef ctx, LLVMModuleRef mod, const char *const *paths, unsigned n,
                                const ingest_options *opt, LLVMValueRef **site_insts)
{
	arena a;
	arena_init(&a);
	ir_program *p = ARENA_NEW(&a, ir_program);
	p->arena = a;   /* the program owns its arena from here on */
	strmap_init(&p->function_by_name);
	strmap_init(&p->global_by_name);
	strmap_init(&p->interned);
	p->n_inputs = n;
	p->inputs = ARENA_ARRAY(&p->arena, const char *, n);
	for (unsigned i = 0; i < n; i++)
		p->inputs[i] = arena_strdup(&p->arena, paths[i]);
	p->triple = arena_strdup(&p->arena, LLVMGetTarget(mod));
	p->data_layout = arena_strdup(&p->arena, LLVMGetDataLayoutStr(mod));
	p->has_debug_info = module_has_debug_info(mod);

	lowering L = {0};
	L.prog = p;
	L.ctx = ctx;
	L.mod = mod;
	L.layout = LLVMGetModuleDataLayout(mod);
	L.sites_only = opt && opt->sites_only;
	L.keep_site_insts = site_insts != NULL;
	L.x86_64 = strncmp(p->triple, "x86_64", 6) == 0;
	p->pointer_size = LLVMPointerSize(L.layout);
	L.callback_kind = LLVMGetMDKindIDInContext(ctx, "callback", 8);
	L.dbg_kind = LLVMGetMDKindIDInContext(ctx, "dbg", 3);
	L.nocallback_attr = LLVMGetEnumAttributeKindForName("nocallback", 10);
	ptrmap_init(&L.value_ids);
	ptrmap_init(&L.type_strings);
	ptrmap_init(&L.fn_types);
	ptrmap_init(&L.functions);
	ptrmap_init(&L.globals);
	ptrmap_init(&L.tracked);
	ptrmap_init(&L.arrays);
	dinfo_init(&L.di, ctx, p);

	lower_module(&L);

	dinfo_finish(&L.di);
	ptrmap_free(&L.value_ids);
	ptrmap_free(&L.type_strings);
	ptrmap_free(&L.fn_types);
	ptrmap_free(&L.functions);
	ptrmap_free(&L.globals);
	VEC_FREE(&L.sites);
	VEC_FREE(&L.bindings);
	VEC_FREE(&L.stmts);
	VEC_FREE(&L.const_stmts);
	ptrmap_free(&L.tracked);
	ptrmap_free(&L.arrays);
	if (site_insts)
		*site_insts = L.site_insts.items;   /* ownership passes to the caller */
	return p;
}

ir_program *ir_ingest(const char *const *paths, unsigned n, const ingest_options *opt,
                      ingest_warnings *warnings, facet_error *err)
{
	LLVMContextRef ctx = LLVMContextCreate();
	LLVMModuleRef mod = lower_link_inputs(ctx, paths, n, opt, warnings, err);
	if (!mod) {
		LLVMContextDispose(ctx);
		return NULL;
	}
	/* A module that verifies can still hold what LLVM's getters crash on
	 * (a flipped byte in a debug record): lowering runs guarded too. */
	guard_begin(paths[0], "LLVM failed reading the module's contents");
	if (opt && opt->progress)
		opt->progress(opt->progress_arg, "lowering the module");
	ir_program *p = lower_linked_module(ctx, mod, paths, n, opt, NULL);
	guard_end();
	LLVMDisposeModule(mod);
	LLVMContextDispose(ctx);
#ifdef __GLIBC__
	/* The module was millions of small blocks; freed, they stay in glibc's
	 * heap, resident, while the analyses' large arrays are mapped afresh
	 * beside them (a kernel's 649 MB bitcode left 6.4 GiB resident after
	 * ingest). Give the free pages back. */
	malloc_trim(0);
#endif
	return p;
}

void ingest_warnings_free(ingest_warnings *w)
{
	if (!w)
		return;
	for (unsigned i = 0; i < w->n; i++)
		free(w->msgs[i]);
	free(w->msgs);
	w->msgs = NULL;
	w->n = 0;
}
