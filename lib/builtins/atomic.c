/* builtins/atomic.c — cuda.atomic.*: read-modify-write of one array
 * element (in global or shared memory), returning the value it held.
 *
 * Each row names its operation and the element types numba-cuda allows it
 * on. Most are one LLVM atomicrmw, the same instruction on the CPU and the
 * GPU (where LLVM turns the ones PTX lacks into compare-and-swap loops).
 * Float max and min follow numba-cuda rather than LLVM's fmax: max and min
 * leave the element as it is when either value is NaN, nanmax and nanmin
 * treat a NaN as missing; both are compare-and-swap loops here.
 */
#include "builtins/builtins.h"

typedef enum {
  ATOM_ADD, ATOM_SUB, ATOM_AND, ATOM_OR, ATOM_XOR, ATOM_INC, ATOM_DEC, ATOM_EXCH,
  ATOM_MAX, ATOM_MIN, ATOM_NANMAX, ATOM_NANMIN, ATOM_CAS, ATOM_COMPARE_AND_SWAP,
} AtomicOp;

/* The element types an operation takes, as numba-cuda types them. */
enum { ON_NUMBERS, ON_INTEGERS, ON_UNSIGNED };

static bool takes(int on, TypeKind k) {
  bool i32_64 = k == TY_I32 || k == TY_I64, u32_64 = k == TY_U32 || k == TY_U64;
  switch (on) {
  case ON_NUMBERS: return i32_64 || u32_64 || k == TY_F32 || k == TY_F64;
  case ON_INTEGERS: return i32_64 || u32_64;
  default: return u32_64;
  }
}

static const char *const type_names[] = {
  [ON_NUMBERS] = "int32, int64, uint32, uint64, float32 and float64",
  [ON_INTEGERS] = "int32, int64, uint32 and uint64",
  [ON_UNSIGNED] = "uint32 and uint64",
};

static const int operand_types[] = {
  [ATOM_ADD] = ON_NUMBERS, [ATOM_SUB] = ON_NUMBERS, [ATOM_AND] = ON_INTEGERS, [ATOM_OR] = ON_INTEGERS,
  [ATOM_XOR] = ON_INTEGERS, [ATOM_INC] = ON_UNSIGNED, [ATOM_DEC] = ON_UNSIGNED, [ATOM_EXCH] = ON_INTEGERS,
  [ATOM_MAX] = ON_NUMBERS, [ATOM_MIN] = ON_NUMBERS, [ATOM_NANMAX] = ON_NUMBERS, [ATOM_NANMIN] = ON_NUMBERS,
  [ATOM_CAS] = ON_INTEGERS, [ATOM_COMPARE_AND_SWAP] = ON_INTEGERS,
};

/* atomic.op(ary, idx, val...), compare_and_swap(ary, old, val): the element's type */
static const Type *ty_atomic(Infer *in, Node *n, const Type **args) {
  const Type *a = args[0];
  if (a->kind != TY_ARRAY) return ty_error(in, n, "%s() needs an array, got %s", n->bi->name, a->name);
  if (a->readonly) return ty_error(in, n, "%s() cannot write to a read-only array", n->bi->name);
  int first_value = 2;
  if (n->bi->ival == ATOM_COMPARE_AND_SWAP) {
    if (a->ndim != 1) return ty_error(in, n, "%s() works on a 1-d array, got %d-d", n->bi->name, a->ndim);
    first_value = 1;
  } else {
    const Type *idx = args[1];
    int nidx = idx->kind == TY_TUPLE ? idx->nfields : 1;
    for (int i = 0; i < nidx; i++)
      if (!ty_is_int(idx->kind == TY_TUPLE ? idx->fields[i] : idx))
        return ty_error(in, n->list.items[1], "%s(): the index must be integers, got %s", n->bi->name, idx->name);
    if (nidx != a->ndim)
      return ty_error(in, n, "%s(): the index must name one element of the %d-d array", n->bi->name, a->ndim);
  }
  int on = operand_types[n->bi->ival];
  if (!takes(on, a->elem->kind))
    return ty_error(in, n, "%s() works on arrays of %s, not %s", n->bi->name, type_names[on], a->elem->name);
  for (int i = first_value; i < n->list.len; i++)
    if (!ty_need_scalar(in, n->list.items[i], args[i], n->bi->name)) return NULL;
  return a->elem;
}

/* ---------------------------------------------------------------- compare-and-swap loops */

static LLVMTypeRef bits_type(Lower *l, const Type *t) { return LLVMIntTypeInContext(l->mod->c, (unsigned)t->bits); }

/* A float max or min: numba-cuda's rules as a compare-and-swap loop on the
 * element's bits. Returns the value held before. */
static LLVMValueRef float_extremum(Lower *l, int op, const Type *t, LLVMValueRef addr, LLVMValueRef val) {
  LLVMTypeRef it = bits_type(l, t), ft = lo_type(l, t);
  LLVMBasicBlockRef entry = LLVMGetInsertBlock(l->b), loop = new_block(l, "atomic.try"),
                    swap = new_block(l, "atomic.swap"), done = new_block(l, "atomic.done");
  LLVMValueRef first = LLVMBuildLoad2(l->b, it, addr, "");
  LLVMSetVolatile(first, 1);
  LLVMBuildBr(l->b, loop);
  position(l, loop);
  LLVMValueRef old_bits = LLVMBuildPhi(l->b, it, "");
  LLVMValueRef old = LLVMBuildBitCast(l->b, old_bits, ft, "");
  bool max = op == ATOM_MAX || op == ATOM_NANMAX;
  LLVMValueRef better = fcmp(l, max ? LLVMRealOLT : LLVMRealOGT, old, val);
  LLVMValueRef val_nan = fcmp(l, LLVMRealUNO, val, val), old_nan = fcmp(l, LLVMRealUNO, old, old);
  LLVMValueRef change = op == ATOM_MAX || op == ATOM_MIN
                            ? better  /* false when either is NaN */
                            : LLVMBuildAnd(l->b, LLVMBuildNot(l->b, val_nan, ""), LLVMBuildOr(l->b, better, old_nan, ""), "");
  LLVMBuildCondBr(l->b, change, swap, done);
  position(l, swap);
  LLVMValueRef r = LLVMBuildAtomicCmpXchg(l->b, addr, old_bits, LLVMBuildBitCast(l->b, val, it, ""),
                                         LLVMAtomicOrderingMonotonic, LLVMAtomicOrderingMonotonic, 0);
  LLVMValueRef seen = LLVMBuildExtractValue(l->b, r, 0, "");
  LLVMBuildCondBr(l->b, LLVMBuildExtractValue(l->b, r, 1, ""), done, loop);
  LLVMValueRef in_vals[2] = {first, seen};
  LLVMBasicBlockRef in_blocks[2] = {entry, swap};
  LLVMAddIncoming(old_bits, in_vals, in_blocks, 2);
  position(l, done);
  LLVMValueRef result = LLVMBuildPhi(l->b, it, "");
  LLVMValueRef out_vals[2] = {old_bits, old_bits};
  LLVMBasicBlockRef out_blocks[2] = {loop, swap};
  LLVMAddIncoming(result, out_vals, out_blocks, 2);
  return LLVMBuildBitCast(l->b, result, ft, "");
}

/* ---------------------------------------------------------------- lowering */

static LLVMAtomicRMWBinOp rmw_op(int op, const Type *t) {
  bool fl = ty_is_float(t), sgn = ty_is_signed(t);
  switch (op) {
  case ATOM_ADD: return fl ? LLVMAtomicRMWBinOpFAdd : LLVMAtomicRMWBinOpAdd;
  case ATOM_SUB: return fl ? LLVMAtomicRMWBinOpFSub : LLVMAtomicRMWBinOpSub;
  case ATOM_AND: return LLVMAtomicRMWBinOpAnd;
  case ATOM_OR: return LLVMAtomicRMWBinOpOr;
  case ATOM_XOR: return LLVMAtomicRMWBinOpXor;
  case ATOM_INC: return LLVMAtomicRMWBinOpUIncWrap;
  case ATOM_DEC: return LLVMAtomicRMWBinOpUDecWrap;
  case ATOM_MAX: case ATOM_NANMAX: return sgn ? LLVMAtomicRMWBinOpMax : LLVMAtomicRMWBinOpUMax;
  case ATOM_MIN: case ATOM_NANMIN: return sgn ? LLVMAtomicRMWBinOpMin : LLVMAtomicRMWBinOpUMin;
  default: return LLVMAtomicRMWBinOpXchg;
  }
}

static LLVMValueRef lo_atomic(Lower *l, Node *n) {
  int op = n->bi->ival;
  Node *arr = n->list.items[0];
  const Type *elem = arr->ty->elem;
  LLVMValueRef base = lo_expr(l, arr), idx[RC_MAX_NDIM] = {const_i64(l, 0)};
  int first_value = 1;
  if (op != ATOM_COMPARE_AND_SWAP) {
    lo_indices(l, n->list.items[1], idx);
    first_value = 2;
  }
  LLVMValueRef addr = lo_element_addr(l, arr->ty, base, idx);
  LLVMValueRef v = lo_expr_as(l, n->list.items[first_value], elem);
  if (op == ATOM_CAS || op == ATOM_COMPARE_AND_SWAP) {
    LLVMValueRef nv = lo_expr_as(l, n->list.items[first_value + 1], elem);
    LLVMValueRef r = LLVMBuildAtomicCmpXchg(l->b, addr, v, nv, LLVMAtomicOrderingMonotonic, LLVMAtomicOrderingMonotonic, 0);
    return LLVMBuildExtractValue(l->b, r, 0, "");
  }
  if (ty_is_float(elem) && op >= ATOM_MAX) return float_extremum(l, op, elem, addr, v);
  return LLVMBuildAtomicRMW(l->b, rmw_op(op, elem), addr, v, LLVMAtomicOrderingMonotonic, 0);
}

/* A Numba lowering's atomic update of an array element (ruchey/_lowerings.py
 * reads it: PySDM's atomic_add), in any compiled code, as Numba runs it: the
 * element kinds its lowering takes are n->op's bits (signed ints, unsigned
 * ints, floats). */
static const Type *ty_lowered_atomic(Infer *in, Node *n, const Type **args) {
  const Type *e = args[0]->kind == TY_ARRAY ? args[0]->elem : NULL;
  int bit = !e ? 0 : ty_is_float(e) ? 4 : ty_is_int(e) && !ty_is_signed(e) ? 2 : ty_is_int(e) ? 1 : 0;
  if (e && !(n->op & bit))
    return ty_error(in, n, "%s(): the function's Numba lowering does not take arrays of %s", n->bi->name, e->name);
  return ty_atomic(in, n, args);
}

/* ---------------------------------------------------------------- the rows */

#define ATOMIC(path, op, n) \
  {"cuda.atomic." path, "ruchey.cuda", "atomic." path, BK_FUNCTION, 0, n, n, NULL, BF_KERNEL | BF_VARIES, op, 0, ty_atomic, lo_atomic}

const Builtin bi_atomic[] = {
  ATOMIC("add", ATOM_ADD, 3),
  ATOMIC("sub", ATOM_SUB, 3),
  ATOMIC("and_", ATOM_AND, 3),
  ATOMIC("or_", ATOM_OR, 3),
  ATOMIC("xor", ATOM_XOR, 3),
  ATOMIC("inc", ATOM_INC, 3),
  ATOMIC("dec", ATOM_DEC, 3),
  ATOMIC("exch", ATOM_EXCH, 3),
  ATOMIC("max", ATOM_MAX, 3),
  ATOMIC("min", ATOM_MIN, 3),
  ATOMIC("nanmax", ATOM_NANMAX, 3),
  ATOMIC("nanmin", ATOM_NANMIN, 3),
  ATOMIC("cas", ATOM_CAS, 4),
  ATOMIC("compare_and_swap", ATOM_COMPARE_AND_SWAP, 3),
#define LOWERED(path, op) \
  {"a lowering's atomic " path, NULL, NULL, BK_FUNCTION, 0, 3, 3, NULL, BF_VARIES, op, 0, ty_lowered_atomic, lo_atomic}
  LOWERED("add", ATOM_ADD), LOWERED("sub", ATOM_SUB), LOWERED("max", ATOM_MAX), LOWERED("min", ATOM_MIN),
  LOWERED("and_", ATOM_AND), LOWERED("or_", ATOM_OR), LOWERED("xor", ATOM_XOR), LOWERED("exch", ATOM_EXCH),
  BI_END,
};
