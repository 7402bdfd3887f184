/* builtins/multi_dot.c — numpy.linalg.multi_dot(arrays): the product of a
 * chain of matrices, multiplied in the order that costs the fewest scalar
 * multiplications (NumPy's choice: the textbook dynamic programme over the
 * chain's dimensions, ties to the first split), each product by
 * rt_matrix_product (BLAS). The first array may be a vector (a row), the
 * last a vector (a column); the others are matrices.
 *
 * arrays is a tuple or a list written out (each array of its own dtype
 * and dimensions, converted to their common dtype before the run-time
 * call), or a typed list of matrices (or of two vectors). The run-time
 * part is multi_dot_rt.c's.
 */
#include <math.h>
#include <stdlib.h>

#include "builtins/blas.h"
#include "builtins/builtins.h"
#include "containers.h"

/* ---------------------------------------------------------------- typing */

/* The element type and dimensions of the chain's arrays: their common
 * dtype, the first's and the last's dimensions; NULL after a TypingError. */
static const Type *chain_type(Infer *in, Node *n, const Type *seq, int *first_nd, int *last_nd) {
  const char *name = n->bi->name;
  if (seq->kind == TY_LIST) {
    const Type *t = seq->elem;
    if (!t || t->kind != TY_ARRAY || t->ndim < 1 || t->ndim > 2 || !ty_is_scalar(t->elem))
      return ty_error(in, n, "%s() needs a list of 1-d or 2-d arrays of numbers, got %s", name, seq->name);
    *first_nd = *last_nd = t->ndim;
    return t->elem;
  }
  if (seq->kind != TY_TUPLE) return ty_error(in, n, "%s() needs a tuple or list of arrays, got %s", name, seq->name);
  if (seq->nfields < 2) return ty_error(in, n, "%s(): Expecting at least two arrays.", name);
  const Type *e = NULL;
  for (int i = 0; i < seq->nfields; i++) {
    const Type *t = seq->fields[i];
    bool end = i == 0 || i == seq->nfields - 1;
    if (t->kind != TY_ARRAY || !ty_is_scalar(t->elem))
      return ty_error(in, n, "%s() multiplies arrays of numbers, got %s", name, t->name);
    if (t->ndim != 2 && !(end && t->ndim == 1))
      return ty_error(in, n, "%s(): %d-dimensional array given. Array must be two-dimensional", name, t->ndim);
    e = e ? np_promote(e, t->elem) : t->elem;
  }
  *first_nd = seq->fields[0]->ndim;
  *last_nd = seq->fields[seq->nfields - 1]->ndim;
  return e;
}

/* a matrix, a vector (one end a vector), or a number (both ends) */
static const Type *ty_multi_dot(Infer *in, Node *n, const Type **args) {
  int first_nd = 0, last_nd = 0;
  const Type *e = chain_type(in, n, args[0], &first_nd, &last_nd);
  if (!e) return NULL;
  int nd = (first_nd == 2) + (last_nd == 2);
  return nd ? ty_array(e, nd, 'C', false) : e;
}

/* ---------------------------------------------------------------- lowering */

/* rt_multi_dot(kind, arrays, count, first_nd, last_nd, out, scalar) of a
 * tuple's arrays, each converted to e where it is not of e. */
static LLVMValueRef tuple_chain(Lower *l, Node *arg, LLVMValueRef seq, const Type *e, LLVMValueRef out,
                                LLVMValueRef scalar) {
  const Type *t = arg->ty;
  int count = t->nfields;
  LLVMValueRef arrays = lo_alloca(l, LLVMArrayType2(l->mod->rtarray, (uint64_t)count), "chain");
  LLVMValueRef *copies = arena_alloc(l->f->arena, sizeof(LLVMValueRef) * (size_t)count);
  for (int i = 0; i < count; i++) {
    LLVMValueRef slot = LLVMBuildInBoundsGEP2(l->b, l->mod->rtarray, arrays, (LLVMValueRef[]){const_i64(l, i)}, 1, "");
    LLVMValueRef p = bi_array_operand(l, t->fields[i], LLVMBuildExtractValue(l->b, seq, (unsigned)i, ""), e, &copies[i]);
    LLVMBuildMemCpy(l->b, slot, 8, p, 8, LLVMSizeOf(l->mod->rtarray));
  }
  LLVMTypeRef p[7] = {l->mod->i32, l->mod->ptr, l->mod->i64, l->mod->i32, l->mod->i32, l->mod->ptr, l->mod->ptr};
  LLVMValueRef args[7] = {const_i32(l, (int)e->kind), arrays, const_i64(l, count), const_i32(l, t->fields[0]->ndim),
                          const_i32(l, t->fields[count - 1]->ndim), out, scalar};
  LLVMValueRef status = lo_call_fn(l, "rt_multi_dot", l->mod->i32, p, args, 7);
  for (int i = 0; i < count; i++)
    if (copies[i]) lo_release_temp(l, ty_array(e, t->fields[i]->ndim, 'C', false), copies[i]);
  return status;
}

/* rt_multi_dot_list(kind, list, nd, out, scalar) of a typed list */
static LLVMValueRef list_chain(Lower *l, Node *arg, LLVMValueRef seq, const Type *e, LLVMValueRef out,
                               LLVMValueRef scalar) {
  LLVMTypeRef p[5] = {l->mod->i32, l->mod->ptr, l->mod->i32, l->mod->ptr, l->mod->ptr};
  LLVMValueRef args[5] = {const_i32(l, (int)e->kind), seq, const_i32(l, arg->ty->elem->ndim), out, scalar};
  return lo_call_fn(l, "rt_multi_dot_list", l->mod->i32, p, args, 5);
}

static LLVMValueRef lo_multi_dot(Lower *l, Node *n) {
  Node *arg = n->list.items[0];
  const Type *e = elem_of(n->ty);
  LLVMValueRef seq = lo_expr(l, arg);
  LLVMValueRef out = lo_alloca(l, l->mod->rtarray, "multi_dot"), scalar = lo_alloca(l, lo_storage_type(l, e), "dot");
  LLVMValueRef status = arg->ty->kind == TY_LIST ? list_chain(l, arg, seq, e, out, scalar)
                                                 : tuple_chain(l, arg, seq, e, out, scalar);
  lo_done_with(l, arg, seq);
  LLVMBasicBlockRef fail = new_block(l, "multi_dot.fail"), ok = new_block(l, "multi_dot.ok");
  LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntNE, status, const_i32(l, RT_OK), ""), fail, ok);
  position(l, fail);
  lo_raise_status(l, status);
  position(l, ok);
  return n->ty->kind == TY_ARRAY ? lo_load_storage(l, n->ty, out) : lo_load_scalar(l, e, scalar);
}

/* ---------------------------------------------------------------- the row */

const Builtin bi_multi_dot[] = {
  {"numpy.linalg.multi_dot", "numpy.linalg", "multi_dot", BK_FUNCTION, 0, 1, 1, NULL,
   BF_ALLOCATES | BF_RAISES | BF_BLAS | BF_COMPLEX, 0, 0, ty_multi_dot, lo_multi_dot},
  BI_END,
};
