/* types.c — ruchey's types: scalar singletons, equality, spelling.
 * Built into both libruchey and the extension, so types are compared by
 * value (ty_equal), never by address. */
#include <stdio.h>

#include "ruchey.h"

#define SCALAR(k) {.kind = (k)}
const Type ty_scalars[TY_NONE + 1] = {
  SCALAR(TY_BOOL), SCALAR(TY_I8), SCALAR(TY_I16), SCALAR(TY_I32), SCALAR(TY_I64),
  SCALAR(TY_U8), SCALAR(TY_U16), SCALAR(TY_U32), SCALAR(TY_U64),
  SCALAR(TY_F32), SCALAR(TY_F64), SCALAR(TY_NONE),
};

static const char *const scalar_names[TY_NONE + 1] = {
  "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
  "float32", "float64", "none",
};

int ty_bits(const Type *t) {
  static const int bits[TY_F64 + 1] = {8, 8, 16, 32, 64, 8, 16, 32, 64, 32, 64};
  return bits[t->kind];
}

bool ty_equal(const Type *a, const Type *b) {
  if (a == b) return true;
  if (!a || !b || a->kind != b->kind) return false;
  switch (a->kind) {
  case TY_ARRAY:
    return a->ndim == b->ndim && a->layout == b->layout &&
           a->readonly == b->readonly && ty_equal(a->elem, b->elem);
  case TY_DTYPE:
    return ty_equal(a->elem, b->elem);
  case TY_TUPLE:
    if (a->nfields != b->nfields) return false;
    for (int i = 0; i < a->nfields; i++)
      if (!ty_equal(a->fields[i], b->fields[i])) return false;
    return true;
  default:
    return true;
  }
}

bool ty_has_arrays(const Type *t) {
  if (t->kind == TY_ARRAY) return true;
  if (t->kind == TY_TUPLE)
    for (int i = 0; i < t->nfields; i++)
      if (ty_has_arrays(t->fields[i])) return true;
  return false;
}

void ty_format(const Type *t, char *buf, size_t n) {
  if (n == 0) return;
  if (t->kind <= TY_NONE) {
    snprintf(buf, n, "%s", scalar_names[t->kind]);
    return;
  }
  char inner[256];
  switch (t->kind) {
  case TY_ARRAY:
    ty_format(t->elem, inner, sizeof inner);
    snprintf(buf, n, "%sarray(%s, %dd, %c)", t->readonly ? "readonly " : "", inner,
             t->ndim, t->layout);
    return;
  case TY_DTYPE:
    ty_format(t->elem, inner, sizeof inner);
    snprintf(buf, n, "dtype(%s)", inner);
    return;
  case TY_TUPLE: {
    size_t used = (size_t)snprintf(buf, n, "(");
    for (int i = 0; i < t->nfields && used < n; i++) {
      ty_format(t->fields[i], inner, sizeof inner);
      used += (size_t)snprintf(buf + used, n - used, "%s%s", i ? ", " : "", inner);
    }
    if (used < n) snprintf(buf + used, n - used, t->nfields == 1 ? ",)" : ")");
    return;
  }
  case TY_RANGE: snprintf(buf, n, "range"); return;
  case TY_MODULE: snprintf(buf, n, "module"); return;
  default: snprintf(buf, n, "?"); return;
  }
}
