/* slice.c — ir_slice_write: a module holding only a slice's definitions. */
#include "ir/slice.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Core.h>
#include <llvm-c/Error.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include "ir/guard.h"
#include "ir/lowering.h"
#include "util/atomic.h"
#include "util/strmap.h"
#include "util/xalloc.h"

bool ir_is_bitcode(const unsigned char *b, size_t n)
{
	return n >= 4 && ((b[0] == 'B' && b[1] == 'C' && b[2] == 0xC0 && b[3] == 0xDE) ||
	                  (b[0] == 0xDE && b[1] == 0xC0 && b[2] == 0x17 && b[3] == 0x0B));
}

/* Replaces definition f by a declaration of the same name and type. The C
 * API has no deleteBody, and erasing instructions one by one leaks their
 * debug records; deleting the function runs LLVM's own teardown. */
static void to_declaration(LLVMModuleRef mod, LLVMValueRef f)
{
	size_t len;
	const char *name = LLVMGetValueName2(f, &len);
	char *copy = strndup(name, len);
	LLVMTypeRef type = LLVMGlobalGetValueType(f);
	unsigned cc = LLVMGetFunctionCallConv(f);
	LLVMSetValueName2(f, "", 0);
	LLVMValueRef decl = LLVMAddFunction(mod, copy, type);
	LLVMSetFunctionCallConv(decl, cc);
	LLVMReplaceAllUsesWith(f, decl);
	LLVMDeleteFunction(f);
	free(copy);
}

typedef struct slice_job {
	const char *const *inputs;
	unsigned n_inputs;
	const char *const *functions;
	unsigned n_functions;
	const char *out;
	int fd;                    /* the atomic temporary, owned by the parent */
} slice_job;

/* The child's half: read, trim, verify, write the bitcode to job->fd. */
static bool slice_in_child(void *arg, facet_error *err)
{
	const slice_job *job = arg;
	const char *const *inputs = job->inputs, *const *functions = job->functions;
	unsigned n_inputs = job->n_inputs, n_functions = job->n_functions;
	const char *out = job->out;
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
	LLVMValueRef next;
	for (LLVMValueRef f = LLVMGetFirstFunction(mod); f; f = next) {
		next = LLVMGetNextFunction(f);   /* f may be deleted; new declarations go to the end */
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
		to_declaration(mod, f);
	}
	strmap_free(&keep);
	bool ok = false;
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
	if (LLVMWriteBitcodeToFD(mod, job->fd, 0, 1) != 0) {
		error_set(err, "%s: cannot write the slice", out);
		goto done;
	}
	ok = true;
done:
	LLVMDisposeModule(mod);
	LLVMContextDispose(ctx);
	return ok;
}

bool ir_slice_write(const char *const *inputs, unsigned n_inputs, const char *const *functions,
                    unsigned n_functions, const char *out, facet_error *err)
{
	/* Only bitcode is replaced, never an input, a device or the catalog. */
	atomic_target t = {.what = "the slice's bitcode", .kind = ir_is_bitcode, .kind_name = "an LLVM bitcode file",
	                   .protect = inputs, .n_protect = n_inputs};
	atomic_file af;
	if (!atomic_open(&af, out, &t, err))
		return false;
	/* LLVM's reader is not hardened (guard.h): the read runs in a child so a
	 * crash on a replaced or corrupt input is an error, not a dead server. */
	slice_job job = {inputs, n_inputs, functions, n_functions, out, af.fd};
	if (!guard_run_child(slice_in_child, &job, n_inputs ? inputs[0] : out, err)) {
		atomic_abort(&af);
		return false;
	}
	return atomic_commit(&af, err);
}
