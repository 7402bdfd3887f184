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
/* total / count as mean divides: in float64, rounded to acc (complex: by count + 0j) */
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

/* ---------------------------------------------------------------- passes
 * (reduce.c runs them; reduce_pool.c cuts a long row of one into chunks
 * for the thread pool) */

/* What a pass does with each element. */
typedef enum {
  K_SUM, K_PROD,
  K_MIN, K_MAX,        /* NaN wins (numpy.minimum) */
  K_FMIN, K_FMAX,      /* NaN loses (numpy.fmin): nanmin */
  K_ARGMIN, K_ARGMAX,  /* the first NaN wins, else the first of the extremes */
  K_NANARGMIN, K_NANARGMAX,
  K_ANY, K_ALL,
  K_MINMAX,            /* ptp: the min in v, the max in i */
} Kind;

/* What an element becomes before it is accumulated. */
typedef enum {
  P_NONE,              /* converted to the accumulator's type */
  P_NAN_ZERO, P_NAN_ONE, /* NaN counts as 0 (nansum) or 1 (nanprod) */
  P_TRUTH,             /* 1 where nonzero (count_nonzero, any, all) */
  P_NOT_NAN,           /* 1 where not NaN (the count of nanmean) */
  P_DEVIATION,         /* (x - center)**2 (var) */
  P_DEVIATION_NAN,     /* the same, 0 for NaN (nanvar) */
} Prep;

typedef enum { SRC_ONE, SRC_ROW, SRC_FLAT, SRC_STREAM, SRC_COLUMNS } SrcKind;

typedef struct Src {
  SrcKind kind;
  const Type *elem;          /* what the elements are */
  LLVMValueRef n;            /* elements per output */
  LLVMValueRef one;          /* SRC_ONE: the element */
  LLVMValueRef data, stride; /* SRC_ROW, SRC_COLUMNS: element i at data + i*stride bytes */
  bool unit;                 /* SRC_ROW: contiguous; SRC_COLUMNS: the outputs' columns adjacent */
  LLVMValueRef lane_stride;  /* SRC_COLUMNS: bytes from one output's column to the next */
  int w;                     /* SRC_COLUMNS: outputs at once */
  const Type *raw, *raw2;    /* SRC_ROW of a product: the factors' types (elem is theirs promoted), */
  LLVMValueRef data2;        /* and the second factor's contiguous memory */
  Elements *elems;           /* SRC_FLAT, SRC_STREAM: an expression's elements */
  LLVMValueRef first;        /* SRC_FLAT: the flat index of element 0 (NULL: 0) */
  LLVMValueRef inner;        /* SRC_STREAM: its innermost dimension */
} Src;

typedef struct Pass {
  Kind kind;
  Prep prep;
  const Type *elem;      /* the source's elements */
  const Type *acc;       /* what they are accumulated as */
  const Type *dev;       /* P_DEVIATION: x - center is computed in this type */
  LLVMValueRef center;   /* P_DEVIATION: the mean, of type dev (a lane per output) */
} Pass;

/* A pass's accumulator: a value, the index of an arg* kind's value (or
 * ptp's max), and for float min/max a flag that a NaN was seen (the
 * values then compare without NaN, which vectorises): a mask as wide as
 * the values, all ones in a lane that saw one. */
typedef struct State {
  LLVMValueRef v, i, nan;
} State;

/* A state carried around a loop, in allocas: made holding s, read, written. */
typedef struct StateVar {
  LLVMValueRef v, i, nan;
} StateVar;
StateVar rd_state_var(Lower *l, State s);
State rd_state_load(Lower *l, const StateVar *sv);
void rd_state_store(Lower *l, const StateVar *sv, State s);

/* the elements of a row or flat source merged into in (base: the index of
 * its first), a pass's starting state (w lanes), b merged into a (b after a) */
State rd_run_row(Lower *l, const Pass *p, const Src *s, State in, LLVMValueRef base);
State rd_identity(Lower *l, const Pass *p, int w);
State rd_merge(Lower *l, const Pass *p, State a, State b);
/* a row source's elements merged on the pool where lo_pool_allowed and
 * long enough, else rd_run_row's (from the identity) */
State rd_run_row_pooled(Lower *l, const Pass *p, const Src *s);
int rd_item_size(const Type *t);

/* the rows: numpy.name(a, <hi - 1 more positional>) and a.name(<hi - 1 positional>) */
#define RD_FLAGS (BF_ALLOCATES | BF_RAISES)
#define RD_FUNCTION(name, id, hi, kw, type, lower) \
  {"numpy." name, "numpy", name, BK_FUNCTION, 0, 1, hi, kw, RD_FLAGS, id, 0, type, lower}
#define RD_METHOD(name, id, hi, kw, type, lower) \
  {"array." name, NULL, name, BK_METHOD, TY_ARRAY, 0, hi - 1, kw, RD_FLAGS, id, 0, type, lower}

#endif
