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
extern const Builtin bi_mathparts[]; /* mathparts.c: math.frexp, modf, ldexp, isclose, factorial */
extern const Builtin bi_numpy[];   /* numpy.c: arrays: creation, attributes, copies */
extern const Builtin bi_shape[];   /* shape.c: arrays: shape functions, where, clip */
extern const Builtin bi_views[];   /* views.c: splits into lists of views, broadcast_arrays, strided views, trim_zeros */
extern const Builtin bi_cuda[];    /* cuda.c: the CUDA kernel language */
extern const Builtin bi_operators[]; /* operators.c: NumPy's ufuncs for the operators */
extern const Builtin bi_warp[];    /* warp.c: lanes, warp collectives, fences */
extern const Builtin bi_atomic[];  /* atomic.c: cuda.atomic.* */
extern const Builtin bi_cudamath[];/* cudamath.c: CUDA's intrinsics on bits and numbers */
extern const Builtin bi_fp16[];    /* fp16.c: cuda.fp16.*, half-precision intrinsics */
extern const Builtin bi_print[];   /* print.c: print() */
extern const Builtin bi_grid[];    /* grid.c: cooperative groups (grid.sync()) */
extern const Builtin bi_native[];  /* native.c: calls of ctypes functions and function addresses */
extern const Builtin bi_intrinsic[]; /* intrinsic.c: calls of @intrinsic functions (LLVM IR from Python) */
extern const Builtin bi_reduce[];  /* reduce.c: NumPy's reductions (sum, mean, argmax ...) */
extern const Builtin bi_statistics[]; /* statistics.c: cumsum, diff, unwrap, median, quantiles, isclose */
extern const Builtin bi_sorting[];  /* sorting.c: sort, argsort, partition, unique */
extern const Builtin bi_arraymath[]; /* arraymath.c: outer, cross, trace, vander, meshgrid, trapezoid, convolve */
extern const Builtin bi_matrices[]; /* matrices.c: tri, tril, triu, their indices, diag, diagflat, kron */
extern const Builtin bi_picking[]; /* picking.c: take, extract, flatnonzero */
extern const Builtin bi_searching[]; /* searching.c: searchsorted, digitize, interp, bincount, histogram, isin, set functions, v in a */
extern const Builtin bi_datetime[]; /* datetime.c: numpy.isnat */
extern const Builtin bi_complex[]; /* complex.c: complex(), .real/.imag, numpy's complex functions, cmath */
extern const Builtin bi_complex_reduce[]; /* complex_reduce.c: sum, prod, mean, var, std of complex arrays */
extern const Builtin bi_limits[];  /* limits.c: numpy.iinfo, numpy.finfo */
extern const Builtin bi_lists[];   /* lists.c: typed lists, `in` */
extern const Builtin bi_tuples[];  /* tuples.c: tuple.index, tuple.count */
extern const Builtin bi_dicts[];   /* dicts.c: typed dicts */
extern const Builtin bi_sets[];    /* sets.c: sets */
extern const Builtin bi_random[];  /* random.c: numpy.random and the random module */
extern const Builtin bi_strings[]; /* strings.c: str values, their methods, str(), ord(), chr(), format() */
extern const Builtin bi_bytes[];   /* bytes.c: bytes' methods, numpy.frombuffer (their operators: infer.c calls bytes.c) */
extern const Builtin bi_linalg[];  /* linalg.c: matrix products (dot, matmul, @, inner, vdot), numpy.linalg */
extern const Builtin bi_ndindex[];  /* ndindex.c: numpy.ndindex and numpy.ndenumerate in for loops */
extern const Builtin bi_unpack[];  /* unpack.c: x, y = a of a 1-d array */
extern const Builtin bi_objmode[]; /* objmode.c: with objmode(...) blocks */
extern const Builtin bi_decomp[];  /* decomp.c: numpy.linalg's decompositions, norm, cond, ...; cov, corrcoef, roots */
extern const Builtin bi_multi_dot[]; /* multi_dot.c: numpy.linalg.multi_dot */
extern const Builtin bi_heapq[];  /* heapq.c: the heapq module on typed lists */
extern const Builtin bi_jitclass[]; /* jitclass.c: jitclass instances: making one */
extern const Builtin bi_generators[]; /* generators.c: next() and for loops of generator objects */
extern const Builtin bi_libdevice[]; /* libdevice.c: cuda.libdevice.*, libdevice's functions */
extern const Builtin bi_slices[];   /* slices.c: slice objects: slice(), their parts, indices(), x[s] */
extern const Builtin bi_enums[];    /* enums.c: enum members: their value, is, == */
extern const Builtin bi_polynomial[]; /* polynomial.c: numpy.polynomial.polynomial's functions, polyutils.trimseq */
extern const Builtin bi_fft[];     /* fft.c: numpy.fft's transforms, fftshift, fftfreq */

/* The elements' type of an array, or a number's own; dimensions (0 for a number). */
static inline const Type *elem_of(const Type *t) { return t->kind == TY_ARRAY ? t->elem : t; }
static inline int ndim_of(const Type *t) { return t->kind == TY_ARRAY ? t->ndim : 0; }

/* print.c: str() and repr() of what print() writes beyond numbers and strs (tuples, lists, None...) */
bool ty_str_as_printed(const Type *t, bool repr);
const Type *ty_printed_arg(Infer *in, Node **x);  /* an Optional argument as it is, not its value */
LLVMValueRef lo_str_as_printed(Lower *l, LLVMValueRef v, const Type *t, bool repr);
/* str() and repr() of dicts, sets... by the interpreter, CPython's text */
bool ty_text_by_interpreter(const CompileOptions *o, const Node *n, const Type *t, bool repr);
LLVMValueRef lo_text_by_interpreter(Lower *l, const Node *n, Node *x, LLVMValueRef v);

/* lists.c: min(x) and max(x) of one iterable; key= of min() and max() of several values too */
const Type *ty_list_minmax(Infer *in, Node *n, const Type **args);
LLVMValueRef lo_list_minmax(Lower *l, Node *n);
typedef struct MinMaxKey {
  Node *fn;            /* key=: the function value, its call target typed (ty_sort_key); NULL: none */
  LLVMValueRef *args;  /* the item, then the variables a lambda reads (read once) */
  LLVMValueRef best;   /* the best item's key so far (an alloca of the key's type) */
} MinMaxKey;
bool ty_sort_key(Infer *in, Node *key, const Type *elem);  /* key= typed for an item, of sort() and sorted() */
Node *ty_minmax_key_arg(Node *n);  /* key= where given and not None */
bool ty_minmax_key(Infer *in, Node *n, Node *key, const Type *elem);
void lo_minmax_key_begin(Lower *l, Node *n, MinMaxKey *k);  /* k from n's key=, if any */
LLVMValueRef lo_minmax_key(Lower *l, MinMaxKey *k, LLVMValueRef item);  /* the key of item */
void lo_minmax_key_end(Lower *l, MinMaxKey *k);

/* lists.c: what other families share of typed lists */
bool ty_item_ordered(const Type *t);  /* items of t have Python's order: numbers, strs, tuples of numbers */
bool ty_minmax_ordered(const Type *t);  /* min() and max() order them: ty_item_ordered's, tuples of numbers and strs */
bool ty_sort_ordered(const Type *t);    /* sort() and heaps order them: numbers, strs, tuples of numbers and strs */
const Type *ty_list_item(Infer *in, Node *n, const Type *t);  /* a list's item type, or an error where unknown */
/* v (of type vt) put into the list that is n's first argument (args[0]):
 * it types an empty list, else it must fit; false after an error */
bool ty_list_takes(Infer *in, Node *n, const Type **args, Node *v, const Type *vt);
/* A compiled function (or one of several) v of type t given to a container
 * of first-class functions of type fp (FunctionType): v made its entry for
 * fp's signature, and fp; t where the container holds others or v is not
 * t's node (the tuple of an unpacking store: x[i], x[j] = y, z); NULL after
 * an error. */
const Type *ty_function_item(Infer *in, Node *v, const Type *t, const Type *fp);
void lo_list_settle(Lower *l, const Type *elem, LLVMValueRef lst);  /* a list made untyped given its type */
/* the order of items of elem as rt_list_sort_fields takes it (*nfields fields) */
LLVMValueRef lo_item_order(Lower *l, const Type *elem, int *nfields);
LLVMValueRef lo_list_copy_of(Lower *l, Node *x);  /* a new list of list x's items */
/* The item type of x (of type t), an iterable list() takes (a list, tuple,
 * set, dict, range, str, 1-d array, generator), else a TypingError naming
 * what takes it; and its items in a new list of elem. */
const Type *ty_iterable_items(Infer *in, Node *n, Node *x, const Type *t, const char *what);
LLVMValueRef lo_iterable_list(Lower *l, Node *x, const Type *elem);
LLVMValueRef lo_list_item_addr(Lower *l, const Type *elem, LLVMValueRef lst, LLVMValueRef i);  /* item i's address */
void lo_list_sort(Lower *l, const Type *elem, LLVMValueRef lst, LLVMValueRef rev);  /* in place (rev: an i1) */

/* shape.c: None or a str given to argwhere or flatnonzero, made its truth (NumPy's 0-d array's) */
const Type *ty_truth_operand(Infer *in, Node *x, const Type *t);

/* searching.c: v in a, of an array a (lists.c's `in` hands arrays here) */
const Type *ty_array_contains(Infer *in, Node *n, const Type **args);
LLVMValueRef lo_array_contains(Lower *l, Node *n);
/* python.c: v in r, of a range r (lists.c's `in` hands ranges here) */
const Type *ty_range_contains(Infer *in, Node *n, const Type **args);
LLVMValueRef lo_range_contains(Lower *l, Node *n);
/* python.c: a call whose value is its first argument's (literal_unroll(t), l.copy() of a literal list) */
LLVMValueRef lo_first_argument(Lower *l, Node *n);

/* args.c: the checks NumPy functions' typers make of their arguments */
Node *bi_arg(Node *n, int pos, const char *kw);  /* at position pos (the array is 0, methods too) or by keyword */
bool bi_none_as_default(Node *x);  /* x None: read as not given (an N_NONE of ival 1) */
Node *bi_arg_given(Node *n, int pos, const char *kw);  /* bi_arg, NULL where None as well as where absent */
bool bi_literal_int(const Node *x, int64_t *v);  /* an int literal, negative ones too */
bool bi_need_values(Infer *in, Node *n, Node *a);  /* an array or a number, else a TypingError */
bool bi_check_axis(Infer *in, Node *n, Node *axis, int ndim);  /* an int; a constant one within ndim */
bool bi_check_axis_late(Infer *in, Node *n, Node *axis, int ndim);  /* an int; its bounds checked when the call runs */
bool bi_axis_within(const Node *axis, int ndim, int64_t *k);  /* a constant axis (*k) within ndim dimensions */
bool bi_check_dtype(Infer *in, Node *n, Node *d, const Type **out);  /* dtype=: *out, NULL when not given */
bool bi_check_number(Infer *in, Node *n, Node *x, const char *what);  /* absent, or a number */
/* A str that chooses one of choices (NULL-terminated): x's index there where it is a constant (dflt
 * where absent), BI_OPTION_RUNTIME where a str variable's value chooses when the call runs,
 * BI_OPTION_BAD for another constant or type; lo_str_option: the index as an i32, ValueError(msg) where
 * the str is none of them */
enum { BI_OPTION_RUNTIME = -1, BI_OPTION_BAD = -2 };
int bi_str_option(const Node *x, const char *const *choices, int dflt);
LLVMValueRef lo_str_option(Lower *l, Node *x, const char *const *choices, int dflt, const char *msg);
/* strings.c: a == or != (op) of a str or bytes a with a value of another kind b (never equal), else
 * a TypingError: orderings and arrays are refused */
bool bi_compare_other_kind(Infer *in, Node *n, int op, const Type *a, const Type *b);
/* strings.c: a slice's start, stop or step of a str or bytes: absent, None or an int, else Python's TypeError */
bool bi_slice_part(Infer *in, Node *x);

/* extension.c: a method or attribute registered by user code for the
 * receiver's type (ruchey.extending), n made a call of it; NULL if none */
const Builtin *ty_extension_member(Infer *in, Node *n, const Type *receiver);
/* a op b or op a, n the operator, an operand of a package's value type:
 * n made a call of the overload of operator.<op> and typed (*out; NULL
 * after an error); false where there is none. */
bool ty_extension_operator(Infer *in, Node *n, const Type **out);
/* x op= y of a variable x, an operand of a package's value type with the
 * operator overloaded: n made x = x op y (a new value, as Numba's
 * operator.iadd of an immutable type falls back to operator.add). */
bool ty_extension_update(Infer *in, Node *n);
/* x[i] (args x, i) or x[i] = v (x, i, v), n the subscript or a statement of it, x of a package's
 * value type: n made a call of the overload of operator.getitem or setitem and typed (*out; NULL
 * after an error); false where x is of no such type. */
bool ty_extension_subscript(Infer *in, Node *n, Node *const *args, int nargs, const Type **out);
/* a == b (<, <=...) of two, an operand of a package's value type: n made a call of the overload of
 * operator.eq (lt, le...) and typed (*out; NULL after an error); false where there is none. */
bool ty_extension_compare(Infer *in, Node *n, const Type **out);
/* str(x) or repr(x), x of a package's value type: n made a call of the
 * __str__ (str only) or __repr__ overload_method registered for x's type,
 * as Numba's str and repr call them, and typed (*out); false where it has
 * neither. */
bool ty_extension_text(Infer *in, Node *n, const Type **out);

/* python.c: x's value where the compile knows it (a constant, or a parameter frozen to its
 * argument's value); else NULL, having asked (*asked, DIAG_LITERAL) for a parameter's value:
 * the dispatcher compiles again with it frozen, as literally() does */
const Node *ty_value_known(Infer *in, Node *call, const Node *x, bool *asked);
/* python.c: a compiled function where a first-class function of type fp
 * (FunctionType) is wanted: *arg made the entry of the function typed for
 * fp's signature; false with the error */
bool ty_function_entry_for(Infer *in, Node **arg, const Type *fp);

/* jitclass.c: jitclass instances' fields, methods and properties */
const Type *ty_jitclass_attr(Infer *in, Node *n, const Type *c);
const Type *ty_bound_attr(Infer *in, Node *n, const Type *m);  /* m.__self__ of a method as a value */
Node *ty_bound_self(Infer *in, Node *m);  /* the node m.__self__, typed when it is */
const Builtin *ty_jitclass_method(Infer *in, Node *n, const Type *c);
void ty_jitclass_store(Infer *in, Node *target, const Type *t, Node *at);
bool ty_jitclass_setter(Infer *in, Node *n, const Type *c);
bool ty_jitclass_optional_update(Infer *in, Node *n);
bool ty_jitclass_update(Infer *in, Node *n);
/* ... their special methods: an operator's (its operands typed), a unary
 * one's, a comparison's, a builtin's (NULL, no error, for a builtin
 * without one), truth (c, an instance or an Optional one, made what
 * Python reads), `v in p`, p[i], and the statement p[i] = v */
const Type *ty_jitclass_binop(Infer *in, Node *n);
const Type *ty_jitclass_unary(Infer *in, Node *n);
const Type *ty_jitclass_compare(Infer *in, Node *n);
const Type *ty_jitclass_builtin(Infer *in, Node *n);
const Type *ty_jitclass_truth(Infer *in, Node *c);
const Type *ty_jitclass_contains(Infer *in, Node *n);
const Type *ty_jitclass_index(Infer *in, Node *n);
void ty_jitclass_setitem(Infer *in, Node *n);
/* jitclass.c: a key written as a slice (p[1:5:2]) made the slice value __getitem__ and __setitem__
 * take (slice(1, 5, 2)), its parts left out None; any other key as it is */
Node *ty_slice_value(Infer *in, Node *key);

/* registry.c */
const Builtin *bi_at(int i);   /* every row in turn; NULL past the last */
/* A method or attribute of a kind of value, or NULL. */
const Builtin *bi_member(TypeKind receiver, BuiltinKind kind, const char *name);
/* The name among names (NULL-terminated) nearest to a misspelt name, or NULL. */
const char *bi_nearest(const char *name, const char *const *names);
/* The name of the member of that kind nearest to a misspelt name, or NULL. */
const char *bi_member_near(TypeKind receiver, BuiltinKind kind, const char *name);

/* complex.c: numpy's fn (a CM_ number, ruchey.h) of a complex z of type t, NumPy's way (no errors), in t */
LLVMValueRef lo_numpy_cmath_of(Lower *l, int fn, LLVMValueRef z, const Type *t);

/* ufunc.c: NumPy's elementwise operations on arrays */
const Type *np_promote(const Type *a, const Type *b);  /* NumPy's promote_types */
bool np_same_kind(const Type *from, const Type *to);  /* NumPy's can_cast(from, to, 'same_kind') of dtypes */
/* an operand's dtype beside the other's in an array expression: a Python number yields to an array (NEP 50);
 * in code written for Numba (numba), Numba's: an integer yields to a float or complex */
const Type *ty_operand_dtype(const Node *n, const Type *t, const Type *other, bool numba);
/* The range of an integer type t in int64s (uint64's top: the largest
 * int64, all that an int64 value can reach). */
static inline void ty_int_bounds(const Type *t, int64_t *lo, int64_t *hi) {
  int bits = t->bits;
  *hi = !ty_is_signed(t) ? (bits < 64 ? ((int64_t)1 << bits) - 1 : INT64_MAX) : (int64_t)(((uint64_t)1 << (bits - 1)) - 1);
  *lo = ty_is_signed(t) ? -*hi - 1 : 0;
}
int ty_broadcast_ndim(const Type *const *args, int n);
/* the array of elem an elementwise loop over args makes: their broadcast
 * dimensions, Fortran-ordered where an array is and none is C-ordered */
const Type *ty_broadcast_result(const Type *elem, const Type *const *args, int n);
/* a ufunc row's call with an array among its arguments: an array of elem */
const Type *ty_elementwise(Infer *in, Node *n, const Type **args, const Type *elem);
const Type *ty_array_binop(Infer *in, Node *n, int op, Node *l, const Type *a, Node *r, const Type *b);
const Type *ty_array_unary(Infer *in, Node *n, int op, const Type *a);
/* numpy.add(a, b) and its kin, of arrays or of numbers */
const Type *ty_ufunc_binop(Infer *in, Node *n, int op, Node *l, const Type *a, Node *r, const Type *b);
/* operators.c: a ufunc of two outputs (numpy.divmod, frexp, modf) as the tuple of its two parts' calls (rows of
 * one output each) on the same arguments, out= given to each; lowered as that tuple */
const Type *ty_ufunc_two_outputs(Infer *in, Node *n, const Builtin *first, const Builtin *second);
LLVMValueRef lo_ufunc_two_outputs(Lower *l, Node *n);
/* a op b (a comparison) of two elements, in the dtype NumPy compares them in */
LLVMValueRef lo_ufunc_compare(Lower *l, int op, Node *a, LLVMValueRef va, Node *b, LLVMValueRef vb);
/* NumPy's order of complex numbers (op: OP_LT, LE, GT or GE) */
LLVMValueRef lo_complex_order(Lower *l, int op, LLVMValueRef a, LLVMValueRef b);
/* a ufunc row's call on numbers: its lower_elem with NumPy's semantics */
LLVMValueRef lo_ufunc_call(Lower *l, Node *n);
/* Whether x ** e of a float array x (elements t of its result) has one exponent e for the whole array */
bool lo_scalar_exponent(const Type *x, const Type *e, const Type *t);
const char *bi_op_text(int op);  /* an operator's source text ("+", "//"), "?" for none */

/* indexing.c: NumPy's IndexError where bad holds (kind 0: index a out of bounds for axis b with size c;
 * rt_index_error's kinds), and an index i in [-len, len) wrapped to [0, len), else that error */
void lo_raise_index_error_if(Lower *l, LLVMValueRef bad, int kind, LLVMValueRef a, LLVMValueRef b, LLVMValueRef c);
LLVMValueRef lo_index_wrapped(Lower *l, LLVMValueRef i, LLVMValueRef len, int axis);
LLVMValueRef lo_index_wrapped_on(Lower *l, LLVMValueRef i, LLVMValueRef len, LLVMValueRef axis);  /* axis at run time */
const Type *ty_array_compare(Infer *in, Node *n, const Type *a, const Type *b);
/* a == 'x' and the other comparisons of arrays of text (and their str or bytes): arrays of bools */
bool ty_is_text_array_compare(const Type *a, const Type *b);
const Type *ty_text_array_compare(Infer *in, Node *n, const Type *a, const Type *b);
/* f(..., out=o) of a ufunc row whose call typed as result: o's type, the
 * call rewritten to fill o (the result, when there is no out=) */
const Type *ty_ufunc_out(Infer *in, Node *n, const Type *result);
/* out's type, if out can take call's results (of type result): NumPy's casting rule 'same_kind' */
const Type *ty_out_operand(Infer *in, Node *call, const Type *result, Node *out);
/* The call made by ty_ufunc_out (n: its call and out) lowered; same_shape: out has the call's own shape */
LLVMValueRef lo_ufunc_into(Lower *l, Node *n, bool same_shape);
/* target op= ...: the operation's result type, checked against the target */
const Type *ty_array_update(Infer *in, Node *n, const Type *target, const Type *result);

/* Each element of an array-valued node, in C order, handed to sink as
 * a value of n->ty->elem; elementwise expressions make no temporary. */
typedef void (*ElementSink)(Lower *l, LLVMValueRef v, void *arg);
void lo_for_each_element(Lower *l, Node *n, ElementSink sink, void *arg);
/* linalg.c: the array operands of a runtime call (linalg.c's, decomp.c's; b may
 * be NULL): lowered, converted to elements of e where they are not, in memory
 * (pa, pb: RtArray pointers); after the call, bi_array_call_end releases the
 * copies, is done with the operands and raises the call's failed status */
typedef struct ArrayOperands {
  Node *a, *b;
  LLVMValueRef va, vb, ca, cb, pa, pb;
} ArrayOperands;
ArrayOperands bi_array_operands(Lower *l, Node *a, Node *b, const Type *e);
/* linalg.c: the dtype numpy.linalg computes operands of dtypes a and b in
 * (b NULL: of a alone), as NumPy's _commonType */
const Type *bi_linalg_dtype(const Type *a, const Type *b);
void bi_array_call_end(Lower *l, const ArrayOperands *o, const Type *e, LLVMValueRef status);
/* One operand (of type t) as an RtArray in memory, its elements converted
 * to e where they are not of e (into *copy, which the caller releases). */
LLVMValueRef bi_array_operand(Lower *l, const Type *t, LLVMValueRef v, const Type *e, LLVMValueRef *copy);
/* The same in steps, for consumers that read the elements more than once
 * or by position: the leaves evaluated once (begin), then the elements by
 * flat C index where every array is C-contiguous with the result's shape
 * (lo_elements_flat: an i1 saying whether, or NULL where never), or by
 * loops in C order, as often as needed (each, or walk: with companion
 * arrays of the result's shape walked in step, whose element addresses
 * the sink gets); end releases the leaves. */
#define LO_WALK_COMPANIONS 2
typedef struct Fused Elements;
typedef void (*WalkSink)(Lower *l, LLVMValueRef v, LLVMValueRef *companions, void *arg);
Elements *lo_elements_begin(Lower *l, Node *n);  /* evaluates the leaves, broadcasts their shapes */
LLVMValueRef lo_elements_shape(Elements *e, int d);
LLVMValueRef lo_elements_flat(Lower *l, Elements *e);
LLVMValueRef lo_element_at(Lower *l, Elements *e, LLVMValueRef i);
void lo_elements_each(Lower *l, Elements *e, ElementSink sink, void *arg);
void lo_elements_companion(Lower *l, Elements *e, const Type *t, LLVMValueRef a);
void lo_elements_unshare(Lower *l, Elements *e, const Type *t, LLVMValueRef a);  /* before writing a */
void lo_elements_walk(Lower *l, Elements *e, WalkSink sink, void *arg);
void lo_elements_end(Lower *l, Elements *e);
/* For a chunk of the pool reading the elements by flat index: the values
 * of e's operands (count, value i and its type), and a copy of e reading
 * the values given instead (loaded from the chunk's context). */
int lo_elements_operands(Elements *e);
LLVMValueRef lo_elements_operand(Elements *e, int i, const Type **t);
Elements *lo_elements_reading(Lower *l, Elements *e, const LLVMValueRef *values);

/* numpy.c: the arguments of NumPy's functions. An argument is found at
 * its position pos (counting a method's receiver) or by its keyword name. */
Node *np_arg(Infer *in, Node *n, int pos, const char *name);  /* an error if given both ways */
Node *np_arg_node(Node *n, int pos, const char *name);        /* once typed */
/* The dtype at pos or dtype= (a scalar type), dflt if none is given. */
const Type *np_dtype_arg(Infer *in, Node *n, int pos, const Type *dflt);
/* A str d whose value typing knows ("f8", a global holding "int32"), as the dtype it
 * names: d becomes that dtype. NULL where it names none (*name the str, *known whether
 * NumPy has it), or where d is no such str (*name NULL); no error either way. */
const Type *np_named_dtype(Infer *in, Node *d, const char **name, bool *known);
/* A shape (an int or a tuple of ints): its number of dimensions, or -1. */
int np_shape_ndim(Infer *in, Node *shape);
/* The layout NumPy's order='K' gives a new array like one of type t. */
char np_like_layout(const Type *t);
/* Evaluates a shape into int64 dimensions; returns how many. */
int lo_shape_arg(Lower *l, Node *shape, LLVMValueRef *dims);

/* shape.c: whether a (of type t) is C-contiguous (Fortran-contiguous) at run
 * time, as NumPy's flags say: lengths of 1 skipped, an empty array is */
LLVMValueRef np_contiguous(Lower *l, const Type *t, LLVMValueRef a, bool fortran);
/* shape.c: views */
/* An array value of type t on base's memory (data, shape, strides); it
 * holds no reference of its own. */
/* views.c: shape s (sndim lengths) broadcast into out (ndim, aligned at the end), NumPy's rule; bad or'ed
 * with whether two lengths other than 1 differ */
LLVMValueRef np_broadcast_into(Lower *l, LLVMValueRef *out, int ndim, const LLVMValueRef *s, int sndim, LLVMValueRef bad);
LLVMValueRef np_view(Lower *l, const Type *t, LLVMValueRef base, LLVMValueRef data, const LLVMValueRef *shape,
                     const LLVMValueRef *strides);
/* The same view returned to the caller: it holds its own reference. */
LLVMValueRef np_owned_view(Lower *l, const Type *t, LLVMValueRef base, LLVMValueRef data, const LLVMValueRef *shape,
                           const LLVMValueRef *strides);
/* An axis computed at run time (0 where axis is NULL), normalised into
 * [0, ndim), or NumPy's AxisError (a ValueError). */
LLVMValueRef np_runtime_axis(Lower *l, Node *axis, int ndim);
LLVMValueRef np_axis_value(Lower *l, LLVMValueRef v, int ndim);  /* the same of an int64 value */
/* Whether a read-only array of type t is always copied (into a writable copy) to be contiguous in order. */
bool np_copies_read_only(const Type *t, char order);
/* numpy.stack(list) of a list of arrays (a node), as a new array of type rt; every length 0 where the list is empty. */
LLVMValueRef np_stack_list(Lower *l, const Type *rt, Node *list);
/* a as an array contiguous in order 'C' or 'F' (an owned reference): itself where it is, a copy otherwise. */
LLVMValueRef np_as_contiguous(Lower *l, const Type *t, LLVMValueRef a, char order);

/* sorting.c: the elements of n (1 or 2) arrays or numbers as elem, in C
 * order one after another, in a new 1-d array (a temp); *count: how many */
LLVMValueRef np_joined_elements(Lower *l, Node *const *arrays, int n, const Type *elem, LLVMValueRef *count);
/* the 1-d array a (of type t) sorted in place, NaNs last */
void np_sort_flat(Lower *l, const Type *t, LLVMValueRef a);
/* the indices that sort it stably, into out (a 1-d int64 array of its length) */
void np_argsort_flat(Lower *l, const Type *t, LLVMValueRef a, LLVMValueRef out);
/* the same sorted; with unique, each value once at its start (*count: how many) */
LLVMValueRef np_sorted_elements(Lower *l, Node *const *arrays, int n, const Type *elem, bool unique, LLVMValueRef *count);
/* the first count elements of the 1-d array src (of type t), in a new array */
LLVMValueRef np_first_elements(Lower *l, const Type *t, LLVMValueRef src, LLVMValueRef count);

/* reduce.c: whether the array type t's elements read as one row (1-d, or
 * contiguous in either order), and the smallest and largest of such an
 * array v (NaN both where one is NaN; where empty, the largest and the
 * smallest values of its dtype) */
bool np_reads_as_row(const Type *t);
void np_extremes(Lower *l, const Type *t, LLVMValueRef v, LLVMValueRef *min, LLVMValueRef *max);

/* src, or a copy of it where it shares memory with dst (see ufunc.c) */
LLVMValueRef lo_unshared(Lower *l, const Type **t, LLVMValueRef src, const Type *dt, LLVMValueRef dst,
                         bool same_place, LLVMValueRef *copy);
void lo_raise_shape_error(Lower *l, LLVMValueRef bad, int kind, int nshapes, const int *ndim,
                          const LLVMValueRef *const *shapes);

/* slices.c: x[s] of slice values s (a variable's, or slice()'s) made
 * x[start:stop:step] in place; Python's slice.indices(len) of the parts
 * given (NULL: None) into out: start, stop, step. */
bool ty_spread_slice_values(Infer *in, Node *n);
/* indexing.c: t[i] of the tuple expression t, a node made for a spread read item by item */
Node *ty_tuple_item(Infer *in, Node *t, int i);
/* tuples.c: a homogeneous tuple value v copied into memory as an array of its items (of LLVM type *as_array) */
LLVMValueRef lo_tuple_in_memory(Lower *l, const Type *t, LLVMValueRef v, LLVMTypeRef *as_array);
void lo_slice_indices(Lower *l, LLVMValueRef *given, LLVMValueRef len, LLVMValueRef *out);

/* A row that types its arguments and lowers them itself: none. */
#define BI_END {NULL, NULL, NULL, 0, 0, 0, 0, NULL, 0, 0, 0, NULL, NULL}

#endif
