/* builtins.h — the builtins' families: one table of rows per file, each
 * row with its typer and lowerer beside it (Lua's luaL_Reg, Numba's
 * @overload). Adding a function is a row and two small functions in its
 * family's file; the compiler's passes ask the rows' flags.
 */
#ifndef RUCHEY_BUILTINS_H
#define RUCHEY_BUILTINS_H

#include "infer.h"
#include "lower/lower.h"

/* The families, each ending with a row whose name is NULL. */
extern const Builtin bi_python[];  /* python.c: Python's builtins, ruchey's own functions */
extern const Builtin bi_math[];    /* math.c: math.* and NumPy's scalar functions */
extern const Builtin bi_numpy[];   /* numpy.c: arrays: allocation, attributes, methods */
extern const Builtin bi_cuda[];    /* cuda.c: the CUDA kernel language */
extern const Builtin bi_reduce[];  /* reduce.c: NumPy's reductions (sum, mean, argmax, median ...) */

/* registry.c */
const Builtin *bi_at(int i);   /* every row in turn; NULL past the last */
/* A method or attribute of a kind of value, or NULL. */
const Builtin *bi_member(TypeKind receiver, BuiltinKind kind, const char *name);

/* ufunc.c: NumPy's elementwise operations on arrays */
const Type *np_promote(const Type *a, const Type *b);  /* NumPy's promote_types */
int ty_broadcast_ndim(const Type *const *args, int n);
/* a ufunc row's call with an array among its arguments: an array of elem */
const Type *ty_elementwise(Infer *in, Node *n, const Type **args, const Type *elem);
const Type *ty_array_binop(Infer *in, Node *n, int op, Node *l, const Type *a, Node *r, const Type *b);
const Type *ty_array_unary(Infer *in, Node *n, int op, const Type *a);
const Type *ty_array_compare(Infer *in, Node *n, const Type *a, const Type *b);
/* target op= ...: the operation's result type, checked against the target */
const Type *ty_array_update(Infer *in, Node *n, const Type *target, const Type *result);

/* Each element of an array-valued node, in C order, handed to sink as
 * a value of n->ty->elem; elementwise expressions make no temporary. */
typedef void (*ElementSink)(Lower *l, LLVMValueRef v, void *arg);
void lo_for_each_element(Lower *l, Node *n, ElementSink sink, void *arg);
/* The same in steps, for consumers that read the elements more than once
 * or by position: the leaves evaluated once (begin), then the elements by
 * flat C index where every array is C-contiguous with the result's shape
 * (lo_elements_flat: an i1 saying whether, or NULL where never), or by the
 * loop in C order, as often as needed; end releases the leaves. */
typedef struct Fused Elements;
Elements *lo_elements_begin(Lower *l, Node *n);
LLVMValueRef lo_elements_shape(Elements *e, int d);
LLVMValueRef lo_elements_flat(Lower *l, Elements *e);
LLVMValueRef lo_element_at(Lower *l, Elements *e, LLVMValueRef i);
void lo_elements_each(Lower *l, Elements *e, ElementSink sink, void *arg);
void lo_elements_end(Lower *l, Elements *e);

/* A row that types its arguments and lowers them itself: none. */
#define BI_END {NULL, NULL, NULL, 0, 0, 0, 0, NULL, 0, 0, 0, NULL, NULL}

#endif
