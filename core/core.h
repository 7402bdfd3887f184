/* core.h — shared by the files of the ruchey._core extension. */
#ifndef RUCHEY_CORE_H
#define RUCHEY_CORE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "ruchey.h"

/* module.c */
extern PyObject *core_TypingError;
/* libruchey, loaded on first use (the first compile), or NULL with an
 * exception set. */
const RucheyAPI *core_api(void);
/* Compile-time identities of Python objects named in compiled code; -1 and
 * no exception when the object is not one of them. */
int core_builtin_id(PyObject *obj, int *ival);  /* ival: a CUDA intrinsic's axis or op */
int core_module_id(PyObject *obj);
int core_dtype_kind(PyObject *obj);
/* Raises a Diag as ruchey.TypingError (or RuntimeError for internal
 * errors), quoting the source line with a caret. */
void core_raise_diag(const Diag *d, const char *filename);

/* frontend.c */
Func *fe_read_function(PyObject *pyfunc, Arena *arena, Diag *diag);

/* dispatch.c */
extern PyTypeObject DispatcherType;
extern PyTypeObject MemInfoType;
int disp_init_numpy(void);
PyObject *disp_compile_ptx(PyObject *module, PyObject *args);

#endif
