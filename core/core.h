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

/* cudadrv.c: the CUDA driver, loaded on first use; each false or NULL
 * comes with ruchey._core.CudaError set. */
int cu_add_to_module(PyObject *m);
extern PyTypeObject DeviceMemoryType;  /* memory on a GPU, owned by a Python object */
bool cu_ready(void);           /* the driver started, a device's context current here */
int cu_current_device(void);   /* its ordinal, once cu_ready() */
int cu_current_cc(void);       /* its compute capability (90 for 9.0) */
/* A kernel from PTX text: its CUfunction, and in *module what to unload. */
void *cu_load_kernel(const char *ptx, const char *name, void **module);
void cu_unload(void *module);
bool cu_launch(void *function, const int64_t grid[3], const int64_t block[3], int64_t shared,
               uintptr_t stream, void **params);

#endif
