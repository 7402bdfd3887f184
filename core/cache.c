/* cache.c — cache=True: the object code of a function's specialisations
 * kept on disk, loaded by a later process instead of compiling.
 *
 * ruchey/caching.py decides where and under which key (the dispatcher's
 * _cache, a FunctionCache); this file hands it what a compile made (the
 * object file, its entry's symbol, the classes it names, its return type)
 * and loads what it hands back. A cache that fails in any way is a miss:
 * the function compiles as without it.
 */
#include "core.h"

/* The dispatcher's cache (ruchey.caching.FunctionCache), borrowed; NULL
 * without cache=True. */
static PyObject *cache_of(Dispatcher *self) {
  if (!self->dict) return NULL;
  PyObject *cache = PyDict_GetItemString(self->dict, "_cache");
  return cache && cache != Py_None ? cache : NULL;
}

/* The kinds without parameters a cached function may return. */
static bool plain_result(const Type *t) { return t == &core_plain[t->kind] && (ty_is_scalar(t) || t->kind == TY_STR || t->kind == TY_BYTES); }

/* A return type as the cache keeps it: "none", ("s", kind) for a scalar or
 * a str, ("d", kind, unit) for a datetime, ("a", kind, ndim, layout,
 * readonly[, unit]) for an array, ("t", fields...) for a tuple, ("l", item)
 * for a list, ("m", key, value) for a dict, ("e", item) for a set, ("o",
 * value) for an Optional, ("v", dict, part) for a dict's keys, values or
 * items; NULL (no exception) for another kind. */
static PyObject *encode_type(const Type *t);

static PyObject *encode_of(const char *tag, const Type *a, const Type *b) {
  PyObject *x = encode_type(a), *y = b && x ? encode_type(b) : NULL;
  PyObject *d = x && (!b || y) ? (b ? Py_BuildValue("(sOO)", tag, x, y) : Py_BuildValue("(sO)", tag, x)) : NULL;
  Py_XDECREF(x); Py_XDECREF(y);
  return d;
}

/* ("v", dict, part) of a view of a dict's keys, values or items (ty_dict_view). */
static PyObject *encode_view(const Type *t) {
  PyObject *dict = encode_type(t->elem), *d = dict ? Py_BuildValue("(sOi)", "v", dict, t->unit) : NULL;
  Py_XDECREF(dict);
  return d;
}

static PyObject *encode_type(const Type *t) {
  if (t->kind == TY_NONE) return PyUnicode_FromString("none");
  if (t->kind == TY_LIST) return encode_of("l", t->elem, NULL);
  if (t->kind == TY_OPTIONAL) return encode_of("o", t->elem, NULL);
  if (t->kind == TY_SET && t->nfields == 2) return encode_of("e", t->fields[0], NULL);
  if (t->kind == TY_DICT && t->nfields == 2) return encode_of("m", t->fields[0], t->fields[1]);
  if (t->kind == TY_DICTVIEW) return encode_view(t);
  if (ty_is_time(t)) return Py_BuildValue("(sii)", "d", (int)t->kind, t->unit);
  if (plain_result(t)) return Py_BuildValue("(si)", "s", (int)t->kind);
  if (t->kind == TY_ARRAY && ty_is_time(t->elem))
    return Py_BuildValue("(siiCOi)", "a", (int)t->elem->kind, t->ndim, t->layout, t->readonly ? Py_True : Py_False,
                         t->elem->unit);
  if (t->kind == TY_ARRAY && ty_is_scalar(t->elem))
    return Py_BuildValue("(siiCO)", "a", (int)t->elem->kind, t->ndim, t->layout, t->readonly ? Py_True : Py_False);
  if (t->kind != TY_TUPLE) return NULL;
  PyObject *d = PyTuple_New(t->nfields + 1);
  if (d) PyTuple_SET_ITEM(d, 0, PyUnicode_FromString("t"));
  for (int i = 0; d && i < t->nfields; i++) {
    PyObject *field = encode_type(t->fields[i]);
    if (!field) Py_CLEAR(d);
    else PyTuple_SET_ITEM(d, i + 1, field);
  }
  return d;
}

static const Type *decode_type(PyObject *d);

/* The view encode_view described, of a dict's keys (part 0), values (1) or items (2). */
static const Type *decode_view(PyObject *d) {
  PyObject *dict;
  int part;
  if (!PyArg_ParseTuple(d, "sOi", &(const char *){NULL}, &dict, &part) || part < 0 || part > 2) return NULL;
  const Type *t = decode_type(dict);
  return t && t->kind == TY_DICT ? core_api()->dict_view(t, part) : NULL;
}

/* The type encode_type described, or NULL (no exception). */
static const Type *decode_type(PyObject *d) {
  const RucheyAPI *api = core_api();
  if (PyUnicode_Check(d)) return strcmp(PyUnicode_AsUTF8(d), "none") ? NULL : &core_plain[TY_NONE];
  const char *tag = PyTuple_Check(d) && PyTuple_GET_SIZE(d) && PyUnicode_Check(PyTuple_GET_ITEM(d, 0))
                        ? PyUnicode_AsUTF8(PyTuple_GET_ITEM(d, 0)) : "";
  int kind, ndim, readonly, unit = TU_GENERIC;
  const char *layout;
  if (!strcmp(tag, "s") && PyArg_ParseTuple(d, "si", &tag, &kind) && kind >= 0 && kind < TY_COUNT &&
      plain_result(&core_plain[kind]))
    return &core_plain[kind];
  if (!strcmp(tag, "d") && PyArg_ParseTuple(d, "sii", &tag, &kind, &unit) && (kind == TY_DATETIME || kind == TY_TIMEDELTA) &&
      api->unit_name(unit))
    return api->time((TypeKind)kind, unit);
  if (!strcmp(tag, "a") && PyArg_ParseTuple(d, "siisp|i", &tag, &kind, &ndim, &layout, &readonly, &unit) && kind >= 0 &&
      kind < TY_COUNT && (core_plain[kind].flags & TF_SCALAR) && ndim > 0 && ndim <= RC_MAX_NDIM &&
      layout[0] && strchr("CFA", layout[0]) && api->unit_name(unit))
    return api->array((core_plain[kind].flags & TF_TIME) ? api->time((TypeKind)kind, unit) : &core_plain[kind], ndim,
                      layout[0], readonly);
  PyObject *x = PyTuple_Check(d) && PyTuple_GET_SIZE(d) >= 2 ? PyTuple_GET_ITEM(d, 1) : NULL;
  const Type *a = x && strchr("loem", tag[0]) && tag[0] && !tag[1] ? decode_type(x) : NULL;
  if (a && PyTuple_GET_SIZE(d) == 2) {
    if (!strcmp(tag, "l")) return api->list(a);
    if (!strcmp(tag, "o")) return api->optional(a);
    if (!strcmp(tag, "e")) return api->set(a);
  }
  const Type *b = a && !strcmp(tag, "m") && PyTuple_GET_SIZE(d) == 3 ? decode_type(PyTuple_GET_ITEM(d, 2)) : NULL;
  if (b) return api->dict(a, b);
  if (!strcmp(tag, "v")) return decode_view(d);
  if (strcmp(tag, "t") || PyTuple_GET_SIZE(d) - 1 > TY_MAX_FIELDS) return NULL;
  int n = (int)PyTuple_GET_SIZE(d) - 1, i = 0;
  const Type **fields = PyMem_Malloc(sizeof(Type *) * (size_t)(n ? n : 1)), *t = NULL;
  while (fields && i < n && (fields[i] = decode_type(PyTuple_GET_ITEM(d, i + 1)))) i++;
  if (fields && i == n) t = api->tuple(n, fields);
  PyMem_Free(fields);
  return t;
}

/* t encoded, where decoding gives t back exactly; else NULL. */
static PyObject *exact_encoding(const Type *t) {
  PyObject *d = encode_type(t);
  const Type *back = d ? decode_type(d) : NULL;
  PyErr_Clear();
  if (back == t) return d;
  Py_XDECREF(d);
  return NULL;
}

/* The part of the key the extension knows: the argument types, the
 * explicit return type (None where inferred), and which entry the code
 * has (False: the dispatcher's, True: a ufunc's inner loop, "c": a
 * @cfunc's). */
static PyObject *signature_key(Dispatcher *self, const Type *const *args, const Type *declared, EntryKind entry) {
  PyObject *sig = disp_signature_text(args, self->nparams);
  PyObject *ret = declared ? PyUnicode_FromString(declared->name) : Py_NewRef(Py_None);
  PyObject *kind = entry == ENTRY_C ? PyUnicode_FromString("c") : Py_NewRef(entry == ENTRY_UFUNC_LOOP ? Py_True : Py_False);
  PyObject *key = sig && ret && kind ? PyTuple_Pack(3, sig, ret, kind) : NULL;
  Py_XDECREF(kind);
  Py_XDECREF(sig);
  Py_XDECREF(ret);
  return key;
}

/* The externs a cached entry names, (name, object) pairs, into res. */
static bool take_externs(PyObject *pairs, CompileResult *res, Arena *arena) {
  if (!PyTuple_Check(pairs)) return false;
  int n = (int)PyTuple_GET_SIZE(pairs);
  res->externs = arena_alloc(arena, sizeof *res->externs * (size_t)(n ? n : 1));
  for (int i = 0; i < n; i++) {
    PyObject *pair = PyTuple_GET_ITEM(pairs, i);
    const char *name;
    PyObject *obj;
    if (!PyArg_ParseTuple(pair, "sO", &name, &obj)) return false;
    res->externs[i].name = arena_strdup(arena, name);
    res->externs[i].addr = obj;  /* kept alive by fe_class_symbol */
  }
  res->nexterns = n;
  return true;
}

/* Loads the cached code for these types into res: true if it did. */
static bool load_entry(PyObject *entry, CompileResult *res, Arena *arena, bool *uses_blas) {
  const char *symbol, *warning;
  Py_buffer object;
  PyObject *externs, *ret;
  int blas, barrier;
  if (!PyArg_ParseTuple(entry, "sy*OOspp", &symbol, &object, &externs, &ret, &warning, &blas, &barrier)) return false;
  const Type *ret_type = decode_type(ret);
  PyErr_Clear();
  bool ok = ret_type && take_externs(externs, res, arena);
  Diag diag = {0};
  if (ok) ok = core_api()->load_object(object.buf, (size_t)object.len, symbol, res, &diag);
  PyBuffer_Release(&object);
  if (!ok) return false;
  res->ret_type = ret_type;
  res->barrier = barrier;  /* a kernel's, for the CPU backend */
  snprintf(res->warning, sizeof res->warning, "%s", warning);
  *uses_blas = blas;
  return true;
}

/* The cache's entry for key (a new reference), or NULL, no exception. */
static PyObject *cached_entry(PyObject *cache, PyObject *key) {
  PyObject *entry = PyObject_CallMethod(cache, "load", "(O)", key);
  if (entry == Py_None) Py_CLEAR(entry);
  PyErr_Clear();
  return entry;
}

static void count(PyObject *cache, PyObject *key, bool hit) {
  PyObject *counted = PyObject_CallMethod(cache, hit ? "hit" : "miss", "(O)", key);
  Py_XDECREF(counted);
  PyErr_Clear();
}

/* The cached code for key loaded into res; false, no exception, where
 * there is none that loads. */
static bool cache_load(PyObject *cache, PyObject *key, CompileResult *res, Arena *arena) {
  memset(res, 0, sizeof *res);
  PyObject *entry = cached_entry(cache, key);
  bool uses_blas = false, ok = entry && load_entry(entry, res, arena, &uses_blas);
  if (!ok) PyErr_Clear();
  else if (uses_blas) core_load_blas();
  count(cache, key, ok);
  Py_XDECREF(entry);
  return ok;
}

static PyObject *extern_pairs(const CompileResult *res) {
  PyObject *pairs = PyTuple_New(res->nexterns);
  for (int i = 0; pairs && i < res->nexterns; i++) {
    PyObject *pair = Py_BuildValue("(sO)", res->externs[i].name, (PyObject *)res->externs[i].addr);
    if (!pair) Py_CLEAR(pairs);
    else PyTuple_SET_ITEM(pairs, i, pair);
  }
  return pairs;
}

/* Hands a compile's object code (OUT_JIT_KEEP) to the cache; never
 * raises. Code whose return type the cache could not describe exactly is
 * not kept: the cache warns. */
static void cache_save(PyObject *cache, PyObject *key, const CompileResult *res, bool uses_blas) {
  PyObject *ret = exact_encoding(res->ret_type);
  PyObject *externs = ret ? extern_pairs(res) : NULL;
  PyObject *done = NULL;
  if (!ret)
    done = PyObject_CallMethod(cache, "not_kept", "(Os)", key, "its return type is one of this process's classes, "
                               "which the cache cannot describe");
  if (externs)
    done = PyObject_CallMethod(cache, "save", "Osy#OOsOO", key, res->symbol, res->object,
                               (Py_ssize_t)res->object_size, externs, ret, res->warning,
                               uses_blas ? Py_True : Py_False, res->barrier ? Py_True : Py_False);
  if (!done && PyErr_Occurred()) PyErr_WriteUnraisable(cache);
  PyErr_Clear();
  Py_XDECREF(done); Py_XDECREF(externs); Py_XDECREF(ret);
}

static bool compile_code(Dispatcher *self, const Type *const *args, const Type *declared, EntryKind entry,
                         OutputKind out, CompileResult *res, Arena *arena) {
  if (entry == ENTRY_UFUNC_LOOP) return cp_compile_ufunc_loop(self, args, declared, out, res, arena);
  if (entry == ENTRY_C) return cp_compile_c_entry(self, args, declared, out, res, arena);
  return cp_compile(self, args, declared, false, out, 0, res, arena);
}

bool cache_compile(Dispatcher *self, const Type *const *args, const Type *declared, EntryKind entry,
                   CompileResult *res, Arena *arena) {
  PyObject *cache = cache_of(self);
  PyObject *key = cache ? signature_key(self, args, declared, entry) : NULL;
  if (cache && !key) PyErr_Clear();  /* then compiled as without a cache */
  if (!key) return compile_code(self, args, declared, entry, OUT_JIT, res, arena);
  bool ok = cache_load(cache, key, res, arena);
  if (!ok) {
    int blas = core_blas_requests;
    ok = compile_code(self, args, declared, entry, OUT_JIT_KEEP, res, arena);
    if (ok) cache_save(cache, key, res, core_blas_requests != blas);
    free(res->object);
    free(res->symbol);
    res->object = res->symbol = NULL;
  }
  Py_DECREF(key);
  return ok;
}

/* ---------------------------------------------------------------- PTX */

/* A kernel's PTX as the cache keeps it: the text in place of the object
 * code and no symbol (the driver loads it into a module of its own, under
 * the Python function's name), whether it waits for its whole grid in
 * place of the barrier. The key adds the target, ("ptx", cc). */
static PyObject *ptx_key(Dispatcher *self, const Type *const *args, int cc) {
  PyObject *sig = disp_signature_text(args, self->nparams);
  PyObject *key = sig ? Py_BuildValue("(OO(si))", sig, Py_None, "ptx", cc) : NULL;
  Py_XDECREF(sig);
  return key;
}

static bool load_ptx(PyObject *entry, CompileResult *res) {
  const char *symbol, *warning;
  Py_buffer text;
  PyObject *externs, *ret;
  int blas, grid_sync;
  if (!PyArg_ParseTuple(entry, "sy*OOspp", &symbol, &text, &externs, &ret, &warning, &blas, &grid_sync)) return false;
  res->text = malloc((size_t)text.len + 1);
  if (res->text) {
    memcpy(res->text, text.buf, (size_t)text.len);
    res->text[text.len] = 0;
    res->grid_sync = grid_sync;
  }
  PyBuffer_Release(&text);
  return res->text != NULL;
}

static void save_ptx(PyObject *cache, PyObject *key, const CompileResult *res) {
  PyObject *done = PyObject_CallMethod(cache, "save", "Osy#()ssOO", key, "", res->text, (Py_ssize_t)strlen(res->text),
                                       "none", res->warning, Py_False, res->grid_sync ? Py_True : Py_False);
  if (!done && PyErr_Occurred()) PyErr_WriteUnraisable(cache);
  PyErr_Clear();
  Py_XDECREF(done);
}

bool cache_ptx(Dispatcher *self, const Type *const *args, int cc, CompileResult *res, Arena *arena) {
  PyObject *cache = cache_of(self);
  PyObject *key = cache ? ptx_key(self, args, cc) : NULL;
  if (cache && !key) PyErr_Clear();  /* then compiled as without a cache */
  memset(res, 0, sizeof *res);
  if (!key) return cp_compile(self, args, NULL, false, OUT_PTX, cc, res, arena);
  PyObject *entry = cached_entry(cache, key);
  bool ok = entry && load_ptx(entry, res);
  PyErr_Clear();
  Py_XDECREF(entry);
  count(cache, key, ok);
  if (!ok) {
    ok = cp_compile(self, args, NULL, false, OUT_PTX, cc, res, arena);
    if (ok && !res->nexterns) save_ptx(cache, key, res);  /* PTX naming host objects is not kept */
  }
  Py_DECREF(key);
  return ok;
}

/* _class_symbol(cls): the symbol compiled code names an exception class
 * by, as the cache checks it for the classes cached code names. */
PyObject *cache_class_symbol(PyObject *module, PyObject *cls) {
  if (!PyType_Check(cls)) return PyErr_Format(PyExc_TypeError, "a class is needed");
  return fe_class_symbol(cls);
}

/* _host_key(): what compiled code was made for, "LLVM version|processor"
 * (without starting LLVM). */
PyObject *cache_host_key(PyObject *module, PyObject *unused) {
  const RucheyAPI *api = core_api();
  if (!api) return NULL;
  return PyUnicode_FromFormat("%s|%s", api->llvm_version(), api->host_identity());
}
