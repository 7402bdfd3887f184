/* infer.h — what the builtins' typers (lib/builtins/) use of infer.c. */
#ifndef RUCHEY_INFER_H
#define RUCHEY_INFER_H

#include <stdarg.h>

#include "ruchey.h"

typedef struct Infer {
  Func *f;
  const CompileOptions *opts;
  Diag *diag;
  bool changed;     /* a variable's type changed in this pass */
  bool final;       /* last pass: unknown types are errors */
  const Type *ret;  /* unification of the returned values' types */
  bool returns_none, returns_value;
  bool returned_none;  /* the pass before returned None on a path: a recursive call's result is an Optional */
  const Type *yields;  /* unification of a generator's yielded values' types */
  int finallys;     /* try statements with a finally clause around the statement being typed (a yield refuses them) */
  int pranges;      /* prange loops around it (their bodies run on the pool: a yield refuses them) */
  const Node *returning; /* the value of the return statement being typed, or a branch of it */
  Node **only_value;     /* per variable: the value of its one binding, an assignment at the body's top level */
  Node **bound_once;     /* per variable: the value of its one binding, an assignment at any depth */
  const Node *store_target; /* the target of the store being typed (a[i] = v): an item of a '<Un' array
                             * stored into is no str read */
  bool *beyond_none;     /* per variable: whether a binding gives it other than None (binds_beyond_none) */
} Infer;

/* Records a TypingError at n (the first one only); returns NULL. */
/* Records a TypingError at n in d, unless an error is recorded already. */
void ty_diag(Diag *d, const Node *n, const char *fmt, va_list ap);
const Type *ty_error(Infer *in, const Node *n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* n's value where typing knows it (a literal in Numba's terms): an N_INT, N_BOOL or N_STRING, or NULL. */
const Node *ty_constant(const Infer *in, const Node *n);
/* An int n's value where the compile knows it: a constant, an array's ndim,
 * a tuple's len() (as Numba types them as literals); false where not. */
bool ty_known_int(const Infer *in, const Node *n, int64_t *v);
bool ty_failed(const Infer *in);
/* Whether f has no `return value` anywhere (bare returns, `return None`):
 * its recursive calls are None before any return is typed. */
bool ty_returns_nothing(const Func *f);
/* Types n (setting n->ty); NULL on an error, or while unknown before the last pass. */
const Type *ty_expr(Infer *in, Node *n);
/* The same, where an Optional or None is taken as it is (assigned, returned, passed
 * to a ruchey function, tested with `is None`) rather than needed as a value. */
const Type *ty_maybe_none(Infer *in, Node *n);
/* The same, where an enum member is taken as it is (m.value, m is n) rather than an
 * IntEnum member read as its int. */
const Type *ty_member_or_value(Infer *in, Node *n);
/* builtins/enums.c: m == n and m != n of enum members (a TypingError unless of one class) */
bool ty_enum_compare(Infer *in, Node *n, int op, const Type *a, const Type *b);
/* n made, in place, a call of builtin ("str truth", "len", "numpy.asarray") of its old self, typed. */
const Type *ty_wrap_call(Infer *in, Node *n, const char *builtin);
/* x of type t as a conversion (float(x), int(x), numpy.float32(x)) reads it: a 0-d array made its
 * element in place, as NumPy converts one; another type as it is. NULL after an error. */
const Type *ty_scalar_of_0d(Infer *in, Node *x, const Type *t);
/* t, the type of x, an argument of a NumPy function: where a tuple or a list of numbers,
 * x made numpy.asarray(x) in place and its array type returned, as NumPy reads array-likes */
const Type *ty_arraylike(Infer *in, Node *x, const Type *t);
/* c's truth read, as a condition's: a str, set, list, dict or array made the call reading it */
const Type *ty_truth_of(Infer *in, Node *c, const char *what);
/* n, a call answered when typing (isinstance, hasattr), made the constant v, so that a branch on
 * it is pruned; its row stays, for what the call's typing reads after its typer. */
void ty_become_bool(Node *n, bool v);
/* builtins/python.c: whether n, a call of isinstance(), holds for a value of type t (1 or 0);
 * -1 where n is another node, or t an Optional (which isinstance() refuses) */
int ty_isinstance_of(const Node *n, const Type *t);
/* NumPy's promotion of two scalar types, with Numba's rule that integer
 * arithmetic happens in at least 64 bits. */
const Type *ty_promote(const Type *a, const Type *b);
/* The type a variable takes when both a and b are assigned to it, or NULL. */
const Type *ty_unify(const Type *a, const Type *b);
/* builtins/tuples.c: Python's slice s (an N_SLICE) of n items by constants (first item, step, count);
 * false where a part is no constant or the step is zero */
bool ty_constant_slice(const Node *s, int n, int64_t *first, int64_t *step, int64_t *count);
/* The error of a change to a literal list (%s its type), worded as Numba's. */
#define LITERAL_DICT_FROZEN "Cannot mutate a literal dictionary: %s holds values of different types, read by constant "\
                            "keys alone; write a typed dict of one value type to change it"
#define LITERAL_LIST_FROZEN "Cannot mutate a literal list: %s holds items of different types, read by constant indices"\
                            " alone; write a typed list of one item type to change it"

/* t, if a scalar; else an error saying what needed one. */
const Type *ty_need_scalar(Infer *in, Node *n, const Type *t, const char *what);
/* A number written in the source, whose type yields to the other operand's (NEP 50). */
bool ty_is_weak(const Node *n);
/* Whether t is or holds complex numbers (an array's or dtype's elements, a tuple's fields). */
bool ty_holds_complex(const Type *t);
/* builtins/complex.c: numpy.f(x) of complex x, typed by f's complex row, or a TypingError */
const Type *ty_numpy_complex(Infer *in, Node *n, const Type **args);
const Type *ty_numpy_text_reduce(Infer *in, Node *n, const Type **args);  /* complex_reduce.c: "numpy.f of text" */
/* A keyword argument's value, or NULL. */
Node *ty_kwarg(Node *n, const char *name);
/* Typing a CUDA kernel or device function. */
bool ty_in_cuda(const Infer *in);
/* Typing code with no heap: kernels, and device functions for the GPU. */
bool ty_no_allocation(const Infer *in);
/* builtins/indexing.c: a[index] of an array, and a[index] = t where it selects an array */
const Type *ty_array_index(Infer *in, Node *n, const Type *base);
void ty_index_store(Infer *in, Node *target, const Type *t, Node *at);
/* a[i] = [[x, y], [z, w]] of an array a: the list written out made a tuple
 * of tuples before it is typed (stored as numpy.array of it) */
void ty_row_literal(Infer *in, Node *target, Node *value);
/* builtins/unpack.c: the tuple that count targets take of an array or typed list t, or a TypingError */
const Type *ty_unpacked(Infer *in, Node *n, const Type *t, int count);
/* builtins/namedtuples.c: p.x of a named tuple p, made p[i] */
const Type *ty_named_field(Infer *in, Node *n, const Type *t);
/* builtins/funcsets.c: one of several compiled functions chosen at run time (TY_FUNCS) */
const Type *ty_funcs_unify(const Type *a, const Type *b);  /* of functions a and b; NULL where either is none */
const Type *ty_funcs_of_tuple(const Type *t);
/* Of a and b, the one whose numbering holds for the other's values too (the other's functions first in it,
 * as appending to a list of them makes it); NULL where neither is */
const Type *ty_funcs_widening(const Type *a, const Type *b);  /* t[i] of a tuple of functions, i a variable; NULL for other tuples */
const Type *ty_funcs_call(Infer *in, Node *n, const Type **args);  /* f(args) of such an f */
bool ty_funcs_entry_for(Infer *in, Node **arg, const Type *fp);  /* *arg, such an f, made the entry for FunctionType fp */
/* builtins/tuples.c: t[index], t + u, and comparisons of tuples */
const Type *ty_tuple_index(Infer *in, Node *n, const Type *t);
const Type *ty_tuple_binop(Infer *in, Node *n, const Type *a, const Type *b);
const Type *ty_tuple_compare(Infer *in, Node *n, int op, const Type *a, const Type *b);
/* tuples.c: whether items of types a and b are compared by == (numbers, strs, None, tuples of them), and
 * by == and != (equality) or by < too: ty_items_compare */
bool ty_items_equatable(const Type *a, const Type *b);
bool ty_items_compare(const Type *a, const Type *b, bool equality);
const Type *ty_tuple_contains(Infer *in, Node *n, const Type **args);  /* v in t, of numbers */
/* A call with *t (n->op set, frontend's fe_spread_call): the parameters' types into bound; how many, or -1 */
int ty_spread_args(Infer *in, Node *n, const Type **args, const Type **bound);
/* Retypes a variable as if t were assigned to it (an empty list's type
 * learnt from an append). */
void ty_assign_var(Infer *in, Node *target, const Type *t);
/* builtins/lists.c, dicts.c: typed lists and dicts */
bool ty_container_item(Infer *in, Node *at, const Type *t, const char *what);  /* a type they may hold */
bool ty_container_fits(const Type *to, const Type *from);  /* from stored where to is held */
bool ty_container_casts(const Type *to, const Type *from);  /* a number converted into a container of another width */
const Type *ty_unify_containers(const Type *a, const Type *b);  /* an empty one with a typed one */
bool ty_refine_container(Infer *in, Node *n, Node *recv, const Type *t);  /* recv's variable retyped t */
/* lists.c: the type a list written out (at, of type t) takes when stored to the variable target,
 * whose items were widened to a wider number (x = [1, 2]; x.append(2.5)): the variable's; else t */
const Type *ty_widened_literal(Infer *in, Node *target, const Type *t, Node *at);
const Type *ty_list_index(Infer *in, Node *n, const Type *base);
const Type *ty_list_binop(Infer *in, Node *n, int op, const Type *a, const Type *b);  /* x + y, x * n */
bool ty_list_compare(Infer *in, Node *n, const Type *a, const Type *b);
void ty_list_store(Infer *in, Node *target, const Type *t, Node *at);
const Type *ty_dict_index(Infer *in, Node *n, const Type *base);
void ty_dict_store(Infer *in, Node *target, const Type *t, Node *at);
const Type *ty_dict_contains(Infer *in, Node *n, const Type **args);
const Type *ty_dict_view_index(Infer *in, Node *n, const Type *view);  /* for x in v of d.keys(), d.values(), d.items() */
const Type *ty_dict_view_item(const Type *view);  /* what such a view walks */
bool ty_dict_key_tuple(const Type *k);
bool ty_key_converts(const Type *key, const Type *k);  /* k looked up or stored as a key of type key */
bool ty_dict_compare(Infer *in, Node *n, int op, const Type *a, const Type *b);  /* == and != of a typed dict */
/* dicts.c: literal dicts (TY_LITDICT) */
const Type *ty_literal_dict_index(Infer *in, Node *n, const Type *d);  /* d[k] of a constant k; iteration refused */
const Type *ty_literal_dict_contains(Infer *in, Node *n, const Type **args);
const Type *ty_literal_dict_unify(const Type *a, const Type *b);  /* NULL: other keys, or values not unified */
bool ty_literal_dict_compare(Infer *in, Node *n, int op, const Type *a, const Type *b);  /* == and != */  /* a tuple of numbers a key can be (RtTupleKey's) */
/* builtins/sets.c: sets */
const Type *ty_set_index(Infer *in, Node *n, const Type *base);  /* iteration only */
const Type *ty_set_binop(Infer *in, Node *n, int op, const Type *a, const Type *b);  /* | & - ^ */
bool ty_set_compare(Infer *in, Node *n, const Type *a, const Type *b);
/* builtins/strings.c: str values */
const Type *ty_str_binop(Infer *in, Node *n, int op, const Type *a, const Type *b);
bool ty_str_compare(Infer *in, Node *n, const Type **t);
const Type *ty_str_contains(Infer *in, Node *n, const Type **args);
const Type *ty_str_index(Infer *in, Node *n, const Type *base);
/* builtins/bytes.c: bytes values */
bool ty_bytes_compare(Infer *in, Node *n, const Type **t);
const Type *ty_bytes_contains(Infer *in, Node *n, const Type **args);
const Type *ty_bytes_index(Infer *in, Node *n, const Type *base);
const Type *ty_bytes_binop(Infer *in, Node *n, int op, const Type *a, const Type *b);  /* + and * */
/* infer.c: n, typed bytes, where an array is needed (list(b), min(b)): moved
 * under an N_UNWRAP made in its place, of the array of its items (its type) */
const Type *ty_bytes_view(Infer *in, Node *n);
/* A builtin of the family tables by its name ("round digits"). */
const Builtin *bi_named(const char *name);

/* builtins/records.c: records of structured dtypes (fields read and written) */
bool ty_holds_record(const Type *t);
bool ty_record_inside(const Type *t);  /* a tuple or Optional holding a record (not returned) */
int ty_float_width(const Type *t);  /* infer.c: the narrowest float width holding a number of type t */  /* a record, or an array of them */
const Type *ty_record_attr(Infer *in, Node *n, const Type *base);  /* r.x, a.x */
const Type *ty_record_index(Infer *in, Node *n, const Type *base); /* r['x'], a['x']: made N_ATTRs */
bool ty_record_keyed(const Infer *in, const Node *n, const Type *base);  /* n (an N_INDEX of base) names a field */
void ty_record_store(Infer *in, Node *target, const Type *t, Node *at);
void ty_dtype_names_as_text(Node *n);  /* a str naming a dtype given to a row reading text values: the str again */
bool ty_check_records(Infer *in, Node *n, const Type **args);  /* refused records unless the row takes them */
/* builtins/datetime.c: datetime64 and timedelta64 operators, refused unless the row takes them */
const Type *ty_time_binop(Infer *in, Node *n, int op, const Type *a, const Type *b);
const Type *ty_time_int(Infer *in, Node *n, const Type *t);  /* int() of a datetime: [ns] alone */
bool ty_time_compare(Infer *in, Node *n, const Type *a, const Type *b);
const Type *ty_time_unify(const Type *a, const Type *b);
bool ty_time_store(Infer *in, Node *at, const Type *value, const Type *elem);
bool ty_check_time(Infer *in, Node *n, const Type **args);
/* builtins/float16.c: float16 refused unless the row takes it */
bool ty_check_float16(Infer *in, Node *n, const Type **args);

#endif
