/* lower/model.c — how a value of each type is held: its LLVM type in
 * registers, its layout in memory (array elements, arguments, results),
 * and conversions between types as Python and NumPy convert. */
#include <stdio.h>
#include <string.h>

#include "lower/lower.h"

/* ---------------------------------------------------------------- the data model */

/* One row per kind of type: how its values are held in registers and in
 * memory (arguments, results, array elements, tuple fields: the layout
 * types.c computes sizes and offsets for), and the references they hold.
 * A kind without a row cannot reach lowering (typing refuses it). */
typedef struct Model {
  LLVMTypeRef (*value)(Lower *l, const Type *t);
  LLVMTypeRef (*storage)(Lower *l, const Type *t);
  LLVMValueRef (*load)(Lower *l, const Type *t, LLVMValueRef p);
  void (*store)(Lower *l, const Type *t, LLVMValueRef p, LLVMValueRef v);
  void (*refcount)(Lower *l, const Type *t, LLVMValueRef v, bool inc);  /* NULL: holds none */
} Model;

static const Model *model(const Type *t);

static LLVMTypeRef int_value(Lower *l, const Type *t) { return LLVMIntTypeInContext(l->mod->c, (unsigned)t->bits); }
static LLVMTypeRef float_value(Lower *l, const Type *t) {
  return t->bits == 16 ? LLVMHalfTypeInContext(l->mod->c) : t->bits == 32 ? l->mod->f32 : l->mod->f64;
}
static LLVMTypeRef bool_value(Lower *l, const Type *t) { return l->mod->i1; }
/* a complex: {real, imaginary}, as NumPy lays it out */
static LLVMTypeRef complex_value(Lower *l, const Type *t) {
  LLVMTypeRef part = t->kind == TY_C64 ? l->mod->f32 : l->mod->f64, f[2] = {part, part};
  return LLVMStructTypeInContext(l->mod->c, f, 2, 0);
}
static LLVMTypeRef byte(Lower *l, const Type *t) { return l->mod->i8; }

/* In memory a type with no value takes no bytes, as types.c lays out a
 * tuple holding one (None, a dtype): an empty struct. */
static LLVMTypeRef nothing(Lower *l, const Type *t) { return LLVMStructTypeInContext(l->mod->c, NULL, 0, 0); }
static LLVMTypeRef same_storage(Lower *l, const Type *t) { return model(t)->value(l, t); }

static LLVMValueRef plain_load(Lower *l, const Type *t, LLVMValueRef p) {
  return LLVMBuildLoad2(l->b, model(t)->storage(l, t), p, "");
}

static void plain_store(Lower *l, const Type *t, LLVMValueRef p, LLVMValueRef v) { LLVMBuildStore(l->b, v, p); }

/* a bool is an i1 in registers, a byte in memory */
static LLVMValueRef bool_load(Lower *l, const Type *t, LLVMValueRef p) {
  return LLVMBuildTrunc(l->b, LLVMBuildLoad2(l->b, l->mod->i8, p, ""), l->mod->i1, "");
}

static void bool_store(Lower *l, const Type *t, LLVMValueRef p, LLVMValueRef v) {
  LLVMBuildStore(l->b, LLVMBuildZExt(l->b, v, l->mod->i8, ""), p);
}

/* a range value: {start, stop, step} */
static LLVMTypeRef range_value(Lower *l, const Type *t) {
  LLVMTypeRef f[3] = {l->mod->i64, l->mod->i64, l->mod->i64};
  return LLVMStructTypeInContext(l->mod->c, f, 3, 0);
}

/* none, dtype and module values are never loaded */
static LLVMValueRef no_load(Lower *l, const Type *t, LLVMValueRef p) { return LLVMGetUndef(l->mod->i8); }
static void no_store(Lower *l, const Type *t, LLVMValueRef p, LLVMValueRef v) {}

/* An array in registers: {meminfo, parent, data, shape[ndim], strides[ndim]};
 * in memory an RtArray (RC_MAX_NDIM dimensions). */
static LLVMTypeRef array_value(Lower *l, const Type *t) {
  LLVMTypeRef dims = LLVMArrayType2(l->mod->i64, (uint64_t)t->ndim);
  LLVMTypeRef f[5] = {l->mod->ptr, l->mod->ptr, l->mod->ptr, dims, dims};
  return LLVMStructTypeInContext(l->mod->c, f, 5, 0);
}

static LLVMTypeRef array_storage(Lower *l, const Type *t) { return l->mod->rtarray; }

static LLVMValueRef array_load(Lower *l, const Type *t, LLVMValueRef p);
static void array_store(Lower *l, const Type *t, LLVMValueRef p, LLVMValueRef v);

static void array_refcount(Lower *l, const Type *t, LLVMValueRef v, bool inc) {
  lo_meminfo_refcount(l, LLVMBuildExtractValue(l->b, v, 0, "meminfo"), inc);
}

/* A tuple: a struct of its fields, in registers and in memory alike. */
static LLVMTypeRef tuple_type(Lower *l, const Type *t, bool storage) {
  LLVMTypeRef few[16], *f = t->nfields <= 16 ? few : arena_alloc(l->f->arena, sizeof(LLVMTypeRef) * (size_t)t->nfields);
  for (int i = 0; i < t->nfields; i++)
    f[i] = storage ? model(t->fields[i])->storage(l, t->fields[i]) : model(t->fields[i])->value(l, t->fields[i]);
  return LLVMStructTypeInContext(l->mod->c, f, (unsigned)t->nfields, 0);
}

static LLVMTypeRef tuple_value(Lower *l, const Type *t) { return tuple_type(l, t, false); }
static LLVMTypeRef tuple_storage(Lower *l, const Type *t) { return tuple_type(l, t, true); }

/* A tuple laid out in memory as in registers is loaded whole: a chain of
 * an insertvalue per item costs LLVM's constant propagation a time that
 * grows as the cube of the items (seconds for 300). */
static LLVMValueRef tuple_load(Lower *l, const Type *t, LLVMValueRef p) {
  LLVMTypeRef value = tuple_value(l, t);
  if (value == tuple_storage(l, t)) return LLVMBuildLoad2(l->b, value, p, "");
  LLVMValueRef v = LLVMGetUndef(value);
  for (int i = 0; i < t->nfields; i++) {
    LLVMValueRef fp = LLVMBuildStructGEP2(l->b, tuple_storage(l, t), p, (unsigned)i, "");
    v = LLVMBuildInsertValue(l->b, v, lo_load_storage(l, t->fields[i], fp), (unsigned)i, "");
  }
  return v;
}

static void tuple_store(Lower *l, const Type *t, LLVMValueRef p, LLVMValueRef v) {
  for (int i = 0; i < t->nfields; i++) {
    LLVMValueRef fp = LLVMBuildStructGEP2(l->b, tuple_storage(l, t), p, (unsigned)i, "");
    lo_store_storage(l, t->fields[i], fp, LLVMBuildExtractValue(l->b, v, (unsigned)i, ""));
  }
}

static void tuple_refcount(Lower *l, const Type *t, LLVMValueRef v, bool inc) {
  for (int i = 0; i < t->nfields; i++)
    if (ty_has_arrays(t->fields[i]))
      lo_refcount(l, t->fields[i], LLVMBuildExtractValue(l->b, v, (unsigned)i, ""), inc);
}

/* An Optional: {value, valid} in registers, {value, byte} in memory (as
 * types.c lays it out); None is all zeros, so that its arrays are NULL. */
static LLVMTypeRef optional_type(Lower *l, const Type *t, bool storage) {
  LLVMTypeRef f[2] = {storage ? model(t->elem)->storage(l, t->elem) : model(t->elem)->value(l, t->elem),
                      storage ? l->mod->i8 : l->mod->i1};
  return LLVMStructTypeInContext(l->mod->c, f, 2, 0);
}

static LLVMTypeRef optional_value(Lower *l, const Type *t) { return optional_type(l, t, false); }
static LLVMTypeRef optional_storage(Lower *l, const Type *t) { return optional_type(l, t, true); }

static LLVMValueRef optional_load(Lower *l, const Type *t, LLVMValueRef p) {
  LLVMTypeRef st = optional_storage(l, t);
  LLVMValueRef v = LLVMGetUndef(optional_value(l, t));
  v = LLVMBuildInsertValue(l->b, v, lo_load_storage(l, t->elem, LLVMBuildStructGEP2(l->b, st, p, 0, "")), 0, "");
  return LLVMBuildInsertValue(l->b, v, bool_load(l, t, LLVMBuildStructGEP2(l->b, st, p, 1, "")), 1, "");
}

static void optional_store(Lower *l, const Type *t, LLVMValueRef p, LLVMValueRef v) {
  LLVMTypeRef st = optional_storage(l, t);
  lo_store_storage(l, t->elem, LLVMBuildStructGEP2(l->b, st, p, 0, ""), LLVMBuildExtractValue(l->b, v, 0, ""));
  bool_store(l, t, LLVMBuildStructGEP2(l->b, st, p, 1, ""), LLVMBuildExtractValue(l->b, v, 1, ""));
}

static void optional_refcount(Lower *l, const Type *t, LLVMValueRef v, bool inc) {
  lo_refcount(l, t->elem, LLVMBuildExtractValue(l->b, v, 0, ""), inc);
}

static LLVMTypeRef ptr_value(Lower *l, const Type *t) { return l->mod->ptr; }

/* A record: a pointer to its bytes in registers (a view: writes through
 * it reach the array, as Numba's), its bytes in memory; a load is the
 * address, a store copies the bytes. */
static LLVMTypeRef record_storage(Lower *l, const Type *t) { return LLVMArrayType2(l->mod->i8, t->size); }
static LLVMValueRef record_load(Lower *l, const Type *t, LLVMValueRef p) { return p; }
static void record_store(Lower *l, const Type *t, LLVMValueRef p, LLVMValueRef v) {
  LLVMBuildMemMove(l->b, p, 1, v, 1, const_i64(l, (long long)t->size));  /* a[i] = a[i] overlaps */
}

/* A '<Un' or '|Sn' item moved whole (the items an index array or a mask
 * gathers into a new array): as a record, the address of its bytes, a
 * store copying them. Read as a str or bytes it is lo_text_read's. */
static void text_store(Lower *l, const Type *t, LLVMValueRef p, LLVMValueRef v) {
  LLVMBuildMemMove(l->b, p, 1, v, 1, const_i64(l, (long long)t->size));
}

/* A Generator made in compiled code is counted; an argument's counts are
 * no-ops (the runtime tells them apart). */
static void generator_refcount(Lower *l, const Type *t, LLVMValueRef v, bool inc) {
  lo_call_fn(l, inc ? "rt_generator_retain" : "rt_generator_release", void_type(l), &l->mod->ptr, &v, 1);
}

/* A generator object: its state's count first; the last release drops it. */
static void yields_refcount(Lower *l, const Type *t, LLVMValueRef v, bool inc) {
  LLVMValueRef f = lo_refcount_fn(l, inc, "rt_gen_free");
  LLVMBuildCall2(l->b, LLVMGlobalGetValueType(f), f, &v, 1, "");
}

/* A MemInfoPointer: its count first, as an array's memory; the last
 * release runs the destructor C code gave (rt_meminfo_free). */
static void meminfo_refcount(Lower *l, const Type *t, LLVMValueRef v, bool inc) { lo_meminfo_refcount(l, v, inc); }

/* An enum member: its value, held as its value's type is. */
static LLVMTypeRef member_value(Lower *l, const Type *t) { return model(t->elem)->value(l, t->elem); }
static LLVMTypeRef member_storage(Lower *l, const Type *t) { return model(t->elem)->storage(l, t->elem); }
static LLVMValueRef member_load(Lower *l, const Type *t, LLVMValueRef p) { return model(t->elem)->load(l, t->elem, p); }
static void member_store(Lower *l, const Type *t, LLVMValueRef p, LLVMValueRef v) { model(t->elem)->store(l, t->elem, p, v); }
static void member_refcount(Lower *l, const Type *t, LLVMValueRef v, bool inc) { lo_refcount(l, t->elem, v, inc); }

#define INT_MODEL {int_value, same_storage, plain_load, plain_store, NULL}
#define FLOAT_MODEL {float_value, same_storage, plain_load, plain_store, NULL}
#define NO_VALUE {byte, nothing, no_load, no_store, NULL}
static const Model models[TY_COUNT] = {
  [TY_BOOL] = {bool_value, byte, bool_load, bool_store, NULL},
  [TY_I8] = INT_MODEL, [TY_I16] = INT_MODEL, [TY_I32] = INT_MODEL, [TY_I64] = INT_MODEL,
  [TY_U8] = INT_MODEL, [TY_U16] = INT_MODEL, [TY_U32] = INT_MODEL, [TY_U64] = INT_MODEL,
  [TY_F32] = FLOAT_MODEL, [TY_F64] = FLOAT_MODEL, [TY_F16] = FLOAT_MODEL,
  [TY_DATETIME] = INT_MODEL, [TY_TIMEDELTA] = INT_MODEL,  /* an int64 count of the unit */
  [TY_C64] = {complex_value, same_storage, plain_load, plain_store, NULL},
  [TY_C128] = {complex_value, same_storage, plain_load, plain_store, NULL},
  [TY_ARRAY] = {array_value, array_storage, array_load, array_store, array_refcount},
  [TY_BYTES] = {array_value, array_storage, array_load, array_store, array_refcount},  /* an array's (types.c) */
  [TY_CTYPES] = {array_value, array_storage, array_load, array_store, array_refcount},  /* its array's */
  [TY_FLAGS] = {array_value, array_storage, array_load, array_store, array_refcount},  /* its array's */
  [TY_TUPLE] = {tuple_value, tuple_storage, tuple_load, tuple_store, tuple_refcount},
  [TY_LITDICT] = {tuple_value, tuple_storage, tuple_load, tuple_store, tuple_refcount},  /* its values' tuple */
  [TY_NONE] = NO_VALUE, [TY_RANGE] = {range_value, same_storage, plain_load, plain_store, NULL},
  [TY_SLICE] = {range_value, same_storage, plain_load, plain_store, NULL},  /* {start, stop, step}, as a range */ [TY_DTYPE] = NO_VALUE, [TY_MODULE] = NO_VALUE,
  [TY_GRID] = NO_VALUE, [TY_INFO] = NO_VALUE, [TY_FUNCTION] = NO_VALUE, [TY_PYOBJECT] = NO_VALUE, [TY_ELLIPSIS] = NO_VALUE,
  [TY_OPTIONAL] = {optional_value, optional_storage, optional_load, optional_store, optional_refcount},
  [TY_LIST] = {ptr_value, ptr_value, plain_load, plain_store, lo_container_refcount},
  [TY_DICT] = {ptr_value, ptr_value, plain_load, plain_store, lo_container_refcount},
  [TY_DICTVIEW] = {ptr_value, ptr_value, plain_load, plain_store, lo_container_refcount},  /* its dict's */
  [TY_GENERATOR] = {ptr_value, ptr_value, plain_load, plain_store, generator_refcount},
  [TY_BITGEN] = {ptr_value, ptr_value, plain_load, plain_store, generator_refcount},  /* its Generator's pointer */
  [TY_SET] = {ptr_value, ptr_value, plain_load, plain_store, lo_container_refcount},
  [TY_YIELDS] = {ptr_value, ptr_value, plain_load, plain_store, yields_refcount},
  [TY_RECORD] = {ptr_value, record_storage, record_load, record_store, NULL},
  [TY_CHARSEQ] = {ptr_value, record_storage, record_load, text_store, NULL},  /* its t->size bytes, as a record's */
  [TY_BYTESEQ] = {ptr_value, record_storage, record_load, text_store, NULL},
  [TY_STR] = {ptr_value, ptr_value, plain_load, plain_store, lo_str_refcount},
  [TY_CLASS] = {ptr_value, ptr_value, plain_load, plain_store, lo_jitclass_refcount},
  [TY_BOUND] = {ptr_value, ptr_value, plain_load, plain_store, lo_jitclass_refcount},  /* its object's */
  [TY_FUNCPTR] = {ptr_value, ptr_value, plain_load, plain_store, NULL},  /* its code lives as long as its dispatcher */
  [TY_FUNCS] = INT_MODEL,  /* which of its functions */
  [TY_ENUM] = {member_value, member_storage, member_load, member_store, member_refcount},
  [TY_INTENUM] = {member_value, member_storage, member_load, member_store, member_refcount},
  [TY_MEMINFO] = {ptr_value, ptr_value, plain_load, plain_store, meminfo_refcount},
};

static const Model *model(const Type *t) {
  const Model *m = &models[t->kind];
  if (!m->value) {  /* typing let through a type lowering has no row for */
    fprintf(stderr, "ruchey: internal error: no data model for %s\n", t->name);
    abort();
  }
  return m;
}

LLVMTypeRef lo_type(Lower *l, const Type *t) { return model(t)->value(l, t); }

/* A body's result: its value, but a record's bytes rather than its
 * address, copied by the return before the exit releases the arrays that
 * may hold it (the caller keeps a copy, as Numba gives Python). */
LLVMTypeRef lo_result_type(Lower *l, const Type *t) {
  return t->kind == TY_RECORD ? lo_storage_type(l, t) : lo_type(l, t);
}
/* The scalars a tuple lays out, its tuples' counted in turn. */
static int leaves(const Type *t) {
  if (t->kind != TY_TUPLE && t->kind != TY_LITDICT) return 1;
  int n = 0;
  for (int i = 0; i < t->nfields; i++) n += leaves(t->fields[i]);
  return n;
}

/* A result of many fields goes back through memory the caller gives: as
 * a value, LLVM builds it by a chain of an insertvalue per field, whose
 * constant propagation costs a time that grows as the cube of the fields
 * (half a minute for 300). GPU device functions return theirs as values. */
enum { RESULT_IN_REGISTERS = 16 };
bool lo_result_in_memory(Lower *l, const Type *t) { return !l->mod->gpu && lo_many_fields(t); }
bool lo_many_fields(const Type *t) { return leaves(t) > RESULT_IN_REGISTERS; }

/* Where v was loaded whole from, in the block being built with nothing
 * since that may write memory: its bytes there are v's. NULL otherwise. */
LLVMValueRef lo_loaded_from(Lower *l, LLVMValueRef v) {
  if (!LLVMIsALoadInst(v) || LLVMGetInstructionParent(v) != LLVMGetInsertBlock(l->b)) return NULL;
  for (LLVMValueRef i = LLVMGetNextInstruction(v); i; i = LLVMGetNextInstruction(i))
    if (LLVMIsAStoreInst(i) || LLVMIsACallInst(i) || LLVMIsAAtomicRMWInst(i) || LLVMIsAAtomicCmpXchgInst(i)) return NULL;
  return LLVMGetOperand(v, 0);
}

/* v, a value of type t, stored at p: a tuple of many fields just loaded
 * whole (a long display's, a variable's) copied from where it lies, so
 * that LLVM never rebuilds it by a chain of insertvalues (see
 * lo_result_in_memory). */
void lo_store_whole(Lower *l, const Type *t, LLVMValueRef p, LLVMValueRef v) {
  LLVMValueRef from = lo_many_fields(t) ? lo_loaded_from(l, v) : NULL;
  if (from && LLVMTypeOf(v) == lo_type(l, t)) {
    /* (the size as a constant the module's data layout, set after lowering, folds) */
    LLVMBuildMemCpy(l->b, p, 1, from, 1, LLVMSizeOf(lo_type(l, t)));  /* (v, unused, is dropped by LLVM) */
  } else {
    LLVMBuildStore(l->b, v, p);
  }
}

/* A return's value v into the result's slot. */
void lo_set_result(Lower *l, const Type *t, LLVMValueRef slot, LLVMValueRef v) {
  if (t->kind == TY_RECORD) lo_store_storage(l, t, slot, v);
  else lo_store_whole(l, t, slot, v);
}
LLVMValueRef lo_take_result(Lower *l, const Type *t, LLVMValueRef r) {
  if (t->kind != TY_RECORD) return r;
  LLVMValueRef copy = lo_alloca(l, lo_storage_type(l, t), "record");
  LLVMBuildStore(l->b, r, copy);
  return copy;
}
LLVMTypeRef lo_storage_type(Lower *l, const Type *t) { return model(t)->storage(l, t); }
LLVMValueRef lo_load_storage(Lower *l, const Type *t, LLVMValueRef p) { return model(t)->load(l, t, p); }
void lo_store_storage(Lower *l, const Type *t, LLVMValueRef p, LLVMValueRef v) { model(t)->store(l, t, p, v); }

void lo_refcount(Lower *l, const Type *t, LLVMValueRef v, bool inc) {
  /* kernel arrays are arguments, shared or local (and GPU code allocates
   * none): none owns memory */
  if (l->opts->kernel || l->mod->gpu || !model(t)->refcount) return;
  model(t)->refcount(l, t, v, inc);
}

LLVMValueRef lo_fconst(Lower *l, const Type *t, double v) { return LLVMConstReal(lo_type(l, t), v); }

/* ---------------------------------------------------------------- conversions */

LLVMValueRef lo_truth(Lower *l, LLVMValueRef v, const Type *t) {
  if (t->kind == TY_BOOL) return v;
  if (t->kind == TY_NONE) return const_bool(l, false);
  if (t->kind == TY_OPTIONAL)
    return LLVMBuildAnd(l->b, LLVMBuildExtractValue(l->b, v, 1, ""), lo_truth(l, LLVMBuildExtractValue(l->b, v, 0, ""), t->elem), "");
  if (t->kind == TY_STR) return lo_str_truth(l, v);
  if (ty_is_complex(t)) return lo_complex_truth(l, v, t);
  if (ty_is_float(t)) return LLVMBuildFCmp(l->b, LLVMRealUNE, v, LLVMConstNull(lo_type(l, t)), "");
  return LLVMBuildICmp(l->b, LLVMIntNE, v, LLVMConstNull(lo_type(l, t)), "");
}

/* Whether the array item at addr is true (nonzero); a str or bytes item
 * where it is not empty: not all its bytes zero, read as one integer of
 * its size. */
LLVMValueRef lo_item_truth(Lower *l, const Type *elem, LLVMValueRef addr) {
  if (!ty_is_fixed_text(elem)) return lo_truth(l, lo_load_scalar(l, elem, addr), elem);
  LLVMTypeRef bits = LLVMIntTypeInContext(l->mod->c, (unsigned)(8 * elem->size));
  LLVMValueRef v = LLVMBuildLoad2(l->b, bits, addr, "");
  LLVMSetAlignment(v, 1);
  return LLVMBuildICmp(l->b, LLVMIntNE, v, LLVMConstNull(bits), "");
}

/* Conversions to and from an Optional: None is all zeros; an Optional
 * where a value is needed raises TypeError if it is None, as Numba's. */
static LLVMValueRef convert_optional(Lower *l, LLVMValueRef v, const Type *from, const Type *to) {
  if (to->kind == TY_OPTIONAL) {
    if (from->kind == TY_NONE) return LLVMConstNull(lo_type(l, to));
    if (from->kind == TY_OPTIONAL) {
      LLVMValueRef r = LLVMBuildInsertValue(l->b, LLVMGetUndef(lo_type(l, to)), LLVMBuildExtractValue(l->b, v, 1, ""), 1, "");
      return LLVMBuildInsertValue(l->b, r, lo_convert(l, LLVMBuildExtractValue(l->b, v, 0, ""), from->elem, to->elem), 0, "");
    }
    LLVMValueRef r = LLVMBuildInsertValue(l->b, LLVMGetUndef(lo_type(l, to)), lo_convert(l, v, from, to->elem), 0, "");
    return LLVMBuildInsertValue(l->b, r, LLVMConstInt(l->mod->i1, 1, 0), 1, "");
  }
  char msg[300];
  snprintf(msg, sizeof msg, "expected %s, got None", to->name);
  lo_raise_if(l, LLVMBuildNot(l->b, LLVMBuildExtractValue(l->b, v, 1, ""), ""), RT_ERR_TYPE, arena_strdup(l->f->arena, msg));
  return lo_convert(l, LLVMBuildExtractValue(l->b, v, 0, ""), from->elem, to);
}

/* A '<Un' or '|Sn' item as a wider one of its kind (arrays of two widths
 * joined): its bytes, then NULs, as NumPy pads it; a narrower one is its
 * first bytes (an item's address serves). */
static LLVMValueRef widen_text(Lower *l, LLVMValueRef v, const Type *from, const Type *to) {
  if (to->size <= from->size) return v;
  LLVMValueRef wide = lo_alloca(l, LLVMArrayType(l->mod->i8, (unsigned)to->size), "widened");
  LLVMBuildMemSet(l->b, wide, LLVMConstInt(l->mod->i8, 0, 0), const_i64(l, (long long)to->size), 1);
  LLVMBuildMemCpy(l->b, wide, 1, v, 1, const_i64(l, (long long)from->size));
  return wide;
}

/* A float16 converted to an int or from one on the GPU as numba-cuda
 * converts it: one PTX cvt, to the nearest int (cvt.rni, where C's cast
 * truncates) or to the nearest float16 (cvt.rn), on the operands' bits
 * (an 8-bit int in a 16-bit register, as PTX holds it). */
static LLVMValueRef ptx_half_int_cvt(Lower *l, LLVMValueRef v, const Type *from, const Type *to) {
  const Type *it = ty_is_int(from) ? from : to;
  unsigned bits = (unsigned)it->bits, reg_bits = bits < 16 ? 16 : bits;
  const char *reg = reg_bits == 16 ? "h" : reg_bits == 32 ? "r" : "l";
  char text[48], constraints[8];
  if (from->kind == TY_F16)
    snprintf(text, sizeof text, "cvt.rni.%c%u.f16 $0, $1;", ty_is_signed(to) ? 's' : 'u', bits);
  else
    snprintf(text, sizeof text, "cvt.rn.f16.%c%u $0, $1;", ty_is_signed(from) ? 's' : 'u', bits);
  snprintf(constraints, sizeof constraints, from->kind == TY_F16 ? "=%s,h" : "=h,%s", reg);
  LLVMTypeRef i16 = LLVMInt16TypeInContext(l->mod->c), wide = LLVMIntTypeInContext(l->mod->c, reg_bits);
  LLVMTypeRef in = from->kind == TY_F16 ? i16 : wide, out = from->kind == TY_F16 ? wide : i16;
  LLVMValueRef arg = from->kind == TY_F16 ? LLVMBuildBitCast(l->b, v, i16, "")
                                          : LLVMBuildIntCast2(l->b, v, wide, ty_is_signed(from), "");
  LLVMTypeRef ft = LLVMFunctionType(out, &in, 1, 0);
  LLVMValueRef fn = LLVMGetInlineAsm(ft, text, strlen(text), constraints, strlen(constraints), 0, 0,
                                     LLVMInlineAsmDialectATT, 0);
  LLVMValueRef r = LLVMBuildCall2(l->b, ft, fn, &arg, 1, "");
  return from->kind == TY_F16 ? LLVMBuildTrunc(l->b, r, lo_type(l, to), "") : LLVMBuildBitCast(l->b, r, lo_type(l, to), "");
}

LLVMValueRef lo_convert(Lower *l, LLVMValueRef v, const Type *from, const Type *to) {
  if (from != to && ty_is_fixed_text(from) && to->kind == from->kind) return widen_text(l, v, from, to);
  if (from != to && (from->kind == TY_OPTIONAL || to->kind == TY_OPTIONAL)) return convert_optional(l, v, from, to);
  if (from != to && to->kind == TY_FUNCS) return lo_funcs_convert(l, v, from, to);
  if (from == to || from->kind == TY_ARRAY || from->kind == TY_BYTES || ty_is_container(from) || from->kind == TY_STR)
    return v;  /* layouts share a struct (bytes an array's); a pointer */
  if (ty_is_enum(from)) return lo_convert(l, v, from->elem, to);  /* an IntEnum member read as its int: its value */
  LLVMTypeRef dst = lo_type(l, to);
  if (to->kind == TY_TUPLE || to->kind == TY_LITDICT) {  /* (a literal dict's values as a tuple: d.values()) */
    LLVMValueRef r = LLVMGetUndef(dst);
    for (int i = 0; i < to->nfields; i++) {
      LLVMValueRef f = LLVMBuildExtractValue(l->b, v, (unsigned)i, "");
      r = LLVMBuildInsertValue(l->b, r, lo_convert(l, f, from->fields[i], to->fields[i]),
                               (unsigned)i, "");
    }
    return r;
  }
  if (ty_is_complex(from) || ty_is_complex(to)) return lo_complex_convert(l, v, from, to);
  if (to->kind == TY_BOOL) return lo_truth(l, v, from);
  if (ty_is_time(from) || ty_is_time(to)) return lo_time_convert(l, v, from, to);
  if (from->kind == TY_BOOL)
    return ty_is_float(to) ? LLVMBuildUIToFP(l->b, v, dst, "") : LLVMBuildZExt(l->b, v, dst, "");
  if (ty_is_int(from) && ty_is_int(to))
    return LLVMBuildIntCast2(l->b, v, dst, ty_is_signed(from), "");
  if (l->mod->gpu && (from->kind == TY_F16) != (to->kind == TY_F16) && LLVMGetTypeKind(LLVMTypeOf(v)) != LLVMVectorTypeKind &&
      (ty_is_int(from) || ty_is_int(to)))
    return ptx_half_int_cvt(l, v, from, to);
  if (ty_is_int(from))
    return ty_is_signed(from) ? LLVMBuildSIToFP(l->b, v, dst, "") : LLVMBuildUIToFP(l->b, v, dst, "");
  if (ty_is_int(to) && from->kind == TY_F16 && (l->opts->kernel || l->opts->device))  /* as the GPU's cvt.rni */
    v = lo_intrinsic1(l, "llvm.roundeven", from, v);
  if (ty_is_int(to)) return lo_fp_to_int(l, v, dst, ty_is_signed(to));
  return LLVMBuildFPCast(l->b, v, dst, "");
}

static LLVMTypeRef scalar_of(LLVMTypeRef t) { return LLVMGetTypeKind(t) == LLVMVectorTypeKind ? LLVMGetElementType(t) : t; }

/* An int type as wide as `bits`, with as many lanes as like has. */
static LLVMTypeRef int_like(LLVMTypeRef like, unsigned bits) {
  LLVMTypeRef t = LLVMIntTypeInContext(LLVMGetTypeContext(like), bits);
  return LLVMGetTypeKind(like) == LLVMVectorTypeKind ? LLVMVectorType(t, LLVMGetVectorSize(like)) : t;
}

/* c, or c in every lane when like is a vector. */
static LLVMValueRef like_const(LLVMValueRef c, LLVMTypeRef like) {
  if (LLVMGetTypeKind(like) != LLVMVectorTypeKind) return c;
  LLVMValueRef lanes[64];
  unsigned n = LLVMGetVectorSize(like);
  for (unsigned i = 0; i < n; i++) lanes[i] = c;
  return LLVMConstVector(lanes, n);
}

static LLVMValueRef fp_to_signed(Lower *l, LLVMValueRef v, LLVMTypeRef dst) {
  return LLVMBuildFreeze(l->b, LLVMBuildFPToSI(l->b, v, dst, ""), "");
}

/* A float truncated to an int type (or lanes of them) as NumPy's casts
 * (C's) convert it on x86-64, where a value beyond the type's range, or
 * NaN, gives what the CPU's signed conversion gives: INT_MIN, cut to the
 * type. Types narrower than int32 go through int32's conversion as gcc
 * compiles them (a vector conversion straight to int8 or int16 is
 * lowered with saturating packs on AVX2: 127 or -128 there, not the cut
 * INT_MIN); u32 through int64, u64 through int64 of x or of x - 2**63 at
 * and beyond 2**63. On a GPU, PTX's conversions saturate (NaN gives 0).
 * LLVM calls these values poison; each freeze makes one fixed value the
 * optimiser may not reason from. */
LLVMValueRef lo_fp_to_int(Lower *l, LLVMValueRef v, LLVMTypeRef dst, bool is_signed) {
  unsigned bits = LLVMGetIntTypeWidth(scalar_of(dst));
  if (l->mod->gpu)  /* PTX's cvt: saturated, as CUDA C's */
    return is_signed ? fp_to_signed(l, v, dst) : LLVMBuildFreeze(l->b, LLVMBuildFPToUI(l->b, v, dst, ""), "");
  if (bits < 32) return LLVMBuildTrunc(l->b, fp_to_signed(l, v, int_like(dst, 32)), dst, "");
  if (is_signed) return fp_to_signed(l, v, dst);
  if (bits < 64) return LLVMBuildTrunc(l->b, fp_to_signed(l, v, int_like(dst, 64)), dst, "");
  LLVMValueRef top = like_const(LLVMConstReal(scalar_of(LLVMTypeOf(v)), 0x1p63), dst);
  LLVMValueRef sign = like_const(LLVMConstInt(scalar_of(dst), 1ull << 63, 0), dst);
  LLVMValueRef high = LLVMBuildFCmp(l->b, LLVMRealOGE, v, top, "");
  LLVMValueRef low_part = fp_to_signed(l, v, dst);
  LLVMValueRef high_part = LLVMBuildXor(l->b, fp_to_signed(l, LLVMBuildFSub(l->b, v, top, ""), dst), sign, "");
  return LLVMBuildSelect(l->b, high, high_part, low_part, "");
}

/* ---------------------------------------------------------------- arrays */

LLVMValueRef lo_arr_field(Lower *l, LLVMValueRef a, unsigned field, unsigned i) {
  unsigned idx[2] = {field, i};
  return LLVMBuildExtractValue(l->b, LLVMBuildExtractValue(l->b, a, idx[0], ""), idx[1], "");
}

LLVMValueRef lo_arr_shape(Lower *l, LLVMValueRef a, int d) { return lo_arr_field(l, a, 3, (unsigned)d); }

/* The byte stride of dimension d. Contiguous layouts compute it from the
 * shape, which lets LLVM see unit strides and vectorise. */
LLVMValueRef lo_arr_stride(Lower *l, const Type *t, LLVMValueRef a, int d) {
  if (t->layout == 'A') return lo_arr_field(l, a, 4, (unsigned)d);
  LLVMValueRef s = const_i64(l, ty_bits(t->elem) / 8);
  if (t->layout == 'C')
    for (int k = t->ndim - 1; k > d; k--) s = LLVMBuildMul(l->b, s, lo_arr_shape(l, a, k), "");
  else
    for (int k = 0; k < d; k++) s = LLVMBuildMul(l->b, s, lo_arr_shape(l, a, k), "");
  return s;
}

/* NumPy's broadcasting reads an axis of length 1 at index 0 whatever the
 * result's index, as if its stride were 0. */
static LLVMValueRef unless_single(Lower *l, LLVMValueRef a, int d, LLVMValueRef v) {
  LLVMValueRef single = LLVMBuildICmp(l->b, LLVMIntEQ, lo_arr_shape(l, a, d), const_i64(l, 1), "");
  return LLVMBuildSelect(l->b, single, const_i64(l, 0), v, "");
}

LLVMValueRef lo_broadcast_index(Lower *l, LLVMValueRef a, int d, LLVMValueRef i) { return unless_single(l, a, d, i); }

LLVMValueRef lo_broadcast_stride(Lower *l, const Type *t, LLVMValueRef a, int d) {
  return unless_single(l, a, d, lo_arr_stride(l, t, a, d));
}

/* A scalar (an array element) at addr. */
LLVMValueRef lo_load_scalar(Lower *l, const Type *t, LLVMValueRef addr) { return model(t)->load(l, t, addr); }
void lo_store_scalar(Lower *l, const Type *t, LLVMValueRef addr, LLVMValueRef v) { model(t)->store(l, t, addr, v); }

/* Reads an array from its RtArray memory layout. */
static LLVMValueRef array_load(Lower *l, const Type *t, LLVMValueRef p) {
  LLVMValueRef v = LLVMGetUndef(lo_type(l, t));
  for (unsigned f = 0; f < 3; f++) {
    LLVMValueRef fp = LLVMBuildStructGEP2(l->b, l->mod->rtarray, p, f, "");
    v = LLVMBuildInsertValue(l->b, v, LLVMBuildLoad2(l->b, l->mod->ptr, fp, ""), f, "");
  }
  for (unsigned f = 3; f < 5; f++) {
    LLVMValueRef dims = LLVMBuildStructGEP2(l->b, l->mod->rtarray, p, f, "");
    for (int d = 0; d < t->ndim; d++) {
      LLVMValueRef idx[2] = {const_i64(l, 0), const_i64(l, d)};
      LLVMValueRef dp = LLVMBuildGEP2(l->b, LLVMArrayType2(l->mod->i64, RC_MAX_NDIM), dims, idx, 2, "");
      unsigned path[2] = {f, (unsigned)d};
      LLVMValueRef agg = LLVMBuildExtractValue(l->b, v, path[0], "");
      agg = LLVMBuildInsertValue(l->b, agg, LLVMBuildLoad2(l->b, l->mod->i64, dp, ""), path[1], "");
      v = LLVMBuildInsertValue(l->b, v, agg, f, "");
    }
  }
  return v;
}

static void array_store(Lower *l, const Type *t, LLVMValueRef p, LLVMValueRef v) {
  for (unsigned f = 0; f < 3; f++)
    LLVMBuildStore(l->b, LLVMBuildExtractValue(l->b, v, f, ""),
                   LLVMBuildStructGEP2(l->b, l->mod->rtarray, p, f, ""));
  for (unsigned f = 3; f < 5; f++) {
    LLVMValueRef dims = LLVMBuildStructGEP2(l->b, l->mod->rtarray, p, f, "");
    for (int d = 0; d < t->ndim; d++) {
      LLVMValueRef idx[2] = {const_i64(l, 0), const_i64(l, d)};
      LLVMValueRef dp = LLVMBuildGEP2(l->b, LLVMArrayType2(l->mod->i64, RC_MAX_NDIM), dims, idx, 2, "");
      LLVMValueRef val = f == 4 ? lo_arr_stride(l, t, v, d) : lo_arr_field(l, v, f, (unsigned)d);
      LLVMBuildStore(l->b, val, dp);
    }
  }
}

void lo_module_init(LowerModule *mod, LLVMContextRef c, LLVMModuleRef m, CompileResult *res) {
  *mod = (LowerModule){.c = c, .m = m, .res = res};
  mod->i1 = LLVMInt1TypeInContext(c);
  mod->i8 = LLVMInt8TypeInContext(c);
  mod->i32 = LLVMInt32TypeInContext(c);
  mod->i64 = LLVMInt64TypeInContext(c);
  mod->f32 = LLVMFloatTypeInContext(c);
  mod->f64 = LLVMDoubleTypeInContext(c);
  mod->ptr = LLVMPointerTypeInContext(c, 0);
  LLVMTypeRef dims = LLVMArrayType2(mod->i64, RC_MAX_NDIM);
  LLVMTypeRef f[5] = {mod->ptr, mod->ptr, mod->ptr, dims, dims};
  mod->rtarray = LLVMStructTypeInContext(c, f, 5, 0);
}

/* ---------------------------------------------------------------- bit patterns */

/* A scalar as 64 bits: a float's bits, an int extended by its sign, a
 * bool 0 or 1. Collectives pass their arguments so (warp.c). */
LLVMValueRef lo_to_bits(Lower *l, LLVMValueRef v, const Type *t) {
  if (ty_is_float(t)) v = LLVMBuildBitCast(l->b, v, LLVMIntTypeInContext(l->mod->c, (unsigned)t->bits), "");
  if (ty_is_signed(t)) return LLVMBuildSExt(l->b, v, l->mod->i64, "");
  return t->bits == 64 && !ty_is_float(t) ? v : LLVMBuildZExt(l->b, v, l->mod->i64, "");
}

/* The value of type t whose bits lo_to_bits gave (a bool: any bit set). */
LLVMValueRef lo_from_bits(Lower *l, LLVMValueRef bits, const Type *t) {
  if (t->kind == TY_BOOL) return LLVMBuildICmp(l->b, LLVMIntNE, bits, const_i64(l, 0), "");
  LLVMValueRef v = t->bits == 64 ? bits : LLVMBuildTrunc(l->b, bits, LLVMIntTypeInContext(l->mod->c, (unsigned)t->bits), "");
  return ty_is_float(t) ? LLVMBuildBitCast(l->b, v, lo_type(l, t), "") : v;
}
