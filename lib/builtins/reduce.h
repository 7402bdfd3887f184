/* builtins/reduce.h — what reduce.c's passes offer the other statistics
 * (statistics.c: cumsum, diff, quantiles, isclose): NumPy's arithmetic on
 * elements, memory of arrays, the dispatch over an axis known at run time,
 * and the rows' shapes. Private to the two files. */
#ifndef RUCHEY_REDUCE_H
#define RUCHEY_REDUCE_H

#include "builtins/builtins.h"

/* NumPy's arithmetic on elements (or lanes of them) of type t: ints wrap,
 * bools are logical. */
LLVMValueRef rd_add(Lower *l, const Type *t, LLVMValueRef a, LLVMValueRef b);
LLVMValueRef rd_sub(Lower *l, const Type *t, LLVMValueRef a, LLVMValueRef b);
LLVMValueRef rd_mul(Lower *l, const Type *t, LLVMValueRef a, LLVMValueRef b);
LLVMValueRef rd_equal(Lower *l, const Type *t, LLVMValueRef a, LLVMValueRef b);
LLVMValueRef rd_is_nan(Lower *l, const Type *t, LLVMValueRef v);
LLVMValueRef rd_and(Lower *l, LLVMValueRef a, LLVMValueRef b);
LLVMValueRef rd_or(Lower *l, LLVMValueRef a, LLVMValueRef b);
LLVMValueRef rd_select(Lower *l, LLVMValueRef c, LLVMValueRef a, LLVMValueRef b);
/* total / count as mean divides: in float64, rounded to acc */
LLVMValueRef rd_divide(Lower *l, const Type *acc, LLVMValueRef total, LLVMValueRef count);

/* memory: an array's data, a byte offset from p, the element at idx; a
 * variable (an alloca holding init) and its value */
LLVMValueRef rd_data(Lower *l, LLVMValueRef a);
LLVMValueRef rd_byte_at(Lower *l, LLVMValueRef p, LLVMValueRef offset);
LLVMValueRef rd_element_ptr(Lower *l, const Type *t, LLVMValueRef v, const LLVMValueRef *idx);
LLVMValueRef rd_var(Lower *l, LLVMValueRef init, const char *name);
LLVMValueRef rd_load(Lower *l, LLVMValueRef a);

/* body for the axis the node names (error: NumPy's message, a format of
 * the axis and the dimensions); the result is of type t */
typedef LLVMValueRef (*AxisBody)(Lower *l, int k, void *arg);
LLVMValueRef rd_for_axis(Lower *l, Node *axis, int ndim, const Type *t, AxisBody body, void *arg, const char *error);
extern const char rd_axis_error[];  /* NumPy's AxisError: %%lld the axis, %d the dimensions */
extern const char rd_boolean_subtract[];  /* NumPy's TypeError for a ptp or quantile of bools */
/* raises status with fmt's message holding v, where bad */
void rd_raise_with_int(Lower *l, LLVMValueRef bad, RtStatus status, const char *fmt, LLVMValueRef v);

/* the dtype of a sum of e (dtype=, if given, instead), of a mean of e */
const Type *rd_sum_dtype(const Type *e, const Type *dtype);
const Type *rd_mean_dtype(const Type *e);
/* numpy.all(a): whether every element of a is true */
LLVMValueRef rd_all(Lower *l, Node *a);

/* the rows: numpy.name(a, <hi - 1 more positional>) and a.name(<hi - 1 positional>) */
#define RD_FLAGS (BF_ALLOCATES | BF_RAISES)
#define RD_FUNCTION(name, id, hi, kw, type, lower) \
  {"numpy." name, "numpy", name, BK_FUNCTION, 0, 1, hi, kw, RD_FLAGS, id, 0, type, lower}
#define RD_METHOD(name, id, hi, kw, type, lower) \
  {"array." name, NULL, name, BK_METHOD, TY_ARRAY, 0, hi - 1, kw, RD_FLAGS, id, 0, type, lower}

#endif
