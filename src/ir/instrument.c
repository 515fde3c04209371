/* instrument.c — insert the trace runtime's calls into the linked module; see
 * instrument.h.
 *
 * Site ids are not recomputed here: the module is lowered by the very code
 * ir_ingest runs (lower_linked_module), which hands back each site's call
 * instruction, so an id can only mean the same call in both places. Function
 * ids are positions in the module's function list, as in ir_program. The
 * instrumented calls are added after lowering, and the runtime's own
 * declarations are appended at the end of the function list, so they shift no
 * id of the original program. */
#include "ir/instrument.h"
#include "ir/lowering.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <llvm-c/BitWriter.h>
#include <llvm-c/Core.h>

#include "ir/slice.h"
#include "util/atomic.h"
#include "util/hash.h"
#include "util/xalloc.h"

uint64_t ir_key_add(uint64_t key, const char *name)
{
	key = hash_fnv64(key, name, strlen(name));
	return hash_fnv64(key, "\n", 1);
}

uint64_t ir_key_begin(unsigned n_sites)
{
	char buf[32];
	snprintf(buf, sizeof buf, "%u", n_sites);
	return ir_key_add(HASH_FNV64_INIT, buf);
}

/* Functions whose address cannot go into the table: intrinsics have none, and
 * an available_externally body is only a copy of a definition that may not be
 * linked in. A call reaching one is recorded as an unknown callee. */
static bool addressable(LLVMValueRef f)
{
	return LLVMGetIntrinsicID(f) == 0 && LLVMGetLinkage(f) != LLVMAvailableExternallyLinkage;
}

/* Library calls after which neither atexit handlers nor destructors run. */
/* The code pointer a call goes to: the called value, or for a call an asm's
 * text makes (model.h, asm_call) its operand's value or what the operand's
 * memory holds, read just before the asm. NULL when there is none. */
static LLVMValueRef asm_callee(LLVMBuilderRef b, const ir_site *site, LLVMValueRef inst, LLVMTypeRef ptr)
{
	if (!site->asm_call)
		return LLVMGetCalledValue(inst);
	if (site->asm_arg == IR_NONE || site->asm_arg >= LLVMGetNumArgOperands(inst))
		return NULL;
	LLVMValueRef op = LLVMGetOperand(inst, site->asm_arg);
	if (LLVMGetTypeKind(LLVMTypeOf(op)) != LLVMPointerTypeKind)
		return NULL;
	return site->asm_memory ? LLVMBuildLoad2(b, ptr, op, "") : op;
}

static bool ends_image(const char *name)
{
	static const char *const names[] = {"execve", "execv", "execvp", "execvpe", "execl", "execlp",
	                                    "execle", "fexecve", "execveat", "_exit", "_Exit"};
	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		if (strcmp(name, names[i]) == 0)
			return true;
	return false;
}

static LLVMValueRef new_global(LLVMModuleRef mod, LLVMTypeRef ty, const char *name, LLVMValueRef init)
{
	LLVMValueRef g = LLVMAddGlobal(mod, ty, name);
	LLVMSetInitializer(g, init);
	LLVMSetGlobalConstant(g, 1);
	LLVMSetLinkage(g, LLVMExternalLinkage);
	LLVMSetVisibility(g, LLVMHiddenVisibility);
	return g;
}

/* The tables the runtime reads; see instrument.h. */
static void emit_tables(LLVMContextRef ctx, LLVMModuleRef mod, LLVMValueRef *fns, unsigned nf, unsigned n_sites,
                        uint64_t key)
{
	LLVMTypeRef ptr = LLVMPointerTypeInContext(ctx, 0);
	LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx), i64 = LLVMInt64TypeInContext(ctx);
	LLVMValueRef *addrs = xcalloc(nf ? nf : 1, sizeof *addrs);
	LLVMValueRef *names = xcalloc(nf ? nf : 1, sizeof *names);
	for (unsigned i = 0; i < nf; i++) {
		size_t len = 0;
		const char *name = LLVMGetValueName2(fns[i], &len);
		addrs[i] = addressable(fns[i]) ? fns[i] : LLVMConstNull(ptr);
		LLVMValueRef str = LLVMConstStringInContext2(ctx, name, len, 0);
		LLVMValueRef g = LLVMAddGlobal(mod, LLVMTypeOf(str), "__facet_trace_name");
		LLVMSetInitializer(g, str);
		LLVMSetGlobalConstant(g, 1);
		LLVMSetLinkage(g, LLVMPrivateLinkage);
		LLVMSetUnnamedAddress(g, LLVMGlobalUnnamedAddr);
		names[i] = g;
	}
	new_global(mod, LLVMArrayType2(ptr, nf), "__facet_trace_fns", LLVMConstArray2(ptr, addrs, nf));
	new_global(mod, LLVMArrayType2(ptr, nf), "__facet_trace_names", LLVMConstArray2(ptr, names, nf));
	new_global(mod, i32, "__facet_trace_nfns", LLVMConstInt(i32, nf, 0));
	new_global(mod, i32, "__facet_trace_nsites", LLVMConstInt(i32, n_sites, 0));
	new_global(mod, i64, "__facet_trace_key", LLVMConstInt(i64, key, 0));
	free(addrs);
	free(names);
}

/* Through util/atomic.h: only bitcode is replaced, never a device. */
static bool write_module(LLVMModuleRef mod, const char *out, facet_error *err)
{
	atomic_target t = {.what = "the instrumented bitcode", .kind = ir_is_bitcode, .kind_name = "LLVM bitcode"};
	atomic_file af;
	if (!atomic_open(&af, out, &t, err))
		return false;
	if (LLVMWriteBitcodeToFD(mod, af.fd, 0, 1) != 0) {
		error_set(err, "%s: cannot write bitcode", out);
		atomic_abort(&af);
		return false;
	}
	return atomic_commit(&af, err);
}

bool ir_instrument(const char *const *paths, unsigned n, bool verify, const char *out,
                   ir_instrument_stats *stats, facet_error *err)
{
	ir_instrument_stats st = {0};
	LLVMContextRef ctx = LLVMContextCreate();
	ingest_options opt = {.verify = verify, .sites_only = true};
	LLVMModuleRef mod = lower_link_inputs(ctx, paths, n, &opt, NULL, err);
	if (!mod) {
		LLVMContextDispose(ctx);
		return false;
	}
	LLVMValueRef *insts = NULL;
	ir_program *p = lower_linked_module(ctx, mod, paths, n, &opt, &insts);
	for (LLVMValueRef g = LLVMGetFirstGlobal(mod); g; g = LLVMGetNextGlobal(g)) {
		const char *gname = LLVMGetValueName(g);
		if (strncmp(gname, "__facet_trace_", 14) == 0) {
			error_set(err, "%s: already instrumented (defines %s)", paths[0], gname);
			goto fail;
		}
	}

	/* Function ids: the module's function list, as lowered into p. */
	unsigned nf = p->n_functions;
	LLVMValueRef *fns = xcalloc(nf ? nf : 1, sizeof *fns);
	unsigned i = 0;
	for (LLVMValueRef f = LLVMGetFirstFunction(mod); f && i < nf; f = LLVMGetNextFunction(f))
		fns[i++] = f;
	uint64_t key = ir_key_begin(p->n_sites);
	for (i = 0; i < nf; i++)
		key = ir_key_add(key, p->functions[i]->name);

	LLVMTypeRef ptr = LLVMPointerTypeInContext(ctx, 0);
	LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx), vd = LLVMVoidTypeInContext(ctx);
	LLVMTypeRef hit_ty = LLVMFunctionType(vd, (LLVMTypeRef[]){i32, ptr}, 2, 0);
	LLVMTypeRef flush_ty = LLVMFunctionType(vd, NULL, 0, 0);
	LLVMValueRef hit = LLVMAddFunction(mod, "__facet_trace_hit", hit_ty);
	LLVMValueRef hit_tramp = LLVMAddFunction(mod, "__facet_trace_hit_tramp", hit_ty);
	LLVMValueRef flush = LLVMAddFunction(mod, "__facet_trace_flush", flush_ty);
	LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
	for (unsigned s = 0; s < p->n_sites; s++) {
		const ir_site *site = &p->sites[s];
		LLVMValueRef inst = insts[s];
		bool flush_before = site->kind == SITE_DIRECT && site->callee && ends_image(site->callee->name);
		if (site->kind != SITE_INDIRECT && !flush_before)
			continue;
		LLVMPositionBuilderBefore(b, inst);
		/* The call's own location: a call without one inside a function with
		 * debug info is fine for a declaration, but keeps the line tables tidy. */
		LLVMSetCurrentDebugLocation2(b, LLVMInstructionGetDebugLoc(inst));
		if (flush_before) {
			LLVMBuildCall2(b, flush_ty, flush, NULL, 0, "");
			st.flushes++;
			continue;
		}
		LLVMValueRef callee = asm_callee(b, site, inst, ptr);
		if (!callee || LLVMGetTypeKind(LLVMTypeOf(callee)) != LLVMPointerTypeKind ||
		    LLVMGetPointerAddressSpace(LLVMTypeOf(callee)) != 0)
			continue;   /* not a plain code pointer: nothing the table can name */
		LLVMValueRef args[2] = {LLVMConstInt(i32, s, 0), callee};
		/* A trampoline's address is not what runs: the runtime reads its jump. */
		LLVMBuildCall2(b, hit_ty, site->trampoline ? hit_tramp : hit, args, 2, "");
		st.indirect++;
	}
	LLVMDisposeBuilder(b);
	emit_tables(ctx, mod, fns, nf, p->n_sites, key);
	free(fns);
	st.sites = p->n_sites;
	st.functions = nf;
	st.key = key;
	bool ok = write_module(mod, out, err);
	if (ok && stats)
		*stats = st;
	free(insts);
	ir_program_free(p);
	LLVMDisposeModule(mod);
	LLVMContextDispose(ctx);
	return ok;

fail:
	free(insts);
	ir_program_free(p);
	LLVMDisposeModule(mod);
	LLVMContextDispose(ctx);
	return false;
}
