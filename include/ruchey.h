/* ruchey.h — the IR, the types and the C API of libruchey.
 *
 * Grouped by the stage that owns each part, in pipeline order:
 * arena and IR (built by the frontend in ruchey._core), types (infer.c),
 * compile options and results (jit.c), runtime (runtime.c).
 * libruchey itself contains no Python: the frontend and the dispatcher live
 * in the CPython extension and reach the library through RucheyAPI.
 */
#ifndef RUCHEY_H
#define RUCHEY_H

#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define RUCHEY_API_VERSION 32
#define RC_MAX_NDIM 8
/* The most items a tuple type holds, Numba's bound on a tuple argument:
 * every array sized by a tuple's items is sized by the tuple, but LLVM's
 * optimiser takes seconds over a value of a few hundred fields (Numba's
 * too), and a list serves a longer sequence. */
#define TY_MAX_FIELDS 1000

/* ---------------------------------------------------------------- arena */

/* Every IR node and type of one compilation lives in one arena, freed
 * whole when the compilation ends. Inline so that the extension can build
 * the IR before libruchey is loaded. */
typedef struct ArenaBlock {
  struct ArenaBlock *next;
  size_t used, size;
  _Alignas(16) char data[];
} ArenaBlock;

typedef struct Arena {
  ArenaBlock *head;
} Arena;

static inline void *arena_alloc(Arena *a, size_t n) {
  n = (n + 15) & ~(size_t)15;
  if (!a->head || a->head->used + n > a->head->size) {
    size_t size = n > 16384 ? n : 16384;
    ArenaBlock *b = (ArenaBlock *)malloc(sizeof(ArenaBlock) + size);
    if (!b) abort();
    b->next = a->head;
    b->used = 0;
    b->size = size;
    a->head = b;
  }
  void *p = a->head->data + a->head->used;
  a->head->used += n;
  return memset(p, 0, n);
}

static inline char *arena_strdup(Arena *a, const char *s) {
  size_t n = strlen(s) + 1;
  return (char *)memcpy(arena_alloc(a, n), s, n);
}

/* name as a PTX symbol may spell it, in place: each character a PTX name
 * cannot hold (a lambda's "<lambda>") made '_'; dots stay, as LLVM's NVPTX
 * backend rewrites them itself. The kernel's launch looks it up so. */
static inline void ptx_symbol(char *name) {
  for (char *p = name; *p; p++)
    if (!(*p == '_' || *p == '$' || *p == '.' || (*p >= '0' && *p <= '9') || ((*p | 32) >= 'a' && (*p | 32) <= 'z')))
      *p = '_';
}

static inline void arena_free(Arena *a) {
  while (a->head) {
    ArenaBlock *next = a->head->next;
    free(a->head);
    a->head = next;
  }
}

/* ---------------------------------------------------------------- types (types.c) */

/* What a kind of type is (types.def gives each kind its flags). */
enum {
  TF_SCALAR = 1 << 0,   /* a number or bool: held in a register */
  TF_INT = 1 << 1,
  TF_SIGNED = 1 << 2,
  TF_FLOAT = 1 << 3,
  TF_BOOL = 1 << 4,
  TF_REFS = 1 << 5,     /* holds arrays, whose memory is reference-counted */
  TF_NOVALUE = 1 << 6,  /* only used where it is written (range, dtype, module) */
  TF_COMPLEX = 1 << 7,  /* a pair of floats; bits counts both, the alignment is one part's */
  TF_TIME = 1 << 8,     /* datetime64 or timedelta64: an int64 with a unit, taken only where a builtin says so */
  TF_ENUM = 1 << 9,     /* a member of an enum class: held as its value (elem), boxed through its class (callee) */
};

typedef enum {
#define X(kind, name, flags, bits) TY_##kind,
#include "types.def"
#undef X
  TY_COUNT
} TypeKind;

/* A type. Types are interned by libruchey: equal types are the same
 * object, compared by address, and live as long as the process. */
/* NumPy's datetime units, numbered as its NPY_DATETIMEUNIT (3, its
 * business days, is gone); a generic unit takes the other operand's. */
typedef enum { TU_Y, TU_M, TU_W, TU_D = 4, TU_h, TU_m, TU_s, TU_ms, TU_us, TU_ns, TU_ps, TU_fs, TU_as, TU_GENERIC,
               TU_COUNT } TimeUnit;

typedef struct Type Type;
struct Type {
  TypeKind kind;
  unsigned flags;        /* the kind's TF_ flags, and TF_REFS for a tuple holding arrays */
  int bits;              /* a scalar's width */
  int unit;              /* TY_DATETIME, TY_TIMEDELTA: NumPy's unit (TU_ codes); TY_CHARSEQ: its length;
                          * TY_ARRAY: 'B' a bytearray argument's, 'M' a memoryview's, 'P' an array.array's (ty_buffer), else 0;
                          * TY_TUPLE: 'L' a literal list's (ty_literal_list) */
  const Type *elem;      /* TY_ARRAY, TY_DTYPE, TY_INFO: the scalar element type; TY_OPTIONAL: the value's type;
                          * TY_ENUM, TY_INTENUM: the type of the class's values */
  int ndim;              /* TY_ARRAY */
  char layout;           /* TY_ARRAY: 'C' contiguous, 'F' Fortran, 'A' any strides */
  bool readonly;         /* TY_ARRAY: writing is a TypingError */
  int nfields;           /* TY_TUPLE, TY_RECORD, TY_CLASS */
  const Type *const *fields; /* TY_TUPLE, TY_RECORD, TY_CLASS */
  /* the data model: how a value lies in memory as an argument, a result,
   * an array element or a tuple field (as LLVM lays out its structs) */
  size_t size, align;
  const size_t *offsets; /* TY_TUPLE, TY_RECORD: each field's offset; TY_CLASS: in the RtObject */
  const char *const *names; /* TY_RECORD: each field's name; a named tuple's (TY_TUPLE with a
                             * callee) and TY_CLASS's: its fields' names, then its class's name */
  const char *const *titles; /* TY_RECORD: each field's title (NumPy's other name for it) or NULL;
                              * NULL where no field has one */
  const int64_t *shapes; /* TY_RECORD: an array field's shape at [i * RC_MAX_NDIM] (a sub-array, C order);
                          * TY_ENUM, TY_INTENUM of ints: each member's value, as int64 bits */
  const char *const *texts; /* TY_ENUM, TY_INTENUM of ints: each member's str() (Python's print of it) */
  int nmembers;          /* TY_ENUM, TY_INTENUM of ints: how many shapes and texts there are (0: other values) */
  const char *name;      /* as Numba spells it: "float64", "array(float64, 1d, C)", "(int64, float64)" */
  const void *callee;    /* TY_FUNCTION: the dispatcher it calls (the extension keeps it alive);
                          * TY_TUPLE: a named tuple's class (collections.namedtuple, typing.NamedTuple);
                          * TY_CLASS: the jitclass's Python class (the boxes' type);
                          * TY_ENUM, TY_INTENUM: the enum class (cls(value) is the member) */
};

static inline bool ty_is_scalar(const Type *t) { return t->flags & TF_SCALAR; }
static inline bool ty_is_int(const Type *t) { return t->flags & TF_INT; }
static inline bool ty_is_signed(const Type *t) { return t->flags & TF_SIGNED; }
static inline bool ty_is_float(const Type *t) { return t->flags & TF_FLOAT; }
static inline bool ty_is_complex(const Type *t) { return t->flags & TF_COMPLEX; }
static inline bool ty_is_time(const Type *t) { return t->flags & TF_TIME; }
static inline bool ty_is_unsigned(const Type *t) { return (t->flags & (TF_INT | TF_SIGNED)) == TF_INT; }
/* An exception argument recorded as text, which the extension makes again
 * in Python (a GPU's raise takes only these): a str, a number, a bool,
 * None, a datetime64 or timedelta64, or a tuple of them; other arguments
 * are boxed when raised (lower/stmt.c raise_objects). */
static inline bool ty_raised_as_text(const Type *t) {
  for (int i = 0; t->kind == TY_TUPLE && i < t->nfields; i++)  /* raise ValueError("bad shape", a.shape) */
    if (!ty_raised_as_text(t->fields[i])) return false;
  return t->kind == TY_TUPLE || t->kind == TY_STR || t->kind == TY_BOOL || t->kind == TY_NONE ||
         (ty_is_int(t) && !(t->flags & TF_ENUM)) || ty_is_float(t) || ty_is_time(t);  /* (an IntEnum member: boxed) */
}
/* A dtype NumPy knows and compiled code makes arrays of: numbers, bools,
 * datetimes, records and fixed-width strings; not typed containers'
 * unicode_type, a jitclass's instance type or an array or container type
 * (a TY_DTYPE of those is an item type of typed lists and dicts alone),
 * nor the object dtype (an argument's, passed on but never used) */
static inline bool ty_is_fixed_text(const Type *e) { return e->kind == TY_CHARSEQ || e->kind == TY_BYTESEQ; }  /* '<Un', '|Sn' */
static inline bool ty_is_numpy_dtype(const Type *t) {
  const Type *e = t->kind == TY_DTYPE ? t->elem : NULL;
  return e && ((e->flags & TF_SCALAR) || e->kind == TY_RECORD || ty_is_fixed_text(e));
}
/* An enum member (held as its value), and the type of what a value of type t holds: a member's value's, else t. */
static inline bool ty_is_enum(const Type *t) { return t->flags & TF_ENUM; }
static inline const Type *ty_enum_value(const Type *t) { return ty_is_enum(t) ? t->elem : t; }
/* Whether a value of type t holds arrays (whose memory is reference-counted). */
static inline bool ty_has_arrays(const Type *t) { return t->flags & TF_REFS; }
/* Width in bits of a scalar; bool counts as 8 in memory. */
static inline int ty_bits(const Type *t) { return t->bits; }

#ifdef RUCHEY_LIB
/* The types' constructors, in libruchey (the extension reaches them through
 * RucheyAPI, so that there is one table of types in the process). */
extern const Type ty_plain[TY_COUNT];  /* the kinds without parameters */
#define TYS(k) (&ty_plain[(k)])
const Type *ty_array(const Type *elem, int ndim, char layout, bool readonly);
/* The array type of a bytearray (kind 'B') or memoryview ('M') argument,
 * an array of its items (Numba's ByteArray, MemoryView); views and values
 * made of it are plain arrays of its parts. */
const Type *ty_buffer(const Type *array, char kind);
const Type *ty_tuple(int n, const Type *const *fields);
/* The tuple of fields' n items, times times over (one item n times: a uniform tuple). */
const Type *ty_tuple_repeat(int n, const Type *const *fields, int times);
/* A named tuple: a tuple whose items also have names (n + 1: the class's name last), boxed as cls. */
const Type *ty_named_tuple(int n, const Type *const *fields, const char *const *names, const void *cls);
/* A list written out whose items have no one type ([1, 'a']): held as the
 * tuple of its items (unit 'L'), read by constant indices, len, `in`,
 * count and literal_unroll, never changed (Numba's LiteralList). */
const Type *ty_literal_list(int n, const Type *const *fields);
/* A dict written out with constant str keys whose values have no one type
 * ({'a': 1, 'b': 'x'}): TY_LITDICT, its n values' types and their keys
 * (Numba's LiteralStrKeyDict). */
const Type *ty_literal_dict(int n, const Type *const *fields, const char *const *keys);
/* A jitclass's instances: one type per class cls, declared by its name,
 * then defined with its n fields (n + 1 names: the class's last), so that
 * a field may be of the class itself. */
const Type *ty_jitclass_declare(const char *name, const void *cls);
void ty_jitclass_define(const Type *t, int n, const Type *const *fields, const char *const *names);
static inline bool ty_jitclass_defined(const Type *t) { return t->offsets != NULL; }
const Type *ty_time(TypeKind kind, int unit);  /* datetime64[unit] or timedelta64[unit] */
const Type *ty_charseq(int n);  /* the element of a NumPy str array of n characters ('<Un') */
const Type *ty_byteseq(int n);  /* the element of a NumPy bytes array of n bytes ('|Sn') */
const Type *ty_ctypes(const Type *array);  /* a.ctypes of an array of that type */
const Type *ty_flags_of(const Type *array); /* a.flags of an array of that type */
const Type *ty_slice(int given);  /* a slice object whose parts given (SLICE_ bits) are ints, the others None */
const char *ty_unit_name(int unit);            /* "D", "ns"; "" for the generic unit, NULL for none */
const Type *ty_dtype(const Type *elem);
const Type *ty_info(const Type *elem);
const Type *ty_optional(const Type *elem);
const Type *ty_function(const void *callee, const char *name);  /* name: the function's, for messages */
const Type *ty_funcptr(const Type *ret, int n, const Type *const *params);  /* FunctionType[ret(params)] */
const Type *ty_bound_method(const Type *cls, const void *method, const char *name);  /* cls's method name of an object */
const Type *ty_funcs(int n, const Type *const *members);  /* one of the n compiled functions (TY_FUNCTION) members */
const Type *ty_list(const Type *item);  /* item NULL: an empty list's, typed by what it is given later */
const Type *ty_dict(const Type *key, const Type *value);  /* both NULL: an empty dict's */
const Type *ty_set_of(const Type *item);  /* NULL: an empty set's */
const Type *ty_dict_view(const Type *dict, int part);  /* d.keys() (part 0), d.values() (1), d.items() (2) of a dict of type dict */
const Type *ty_yields(const Type *item);  /* a generator object yielding item */
/* A member of the enum class cls (named name), kind TY_ENUM or TY_INTENUM, its values of type value;
 * n members' values and str()s where they are ints (what print() writes), kept by the caller. */
const Type *ty_enum(TypeKind kind, const Type *value, const void *cls, const char *name, int n,
                    const int64_t *values, const char *const *texts);
/* A structured dtype's record: n fields at the given offsets, size bytes, aligned to align; titles
 * each field's title or NULL (titles NULL: none has one). */
const Type *ty_record(int n, const Type *const *fields, const char *const *names, const char *const *titles,
                      const size_t *offsets, const int64_t *shapes, size_t size, size_t align);
/* Whether record have's first fields are all of record want's, each alike (Numba's width
 * subtyping): code compiled for want reads them at the same places of have's bytes. */
bool ty_record_subtype(const Type *want, const Type *have);
#endif
/* A typed List or Dict (containers.h): memory shared with Python's objects; or a set (an RtDict of keys alone). */
/* Which parts of a slice are given (TY_SLICE's unit); one left out is None. */
enum { SLICE_START = 1, SLICE_STOP = 2, SLICE_STEP = 4 };

static inline bool ty_is_literal_list(const Type *t) { return t->kind == TY_TUPLE && t->unit == 'L'; }  /* ty_literal_list's */
static inline bool ty_is_container(const Type *t) { return t->kind == TY_LIST || t->kind == TY_DICT || t->kind == TY_SET; }

/* ---------------------------------------------------------------- IR (frontend.c) */

typedef enum {
  /* expressions */
  N_INT,        /* ival: integer literal */
  N_FLOAT,      /* fval: float literal */
  N_BOOL,       /* ival: True/False */
  N_VAR,        /* var: a local variable (parameters first) */
  N_MODULE,     /* ival: a module (ModuleId) used as an attribute base */
  N_DTYPE,      /* ival: TypeKind of a NumPy scalar type used as a dtype (or of the type in data) */
  N_BINOP,      /* op: BinOp; lhs, rhs */
  N_UNARY,      /* op: UnaryOp; lhs */
  N_COMPARE,    /* list: operands, ops: CmpOp per pair (chained) */
  N_BOOLOP,     /* op: OP_AND/OP_OR; list: operands */
  N_IFEXP,      /* cond ? lhs : rhs */
  N_CALL,       /* bi: the builtin; list: positional args (a method's receiver first); kw: keyword args;
                 * a ruchey function's call with *t: op, ival and list as fe_spread_call says */
  N_INDEX,      /* lhs[rhs]; rhs may be N_TUPLE */
  N_ATTR,       /* lhs.str; bi: the attribute's builtin, set by infer */
  N_TUPLE,      /* list: elements */
  N_SLICE,      /* lhs:rhs:cond (each may be NULL), only inside an index */
  N_STRING,     /* str: a constant string, only an argument of a builtin that takes them (print) */
  N_CONST_ARRAY,/* a NumPy array global to the module, frozen: op its element's TypeKind, list
                 * its shape (N_INTs), data its elements in C order, ival their bytes; op
                 * TY_BYTES: a bytes constant, its bytes so */
  N_NONE,       /* None (numpy.newaxis): a new axis inside an index; ival 1: an argument given None that the
                 * builtin's typer read as not given (bi_none_as_default); op 1: a callee's default None
                 * bound for an argument the call omits (an overload's typing function sees Python's None) */
  N_ELLIPSIS,   /* ... (Ellipsis): the dimensions an index does not name */
  N_IS_NONE,    /* lhs is None (ival 1: is not None); infer folds it where lhs's type decides */
  N_UNWRAP,     /* lhs, an Optional, where its value is needed: TypeError if it is None; or an IntEnum
                 * member, where a number is needed: its int (made by infer) */
  N_FUNC,       /* a compiled function as a value: callee the dispatcher, str its name */
  N_SPREAD,     /* *lhs among a builtin's positional arguments (numpy.ndindex(*a.shape)): infer puts
                 * the tuple's items in its place */
  /* statements */
  N_ASSIGN,     /* lhs (N_VAR, N_INDEX or N_TUPLE of targets) = rhs */
  N_AUGASSIGN,  /* lhs op= rhs */
  N_IF,         /* if cond: body else: orelse */
  N_FOR,        /* for lhs(N_VAR) in cond(range call): body else: orelse (the frontend
                 * turns loops over arrays, enumerate and zip into these) */
  N_WHILE,      /* while cond: body else: orelse */
  N_BREAK, N_CONTINUE, N_PASS,
  N_RETURN,     /* return lhs (NULL: None) */
  N_EXPR,       /* an expression evaluated for its effect */
  N_BLOCK,      /* body: statements in sequence (a = b = c) */
  N_ASSERT,     /* assert cond, message (str: the message, or NULL) */
  N_RAISE,      /* raise exc(str): callee is the exception class; callee NULL: a bare raise
                 * in an except clause, raising again what it caught */
  N_TRY,        /* try: body, list: the except clauses (N_EXCEPT), orelse: else, lhs: an
                 * N_BLOCK of the finally clause's body, or NULL */
  N_EXCEPT,     /* except: body; ival: how many classes it names (0: a bare except), callee
                 * those classes (void *[ival]), data their symbols (const char *[ival]);
                 * op: a bit (1 << status) per RtStatus but RT_ERR_RAISE that they catch */
  N_YIELD,      /* yield lhs (NULL: None), a statement: its value is never used (a generator function) */
  N_COUNT
} NodeKind;

typedef enum {
  OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_FLOORDIV, OP_MOD, OP_POW,
  OP_LSHIFT, OP_RSHIFT, OP_BITAND, OP_BITOR, OP_BITXOR,
  OP_NEG, OP_POS, OP_NOT, OP_INVERT,
  OP_AND, OP_OR,
  OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE,
  OP_COUNT
} Op;

typedef enum { MOD_NUMPY, MOD_MATH } ModuleId;
/* The module id as a value (Numba's Module(numpy)): what a call returning one gives, its attributes
 * found by its name (TYS(TY_MODULE): a module not known). */
const Type *ty_module(ModuleId id);
const char *ty_module_name(const Type *t);  /* "numpy", "math"; NULL for a module not known */


typedef struct Node Node;

typedef struct NodeList {
  Node **items;
  int len;
} NodeList;

struct Node {
  NodeKind kind;
  int line, col;        /* 1-based line in the file, 0-based column */
  const Type *ty;       /* set by infer for expressions */
  int op;               /* N_BINOP, N_UNARY, N_BOOLOP, N_AUGASSIGN: the Op */
  const struct Builtin *bi; /* N_CALL, N_ATTR: what is called or read (a method's or
                             * attribute's is set by infer, from its receiver's type) */
  int64_t ival;
  double fval;
  int var;              /* N_VAR: index into Func.var_names */
  Node *lhs, *rhs, *cond;
  NodeList list;        /* operands, elements, positional arguments */
  int *ops;             /* N_COMPARE: one CmpOp per adjacent pair */
  NodeList kw;          /* N_CALL: keyword argument values */
  const char **kw_names;/* N_CALL: their names */
  NodeList body, orelse;
  const char *str;      /* N_ASSERT, N_RAISE: the constant message; N_ATTR, a method's N_CALL: the name;
                         * N_INDEX: "iteration" where a for loop reads its sequence's element;
                         * N_INT: "item" where infer made the index itself (p.x read as p[i], a
                         * tuple's items read one by one), not the code's own subscript */
  void *callee;         /* N_CALL of a ruchey function: the dispatcher; of a native function: its
                         * NativeSig; N_RAISE: the class; N_CONST_ARRAY of datetimes: their type */
  const void *data;     /* N_CONST_ARRAY: the elements; N_DTYPE of a record, a jitclass, a datetime,
                         * an array or container type, and a frozen datetime's N_CALL: the type;
                         * an N_VAR an element is written through: the NodeList of the values
                         * assigned to it that reach the write (lib/analysis/webs.c), or none */
  const char *symbol;   /* N_RAISE: the class's name at link time (generated code holds no address) */
  struct CallTarget *target; /* N_CALL of a ruchey function: set by infer */
  struct LoopPlan *plan;     /* N_FOR, a counted N_WHILE: set by the analyses (lib/analysis) */
  bool defaulted;       /* an argument the call omits, bound to the callee's default: an overload's
                         * typing function and implementation are not given it (described_args) */
};

/* isinstance(x, classes): what the classes name, read by the frontend (as
 * Numba reads them): any type of a kind (tuple, list, dict, set, range,
 * str, bytes, None's type) or exactly a type (int: int64, numpy.float32, a
 * jitclass's instances). */
typedef struct IsClasses {
  uint64_t kinds;           /* 1 << kind per kind named */
  int lists;                /* of TY_LIST's: 1 list named, 2 typed.List, 3 both (see ty_isinstance) */
  int n;
  const Type *types[16];
} IsClasses;

typedef struct Func {
  const char *name;
  const char *filename;
  int nparams;          /* the first nparams variables are the parameters */
  int nvars;
  const char **var_names;
  const Type **var_types; /* set by infer */
  const Type **param_types; /* set by infer: the arguments' types (a parameter's variable may hold a
                             * wider type, assigned in the body: the entry converts) */
  const Type **declared_types; /* set by the extension: jit's locals={...} per variable (NULL: none,
                                * or all inferred); what is assigned is converted to it */
  const Type *ret_type;   /* set by infer */
  NodeList body;
  Arena *arena;
  int line;             /* line of the def statement */
  bool barrier;         /* set by infer: reaches cuda.syncthreads() */
  bool draws;           /* set by infer: reaches a call that changes hidden state (BF_STATE: a random
                         * draw or seed), itself or through a function it calls */
  bool grid_sync;       /* set by infer: reaches cuda.cg.this_grid() or a grid group's sync() (a
                         * cooperative launch, as numba-cuda's) */
  const char *symbol;   /* set by the extension: the name of its body in a module, one per
                         * function and argument types in a compile */
  struct FuncPlan *plan;  /* set by the analyses (lib/analysis) before lowering */
  int depth;            /* set by infer: how deep its statements and expressions nest (ir_depth);
                         * each level costs the recursive passes up to RC_STACK_PER_NEST bytes */
  bool recursive;       /* set by the extension: on a cycle of calls (checks the stack on entry) */
  const Type *recursed_as; /* set by infer: the type the last passes of recursive calls to it (its own,
                            * or from within its cycle) took its result as, before that was final */
  bool recursed_varies;    /* set by infer: such calls took it as more than one type */
  const Type *retype_as;   /* set by infer: where those calls took it as a type its result does not
                            * convert to, the type to type it again with (CompileOptions.recursion_ret) */
  bool generator;       /* set by the frontend: its body yields; a call makes a generator object */
  const Type *yield_type; /* set by infer: the unification of what a generator yields */
} Func;

/* The stack one level of nesting may take in any pass (typing, the
 * analyses, lowering; measured: under 180 bytes), checked against the
 * thread's stack before each runs. */
#define RC_STACK_PER_NEST 192

/* Whether depth levels of nesting fit on what is left of this thread's
 * stack above limit (rt_stack_limit). */
static inline bool rc_nesting_fits(int64_t depth, uintptr_t limit) {
  char here;
  uintptr_t sp = (uintptr_t)&here;
  return sp > limit && (uint64_t)(sp - limit) / RC_STACK_PER_NEST > (uint64_t)depth;
}

/* ---------------------------------------------------------------- builtins (lib/builtins) */

/* What a builtin is: passes ask these flags, never which builtin it is. */
enum {
  BF_PURE = 1 << 0,         /* a scalar from its arguments alone, errors raised through checks
                             * (a loop calling it may run with its errors deferred) */
  BF_RAISES = 1 << 1,       /* may raise a Python exception */
  BF_CHEAP = 1 << 2,        /* an instruction or two */
  BF_ALLOCATES = 1 << 3,    /* returns an array it allocated: not in kernels or on the GPU */
  BF_KERNEL = 1 << 4,       /* only in CUDA kernels and device functions */
  BF_VARIES = 1 << 5,       /* may differ between the threads of a CUDA block */
  BF_THREAD_INDEX = 1 << 6, /* a function of the CUDA thread's position only */
  BF_BARRIER = 1 << 7,      /* waits for every thread of the block (cuda.syncthreads()) */
  BF_BLOCK_MEMORY = 1 << 8, /* storage made at a kernel's entry (cuda.shared/local.array) */
  BF_PER_THREAD = 1 << 9,   /* with BF_BLOCK_MEMORY: one per thread (local arrays) */
  BF_NOCALL = 1 << 10,      /* named without a call (cuda.threadIdx.x) */
  BF_RANGE = 1 << 11,       /* range(...): only a for loop's iterable */
  BF_PARALLEL = 1 << 12,    /* prange: the loop runs on the pool with parallel=True */
  BF_WARP = 1 << 13,        /* waits for the threads of its warp and combines their arguments
                             * (cuda.shfl_sync, cuda.ballot_sync): ival is its CollectiveOp */
  BF_STRINGS = 1 << 14,     /* takes constant strings among its arguments (print) */
  BF_GRID = 1 << 15,        /* with BF_BARRIER: waits for every thread of the grid (grid.sync()) */
  BF_NONE = 1 << 16,        /* None among its arguments is a value (numpy.sort's axis=None), not
                             * the default that a keyword given None means elsewhere */
  BF_BLAS = 1 << 17,        /* calls BLAS: the extension finds SciPy's before compiling */
  BF_COMPLEX = 1 << 18,     /* takes complex numbers and arrays of them (other rows are refused them) */
  BF_LISTS = 1 << 19,       /* a literal list among its arguments is a list (x.append([1, 2])), not
                             * the tuple NumPy's functions read it as (numpy.array([1, 2])) */
  BF_KEYWORDS = 1 << 20,    /* takes any keyword: binds them itself once its callee is known (a call
                             * through a function value) */
  BF_ARRAYLIKE = 1 << 21,   /* a tuple, literal list or list of numbers among its arguments is an
                             * array (numpy.asarray of it), as NumPy's array-likes */
  BF_MEMBERS = 1 << 22,     /* takes enum members as they are (`is`), not an IntEnum member's int */
  BF_LITERAL = 1 << 23,     /* its value is its argument's, known before typing where that one's is
                             * (literally()) */
  BF_INDEXES = 1 << 24,     /* returns a tuple of index arrays (numpy.nonzero), without effects: as an
                             * index (a[numpy.nonzero(m)]) computed before the statement, once */
  BF_ARGS_TWICE = 1 << 25,  /* reads each argument twice (numpy.divmod's quotient and remainder): an
                             * argument that is not a name or a constant is computed before the
                             * statement, once, into a hidden variable */
  BF_STATE = 1 << 26,       /* changes state its result does not show (a random stream's): a call
                             * run twice is not the call run once */
  BF_UFUNC = 1 << 27,       /* a NumPy ufunc: a Python int an operand's dtype cannot hold is NumPy 2's
                             * OverflowError (numpy.where and numpy.clip take it otherwise) */
  BF_PER_BLOCK = 1 << 28,   /* with BF_THREAD_INDEX: differs between the blocks of a grid
                             * (cuda.blockIdx, cuda.grid) */
};

/* A builtin that synchronises threads: passes split kernels at it. */
#define BF_COLLECTIVE (BF_BARRIER | BF_WARP)

typedef enum { BK_FUNCTION, BK_METHOD, BK_ATTRIBUTE } BuiltinKind;

struct Infer;
struct Lower;
struct LLVMOpaqueValue;

/* One builtin: a row of a family's table (lib/builtins/: python.c, math.c,
 * numpy.c, cuda.c). A function is found by the identity of its Python
 * object (module and path); a method or attribute by its receiver's kind
 * and its name. The typer runs once the call's arguments are typed; the
 * lowerer emits it. */
typedef struct Builtin {
  const char *name;         /* as messages spell it: "numpy.empty", "len", "array.copy" */
  const char *module;       /* a function's module ("numpy", "builtins", "ruchey.cuda"), or NULL */
  const char *path;         /* its attribute path there ("threadIdx.x"); a method's or attribute's name */
  BuiltinKind kind;
  TypeKind receiver;        /* methods and attributes: the kind of value they belong to */
  int min_args, max_args;   /* positional arguments (a method's receiver not counted) */
  const char *const *keywords; /* the keyword arguments taken, NULL-terminated, or NULL */
  unsigned flags;           /* BF_ */
  int ival;                 /* the row's constant: an axis, an atomic operation, a math function */
  int reduce_op;            /* v = f(v, e) in a prange loop is a reduction with this operator, or 0 */
  const Type *(*type)(struct Infer *in, Node *n, const Type **args);
  struct LLVMOpaqueValue *(*lower)(struct Lower *l, Node *n);
  /* a ufunc: the function of one element of each argument (of the
   * arguments' element types, to n's), fused into array expressions */
  struct LLVMOpaqueValue *(*lower_elem)(struct Lower *l, Node *n, struct LLVMOpaqueValue **args);
} Builtin;

/* ---------------------------------------------------------------- diagnostics */

/* DIAG_LITERAL: not an error but literally(p) on parameters whose values
 * the compile does not know yet: the caller compiles again with them frozen
 * (literal_params says which), as Numba's dispatcher re-types them as
 * literals. DIAG_PENDING: a TypingError unless a caller can wait: a call
 * into a mutually recursive cycle whose return type was not typed yet;
 * the function of the cycle typing it leaves the call unknown for this
 * pass and types it again once a non-recursive return gives that type
 * (as Numba types a cycle from its partial return types). DIAG_TYPE: a
 * TypeError quoting the line, where numba-cuda's checks after typing raise
 * one (a kernel that returns a value). */
typedef enum { DIAG_TYPING = 1, DIAG_INTERNAL, DIAG_RECURSION, DIAG_LITERAL, DIAG_PENDING, DIAG_TYPE } DiagKind;
/* A DIAG_TYPING message starting with this character is also Python's
 * AttributeError (getattr(x, "name") of a name x's type has not, which
 * Numba raises as AttributeError); the character is not shown. */
#define DIAG_ATTRIBUTE_MARK '\x05'

/* A compile-time error at a source position; the extension turns it into
 * ruchey.TypingError quoting the line. */
typedef struct Diag {
  DiagKind kind;
  int line, col;
  uint64_t literal_params;  /* DIAG_LITERAL: a bit per parameter asked for */
  char msg[1024];
} Diag;

/* ---------------------------------------------------------------- compile (jit.c) */

struct CompileOptions;

/* A native function a call names (a ctypes function pointer, an object of
 * Numba's WrapperAddressProtocol, a cffi function): its address and C
 * signature, scalar kinds (ret TY_NONE: void); owner is the Python object,
 * which the code names so that no on-disk cache keeps it (its address is
 * this process's). */
typedef struct NativeSig {
  void *addr;
  void *owner;
  TypeKind ret;
  int nargs;
  TypeKind args[64];
  TypeKind pointee[64];  /* a typed pointer argument's items (POINTER(c_double): TY_F64); TY_NONE: any address */
  TypeKind ret_pointee;  /* a typed pointer result's items: the call gives a CPointer of them; TY_NONE: ret */
} NativeSig;

/* A call of an @intrinsic (ruchey.extending's): owner is the Python
 * object (the code's for good, and named by it so that no on-disk cache
 * keeps the code); the rest is what the extension gives for the call's
 * argument types: the signature, and the LLVM IR of a module holding a
 * function named "intrinsic" of it (owned by owner); or instead a ruchey
 * function (function) where the intrinsic builds a value type of a
 * package's own from its arguments, which the call becomes. */
typedef struct IntrinsicCall {
  void *owner;
  void *function;
  const char *ir;
  const Type *ret;
  int nargs;
  const Type *args[64];
} IntrinsicCall;

/* What a call to another ruchey function resolves to: the callee typed
 * for the call's argument types, lowered into the caller's module (where
 * LLVM may inline it) under its own symbol. */
typedef struct CallTarget {
  bool self;             /* a recursive call to the function being lowered */
  bool barrier;          /* it reaches cuda.syncthreads(): callers run as fibers */
  bool draws;            /* it reaches a BF_STATE call (Func.draws) */
  bool grid_sync;        /* it reaches cuda.cg.this_grid() or a grid group's sync() */
  bool errors_ignored;   /* a @vectorize function's decorated after install_as_numba(): a raise in it
                          * gives the zero of its type, as Numba's ufunc kernels in compiled code
                          * ignore the call's status (ruchey's own propagate it) */
  const Type *ret_type;  /* NULL while a recursive call's type is unknown */
  bool cycle;            /* a call into a cycle still being typed: ret_type is the callee's so far */
  Func *func;            /* the callee, typed for these arguments */
  const struct CompileOptions *func_opts; /* the options it was typed with */
} CallTarget;

/* Asks the extension for callee typed for argument types (reading and
 * typing it within this compile, or finding it typed or being typed);
 * false with diag set on failure. consts (NULL: none known) has per
 * argument its value where typing knows it, an N_INT, N_BOOL or N_STRING:
 * what an overload's typing function sees as a literal type, and what a
 * callee's literally() freezes its parameter to (asking for one it lacks
 * gives DIAG_LITERAL with literal_params naming the callee's parameters).
 * DIAG_PENDING leaves in out the ret_type the callee's returns gave so far. */
typedef bool (*ResolveCall)(void *ctx, void *callee, const Type **args, const Node *const *consts, int nargs,
                            bool device, CallTarget *out, Diag *diag);

enum { MAX_UFUNC_OPERANDS = 33 };  /* a ufunc loop's inputs and its output */

/* Asks the extension for a method (or attribute) that user code registered
 * for receiver's type (ruchey.extending): a callee for ResolveCall, taking
 * the receiver first; NULL where there is none. */
typedef void *(*FindMember)(void *ctx, const Type *receiver, const char *name, bool attribute);

/* A package's @overload of builtin function bi (numpy.shape...) for these
 * argument types, one of them a value type of the package's own: the
 * ruchey function implementing it, or NULL (the builtin's own typing). */
typedef void *(*FindOverload)(void *ctx, const Builtin *bi, const Type *const *args, int nargs);
typedef void *(*PythonImpl)(void *ctx, const char *name);

/* Binds a call through a function value (a compiled function passed as
 * an argument) to callee's parameters as Python would, its omitted ones
 * to callee's defaults; false with diag set where Python's binding fails. */
typedef bool (*BindCall)(void *ctx, void *callee, struct Node *call, Diag *diag);

/* Asks the extension for an intrinsic's signature and code for argument
 * types (consts as ResolveCall's: the arguments' values typing knows, its
 * typing function's literal types), filling call; false with diag set
 * where its typing or code generation fails. */
typedef bool (*IntrinsicCode)(void *ctx, IntrinsicCall *call, const Type *const *args, const Node *const *consts,
                              int nargs, Diag *diag);

/* The NumPy dtype a name held in a str names ("float32", "f4"): its
 * scalar type, or NULL with *known false where NumPy knows no such dtype
 * (true where NumPy has it and compiled code has not: "U5", "O"). The
 * compile asks only where a str whose value typing knows is a dtype. */
typedef const Type *(*DtypeNamed)(const char *name, bool *known);

/* What fastmath allows on float operations, Numba's flag names: fastmath={"nsz", "reassoc"}
 * sets those alone. fastmath=True (Numba's "fast") is FM_TRUE: not "nnan" or "ninf", which
 * would fold away the checks that raise Python's errors unless asked for by name. */
enum {
  FM_REASSOC = 1, FM_NNAN = 2, FM_NINF = 4, FM_NSZ = 8, FM_ARCP = 16, FM_CONTRACT = 32, FM_AFN = 64,
  FM_TRUE = FM_REASSOC | FM_NSZ | FM_ARCP | FM_CONTRACT | FM_AFN,
};

typedef struct CompileOptions {
  ResolveCall resolve;     /* calls to other ruchey functions */
  void *resolve_ctx;
  FindMember find_member;  /* methods and attributes beyond the builtins' (its ctx: resolve_ctx) */
  FindOverload find_overload; /* packages' overloads of builtin functions for their value types (its ctx: resolve_ctx) */
  PythonImpl python_impl;  /* a builtin's case written in Python: ruchey._stdlib's function of that name, a
                            * dispatcher, or NULL (its ctx: resolve_ctx) */
  BindCall bind_call;      /* calls through function values (its ctx: resolve_ctx) */
  IntrinsicCode intrinsic; /* calls of @intrinsic functions (its ctx: resolve_ctx) */
  DtypeNamed dtype_named;  /* dtypes named by strs held in variables and globals */
  const Type *declared_ret;/* an explicit signature's return type, or NULL */
  const Type *recursion_ret; /* a recursive function typed again: the return type its recursive calls take,
                              * from its typing before (where that differed from what they took then) */
  const Node *const *frozen; /* per parameter, the constant literally() froze its argument to, or NULL */
  bool boundscheck;
  unsigned fastmath;       /* FM_* flags: what the float operations may assume (0: IEEE exactly) */
  bool parallel;           /* prange loops run on the thread pool */
  bool kernel;             /* a @cuda.jit kernel: runs a grid of blocks of threads */
  bool device;             /* a function called from a kernel: after its arguments comes the CUDA
                            * thread it runs as, int64 tid[3], bid[3], bdim[3], gdim[3]; with
                            * gpu_cc, a PTX .func taking its arguments as values */
  bool debug;              /* kernels: out-of-bounds indexing names the thread */
  int launch_bounds[3];    /* a kernel's on the GPU (PTX .maxntid, .minnctapersm, .maxclusterrank): the
                            * most threads a block, the fewest blocks a multiprocessor, the most blocks a
                            * cluster; 0 where not given */
  int gpu_cc;              /* OUT_PTX: the compute capability (75 for 7.5); 0 for the CPU. OUT_LLVM_IR
                            * with one: the GPU's module, before libdevice and optimisation (numba-cuda's
                            * inspect_llvm(), the IR its NVVM is given) */
  bool gpu_arch_specific;  /* OUT_PTX: for gpu_cc's architecture-specific features alone (sm_90a, numba-cuda's
                            * cc=(9, 0, "a")), where LLVM has that target */
  bool lineinfo;           /* OUT_PTX: the source's lines in the PTX (.file and .loc directives) */
  bool force_inline;       /* a cuda.jit(device=True, forceinline=True) function: on the GPU, LLVM's alwaysinline
                            * on its definition (NVVM's forced inlining, as numba-cuda's) */
  bool unoptimised;        /* OUT_PTX: numba-cuda's opt=False: no optimisation passes, code generated at
                            * -O0, no fused multiply-adds (its locals stay in the local memory's depot) */
  uint64_t pointer_params; /* OUT_PTX: the parameters a signature declares CPointer (a bit each): a bare
                            * pointer in the PTX, a 1-d array of no known length in the body */
  bool error_model_numpy;  /* division by zero gives inf/nan instead of raising */
  bool numba_code;         /* code written for Numba (ruchey registered as numba): its readings where they
                            * differ from CPython's and NumPy's. A read of a variable not assigned on the
                            * path taken gives its type's zero (an empty array) instead of UnboundLocalError;
                            * a float ** overflowing gives inf instead of OverflowError, and so does
                            * 0.0 ** a negative float instead of ZeroDivisionError, and so do math
                            * functions (nan outside their domain instead of ValueError), which are glibc's
                            * scalar ones in vector loops too (no libmvec, jit.c); int ** negative int
                            * is Numba's truncated int; `a is b` of two bools
                            * compares their values (CPython's answer for a NumPy bool is always False); `-`
                            * of bool arrays is int8's, where NumPy refuses it */
  unsigned python;         /* the running interpreter's PY_VERSION_HEX: compiled code gives its answers
                            * where CPython changed them (3.14's complex arithmetic and messages) */
  bool ufunc_loop;         /* OUT_JIT: the entry is a NumPy ufunc inner loop over the function of
                            * scalars, int loop(char **args, int64 *dims, int64 *steps, void *data),
                            * returning an RtStatus (the first element that failed) */
  bool reports_failure;    /* OUT_JIT: where the body fails, the entry hands the error to rt_cfunc_failed(name)
                            * and returns RT_OK with a zero result, as a @cfunc's C entry does (a @cfunc's
                            * entry as a FunctionType argument) */
  bool c_entry;            /* OUT_JIT: the entry is a C function of the signature's scalars (@cfunc),
                            * ret f(args...); where the body fails it calls rt_cfunc_failed(name), the
                            * error in the thread's RtError, and returns zero */
  bool lazy_rerun;         /* OUT_JIT for the dispatcher's calls: in a function whose rerun from its start
                            * changes nothing a first run left (analysis/defer.c), a loop run with its
                            * errors deferred returns RT_ERR_RERUN where a check failed, instead of
                            * running again with its checks: the dispatcher then runs the function
                            * compiled without this option, at the first such failure */
} CompileOptions;

/* OUT_JIT_KEEP: as OUT_JIT, the object file also handed back (for the
 * on-disk cache), its entry named so that no other process's code shares
 * the name. */
typedef enum { OUT_JIT, OUT_LLVM_IR, OUT_ASM, OUT_PTX, OUT_JIT_KEEP } OutputKind;



typedef struct CompileResult {
  /* OUT_JIT: int entry(void *ret, void **args); returns an RtStatus */
  int (*entry)(void *ret, void **args);
  const Type *ret_type;  /* allocated in the Func's arena */
  char *text;            /* OUT_LLVM_IR, OUT_ASM: malloc'd text */
  char warning[512];     /* a prange loop that runs serially, and why */
  /* objects the code names by symbol (exception classes), for the linker:
   * in the Func's arena */
  struct { const char *name; void *addr; } *externs;
  int nexterns;
  bool barrier;          /* the function reaches cuda.syncthreads() */
  bool grid_sync;        /* a kernel that waits for its whole grid: launched cooperatively */
  bool reruns;           /* the entry may return RT_ERR_RERUN (CompileOptions.lazy_rerun) */
  void *code;            /* OUT_JIT: the loaded code (an RtCode), until release_code */
  char *object;          /* OUT_JIT_KEEP: the object file (malloc'd), object_size bytes, */
  size_t object_size;
  char *symbol;          /* and its entry's symbol (malloc'd) */
} CompileResult;

/* ---------------------------------------------------------------- runtime (runtime.c) */

/* Reference-counted memory behind arrays allocated by compiled code, and
 * behind Numba's MemInfoPointer values that C code made through the NRT
 * table (nrt.c): those carry a destructor, which the last release calls
 * on data before freeing the header (NULL for an array's one block). */
typedef struct RtMemInfo {
  int64_t refcount;
  void *data;
  void (*dtor)(void *data, void *info);
  void *dtor_info;
} RtMemInfo;

/* An array as compiled code sees it. Arrays that came in as arguments have
 * meminfo NULL and parent the PyObject they were unboxed from. */
typedef struct RtArray {
  RtMemInfo *meminfo;
  void *parent;
  char *data;
  int64_t shape[RC_MAX_NDIM];   /* only the first ndim are used */
  int64_t strides[RC_MAX_NDIM]; /* in bytes; follow shape[ndim] in LLVM */
} RtArray;

/* A number of a kind read from memory (an array's item, a container's):
 * as an int64 (bools and ints; a uint64 keeps its bits) or as a double. */
static inline int64_t rt_item_int(int32_t kind, const void *p) {
  switch (kind) {
  case TY_BOOL: case TY_U8: return *(const uint8_t *)p;
  case TY_I8: return *(const int8_t *)p;
  case TY_I16: return *(const int16_t *)p;
  case TY_U16: return *(const uint16_t *)p;
  case TY_I32: return *(const int32_t *)p;
  case TY_U32: return *(const uint32_t *)p;
  default: return *(const int64_t *)p;
  }
}

/* A float16's bits as a double (exact; by the bits, so that no compiler
 * helper for half floats is needed). */
static inline double rt_half_double(uint16_t h) {
  uint64_t sign = (uint64_t)(h >> 15) << 63, e = (h >> 10) & 0x1f, m = h & 0x3ff;
  if (e == 0) return (h >> 15 ? -1.0 : 1.0) * (double)m * 0x1p-24;  /* zero or subnormal */
  double v;
  uint64_t bits = sign | (e == 31 ? (uint64_t)0x7ff << 52 : (e - 15 + 1023) << 52) | m << 42;
  memcpy(&v, &bits, 8);
  return v;
}

static inline double rt_item_double(int32_t kind, const void *p) {
  switch (kind) {
  case TY_F16: return rt_half_double(*(const uint16_t *)p);
  case TY_F32: return *(const float *)p;
  case TY_F64: return *(const double *)p;
  case TY_U64: return (double)*(const uint64_t *)p;
  default: return (double)rt_item_int(kind, p);
  }
}

typedef enum {
  RT_OK = 0,
  RT_ERR_ZERODIV, RT_ERR_INDEX, RT_ERR_VALUE, RT_ERR_MEMORY,
  RT_ERR_ASSERT, RT_ERR_OVERFLOW, RT_ERR_RUNTIME, RT_ERR_UNBOUND,
  RT_ERR_RAISE,  /* raise in compiled code: exc_class says which */
  RT_ERR_TYPE,
  RT_ERR_RECURSION,  /* a recursive call past the thread's stack (RecursionError) */
  RT_ERR_INTERRUPT,  /* Ctrl-C (SIGINT) reached a compiled loop (interrupt.c) */
  RT_ERR_KEY,        /* a dict's missing key (KeyError) */
  RT_ERR_STOP,       /* next() of an exhausted generator (StopIteration) */
  RT_ERR_RERUN,      /* a deferred check failed (CompileOptions.lazy_rerun): no error recorded, the
                      * caller runs the function's checked version with the same arguments */
  RT_ERR_AXIS,       /* an axis beyond an array's dimensions: NumPy's AxisError (a ValueError and IndexError) */
} RtStatus;

/* The head of a generator object's state (lower/generators.c lays out the
 * rest: the value last yielded, at the next multiple of its alignment,
 * then the call's arguments and the body's frame). */
typedef struct RtGenState {
  int64_t refcount;
  int32_t (*resume)(struct RtGenState *s);  /* runs the body to its next yield or its end: a status */
  void (*drop)(struct RtGenState *s);       /* releases what the state holds (not the state) */
  int32_t next;                             /* where resume goes on: 0 the start, RT_GEN_DONE ended */
} RtGenState;

#define RT_GEN_DONE (-1)
#define RT_GEN_ALIGN 64  /* a state's alignment: its frame holds vectors of up to 64 bytes */
/* Where a generator's value lies after its RtGenState, for values of align bytes. */
static inline size_t rt_gen_value_offset(size_t align) {
  size_t end = offsetof(RtGenState, next) + sizeof(int32_t);
  return (end + align - 1) / align * align;
}

/* What a failed call left behind, per thread. */
typedef struct RtError {
  RtStatus status;
  const char *msg;       /* NULL: raised without a message */
  void *exc_class;       /* RT_ERR_RAISE: the Python exception class */
  const char *where;     /* RT_ERR_RAISE by a raise statement, RT_ERR_ASSERT: its place for the
                          * traceback, "line\x1ffunction\x1ffile" (NULL: none); a raise in a kernel
                          * compiled with debug=True adds "\x1ftid=[...] ctaid=[...]", the thread's */
} RtError;

/* What a collective gives each thread of a warp (or, the last four, of a
 * block) from the arguments of all of them: the CPU backend's runtime
 * computes it (warp.c), the GPU has instructions. A collective's arguments
 * travel as 64-bit patterns: a0 the member mask, a1 the value or
 * predicate, a2 the lane, delta or lane mask. */
typedef enum {
  COLL_SHFL_IDX, COLL_SHFL_UP, COLL_SHFL_DOWN, COLL_SHFL_XOR,
  COLL_ALL, COLL_ANY, COLL_EQ, COLL_BALLOT,
  COLL_MATCH_ANY, COLL_MATCH_ALL,   /* match_all: the mask, and bit 32 set when all matched */
  COLL_ACTIVEMASK, COLL_SYNCWARP,
  /* the block's: syncthreads(), syncthreads_count/_and/_or */
  COLL_BLOCK_SYNC, COLL_BLOCK_COUNT, COLL_BLOCK_AND, COLL_BLOCK_OR,
} CollectiveOp;

#define RC_WARP 32
#define COLL_IS_BLOCK(op) ((op) >= COLL_BLOCK_SYNC)

/* A kernel launch, passed after the kernel's arguments. */
typedef struct LaunchConfig {
  int64_t grid[3], block[3];
  int64_t dynamic_shared;  /* bytes of cuda.shared.array(0, ...) per block */
} LaunchConfig;

/* ---------------------------------------------------------------- thread pool (pool.c) */

/* One chunk of a parallel loop: iterations [begin, end), the loop's chunk
 * number `chunk` (0 when the loop runs serially: the whole range). */
typedef void (*PoolBody)(void *ctx, int64_t begin, int64_t end, int64_t chunk);

/* How many chunks pool_parallel_for cuts a loop of n iterations into when
 * called from this thread now: per-chunk storage (reduction partials) is
 * sized by it. At least 1. */
int64_t pool_chunk_count(int64_t n);
/* Runs body over [0, n) cut into `chunks` contiguous chunks, taken in turn
 * by the threads of the pool (started on first use) and the calling thread;
 * returns when every chunk is done. Called from inside a pool thread (a
 * nested parallel loop) it runs the whole range serially on that thread. */
void pool_parallel_for(PoolBody body, void *ctx, int64_t n, int64_t chunks);
/* pool_parallel_for on Numba's static schedule: chunk i (of pool_static_chunk_count's, one per thread) on
 * thread i, so a loop drawing random numbers draws each iteration's from the same thread's state every run */
int64_t pool_static_chunk_count(int64_t n);
void pool_parallel_for_static(PoolBody body, void *ctx, int64_t n, int64_t chunks);
int64_t pool_get_num_threads(void);  /* threads a parallel loop uses now */
int pool_set_num_threads(int64_t n); /* -1 if n < 1 or above the pool size */
int64_t pool_max_threads(void);      /* the pool size */
bool pool_sized(void);               /* whether pool_max_threads has fixed it */
int32_t rt_set_num_threads(int64_t n); /* pool_set_num_threads, a ValueError set where it refuses */
int64_t pool_thread_id(void);        /* 0 outside the pool */
int64_t pool_set_chunksize(int64_t n); /* iterations per chunk of this thread's loops (0: the pool's); the old */
int64_t pool_get_chunksize(void);
int64_t rt_set_chunksize(int64_t n);  /* pool_set_chunksize; -1 with a ValueError set where n < 0 */
/* release: the thread starting a parallel loop lets go of the Python
 * interpreter's lock if it holds it (a state for restore, else NULL), so
 * that the loop's chunks on other threads may take it (objmode blocks);
 * restore takes it back after the loop. Set by the extension. */
void pool_set_gil_hooks(void *(*release)(void), void (*restore)(void *state));
/* Waits (spinning a while, then asleep) until *w != old; returns the new
 * value. `sleeping` counts the threads asleep on w: pool_wake, called after
 * changing *w, wakes them. */
uint32_t pool_await_change(_Atomic uint32_t *w, uint32_t old, _Atomic int *sleeping);
void pool_wake(_Atomic uint32_t *w, _Atomic int *sleeping);

/* ---------------------------------------------------------------- the library's API */

/* Everything the extension needs from libruchey, fetched with dlsym once. */
typedef struct RucheyAPI {
  int version;
  /* the types (types.c): one table in the process */
  const Type *plain;   /* the kinds without parameters (scalars, none), indexed by TypeKind */
  const Type *(*array)(const Type *elem, int ndim, char layout, bool readonly);
  const Type *(*tuple)(int n, const Type *const *fields);
  const Type *(*optional)(const Type *elem);
  const Type *(*function)(const void *callee, const char *name);
  const Type *(*time)(TypeKind kind, int unit);  /* datetime64[unit], timedelta64[unit] */
  const Type *(*dtype)(const Type *elem);        /* a NumPy dtype (or scalar type) as a value */
  const char *(*unit_name)(int unit);
  /* Types f for the argument types (calling opts->resolve for callees);
   * needs the caller's locks (the GIL) for those callbacks. */
  bool (*infer)(Func *f, const Type **argtypes, const CompileOptions *opts, Diag *diag);
  /* Lowers, optimises and loads a typed f; touches nothing of the caller's,
   * so it may run without the GIL and concurrently with other compiles. */
  bool (*generate)(Func *f, const CompileOptions *opts, OutputKind out, CompileResult *res, Diag *diag);
  /* A typed f's analyses (lib/analysis) described as lines of text, for
   * tests; malloc'd. */
  char *(*describe_analyses)(Func *f, const CompileOptions *opts);
  /* the type of a variable holding values of types a and b (as infer
   * unifies them), NULL where none holds both */
  const Type *(*unify)(const Type *a, const Type *b);
  /* the builtins, for the frontend: NULL past the last */
  const Builtin *(*builtin_at)(int i);
  void (*meminfo_release)(RtMemInfo *mi);
  RtError *(*last_error)(void);
  const char *(*llvm_version)(void);
  const char *(*host_cpu)(void);
  /* the thread pool (pool.c) */
  void (*parallel_for)(PoolBody body, void *ctx, int64_t n, int64_t chunks);
  int64_t (*chunk_count)(int64_t n);
  int64_t (*get_num_threads)(void);
  int (*set_num_threads)(int64_t n);
  int64_t (*max_threads)(void);
  int64_t (*thread_id)(void);
  /* frees loaded code (CompileResult.code) nothing will call again */
  void (*release_code)(void *code);
  /* where print() in @njit code writes its lines (Python's sys.stdout), and
   * from what magnitude NumPy's str of a float32 has an exponent */
  void (*set_print_sink)(void (*sink)(const char *text, size_t len), double float32_exponent_from);
  /* what compiled code's linear algebra calls, found by the extension:
   * the BLAS and LAPACK routines by name (those wanted, NULL-terminated),
   * and numpy.linalg.LinAlgError */
  const char *const *blas_names, *const *lapack_names;
  void (*set_routine)(const char *name, void *fn);
  void (*set_linalg_error)(void *cls);
  uintptr_t (*stack_limit)(void);  /* rt_stack_limit */
  /* Ctrl-C (interrupt.c): chains SIGINT's handler (given the interpreter's
   * main thread, as a pthread_t); the flag it raises, which the main
   * thread lowers on entering compiled code */
  void (*watch_interrupts)(uint64_t main_thread);
  volatile int32_t *interrupted;
  /* whether a class raised in compiled code is a subclass of base (both
   * Python classes), for except clauses; called without the GIL */
  void (*set_exception_matcher)(int (*matches)(void *cls, void *base));
  /* the on-disk cache: loads an object file OUT_JIT_KEEP made (in any
   * process), res->externs naming this process's objects, setting
   * res->entry and res->code; and what the code was generated for */
  bool (*load_object)(const void *object, size_t size, const char *symbol, CompileResult *res, Diag *d);
  const char *(*host_features)(void);
  const Type *(*list)(const Type *item);  /* the types of typed lists and dicts */
  const Type *(*dict)(const Type *key, const Type *value);
  const Type *(*record)(int n, const Type *const *fields, const char *const *names, const char *const *titles,
                        const size_t *offsets, const int64_t *shapes, size_t size, size_t align);
  bool (*record_subtype)(const Type *want, const Type *have);
  const Type *(*named_tuple)(int n, const Type *const *fields, const char *const *names, const void *cls);
  /* what runs an objmode block (builtins/objmode.c): 0, or 1 with the
   * Python exception's class and message (kept until the next call) */
  void (*set_objmode_caller)(int (*call)(void *block, const Type *in_t, void *in, const Type *out_t, void *out,
                                         void **cls, const char **msg));
  const Type *(*set)(const Type *item);
  /* the processor, as the on-disk cache's key tells it (rt_host_identity) */
  const char *(*host_identity)(void);
  /* what reports a @cfunc's failure (rt_cfunc_failed) */
  void (*set_cfunc_failure)(void (*report)(const char *name));
  int *numpy_version;  /* rt_numpy_version */
  /* what issues a Python warning of compiled code's (rt_warn): 0, or 1
   * with the exception a warnings filter made of it, as an objmode block's */
  void (*set_warning_caller)(int (*warn)(const char *category, const char *msg, void **cls, const char **text));
  const Type *(*jitclass_declare)(const char *name, const void *cls);
  void (*jitclass_define)(const Type *t, int n, const Type *const *fields, const char *const *names);
  /* what keeps a Python object alive while compiled code holds an argument
   * array in a jitclass's field (rt_array_keep): a reference taken, one released */
  void (*set_object_keeper)(void (*retain)(void *obj), void (*release)(void *obj));
  /* the interpreter's str hash: its SipHash key and rounds per word (0: not SipHash) */
  void (*set_str_hash)(uint64_t k0, uint64_t k1, int rounds);
  const Type *(*charseq)(int n);  /* ty_charseq */
  const Type *(*byteseq)(int n);  /* ty_byteseq */
  const Type *(*slice)(int given);  /* ty_slice */
  const Type *(*funcptr)(const Type *ret, int n, const Type *const *params);  /* ty_funcptr */
  const Type *(*enum_member)(TypeKind kind, const Type *value, const void *cls, const char *name, int n,
                             const int64_t *values, const char *const *texts);  /* ty_enum */
  const Type *(*buffer)(const Type *array, char kind);  /* ty_buffer */
  const Type *(*funcs)(int n, const Type *const *members);  /* ty_funcs */
  int64_t (*set_chunksize)(int64_t n);  /* pool_set_chunksize */
  int64_t (*get_chunksize)(void);       /* pool_get_chunksize */
  /* what lets go of the interpreter's lock while a parallel loop runs, and
   * takes it back (pool_set_gil_hooks) */
  void (*set_gil_hooks)(void *(*release)(void), void (*restore)(void *state));
  const Type *(*dict_view)(const Type *dict, int part);  /* ty_dict_view */
  /* what tells Python's tracemalloc of array memory made and freed (rt_set_memory_hooks) */
  void (*set_memory_hooks)(void (*made)(void *block, size_t bytes), void (*freed)(void *block));
  /* what boxes a raise's arguments that are not numbers or str (rt_raise_objects): 0 with the message
   * that names the kept Python values, or 1 with the exception boxing raised, as an objmode block's;
   * and what lets such values go where compiled code caught the raise for good (rt_error_forget) */
  void (*set_raise_boxer)(int (*box)(const Type *args_t, void *args, const char *keywords, void **cls,
                                     const char **msg),
                          void (*forget)(const char *msg));
  bool (*pool_sized)(void);  /* pool_sized: whether Numba's threading layer would be chosen by now */
} RucheyAPI;

const RucheyAPI *ruchey_api(void);

/* Loaded code (CompileResult.code) carries what frees it: the JIT's code
 * and the cache loader's are freed differently. */
typedef struct RtCode {
  void (*release)(struct RtCode *code);
} RtCode;

/* What libruchey (the compiler, LLVM inside) gives libruchey_rt, which
 * loads it on the first compile: RucheyAPI's entries of the same names. */
typedef struct RucheyCompiler {
  int version;  /* RUCHEY_API_VERSION */
  bool (*infer)(Func *f, const Type **argtypes, const CompileOptions *opts, Diag *diag);
  bool (*generate)(Func *f, const CompileOptions *opts, OutputKind out, CompileResult *res, Diag *diag);
  char *(*describe_analyses)(Func *f, const CompileOptions *opts);
  const Type *(*unify)(const Type *a, const Type *b);
  const Builtin *(*builtin_at)(int i);
  const char *(*host_cpu)(void);
  const char *(*host_features)(void);
  /* an object file loaded by LLVM's JIT, for what rt_load_object cannot load */
  bool (*load_object)(const void *object, size_t size, const char *symbol, CompileResult *res, Diag *d);
} RucheyCompiler;

const RucheyCompiler *ruchey_compiler(void);

/* The on-disk cache's code without LLVM (loader.c): an object file OUT_JIT_KEEP
 * made, mapped, relocated against the runtime, the C library and res->externs,
 * setting res->entry and res->code. Else d says why: an object it does not
 * know (the JIT's loader may), or a damaged one. */
typedef enum { RT_LOADED, RT_LOAD_NOT_KNOWN, RT_LOAD_DAMAGED } RtLoad;
RtLoad rt_load_object(const void *object, size_t size, const char *symbol, CompileResult *res, Diag *d);
/* What code generated for this processor could be told from: its model and
 * every feature it reports (host.c), for the cache's key, without LLVM. */
const char *rt_host_identity(void);  /* NULL on processors it does not know */

/* Stage interfaces inside libruchey. */
bool ty_infer(Func *f, const Type **argtypes, const CompileOptions *opts, Diag *diag);
void rt_register_symbols(void (*define)(const char *name, void *addr, void *ctx), void *ctx);
void rt_register_containers(void (*define)(const char *name, void *addr, void *ctx), void *ctx);  /* containers.c */
void rt_set_objmode_caller(int (*call)(void *block, const Type *in_t, void *in, const Type *out_t, void *out,
                                       void **cls, const char **msg));  /* builtins/objmode.c */
int32_t rt_objmode(void *block, const Type *in_t, void *in, const Type *out_t, void *out);
void rt_set_warning_caller(int (*warn)(const char *category, const char *msg, void **cls, const char **text));
/* a Python warning of category (a builtin warning class's name): 0, or RT_ERR_RAISE where a filter made it an error */
int32_t rt_warn(const char *category, const char *msg);
void rt_set_raise_boxer(int (*box)(const Type *args_t, void *args, const char *keywords, void **cls,
                                   const char **msg),
                        void (*forget)(const char *msg));
/* raise cls(*args, **kw), args a tuple of type args_t whose references the boxing takes, its last items
 * the values of the keywords named (each name ended by '\x1f') */
void rt_raise_objects(void *cls, const Type *args_t, void *args, const char *keywords);
/* The values a raise kept for Python (rt_raise_objects) let go: of the error
 * raised (caught for good), of a copy of one no longer needed, of a copy
 * unless it is what is raised now (a bare raise raised it again) */
void rt_error_forget_raised(void);
void rt_error_forget(const RtError *copy);
void rt_error_forget_unless_raised(const RtError *copy);
void rt_register_sets(void (*define)(const char *name, void *addr, void *ctx), void *ctx);  /* sets.c */
/* random.c: numpy.random's and the random module's generators, one pair
 * per thread. A draw's distribution (RD_: a row's ival), its parameters in
 * p; the integer ones (poisson, binomial, geometric, zipf, logseries,
 * negative_binomial, hypergeometric) write int64; legacy (lib/random.c) and a
 * Generator's (lib/generator.c) alike, RD_EXPONENTIAL_INV a Generator's only. */
enum {
  RD_RANDOM, RD_UNIFORM, RD_NORMAL, RD_EXPONENTIAL, RD_GAMMA, RD_BETA, RD_CHISQUARE, RD_LOGNORMAL,
  RD_LAPLACE, RD_LOGISTIC, RD_GUMBEL, RD_PARETO, RD_RAYLEIGH, RD_WEIBULL, RD_TRIANGULAR, RD_VONMISES,
  RD_POISSON, RD_BINOMIAL, RD_GEOMETRIC,
  RD_F, RD_STANDARD_T, RD_STANDARD_CAUCHY, RD_POWER, RD_WALD, RD_NONCENTRAL_CHISQUARE, RD_NONCENTRAL_F,
  RD_ZIPF, RD_LOGSERIES, RD_NEGATIVE_BINOMIAL, RD_HYPERGEOMETRIC,
  RD_EXPONENTIAL_INV,  /* standard_exponential(method='inv') */
  RD_PY_RANDOM, RD_PY_UNIFORM, RD_PY_GAUSS, RD_PY_EXPOVARIATE,  /* the random module's state from here */
  RD_NUMBA = 1 << 8,  /* or'd into a legacy draw's RD_ for code written for Numba: gammas (and what is drawn
                       * from them) by Numba's sampler, CPython's gammavariate, as Numba's np.random has them */
};
enum { RI_NUMPY, RI_PY_RANDINT, RI_PY_RANDRANGE };  /* rt_random_ints' kinds of bounds */
void rt_register_random(void (*define)(const char *name, void *addr, void *ctx), void *ctx);
/* builtins/libdevice_rt.c: the CPU backend's helpers for cuda.libdevice */
void rt_register_libdevice(void (*define)(const char *name, void *addr, void *ctx), void *ctx);
int32_t rt_random_seed(int32_t which, int64_t seed, int32_t from_entropy);  /* which: 0 numpy, 1 random */
int32_t rt_random_draw(int32_t dist, const double *p, void *out, int64_t n);
double rt_random_double(int32_t which);
double rt_random_gauss(double loc, double scale);
int32_t rt_random_ints(int32_t how, int64_t low, int64_t high, int64_t *out, int64_t n);
int64_t rt_random_getrandbits(int64_t k);
void rt_random_shuffle(char *data, int64_t n, int64_t stride, int64_t itemsize);
void rt_random_permutation(int64_t *out, int64_t n);
/* a thread's state (which: 0 numpy, 1 random) read, written, seeded (by
 * an int, or words by init_by_array) and twisted, for numba._helperlib */
void *rt_random_state(int32_t which);
int32_t rt_random_state_read(const void *state, uint32_t *key);
void rt_random_state_write(void *state, int32_t pos, const uint32_t *key);
void rt_random_state_seed(void *state, uint32_t seed);
void rt_random_state_seed_words(void *state, const uint32_t *key, int64_t n);
void rt_random_state_twist(void *state);
/* generator.c: a numpy.random.Generator's draws (bitgen: NumPy's bitgen_t):
 * the distributions (RD_; _f32: random and the standard ones in float32),
 * integers, shuffle along an axis, choice */
int32_t rt_generator_draw(void *bitgen, int32_t dist, const double *p, void *out, int64_t n);
double rt_generator_normal(void *bitgen, double loc, double scale);
int32_t rt_generator_draw_f32(void *bitgen, int32_t dist, const double *p, void *out, int64_t n);
/* numpy.random.default_rng in compiled code: a PCG64 Generator of its own,
 * reference-counted (an argument's counts are no-ops) */
int32_t rt_generator_new(int64_t seed, int32_t from_entropy, void **out);
int32_t rt_generator_shuffle(void *bitgen, char *data, int32_t ndim, const int64_t *shape, const int64_t *strides,
                             int64_t axis, int64_t itemsize, int32_t drawn);
int32_t rt_generator_choice(void *bitgen, int64_t pop, int32_t from_int, const double *p, int64_t np, double atol,
                            int32_t replace, int32_t shuffle, int64_t *idx, int64_t n);
void rt_generator_permutation(void *bitgen, int64_t *out, int64_t n);
int32_t rt_generator_permuted(void *bitgen, char *data, int32_t ndim, const int64_t *shape, const int64_t *strides,
                              int64_t itemsize, int32_t by_axis, int64_t axis, const int64_t *order_strides,
                              int32_t as_copy);
int32_t rt_generator_multinomial(void *bitgen, const int64_t *n, int32_t n_ndim, const int64_t *n_shape,
                                 const double *pvals, int64_t d, int32_t narrow, int32_t rows_ndim,
                                 const int64_t *rows_shape, int32_t sized, int64_t *out);
int32_t rt_generator_dirichlet(void *bitgen, const double *alpha, int64_t k, double *out, int64_t rows);
/* NumPy's complaint about multinomial's d pvals (narrow: read from float32), or NULL */
const char *rt_multinomial_pvals_error(const double *p, int64_t d, int32_t narrow);
/* numpy.random.multinomial and dirichlet (random.c): RandomState's, rows draws into out */
int32_t rt_random_multinomial(int64_t n, const double *pvals, int64_t d, int32_t narrow, int64_t *out, int64_t rows);
int32_t rt_random_dirichlet(const double *alpha, int64_t k, double *out, int64_t rows, int32_t numba);
/* Generator.multivariate_normal (mvnormal_rt.c): its method= and check_valid= */
enum { MV_SVD, MV_EIGH, MV_CHOLESKY, MV_BAD_METHOD };
enum { CV_IGNORE, CV_WARN, CV_RAISE, CV_BAD };
int32_t rt_generator_multivariate_normal(void *bitgen, const double *mean, int64_t n, const double *cov,
                                         int64_t cov_rows, int64_t cov_cols, int32_t method, int32_t check,
                                         double tol, double *out, int64_t rows);
int32_t rt_generator_check_out(int32_t ndim, const int64_t *shape, const int64_t *strides, int64_t itemsize,
                               int32_t c_only, int32_t readonly);
void rt_generator_retain(void *bitgen);
void rt_generator_release(void *bitgen);
bool rt_entropy(void *buf, size_t n);  /* random.c: the system's entropy */
int32_t rt_generator_ints(void *bitgen, int64_t low, int64_t high, int32_t unsigned_bounds, int32_t endpoint,
                          int32_t bits, int32_t is_signed, void *out, int64_t n);  /* bits 1: bool */
int32_t rt_random_choice(int64_t pop, int32_t from_int, const double *p, int64_t np, double atol, int32_t replace,
                         int64_t *idx, int64_t n);
RtError *rt_last_error(void);
void rt_set_error(int status, const char *msg);
/* The lowest address this thread's stack may grow to before a check
 * (compiled recursion, the compiler's nesting) raises RecursionError. */
uintptr_t rt_stack_limit(void);
/* A call into a cycle of recursive functions from outside it (lower/calls.c):
 * the thread's stack limit, which every function of the cycle checks on
 * entry, and where one that finds the stack spent jumps back to. */
typedef struct RtStackGuard {
  uintptr_t limit;
  jmp_buf back;
} RtStackGuard;
_Noreturn void rt_recursion_error(RtStackGuard *g);
#define RT_RECURSION_MESSAGE "maximum recursion depth exceeded"
/* interrupt.c */
extern volatile int32_t rt_interrupted;  /* RT_INTERRUPT_ bits */
enum { RT_INTERRUPT_UP = 1, RT_INTERRUPT_CAUGHT = 2 };  /* Ctrl-C came; an except clause caught it */
void rt_watch_interrupts(uint64_t main_thread);
int32_t rt_interrupt_poll(void);
void rt_catch_interrupt(void);
void rt_error_int(int status, const char *fmt, int64_t v);  /* a message holding one number */
const char *rt_float_message(const char *fmt, double x);  /* fmt's %s the repr of x */
double rt_round_digits(double x, int64_t nd);  /* round(x, nd) as CPython */
int32_t rt_int_powmod(int64_t *out, int64_t b, int64_t e, int64_t m);  /* pow(b, e, m) as CPython */
void rt_partition(void *data, int64_t n, int64_t k, int32_t kind);  /* builtins/statistics.c */
/* builtins/sorting.c: each lane along axis of an array of dtype kind
 * sorted in place, or its sorting indices written into the C-contiguous
 * out of the same shape; 0, or RT_ERR_MEMORY */
int32_t rt_sort(void *data, const int64_t *shape, const int64_t *strides, int32_t ndim, int64_t axis, int32_t kind);
#define RT_SORT_STABLE 0x10000 /* or'ed into rt_sort's kind: kind="stable" or "mergesort" */
/* builtins/sort_simd.c: the instruction set the sorts use, chosen once
 * (the host's best, or a lesser one named by RUCHEY_SORT_ISA); n
 * contiguous elements of 8 or 4 bytes (SIMD_ kind) sorted in its
 * registers, as NumPy's unstable kinds, where it is not RT_SORT_SCALAR */
enum { SIMD_UNSIGNED, SIMD_SIGNED, SIMD_FLOAT };
enum { RT_SORT_SCALAR, RT_SORT_AVX2, RT_SORT_AVX512 };
int32_t rt_sort_isa(void);
void rt_simd_sort64(uint64_t *a, int64_t n, int32_t kind);
void rt_simd_sort32(uint32_t *a, int64_t n, int32_t kind);
/* ... and the indices that sort n strided elements (RT_SORT_AVX512): keys and indices n each */
void rt_simd_argsort64(const char *p, int64_t stride, int64_t n, int32_t kind, uint64_t *keys, int64_t *indices);
/* builtins/sort_avx2.c: the same sorts in AVX2 registers */
void rt_avx2_sort64(uint64_t *a, int64_t n, int32_t kind);
void rt_avx2_sort32(uint32_t *a, int64_t n, int32_t kind);
/* builtins/sort_complex.c: a lane of complex elements sorted (false: no memory), its
 * sorting indices, and the sorted elements' equal runs kept once, as rt_unique */
bool rt_sort_complex_lane(char *p, int64_t stride, int64_t n, int32_t kind);
bool rt_argsort_complex_lane(const char *p, int64_t stride, int64_t n, int32_t kind, int64_t *out, int64_t out_stride);
int64_t rt_unique_complex(void *data, int64_t n, int32_t kind, int64_t *counts);
/* order[0..n) (indices of a lane's elements at p) sorted stably by those elements (false: no memory): a
 * numpy.lexsort key of complex (sort_complex.c) or of str or bytes items of size bytes (sort_text.c) */
bool rt_order_by_complex(const char *p, int64_t stride, int64_t n, int32_t kind, int64_t *order);
bool rt_order_by_text(const char *p, int64_t stride, int64_t n, int32_t kind, int64_t size, int64_t *order);
/* the equal runs of n sorted elements kept once, in place; their lengths in counts (or NULL) */
int64_t rt_unique(void *data, int64_t n, int32_t kind, int64_t *counts);
/* numpy.unique's positions: n size-byte elements gathered at order; each run's first position and each element's run */
void rt_gather(void *dst, const void *src, const int64_t *order, int64_t n, int64_t size);
void rt_unique_positions(const int64_t *order, const int64_t *counts, int64_t m, int64_t *index, int64_t *inverse);
/* rt_sort, rt_argsort and rt_unique of arrays of str or bytes (kind TY_CHARSEQ, TY_BYTESEQ) of size-byte items;
 * builtins/sort_text.c sorts their lanes (false: no memory) */
int32_t rt_sort_text(void *data, const int64_t *shape, const int64_t *strides, int32_t ndim, int64_t axis, int32_t kind,
                     int64_t size);
int32_t rt_argsort_text(const void *data, const int64_t *shape, const int64_t *strides, int32_t ndim, int64_t axis,
                        int32_t kind, int64_t size, int64_t *out);
bool rt_sort_text_lane(char *p, int64_t stride, int64_t n, int32_t kind, int64_t size);
bool rt_argsort_text_lane(const char *p, int64_t stride, int64_t n, int32_t kind, int64_t size, int64_t *out,
                          int64_t out_stride);
int64_t rt_unique_text(void *data, int64_t n, int32_t kind, int64_t size, int64_t *counts);
/* builtins/arraymath.c: NumPy's add.reduce of n floats (float32 or float64) */
double rt_sum(const char *p, int64_t n, int64_t stride, int32_t kind);
/* NumPy's add.reduce of a float array (shape, byte strides) along the axes in mask (bits), in one pass as NumPy
 * walks them, into out (C-ordered results of the axes kept); 0 or RT_ERR_MEMORY */
int32_t rt_sum_axes(const char *p, const int64_t *shape, const int64_t *strides, int32_t ndim, int64_t mask,
                    int32_t kind, void *out);
void rt_sum_complex(const char *p, int64_t n, int64_t stride, int32_t kind, bool nan_zero, void *out);
/* builtins/numpy.c: the modified Bessel function of the first kind, order 0, as numpy.i0 */
double rt_i0(double x);
/* numpy.nditer's order='K' (ndindex_rt.c): element k of the broadcast shape
 * dims (ndim axes) as its index idx, the axes walked by the nop operands'
 * strides (nop * ndim of them in bytes, 0 along an axis one is broadcast
 * over), innermost the smallest, one that is negative walked backwards. */
void rt_nditer_index(int32_t ndim, int32_t nop, const int64_t *dims, const int64_t *strides, int64_t k,
                     int64_t *idx);
/* The functions rt_cmath computes (a cmath row's ival) */
enum {
  CM_SQRT, CM_EXP, CM_LOG, CM_LOG10, CM_SIN, CM_COS, CM_TAN, CM_ASIN, CM_ACOS, CM_ATAN,
  CM_SINH, CM_COSH, CM_TANH, CM_ASINH, CM_ACOSH, CM_ATANH,
  /* NumPy's ufuncs of complex that cmath lacks */
  CM_EXP2, CM_LOG2, CM_LOG1P, CM_EXPM1, CM_RECIPROCAL, CM_SIGN, CM_RINT,
};
/* builtins/complex_rt.c: cmath's function fn (its CM_ number) of re + im j into
 * out[2], with CPython's errors if python (recorded, the status returned);
 * a ** b, CPython's or (numpy) NumPy's, or Numba's (rt_complex_pow_numba) */
int32_t rt_cmath(int32_t fn, double re, double im, int32_t python, double *out);
/* Numba's formula for cmath's fn (trigonometric, hyperbolic, inverse) of re + im j into out[2], or for NumPy's
 * function of that name (numpy) */
void rt_cmath_numba(int32_t fn, double re, double im, int32_t numpy, double *out);
/* NumPy's function fn (numpy), else cmath's, of a complex64 re + im j into out[2], as Numba computes it (float32
 * formulas; cmath's tanh, acosh and log10 go on in float64) */
void rt_cmath_numba32(int32_t fn, float re, float im, int32_t numpy, double *out);
int32_t rt_complex_pow(double ar, double ai, double br, double bi, int32_t numpy, int32_t python314, double *out);
void rt_complex_pow_numba(double ar, double ai, double br, double bi, int32_t python314, double *out);  /* Numba's */
/* builtins/searching.c: digitize's bins: 1 increasing, -1 decreasing, 0 neither */
int32_t rt_monotonic(const char *data, int64_t n, int64_t stride, int32_t kind);
/* builtins/searching_rt.c: interp's segment of key among n points xp, searched from guess as NumPy does */
int64_t rt_interp_search(double key, const char *xp, int64_t n, int64_t stride, int32_t kind, int64_t guess);
/* builtins/bytes_rt.c: bytes values (contiguous RtArrays of uint8) */
int64_t rt_bytes_order(const char *a, int64_t na, const char *b, int64_t nb);
int32_t rt_bytes_from_chars(RtArray *out, const char *chars, int64_t n);  /* a '|Sn' item as a bytes */
void rt_bytes_to_chars(char *chars, int64_t n, const RtArray *s);         /* a bytes stored into a '|Sn' item */
int64_t rt_bytes_python_hash(const RtArray *b);  /* strings.c: hash(b) as the interpreter's */
int64_t rt_bytes_find(const char *s, int64_t len, const char *sub, int64_t n);
int32_t rt_bytes_slice(RtArray *out, const RtArray *s, int64_t start, int64_t stop, int64_t step);
int32_t rt_bytes_concat(RtArray *out, const RtArray *a, const RtArray *b);  /* a + b */
int32_t rt_bytes_repeat(RtArray *out, const RtArray *s, int64_t n);         /* s * n */
/* bytes' methods (a row's ival): tests, searches, and those making a new bytes */
enum { BM_ISASCII, BM_STARTSWITH, BM_ENDSWITH, BM_STRIP, BM_LSTRIP, BM_RSTRIP, BM_LJUST, BM_RJUST, BM_CENTER, BM_ZFILL,
       BM_FIND, BM_RFIND, BM_INDEX, BM_RINDEX, BM_COUNT, BM_UPPER, BM_LOWER, BM_ISUPPER, BM_ISLOWER, BM_ISDIGIT,
       BM_ISALPHA, BM_ISALNUM, BM_ISSPACE };
int32_t rt_bytes_test(int32_t fn, const char *s, int64_t len, const char *sub, int64_t n, int64_t start, int64_t end);
int64_t rt_bytes_search(int32_t fn, const char *s, int64_t len, const char *sub, int64_t n, int64_t start, int64_t end);
int32_t rt_bytes_make(RtArray *out, int32_t fn, const RtArray *s, const char *arg, int64_t n, int64_t width);
struct RtList;
int32_t rt_bytes_split(struct RtList **out, const RtArray *s, const char *sep, int64_t seplen, int64_t maxsplit);
int32_t rt_bytes_join(RtArray *out, const RtArray *sep, const RtArray *items, int64_t n);
int32_t rt_argsort(const void *data, const int64_t *shape, const int64_t *strides, int32_t ndim, int64_t axis, int32_t kind,
                   int64_t *out);
/* builtins/sorting_rt.c: numpy.lexsort along axis of keys of one shape (ndim axes), the last deciding first,
 * into the C-ordered out: nparts arrays of keys of kinds[k] (items of sizes[k] bytes), each counts[k] keys along
 * its first axis (strides: ndim + 1 per part); 0, RT_ERR_TYPE where there is no key, or RT_ERR_MEMORY */
int32_t rt_lexsort(int32_t nparts, const void *const *data, const int32_t *kinds, const int64_t *sizes,
                   const int64_t *counts, const int64_t *strides, const int64_t *shape, int32_t ndim, int64_t axis,
                   int64_t *out);
/* builtins/blas.c, lapack.c: the matrix products and numpy.linalg's
 * functions (LA_: a row's ival); the BLAS and LAPACK routines they call,
 * named as in scipy.linalg.cython_blas and cython_lapack (the names
 * wanted, NULL-terminated), and numpy.linalg.LinAlgError, set by the
 * extension. */
enum { LA_DOT, LA_MATMUL, LA_INNER, LA_VDOT, LA_SOLVE, LA_INV, LA_DET, LA_TENSORSOLVE, LA_TENSORINV };
/* builtins/decomp_rt.c: the rest of numpy.linalg (DC_, a row's ival), of
 * a (and b) of elements of kind, with a number p and flags (LF_) that the
 * call's arguments gave; new arrays in out[0..3], numbers at scalar[0..3]. */
enum { DC_SLOGDET, DC_CHOLESKY, DC_EIGH, DC_EIG, DC_SVD, DC_QR, DC_LSTSQ, DC_PINV, DC_NORM, DC_COND, DC_RANK,
       DC_POWER, DC_COV, DC_ROOTS };
enum { LF_VECTORS = 1, LF_UPPER = 2, LF_FULL = 4, LF_COMPLETE = 8, LF_R_ONLY = 16, LF_DEFAULT = 32, LF_FRO = 64,
       LF_NUC = 128, LF_ROWVAR = 256, LF_BIAS = 512, LF_CORR = 1024, LF_SCALAR = 2048,
       LF_HERMITIAN = 4096, LF_NRM2 = 8192 /* a vector's 2-norm by BLAS's nrm2, as Numba's (numba_code) */ };
int32_t rt_decomp(int32_t op, int32_t kind, const RtArray *a, int32_t nda, const RtArray *b, int32_t ndb, double p,
                  int32_t flags, RtArray *out, double *scalar);
/* solve, inv, det of complex and float64 matrices as NumPy computes them: LAPACK's getrf or gesv of a
 * column-major copy, det from its slogdet (rt_linalg's arguments) */
int32_t la_gesv_linalg(int32_t op, int32_t kind, const RtArray *a, const RtArray *b, int32_t ndb, RtArray *out,
                          void *scalar);
int32_t rt_matrix_product(int32_t op, int32_t kind, const RtArray *a, int32_t nda, const RtArray *b, int32_t ndb,
                          RtArray *out, void *scalar, const RtArray *dest);
int32_t rt_linalg(int32_t op, int32_t kind, const RtArray *a, int32_t nda, const RtArray *b, int32_t ndb,
                  RtArray *out, void *scalar, const RtArray *dest);
/* builtins/stack_rt.c: rt_linalg's and rt_decomp's functions of stacks of matrices */
int32_t rt_linalg_stack(int32_t op, int32_t kind, const RtArray *a, int32_t nda, const RtArray *b, int32_t ndb,
                        RtArray *out);
int32_t rt_decomp_stack(int32_t op, int32_t kind, const RtArray *a, int32_t nda, double p, int32_t flags,
                        RtArray *out);
/* builtins/polynomial_rt.c: numpy.polynomial.polynomial's functions of
 * coefficient vectors (a, and b or the order m; polyint's and polyder's a
 * of nda dimensions, a polynomial along axis 0 for each index of the
 * others), into out[0] (polydiv's remainder out[1]); 0 or an RT_ERR_
 * status with the error set */
enum { PL_ADD, PL_SUB, PL_MUL, PL_DIV, PL_INT, PL_DER };
int32_t rt_poly(int32_t op, int32_t kind, const RtArray *a, int32_t nda, const RtArray *b, int64_t m, RtArray *out);
/* builtins/fft_rt.c: numpy.fft's and scipy.fft's transforms (op: FFT_FFT ...
 * FFT_IHFFT, over naxes axes, each to its length s[i]: FFT_DEFAULT_N for the
 * default; how: FFT_ND for the n-d functions' -1 in s, FFT_SCIPY for
 * scipy.fft's rules and messages) of a (ndim dimensions, elements of kind:
 * float32, float64 or their complex) into out (elements of out_kind);
 * numpy.roll over naxes axes by shifts (half: NULL shifts, each axis's
 * length // 2, fftshift's; -1 ifftshift's back) of any elements of item
 * bytes; fftfreq/rfftfreq (real) as float64. 0 or an RT_ERR_ status. */
enum { FFT_FFT, FFT_IFFT, FFT_RFFT, FFT_IRFFT, FFT_HFFT, FFT_IHFFT };
enum { FFT_BACKWARD, FFT_ORTHO, FFT_FORWARD };
enum { FFT_ND = 1, FFT_SCIPY = 2 };
#define FFT_DEFAULT_N INT64_MIN
int32_t rt_fft(int32_t op, int32_t kind, int32_t out_kind, const RtArray *a, int32_t ndim, int32_t naxes,
               const int64_t *axes, const int64_t *s, int32_t how, int32_t norm, RtArray *out);
int32_t rt_roll(const RtArray *a, int32_t ndim, int64_t item, int32_t naxes, const int64_t *axes, const int64_t *shifts,
                int32_t half, RtArray *out);
int32_t rt_fftfreq(int64_t n, double d, int32_t real, RtArray *out);
/* scipy.fft.next_fast_len(target, real): into *out */
int32_t rt_next_fast_len(int64_t target, int32_t real, int64_t *out);
/* numpy.linalg.tensorsolve (b) and tensorinv (ind): a reshaped into one matrix */
int32_t rt_tensor(int32_t op, int32_t kind, const RtArray *a, int32_t nda, const RtArray *b, int32_t ndb, int64_t ind,
                  RtArray *out);
/* builtins/norm_rt.c: numpy.linalg.norm with axis= or keepdims= */
int32_t rt_norm_axes(int32_t kind, const RtArray *a, int32_t nd, double p, int32_t flags, int32_t naxes, int64_t ax0,
                     int64_t ax1, int32_t keepdims, RtArray *out, double *scalar);
/* builtins/multi_dot.c: numpy.linalg.multi_dot of count arrays (the first and
 * the last of first_nd, last_nd dimensions), or of a typed list's (of nd) */
struct RtList;
int32_t rt_multi_dot(int32_t kind, const RtArray *arrays, int64_t count, int32_t first_nd, int32_t last_nd,
                     RtArray *out, void *scalar);
int32_t rt_multi_dot_list(int32_t kind, const struct RtList *list, int32_t nd, RtArray *out, void *scalar);
void rt_set_routine(const char *name, void *fn);
void rt_set_linalg_error(void *cls);
extern const char *const la_blas_names[], *const la_lapack_names[];
void rt_raise(void *cls, const char *msg);
void rt_raise_where(const char *where);  /* the place of the raise just recorded (RtError.where) */
/* runtime.c: the place of a raise in a kernel compiled with debug=True, with the thread that raised */
void rt_kernel_raise_where(const char *where, int64_t tx, int64_t ty, int64_t tz, int64_t bx, int64_t by,
                           int64_t bz);
/* runtime.c: except clauses; whether the error raised is one of base's (a
 * Python class) subclasses, found by the extension's matcher */
void rt_set_exception_matcher(int (*matches)(void *cls, void *base));
int32_t rt_exception_matches(void *base);
/* runtime.c: a @cfunc's failure, reported by the extension's function */
void rt_set_cfunc_failure(void (*report)(const char *name));
void rt_cfunc_failed(const char *name);
void rt_error_copy(RtError *dst);  /* the error raised, kept for a bare raise */
void rt_error_restore(const RtError *src);
RtMemInfo *rt_alloc(int64_t nbytes);  /* runtime.c */
/* a new array's block, its shape checked as NumPy checks it, in *out: 0 or the error's status */
int32_t rt_alloc_array(int32_t ndim, const int64_t *shape, int64_t itemsize, RtMemInfo **out);
/* made and freed are told of each array's block as rt_alloc makes it and
 * its last release frees it (the extension tells tracemalloc, as Numba's
 * allocator does through PyMem_RawMalloc); NULL: nobody is told. */
void rt_set_memory_hooks(void (*made)(void *block, size_t bytes), void (*freed)(void *block));
RtGenState *rt_gen_new(int64_t nbytes);  /* runtime.c: a generator's zeroed state, or NULL with MemoryError */
void rt_gen_free(RtGenState *s);         /* its last release */
void rt_meminfo_free(RtMemInfo *mi);
bool rt_meminfo_dtor_free(RtMemInfo *mi);  /* containers.c: a managed MemInfo's last release (false: none) */
void *rt_nrt_api(void);                  /* nrt.c: Numba's NRT_api_functions table, over RtMemInfo */
void rt_register_nrt(void (*define)(const char *name, void *addr, void *ctx), void *ctx);
void rt_error_format(int status, const char *fmt, int64_t a, int64_t b, int64_t c, int64_t d);
void rt_shape_error(int64_t kind, const int64_t *desc);
void rt_copy_strided(int64_t ndim, const int64_t *shape, char *dst, const int64_t *dst_strides, const char *src,
                     const int64_t *src_strides, int64_t itemsize);
/* fiber.c */
/* local_bytes: what the kernel's local arrays take on each thread's stack */
int rt_fiber_block(int (*body)(void *ctx, int64_t thread), void *ctx, int64_t n, int64_t local_bytes);
void rt_fiber_barrier(const char *site);
/* the blocks of a kernel that waits for its grid, each a fiber: chunk runs
 * block b as chunk(ctx, b, b + 1, handle), and rt_grid_sync(handle)
 * switches out of it until every block has reached the barrier */
int rt_grid_run(void (*chunk)(void *ctx, int64_t begin, int64_t end, int64_t handle), void *ctx,
                int64_t nblocks);
void rt_grid_sync(int64_t handle);
void rt_fiber_grid_sync(const char *site);  /* grid.sync() reached by a thread run as a fiber */
uint64_t rt_fiber_collective(int op, const char *site, uint64_t a0, uint64_t a1, uint64_t a2);
/* warp.c: a collective's results for the n threads of a block, from the
 * arguments each gave (a0..a2[t]) and which have returned (done[t]) */
void rt_collective(int op, int64_t n, const uint8_t *done, const uint64_t *a0, const uint64_t *a1,
                   const uint64_t *a2, uint64_t *out);
/* one warp's: the lanes in part take part, lane i's arguments are a[i] */
void rt_warp_results(int op, uint32_t part, int nlanes, const uint64_t *a0, const uint64_t *a1,
                     const uint64_t *a2, uint64_t *out);
/* a block's (COLL_BLOCK_*): the threads not done take part */
uint64_t rt_block_result(int op, int64_t n, const uint8_t *done, const uint64_t *pred);
void rt_meminfo_release(RtMemInfo *mi);
/* print.c: print() on the CPU: fmt's %lld %llu %f %s take args in turn, 8
 * bytes each; a kernel's lines wait in the thread's buffer until its chunk
 * of blocks ends (rt_print_flush, with the chunk's first block), then until
 * the launch ends (rt_print_write_out), which writes them in block order */
void rt_print(const char *fmt, const uint64_t *args, bool buffered);
void rt_set_print_sink(void (*sink)(const char *text, size_t len), double float32_exponent_from);
void rt_print_flush(int64_t first_block);
const size_t *rt_print_buffered(void);  /* the calling thread's count of bytes waiting */
size_t rt_float_repr(char *out, double d, bool single);  /* Python's repr of a float (single: NumPy's str of a float32) */
/* runtime.c: the installed NumPy's major version (2 until the extension
 * says), where compiled code follows a rule NumPy 2 changed */
extern int rt_numpy_version;  /* the installed NumPy's: major * 100 + minor */
void rt_print_write_out(void);
/* runtime.c: a device function's shared array on the CPU backend */
void *rt_block_shared(const void *site, int64_t bytes);
/* a kernel block's storage too big for a stack (lower/kernel.c); NULL for 0 bytes */
void *rt_block_storage(int64_t bytes);
void rt_block_storage_free(void *p);

#endif
