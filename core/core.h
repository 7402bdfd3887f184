/* core.h — shared by the files of the ruchey._core extension:
 *   module.c    the module, loading libruchey, the identities of the Python objects compiled code names
 *   source.c    a Python function's source, wherever Python keeps it, parsed by ast
 *   frontend.c  a Python function's syntax tree to ruchey's IR
 *   typeof.c    the interned type of each argument; type descriptions from ruchey.types
 *   box.c       arguments unboxed for compiled code, results boxed for Python
 *   compile.c   the compile pipeline: frontend, libruchey's typing and generation, callees
 *   dispatch.c  the Dispatcher: specialisations and the call path
 *   launch.c    kernel launches, on the CPU backend and on a GPU
 *   ufunc.c     NumPy ufuncs of compiled loops (@vectorize)
 *   gufunc.c    generalized ufuncs of compiled functions (@guvectorize)
 *   cudadrv.c   the CUDA driver
 */
#ifndef RUCHEY_CORE_H
#define RUCHEY_CORE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "containers.h"
#include "ruchey.h"

#define MAX_ARGS 256  /* parameters of a compiled function */

/* ---------------------------------------------------------------- module.c */

/* The base of the compiler's errors (Numba's NumbaError): a typing function's
 * exception of another class is the user's, raised unchanged. */
extern PyObject *core_NumbaError;
extern PyObject *core_TypingError;
/* A compile asked for arguments' values (literally()) it was not given. */
extern PyObject *core_LiteralRequest;
/* An argument compiled code cannot take: a TypingError, as Numba raises
 * (packages catch it to convert the argument: stingray's float128 times),
 * and a TypeError, as Python would. */
extern PyObject *core_ArgumentTypeError;
extern PyObject *core_TypingAttributeError;  /* a TypingError and an AttributeError: getattr() of a missing name */
/* libruchey, loaded on first use (the first compile), or NULL with an
 * exception set. */
const RucheyAPI *core_api(void);
/* Ctrl-C: libruchey's flag (lowered by the main thread as it enters
 * compiled code), and SIGINT's handler chained again (before compiles) */
extern volatile int32_t *core_interrupted;
extern unsigned long core_main_thread;
void core_watch_interrupts(void);
/* Compile-time identities of Python objects named in compiled code; -1 and
 * no exception when the object is not one of them. */
const Builtin *core_builtin(PyObject *obj);          /* a builtin's Python object */
const Builtin *core_builtin_named(const char *name); /* a builtin no object names ("a ruchey function") */
/* the flags of the builtin methods called name, of any receiver (*flags): how their calls' arguments are
 * read; false where there is none (a jitclass's, an extension's method: a compiled function's arguments) */
bool core_method_flags(const char *name, unsigned *flags);
int core_module_id(PyObject *obj);
/* The module a ModuleId names (a new reference), or NULL with an exception. */
PyObject *core_module_object(int id);
/* Hands libruchey SciPy's BLAS and LAPACK routines and numpy.linalg.LinAlgError,
 * once; no routines where SciPy is missing. */
void core_load_blas(void);
extern int core_blas_requests;  /* calls of core_load_blas: whether a compile named BLAS */
bool core_is_unicode_type(PyObject *obj);  /* ruchey.types.unicode_type: an item type, no dtype */
int core_dtype_kind(PyObject *obj);
/* Raises a Diag as ruchey.TypingError (or RuntimeError for internal
 * errors), quoting the source line with a caret. */
void core_raise_diag(const Diag *d, const char *filename);

/* ---------------------------------------------------------------- source.c */

/* Watches exec(), eval() and compile() of strings so that the functions
 * defined in them can be compiled; once, at import. */
int src_watch(void);
/* The def (or lambda) node of pyfunc's source, a new reference, with the
 * offsets that map its lines and columns to the source's; NULL with a
 * TypingError that says what to do where no source defines it. */
PyObject *src_parse_function(PyObject *pyfunc, int *line_offset, int *col_offset);

/* ---------------------------------------------------------------- frontend.c */

/* self: the dispatcher compiling pyfunc (its own name is it before the module binds the name), or NULL;
 * frozen: per parameter the constant its calls freeze it to (CompileOptions.frozen), or NULL */
Func *fe_read_function(PyObject *pyfunc, PyObject *self, const Node *const *frozen, Arena *arena, Diag *diag);
/* A call through a function value bound to disp's parameters, as a direct
 * call is: omitted arguments take disp's defaults (nodes in arena). */
bool fe_bind_value_call(Arena *arena, Diag *diag, Node *call, PyObject *disp);
/* The dtype a str names, for the compile's options (CompileOptions.dtype_named). */
const Type *fe_dtype_named(const char *name, bool *known);
/* The symbol compiled code names an exception class by (a new reference),
 * the class kept alive for the process. */
PyObject *fe_class_symbol(PyObject *cls);

/* ---------------------------------------------------------------- typeof.c */

/* Loaded with libruchey: the types without parameters, by TypeKind. */
extern const Type *core_plain;
/* The type of an argument's value, or NULL (no exception) if compiled code
 * cannot take it. Python numbers, NumPy scalars and arrays take a fast
 * path through a table of fingerprints, as Numba's _typeof.cpp. Needs
 * libruchey loaded (core_plain set). */
const Type *disp_typeof(PyObject *o);
/* A new ndarray over the buffer of o, a bytearray or memoryview, which
 * compiled code takes as that array (Numba's ByteArray, MemoryView); NULL
 * with an exception if NumPy cannot view it. */
PyObject *disp_buffer_array(PyObject *o);
/* Why disp_typeof gave o no type, as the end of a sentence ("is an array
 * of dtype ..."); NULL with an exception on failure. */
PyObject *disp_refusal(PyObject *o);
/* A NumPy dtype number's TypeKind (-1: none), and back. */
int disp_dtype_kind(int type_num);
/* records.c: a structured dtype's record type (NULL if a field is not
 * supported), why not, a numpy.void argument's bytes, a record type's dtype */
struct _PyArray_Descr;
const Type *disp_record_type(struct _PyArray_Descr *d);
const Type *disp_time_type(struct _PyArray_Descr *d);  /* datetime64[unit] of an M8/m8 dtype, or NULL */
struct _PyArray_Descr *disp_time_descr(const Type *t);  /* its dtype, a new reference */
struct _PyArray_Descr *disp_elem_descr(const Type *e);  /* box.c: an array's dtype of elements e, a new reference */
const Type *disp_dtype_time(PyObject *o);
/* A str or bytes dtype of a width ('U5', 'S3') as its arrays' element, or NULL (no exception). */
const Type *disp_dtype_text(PyObject *o);
const Type *disp_text_class(PyObject *o);  /* numpy.str_, numpy.bytes_ as a dtype: '<U0', '|S0'; else NULL */
/* Whether o may be a native function ruchey.native describes (a ctypes
 * function pointer, a WrapperAddressProtocol object, a cffi function),
 * asked before calling into Python, which most objects need not. */
bool disp_may_be_native(PyObject *o);
const Type *disp_type_object(PyObject *o);  /* the type a ruchey.types object (types.int64[:], ListType(...)) describes, else NULL */
int disp_time_class_kind(PyObject *cls);  /* numpy.datetime64: TY_DATETIME, numpy.timedelta64: TY_TIMEDELTA; else -1 */
const Type *disp_scalar_time(PyObject *o);  /* o a numpy.datetime64 or timedelta64: its type, or NULL */  /* o a dtype object of datetime64[unit] or timedelta64[unit], or NULL */
PyObject *disp_record_refusal(struct _PyArray_Descr *d);
void *disp_record_data(PyObject *o);
struct _PyArray_Descr *disp_record_descr(const Type *t);  /* a new reference, or NULL with TypeError */
const Type *disp_record_global(PyObject *obj);
PyObject *disp_box_record(const Type *t, const char *p);  /* a numpy.record holding a copy of p's bytes */  /* NULL: not a structured dtype, or a TypeError set */
int disp_kind_type_num(TypeKind k);
/* jitclass.c: jitclass instances (boxes of _core.JitObject): an object's
 * type (NULL: not one), its native object, a result boxed (its reference
 * taken over); a jitclass (the class); the instances' type of the
 * allocator a constructor calls; a member's dispatcher (find_member's) */
const Type *jitclass_typeof(PyObject *o);
void *jitclass_unbox(PyObject *o);
PyObject *jitclass_box(const Type *t, void *obj);
bool jitclass_is_class(PyObject *o);
const Type *jitclass_class_instances(PyObject *cls);  /* a jitclass (Point itself): its instances' type, or NULL */
const Type *jitclass_instance_type(PyObject *o);
const Type *jitclass_new_type(PyObject *o);
void *jitclass_member(const Type *t, const char *name, bool attribute);
PyObject *jitclass_declare(PyObject *self, PyObject *cls);
/* Arrays kept by a field or a container item hold a reference to their
 * Python object (rt_array_keep): the hooks that take and drop it, set once
 * in this extension's copy of the containers (api NULL: at import) and
 * once in libruchey's (when it is loaded). */
void jitclass_keep_objects(const RucheyAPI *api);
PyObject *jitclass_make_type(PyObject *self, PyObject *args);
int jitclass_add_to_module(PyObject *m);
/* namedtuples.c: a named tuple class's item names (a new reference; NULL,
 * no exception, for another class), the type of an instance of it with
 * these items' types (NULL: not one), and a result boxed as one (items:
 * a new tuple, consumed) */
PyObject *core_namedtuple_fields(PyTypeObject *cls);
const Type *disp_named_tuple_type(PyTypeObject *cls, int n, const Type *const *fields);
/* rt_raise_objects' boxer: the tuple at args boxed and kept for the raise, and what lets it go (box.c) */
int disp_keep_raise_args(const Type *args_t, void *args, const char *keywords, void **cls, const char **msg);
void disp_forget_raise_args(const char *msg);
PyObject *disp_box_named(const Type *t, PyObject *items);
/* objmode.c: hands libruchey what runs the interpreter for it: objmode blocks, warnings, the GIL
 * around parallel loops, tracemalloc told of array memory */
void core_register_objmode(const RucheyAPI *api);
PyObject *core_trace_memory(PyObject *self, PyObject *on);  /* _trace_memory(on): tracemalloc traces or not */
void cfunc_report_failure(const char *name);  /* cfunc.c: what rt_cfunc_failed calls */
/* ruchey.types' description (kind, ndim, layout) as a type; NULL with an
 * exception if invalid. */
const Type *disp_described_type(PyObject *d);
/* A kernel's launch bounds, a tuple of up to 3 positive ints (None: none), into
 * CompileOptions.launch_bounds; false with an exception if not such. */
bool disp_launch_bounds(PyObject *given, int bounds[3]);
/* A return type as Python sees it: (kind, ndim, layout), "none", or its name. */
PyObject *disp_describe_type(const Type *t);
PyObject *disp_typeof_described(PyObject *module, PyObject *o);
PyObject *disp_unify_described(PyObject *module, PyObject *args);
/* "(float64, array(int64, 1d, C))" */
PyObject *disp_signature_text(const Type *const *types, int n);
/* What passing an argument of type `have` for a parameter of an explicit
 * signature's type `want` costs: 0 the same type, more the more the
 * conversion may change it; -1 where it cannot be passed. */
int disp_conversion_cost(const Type *want, const Type *have);

/* ---------------------------------------------------------------- box.c */

extern PyTypeObject MemInfoType;
extern PyTypeObject YieldsType;  /* box.c: a compiled generator's generator */
/* box.c: the generator object a compiled function returned into p, keeping
 * owner (the dispatcher called) and the call's arguments */
PyObject *disp_box_yields(const Type *t, char *p, PyObject *owner, PyObject *const *args, int nargs);
/* One argument's unboxed value: scalars in the union, arrays in an RtArray. */
typedef union Slot {
  int64_t i;
  uint64_t u;
  double f;
  float f32;
  uint8_t b;
  double c[2];  /* complex64 and complex128 */
} Slot;
/* Unboxes o as type t into slot (or arr, for arrays); *arg points at the
 * value. A compatible Python value converts as Python would. */
int disp_unbox(PyObject *o, const Type *t, Slot *slot, RtArray *arr, void **arg);
bool disp_is_generator(PyObject *o);  /* typeof.c: a numpy.random.Generator */
/* The RtArrays of unboxing space an argument of type t takes: an array
 * one, a tuple its storage's worth. */
static inline int disp_arg_units(const Type *t) {
  if (ty_enum_value(t)->kind == TY_TUPLE) t = ty_enum_value(t);  /* (a member of tuple values: its tuple) */
  if (t->kind == TY_TUPLE) return (int)(t->size / sizeof(RtArray)) + 1;
  return t->kind == TY_ARRAY || t->kind == TY_BYTES || t->kind == TY_SLICE;  /* (a slice's three int64 in an RtArray's room) */
}
/* A tuple o into t's storage layout at p (arr of disp_unbox: t->size bytes, RtArray-aligned). */
int disp_unbox_tuple(PyObject *o, const Type *t, char *p);
/* enums.c: enum members. Whether o is an enum class; a class's name as
 * messages give it; its members' type (NULL: none); a member's type (NULL:
 * o is none, or its class's values cannot be held), why its class is
 * refused (NULL: o is no member of a refused class); a member unboxed into
 * slot (its value) and a result boxed (the member itself) */
bool core_is_enum_class(PyObject *o);
const char *core_enum_name(PyObject *cls);
const Type *disp_enum_type(PyObject *cls);
const Type *disp_enum_typeof(PyObject *o);
const Type *disp_enum_recent(PyObject *o);  /* the same for a member of a class typed lately, else NULL: no lookups */
PyObject *disp_enum_refusal(PyObject *o);
int disp_unbox_enum(PyObject *o, const Type *t, Slot *slot, RtArray *arr, void **arg);
PyObject *disp_box_enum(const Type *t, char *p);
/* values.c: value types of a package's own (numba.extending's StructModel
 * types). Registering a class and its converter, a named tuple class and
 * its boxer (_core functions); an object's type (NULL: its class is not
 * registered, or the object cannot be converted); why it is refused (NULL:
 * its class is not registered); an object unboxed as its members' named
 * tuple t; the boxer of a named tuple type (borrowed; NULL: none); a
 * global object frozen as its named tuple (NULL, no exception: not such
 * an object). */
PyObject *core_value_class(PyObject *self, PyObject *args);
/* a class registered by a call of register() where its objects are first
 * seen, by its "module.qualname"; a class registered so now, if it is one */
PyObject *core_value_class_later(PyObject *self, PyObject *args);
PyObject *core_value_register_later(PyObject *self, PyObject *cls);
PyObject *core_value_hooks(PyObject *self, PyObject *args);
PyObject *disp_value_constant(PyObject *o);
PyObject *core_value_boxer(PyObject *self, PyObject *args);
const Type *disp_value_typeof(PyObject *o);
PyObject *disp_value_refusal(PyObject *o);
int disp_unbox_value(PyObject *o, const Type *t, char *p);
PyObject *disp_value_boxer(const Type *t);
/* typed.c: ruchey.typed.List and Dict. A typed container's type (NULL if
 * it is not one, or its item types are unknown); why a list, dict or
 * untyped container is refused (NULL for other objects); the C container
 * an object holds; a returned container (its reference) as an object. */
const Type *typed_typeof(PyObject *o);
bool typed_is_class(PyObject *o);  /* List or Dict itself: their empty_list/empty name rows */
int typed_class_kind(PyObject *o); /* TY_LIST for List itself, TY_DICT for Dict, else -1 */
PyObject *typed_refusal(PyObject *o);
void *typed_container(PyObject *o);
PyObject *typed_box(const Type *t, void *c);
/* After a call: the argument arrays compiled code stored in container c
 * (of type t, made in Python) made to keep their objects alive. */
void typed_keep_arrays(const Type *t, void *c);
/* Python sets (Numba's reflected sets): copied in, written back after the call */
const Type *typed_set_typeof(PyObject *o);
const Type *typed_set_type(const Type *item);
int typed_set_unbox(PyObject *o, const Type *t, Slot *slot);
PyObject *typed_set_box(const Type *t, RtDict *d);
int typed_set_reflect(PyObject *o, const Type *t, RtDict *d);
/* Python lists (Numba's reflected lists): copied in, written back after the call */
const Type *typed_pylist_typeof(PyObject *o);
const Type *typed_pylist_of_lists(PyObject *o);  /* a list of lists, where a signature declares one */
PyObject *typed_pylist_refusal(PyObject *o);
int typed_pylist_unbox(PyObject *o, const Type *t, Slot *slot);
int typed_pylist_reflect(PyObject *o, const Type *t, RtList *l);
int typed_add_to_module(PyObject *m);
bool typed_is_dict_class(PyObject *o);  /* whether o is typed.Dict itself */
/* The str, set and Python list arguments among the first n unboxed into
 * slots (or into the tuples argp points to) released, the sets and lists
 * written back when called (box.c). */
void disp_release_args(const Type *const *types, Slot *slots, void *const *argp, int n, PyObject *const *args,
                       bool called);
/* A result t at p boxed, where a list, dict or set the call took as an
 * argument comes back (a tuple's item too) that argument object, as Numba
 * returns a reflected list or set and a typed container passed. */
PyObject *disp_box_returned(const Type *const *types, Slot *slots, void *const *argp, PyObject *const *args, int n,
                            const Type *t, char *p);
/* Whether t is a list, dict or set, or a tuple holding one. */
bool disp_holds_container(const Type *t);
/* Whether the array at a is o itself: its data, shape and strides (an argument array handed back). */
bool disp_same_array(const Type *t, const RtArray *a, PyObject *o);
bool disp_holds_strings(const Type *t);
/* A result in its storage layout as a Python object (a new reference;
 * the result's own references, to strings, are released). */
PyObject *disp_box(const Type *t, char *p);
PyObject *disp_box_generator(char *p, PyObject *const *args, int n);  /* a Generator result: made, or an argument */
PyObject *disp_box_bit_generator(char *p, PyObject *const *args, int n);  /* its bit_generator, the same way */
/* The exception a failed call of compiled code left in the thread's RtError. */
PyObject *disp_raise_runtime_error(void);
PyObject *disp_interrupt_caught(int status, PyObject *result);  /* after a call whose code caught a Ctrl-C */
/* The Python class of a runtime error's status (a borrowed reference). */
PyObject *disp_status_class(int status);

/* ---------------------------------------------------------------- dispatch.c */

/* One compiled specialisation of a function. */
typedef struct Spec {
  const Type *args[MAX_ARGS]; /* the argument types, interned */
  int (*entry)(void *ret, void **args);
  const Type *ret_type;
  const Type *declared_ret;   /* the explicit signature's return type, or NULL */
  bool device;                /* called from kernels: takes the CUDA thread after its arguments */
  bool barrier;               /* reaches cuda.syncthreads() */
  bool strings;               /* str, set, list or dict arguments: released (or written back) after the call */
  int narrays;                /* array arguments, for the call's unboxing space, and tuple
                               * arguments' storage counted in RtArrays */
  void *code;                 /* the loaded code, released with the dispatcher */
  PyObject **lits;            /* per parameter, the value literally() froze it to (NULL: none); NULL: none at all */
  bool reruns;                /* entry may return RT_ERR_RERUN: checked runs the call again */
  int (*checked)(void *ret, void **args); /* reruns: the version that never does, compiled at the
                               * first need (disp_checked_entry), or NULL */
  void *checked_code;
} Spec;

typedef struct Dispatcher {
  PyObject_HEAD
  vectorcallfunc vectorcall;
  PyObject *py_func;
  PyObject *dict;
  PyObject *signatures;   /* list of str, one per Spec */
  PyObject *weakrefs;
  CompileOptions opts;
  bool nogil;
  bool sealed;            /* explicit signatures given: no compiles on a miss */
  bool inline_always;     /* inline="always": compiled callers compile it for their own argument types, its
                           * signatures aside, as Numba inlines such a function before typing */
  bool cuda_device;       /* cuda.jit(device=True): its assembly (inspect_asm) is its PTX, as numba-cuda's */
  bool varargs;           /* takes *args: its last parameter, the tuple of the extra arguments */
  int kwonly;             /* how many keyword-only parameters it takes: after the others, before *args */
  int posonly;            /* how many positional-only ones (before a /): its first ones, never bound by keyword */
  bool scalars_only;      /* a ufunc's function (@vectorize): compiled code calls it per element */
  const Type *(*ufunc_loops)[MAX_ARGS]; /* its ufunc's loops' argument types, in NumPy's order, each
                                        * followed by its declared return type (NULL: inferred) */
  int nufunc_loops;
  /* One thread compiles this function at a time, so that threads calling a
   * new signature at once get one compilation. Re-entered by its owner
   * (compiling f(int) may compile f(float) for a call inside it). */
  PyThread_type_lock compile_lock;
  unsigned long lock_owner;
  int lock_depth;
  int nparams;
  /* the parameters' names, where keywords and defaults bind in C (plain
   * positional-only and positional-or-keyword parameters, then keyword-only
   * ones); NULL: bound through inspect */
  PyObject *param_names;
  Spec *specs;
  int nspecs;
  void **retired;            /* code recompile() replaced: a call may still run it */
  int nretired;
  struct GpuSpec *gpu_specs; /* a kernel's specialisations loaded on GPUs */
  int ngpu_specs;
  PyObject *gpu_signatures;  /* list of str, one per GpuSpec */
  PyObject *locals;          /* jit's locals: variable name -> type description (ruchey.types), or NULL */
  /* its type as a value (passed to a compiled function), made on first
   * use: from then on the dispatcher lives as long as the process, as the
   * types do, so that no other object ever has its address and type */
  const Type *as_value;
  bool inherits;          /* a lambda's, a stencil's loop: compiled with the options of the function calling
                           * it, as Numba inlines them into their caller */
  uint64_t literal_mask;  /* the parameters its body takes literally() of: compiled per value */
  /* a function of no parameters: its one host specialisation's entry and
   * result type, noted at its first call (NULL: not yet, or recompiled), so
   * that f() calls it with nothing to type or look up */
  int (*nullary_entry)(void *, void **);
  const Type *nullary_ret;
  bool gave_entry;        /* an entry of it was passed as a FunctionType value (disp_function_entry) */
  /* argument types compiled callers called it with (nparams each) that are
   * not its own specialisations yet: each compiled for itself when its
   * signatures are read, as Numba compiles every function a caller calls */
  const Type **called_as;
  int ncalled_as;
} Dispatcher;

extern PyTypeObject DispatcherType;
/* Numba's readings where ruchey is stricter, for packages written for
 * Numba (set by install_as_numba()): functions decorated from now on read a
 * variable not assigned on the path taken, and a float ** that overflows, as
 * Numba does (CompileOptions.numba_code), and calls take
 * ndarray subclasses with their own indexing as plain arrays (typeof.c). */
extern bool disp_numba_semantics;
/* typeof.c: a compiled function's type as a value (NULL for a kernel) */
const Type *disp_function_type(Dispatcher *d);
void disp_lock_compiles(Dispatcher *self);
void disp_unlock_compiles(Dispatcher *self);
Spec *disp_find_spec(Dispatcher *self, const Type *const *args, bool device);
/* A compiled caller called self with args (a plain CPU call): noted for its signatures. */
void disp_note_called_as(Dispatcher *self, const Type *const *args);
/* Specialisation i's entry for callers other than the dispatcher's call,
 * which never returns RT_ERR_RERUN (compiled now where needed); NULL with
 * the exception set. */
void *disp_checked_entry(Dispatcher *self, int i);
/* The compiled signature that takes these arguments with the fewest
 * lossy conversions, as Numba picks an overload; NULL for none. *tied: another
 * that fits as well (the call is ambiguous), else NULL. */
Spec *disp_best_spec(Dispatcher *self, const Type *const *args, Spec **tied);
/* The signature of a sealed dispatcher that a call of these argument types
 * goes through, or NULL with the TypeError of a call none fits or two fit equally. */
Spec *disp_sealed_spec(Dispatcher *self, const Type *const *args);
/* arg (of type given) as the argument of a parameter declared so: a float
 * truncated for an int, a number's truth for a bool; a new reference. */
PyObject *disp_converted_arg(PyObject *arg, const Type *declared, const Type *given);
/* Compiles the signature unless another thread just did (the lock taken). */
Spec *disp_compile_miss(Dispatcher *self, const Type *const *args, bool device);
void *disp_function_entry(Dispatcher *self, const Type *fp);  /* a FunctionType argument's entry */
/* The dispatcher whose entry a FunctionType value is, for returning it to Python; NULL (no error) if none. */
Dispatcher *disp_of_entry(const void *entry);
/* Each argument's type; false, with the TypeError raised, for an argument
 * that cannot be compiled. */
bool disp_arg_types(Dispatcher *self, PyObject *const *args, const Type **types);
/* Calls with positional arguments exactly matching the parameters; extra,
 * if not NULL, is passed after them (a kernel's LaunchConfig). */
PyObject *disp_call(Dispatcher *self, PyObject *const *args, void *extra);
int disp_init_numpy(void);
/* A compile's request for the values of the parameters in diag (literally()):
 * noted by self, raised as core_LiteralRequest; false. */
bool disp_literal_request(Dispatcher *self, const Diag *diag);

/* ---------------------------------------------------------------- compile.c */

/* Reads self's function and compiles it for the argument types: machine
 * code (OUT_JIT), its text, or PTX for compute capability gpu_cc. False
 * with a Python exception set. */
bool cp_compile(Dispatcher *self, const Type *const *args, const Type *declared_ret, bool device,
                OutputKind out, int gpu_cc, CompileResult *res, Arena *arena);
/* The same on the CPU (never cached) with parameters frozen to constants (literally()). */
bool cp_compile_frozen(Dispatcher *self, const Type *const *args, const Node *const *frozen, OutputKind out,
                       CompileResult *res, Arena *arena);
/* The same for machine code whose deferred loops rerun themselves (never
 * RT_ERR_RERUN, CompileOptions.lazy_rerun), frozen where frozen is not NULL:
 * a specialisation's checked version. */
bool cp_compile_checked(Dispatcher *self, const Type *const *args, const Node *const *frozen,
                        const Type *declared_ret, CompileResult *res, Arena *arena);
/* The same for a ufunc: the entry is its inner loop (CompileOptions.ufunc_loop). */
bool cp_compile_ufunc_loop(Dispatcher *self, const Type *const *args, const Type *declared_ret, OutputKind out,
                           CompileResult *res, Arena *arena);
/* The same for a @cfunc: the entry is a C function (CompileOptions.c_entry). */
bool cp_compile_c_entry(Dispatcher *self, const Type *const *args, const Type *declared_ret, OutputKind out,
                        CompileResult *res, Arena *arena);
PyObject *cp_compile_ptx(PyObject *module, PyObject *args);
PyObject *cp_analyses(PyObject *module, PyObject *args);
PyObject *cp_typed_variables(PyObject *module, PyObject *args);  /* _core._typed_variables */
PyObject *cp_grid_sync(PyObject *module, PyObject *args);        /* _core._grid_sync */

/* ---------------------------------------------------------------- cache.c */

/* Which entry a compile makes: the dispatcher's, a ufunc's inner loop, a
 * @cfunc's C function. */
typedef enum { ENTRY_CALL, ENTRY_UFUNC_LOOP, ENTRY_C } EntryKind;

/* Machine code for these types with that entry, loaded from the
 * dispatcher's on-disk cache where cache=True put it there, else compiled
 * (and then saved there); as cp_compile. */
bool cache_compile(Dispatcher *self, const Type *const *args, const Type *declared, EntryKind entry,
                   CompileResult *res, Arena *arena);
/* A kernel's PTX for compute capability cc into res->text (malloc'd), as
 * cp_compile(OUT_PTX) makes it, from the cache where the kernel has one
 * and it holds the text (then nothing is compiled), else compiled and
 * kept there. */
bool cache_ptx(Dispatcher *self, const Type *const *args, int cc, CompileResult *res, Arena *arena);
PyObject *cache_class_symbol(PyObject *module, PyObject *cls);  /* _core._class_symbol */
PyObject *cache_host_key(PyObject *module, PyObject *unused);    /* _core._host_key */

/* ---------------------------------------------------------------- extending.c */

/* The dispatcher compiled code calls for obj, a function registered by
 * ruchey.extending (a new reference), or NULL, no exception. */
PyObject *ext_callee(PyObject *obj);
/* CompileOptions.find_member: a method or attribute registered for a type. */
void *ext_find_member(void *ctx, const Type *receiver, const char *name, bool attribute);
void *ext_find_overload(void *ctx, const Builtin *bi, const Type *const *args, int nargs);
void *ext_python_impl(void *ctx, const char *name);
/* CompileOptions.intrinsic: an @intrinsic's signature and LLVM IR for argument types. */
bool ext_intrinsic_code(void *ctx, IntrinsicCall *call, const Type *const *args, const Node *const *consts, int nargs,
                       Diag *diag);
/* The frontend's: a call of obj is an @intrinsic's (a new IntrinsicCall in arena), or NULL. */
IntrinsicCall *ext_intrinsic_call(PyObject *obj, Arena *arena);
/* An overload's dispatcher (*disp) replaced by the implementation its
 * typing functions choose for args; false with diag set where none does.
 * Other dispatchers stay. */
/* An overload's implementation for a call's argument types (consts: its
 * constants, seen by typing functions as literal types; NULL: none), from
 * CUDA code where device (its "cuda" overloads first, no "cpu" ones). An
 * exception of a typing function's that is no NumbaError is left set as
 * well as diag: the compile raises it unchanged. */
bool ext_select(Dispatcher **disp, const Type *const *args, const Node *const *consts, int nargs, bool device,
                Diag *diag);

/* ---------------------------------------------------------------- launch.c */

/* A kernel specialisation compiled to PTX and loaded on one CUDA device. */
typedef struct GpuSpec {
  const Type *args[MAX_ARGS];
  int device;
  void *module, *function;
  bool cooperative;  /* it waits for its grid: launched with every block resident */
} GpuSpec;

PyObject *launch_cpu(Dispatcher *self, PyObject *args);  /* Dispatcher._launch */
PyObject *launch_gpu(Dispatcher *self, PyObject *args);  /* Dispatcher._launch_gpu */
PyObject *launch_max_cooperative_blocks(Dispatcher *self, PyObject *args);
PyObject *launch_function_attribute(Dispatcher *self, PyObject *args);
void launch_unload(Dispatcher *self);

/* ---------------------------------------------------------------- ufunc.c */

PyObject *ufunc_compile_loop(PyObject *module, PyObject *args);  /* _core._ufunc_loop */
PyObject *ufunc_make(PyObject *module, PyObject *args);          /* _core._make_ufunc */
bool ufunc_api_ready(void);             /* NumPy's ufunc API imported, or false with an exception */
char *ufunc_copy_text(const char *s);  /* PyMem_Malloc'd: names and docs NumPy keeps pointers to */
int ufunc_numpy_inputs(PyObject *obj);  /* NumPy's own ufunc of one output (numpy.add): its inputs; else -1 */
int ufunc_identity_kind(PyObject *identity);  /* PyUFunc_None, PyUFunc_ReorderableNone or PyUFunc_IdentityValue */
/* A loop on the pool: the first failing chunk's error (the thread's RtError)
 * saved in dst; raised afterwards on the calling thread, the GIL taken. */
void ufunc_save_error(RtError *dst);
/* The calling thread's RtError as the Python exception, the GIL taken:
 * NumPy finds it when the loop returns. */
void ufunc_raise_from_loop(void);
void ufunc_raise_saved(const RtError *e);
PyObject *gufunc_compile_loop(PyObject *module, PyObject *args);  /* gufunc.c: _core._gufunc_loop */
PyObject *gufunc_make(PyObject *module, PyObject *args);          /* _core._make_gufunc */
/* The function of scalars behind a @vectorize ufunc (or DUFunc), borrowed;
 * NULL, no exception, for any other object. */
Dispatcher *ufunc_scalar_function(PyObject *obj);
bool ufunc_reorderable(PyObject *obj);
/* The argument types a call from compiled code passes a ufunc's function
 * (args, of numbers): those of the first loop args cast to safely, as
 * NumPy picks a loop; args themselves where none does and the ufunc may
 * compile more (a DUFunc's). *ret: the loop's declared return type, or
 * NULL (inferred). False with diag set where none is allowed. */
bool ufunc_loop_types(Dispatcher *disp, const Type *const *args, int n, const Type **out, const Type **ret, Diag *diag);

/* ---------------------------------------------------------------- cfunc.c */

PyObject *cfunc_compile(PyObject *module, PyObject *args);  /* _core._cfunc */

/* ---------------------------------------------------------------- cudadrv.c */

/* The CUDA driver, loaded on first use; each false or NULL comes with
 * ruchey._core.CudaError set. */
int cu_add_to_module(PyObject *m);
extern PyTypeObject DeviceMemoryType;  /* memory on a GPU, owned by a Python object */
bool cu_ready(void);           /* the driver started, a device's context current here */
int cu_current_device(void);   /* its ordinal, once cu_ready() */
int cu_current_cc(void);       /* its compute capability (90 for 9.0) */
/* A kernel from PTX text: its CUfunction, and in *module what to unload. */
void *cu_load_kernel(const char *ptx, const char *name, void **module);
void cu_unload(void *module);
int nvrtc_add_to_module(PyObject *m);  /* nvrtc.c */
bool cu_launch(void *function, const int64_t grid[3], const int64_t block[3], int64_t shared,
               uintptr_t stream, void **params, bool cooperative);
int64_t cu_max_resident_blocks(void *function, int64_t threads, int64_t shared);
int64_t cu_function_attribute(void *function, int attr);  /* a CU_FUNC_ATTRIBUTE_* of a loaded kernel */

#endif
