/* cfunc.c — compiled functions as C callbacks (@cfunc).
 *
 * The function is compiled for the signature's scalars with
 * CompileOptions.c_entry (lower/cfunc.c): its machine code is a plain C
 * function. Python keeps the loaded code alive in a capsule and hands out
 * its address (ruchey/cfunc.py wraps it for ctypes and scipy).
 *
 * A failure inside the callback cannot become its caller's exception (C
 * code called it). As in Numba, it is written out as unraisable
 * (sys.unraisablehook: "Exception ignored in ..."), the GIL taken for that
 * alone, and the callback returns zero: the code calls the runtime's
 * rt_cfunc_failed, which calls cfunc_report_failure, so the code names no
 * address of this process and cache=True keeps it.
 */
#include "core.h"

void cfunc_report_failure(const char *name) {
  PyGILState_STATE g = PyGILState_Ensure();
  disp_raise_runtime_error();
  PyObject *where = PyUnicode_FromFormat("<ruchey cfunc %s>", name);
  PyErr_WriteUnraisable(where);
  Py_XDECREF(where);
  PyGILState_Release(g);
}

static void release_code(PyObject *capsule) {
  void *code = PyCapsule_GetPointer(capsule, "ruchey.cfunc");
  if (code) core_api()->release_code(code);
}

/* The signature's types into types and *declared; false with a
 * TypingError for any a C function cannot take or return. */
static bool c_signature(Dispatcher *disp, PyObject *args, PyObject *ret, const Type **types, const Type **declared) {
  PyObject *name = ((PyCodeObject *)PyFunction_GetCode(disp->py_func))->co_name;
  int n = (int)PyTuple_GET_SIZE(args);
  if (n != disp->nparams) {
    PyErr_Format(core_TypingError, "cfunc %U: the signature has %d arguments, the function %d", name, n,
                 disp->nparams);
    return false;
  }
  for (int i = 0; i <= n; i++) {
    const Type *t = i < n                ? disp_described_type(PyTuple_GET_ITEM(args, i))
                    : PyUnicode_Check(ret) ? &core_plain[TY_NONE]  /* "none": void */
                                           : disp_described_type(ret);
    if (!t) return false;
    /* a pointer argument is described as a 1-d C array of its elements (numbers or records: a C struct's) */
    bool pointer = i < n && t->kind == TY_ARRAY && t->ndim == 1 && t->layout == 'C' &&
                   ((ty_is_scalar(t->elem) && !ty_is_complex(t->elem)) || t->elem->kind == TY_RECORD);
    if (!(ty_is_scalar(t) && !ty_is_complex(t)) && !(i == n && t->kind == TY_NONE) && !pointer) {
      PyErr_Format(core_TypingError, "cfunc %U: a C callback takes integers, floats, bools and pointers to "
                   "them or to records, and returns a number or a bool, not %s", name, t->name);
      return false;
    }
    if (i < n) types[i] = t;
    else *declared = t;
  }
  return true;
}

/* _cfunc(disp, args, ret, llvm): disp's function compiled as a C function
 * of argument types args returning ret (ruchey.types descriptions):
 * (address, the capsule owning the code), or with llvm its LLVM IR. */
PyObject *cfunc_compile(PyObject *module, PyObject *a) {
  Dispatcher *disp;
  PyObject *args, *ret;
  int llvm = 0;
  if (!PyArg_ParseTuple(a, "O!O!O|p", &DispatcherType, &disp, &PyTuple_Type, &args, &ret, &llvm) || !core_api())
    return NULL;
  const Type *types[MAX_ARGS], *declared = NULL;
  if (PyTuple_GET_SIZE(args) > MAX_ARGS) return PyErr_Format(PyExc_TypeError, "too many arguments");
  if (!c_signature(disp, args, ret, types, &declared)) return NULL;
  Arena arena = {0};
  CompileResult res = {0};
  disp_lock_compiles(disp);
  bool ok = llvm ? cp_compile_c_entry(disp, types, declared, OUT_LLVM_IR, &res, &arena)
                 : cache_compile(disp, types, declared, ENTRY_C, &res, &arena);
  disp_unlock_compiles(disp);
  arena_free(&arena);
  if (!ok) return NULL;
  if (llvm) {
    PyObject *text = PyUnicode_FromString(res.text);
    free(res.text);
    return text;
  }
  PyObject *owner = PyCapsule_New(res.code, "ruchey.cfunc", release_code);
  if (!owner) {
    core_api()->release_code(res.code);
    return NULL;
  }
  return Py_BuildValue("(KN)", (unsigned long long)(uintptr_t)res.entry, owner);
}
