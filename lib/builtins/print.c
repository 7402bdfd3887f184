/* builtins/print.c — print() in compiled code: the arguments separated by
 * spaces, then a newline; ints as %lld (%llu unsigned), bools as
 * True/False, constant strings as themselves, complex numbers as Python's
 * repr writes them; floats as Python and NumPy
 * write them in @njit code (repr: %g, %h for float32) and as numba-cuda
 * prints them in kernels (%f). The format is made here; the GPU's vprintf
 * or the CPU's rt_print (print.c: a kernel's lines kept together by block,
 * an @njit function's written to sys.stdout at once) fills it in.
 */
#include "builtins/builtins.h"

static const Type *ty_print(Infer *in, Node *n, const Type **args) {
  for (int i = 0; i < n->list.len; i++)
    if (n->list.items[i]->kind != N_STRING && !ty_is_scalar(args[i]))
      return ty_error(in, n->list.items[i], "print() prints numbers, bools and constant strings in "
                      "compiled code, not %s", args[i]->name);
    else if (ty_is_complex(args[i]) && in->opts && in->opts->gpu_cc)
      return ty_error(in, n->list.items[i], "print() of a complex number is not supported in GPU code");
  return TYS(TY_NONE);
}

typedef struct Format {
  char *text;
  size_t len, cap;
  Arena *arena;
} Format;

static void put(Format *f, const char *s) {
  size_t n = strlen(s);
  if (f->len + n + 1 > f->cap) {
    f->cap = 2 * (f->len + n + 1);
    char *grown = arena_alloc(f->arena, f->cap);
    memcpy(grown, f->text, f->len);
    f->text = grown;
  }
  memcpy(f->text + f->len, s, n + 1);
  f->len += n;
}

/* Whether print() writes as in kernels (numba-cuda's %f): on the GPU, in a
 * CPU kernel or a device function. */
static bool kernel_style(Lower *l) { return l->mod->gpu || l->opts->kernel || l->opts->device; }

/* One argument: its directive in the format, its 8 bytes in slot[0] (a
 * complex number's parts in slot[0] and slot[1]). */
static void print_item(Lower *l, Format *f, Node *a, LLVMValueRef *slot) {
  if (a->kind == N_STRING) {
    for (const char *c = a->str; *c; c++) put(f, *c == '%' ? "%%" : (char[]){*c, 0});
    *slot = NULL;
    return;
  }
  LLVMValueRef v = lo_expr(l, a);
  if (a->ty->kind == TY_BOOL) {
    put(f, "%s");
    v = LLVMBuildSelect(l->b, v, lo_string(l, "True"), lo_string(l, "False"), "");
    *slot = LLVMBuildPtrToInt(l->b, v, l->mod->i64, "");
  } else if (ty_is_complex(a->ty)) {  /* as Python's repr: (1+2j), 2j, (nan-infj) */
    put(f, "%C");
    const Type *part = lo_complex_part(a->ty), *f64 = TYS(TY_F64);
    slot[0] = LLVMBuildBitCast(l->b, lo_convert(l, lo_complex_real(l, v), part, f64), l->mod->i64, "");
    slot[1] = LLVMBuildBitCast(l->b, lo_convert(l, lo_complex_imag(l, v), part, f64), l->mod->i64, "");
  } else if (ty_is_float(a->ty)) {
    put(f, kernel_style(l) ? "%f" : a->ty->kind == TY_F32 ? "%h" : "%g");
    *slot = LLVMBuildBitCast(l->b, lo_convert(l, v, a->ty, TYS(TY_F64)), l->mod->i64, "");
  } else {
    put(f, ty_is_signed(a->ty) ? "%lld" : "%llu");
    *slot = lo_convert(l, v, a->ty, ty_is_signed(a->ty) ? TYS(TY_I64) : TYS(TY_U64));
  }
}

static LLVMValueRef lo_print(Lower *l, Node *n) {
  Format f = {.arena = l->f->arena};
  put(&f, "");
  int nargs = n->list.len ? 2 * n->list.len : 1;
  LLVMValueRef args = lo_alloca(l, LLVMArrayType2(l->mod->i64, (uint64_t)nargs), "print");
  int used = 0;
  for (int i = 0; i < n->list.len; i++) {
    if (i) put(&f, " ");
    LLVMValueRef slot[2] = {NULL, NULL};
    print_item(l, &f, n->list.items[i], slot);
    for (int k = 0; k < 2 && slot[k]; k++) {
      LLVMValueRef ix[2] = {const_i64(l, 0), const_i64(l, used++)};
      LLVMBuildStore(l->b, slot[k], LLVMBuildGEP2(l->b, LLVMArrayType2(l->mod->i64, (uint64_t)nargs), args, ix, 2, ""));
    }
  }
  put(&f, "\n");
  LLVMValueRef fmt = lo_string(l, f.text);
  if (l->mod->gpu) {
    LLVMTypeRef p[2] = {l->mod->ptr, l->mod->ptr};
    lo_call_fn(l, "vprintf", l->mod->i32, p, (LLVMValueRef[]){fmt, args}, 2);
  } else {
    LLVMTypeRef p[3] = {l->mod->ptr, l->mod->ptr, l->mod->i1};
    lo_call_fn(l, "rt_print", void_type(l), p, (LLVMValueRef[]){fmt, args, const_bool(l, kernel_style(l))}, 3);
  }
  return LLVMGetUndef(l->mod->i8);
}

const Builtin bi_print[] = {
  {"print", "builtins", "print", BK_FUNCTION, 0, 0, 32, NULL, BF_STRINGS | BF_COMPLEX, 0, 0, ty_print, lo_print},
  BI_END,
};
