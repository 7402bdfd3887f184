/* dispatch.c — the object @jit returns.
 *
 * A call finds each argument's interned type (typeof.c), the
 * specialisation compiled for those types (comparing pointers), unboxes the
 * arguments onto the C stack, calls the machine code and boxes its result
 * (box.c). No tuple is built and nothing is allocated on that path. A miss
 * compiles a new specialisation (compile.c).
 */
#define NPY_NO_DEPRECATED_API NPY_2_0_API_VERSION
#define PY_ARRAY_UNIQUE_SYMBOL ruchey_ARRAY_API
#include "core.h"

#include <numpy/arrayobject.h>
#include <structmember.h>
#include <stddef.h>

int disp_init_numpy(void) {
  import_array1(-1);
  return 0;
}

/* ---------------------------------------------------------------- literal arguments */

/* literally(p) in the body: the compile asked for the values of the
 * parameters in diag (Numba's ForceLiteralArg). The dispatcher takes note;
 * a call compiles again with them frozen (disp_call), any other compile
 * (an explicit signature, a first-class function) has no values to give. */
bool disp_literal_request(Dispatcher *self, const Diag *diag) {
  self->literal_mask |= diag->literal_params;
  PyErr_Format(core_LiteralRequest, "%S takes literally() of an argument: it is compiled for each value of that "
               "argument, which a compile from argument types alone (an explicit signature, a first-class "
               "function's, a ufunc's) does not have", self->py_func);
  return false;
}

/* The constants the parameters in self->literal_mask are frozen to for
 * these arguments: ints, bools and strs, as Numba's literal types. */
static const Node **frozen_nodes(Dispatcher *self, PyObject *const *values, Arena *arena) {
  const Node **frozen = arena_alloc(arena, sizeof(Node *) * (size_t)self->nparams);
  for (int i = 0; i < self->nparams; i++) {
    PyObject *v = values[i];
    if (!v) continue;
    Node *n = arena_alloc(arena, sizeof(Node));
    *n = (Node){.kind = PyBool_Check(v) ? N_BOOL : PyLong_Check(v) ? N_INT : N_STRING};
    Py_ssize_t size = 0;
    const char *text = n->kind == N_STRING && PyUnicode_Check(v) ? PyUnicode_AsUTF8AndSize(v, &size) : NULL;
    if (n->kind == N_BOOL) n->ival = v == Py_True;
    else if (n->kind == N_INT) n->ival = PyLong_AsLongLong(v);
    else if (text) n->str = memcpy(arena_alloc(arena, (size_t)size + 1), text, (size_t)size + 1), n->ival = size;
    if (PyErr_Occurred() || (n->kind == N_STRING && !text)) {
      PyErr_Clear();
      PyErr_Format(core_ArgumentTypeError, "%S takes literally() of argument %d, whose value %R (a %s) cannot be a "
                   "literal (ints in int64, bools and strs can)", self->py_func, i + 1, v, Py_TYPE(v)->tp_name);
      return NULL;
    }
    frozen[i] = n;
  }
  return frozen;
}

/* The code (or text, out) for these types and the values of the literal
 * arguments (lits), never cached: the cache's key is the types'. */
static bool literal_code(Dispatcher *self, const Type *const *args, PyObject *const *lits, OutputKind out,
                         CompileResult *res, Arena *arena) {
  const Node **frozen = frozen_nodes(self, lits, arena);
  return frozen && cp_compile_frozen(self, args, frozen, out, res, arena);
}

/* ---------------------------------------------------------------- specialisations */

/* The code for these types: from the on-disk cache (cache=True), or
 * compiled; with literal arguments (lits, NULL where none) literal_code. */
static bool spec_code(Dispatcher *self, const Type *const *args, PyObject *const *lits, const Type *declared_ret,
                      bool device, CompileResult *res, Arena *arena) {
  if (lits) return literal_code(self, args, lits, OUT_JIT, res, arena);
  /* (a @cfunc's entries for FunctionType arguments: not cached, their key would be its jit's) */
  if (device || self->opts.reports_failure) return cp_compile(self, args, declared_ret, device, OUT_JIT, 0, res, arena);
  return cache_compile(self, args, declared_ret, ENTRY_CALL, res, arena);
}

/* The values of the literal arguments among args (self->literal_mask), new
 * references in a PyMem array, NULL elsewhere; NULL with no exception
 * where there are none. */
static PyObject **literal_values(Dispatcher *self, PyObject *const *args) {
  if (!self->literal_mask) return NULL;
  PyObject **lits = PyMem_Calloc((size_t)self->nparams, sizeof(PyObject *));
  if (!lits) return PyErr_NoMemory(), NULL;
  for (int i = 0; i < self->nparams && i < 64; i++)
    if (self->literal_mask >> i & 1) lits[i] = Py_NewRef(args[i]);
  return lits;
}

static void free_literal_values(PyObject **lits, int n) {
  for (int i = 0; lits && i < n; i++) Py_XDECREF(lits[i]);
  PyMem_Free(lits);
}

/* A specialisation's signature; with literal arguments as Numba writes
 * them: (float64, Literal[str](sq)). */
static PyObject *signature_text(Dispatcher *self, const Type *const *args, PyObject *const *lits) {
  if (!lits) return disp_signature_text(args, self->nparams);
  PyObject *parts = PyList_New(self->nparams);
  for (int i = 0; parts && i < self->nparams; i++) {
    PyObject *p = lits[i] ? PyUnicode_FromFormat("Literal[%s](%S)", Py_TYPE(lits[i])->tp_name, lits[i])
                          : PyUnicode_FromString(args[i]->name);
    if (!p) Py_CLEAR(parts);
    else PyList_SET_ITEM(parts, i, p);
  }
  PyObject *sep = parts ? PyUnicode_FromString(", ") : NULL;
  PyObject *joined = sep ? PyUnicode_Join(sep, parts) : NULL;
  PyObject *text = joined ? PyUnicode_FromFormat(self->nparams == 1 ? "(%U,)" : "(%U)", joined) : NULL;
  Py_XDECREF(parts); Py_XDECREF(sep); Py_XDECREF(joined);
  return text;
}

static Spec *add_spec(Dispatcher *self, const Type *const *args, PyObject **lits, const Type *declared_ret,
                      bool device) {
  Arena arena = {0};
  CompileResult res = {0};
  bool ok = spec_code(self, args, lits, declared_ret, device, &res, &arena);
  Spec *s = NULL;
  if (ok && res.warning[0] && PyErr_WarnEx(PyExc_RuntimeWarning, res.warning, 1) < 0) ok = false;
  if (ok) {
    Spec *grown = PyMem_Realloc(self->specs, sizeof(Spec) * (size_t)(self->nspecs + 1));
    PyObject *sig = signature_text(self, args, lits);
    if (grown && sig && PyList_Append(self->signatures, sig) == 0) {
      self->specs = grown;
      s = &grown[self->nspecs++];
      *s = (Spec){.entry = res.entry, .ret_type = res.ret_type, .device = device, .barrier = res.barrier,
                  .code = res.code, .lits = lits, .reruns = res.reruns};
      lits = NULL;  /* the spec's */
      memcpy(s->args, args, sizeof(Type *) * (size_t)self->nparams);
      s->declared_ret = declared_ret ? s->ret_type : NULL;
      for (int i = 0; i < self->nparams; i++) {
        s->narrays += disp_arg_units(args[i]);
        s->strings |= disp_holds_strings(args[i]) || args[i]->kind == TY_SET || args[i]->kind == TY_LIST ||
                      args[i]->kind == TY_DICT;
      }
    } else {
      if (grown) self->specs = grown;
      if (!PyErr_Occurred()) PyErr_NoMemory();
    }
    Py_XDECREF(sig);
  }
  if (!s && res.code) core_api()->release_code(res.code);
  free_literal_values(lits, self->nparams);
  arena_free(&arena);
  return s;
}

/* The entry of specialisation i that never returns RT_ERR_RERUN: its own,
 * or its checked version (CompileOptions.lazy_rerun), compiled at the
 * first need. NULL with the exception set. */
void *disp_checked_entry(Dispatcher *self, int i) {
  if (!self->specs[i].reruns) return (void *)self->specs[i].entry;
  disp_lock_compiles(self);
  if (!self->specs[i].checked) {
    Spec was = self->specs[i];  /* compiling may grow self->specs */
    Arena arena = {0};
    CompileResult res = {0};
    const Node **frozen = was.lits ? frozen_nodes(self, was.lits, &arena) : NULL;
    if ((!was.lits || frozen) && cp_compile_checked(self, was.args, frozen, was.declared_ret, &res, &arena)) {
      self->specs[i].checked = res.entry;
      self->specs[i].checked_code = res.code;
    }
    arena_free(&arena);
  }
  disp_unlock_compiles(self);
  return (void *)self->specs[i].checked;
}

/* On every call: a plain loop, since most functions have a few arguments
 * and one or two specialisations. */
Spec *disp_find_spec(Dispatcher *self, const Type *const *args, bool device) {
  for (int i = 0; i < self->nspecs; i++) {
    Spec *s = &self->specs[i];
    int a = 0;
    while (a < self->nparams && s->args[a] == args[a]) a++;
    if (a == self->nparams && s->device == device) return s;
  }
  return NULL;
}

/* A float for a declared int (truncated), a number for a declared bool
 * (its truth): Numba's unsafe conversions, which disp_call makes and its
 * typed containers refuse. */
static bool unsafe_conversion(const Type *want, const Type *have) {
  if (want->kind == TY_BOOL) return ty_is_int(have) || ty_is_float(have);
  return ty_is_int(want) && ty_is_float(have);
}

/* Numba's classes of conversions (its casting rules followed through):
 * a promotion widens within a kind; a safe one keeps every value (an int
 * to a float whose mantissa holds it, int64 to float64 as Numba counts it,
 * a real to a complex, a bool to a number); an unsafe one may lose. */
typedef enum { CONV_EXACT, CONV_PROMOTE, CONV_SAFE, CONV_UNSAFE } Conversion;

static Conversion scalar_class(const Type *want, const Type *have) {
  if (want == have) return CONV_EXACT;
  if (have->kind == TY_BOOL) return CONV_SAFE;
  bool wider = want->size > have->size;
  if (want->kind == TY_BOOL || (ty_is_int(want) && !ty_is_int(have))) return CONV_UNSAFE;
  if (ty_is_int(want) && ty_is_unsigned(want) != ty_is_unsigned(have))
    return ty_is_unsigned(have) && wider ? CONV_SAFE : CONV_UNSAFE;
  if (ty_is_int(want)) return wider ? CONV_PROMOTE : CONV_UNSAFE;
  size_t bits = (ty_is_complex(want) ? want->size / 2 : want->size) * 8;  /* of a (real) part */
  if (ty_is_int(have)) return have->size * 8 <= (bits == 64 ? 64 : bits == 32 ? 24 : 11) ? CONV_SAFE : CONV_UNSAFE;
  if (ty_is_complex(want) && !ty_is_complex(have)) return bits >= have->size * 8 ? CONV_SAFE : CONV_UNSAFE;
  return wider ? CONV_PROMOTE : CONV_UNSAFE;
}

/* The class of a conversion disp_conversion_cost (or an unsafe one) allows:
 * a tuple's is its worst field's; an array's view or a record's subtype is safe. */
static Conversion conversion_class(const Type *want, const Type *have) {
  if (want == have) return CONV_EXACT;
  if (ty_is_scalar(want) && ty_is_scalar(have)) return scalar_class(want, have);
  Conversion worst = CONV_EXACT;
  if (want->kind != TY_TUPLE) return CONV_SAFE;
  for (int i = 0; i < want->nfields; i++) {
    Conversion c = conversion_class(want->fields[i], have->fields[i]);
    if (c > worst) worst = c;
  }
  return worst;
}

/* A signature's fit to a call, compared as Numba's: fewer unsafe
 * conversions first, then fewer safe ones, then fewer promotions. */
typedef struct { int count[CONV_UNSAFE + 1]; } Rating;

static bool rate(const Spec *s, int nparams, const Type *const *args, Rating *r) {
  *r = (Rating){{0}};
  if (s->device) return false;
  for (int a = 0; a < nparams; a++) {
    if (disp_conversion_cost(s->args[a], args[a]) < 0 && !unsafe_conversion(s->args[a], args[a])) return false;
    r->count[conversion_class(s->args[a], args[a])]++;
  }
  return true;
}

static int compare_ratings(const Rating *x, const Rating *y) {
  for (int c = CONV_UNSAFE; c > CONV_EXACT; c--)
    if (x->count[c] != y->count[c]) return x->count[c] < y->count[c] ? -1 : 1;
  return 0;
}

Spec *disp_best_spec(Dispatcher *self, const Type *const *args, Spec **tied) {
  Spec *best = NULL;
  Rating least, r;
  *tied = NULL;
  for (int i = 0; i < self->nspecs; i++) {
    if (!rate(&self->specs[i], self->nparams, args, &r)) continue;
    int order = best ? compare_ratings(&r, &least) : -1;
    if (order < 0) best = &self->specs[i], least = r, *tied = NULL;
    else if (order == 0 && !*tied) *tied = &self->specs[i];
  }
  return best;
}

/* The TypeError of a call that two compiled signatures fit equally well
 * (Numba's "Ambiguous overloading"): the call's types and the two. */
static PyObject *ambiguous(Dispatcher *self, const Type *const *args, const Spec *best, const Spec *tied) {
  PyObject *seen = disp_signature_text(args, self->nparams);
  PyObject *one = disp_signature_text(best->args, self->nparams), *other = disp_signature_text(tied->args, self->nparams);
  if (seen && one && other)
    PyErr_Format(PyExc_TypeError, "Ambiguous overloading for %S %U:\n%U -> %s\n%U -> %s", self->py_func, seen,
                 one, best->ret_type->name, other, tied->ret_type->name);
  Py_XDECREF(seen); Py_XDECREF(one); Py_XDECREF(other);
  return NULL;
}

static PyObject *type_error(Dispatcher *self, PyObject *const *args, int i) {
  PyObject *sep = PyUnicode_FromString(", ");
  PyObject *accepted = sep ? PyUnicode_Join(sep, self->signatures) : NULL;
  Py_XDECREF(sep);
  PyObject *why = disp_refusal(args[i]);
  if (why)
    PyErr_Format(core_ArgumentTypeError,
                 "%S: argument %d %U (accepted: int, float, bool, NumPy scalars and arrays of bool, "
                 "int8-64, uint8-64, float16/32/64, complex64/128, records, tuples of these, str, bytes, bytearray,\n"
                 "memoryview, array.array, typed.List and typed.Dict; compiled so far: [%U])",
                 self->py_func, i + 1, why, accepted ? accepted : Py_None);
  Py_XDECREF(accepted);
  Py_XDECREF(why);
  return NULL;
}

static PyObject *no_match(Dispatcher *self, const Type *const *args) {
  PyObject *seen = disp_signature_text(args, self->nparams);
  PyObject *sep = PyUnicode_FromString(", ");
  PyObject *accepted = sep ? PyUnicode_Join(sep, self->signatures) : NULL;
  PyErr_Format(PyExc_TypeError, "%S: no matching definition for argument types %U; compiled signatures: [%U]",
               self->py_func, seen, accepted);
  Py_XDECREF(seen); Py_XDECREF(sep); Py_XDECREF(accepted);
  return NULL;
}

Spec *disp_sealed_spec(Dispatcher *self, const Type *const *args) {
  Spec *tied = NULL, *s = disp_best_spec(self, args, &tied);
  if (!s) no_match(self, args);
  else if (tied) ambiguous(self, args, s, tied);
  return s && !tied ? s : NULL;
}

PyObject *disp_converted_arg(PyObject *arg, const Type *declared, const Type *given) {
  if (declared->kind == TY_BOOL && declared != given && unsafe_conversion(declared, given)) {
    int truth = PyObject_IsTrue(arg);  /* a number for a declared bool: its truth (disp_best_spec chose it) */
    return truth < 0 ? NULL : PyBool_FromLong(truth);
  }
  if (ty_is_int(declared) && ty_is_float(given)) return PyNumber_Long(arg);  /* a float for a declared int: truncated */
  return Py_NewRef(arg);
}

void disp_lock_compiles(Dispatcher *self) {
  unsigned long me = PyThread_get_thread_ident();
  if (self->lock_owner == me) {
    self->lock_depth++;
    return;
  }
  if (!PyThread_acquire_lock(self->compile_lock, NOWAIT_LOCK)) {
    Py_BEGIN_ALLOW_THREADS
    PyThread_acquire_lock(self->compile_lock, WAIT_LOCK);
    Py_END_ALLOW_THREADS
  }
  self->lock_owner = me;
  self->lock_depth = 1;
}

void disp_unlock_compiles(Dispatcher *self) {
  if (--self->lock_depth) return;
  self->lock_owner = 0;
  PyThread_release_lock(self->compile_lock);
}

/* Whether two literal arguments are the same value of the same type (1
 * and True are not, nor 1 and 1.0). */
static bool same_literal(PyObject *a, PyObject *b) {
  if (a == b) return true;
  if (!a || !b || Py_TYPE(a) != Py_TYPE(b)) return false;
  int eq = PyObject_RichCompareBool(a, b, Py_EQ);
  if (eq < 0) PyErr_Clear();
  return eq > 0;
}

/* A function taking literally() of some arguments: the specialisation for
 * the arguments' types and the values it froze (one compiled before the
 * body asked for them, without literal arguments, takes any value). */
static Spec *find_literal_spec(Dispatcher *self, const Type *const *types, PyObject *const *args) {
  for (int i = 0; i < self->nspecs; i++) {
    Spec *s = &self->specs[i];
    int a = 0;
    while (a < self->nparams && s->args[a] == types[a] && (!s->lits || !s->lits[a] || same_literal(s->lits[a], args[a])))
      a++;
    if (a == self->nparams && !s->device) return s;
  }
  return NULL;
}

Spec *disp_compile_miss(Dispatcher *self, const Type *const *args, bool device) {
  disp_lock_compiles(self);
  Spec *s = disp_find_spec(self, args, device);
  if (!s) s = add_spec(self, args, NULL, NULL, device);
  disp_unlock_compiles(self);
  return s;
}

void disp_note_called_as(Dispatcher *self, const Type *const *args) {
  size_t n = (size_t)self->nparams;
  if (self->sealed || self->literal_mask || disp_find_spec(self, args, false)) return;
  for (int i = 0; i < self->ncalled_as; i++)
    if (!memcmp(&self->called_as[(size_t)i * n], args, sizeof(Type *) * n)) return;
  const Type **grown = PyMem_Realloc(self->called_as, sizeof(Type *) * (n ? n : 1) * (size_t)(self->ncalled_as + 1));
  if (!grown) return;  /* (only its listing misses it) */
  memcpy(&grown[(size_t)self->ncalled_as * n], args, sizeof(Type *) * n);
  self->called_as = grown;
  self->ncalled_as++;
}

/* Each signature compiled callers called self with compiled as its own
 * specialisation; one that compiles only inside its caller is left out. */
static void compile_called_as(Dispatcher *self) {
  const Type **called = self->called_as;  /* (compiling may note more) */
  int count = self->ncalled_as;
  self->called_as = NULL;
  self->ncalled_as = 0;
  for (int i = 0; i < count; i++)
    if (!disp_compile_miss(self, &called[(size_t)i * (size_t)self->nparams], false)) PyErr_Clear();
  PyMem_Free(called);
}

/* The parameters whose argument is their default itself (an int, bool or
 * str): those a call left out, or gave that very object. */
static uint64_t defaulted_params(Dispatcher *self, PyObject *const *args) {
  PyObject *defaults = PyFunction_GetDefaults(self->py_func), *kwdefaults = PyFunction_GetKwDefaults(self->py_func);
  int positional = self->nparams - self->kwonly, ndef = defaults ? (int)PyTuple_GET_SIZE(defaults) : 0;
  uint64_t found = 0;
  for (int i = 0; i < self->nparams && i < 64 && self->param_names; i++) {
    PyObject *d = i < positional ? (i >= positional - ndef ? PyTuple_GET_ITEM(defaults, i - (positional - ndef)) : NULL)
                : kwdefaults ? PyDict_GetItem(kwdefaults, PyTuple_GET_ITEM(self->param_names, i)) : NULL;
    if (d && args[i] == d && (PyLong_CheckExact(d) || PyBool_Check(d) || PyUnicode_CheckExact(d))) found |= 1ull << i;
  }
  return found;
}

/* A call whose compile for the arguments' types failed, compiled again
 * with the parameters left to their defaults taken literally: Numba
 * types an omitted argument as its default's literal type, so that an
 * overload implemented for a literal alone compiles (in_metres(x) of
 * def in_metres(x, unit="km")). From then on the call takes those
 * parameters per value, as literally()'s; where this fails too, the
 * first error stays. */
static Spec *compile_with_defaults(Dispatcher *self, const Type *const *types, PyObject *const *args) {
  uint64_t omitted = defaulted_params(self, args) & ~self->literal_mask, before = self->literal_mask;
  if (!omitted || !PyErr_ExceptionMatches(core_TypingError)) return NULL;
  PyObject *type, *value, *trace;
  PyErr_Fetch(&type, &value, &trace);
  self->literal_mask |= omitted;
  PyObject **lits = literal_values(self, args);
  Spec *s = lits ? add_spec(self, types, lits, NULL, false) : NULL;
  if (s) {
    Py_XDECREF(type), Py_XDECREF(value), Py_XDECREF(trace);
    return s;
  }
  self->literal_mask = before;
  PyErr_Clear();
  PyErr_Restore(type, value, trace);
  return NULL;
}

/* A call's miss: compiled for the arguments' types; where the body takes
 * literally() of some (known from an earlier compile, or asked for by
 * this one), for their values too, compiled again while it asks for more. */
static Spec *call_compile_miss(Dispatcher *self, const Type *const *types, PyObject *const *args) {
  disp_lock_compiles(self);
  Spec *s = NULL;
  if (!self->literal_mask && !(s = disp_find_spec(self, types, false))) s = add_spec(self, types, NULL, NULL, false);
  /* each compile may ask for more (a LiteralRequest): again with those, until it asks for none new */
  for (uint64_t tried = 0; !s && self->literal_mask != tried;) {
    if (PyErr_Occurred() && !PyErr_ExceptionMatches(core_LiteralRequest)) break;
    PyErr_Clear();
    tried = self->literal_mask;
    PyObject **lits = (s = find_literal_spec(self, types, args)) ? NULL : literal_values(self, args);
    if (lits) s = add_spec(self, types, lits, NULL, false);
  }
  if (!s) s = compile_with_defaults(self, types, args);
  disp_unlock_compiles(self);
  return s;
}

/* ---------------------------------------------------------------- as a first-class function */

/* The entry of self for fp's signature, what a FunctionType argument
 * holds, as Numba's: its specialisation for fp's parameters, which must
 * return fp's result; where it has none, one compiled now with that
 * result declared (converted, as an explicit signature's), unless self
 * compiles no more (sealed). NULL with a TypeError where self does not fit. */
/* The dispatchers whose entries were passed as FunctionType values, in
 * the order of their first: a list, to find the one a returned value is
 * (they live as long as the process once their type is a value's). Two
 * functions of the same code share an entry (the code cache loads it
 * once): the one passed first most recently is taken. */
static PyObject *entry_givers;

Dispatcher *disp_of_entry(const void *entry) {
  for (Py_ssize_t i = entry_givers ? PyList_GET_SIZE(entry_givers) - 1 : -1; i >= 0; i--) {
    Dispatcher *d = (Dispatcher *)PyList_GET_ITEM(entry_givers, i);
    for (int k = 0; k < d->nspecs; k++)
      if ((const void *)d->specs[k].entry == entry || (const void *)d->specs[k].checked == entry) return d;
  }
  return NULL;
}

static void *given_entry(Dispatcher *self, void *entry) {
  if (!entry || self->gave_entry) return entry;
  if ((!entry_givers && !(entry_givers = PyList_New(0))) || PyList_Append(entry_givers, (PyObject *)self) < 0)
    return NULL;
  self->gave_entry = true;
  return entry;
}

void *disp_function_entry(Dispatcher *self, const Type *fp) {
  if (self->opts.kernel)
    return PyErr_Format(PyExc_TypeError, "a CUDA kernel cannot be passed as %s", fp->name), NULL;
  if (fp->nfields != self->nparams)
    return PyErr_Format(PyExc_TypeError, "%S takes %d arguments, %s %d", self->py_func, self->nparams, fp->name,
                        fp->nfields), NULL;
  disp_lock_compiles(self);
  Spec *s = disp_find_spec(self, fp->fields, false);
  if (!s && self->sealed)
    PyErr_Format(PyExc_TypeError, "%S has no compiled signature for %s and compiles no others (explicit "
                 "signatures, or disable_compile())", self->py_func, fp->name);
  else if (!s)
    s = add_spec(self, fp->fields, NULL, fp->elem, false);
  else if (s->ret_type != fp->elem)
    PyErr_Format(PyExc_TypeError, "mismatch of return type: %s vs %s (%S compiled for %s)", s->ret_type->name,
                 fp->elem->name, self->py_func, fp->name);
  void *entry = s && s->ret_type == fp->elem ? disp_checked_entry(self, (int)(s - self->specs)) : NULL;
  disp_unlock_compiles(self);
  return given_entry(self, entry);
}

/* ---------------------------------------------------------------- the call */

bool disp_arg_types(Dispatcher *self, PyObject *const *args, const Type **types) {
  if (!core_plain && !core_api()) return false;
  for (int i = 0; i < self->nparams; i++)
    if (!(types[i] = disp_typeof(args[i])) && !(self->sealed && (types[i] = typed_pylist_of_lists(args[i])))) {
      type_error(self, args, i);
      return false;
    }
  return true;
}

/* Argument i, a Python list or set that an earlier argument is too
 * (f(xs, xs)): the container made for that one, one more reference (the
 * write-back after the call releases each), as Numba unboxes a reflected
 * list once, so that what the call does through either name is seen
 * through both; false for any other argument. */
static __attribute__((noinline)) bool same_as_earlier(const Type *const *types, PyObject *const *args, int i,
                                                      Slot *slots, void **argp) {
  if (!PyList_CheckExact(args[i]) && !PySet_CheckExact(args[i])) return false;
  for (int j = 0; j < i; j++)
    if (args[j] == args[i] && types[j] == types[i] && (types[i]->kind == TY_LIST || types[i]->kind == TY_SET)) {
      slots[i] = slots[j];
      argp[i] = &slots[i];
      __atomic_add_fetch((int64_t *)(uintptr_t)slots[i].u, 1, __ATOMIC_RELAXED);  /* a container's count is its first field */
      return true;
    }
  return false;
}

/* The compiled entry run, without the GIL for nogil=True; a Ctrl-C
 * Python has seen is lowered first by the main thread (asked only when
 * the flag is up). */
static inline int run_entry(Dispatcher *self, int (*entry)(void *, void **), char *retp, void **argp) {
  if (*core_interrupted && PyThread_get_thread_ident() == core_main_thread) *core_interrupted = 0;
  int status;
  if (self->nogil) {
    Py_BEGIN_ALLOW_THREADS
    status = entry(retp, argp);
    Py_END_ALLOW_THREADS
  } else {
    status = entry(retp, argp);
  }
  return status;
}

/* A call whose deferred check failed (RT_ERR_RERUN) run again in the
 * specialisation's checked version: its status, or -1 with the exception
 * set where that one did not compile. */
static __attribute__((noinline)) int run_checked(Dispatcher *self, int spec, char *retp, void **argp) {
  int (*checked)(void *, void **) = disp_checked_entry(self, spec);
  return checked ? run_entry(self, checked, retp, argp) : -1;
}

/* The call's result: the runtime error its status says (-1: the
 * exception is set), or the boxed result; a Ctrl-C the compiled code
 * caught is raised now. */
static inline PyObject *finish_call(int status, PyObject *result) {
  if (status > 0) result = disp_raise_runtime_error();
  if ((*core_interrupted & RT_INTERRUPT_CAUGHT) && PyThread_get_thread_ident() == core_main_thread)
    result = disp_interrupt_caught(status, result);
  return result;
}

#define RET_ROOM 256  /* a result's bytes that a call keeps in its frame (more go to the heap) */

/* args (of types) unboxed as specialisation s takes them, its code run,
 * its result boxed. */
static inline PyObject *call_spec(Dispatcher *self, Spec *s, const Type *const *types, PyObject *const *args,
                                  void *extra) {
  /* what the call needs from s: another thread may grow self->specs while
   * this one runs without the GIL */
  int (*entry)(void *, void **) = s->entry;
  int spec = (int)(s - self->specs);
  const Type *ret_type = s->ret_type;
  bool strings = s->strings;
  const Type *held[MAX_ARGS];  /* s's types, for releasing the strs (a tuple's at its fields' offsets) */
  if (strings) memcpy(held, s->args, sizeof(Type *) * (size_t)self->nparams);
  /* a small frame: no stack probes on the hot path; many arrays go to the heap */
  Slot slots[MAX_ARGS];
  RtArray few[4];
  RtArray *arrays = s->narrays <= 4 ? few : PyMem_Malloc(sizeof(RtArray) * (size_t)s->narrays);
  void *argp[MAX_ARGS + 1];
  _Alignas(16) char ret[RET_ROOM];
  char *retp = ret_type->size <= sizeof ret ? ret : PyMem_Malloc(ret_type->size);
  if (!arrays || !retp) {
    if (arrays && arrays != few) PyMem_Free(arrays);
    if (retp && retp != ret) PyMem_Free(retp);
    return PyErr_NoMemory();
  }
  int a = 0;
  for (int i = 0; i < self->nparams; i++) {
    RtArray *slot_array = disp_arg_units(s->args[i]) ? &arrays[a] : NULL;
    a += disp_arg_units(s->args[i]);
    if (strings && i && same_as_earlier(s->args, args, i, slots, argp)) continue;
    PyObject *arg = disp_converted_arg(args[i], s->args[i], types[i]);
    int unboxed = arg ? disp_unbox(arg, s->args[i], &slots[i], slot_array, &argp[i]) : -1;
    Py_XDECREF(arg);
    if (unboxed < 0) {
      if (strings) disp_release_args(held, slots, argp, i, args, false);
      if (arrays != few) PyMem_Free(arrays);
      if (retp != ret) PyMem_Free(retp);
      return NULL;
    }
  }
  argp[self->nparams] = extra;
  int status = run_entry(self, entry, retp, argp);
  if (status == RT_ERR_RERUN) status = run_checked(self, spec, retp, argp);
  /* the result made before the arguments are released: it may hold
   * arrays only a Python list argument holds until written back */
  PyObject *result = status                             ? NULL
                     : ret_type->kind == TY_GENERATOR ? disp_box_generator(retp, args, self->nparams)
                     : ret_type->kind == TY_BITGEN    ? disp_box_bit_generator(retp, args, self->nparams)
                     : ret_type->kind == TY_YIELDS    ? disp_box_yields(ret_type, retp, (PyObject *)self, args, self->nparams)
                     : strings && disp_holds_container(ret_type) ? disp_box_returned(held, slots, argp, args, self->nparams, ret_type, retp)
                                                      : disp_box(ret_type, retp);
  if (strings) disp_release_args(held, slots, argp, self->nparams, args, true);
  result = finish_call(status, result);
  if (retp != ret) PyMem_Free(retp);
  if (arrays != few) PyMem_Free(arrays);
  return result;
}

PyObject *disp_call(Dispatcher *self, PyObject *const *args, void *extra) {
  const Type *types[MAX_ARGS];  /* the first nparams only */
  if (!disp_arg_types(self, args, types)) return NULL;
  Spec *s = self->literal_mask ? find_literal_spec(self, types, args) : disp_find_spec(self, types, false);
  if (!s && self->sealed && !(s = disp_sealed_spec(self, types))) return NULL;
  if (!s && !(s = call_compile_miss(self, types, args))) return NULL;
  int (*entry)(void *, void **) = s->entry;
  const Type *ret_type = s->ret_type;
  PyObject *result = call_spec(self, s, types, args, extra);
  if (!self->nparams && result && !self->literal_mask && ret_type->size <= RET_ROOM && !extra &&
      ret_type->kind != TY_GENERATOR && ret_type->kind != TY_BITGEN && ret_type->kind != TY_YIELDS)
    self->nullary_ret = ret_type, self->nullary_entry = entry;
  return result;
}

/* _call_entry(i, args): specialisation i called with the tuple args, as
 * Numba's overloads[sig].entry_point(*args): each argument converted to
 * its parameter's type (as a call that chose it converts), else refused:
 * a tuple of another length with Numba's ValueError, another type with
 * a TypeError. */
static PyObject *dispatcher_call_entry(Dispatcher *self, PyObject *a) {
  int i;
  PyObject *args;
  if (!PyArg_ParseTuple(a, "iO!:_call_entry", &i, &PyTuple_Type, &args)) return NULL;
  if (i < 0 || i >= self->nspecs) return PyErr_Format(PyExc_IndexError, "no compiled signature %d", i);
  if (PyTuple_GET_SIZE(args) != self->nparams)
    return PyErr_Format(PyExc_TypeError, "%S's entry point takes %d arguments (%zd given)", self->py_func,
                        self->nparams, PyTuple_GET_SIZE(args));
  const Type *types[MAX_ARGS];
  PyObject *const *items = &PyTuple_GET_ITEM(args, 0);
  if (!disp_arg_types(self, items, types)) return NULL;
  Spec *s = &self->specs[i];
  if (s->device) return PyErr_Format(PyExc_TypeError, "%S: a device function's entry point runs on the GPU", self->py_func);
  for (int k = 0; k < self->nparams; k++) {
    const Type *want = s->args[k], *have = types[k];
    if (disp_conversion_cost(want, have) >= 0 || unsafe_conversion(want, have)) continue;
    if (want->kind == TY_TUPLE && have->kind == TY_TUPLE && want->nfields != have->nfields)
      return PyErr_Format(PyExc_ValueError, "size mismatch for tuple, expected %d element(s) but got %d",
                          want->nfields, have->nfields);
    return PyErr_Format(PyExc_TypeError, "%S's entry point takes %s as argument %d, not %s", self->py_func,
                        want->name, k + 1, have->name);
  }
  return call_spec(self, s, types, items, NULL);
}

/* f() of a function without parameters, once disp_call has noted its
 * entry: called and its result boxed, nothing else (the call-overhead
 * figure's f()). Its entry was noted after a call that passed its checks;
 * should one fail now (RT_ERR_RERUN), disp_call runs its checked version. */
static PyObject *call_nullary(Dispatcher *self) {
  _Alignas(16) char ret[RET_ROOM];
  void *argp[1] = {NULL};
  int status = run_entry(self, self->nullary_entry, ret, argp);
  if (status == RT_ERR_RERUN) return disp_call(self, NULL, NULL);
  return finish_call(status, status ? NULL : disp_box(self->nullary_ret, ret));
}

/* A function taking *args: the arguments past its plain parameters as a
 * tuple, its last, after the values of its keyword-only parameters
 * (kwonly, self->kwonly of them), as the compiled function takes them.
 * Out of line, as call_keywords. */
static __attribute__((noinline)) PyObject *call_varargs(Dispatcher *self, PyObject *const *args, size_t nargs,
                                                        PyObject *const *kwonly) {
  int plain = self->nparams - 1 - self->kwonly;
  PyObject *full[MAX_ARGS];
  PyObject *rest = PyTuple_New((Py_ssize_t)nargs - plain);
  if (!rest) return NULL;
  for (size_t i = 0; i < nargs; i++)
    if ((int)i < plain) full[i] = args[i];
    else PyTuple_SET_ITEM(rest, (Py_ssize_t)i - plain, Py_NewRef(args[i]));
  for (int k = 0; k < self->kwonly; k++) full[plain + k] = kwonly[k];
  full[self->nparams - 1] = rest;
  PyObject *result = disp_call(self, full, NULL);
  Py_DECREF(rest);
  return result;
}

/* The values of the keyword-only parameters of a function taking *args,
 * in order, from bound (an inspect.BoundArguments, defaults applied): a
 * tuple, or NULL with the error. */
static PyObject *keyword_only_values(Dispatcher *self, PyObject *bound) {
  PyCodeObject *code = (PyCodeObject *)PyFunction_GetCode(self->py_func);
  PyObject *names = PyObject_GetAttrString((PyObject *)code, "co_varnames");
  PyObject *given = PyObject_GetAttrString(bound, "kwargs"), *values = PyTuple_New(self->kwonly);
  for (int k = 0; names && given && values && k < self->kwonly; k++) {
    PyObject *v = PyDict_GetItemWithError(given, PyTuple_GET_ITEM(names, code->co_argcount + k));
    if (v) PyTuple_SET_ITEM(values, k, Py_NewRef(v));
    else Py_CLEAR(values);
  }
  if (!names || !given) Py_CLEAR(values);
  Py_XDECREF(names); Py_XDECREF(given);
  return values;
}

/* Keyword arguments and defaults for functions with other kinds of
 * parameters: bound by inspect.Signature, then called. */
static PyObject *call_binding(Dispatcher *self, PyObject *const *args, size_t nargs, PyObject *kwnames) {
  PyObject *inspect = PyImport_ImportModule("inspect");
  PyObject *sig = inspect ? PyObject_CallMethod(inspect, "signature", "O", self->py_func) : NULL;
  Py_XDECREF(inspect);
  if (!sig) return NULL;
  PyObject *pos = PyTuple_New((Py_ssize_t)nargs), *kw = PyDict_New();
  for (size_t i = 0; pos && i < nargs; i++) PyTuple_SET_ITEM(pos, (Py_ssize_t)i, Py_NewRef(args[i]));
  for (Py_ssize_t i = 0; kwnames && kw && i < PyTuple_GET_SIZE(kwnames); i++)
    PyDict_SetItem(kw, PyTuple_GET_ITEM(kwnames, i), args[nargs + (size_t)i]);
  PyObject *bind = PyObject_GetAttrString(sig, "bind");
  PyObject *bound = bind && pos && kw ? PyObject_Call(bind, pos, kw) : NULL;
  PyObject *result = NULL;
  if (bound && PyObject_CallMethod(bound, "apply_defaults", NULL)) {
    Py_DECREF(Py_None);
    PyObject *full = PyObject_GetAttrString(bound, "args");
    PyObject *kwonly = self->varargs ? keyword_only_values(self, bound) : NULL;
    if (full && kwonly && PyTuple_GET_SIZE(full) >= self->nparams - 1 - self->kwonly)
      result = call_varargs(self, &PyTuple_GET_ITEM(full, 0), (size_t)PyTuple_GET_SIZE(full), &PyTuple_GET_ITEM(kwonly, 0));
    else if (self->varargs && !kwonly)
      ;  /* (the error raised) */
    else if (full && PyTuple_GET_SIZE(full) == self->nparams)
      result = disp_call(self, &PyTuple_GET_ITEM(full, 0), NULL);
    else if (full)  /* **kwargs: the compiler would refuse it, so say so now */
      PyErr_Format(core_TypingError,
                   "%S: **kwargs is not supported: give the function named parameters (a wrapper such as "
                   "functools.wraps' cannot be compiled; compile the function it wraps)", self->py_func);
    Py_XDECREF(full); Py_XDECREF(kwonly);
  }
  Py_XDECREF(bound); Py_XDECREF(bind); Py_XDECREF(pos); Py_XDECREF(kw); Py_DECREF(sig);
  return result;
}

/* The parameter named key, or -1: the same object first (keyword names
 * in calls are interned), then equal strings, as CPython matches them.
 * Positional-only parameters have no name a keyword can give. */
static int param_index(Dispatcher *self, PyObject *key) {
  int n = self->nparams;
  for (int i = self->posonly; i < n; i++)
    if (PyTuple_GET_ITEM(self->param_names, i) == key) return i;
  if (!PyUnicode_Check(key)) return -1;
  for (int i = self->posonly; i < n; i++)
    if (PyUnicode_Compare(PyTuple_GET_ITEM(self->param_names, i), key) == 0) return i;
  return -1;
}

/* Binds the positional arguments, the keywords and the function's
 * current __defaults__ into full (borrowed references), as Python binds
 * plain parameters; false exactly where Python's binding fails. */
static bool bind_plain(Dispatcher *self, PyObject *const *args, size_t nargs, PyObject *kwnames, PyObject **full) {
  int n = self->nparams, positional = n - self->kwonly;  /* keyword-only ones last: by keyword or default */
  if (nargs > (size_t)positional) return false;
  for (int i = 0; i < n; i++) full[i] = (size_t)i < nargs ? args[i] : NULL;
  Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
  for (Py_ssize_t k = 0; k < nkw; k++) {
    int j = param_index(self, PyTuple_GET_ITEM(kwnames, k));
    if (j < 0 || full[j]) return false;  /* unknown, or given twice */
    full[j] = args[nargs + (size_t)k];
  }
  PyObject *defaults = PyFunction_GetDefaults(self->py_func), *kwdefaults = PyFunction_GetKwDefaults(self->py_func);
  int ndef = defaults ? (int)PyTuple_GET_SIZE(defaults) : 0;
  for (int i = 0; i < positional; i++)
    if (!full[i]) {
      if (i < positional - ndef) return false;  /* missing */
      full[i] = PyTuple_GET_ITEM(defaults, i - (positional - ndef));
    }
  for (int i = positional; i < n; i++)
    if (!full[i] && !(full[i] = kwdefaults ? PyDict_GetItem(kwdefaults, PyTuple_GET_ITEM(self->param_names, i)) : NULL))
      return false;  /* missing */
  return true;
}

/* A call with keywords, or relying on defaults: bound in C without a
 * Python object made. Where the binding fails, the Python function is
 * called with the same arguments, so that its own binding raises
 * Python's TypeError (its body never runs). Kept out of line: inlined,
 * its frame would be set up on every positional call too. */
static __attribute__((noinline)) PyObject *call_keywords(Dispatcher *self, PyObject *const *args, size_t nargsf, PyObject *kwnames) {
  size_t nargs = PyVectorcall_NARGS(nargsf);
  if (!self->param_names) return call_binding(self, args, nargs, kwnames);
  PyObject *full[MAX_ARGS];
  if (bind_plain(self, args, nargs, kwnames, full)) return disp_call(self, full, NULL);
  return PyObject_Vectorcall(self->py_func, args, nargsf, kwnames);
}

static PyObject *dispatcher_vectorcall(PyObject *callable, PyObject *const *args, size_t nargsf,
                                       PyObject *kwnames) {
  Dispatcher *self = (Dispatcher *)callable;
  size_t nargs = PyVectorcall_NARGS(nargsf);
  if (self->opts.kernel)
    return PyErr_Format(PyExc_ValueError,
                        "launch configuration was not specified: launch a kernel as kernel[blocks, threads](args)");
  if (!nargs && self->nullary_entry && !kwnames) return call_nullary(self);
  if (!kwnames && nargs == (size_t)self->nparams && !self->varargs && !self->kwonly) return disp_call(self, args, NULL);
  if (!kwnames && self->varargs && !self->kwonly && nargs >= (size_t)self->nparams - 1)
    return call_varargs(self, args, nargs, NULL);
  return call_keywords(self, args, nargsf, kwnames);
}

bool disp_numba_semantics;

/* One of fastmath's flag names (Numba's, LLVM's) as its FM_* flags. */
static bool fastmath_flag(PyObject *name, unsigned *flag) {
  static const struct { const char *name; unsigned flag; } names[] = {
    {"fast", FM_TRUE}, {"reassoc", FM_REASSOC}, {"nnan", FM_NNAN}, {"ninf", FM_NINF}, {"nsz", FM_NSZ},
    {"arcp", FM_ARCP}, {"contract", FM_CONTRACT}, {"afn", FM_AFN},
  };
  const char *text = PyUnicode_Check(name) ? PyUnicode_AsUTF8(name) : NULL;
  for (size_t k = 0; text && k < sizeof names / sizeof names[0]; k++)
    if (!strcmp(text, names[k].name)) {
      *flag = names[k].flag;
      return true;
    }
  if (!PyErr_Occurred())
    PyErr_Format(PyExc_ValueError, "Unrecognized fastmath flags: %R (known: fast, reassoc, nnan, ninf, nsz, arcp, "
                 "contract, afn)", name);
  return false;
}

/* fastmath=: True or False, a list of the flag names it allows (jit has
 * sorted Numba's set of them), or a dict of names to whether each is on. */
static bool fastmath_flags(PyObject *given, unsigned *flags) {
  *flags = given == Py_True ? FM_TRUE : 0;
  if (!given || PyBool_Check(given)) return true;
  unsigned flag;
  if (PyDict_Check(given)) {
    PyObject *name, *on;
    for (Py_ssize_t pos = 0; PyDict_Next(given, &pos, &name, &on);) {
      int truth = fastmath_flag(name, &flag) ? PyObject_IsTrue(on) : -1;
      if (truth < 0) return false;
      if (truth) *flags |= flag;
    }
    return true;
  }
  if (!PyList_Check(given)) {
    PyErr_Format(PyExc_ValueError, "Expected fastmath option(s) to be either a bool, dict or set, got %R", given);
    return false;
  }
  for (Py_ssize_t i = 0; i < PyList_GET_SIZE(given); i++) {
    if (!fastmath_flag(PyList_GET_ITEM(given, i), &flag)) return false;
    *flags |= flag;
  }
  return true;
}

bool disp_launch_bounds(PyObject *given, int bounds[3]) {
  bounds[0] = bounds[1] = bounds[2] = 0;
  if (!given || given == Py_None) return true;
  Py_ssize_t n = PyTuple_Check(given) ? PyTuple_GET_SIZE(given) : -1;
  for (Py_ssize_t i = 0; i < n && i < 3; i++) {
    long b = PyLong_Check(PyTuple_GET_ITEM(given, i)) ? PyLong_AsLong(PyTuple_GET_ITEM(given, i)) : -1;
    if (b <= 0 || b > INT32_MAX) n = -1;
    else bounds[i] = (int)b;
  }
  PyErr_Clear();
  if (n >= 1 && n <= 3) return true;
  PyErr_Format(PyExc_ValueError, "launch bounds must be a tuple of 1 to 3 positive ints, got %R", given);
  return false;
}

static int dispatcher_init(Dispatcher *self, PyObject *args, PyObject *kwds) {
  static char *kwlist[] = {"py_func", "boundscheck", "fastmath", "error_model", "nogil", "parallel",
                           "kernel", "debug", "locals", "launch_bounds", "lineinfo", "opt", NULL};
  PyObject *func, *locals = NULL, *fastmath_given = NULL, *launch_bounds = NULL;
  int boundscheck = 0, nogil = 0, parallel = 0, kernel = 0, debug = 0, lineinfo = 0, opt = 1;
  unsigned fastmath;
  const char *error_model = "python";
  if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|pOsppppO!Opp", kwlist, &func, &boundscheck, &fastmath_given,
                                   &error_model, &nogil, &parallel, &kernel, &debug, &PyDict_Type, &locals,
                                   &launch_bounds, &lineinfo, &opt) ||
      !fastmath_flags(fastmath_given, &fastmath) || !disp_launch_bounds(launch_bounds, self->opts.launch_bounds))
    return -1;
  if (!PyFunction_Check(func)) {
    PyErr_SetString(PyExc_TypeError, "ruchey.jit needs a Python function");
    return -1;
  }
  if (strcmp(error_model, "python") && strcmp(error_model, "numpy")) {
    PyErr_SetString(PyExc_ValueError, "error_model must be 'python' or 'numpy'");
    return -1;
  }
  PyCodeObject *code = (PyCodeObject *)PyFunction_GetCode(func);
  if (code->co_argcount + code->co_kwonlyargcount + ((code->co_flags & CO_VARARGS) != 0) > MAX_ARGS) {
    PyErr_Format(PyExc_TypeError, "ruchey compiles functions of at most %d parameters", MAX_ARGS);
    return -1;
  }
  if (!self->compile_lock && !(self->compile_lock = PyThread_allocate_lock())) {
    PyErr_NoMemory();
    return -1;
  }
  Py_XSETREF(self->py_func, Py_NewRef(func));
  Py_XSETREF(self->locals, Py_XNewRef(locals));
  Py_XSETREF(self->signatures, PyList_New(0));
  Py_XSETREF(self->gpu_signatures, PyList_New(0));
  if (!self->signatures || !self->gpu_signatures) return -1;
  /* *args, keyword-only parameters (after the others, before *args); with **kwargs a call says it is not
   * supported */
  self->varargs = (code->co_flags & (CO_VARARGS | CO_VARKEYWORDS)) == CO_VARARGS;
  self->kwonly = !(code->co_flags & CO_VARKEYWORDS) ? code->co_kwonlyargcount : 0;
  self->nparams = code->co_argcount + self->varargs + self->kwonly;
  self->posonly = code->co_posonlyargcount;
  Py_CLEAR(self->param_names);
  if (!(code->co_flags & (CO_VARARGS | CO_VARKEYWORDS))) {
    PyObject *names = PyObject_GetAttrString((PyObject *)code, "co_varnames");
    self->param_names = names ? PyTuple_GetSlice(names, 0, code->co_argcount + self->kwonly) : NULL;
    Py_XDECREF(names);
    if (!self->param_names) return -1;
  }
  self->opts.boundscheck = boundscheck;
  self->opts.fastmath = fastmath;
  self->opts.error_model_numpy = !strcmp(error_model, "numpy");
  self->opts.numba_code = disp_numba_semantics;
  self->opts.python = PY_VERSION_HEX;
  self->opts.parallel = parallel;
  self->opts.kernel = kernel;
  self->opts.debug = debug;
  self->opts.lineinfo = lineinfo;  /* (its PTX's alone: the CPU backend's code has no line table) */
  self->opts.unoptimised = !opt;   /* (numba-cuda's opt=False: its PTX's alone, as lineinfo) */
  self->opts.boundscheck = boundscheck || debug;
  /* the pool must not wait on a thread that holds the GIL */
  self->nogil = nogil || parallel || kernel;
  self->vectorcall = dispatcher_vectorcall;
  return 0;
}

/* The specialisations' code goes with the dispatcher: a caller compiled
 * with it holds its own copy (calls are lowered into the caller), and a
 * call in progress holds the dispatcher. */
static void release_specs(Dispatcher *self) {
  const RucheyAPI *api = self->nspecs ? core_api() : NULL;
  for (int i = 0; i < self->nspecs; i++) free_literal_values(self->specs[i].lits, self->nparams);
  for (int i = 0; api && i < self->nspecs; i++) {
    if (self->specs[i].code) api->release_code(self->specs[i].code);
    if (self->specs[i].checked_code) api->release_code(self->specs[i].checked_code);
  }
  for (int i = 0; api && i < self->nretired; i++) api->release_code(self->retired[i]);
  PyMem_Free(self->specs);
  PyMem_Free(self->retired);
}

static void dispatcher_dealloc(Dispatcher *self) {
  PyObject_GC_UnTrack(self);
  if (self->weakrefs) PyObject_ClearWeakRefs((PyObject *)self);
  Py_CLEAR(self->py_func);
  Py_CLEAR(self->param_names);
  Py_CLEAR(self->locals);
  Py_CLEAR(self->dict);
  Py_CLEAR(self->signatures);
  release_specs(self);
  PyMem_Free(self->ufunc_loops);
  PyMem_Free(self->called_as);
  launch_unload(self);
  Py_CLEAR(self->gpu_signatures);
  if (self->compile_lock) PyThread_free_lock(self->compile_lock);
  Py_TYPE(self)->tp_free(self);
}

static int dispatcher_traverse(Dispatcher *self, visitproc visit, void *arg) {
  Py_VISIT(self->py_func);
  Py_VISIT(self->locals);
  Py_VISIT(self->dict);
  return 0;
}

static int dispatcher_clear(Dispatcher *self) {
  Py_CLEAR(self->dict);
  return 0;
}

/* Adds the text of one specialisation to d, under its signature: compiled
 * again (the JIT keeps only machine code), a kernel's PTX read from the
 * cache where it has one, as a launch on a GPU reads it. */
static bool add_text(PyObject *d, PyObject *sig, Dispatcher *self, const Type *const *args, PyObject *const *lits,
                     const Type *declared, bool device, OutputKind out, int gpu_cc) {
  Arena arena = {0};
  device |= gpu_cc && !self->opts.kernel;  /* a cuda.jit(device=True) function's PTX or IR: a .func */
  CompileResult res;
  bool ok = lits ? literal_code(self, args, lits, out, &res, &arena)
            : out == OUT_PTX && !device && !declared ? cache_ptx(self, args, gpu_cc, &res, &arena)
                                                     : cp_compile(self, args, declared, device, out, gpu_cc, &res, &arena);
  arena_free(&arena);
  PyObject *text = ok ? PyUnicode_FromString(res.text) : NULL;
  if (ok) free(res.text);
  ok = text && PyDict_SetItem(d, sig, text) == 0;
  Py_XDECREF(text);
  return ok;
}

/* inspect_llvm() / inspect_asm() / inspect_ptx(): the text of each
 * specialisation, those only launched on a GPU too. */
static PyObject *inspect_text(Dispatcher *self, OutputKind out, int gpu_cc) {
  compile_called_as(self);
  PyObject *d = PyDict_New();
  for (int i = 0; d && i < self->nspecs; i++)
    if (!add_text(d, PyList_GET_ITEM(self->signatures, i), self, self->specs[i].args, self->specs[i].lits,
                  self->specs[i].declared_ret, self->specs[i].device, out, gpu_cc))
      Py_CLEAR(d);
  for (int i = 0; d && i < self->ngpu_specs; i++) {
    PyObject *sig = PyList_GET_ITEM(self->gpu_signatures, i);
    int known = PyDict_Contains(d, sig);
    if (known < 0 || (!known && !add_text(d, sig, self, self->gpu_specs[i].args, NULL, NULL, false, out,
                                          gpu_cc)))
      Py_CLEAR(d);
  }
  return d;
}

/* inspect_llvm(signature=None), inspect_asm(signature=None), as Numba's:
 * the text of the compiled signature given (an item of .signatures, a
 * tuple of the types, or its text), else of each in a dict. */
static PyObject *inspect_one_or_all(Dispatcher *self, OutputKind out, int gpu_cc, PyObject *args,
                                    PyObject *kwargs) {
  static char *names[] = {"signature", NULL};
  PyObject *sig = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O", names, &sig)) return NULL;
  PyObject *d = inspect_text(self, out, gpu_cc);
  if (!d || sig == Py_None) return d;
  PyObject *text = PyDict_GetItemWithError(d, sig);
  PyObject *as_text = !text && !PyErr_Occurred() && PyTuple_Check(sig) ? PyObject_Str(sig) : NULL;  /* (int32,) */
  if (as_text) text = PyDict_GetItemWithError(d, as_text);
  Py_XDECREF(as_text);
  if (!text && !PyErr_Occurred()) PyErr_Format(PyExc_KeyError, "%R is not a compiled signature of %S", sig, self->py_func);
  Py_XINCREF(text);
  Py_DECREF(d);
  return text;
}

/* The compute capability of the device kernels run on now (ruchey.cuda's
 * current device: a GPU, or the CPU backend, which stands for one), as 75
 * for (7, 5); 0 with an exception set. */
static int current_device_cc(void) {
  PyObject *runtime = PyImport_ImportModule("ruchey.cuda.runtime");
  PyObject *device = runtime ? PyObject_CallMethod(runtime, "get_current_device", NULL) : NULL;
  PyObject *cc = device ? PyObject_GetAttrString(device, "compute_capability") : NULL;
  int major = 0, minor = 0;
  if (cc && !PyArg_ParseTuple(cc, "ii", &major, &minor)) major = 0;
  Py_XDECREF(cc);
  Py_XDECREF(device);
  Py_XDECREF(runtime);
  return major * 10 + minor;
}

/* A kernel's or a cuda.jit(device=True) function's assembly is its PTX for
 * the current device, as numba-cuda's (the GPU's code, whichever backend
 * runs it here); an @njit function's, the host's machine code. */
static PyObject *dispatcher_inspect_asm(Dispatcher *self, PyObject *args, PyObject *kwargs) {
  if (!self->opts.kernel && !self->cuda_device) return inspect_one_or_all(self, OUT_ASM, 0, args, kwargs);
  int cc = current_device_cc();
  return cc ? inspect_one_or_all(self, OUT_PTX, cc, args, kwargs) : NULL;
}

/* A kernel's or a cuda.jit(device=True) function's LLVM IR is the GPU's,
 * as numba-cuda's: its module for the current device before libdevice and
 * optimisation (what numba-cuda hands NVVM); an @njit function's, the
 * host's optimised module. */
static PyObject *dispatcher_inspect_llvm(Dispatcher *self, PyObject *args, PyObject *kwargs) {
  if (!self->opts.kernel && !self->cuda_device) return inspect_one_or_all(self, OUT_LLVM_IR, 0, args, kwargs);
  int cc = current_device_cc();
  return cc ? inspect_one_or_all(self, OUT_LLVM_IR, cc, args, kwargs) : NULL;
}

/* inspect_ptx(cc): each compiled signature of a kernel (or of a
 * cuda.jit(device=True) function, as a .func) as PTX for compute
 * capability cc. */
static PyObject *dispatcher_inspect_ptx(Dispatcher *self, PyObject *arg) {
  int cc = PyLong_AsLong(arg);
  if (cc == -1 && PyErr_Occurred()) return NULL;
  if (!self->opts.kernel && !self->cuda_device)
    return PyErr_Format(PyExc_TypeError, "%S is not a kernel", self->py_func);
  return inspect_text(self, OUT_PTX, cc);
}

/* _compile(args, ret): compiles an explicit signature now; args is a tuple
 * of (kind, ndim, layout), ret one of those, "none", or None (inferred).
 * Calls still compile other types after it (Numba's compile()); refused
 * once compiling is disabled (jit's signatures, disable_compile()). */
static PyObject *dispatcher_compile_signature(Dispatcher *self, PyObject *a) {
  PyObject *args, *ret;
  if (!PyArg_ParseTuple(a, "O!O", &PyTuple_Type, &args, &ret) || !core_api()) return NULL;
  if (PyTuple_GET_SIZE(args) != self->nparams)
    return PyErr_Format(PyExc_TypeError, "Signature mismatch: %zd argument types given, but function takes %d "
                        "arguments", PyTuple_GET_SIZE(args), self->nparams);
  const Type *types[MAX_ARGS];
  for (int i = 0; i < self->nparams; i++)
    if (!(types[i] = disp_described_type(PyTuple_GET_ITEM(args, i)))) return NULL;
  const Type *declared = NULL;
  if (PyUnicode_Check(ret)) declared = &core_plain[TY_NONE];
  else if (ret != Py_None && !(declared = disp_described_type(ret))) return NULL;
  if (self->sealed) return PyErr_Format(PyExc_RuntimeError, "compilation disabled");
  disp_lock_compiles(self);
  bool ok = disp_find_spec(self, types, false) || add_spec(self, types, NULL, declared, false);
  disp_unlock_compiles(self);
  if (!ok) return NULL;
  Py_RETURN_NONE;
}

/* _entries(): (signature, entry point's address, argument types, return
 * type) of each specialisation, the types as ruchey.types describes them
 * (an argument literally() froze as ("literal", its value, its type's)), for
 * Dispatcher.signatures, overloads and the inspections. */
static PyObject *dispatcher_entries(Dispatcher *self, PyObject *unused) {
  compile_called_as(self);
  PyObject *list = PyList_New(0);
  for (int i = 0; list && i < self->nspecs; i++) {
    Spec *s = &self->specs[i];
    PyObject *args = PyTuple_New(self->nparams);
    for (int a = 0; args && a < self->nparams; a++) {
      PyObject *d = s->lits && s->lits[a] ? Py_BuildValue("(sON)", "literal", s->lits[a], disp_describe_type(s->args[a]))
                                          : disp_describe_type(s->args[a]);
      if (!d) Py_CLEAR(args);
      else PyTuple_SET_ITEM(args, a, d);
    }
    PyObject *row = args ? Py_BuildValue("(OKNN)", PyList_GET_ITEM(self->signatures, i),
                                         (unsigned long long)(uintptr_t)s->entry, args, disp_describe_type(s->ret_type))
                         : NULL;
    if (!row || PyList_Append(list, row) < 0) Py_CLEAR(list);
    Py_XDECREF(row);
  }
  return list;
}

/* Compiles spec s again (the globals it froze may have changed); its old
 * code stays loaded for calls still running it. */
static bool recompile_spec(Dispatcher *self, int i) {
  void **grown = PyMem_Realloc(self->retired, sizeof(void *) * (size_t)(self->nretired + 2));
  if (!grown) return PyErr_NoMemory(), false;
  self->retired = grown;
  Spec was = self->specs[i];  /* compiling may grow self->specs */
  Arena arena = {0};
  CompileResult res = {0};
  bool ok = spec_code(self, was.args, was.lits, was.declared_ret, was.device, &res, &arena);
  if (ok && res.warning[0] && PyErr_WarnEx(PyExc_RuntimeWarning, res.warning, 1) < 0) ok = false;
  Spec *s = &self->specs[i];
  if (ok) {
    if (s->code) self->retired[self->nretired++] = s->code;
    if (s->checked_code) self->retired[self->nretired++] = s->checked_code;
    s->checked = NULL, s->checked_code = NULL;
    s->reruns = res.reruns;
    s->entry = res.entry;
    s->ret_type = res.ret_type;
    s->barrier = res.barrier;
    s->code = res.code;
    if (s->declared_ret) s->declared_ret = s->ret_type;
  } else if (res.code) {
    core_api()->release_code(res.code);
  }
  arena_free(&arena);
  return ok;
}

/* recompile(): every specialisation compiled again, as Numba's. */
static PyObject *dispatcher_recompile(Dispatcher *self, PyObject *unused) {
  if (self->opts.kernel) return PyErr_Format(PyExc_TypeError, "recompile() is for @jit functions, not kernels");
  disp_lock_compiles(self);
  bool ok = true;
  self->nullary_entry = NULL;  /* noted again at the next call */
  for (int i = 0; ok && i < self->nspecs; i++) ok = recompile_spec(self, i);
  disp_unlock_compiles(self);
  if (!ok) return NULL;
  Py_RETURN_NONE;
}

/* disable_compile(val=True): no more specialisations (Numba's); calls
 * then take the compiled ones, converting arguments as for explicit
 * signatures. False allows them again. */
static PyObject *dispatcher_disable_compile(Dispatcher *self, PyObject *args) {
  int val = 1;
  if (!PyArg_ParseTuple(args, "|p:disable_compile", &val)) return NULL;
  self->sealed = val;
  Py_RETURN_NONE;
}

/* A jitted function stored on a class is read as a Python function is
 * (as Numba's): through an instance, bound to it; through the class, itself. */
static PyObject *dispatcher_get(PyObject *self, PyObject *obj, PyObject *type) {
  return !obj || obj == Py_None ? Py_NewRef(self) : PyMethod_New(self, obj);
}

static PyMethodDef dispatcher_methods[] = {
  {"inspect_llvm", (PyCFunction)(void (*)(void))dispatcher_inspect_llvm, METH_VARARGS | METH_KEYWORDS,
   "inspect_llvm(signature=None): the optimised LLVM IR of the compiled signature given, else of each as a dict "
   "(a kernel's or a CUDA device function's: the GPU's module, before optimisation)."},
  {"_launch", (PyCFunction)launch_cpu, METH_VARARGS, "Run a kernel over a grid on the CPU backend."},
  {"_max_cooperative_blocks", (PyCFunction)launch_max_cooperative_blocks, METH_VARARGS,
   "How many blocks a cooperative launch may have on the current GPU, for argument types."},
  {"_function_attribute", (PyCFunction)launch_function_attribute, METH_VARARGS,
   "The driver's CU_FUNC_ATTRIBUTE_* of the kernel compiled for argument types, on the current GPU."},
  {"_launch_gpu", (PyCFunction)launch_gpu, METH_VARARGS,
   "Launch a kernel on the current CUDA device: (grid, block, shared bytes, stream handle, args)."},
  {"inspect_ptx", (PyCFunction)dispatcher_inspect_ptx, METH_O,
   "A kernel's PTX for compute capability cc (e.g. 80), per compiled signature, as a dict."},
  {"_compile", (PyCFunction)dispatcher_compile_signature, METH_VARARGS,
   "Compile an explicit signature now (used by jit with signatures)."},
  {"inspect_asm", (PyCFunction)(void (*)(void))dispatcher_inspect_asm, METH_VARARGS | METH_KEYWORDS,
   "inspect_asm(signature=None): the machine code of the compiled signature given as assembly text (a CUDA "
   "kernel's or device function's: its PTX for the current device), else of each in a dict."},
  {"recompile", (PyCFunction)dispatcher_recompile, METH_NOARGS,
   "Compile every signature again (after the globals it froze changed)."},
  {"disable_compile", (PyCFunction)dispatcher_disable_compile, METH_VARARGS,
   "disable_compile(val=True): compile no more signatures (val False: compile again)."},
  {"_entries", (PyCFunction)dispatcher_entries, METH_NOARGS,
   "(signature, entry point, return type) of each compiled signature."},
  {"_call_entry", (PyCFunction)dispatcher_call_entry, METH_VARARGS,
   "_call_entry(i, args): the i-th compiled signature called with the tuple args."},
  {NULL, NULL, 0, NULL},
};

static PyMemberDef dispatcher_members[] = {
  {"py_func", T_OBJECT, offsetof(Dispatcher, py_func), READONLY, "The Python function compiled."},
  {"_signature_texts", T_OBJECT, offsetof(Dispatcher, signatures), READONLY,
   "The argument types of each compiled specialisation, as text: \"(int64, float64)\"."},
  {"_scalars_only", T_BOOL, offsetof(Dispatcher, scalars_only), 0,
   "A ufunc's function: compiled code calls it per element, with the types of one of its ufunc's loops."},
  {"_reports_failures", T_BOOL, offsetof(Dispatcher, opts.reports_failure), 0,
   "A @cfunc's: its entries (FunctionType arguments) write a failure out as unraisable and return zero."},
  {"_sealed", T_BOOL, offsetof(Dispatcher, sealed), 0,
   "No compiles beyond the explicit signatures (a ufunc's: beyond its loops)."},
  {"_inline_always", T_BOOL, offsetof(Dispatcher, inline_always), 0,
   "inline=\"always\": compiled callers compile it for their argument types, its signatures aside."},
  {"_force_inline", T_BOOL, offsetof(Dispatcher, opts.force_inline), 0,
   "A cuda.jit(device=True, forceinline=True) function: always inlined into its callers on the GPU."},
  {"_cuda_device", T_BOOL, offsetof(Dispatcher, cuda_device), 0,
   "A cuda.jit(device=True) function: its inspect_asm() and inspect_ptx() give its PTX (a .func)."},
  {"_inherits", T_BOOL, offsetof(Dispatcher, inherits), 0,
   "Compiled code calling it compiles it with the caller's options (parallel, fastmath, boundscheck)."},
  {"gpu_signatures", T_OBJECT, offsetof(Dispatcher, gpu_signatures), READONLY,
   "A kernel's: the argument types of each specialisation loaded on a GPU."},
  {NULL, 0, 0, 0, NULL},
};

/* Attributes written in Python, in ruchey/inspection.py, where speed does
 * not matter: a property is its function's value for the dispatcher, a
 * method (closure "name()") the function bound to it. */
static PyObject *python_attribute(Dispatcher *self, void *closure) {
  const char *name = closure;
  size_t n = strcspn(name, "(");
  char attr[64];
  snprintf(attr, sizeof attr, "%.*s", (int)n, name);
  PyObject *module = PyImport_ImportModule("ruchey.inspection");
  PyObject *fn = module ? PyObject_GetAttrString(module, attr) : NULL;
  Py_XDECREF(module);
  if (!fn) return NULL;
  PyObject *value = name[n] ? PyMethod_New(fn, (PyObject *)self) : PyObject_CallOneArg(fn, (PyObject *)self);
  Py_DECREF(fn);
  return value;
}

/* __code__ and func_code: the Python function's code, as Numba's dispatchers
 * give it (packages test hasattr(f, "func_code") to tell a compiled one). */
static PyObject *dispatcher_code(Dispatcher *self, void *closure) {
  return PyObject_GetAttrString(self->py_func, "__code__");
}

/* f[griddim, blockdim]: numba-cuda's error for a cuda.jit(device=True)
 * function launched as a kernel (a launch configuration is a kernel's);
 * Python's own for any other compiled function. */
static PyObject *dispatcher_subscript(Dispatcher *self, PyObject *key) {
  if (self->cuda_device) return PyErr_Format(PyExc_RuntimeError, "Cannot compile a device function as a kernel");
  return PyErr_Format(PyExc_TypeError, "'%s' object is not subscriptable", Py_TYPE(self)->tp_name);
}

static PyMappingMethods dispatcher_as_mapping = {.mp_subscript = (binaryfunc)dispatcher_subscript};

#define PYTHON_PROPERTY(name, doc) {name, (getter)python_attribute, NULL, doc, (void *)name}
#define PYTHON_METHOD(name, doc) {name, (getter)python_attribute, NULL, doc, (void *)(name "()")}

static PyGetSetDef dispatcher_getset[] = {
  {"__dict__", PyObject_GenericGetDict, PyObject_GenericSetDict, NULL, NULL},
  {"__code__", (getter)dispatcher_code, NULL, "The Python function's code.", NULL},
  {"func_code", (getter)dispatcher_code, NULL, "The Python function's code (Numba's name).", NULL},
  PYTHON_PROPERTY("stats", "The on-disk cache's hits and misses (cache_path, cache_hits, cache_misses)."),
  PYTHON_PROPERTY("overloads", "Each compiled signature's compile result (signature, entry_point, return type)."),
  PYTHON_PROPERTY("signatures", "The argument types of each compiled specialisation, a tuple of types each."),
  PYTHON_PROPERTY("nopython_signatures", "Each compiled signature as a ruchey.types Signature."),
  PYTHON_METHOD("inspect_types", "Print the source, each line with the types of its variables."),
  PYTHON_METHOD("parallel_diagnostics", "Print what each loop of a parallel=True function became."),
  PYTHON_METHOD("compile", "compile(sig): compile the signature sig now; returns what to call."),
  PYTHON_METHOD("inspect_sass", "A kernel's SASS (a device function's: numba-cuda's RuntimeError)."),
  PYTHON_METHOD("compile_device", "compile_device(args, return_type=None): a device function compiled for args."),
  {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject DispatcherType = {
  PyVarObject_HEAD_INIT(NULL, 0)
  .tp_name = "ruchey.Dispatcher",
  .tp_basicsize = sizeof(Dispatcher),
  .tp_dealloc = (destructor)dispatcher_dealloc,
  .tp_vectorcall_offset = offsetof(Dispatcher, vectorcall),
  .tp_call = PyVectorcall_Call,
  .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL |
              Py_TPFLAGS_BASETYPE,
  .tp_doc = "A function compiled by ruchey on first call for each set of argument types.",
  .tp_traverse = (traverseproc)dispatcher_traverse,
  .tp_clear = (inquiry)dispatcher_clear,
  .tp_methods = dispatcher_methods,
  .tp_members = dispatcher_members,
  .tp_getset = dispatcher_getset,
  .tp_as_mapping = &dispatcher_as_mapping,
  .tp_descr_get = dispatcher_get,
  .tp_dictoffset = offsetof(Dispatcher, dict),
  .tp_weaklistoffset = offsetof(Dispatcher, weakrefs),
  .tp_init = (initproc)dispatcher_init,
  .tp_new = PyType_GenericNew,
};
