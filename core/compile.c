/* compile.c — the compile pipeline: a Python function's source read into
 * the IR (frontend.c), typed by libruchey for argument types, then
 * generated as machine code, its text, or PTX.
 *
 * Typing calls back here for each call to another ruchey function
 * (ResolveCall). On the CPU the callee gets its own specialisation, called
 * through its entry; a kernel's PTX holds every device function it calls,
 * each typed into the kernel's compile.
 */
#include "core.h"

/* ---------------------------------------------------------------- errors */

static bool call_error(Diag *diag, const char *fmt, const char *detail) {
  diag->kind = DIAG_TYPING;
  snprintf(diag->msg, sizeof diag->msg, fmt, detail);
  return false;
}

/* A Python exception raised while compiling a callee, as the caller's Diag. */
static bool diag_from_exception(Diag *diag) {
  PyObject *type, *value, *tb;
  PyErr_Fetch(&type, &value, &tb);
  PyObject *text = value ? PyObject_Str(value) : NULL;
  bool attribute = type == core_TypingAttributeError;
  diag->kind = type == core_TypingError || attribute ? DIAG_TYPING : type == PyExc_RecursionError ? DIAG_RECURSION
               : DIAG_INTERNAL;
  snprintf(diag->msg, sizeof diag->msg, "%s%s", attribute ? (char[]){DIAG_ATTRIBUTE_MARK, 0} : "",
           text ? PyUnicode_AsUTF8(text) : "error");
  Py_XDECREF(text); Py_XDECREF(type); Py_XDECREF(value); Py_XDECREF(tb);
  PyErr_Clear();
  return false;
}

/* Whether a call's argument types can be passed to disp. */
static bool check_call(Dispatcher *disp, const Type **args, int nargs, Diag *diag) {
  if (nargs != disp->nparams) return call_error(diag, "%s", "wrong number of arguments");

  for (int i = 0; i < nargs; i++)
    if (!ty_is_scalar(args[i]) && args[i]->kind != TY_ARRAY && args[i]->kind != TY_GRID && args[i]->kind != TY_NONE &&
        args[i]->kind != TY_OPTIONAL && args[i]->kind != TY_TUPLE && args[i]->kind != TY_LITDICT &&
        args[i]->kind != TY_FUNCTION && args[i]->kind != TY_FUNCS && args[i]->kind != TY_FUNCPTR &&
        args[i]->kind != TY_STR && args[i]->kind != TY_BYTES && args[i]->kind != TY_FLAGS && args[i]->kind != TY_RECORD && args[i]->kind != TY_GENERATOR && args[i]->kind != TY_BITGEN && args[i]->kind != TY_CLASS && args[i]->kind != TY_BOUND &&
        args[i]->kind != TY_YIELDS && args[i]->kind != TY_DICTVIEW && args[i]->kind != TY_MEMINFO && args[i]->kind != TY_RANGE && args[i]->kind != TY_SLICE && args[i]->kind != TY_MODULE && !ty_is_numpy_dtype(args[i]) && !ty_is_enum(args[i]) &&
        !(args[i]->kind == TY_DTYPE && args[i]->elem->kind == TY_PYOBJECT) &&
        !(ty_is_container(args[i]) && (args[i]->elem || args[i]->nfields))) {  /* a typed list or dict */
      diag->kind = DIAG_TYPING;
      snprintf(diag->msg, sizeof diag->msg, "argument %d of type %s cannot be passed to a ruchey function",
               i + 1, args[i]->name);
      return false;
    }
  return true;
}

static bool same_args(const Type *const *a, const Type *const *b, int n) {
  return !memcmp(a, b, sizeof(Type *) * (size_t)n);
}

/* ---------------------------------------------------------------- the pipeline */

/* Reads pyfunc (into *read, where calls made while typing it find it) and
 * types it for args; NULL with diag set (or a Python exception). */
/* jit's locals={name: type}: each named variable's declared type (a name
 * the function does not use is ignored, as Numba ignores it). */
static bool declare_locals(Func *f, PyObject *locals, Arena *arena) {
  PyObject *name, *desc;
  Py_ssize_t pos = 0;
  if (!locals || !PyDict_GET_SIZE(locals)) return true;
  f->declared_types = arena_alloc(arena, sizeof(Type *) * (size_t)(f->nvars ? f->nvars : 1));
  while (PyDict_Next(locals, &pos, &name, &desc)) {
    const char *s = PyUnicode_Check(name) ? PyUnicode_AsUTF8(name) : NULL;
    if (!s) return false;
    for (int v = 0; v < f->nvars; v++)
      if (!strcmp(f->var_names[v], s) && !(f->declared_types[v] = disp_described_type(desc))) return false;
  }
  return true;
}

static Func *read_and_type(const RucheyAPI *api, PyObject *pyfunc, PyObject *self, PyObject *locals,
                           const Type *const *args, int nargs, const CompileOptions *opts, Arena *arena, Diag *diag,
                           Func **read) {
  Func *f = *read = fe_read_function(pyfunc, self, opts ? opts->frozen : NULL, arena, diag);
  if (!f || !declare_locals(f, locals, arena)) return NULL;
  if (f->nparams != nargs) {
    PyErr_Format(PyExc_TypeError, "the signature has %d arguments, the function %d", nargs, f->nparams);
    return NULL;
  }
  const Type **types = arena_alloc(arena, sizeof(Type *) * (size_t)(nargs ? nargs : 1));
  memcpy(types, args, sizeof(Type *) * (size_t)nargs);
  return api->infer(f, types, opts, diag) ? f : NULL;
}

static bool nesting_fits(const RucheyAPI *api, Func *f, const CompileOptions *opts, Diag *diag);

/* Generates a typed f; LLVM's part runs without the GIL, other Python
 * threads running meanwhile. */
static bool generate(const RucheyAPI *api, Func *f, const CompileOptions *opts, OutputKind out,
                     CompileResult *res, Diag *diag) {
  if (!nesting_fits(api, f, opts, diag)) return false;
  core_watch_interrupts();
  bool ok;
  Py_BEGIN_ALLOW_THREADS
  ok = api->generate(f, opts, out, res, diag);
  Py_END_ALLOW_THREADS
  return ok;
}

/* ---------------------------------------------------------------- callees */

/* Every function a compile calls is read and typed into the compile's
 * arena, once per argument types, and lowered into the same module under
 * its own symbol: calls between them are direct calls LLVM can inline.
 * The function being compiled is the first; a call to one still being
 * typed is recursion. */
typedef struct Callee {
  int index;              /* its place in the compile's list, in its symbol */
  Dispatcher *disp;       /* NULL once its typing asked for literal arguments: retyped with them */
  const Type *args[MAX_ARGS];
  const Node **frozen;    /* per parameter, the constant literally() froze it to; NULL: none */
  bool device;            /* called from CUDA code */
  Func *func;
  CompileOptions opts;
  bool typing;            /* being typed now */
} Callee;

typedef struct Callees {
  Arena *arena;           /* the compile's */
  int cc;                 /* for the GPU: the compute capability; 0 on the CPU */
  Callee **items;         /* each in the arena: CallTargets point at their options */
  int n, cap;
  PyObject *held[3];      /* the first exception a typing function raised that is no NumbaError (type, value,
                           * traceback): the compile's failure, raised unchanged (NULL: none) */
} Callees;

/* The exception set now, held as the compile's failure unless one is. */
static void hold_exception(Callees *c) {
  if (!PyErr_Occurred()) return;
  if (c->held[0]) {
    PyErr_Clear();
    return;
  }
  PyErr_Fetch(&c->held[0], &c->held[1], &c->held[2]);
}

/* The held exception dropped: the compile went on to succeed. */
static void drop_held(Callees *c) {
  for (int i = 0; c && i < 3; i++) Py_CLEAR(c->held[i]);
}

/* Turns a failed step's Diag into the Python exception, unless one is set
 * or a typing function's own is held (resolve_ctx's), which is raised. */
static bool raise_failure(const Diag *diag, PyObject *pyfunc, const CompileOptions *opts) {
  Callees *c = opts->resolve_ctx;
  if (c && c->held[0]) {
    PyErr_Restore(c->held[0], c->held[1], c->held[2]);
    c->held[0] = c->held[1] = c->held[2] = NULL;
  } else if (!PyErr_Occurred() && diag->kind) {
    core_raise_diag(diag, PyUnicode_AsUTF8(((PyCodeObject *)PyFunction_GetCode(pyfunc))->co_filename));
  }
  return false;
}

enum { MAX_CALLEES = 256 };

static Callee *add_callee(Callees *c, Dispatcher *disp, const Type *const *args, bool device) {
  if (c->n == c->cap) {
    int cap = c->cap ? 2 * c->cap : 8;
    Callee **grown = arena_alloc(c->arena, sizeof(Callee *) * (size_t)cap);
    if (c->n) memcpy(grown, c->items, sizeof(Callee *) * (size_t)c->n);
    c->items = grown;
    c->cap = cap;
  }
  Callee *e = c->items[c->n] = arena_alloc(c->arena, sizeof(Callee));
  *e = (Callee){.index = c->n++, .disp = disp, .device = device, .opts = disp->opts, .typing = true};
  memcpy(e->args, args, sizeof(Type *) * (size_t)disp->nparams);
  e->opts.resolve_ctx = c;
  return e;
}

/* Whether two parameters' frozen constants are the same value (of the same
 * type): a tuple of constants (a shape) item by item. */
static bool same_constant(const Node *a, const Node *b) {
  if (!a || !b) return a == b;
  if (a->kind != b->kind || a->ival != b->ival) return false;
  if (a->kind == N_TUPLE) {
    if (a->list.len != b->list.len) return false;
    for (int i = 0; i < a->list.len; i++)
      if (!same_constant(a->list.items[i], b->list.items[i])) return false;
  }
  return a->kind != N_STRING || !memcmp(a->str, b->str, (size_t)a->ival);
}

static bool same_frozen(const Node *const *a, const Node *const *b, int n) {
  for (int i = 0; (a || b) && i < n; i++)
    if (!same_constant(a ? a[i] : NULL, b ? b[i] : NULL)) return false;
  return true;
}

static Callee *find_callee(Callees *c, Dispatcher *disp, const Type *const *args, const Node *const *frozen,
                           bool device) {
  for (int i = 0; i < c->n; i++) {
    Callee *e = c->items[i];
    if (e->disp == disp && e->device == device && same_args(e->args, args, disp->nparams) &&
        same_frozen(e->frozen, frozen, disp->nparams))
      return e;
  }
  return NULL;
}

/* The frozen constants of disp's parameters in mask, from a call's consts
 * (NULL where it has none), those in have kept; NULL where mask is empty.
 * *missing gets the parameters in mask the call gives no constant for. */
static const Node **freeze(Callees *c, Dispatcher *disp, const Node *const *have, const Node *const *consts,
                           uint64_t mask, uint64_t *missing) {
  *missing = 0;
  if (!mask && !have) return NULL;
  const Node **frozen = arena_alloc(c->arena, sizeof(Node *) * (size_t)(disp->nparams ? disp->nparams : 1));
  for (int i = 0; i < disp->nparams; i++) {
    frozen[i] = have ? have[i] : NULL;
    if (i < 64 && (mask >> i & 1) && !frozen[i] && !(frozen[i] = consts ? consts[i] : NULL)) *missing |= 1ull << i;
  }
  return frozen;
}

/* Typing a recursive function again (its recursive calls took its result
 * as a type it does not convert to) widens that type each time: a result
 * still wider after these many is one that grows without end. */
enum { MAX_RECURSION_TYPINGS = 8 };

/* The callees typed after e, while it was being typed: typed afresh. */
static void forget_callees_after(Callees *c, const Callee *e) {
  for (int i = e->index + 1; i < c->n; i++) c->items[i]->disp = NULL;
}

/* Reads and types a callee for its entry; false with diag set. A
 * recursive one whose recursive calls took its result as another type
 * than it returns is typed again, with them taking the unification
 * (what Numba's typing of the partial return types reaches). */
static bool type_callee(Callees *c, Callee *e, Diag *diag) {
  char symbol[256];
  snprintf(symbol, sizeof symbol, "%s_%d", PyUnicode_AsUTF8(((PyCodeObject *)PyFunction_GetCode(e->disp->py_func))->co_name),
           e->index);
  e->opts.frozen = e->frozen;
  for (int typings = 1;; typings++) {
    Func *f = read_and_type(core_api(), e->disp->py_func, (PyObject *)e->disp, e->disp->locals, e->args,
                            e->disp->nparams, &e->opts, c->arena, diag, &e->func);
    if (e->func) e->func->symbol = arena_strdup(c->arena, symbol);
    if (!f || !f->retype_as) {
      e->typing = false;
      return f != NULL;
    }
    if (typings == MAX_RECURSION_TYPINGS) {
      e->typing = false;
      *diag = (Diag){.kind = DIAG_TYPING, .line = f->line};
      snprintf(diag->msg, sizeof diag->msg, "Return type of recursive function does not converge: '%s' returns %s "
               "where its recursive calls take %s", f->name, f->ret_type->name, f->recursed_as->name);
      return false;
    }
    e->opts.recursion_ret = f->retype_as;
    forget_callees_after(c, e);
  }
}

/* Types a callee whose literally() may ask for its parameters' values
 * (Numba's literal dispatch): they are frozen to the call's constants
 * and it is typed again, until it asks for none it lacks. The dispatcher
 * remembers which it asks for, so that later calls freeze them at once.
 * False with diag set; DIAG_LITERAL naming the parameters the call gives
 * no constants for. */
static Callee *type_literal_callee(Callees *c, Callee *e, const Node *const *consts, Diag *diag) {
  while (!type_callee(c, e, diag)) {
    /* never found again: typed afresh by its caller's next pass (a pending
     * recursion, or another typing with constants where it failed) */
    Dispatcher *disp = e->disp;
    e->disp = NULL;
    if (diag->kind != DIAG_LITERAL) return NULL;
    uint64_t again = 0;
    for (int i = 0; e->frozen && i < disp->nparams && i < 64; i++) again |= (uint64_t)(e->frozen[i] != NULL) << i;
    if (diag->literal_params & again) {
      call_error(diag, "%s", "Repeated literal typing request: literally() of a parameter whose value is known");
      return NULL;
    }
    disp->literal_mask |= diag->literal_params;
    uint64_t missing;
    const Node **frozen = freeze(c, disp, e->frozen, consts, diag->literal_params, &missing);
    if (missing) {
      diag->literal_params = missing;
      return NULL;
    }
    Callee *same = find_callee(c, disp, e->args, frozen, e->device);
    if (same) return same;
    CompileOptions opts = e->opts;
    e = add_callee(c, disp, e->args, e->device);
    e->opts = opts;
    e->frozen = frozen;
    *diag = (Diag){0};
  }
  return e;
}

/* A callee that failed to type for the call's argument types, typed again
 * with its parameters that the call gives constants for frozen to them:
 * as Numba types a call's constants as literal types, so that the
 * overloads it calls see their values (an overload implemented for a
 * literal alone). The first error stays where this fails too. */
static Callee *type_with_constants(Callees *c, Dispatcher *disp, Callee *failed, const Node *const *consts,
                                   Diag *diag) {
  uint64_t given = 0, missing;
  for (int i = 0; consts && i < disp->nparams && i < 64; i++)
    if (consts[i] && !(failed->frozen && failed->frozen[i])) given |= 1ull << i;
  failed->disp = NULL;  /* never found again: a call elsewhere, with other constants, types it afresh */
  if (!given || c->n == MAX_CALLEES) return NULL;
  const Node **frozen = freeze(c, disp, failed->frozen, consts, given, &missing);
  Callee *e = find_callee(c, disp, failed->args, frozen, failed->device);
  if (e) return e->func && !e->typing ? e : NULL;
  PyObject *type, *value, *trace;
  PyErr_Fetch(&type, &value, &trace);
  CompileOptions opts = failed->opts;
  e = add_callee(c, disp, failed->args, failed->device);
  e->opts = opts;
  e->frozen = frozen;
  Diag again = {0};
  Callee *typed = type_literal_callee(c, e, consts, &again);
  if (typed) {
    Py_XDECREF(type), Py_XDECREF(value), Py_XDECREF(trace);
    *diag = (Diag){0};
    return typed;
  }
  e->disp = NULL;
  PyErr_Clear();
  PyErr_Restore(type, value, trace);
  return NULL;
}

/* A lambda (or a stencil's loop) is compiled as the function it is written
 * in (the one being typed now, which calls it): its error model, bounds
 * checks, fastmath, parallel. */
static void inherit_options(Callees *c, Callee *e) {
  int caller = c->n - 1;
  while (caller > 0 && (c->items[caller] == e || !c->items[caller]->typing)) caller--;
  const CompileOptions *from = &c->items[caller]->opts;
  e->opts.boundscheck = from->boundscheck;
  e->opts.fastmath = from->fastmath;
  e->opts.error_model_numpy = from->error_model_numpy;
  e->opts.parallel = from->parallel;
}

/* The file defining disp's function (a callee that could not be read has
 * no Func to say it), for its errors; "?" where Python knows none. */
static const char *source_file(Dispatcher *disp) {
  PyObject *code = PyFunction_Check(disp->py_func) ? PyFunction_GetCode(disp->py_func) : NULL;
  PyObject *name = code ? ((PyCodeObject *)code)->co_filename : NULL;
  return name && PyUnicode_Check(name) ? PyUnicode_AsUTF8(name) : "?";
}

/* f(x) where f holds a compiled function: bound as a direct call is, by
 * the frontend's rules, its nodes in this compile's arena. */
static bool bind_value_call(void *ctx, void *callee, Node *call, Diag *diag) {
  Callees *c = ctx;
  return fe_bind_value_call(c->arena, diag, call, callee);
}

static bool resolve_call(void *ctx, void *callee, const Type **args, const Node *const *consts, int nargs,
                         bool device, CallTarget *out, Diag *diag);

/* An @intrinsic's typing and code; an exception its typing function
 * raised that is no NumbaError is held, to reach the caller unchanged, as
 * an @overload's does. */
static bool intrinsic_code(void *ctx, IntrinsicCall *call, const Type *const *args, const Node *const *consts,
                           int nargs, Diag *diag) {
  if (ext_intrinsic_code(ctx, call, args, consts, nargs, diag)) return true;
  if (ctx) hold_exception(ctx);
  return false;
}

/* The callbacks every compile's options carry: calls to other functions,
 * members beyond the builtins', calls through function values, intrinsics,
 * dtypes named by strs. */
static void set_callbacks(CompileOptions *o) {
  o->resolve = resolve_call;
  o->find_member = ext_find_member;
  o->find_overload = ext_find_overload;
  o->python_impl = ext_python_impl;
  o->bind_call = bind_value_call;
  o->intrinsic = intrinsic_code;
  o->dtype_named = fe_dtype_named;
}

/* The parameters a call passes a module (numpy, math): each frozen to it,
 * so that the callee reads its attributes as the module's (fe_read_function). */
static uint64_t module_params(const Type *const *args, const Node *const *consts, int nargs) {
  uint64_t mask = 0;
  for (int i = 0; i < nargs && i < 64; i++)
    if (args[i]->kind == TY_MODULE && consts && consts[i] && consts[i]->kind == N_MODULE) mask |= 1ull << i;
  return mask;
}

static bool resolve_call(void *ctx, void *callee, const Type **args, const Node *const *consts, int nargs,
                         bool device, CallTarget *out, Diag *diag) {
  Callees *c = ctx;
  Dispatcher *disp = callee;
  if (!ext_select(&disp, args, consts, nargs, device, diag)) {
    hold_exception(c);
    return false;
  }
  if (!check_call(disp, args, nargs, diag)) return false;
  uint64_t missing;  /* those of the parameters literally() asked for before that the call gives none for */
  const Node **frozen = freeze(c, disp, NULL, consts, disp->literal_mask | module_params(args, consts, nargs), &missing);
  if (missing) {
    diag->kind = DIAG_LITERAL;
    diag->literal_params = missing;
    return false;
  }
  const Type *loop_args[MAX_ARGS], *loop_ret = NULL;  /* a ufunc's loop: its declared result, as NumPy's loop gives it */
  if (disp->scalars_only) {
    if (!ufunc_loop_types(disp, args, nargs, loop_args, &loop_ret, diag)) return false;
    args = loop_args;
  }
  const Spec *sig = NULL;
  Callee *e = find_callee(c, disp, args, frozen, device);
  if (!(e && e->typing) && disp->sealed && !disp->inline_always && !disp->scalars_only) {  /* recursion: its own signature */
    Spec *tied;  /* as Numba's typing of a call: of two that fit equally, the first */
    if (!(sig = disp_best_spec(disp, args, &tied)))  /* called as from Python: the best signature, its declared result */
      return call_error(diag, "%s", "no compiled signature of the called function accepts these argument types");
    args = (const Type **)sig->args;
    e = find_callee(c, disp, args, frozen, device);
  }
  if (e && e->typing) {  /* recursion: the innermost is this very function */
    int innermost = c->n - 1;
    while (!c->items[innermost]->typing) innermost--;
    if (e != c->items[innermost] && c->cc)
      return call_error(diag, "%s", "mutual recursion between device functions is not supported on the GPU");
    for (int i = e->index; i <= innermost; i++)  /* the functions being typed from e on: the cycle */
      if (c->items[i]->typing) c->items[i]->func->recursive = true;
    const Type *so_far = e->opts.declared_ret ? e->opts.declared_ret : e->opts.recursion_ret;
    *out = (CallTarget){.self = e == c->items[innermost], .func = e->func, .func_opts = &e->opts,
                        .ret_type = so_far ? so_far : e->func->ret_type, .cycle = true};
    return true;
  }
  if (!e) {
    if (c->n == MAX_CALLEES) return call_error(diag, "%s", "a function calls too many different functions");
    e = add_callee(c, disp, args, device);
    e->frozen = frozen;
    e->opts.kernel = false;
    e->opts.device = device;
    e->opts.gpu_cc = c->cc;
    e->opts.declared_ret = sig ? sig->declared_ret : loop_ret;
    if (disp->inherits) inherit_options(c, e);
    set_callbacks(&e->opts);
    Callee *typed = type_literal_callee(c, e, consts, diag);
    if (!typed && diag->kind == DIAG_LITERAL) return false;
    if (!typed && diag->kind != DIAG_PENDING && !sig && !disp->scalars_only)
      typed = type_with_constants(c, disp, e, consts, diag);
    if (!typed) {
      /* the callee's error, quoting its own source line */
      bool pending = diag->kind == DIAG_PENDING;
      if (pending) out->ret_type = e->func ? e->func->ret_type : NULL;  /* its returns typed so far */
      if (!PyErr_Occurred()) core_raise_diag(diag, e->func ? e->func->filename : source_file(disp));
      diag_from_exception(diag);
      if (pending) diag->kind = DIAG_PENDING;
      return false;
    }
    e = typed;
  }
  *out = (CallTarget){.func = e->func, .func_opts = &e->opts, .ret_type = e->func->ret_type,
                      .barrier = e->func->barrier, .draws = e->func->draws, .grid_sync = e->func->grid_sync,
                      .errors_ignored = disp->scalars_only && disp->opts.numba_code};
  return true;
}

/* Lowering f lowers each callee inside the call that first reaches it:
 * the passes over all of them may nest on the stack at once. */
static bool nesting_fits(const RucheyAPI *api, Func *f, const CompileOptions *opts, Diag *diag) {
  Callees *c = opts->resolve_ctx;
  int64_t depth = f->depth;
  for (int i = 0; c && i < c->n; i++)
    if (c->items[i]->func && c->items[i]->func != f) depth += c->items[i]->func->depth;
  if (rc_nesting_fits(depth, api->stack_limit())) return true;
  diag->kind = DIAG_RECURSION;
  diag->line = f->line;
  snprintf(diag->msg, sizeof diag->msg,
           "maximum recursion depth exceeded during compilation: '%s' and the functions it calls nest %lld "
           "deep, more than this thread's stack can compile", f->name, (long long)depth);
  return false;
}

/* Options for a compile whose calls resolve into its own module; the
 * function compiled is the first callee. */
static Callee *callee_options(CompileOptions *opts, Dispatcher *self, const Type *const *args, int cc,
                              Arena *arena) {
  Callees *c = arena_alloc(arena, sizeof(Callees));
  c->arena = arena;
  c->cc = cc;
  opts->gpu_cc = cc;
  set_callbacks(opts);
  opts->resolve_ctx = c;
  return self ? add_callee(c, self, args, opts->kernel || opts->device) : NULL;
}

/* Each function the compile called from the CPU as itself (not inlined
 * into its caller's options, not frozen to constants), noted in its
 * dispatcher for its signatures. */
static void note_called_as(Callees *c) {
  for (int i = 1; i < c->n; i++) {
    Callee *e = c->items[i];
    if (e->disp && e->func && !e->device && !e->frozen && !e->disp->inherits && !e->disp->inline_always &&
        !e->disp->scalars_only)
      disp_note_called_as(e->disp, e->args);
  }
}

static bool compile_root(Dispatcher *self, CompileOptions opts, const Type *const *args, OutputKind out,
                         int gpu_cc, CompileResult *res, Arena *arena) {
  const RucheyAPI *api = core_api();
  if (!api) return false;
  opts.lazy_rerun &= out != OUT_JIT_KEEP && out != OUT_PTX && !gpu_cc;  /* code kept on disk or for a GPU: whole */
  Callee *root = callee_options(&opts, self, args, out == OUT_PTX || out == OUT_LLVM_IR ? gpu_cc : 0, arena);
  root->opts = opts;
  root->frozen = (const Node **)opts.frozen;
  Diag diag = {0};
  bool typed = type_callee(opts.resolve_ctx, root, &diag);
  if (!typed && diag.kind == DIAG_LITERAL) {
    drop_held(opts.resolve_ctx);  /* (typing went on past it: another typing made it moot) */
    return disp_literal_request(self, &diag);
  }
  if (!typed) return raise_failure(&diag, self->py_func, &opts);
  if (opts.ufunc_loop && root->func->ret_type->kind == TY_INTENUM)  /* an IntEnum member: its int, as Numba's */
    root->func->ret_type = root->func->ret_type->elem;
  if (opts.ufunc_loop && !ty_is_scalar(root->func->ret_type)) {
    PyErr_Format(PyExc_TypeError, "%S returns %s: a ufunc's function must return a number or a bool",
                 self->py_func, root->func->ret_type->name);
    return false;
  }
  if (!generate(api, root->func, &opts, out, res, &diag)) return raise_failure(&diag, self->py_func, &opts);
  drop_held(opts.resolve_ctx);
  note_called_as(opts.resolve_ctx);
  return true;
}

bool cp_compile(Dispatcher *self, const Type *const *args, const Type *declared_ret, bool device,
                OutputKind out, int gpu_cc, CompileResult *res, Arena *arena) {
  CompileOptions opts = self->opts;
  opts.declared_ret = declared_ret;
  opts.device = device;
  opts.lazy_rerun = true;
  return compile_root(self, opts, args, out, gpu_cc, res, arena);
}

bool cp_compile_frozen(Dispatcher *self, const Type *const *args, const Node *const *frozen, OutputKind out,
                       CompileResult *res, Arena *arena) {
  CompileOptions opts = self->opts;
  opts.frozen = frozen;
  opts.lazy_rerun = true;
  return compile_root(self, opts, args, out, 0, res, arena);
}

bool cp_compile_checked(Dispatcher *self, const Type *const *args, const Node *const *frozen,
                        const Type *declared_ret, CompileResult *res, Arena *arena) {
  CompileOptions opts = self->opts;
  opts.frozen = frozen;
  opts.declared_ret = declared_ret;
  return compile_root(self, opts, args, OUT_JIT, 0, res, arena);
}

bool cp_compile_ufunc_loop(Dispatcher *self, const Type *const *args, const Type *declared_ret, OutputKind out,
                           CompileResult *res, Arena *arena) {
  CompileOptions opts = self->opts;
  opts.declared_ret = declared_ret;
  opts.ufunc_loop = true;
  return compile_root(self, opts, args, out, 0, res, arena);
}

bool cp_compile_c_entry(Dispatcher *self, const Type *const *args, const Type *declared_ret, OutputKind out,
                        CompileResult *res, Arena *arena) {
  CompileOptions opts = self->opts;
  opts.declared_ret = declared_ret;
  opts.c_entry = true;
  return compile_root(self, opts, args, out, 0, res, arena);
}

/* ---------------------------------------------------------------- the analyses, for tests */

/* pyfunc (ruchey.types' descriptions of argument types in described)
 * read and typed, as the analyses and inspect_types see it; NULL with
 * the exception set. */
static Func *typed_alone(PyObject *func, PyObject *described, CompileOptions *opts, Arena *arena) {
  const RucheyAPI *api = core_api();
  if (!api) return NULL;
  int n = (int)PyTuple_GET_SIZE(described);
  const Type *types[MAX_ARGS];
  if (n > MAX_ARGS) return PyErr_Format(PyExc_TypeError, "too many arguments"), NULL;
  for (int i = 0; i < n; i++)
    if (!(types[i] = disp_described_type(PyTuple_GET_ITEM(described, i)))) return NULL;
  Diag diag = {0};
  callee_options(opts, NULL, NULL, 0, arena);
  Func *read, *f = read_and_type(api, func, NULL, NULL, types, n, opts, arena, &diag, &read);
  if (!f) raise_failure(&diag, func, opts);
  return f;
}

/* _analyses(pyfunc, args, parallel, kernel): pyfunc typed for args (as
 * ruchey.types describes them) and analysed, as libruchey's analyses
 * describe what they found. */
PyObject *cp_analyses(PyObject *module, PyObject *a) {
  PyObject *func, *args;
  int parallel = 0, kernel = 0;
  if (!PyArg_ParseTuple(a, "O!O!|pp", &PyFunction_Type, &func, &PyTuple_Type, &args, &parallel, &kernel))
    return NULL;
  Arena arena = {0};
  CompileOptions opts = {.parallel = parallel, .kernel = kernel, .python = PY_VERSION_HEX, .lazy_rerun = true};
  Func *f = typed_alone(func, args, &opts, &arena);
  char *text = f ? core_api()->describe_analyses(f, &opts) : NULL;
  PyObject *result = text ? PyUnicode_FromString(text) : NULL;
  free(text);
  arena_free(&arena);
  return result;
}

/* _typed_variables(pyfunc, args, parallel, kernel): pyfunc typed for args (as
 * a kernel: cuda.grid and its kin typed), a list of (variable, its type's
 * name) and the return type's name. */
PyObject *cp_typed_variables(PyObject *module, PyObject *a) {
  PyObject *func, *args;
  int parallel = 0, kernel = 0;
  if (!PyArg_ParseTuple(a, "O!O!|pp", &PyFunction_Type, &func, &PyTuple_Type, &args, &parallel, &kernel))
    return NULL;
  Arena arena = {0};
  CompileOptions opts = {.parallel = parallel, .kernel = kernel, .python = PY_VERSION_HEX};
  Func *f = typed_alone(func, args, &opts, &arena);
  PyObject *vars = f ? PyList_New(0) : NULL;
  for (int v = 0; vars && v < f->nvars; v++) {
    if (!f->var_types[v]) continue;
    PyObject *pair = Py_BuildValue("(ss)", f->var_names[v], f->var_types[v]->name);
    if (!pair || PyList_Append(vars, pair) < 0) Py_CLEAR(vars);
    Py_XDECREF(pair);
  }
  PyObject *result = vars ? Py_BuildValue("(Ns)", vars, f->ret_type ? f->ret_type->name : "none") : NULL;
  arena_free(&arena);
  return result;
}

/* _grid_sync(pyfunc, args): whether pyfunc typed as a kernel for args takes
 * its grid group (cuda.cg.this_grid(), with or without its sync(), itself or
 * in a function it calls): numba-cuda's cooperative kernel, which the CPU backend's spec does
 * not record (its blocks wait as fibers wherever a sync is reached). */
PyObject *cp_grid_sync(PyObject *module, PyObject *a) {
  PyObject *func, *args;
  if (!PyArg_ParseTuple(a, "O!O!", &PyFunction_Type, &func, &PyTuple_Type, &args)) return NULL;
  Arena arena = {0};
  CompileOptions opts = {.kernel = true, .error_model_numpy = true, .python = PY_VERSION_HEX};
  Func *f = typed_alone(func, args, &opts, &arena);
  PyObject *result = f ? PyBool_FromLong(f->grid_sync) : NULL;
  arena_free(&arena);
  return result;
}

/* ---------------------------------------------------------------- compile_ptx */

/* compile_ptx(pyfunc, args, cc, device, fastmath, ret, launch_bounds, name, lineinfo, pointers, opt,
 * arch_specific): a kernel (or with device a device function, as a .func) as PTX for
 * compute capability cc (e.g. 80; with arch_specific its own features, sm_90a), args as ruchey.types describes them; a
 * device function's result converted to ret where one is given (its
 * signature's), as a compiled function's to its declared type; a kernel's
 * launch bounds written as its directives; the function's symbol name,
 * where given, instead of its own (the C ABI name numba-cuda's abi_info
 * gives); with lineinfo, the source's lines as .loc directives; the
 * parameters in the mask pointers (CPointers) bare pointers; without opt,
 * unoptimised (numba-cuda's opt=False). Returns
 * (ptx, return type as disp_describe_type gives it). */
PyObject *cp_compile_ptx(PyObject *module, PyObject *a) {
  PyObject *func, *args, *ret = Py_None, *launch_bounds = Py_None;
  const char *name = NULL;
  int cc, device = 0, fastmath = 0, lineinfo = 0, opt = 1, arch_specific = 0, bounds[3];
  unsigned long long pointers = 0;
  if (!PyArg_ParseTuple(a, "O!O!i|ppOOzpKpp", &PyFunction_Type, &func, &PyTuple_Type, &args, &cc, &device,
                        &fastmath, &ret, &launch_bounds, &name, &lineinfo, &pointers, &opt, &arch_specific) ||
      !disp_launch_bounds(launch_bounds, bounds))
    return NULL;
  const RucheyAPI *api = core_api();
  if (!api) return NULL;
  int n = (int)PyTuple_GET_SIZE(args);
  if (n > MAX_ARGS) return PyErr_Format(PyExc_TypeError, "too many arguments");
  const Type *types[MAX_ARGS];
  for (int i = 0; i < n; i++)
    if (!(types[i] = disp_described_type(PyTuple_GET_ITEM(args, i)))) return NULL;
  Arena arena = {0};
  Diag diag = {0};
  PyObject *result = NULL;
  CompileOptions opts = {.kernel = !device, .device = device, .error_model_numpy = true,
                         .fastmath = fastmath ? FM_TRUE : 0, .python = PY_VERSION_HEX,
                         .numba_code = disp_numba_semantics,
                         .launch_bounds = {bounds[0], bounds[1], bounds[2]}, .lineinfo = lineinfo,
                         .unoptimised = !opt, .pointer_params = pointers, .gpu_arch_specific = arch_specific};
  callee_options(&opts, NULL, NULL, cc, &arena);
  if (ret != Py_None && !(opts.declared_ret = disp_described_type(ret))) {
    arena_free(&arena);
    return NULL;
  }
  CompileResult res;
  Func *read, *f = read_and_type(api, func, NULL, NULL, types, n, &opts, &arena, &diag, &read);
  if (f && name) f->name = arena_strdup(&arena, name);
  memset(&res, 0, sizeof res);
  if (f && generate(api, f, &opts, OUT_PTX, &res, &diag)) {
    PyObject *restype = disp_describe_type(f->ret_type);
    if (restype && res.warning[0] && PyErr_WarnEx(PyExc_RuntimeWarning, res.warning, 1) < 0) Py_CLEAR(restype);
    if (restype) result = Py_BuildValue("(sN)", res.text, restype);
    free(res.text);
  } else {
    raise_failure(&diag, func, &opts);
  }
  arena_free(&arena);
  return result;
}
