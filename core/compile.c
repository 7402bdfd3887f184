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
  diag->kind = type == core_TypingError ? DIAG_TYPING : DIAG_INTERNAL;
  snprintf(diag->msg, sizeof diag->msg, "%s", text ? PyUnicode_AsUTF8(text) : "error");
  Py_XDECREF(text); Py_XDECREF(type); Py_XDECREF(value); Py_XDECREF(tb);
  PyErr_Clear();
  return false;
}

/* Whether a call's argument types can be passed to disp. */
static bool check_call(Dispatcher *disp, const Type **args, int nargs, Diag *diag) {
  if (nargs != disp->nparams) return call_error(diag, "%s", "wrong number of arguments");
  for (int i = 0; i < nargs; i++)
    if (!ty_is_scalar(args[i]) && args[i]->kind != TY_ARRAY) {
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
static Func *read_and_type(const RucheyAPI *api, PyObject *pyfunc, const Type *const *args, int nargs,
                           const CompileOptions *opts, Arena *arena, Diag *diag, Func **read) {
  Func *f = *read = fe_read_function(pyfunc, arena, diag);
  if (!f) return NULL;
  if (f->nparams != nargs) {
    PyErr_Format(PyExc_TypeError, "the signature has %d arguments, the function %d", nargs, f->nparams);
    return NULL;
  }
  const Type **types = arena_alloc(arena, sizeof(Type *) * (size_t)(nargs ? nargs : 1));
  memcpy(types, args, sizeof(Type *) * (size_t)nargs);
  return api->infer(f, types, opts, diag) ? f : NULL;
}

/* Generates a typed f; LLVM's part runs without the GIL, other Python
 * threads running meanwhile. */
static bool generate(const RucheyAPI *api, Func *f, const CompileOptions *opts, OutputKind out,
                     CompileResult *res, Diag *diag) {
  bool ok;
  Py_BEGIN_ALLOW_THREADS
  ok = api->generate(f, opts, out, res, diag);
  Py_END_ALLOW_THREADS
  return ok;
}

/* Turns a failed step's Diag into the Python exception, unless one is set. */
static bool raise_failure(const Diag *diag, PyObject *pyfunc) {
  if (!PyErr_Occurred() && diag->kind)
    core_raise_diag(diag, PyUnicode_AsUTF8(((PyCodeObject *)PyFunction_GetCode(pyfunc))->co_filename));
  return false;
}

/* ---------------------------------------------------------------- device functions on the GPU */

/* A kernel's PTX holds every function it calls: each callee is read and
 * typed into the kernel's arena, once per argument types, and lowered into
 * the kernel's module under its own symbol. */
typedef struct GpuCallee {
  Dispatcher *disp;
  const Type *args[MAX_ARGS];
  Func *func;
  CompileOptions opts;
  const char *symbol;
  bool typing;            /* being typed now: a call to it is recursion */
} GpuCallee;

typedef struct GpuCalls {
  Arena *arena;           /* the kernel's compile */
  int cc;
  GpuCallee callees[32];
  int n;
} GpuCalls;

static void gpu_target(GpuCallee *c, bool self, CallTarget *out) {
  out->self = self;
  out->func = c->func;
  out->func_opts = &c->opts;
  out->symbol = c->symbol;
  out->ret_type = c->func->ret_type;
}

static bool resolve_gpu_call(void *ctx, void *callee, const Type **args, int nargs, bool device,
                             CallTarget *out, Diag *diag) {
  GpuCalls *g = ctx;
  Dispatcher *disp = callee;
  if (!check_call(disp, args, nargs, diag)) return false;
  int innermost = -1;  /* the function being typed now */
  for (int i = 0; i < g->n; i++)
    if (g->callees[i].typing) innermost = i;
  for (int i = 0; i < g->n; i++) {
    GpuCallee *c = &g->callees[i];
    if (c->disp != disp || !same_args(c->args, args, nargs)) continue;
    if (c->typing && i != innermost)
      return call_error(diag, "%s", "mutual recursion between device functions is not supported on the GPU");
    gpu_target(c, c->typing, out);
    return true;
  }
  if (g->n == (int)(sizeof g->callees / sizeof g->callees[0]))
    return call_error(diag, "%s", "a kernel calls too many different device functions");
  GpuCallee *c = &g->callees[g->n++];
  *c = (GpuCallee){.disp = disp, .opts = disp->opts, .typing = true};
  memcpy(c->args, args, sizeof(Type *) * (size_t)nargs);
  c->opts.kernel = false;
  c->opts.device = true;
  c->opts.gpu_cc = g->cc;
  c->opts.declared_ret = NULL;
  c->opts.resolve = resolve_gpu_call;
  c->opts.resolve_ctx = g;
  Func *f = read_and_type(core_api(), disp->py_func, args, nargs, &c->opts, g->arena, diag, &c->func);
  c->typing = false;
  if (!f) return diag->kind ? false : diag_from_exception(diag);
  char symbol[256];
  snprintf(symbol, sizeof symbol, "%s_%d", c->func->name, g->n);
  c->symbol = arena_strdup(g->arena, symbol);
  gpu_target(c, false, out);
  return true;
}

/* PTX options: every call resolved into the kernel's module. */
static void gpu_options(CompileOptions *opts, int cc, Arena *arena) {
  GpuCalls *gpu = arena_alloc(arena, sizeof(GpuCalls));
  gpu->arena = arena;
  gpu->cc = cc;
  opts->gpu_cc = cc;
  opts->resolve = resolve_gpu_call;
  opts->resolve_ctx = gpu;
}

/* ---------------------------------------------------------------- calls on the CPU */

/* The compiles in progress on this thread, innermost last: a call that
 * names one of them is recursion. */
typedef struct Compiling {
  Dispatcher *disp;
  const Type *const *args;
  Func *func;          /* its return type so far, for a mutually recursive call */
  void **entry_cell;   /* where its entry will be, for code compiled meanwhile */
  bool cell_used;      /* some code calls through the cell: it lives forever */
} Compiling;
static _Thread_local Compiling compiling[64];
static _Thread_local int ncompiling;

/* ResolveCall for the CPU: the callee's specialisation for the argument
 * types, compiled now if needed. */
static bool resolve_call(void *ctx, void *callee, const Type **args, int nargs, bool device,
                         CallTarget *out, Diag *diag) {
  Dispatcher *disp = callee;
  if (!check_call(disp, args, nargs, diag)) return false;
  for (int i = 0; i < ncompiling; i++) {
    if (compiling[i].disp != disp || !same_args(compiling[i].args, args, nargs)) continue;
    if (i == ncompiling - 1) {
      out->self = true;
      return true;
    }
    /* mutual recursion: call through the cell its entry will be put in */
    if (!compiling[i].entry_cell) return call_error(diag, "%s", "mutual recursion is not supported here");
    compiling[i].cell_used = true;
    out->self = false;
    out->indirect = compiling[i].entry_cell;
    out->ret_type = compiling[i].func->ret_type;
    return true;
  }
  Spec *s = disp_find_spec(disp, args, device);
  if (!s && !(s = disp_compile_miss(disp, args, device))) return diag_from_exception(diag);
  out->self = false;
  out->entry = s->entry;
  out->ret_type = s->ret_type;
  out->barrier = s->barrier;
  return true;
}

/* Entry cells that compiled code reads: kept for the life of the process,
 * as the code is. */
static void keep_cell(void **cell) {
  static void ***kept;
  static size_t nkept;
  void ***grown = PyMem_Realloc(kept, sizeof(void **) * (nkept + 1));
  if (!grown) return;  /* then the cell is simply never freed */
  kept = grown;
  kept[nkept++] = cell;
}

/* What a mutually recursive call reaches when its callee failed to compile. */
static int failed_callee(void *ret, void **args) {
  RtError *e = core_api()->last_error();
  e->status = RT_ERR_RUNTIME;
  e->msg = "this calls a ruchey function whose compilation failed";
  e->exc_class = NULL;
  return RT_ERR_RUNTIME;
}

bool cp_compile(Dispatcher *self, const Type *const *args, const Type *declared_ret, bool device,
                OutputKind out, int gpu_cc, CompileResult *res, Arena *arena) {
  const RucheyAPI *api = core_api();
  if (!api) return false;
  if (ncompiling == 64) {
    PyErr_SetString(PyExc_RecursionError, "ruchey: calls between compiled functions nest too deeply");
    return false;
  }
  CompileOptions opts = self->opts;
  opts.resolve = resolve_call;
  opts.declared_ret = declared_ret;
  opts.device = device;
  if (out == OUT_PTX) gpu_options(&opts, gpu_cc, arena);
  Diag diag = {0};
  void **cell = out == OUT_JIT ? PyMem_Calloc(1, sizeof(void *)) : NULL;
  Func *f = fe_read_function(self->py_func, arena, &diag);
  bool ok = f != NULL, cell_used = false;
  if (ok) {
    compiling[ncompiling++] = (Compiling){self, args, f, cell, false};
    const Type **types = arena_alloc(arena, sizeof(Type *) * (size_t)(self->nparams ? self->nparams : 1));
    memcpy(types, args, sizeof(Type *) * (size_t)self->nparams);
    ok = api->infer(f, types, &opts, &diag);
    cell_used = compiling[--ncompiling].cell_used;
  }
  ok = ok && generate(api, f, &opts, out, res, &diag);
  if (cell) {
    *cell = ok ? (void *)res->entry : (void *)failed_callee;
    if (cell_used) keep_cell(cell);
    else PyMem_Free(cell);
  }
  return ok || raise_failure(&diag, self->py_func);
}

/* ---------------------------------------------------------------- compile_ptx */

/* compile_ptx(pyfunc, args, cc, device, fastmath): a kernel (or with device
 * a device function, as a .func) as PTX for compute capability cc (e.g. 80),
 * args as ruchey.types describes them. Returns (ptx, return type as
 * disp_describe_type gives it). */
PyObject *cp_compile_ptx(PyObject *module, PyObject *a) {
  PyObject *func, *args;
  int cc, device = 0, fastmath = 0;
  if (!PyArg_ParseTuple(a, "O!O!i|pp", &PyFunction_Type, &func, &PyTuple_Type, &args, &cc, &device,
                        &fastmath))
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
  CompileOptions opts = {.kernel = !device, .device = device, .error_model_numpy = true, .fastmath = fastmath};
  gpu_options(&opts, cc, &arena);
  CompileResult res;
  Func *read, *f = read_and_type(api, func, types, n, &opts, &arena, &diag, &read);
  if (f && generate(api, f, &opts, OUT_PTX, &res, &diag)) {
    PyObject *restype = disp_describe_type(f->ret_type);
    if (restype) result = Py_BuildValue("(sN)", res.text, restype);
    free(res.text);
  } else {
    raise_failure(&diag, func);
  }
  arena_free(&arena);
  return result;
}
