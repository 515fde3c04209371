/* lower.c — pointer statements for the points-to analysis (see model.h).
 *
 * One pass over each instruction, emitting ST_* statements over value ids.
 * Choices, each for a reason:
 *   - Pointer-sized integers are tracked like pointers. C programs keep
 *     addresses in integers (uintptr_t casts, `union { void *p; long l; }`,
 *     hash tables of intptr_t) and Andersen's analysis that drops
 *     ptrtoint/inttoptr loses those flows (the Facet paper's redis example).
 *     Integer add/sub/and/or/xor with a tracked operand copy it: the address
 *     keeps its object and offset (alignment rounding and tagging keep the
 *     object; arithmetic that moves to another field through integers is not
 *     followed, a documented unsoundness).
 *   - Constant GEP offsets come from the data layout, whatever the source
 *     element type (LLVM 22's `getelementptr i8, ptr %p, i64 N` included); a
 *     non-constant index gives var_offset, and the analysis collapses the
 *     object it is applied to (arrays are one element).
 *   - Aggregate loads and stores move every pointer-sized slot of the
 *     aggregate at its offset, into or out of one node for the whole value.
 *   - Constant expressions get value ids of their own, defined by statements
 *     in the program-level list, so a `store ptr getelementptr (@g, 8)` reads
 *     like any other store. */
#include "ir/lowering.h"

#include <string.h>

#include "util/arith.h"

/* ---- tracked types ------------------------------------------------------------------ */

static bool compute_tracked(lowering *L, LLVMTypeRef ty, int depth)
{
	if (depth > 32)
		return true;
	switch (LLVMGetTypeKind(ty)) {
	case LLVMPointerTypeKind:
		return true;
	case LLVMIntegerTypeKind:
		return LLVMGetIntTypeWidth(ty) == 8 * L->prog->pointer_size;
	case LLVMVectorTypeKind:
	case LLVMArrayTypeKind:
		return compute_tracked(L, LLVMGetElementType(ty), depth + 1);
	case LLVMStructTypeKind: {
		unsigned n = LLVMCountStructElementTypes(ty);
		for (unsigned i = 0; i < n; i++)
			if (compute_tracked(L, LLVMStructGetTypeAtIndex(ty, i), depth + 1))
				return true;
		return false;
	}
	default:
		return false;
	}
}

bool lower_tracked_type(lowering *L, LLVMTypeRef ty)
{
	void *known = ptrmap_get(&L->tracked, ty);
	if (known)
		return known == (void *)1;
	bool t = compute_tracked(L, ty, 0);
	ptrmap_put(&L->tracked, ty, t ? (void *)1 : (void *)2);
	return t;
}

/* Values loaded and stored slot by slot. Vectors too: the optimiser copies
 * two adjacent pointer fields with one `load <2 x ptr>` / `store <2 x ptr>`
 * (libxml2's ret->readcallback, ret->closecallback), and a vector taken as
 * one slot would drop every lane but the first. */
static bool is_aggregate(LLVMTypeRef ty)
{
	LLVMTypeKind k = LLVMGetTypeKind(ty);
	return k == LLVMStructTypeKind || k == LLVMArrayTypeKind || k == LLVMVectorTypeKind;
}

/* ---- emitting -------------------------------------------------------------------------- */

static void emit(lowering *L, bool constant, ir_stmt st)
{
	if (constant)
		VEC_PUSH(&L->const_stmts, st);
	else
		VEC_PUSH(&L->stmts, st);
}

static void emit_copy(lowering *L, bool constant, unsigned dst, unsigned src)
{
	if (dst != IR_NONE && src != IR_NONE)
		emit(L, constant, (ir_stmt){.op = ST_COPY, .dst = dst, .src = src});
}

uint64_t lower_array_elem(lowering *L, LLVMTypeRef ty)
{
	if (LLVMGetTypeKind(ty) != LLVMArrayTypeKind)
		return 0;
	while (LLVMGetTypeKind(ty) == LLVMArrayTypeKind)
		ty = LLVMGetElementType(ty);
	return LLVMTypeIsSized(ty) ? LLVMABISizeOfType(L->layout, ty) : 0;
}

/* Member arrays of ty at byte base, appended to out (see ir_arrays). */
#define ARRAYS_MAX 64   /* ranges per type: a bound on the work, never on soundness (fewer ranges only collapse more) */
typedef VEC(ir_array_range) range_vec;
static void collect_arrays(lowering *L, LLVMTypeRef ty, uint64_t base, range_vec *out, int depth)
{
	if (depth > 16 || out->len >= ARRAYS_MAX)
		return;
	LLVMTypeKind k = LLVMGetTypeKind(ty);
	if (k == LLVMArrayTypeKind) {
		uint64_t n = LLVMGetArrayLength2(ty);
		LLVMTypeRef e = LLVMGetElementType(ty);
		uint64_t esz = LLVMTypeIsSized(e) ? LLVMABISizeOfType(L->layout, e) : 0;
		if (n == 1)
			collect_arrays(L, e, base, out, depth + 1);
		else if (n >= 2 && esz > 0) {
			ir_array_range r = {.start = base, .elem = esz, .count = n, .inner = lower_arrays(L, e)};
			VEC_PUSH(out, r);
		}
		return;
	}
	if (k != LLVMStructTypeKind || !LLVMTypeIsSized(ty))
		return;
	/* A union's IR type is one of its members; a literal struct may stand
	 * for a union's initializer: the program may index another layout. */
	const char *name = LLVMGetStructName(ty);
	if (!name || strncmp(name, "union.", 6) == 0)
		return;
	unsigned n = LLVMCountStructElementTypes(ty);
	for (unsigned i = 0; i < n; i++)
		collect_arrays(L, LLVMStructGetTypeAtIndex(ty, i), base + LLVMOffsetOfElement(L->layout, ty, i), out,
		               depth + 1);
}

const ir_arrays *lower_arrays(lowering *L, LLVMTypeRef ty)
{
	void *v = ptrmap_get(&L->arrays, ty);
	if (v)
		return v == (void *)1 ? NULL : v;
	range_vec out = {0};
	collect_arrays(L, ty, 0, &out, 0);
	ir_arrays *a = NULL;
	if (out.len) {
		a = arena_alloc(&L->prog->arena, sizeof *a + out.len * sizeof a->r[0]);
		a->n = (unsigned)out.len;
		memcpy(a->r, out.items, out.len * sizeof a->r[0]);
	}
	VEC_FREE(&out);
	ptrmap_put(&L->arrays, ty, a ? (void *)a : (void *)1);
	return a;
}

/* A constant factor of a variable index: `i * 56` or `i << 3` (-O2 scales
 * an index into a byte gep itself), else 1. */
static uint64_t index_factor(LLVMValueRef idx)
{
	if (!LLVMIsAInstruction(idx) || LLVMGetNumOperands(idx) != 2)
		return 1;
	LLVMOpcode op = LLVMGetInstructionOpcode(idx);
	LLVMValueRef c = LLVMGetOperand(idx, 1);
	if (op == LLVMMul && !LLVMIsAConstantInt(c))
		c = LLVMGetOperand(idx, 0);
	if (!LLVMIsAConstantInt(c))
		return 1;
	uint64_t k = LLVMConstIntGetZExtValue(c);
	if (op == LLVMMul && k > 0 && k <= UINT32_MAX)
		return k;
	if (op == LLVMShl && k < 32)
		return (uint64_t)1 << k;
	return 1;
}

/* A gep with variable indices: its constant part and the gcd of the element
 * sizes its variable indices scale (0 when one cannot be read). */
static void gep_var_parts(lowering *L, LLVMValueRef gep, int64_t *off, int64_t *pre, uint64_t *stride)
{
	LLVMTypeRef ty = LLVMGetGEPSourceElementType(gep);
	unsigned n = LLVMGetNumOperands(gep);
	bool seen_var = false;
	*off = 0;
	*pre = 0;
	*stride = 0;
	for (unsigned i = 1; i < n; i++) {
		LLVMValueRef idx = LLVMGetOperand(gep, i);
		uint64_t scale;
		if (i == 1) {
			scale = LLVMTypeIsSized(ty) ? LLVMABISizeOfType(L->layout, ty) : 0;
		} else if (LLVMGetTypeKind(ty) == LLVMStructTypeKind && LLVMIsAConstantInt(idx)) {
			unsigned k = (unsigned)LLVMConstIntGetZExtValue(idx);
			*off += (int64_t)LLVMOffsetOfElement(L->layout, ty, k);
			ty = LLVMStructGetTypeAtIndex(ty, k);
			continue;
		} else if (LLVMGetTypeKind(ty) == LLVMArrayTypeKind || LLVMGetTypeKind(ty) == LLVMVectorTypeKind) {
			ty = LLVMGetElementType(ty);
			scale = LLVMTypeIsSized(ty) ? LLVMABISizeOfType(L->layout, ty) : 0;
		} else {
			*stride = 0;   /* a vector index or a type we cannot walk */
			*off = *pre = 0;
			return;
		}
		if (scale == 0) {
			*stride = 0;
			*off = *pre = 0;
			return;
		}
		if (LLVMIsAConstantInt(idx))
			*off += LLVMConstIntGetSExtValue(idx) * (int64_t)scale;
		else {
			if (!seen_var)
				*pre = *off;
			seen_var = true;
			*stride = u64_gcd(*stride, scale * index_factor(idx));
		}
	}
}

/* The byte offset of gep, index `which` read as `value` (0: none replaced). */
static bool gep_offset_with(lowering *L, LLVMValueRef gep, unsigned which, int64_t value, int64_t *out)
{
	LLVMTypeRef ty = LLVMGetGEPSourceElementType(gep);
	unsigned n = LLVMGetNumOperands(gep);
	int64_t off = 0;
	for (unsigned i = 1; i < n; i++) {
		LLVMValueRef idx = LLVMGetOperand(gep, i);
		if (i != which && !LLVMIsAConstantInt(idx))
			return false;
		int64_t k = i == which ? value : LLVMConstIntGetSExtValue(idx);
		if (i == 1) {
			off += k * (int64_t)LLVMABISizeOfType(L->layout, ty);
			continue;
		}
		LLVMTypeKind tk = LLVMGetTypeKind(ty);
		if (tk == LLVMStructTypeKind) {
			off += (int64_t)LLVMOffsetOfElement(L->layout, ty, (unsigned)k);
			ty = LLVMStructGetTypeAtIndex(ty, (unsigned)k);
		} else if (tk == LLVMArrayTypeKind || tk == LLVMVectorTypeKind) {
			ty = LLVMGetElementType(ty);
			off += k * (int64_t)LLVMABISizeOfType(L->layout, ty);
		} else {
			return false;
		}
	}
	*out = off;
	return true;
}

bool lower_gep_offset(lowering *L, LLVMValueRef gep, int64_t *out)
{
	return gep_offset_with(L, gep, 0, 0, out);
}

/* The values an integer may take when it is a constant or a choice between
 * constants (select, phi, through sext/zext), at most GEP_CHOICES of them. */
#define GEP_CHOICES 8

static bool constant_choices(LLVMValueRef v, int64_t *vals, unsigned *n, int depth)
{
	if (LLVMIsAConstantInt(v)) {
		if (*n >= GEP_CHOICES)
			return false;
		vals[(*n)++] = LLVMConstIntGetSExtValue(v);
		return true;
	}
	if (depth > 3 || !LLVMIsAInstruction(v))
		return false;
	LLVMOpcode op = LLVMGetInstructionOpcode(v);
	if (op == LLVMSelect)
		return constant_choices(LLVMGetOperand(v, 1), vals, n, depth + 1) &&
		       constant_choices(LLVMGetOperand(v, 2), vals, n, depth + 1);
	if (op == LLVMSExt)
		return constant_choices(LLVMGetOperand(v, 0), vals, n, depth + 1);
	if (op == LLVMZExt) {
		unsigned first = *n;
		if (!constant_choices(LLVMGetOperand(v, 0), vals, n, depth + 1))
			return false;
		unsigned bits = LLVMGetIntTypeWidth(LLVMTypeOf(LLVMGetOperand(v, 0)));
		for (unsigned i = first; bits < 64 && i < *n; i++)
			vals[i] &= (int64_t)((1ull << bits) - 1);
		return true;
	}
	if (op == LLVMPHI) {
		unsigned k = LLVMCountIncoming(v);
		for (unsigned i = 0; i < k; i++)
			if (!constant_choices(LLVMGetIncomingValue(v, i), vals, n, depth + 1))
				return false;
		return k > 0;
	}
	return false;
}

/* A gep whose one variable index is a choice between constants: the count
 * and the offsets, one per choice (ir_stmt.choices); NULL otherwise. */
static const int64_t *gep_choices(lowering *L, LLVMValueRef gep)
{
	unsigned n = LLVMGetNumOperands(gep), which = 0;
	for (unsigned i = 1; i < n; i++)
		if (!LLVMIsAConstantInt(LLVMGetOperand(gep, i))) {
			if (which)
				return NULL;
			which = i;
		}
	int64_t vals[GEP_CHOICES], offs[GEP_CHOICES + 1];
	unsigned k = 0;
	if (!which || !constant_choices(LLVMGetOperand(gep, which), vals, &k, 0))
		return NULL;
	offs[0] = k;
	for (unsigned i = 0; i < k; i++)
		if (!gep_offset_with(L, gep, which, vals[i], &offs[i + 1]))
			return NULL;
	return arena_memdup(&L->prog->arena, offs, (k + 1) * sizeof offs[0]);
}

/* "struct.ngx_module_s.123" -> "ngx_module_s"; NULL for unnamed and non-struct types. */
static const char *struct_record(lowering *L, LLVMTypeRef ty)
{
	if (LLVMGetTypeKind(ty) != LLVMStructTypeKind)
		return NULL;
	const char *name = LLVMGetStructName(ty);
	if (!name)
		return NULL;
	if (strncmp(name, "struct.", 7) == 0)
		name += 7;
	else if (strncmp(name, "union.", 6) == 0)
		name += 6;
	else
		return NULL;   /* anon types, classes of other front ends */
	char buf[512];
	size_t n = strlen(name);
	if (n >= sizeof buf)
		return NULL;
	memcpy(buf, name, n + 1);
	/* The IR linker renames a second, structurally different type "S.1". */
	char *dot = strrchr(buf, '.');
	if (dot && dot[1]) {
		char *q = dot + 1;
		while (*q >= '0' && *q <= '9')
			q++;
		if (*q == 0)
			*dot = 0;
	}
	return ir_intern(L->prog, buf);
}

static const ir_loc *store_loc(lowering *L, LLVMValueRef inst);

/* Every use of v is a GEP instruction with constant indices based on v. */
static bool only_constant_geps(lowering *L, LLVMValueRef v)
{
	LLVMUseRef u = LLVMGetFirstUse(v);
	if (!u)
		return false;
	for (; u; u = LLVMGetNextUse(u)) {
		LLVMValueRef user = LLVMGetUser(u);
		int64_t off;
		if (!LLVMIsAGetElementPtrInst(user) || LLVMGetOperand(user, 0) != v || !lower_gep_offset(L, user, &off))
			return false;
	}
	return true;
}

static void emit_gep(lowering *L, bool constant, unsigned dst, LLVMValueRef gep)
{
	unsigned base = lower_operand(L, LLVMGetOperand(gep, 0));
	if (dst == IR_NONE || base == IR_NONE)
		return;
	int64_t off = 0;
	ir_stmt st = {.op = ST_GEP, .dst = dst, .src = base, .gep_record = struct_record(L, LLVMGetGEPSourceElementType(gep))};
	if (lower_gep_offset(L, gep, &off)) {
		st.offset = off;
	} else {
		uint64_t stride;
		st.var_offset = true;
		gep_var_parts(L, gep, &st.offset, &st.pre, &stride);
		st.stride = stride <= UINT32_MAX ? (uint32_t)stride : 0;
		st.choices = gep_choices(L, gep);
	}
	st.var_fused = st.var_offset && !st.choices && !constant && only_constant_geps(L, gep);
	emit(L, constant, st);
	/* A variable index collapses the object it points into: its position is
	 * what the catalog names as the collapse's place. */
	if (st.var_offset && !constant)
		L->stmts.items[L->stmts.len - 1].loc = store_loc(L, gep);
}

/* Every pointer-sized slot of a value of type ty, as byte offsets. */
static void emit_slots(lowering *L, ir_stmt_op op, unsigned dst, unsigned src, LLVMTypeRef ty)
{
	if (!is_aggregate(ty)) {
		emit(L, false, (ir_stmt){.op = op, .dst = dst, .src = src});
		return;
	}
	uint64_t size = LLVMStoreSizeOfType(L->layout, ty), step = L->prog->pointer_size;
	if (size > 4096)
		size = 4096;   /* larger aggregates are arrays of bytes in practice */
	for (uint64_t k = 0; k + step <= size; k += step)
		emit(L, false, (ir_stmt){.op = op, .dst = dst, .src = src, .offset = (int64_t)k});
}

/* ---- constants -------------------------------------------------------------------------- */

static unsigned lower_constant(lowering *L, LLVMValueRef c)
{
	if (LLVMIsAGlobalAlias(c))
		return lower_operand(L, LLVMAliasGetAliasee(c));
	bool expr = LLVMIsAConstantExpr(c) != NULL;
	bool aggregate = LLVMIsAConstantStruct(c) || LLVMIsAConstantArray(c) || LLVMIsAConstantVector(c);
	if ((!expr && !aggregate) || !lower_tracked_type(L, LLVMTypeOf(c)))
		return IR_NONE;   /* null, undef, poison, integers, data arrays */

	unsigned id = lower_new_value(L, c);   /* memoised from here on */
	unsigned n = LLVMGetNumOperands(c);
	if (expr && LLVMGetConstOpcode(c) == LLVMGetElementPtr) {
		emit_gep(L, true, id, c);
		return id;
	}
	/* Casts, int<->ptr, address arithmetic, aggregates: the value holds what
	 * its operands hold. */
	for (unsigned i = 0; i < n; i++)
		emit_copy(L, true, id, lower_operand(L, LLVMGetOperand(c, i)));
	return id;
}

unsigned lower_operand(lowering *L, LLVMValueRef v)
{
	if (!v || !lower_tracked_type(L, LLVMTypeOf(v)))
		return IR_NONE;
	unsigned id = lower_value_id(L, v);
	if (id != IR_NONE)
		return id;
	if (LLVMIsAConstant(v))
		return lower_constant(L, v);
	return IR_NONE;   /* metadata, basic blocks, inline asm */
}

/* ---- instructions ------------------------------------------------------------------------ */

static unsigned self_if_tracked(lowering *L, LLVMValueRef inst)
{
	return lower_tracked_type(L, LLVMTypeOf(inst)) ? lower_value_id(L, inst) : IR_NONE;
}

static void lower_alloca(lowering *L, LLVMValueRef inst)
{
	LLVMTypeRef ty = LLVMGetAllocatedType(inst);
	uint64_t size = LLVMTypeIsSized(ty) ? LLVMABISizeOfType(L->layout, ty) : 0;
	LLVMValueRef count = LLVMGetOperand(inst, 0);
	if (count && LLVMIsAConstantInt(count))
		size *= LLVMConstIntGetZExtValue(count);
	else
		size = 0;   /* a VLA: unknown size */
	/* The allocated struct types the slot when no #dbg_declare does (at -O1
	 * and above clang tracks assignments with #dbg_assign records, whose
	 * address operand the C API does not expose). */
	uint64_t elem = lower_array_elem(L, ty);
	emit(L, false, (ir_stmt){.op = ST_ALLOCA, .dst = lower_value_id(L, inst), .size = size,
	                         .gep_record = struct_record(L, ty), .stride = elem <= UINT32_MAX ? (uint32_t)elem : 0,
	                         .arrays = size ? lower_arrays(L, ty) : NULL});
}

/* Where a store (or a variable-index GEP) is in the source: the refinement
 * cites it as evidence. */
static const ir_loc *store_loc(lowering *L, LLVMValueRef inst)
{
	LLVMMetadataRef md = LLVMInstructionGetDebugLoc(inst);
	if (!md || LLVMGetMetadataKind(md) != LLVMDILocationMetadataKind)
		return NULL;
	ir_loc *loc = ARENA_NEW(&L->prog->arena, ir_loc);
	*loc = dinfo_location(&L->di, md);
	return loc;
}

void lower_instruction(lowering *L, LLVMValueRef inst)
{
	LLVMOpcode op = LLVMGetInstructionOpcode(inst);
	unsigned self = self_if_tracked(L, inst);
	switch (op) {
	case LLVMAlloca:
		lower_alloca(L, inst);
		break;
	case LLVMLoad:
		if (self != IR_NONE)
			emit_slots(L, ST_LOAD, self, lower_operand(L, LLVMGetOperand(inst, 0)), LLVMTypeOf(inst));
		break;
	case LLVMStore: {
		LLVMValueRef val = LLVMGetOperand(inst, 0);
		unsigned src = lower_operand(L, val), dst = lower_operand(L, LLVMGetOperand(inst, 1));
		if (src != IR_NONE && dst != IR_NONE) {
			size_t first = L->stmts.len;
			emit_slots(L, ST_STORE, dst, src, LLVMTypeOf(val));
			const ir_loc *loc = store_loc(L, inst);
			for (size_t i = first; i < L->stmts.len; i++)
				L->stmts.items[i].loc = loc;
		}
		break;
	}
	case LLVMGetElementPtr:
		emit_gep(L, false, self, inst);
		break;
	case LLVMBitCast: case LLVMAddrSpaceCast: case LLVMPtrToInt: case LLVMIntToPtr:
	case LLVMFreeze: case LLVMExtractValue: case LLVMExtractElement:
	case LLVMAdd: case LLVMSub: case LLVMAnd: case LLVMOr: case LLVMXor:
	case LLVMInsertValue: case LLVMInsertElement: case LLVMShuffleVector: {
		unsigned n = LLVMGetNumOperands(inst);
		if (op == LLVMExtractValue || op == LLVMExtractElement || op == LLVMShuffleVector)
			n = op == LLVMShuffleVector ? 2 : 1;   /* not the index operands */
		for (unsigned i = 0; i < n; i++)
			emit_copy(L, false, self, lower_operand(L, LLVMGetOperand(inst, i)));
		break;
	}
	case LLVMPHI: {
		unsigned n = LLVMCountIncoming(inst);
		for (unsigned i = 0; i < n; i++)
			emit_copy(L, false, self, lower_operand(L, LLVMGetIncomingValue(inst, i)));
		break;
	}
	case LLVMSelect:
		emit_copy(L, false, self, lower_operand(L, LLVMGetOperand(inst, 1)));
		emit_copy(L, false, self, lower_operand(L, LLVMGetOperand(inst, 2)));
		break;
	case LLVMAtomicRMW: case LLVMAtomicCmpXchg: {
		/* The old value is read and the new one written: a load and a store. */
		unsigned ptr = lower_operand(L, LLVMGetOperand(inst, 0));
		unsigned val = lower_operand(L, LLVMGetOperand(inst, op == LLVMAtomicRMW ? 1 : 2));
		if (ptr != IR_NONE && val != IR_NONE)
			emit(L, false, (ir_stmt){.op = ST_STORE, .dst = ptr, .src = val});
		if (ptr != IR_NONE && self != IR_NONE)
			emit(L, false, (ir_stmt){.op = ST_LOAD, .dst = self, .src = ptr});
		break;
	}
	case LLVMRet:
		if (LLVMGetNumOperands(inst) == 1) {
			unsigned src = lower_operand(L, LLVMGetOperand(inst, 0));
			if (src != IR_NONE)
				emit(L, false, (ir_stmt){.op = ST_RET, .src = src});
		}
		break;
	case LLVMCall: case LLVMInvoke: case LLVMCallBr:
		for (unsigned i = L->call_first_site; i < L->sites.len; i++) {
			const ir_site *s = &L->sites.items[i];
			/* An asm's call through memory: its callee is loaded from the operand. */
			if (s->asm_memory && s->callee_value != IR_NONE) {
				unsigned addr = lower_operand(L, LLVMGetOperand(inst, s->asm_arg));
				if (addr != IR_NONE)
					emit(L, false, (ir_stmt){.op = ST_LOAD, .dst = s->callee_value, .src = addr});
			}
			emit(L, false, (ir_stmt){.op = ST_CALL, .site = i, .dst = self});
		}
		break;
	case LLVMVAArg:
		if (self != IR_NONE)
			L->prog->n_unmodelled_insts++;
		break;
	default:
		break;   /* arithmetic on non-addresses, compares, branches: no pointer moves */
	}
}
