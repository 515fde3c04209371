/* slice.c — ir_slice_write: a module holding only a slice's definitions. */
#include "ir/slice.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Comdat.h>
#include <llvm-c/Core.h>
#include <llvm-c/Error.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include "ir/lowering.h"
#include "util/strmap.h"
#include "util/xalloc.h"

/* Turns a definition into a declaration (the C API has no deleteBody): every
 * value its instructions define is replaced by poison, the instructions and
 * then the blocks go, and the attachments a declaration may not carry
 * (a defining DISubprogram, a comdat, a personality) are dropped. */
static void drop_body(LLVMValueRef f)
{
	for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
		for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
			if (LLVMGetFirstUse(i) && LLVMGetTypeKind(LLVMTypeOf(i)) != LLVMVoidTypeKind)
				LLVMReplaceAllUsesWith(i, LLVMGetPoison(LLVMTypeOf(i)));
	for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
		for (LLVMValueRef i = LLVMGetLastInstruction(bb); i;) {
			LLVMValueRef prev = LLVMGetPreviousInstruction(i);
			LLVMInstructionEraseFromParent(i);
			i = prev;
		}
	while (LLVMGetFirstBasicBlock(f))
		LLVMDeleteBasicBlock(LLVMGetFirstBasicBlock(f));
	LLVMGlobalClearMetadata(f);
	LLVMSetComdat(f, NULL);
	if (LLVMHasPersonalityFn(f))
		LLVMSetPersonalityFn(f, NULL);
}

bool ir_slice_write(const char *const *inputs, unsigned n_inputs, const char *const *functions,
                    unsigned n_functions, const char *out, facet_error *err)
{
	LLVMContextRef ctx = LLVMContextCreate();
	ingest_options opt = {.verify = false};
	LLVMModuleRef mod = lower_link_inputs(ctx, inputs, n_inputs, &opt, NULL, err);
	if (!mod) {
		LLVMContextDispose(ctx);
		return false;
	}
	strmap keep;
	strmap_init(&keep);
	for (unsigned i = 0; i < n_functions; i++)
		strmap_put(&keep, functions[i], (void *)functions[i]);
	unsigned kept = 0;
	for (LLVMValueRef f = LLVMGetFirstFunction(mod); f; f = LLVMGetNextFunction(f)) {
		if (LLVMIsDeclaration(f))
			continue;
		size_t len;
		const char *name = LLVMGetValueName2(f, &len);
		if (strmap_has(&keep, name)) {
			/* Kept definitions must survive global DCE even when nothing in
			 * the slice calls them (the slice's entry, internal statics). */
			LLVMSetLinkage(f, LLVMExternalLinkage);
			LLVMSetVisibility(f, LLVMDefaultVisibility);
			kept++;
			continue;
		}
		drop_body(f);   /* a declaration now: external linkage required */
		LLVMSetLinkage(f, LLVMExternalLinkage);
		LLVMSetVisibility(f, LLVMDefaultVisibility);
	}
	strmap_free(&keep);
	bool ok = false;
	char *tmp = NULL;
	LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
	LLVMErrorRef e = LLVMRunPasses(mod, "globaldce,strip-dead-prototypes", NULL, po);
	LLVMDisposePassBuilderOptions(po);
	char *msg = NULL;
	if (e) {
		msg = LLVMGetErrorMessage(e);
		error_set(err, "%s: cannot trim the slice: %s", out, msg);
		LLVMDisposeErrorMessage(msg);
		goto done;
	}
	if (kept != n_functions) {
		error_set(err, "%s: %u of the slice's %u functions have no definition in the inputs (rebuilt since "
		               "the catalog was made?)", out, n_functions - kept, n_functions);
		goto done;
	}
	if (LLVMVerifyModule(mod, LLVMReturnStatusAction, &msg)) {
		char *nl = msg ? strchr(msg, '\n') : NULL;
		if (nl)
			*nl = 0;
		error_set(err, "%s: the slice does not verify: %s", out, msg ? msg : "?");
		LLVMDisposeMessage(msg);
		goto done;
	}
	LLVMDisposeMessage(msg);
	size_t n = strlen(out) + 32;
	tmp = xmalloc(n);
	snprintf(tmp, n, "%s.tmp-%ld", out, (long)getpid());
	if (LLVMWriteBitcodeToFile(mod, tmp) != 0) {
		error_set(err, "%s: cannot write the slice", out);
		unlink(tmp);
		goto done;
	}
	if (rename(tmp, out) != 0) {
		error_set(err, "%s: cannot rename %s over it: %m", out, tmp);
		unlink(tmp);
		goto done;
	}
	ok = true;
done:
	free(tmp);
	LLVMDisposeModule(mod);
	LLVMContextDispose(ctx);
	return ok;
}
