/* builtins/print.c — print() in compiled code: the arguments separated by
 * spaces (sep=), then a newline (end=); ints as %lld (%llu unsigned), bools as
 * True/False, None, constant strings as themselves, bytes as their repr, complex numbers as
 * Python's repr writes them, tuples of these as Python writes them
 * ("(1, 2.5)", "(1,)"; a named tuple, as Numba's print boxes it, through the
 * interpreter: "Point(x=1, y=2.5)"), lists of numbers, bools and strs as their repr
 * ("[1, 'a']", the same text str() of them makes), literal dicts as
 * Python writes dicts ("{'a': 1, 'b': 'x'}"), an Optional as None
 * or its value; a timedelta64 as NumPy's str() ("3 days", NaT); a number
 * class (type(x), numpy.int32) as its name, as Numba prints it; floats as
 * Python and NumPy write them in @njit code (repr: %g, %h for float32) and
 * as numba-cuda prints them in kernels (%f). The format is made here; the GPU's vprintf
 * or the CPU's rt_print (print.c: a kernel's lines kept together by block,
 * an @njit function's written to sys.stdout at once) fills it in.
 */
#include "builtins/builtins.h"
#include <stdio.h>

/* Whether print() writes values of type t: numbers, bools, None, strings,
 * bytes, arrays of numbers and bools, lists of numbers, bools and strings
 * (not in kernels), and tuples of numbers, bools, None, strings, bytes and
 * such lists (a tuple writes its items' repr, which print does not make
 * for arrays). */
/* A number or a bool print.c writes itself (a float16 and a datetime64 as NumPy writes them are not) */
static bool plain_scalar(const Type *t) { return ty_is_scalar(t) && t->kind != TY_F16 && t->kind != TY_DATETIME; }

static bool printable(const Type *t) {
  if (t->kind == TY_TIMEDELTA) return true;  /* as NumPy's str(): "3 days" (a tuple's item, its repr, is refused) */
  if (t->kind == TY_ARRAY) return plain_scalar(t->elem) && !ty_is_complex(t->elem);
  if (t->kind == TY_TUPLE || t->kind == TY_LITDICT) {
    for (int i = 0; i < t->nfields; i++)
      if (!printable(t->fields[i]) || t->fields[i]->kind == TY_ARRAY || t->fields[i]->kind == TY_TIMEDELTA) return false;
    return true;
  }
  if (t->kind == TY_OPTIONAL)  /* None, or its value: a number, a bool or a str (print.c's %N) */
    return t->elem->kind == TY_STR || (plain_scalar(t->elem) && !ty_is_enum(t->elem));
  if (t->kind == TY_LIST)  /* its items' repr (print.c's list_repr) */
    return !t->elem || t->elem->kind == TY_STR || (plain_scalar(t->elem) && !ty_is_complex(t->elem) && !ty_is_enum(t->elem));
  return plain_scalar(t) || t->kind == TY_NONE || t->kind == TY_STR || t->kind == TY_BYTES || t->kind == TY_DTYPE;
}

/* An enum member of ints, printed as Python prints it: its str() (Color.RED; an IntEnum's value since
 * Python 3.11), known for each member when its class was typed. */
static bool printable_member(const Type *t) { return ty_is_enum(t) && t->nmembers > 0; }

/* What print() hands the interpreter where print.c does not write it,
 * as Numba's print boxes values: sets, dicts, records, datetime64 and
 * float16 values, arrays of other elements (complex numbers, text,
 * datetimes, records), and lists, Optionals and tuples holding them. */
static bool boxed_for_print(const Type *t) {
  for (int i = 0; t->kind == TY_TUPLE && i < t->nfields; i++)
    if (!boxed_for_print(t->fields[i])) return false;
  if (t->kind == TY_LIST || t->kind == TY_OPTIONAL) return !t->elem || boxed_for_print(t->elem);
  return ty_is_scalar(t) || ty_is_time(t) || t->kind == TY_TUPLE || t->kind == TY_NONE || t->kind == TY_STR ||
         t->kind == TY_BYTES || t->kind == TY_ARRAY || t->kind == TY_SET || t->kind == TY_DICT || t->kind == TY_RECORD;
}

/* Whether print.c writes an argument of type t itself. */
static bool written_here(const Type *t) { return printable(t) || printable_member(t); }

/* Whether t is or holds a named tuple (a namedtuple class's, or a
 * package's value type held as one): the interpreter writes it, as
 * Numba's print boxes it ("Point(x=1, y=2.5)", the object's own str()),
 * where it can run (interpreter_prints); elsewhere print.c writes its
 * items as a tuple's. */
static bool holds_named(const Type *t) {
  for (int i = 0; t->kind == TY_TUPLE && i < t->nfields; i++)
    if (holds_named(t->fields[i])) return true;
  return t->kind == TY_TUPLE && t->callee;
}

/* Whether print() n may hand values to the interpreter: the frontend
 * gave its function, and the code is neither a kernel's nor a device
 * function's (a prange loop's threads take the GIL for it, as objmode
 * blocks there do). */
static bool interpreter_prints(const CompileOptions *o, const Node *n) {
  return n->data && o && !o->kernel && !o->device;
}

/* Whether the interpreter writes an argument of type t of print() n. */
static bool interpreted(const CompileOptions *o, const Node *n, const Type *t) {
  return (!written_here(t) || (holds_named(t) && interpreter_prints(o, n))) && boxed_for_print(t);
}


/* Whether t is or holds what only the CPU's print writes (strings made at run time, arrays). */
static bool host_only(const Type *t) {
  for (int i = 0; t->kind == TY_TUPLE && i < t->nfields; i++)
    if (host_only(t->fields[i])) return true;
  return t->kind == TY_STR || t->kind == TY_BYTES || t->kind == TY_ARRAY || t->kind == TY_TIMEDELTA || t->kind == TY_LIST ||
         t->kind == TY_OPTIONAL || t->kind == TY_LITDICT;
}

/* An argument of print() or str() as it is where it is an Optional (None
 * is written "None"), not read as its value, which raises TypeError for
 * None: its type. */
const Type *ty_printed_arg(Infer *in, Node **x) {
  if ((*x)->kind == N_UNWRAP && (*x)->lhs->ty && (*x)->lhs->ty->kind == TY_OPTIONAL) *x = (*x)->lhs;
  else if ((*x)->kind == N_VAR) ty_maybe_none(in, *x);
  return (*x)->ty;
}

/* sep= and end=: constant strings, or None for the default */
static const char *print_text(Node *n, const char *name, const char *deflt) {
  Node *k = ty_kwarg(n, name);
  return k && k->kind == N_STRING ? k->str : deflt;
}

static const Type *ty_print(Infer *in, Node *n, const Type **args) {
  for (int i = 0; i < n->kw.len; i++)
    if (n->kw.items[i]->kind != N_STRING && n->kw.items[i]->kind != N_NONE)
      return ty_error(in, n->kw.items[i], "print()'s %s= must be a constant string or None in compiled code",
                      n->kw_names[i]);
  for (int i = 0; i < n->list.len; i++) {
    args[i] = ty_printed_arg(in, &n->list.items[i]);
    Node *x = n->list.items[i];
    if (printable_member(args[i]) && ty_in_cuda(in)) return ty_error(in, x, "print() of an enum member is not supported in GPU code");
    bool by_interpreter = interpreted(in->opts, n, args[i]) && n->data && !ty_in_cuda(in);
    if (x->kind != N_STRING && !by_interpreter && (!written_here(args[i]) || (host_only(args[i]) && ty_in_cuda(in))))
      return ty_error(in, x, "print() prints numbers, bools, None, tuples of them and constant strings (and str "
                      "values, lists, sets, dicts and arrays outside kernels) in compiled code, not %s", args[i]->name);
    if (ty_holds_complex(args[i]) && in->opts && in->opts->gpu_cc)
      return ty_error(in, x, "print() of a complex number is not supported in GPU code");
  }
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

/* The 8-byte slots a value of type t fills (a complex number two). */
static int slots_of(const Type *t) {
  if (t->kind == TY_TUPLE || t->kind == TY_LITDICT) {
    int n = t->kind == TY_LITDICT ? t->nfields : 0;  /* (a literal dict's keys, each a str's) */
    for (int i = 0; i < t->nfields; i++) n += slots_of(t->fields[i]);
    return n;
  }
  if (t->kind == TY_OPTIONAL) return 1 + slots_of(t->elem);
  return t->kind == TY_NONE || t->kind == TY_DTYPE ? 0 : ty_is_complex(t) ? 2 : 1;
}

/* Value v of type t: its directives in the format, its slots from slot[*used] on. */
/* in_tuple: a string is written as its repr, as a tuple's str writes its items */
static void print_value(Lower *l, Format *f, LLVMValueRef v, const Type *t, LLVMValueRef *slot, int *used, bool in_tuple) {
  if (printable_member(t) && !in_tuple) {  /* the text of the member whose value v is */
    LLVMValueRef bits = lo_convert(l, v, t->elem, ty_is_signed(t->elem) ? TYS(TY_I64) : TYS(TY_U64)), text = lo_string(l, "?");
    for (int i = t->nmembers - 1; i >= 0; i--) {
      LLVMValueRef is = LLVMBuildICmp(l->b, LLVMIntEQ, bits, LLVMConstInt(l->mod->i64, (uint64_t)t->shapes[i], 0), "");
      text = LLVMBuildSelect(l->b, is, lo_string(l, t->texts[i]), text, "");
    }
    put(f, "%s");
    slot[(*used)++] = LLVMBuildPtrToInt(l->b, text, l->mod->i64, "");
  } else if (t->kind == TY_NONE) {
    put(f, "None");
  } else if (t->kind == TY_DTYPE) {  /* type(x), numpy.float32: its name, as Numba prints a number class */
    put(f, t->elem->name);
  } else if (t->kind == TY_TUPLE) {  /* a literal list written as the list it is: [1, 'a'] */
    bool list = ty_is_literal_list(t);
    put(f, list ? "[" : "(");
    for (int i = 0; i < t->nfields; i++) {
      if (i) put(f, ", ");
      print_value(l, f, LLVMBuildExtractValue(l->b, v, (unsigned)i, ""), t->fields[i], slot, used, true);
    }
    put(f, list ? "]" : t->nfields == 1 ? ",)" : ")");
  } else if (t->kind == TY_LITDICT) {  /* as Python writes a dict: {'a': 1, 'b': 'x'} */
    put(f, "{");
    for (int i = 0; i < t->nfields; i++) {
      Node key = {.kind = N_STRING, .str = t->names[i], .ival = (int64_t)strlen(t->names[i])};
      put(f, i ? ", %R: " : "%R: ");
      slot[(*used)++] = LLVMBuildPtrToInt(l->b, lo_str_constant(l, &key), l->mod->i64, "");
      print_value(l, f, LLVMBuildExtractValue(l->b, v, (unsigned)i, ""), t->fields[i], slot, used, true);
    }
    put(f, "}");
  } else if (t->kind == TY_ARRAY && t->ndim == 0) {  /* NumPy writes its element */
    LLVMValueRef data = LLVMBuildExtractValue(l->b, v, 2, "");
    print_value(l, f, lo_load_scalar(l, t->elem, data), t->elem, slot, used, false);
  } else if (t->kind == TY_ARRAY) {  /* %A, its dtype's kind and ndim: NumPy's str(a) (print_array.c) */
    LLVMValueRef mem = lo_alloca(l, l->mod->rtarray, "print.array");
    lo_store_storage(l, t, mem, v);
    put(f, "%A");
    put(f, (char[]){(char)('a' + t->elem->kind), (char)('0' + t->ndim), 0});
    slot[(*used)++] = LLVMBuildPtrToInt(l->b, mem, l->mod->i64, "");
  } else if (t->kind == TY_BYTES) {  /* %Y: its repr, in a tuple too (print_item keeps it alive) */
    LLVMValueRef mem = lo_alloca(l, l->mod->rtarray, "print.bytes");
    lo_store_storage(l, t, mem, v);
    put(f, "%Y");
    slot[(*used)++] = LLVMBuildPtrToInt(l->b, mem, l->mod->i64, "");
  } else if (t->kind == TY_TIMEDELTA) {  /* %m and its unit's code: "3 days", or NaT (print.c) */
    put(f, "%m");
    put(f, (char[]){(char)('a' + t->unit), 0});
    slot[(*used)++] = v;
  } else if (t->kind == TY_OPTIONAL) {  /* %N: None where its flag is clear, else its value's directive */
    put(f, "%N");
    slot[(*used)++] = LLVMBuildZExt(l->b, LLVMBuildExtractValue(l->b, v, 1, ""), l->mod->i64, "");
    print_value(l, f, LLVMBuildExtractValue(l->b, v, 0, ""), t->elem, slot, used, in_tuple);
  } else if (t->kind == TY_LIST) {  /* %L and its items' kind: the list's repr (print.c) */
    put(f, "%L");
    put(f, (char[]){(char)('a' + (t->elem ? t->elem->kind : TY_I64)), 0});
    slot[(*used)++] = LLVMBuildPtrToInt(l->b, v, l->mod->i64, "");
  } else if (t->kind == TY_STR) {
    put(f, in_tuple ? "%R" : "%U");
    slot[(*used)++] = LLVMBuildPtrToInt(l->b, v, l->mod->i64, "");
  } else if (t->kind == TY_BOOL) {
    put(f, "%s");
    v = LLVMBuildSelect(l->b, v, lo_string(l, "True"), lo_string(l, "False"), "");
    slot[(*used)++] = LLVMBuildPtrToInt(l->b, v, l->mod->i64, "");
  } else if (ty_is_complex(t)) {  /* as Python's repr: (1+2j), 2j, (nan-infj) */
    put(f, "%C");
    const Type *part = lo_complex_part(t), *f64 = TYS(TY_F64);
    slot[(*used)++] = LLVMBuildBitCast(l->b, lo_convert(l, lo_complex_real(l, v), part, f64), l->mod->i64, "");
    slot[(*used)++] = LLVMBuildBitCast(l->b, lo_convert(l, lo_complex_imag(l, v), part, f64), l->mod->i64, "");
  } else if (ty_is_float(t)) {
    put(f, kernel_style(l) ? "%f" : t->kind == TY_F32 ? "%h" : "%g");
    slot[(*used)++] = LLVMBuildBitCast(l->b, lo_convert(l, v, t, TYS(TY_F64)), l->mod->i64, "");
  } else {
    put(f, ty_is_signed(t) ? "%lld" : "%llu");
    slot[(*used)++] = lo_convert(l, v, t, ty_is_signed(t) ? TYS(TY_I64) : TYS(TY_U64));
  }
}

/* One argument: a constant string written into the format, or a value
 * (returned, to be released once printed: strings are printed from it). */
/* text written as it is: its %s doubled for the format */
static void put_text(Format *f, const char *text) {
  for (const char *c = text; *c; c++) put(f, *c == '%' ? "%%" : (char[]){*c, 0});
}

static LLVMValueRef print_item(Lower *l, Format *f, Node *a, LLVMValueRef *slot, int *used) {
  if (a->kind == N_STRING) {
    put_text(f, a->str);
    return NULL;
  }
  if (a->ty->kind == TY_DTYPE) {  /* known from types alone: no value to lower */
    print_value(l, f, NULL, a->ty, slot, used, false);
    return NULL;
  }
  LLVMValueRef v = lo_expr(l, a);
  print_value(l, f, v, a->ty, slot, used, false);
  return v;
}

/* A constant text as a str value (immortal: no reference to release). */
static LLVMValueRef text_value(Lower *l, const char *text) {
  return lo_str_constant(l, &(Node){.kind = N_STRING, .str = (char *)text, .ival = (int64_t)strlen(text)});
}

/* print() of a value print.c does not write: sep, end and the values
 * boxed and written by the interpreter (ruchey._objmode._print, n->data,
 * which the frontend gave), in order with the interpreter's own output. */
static LLVMValueRef print_through_interpreter(Lower *l, Node *n) {
  int count = n->list.len + 2;
  const Type **f = arena_alloc(l->f->arena, sizeof(Type *) * (size_t)count);
  LLVMValueRef *vals = arena_alloc(l->f->arena, sizeof(LLVMValueRef) * (size_t)count);
  f[0] = f[1] = TYS(TY_STR);
  vals[0] = text_value(l, print_text(n, "sep", " "));
  vals[1] = text_value(l, print_text(n, "end", "\n"));
  for (int i = 0; i < n->list.len; i++) {
    f[i + 2] = n->list.items[i]->ty;
    vals[i + 2] = lo_expr(l, n->list.items[i]);
    lo_refcount(l, f[i + 2], vals[i + 2], true);  /* boxing them takes a reference of each */
  }
  const Type *in_t = ty_tuple(count, f), *out_t = ty_tuple(0, NULL);
  LLVMValueRef v = LLVMGetUndef(lo_type(l, in_t));
  for (int i = 0; i < count; i++) v = LLVMBuildInsertValue(l->b, v, vals[i], (unsigned)i, "");
  LLVMValueRef in = lo_alloca(l, lo_storage_type(l, in_t), "print.in"), out = lo_alloca(l, lo_storage_type(l, out_t), "print.out");
  lo_store_storage(l, in_t, in, v);
  LLVMValueRef status = lo_objmode_run(l, n->data, in_t, in, out_t, out);
  for (int i = 0; i < n->list.len; i++) lo_done_with(l, n->list.items[i], vals[i + 2]);
  lo_check_status(l, status);
  return LLVMGetUndef(l->mod->i8);
}

/* CUDA's printf (vprintf) formats at most this many values. */
enum { VPRINTF_MAX_ARGS = 32 };

/* A print() of more values than vprintf formats, in a GPU's code: the
 * format itself printed (each % doubled), and a warning at compile time, as
 * numba-cuda does (CUDA C's printf would print garbage). */
static void gpu_print_raw(Lower *l, const char *format, LLVMValueRef args) {
  size_t n = strlen(format), extra = 0;
  for (size_t i = 0; i < n; i++) extra += format[i] == '%';
  char *raw = arena_alloc(l->f->arena, n + extra + 1), *o = raw;
  for (size_t i = 0; i < n; i++) {
    if (format[i] == '%') *o++ = '%';
    *o++ = format[i];
  }
  *o = 0;
  if (l->mod->res && !l->mod->res->warning[0])
    snprintf(l->mod->res->warning, sizeof l->mod->res->warning,
             "CUDA print() cannot print more than %d items. The raw format string will be emitted by the kernel "
             "instead.", VPRINTF_MAX_ARGS);
  LLVMTypeRef p[2] = {l->mod->ptr, l->mod->ptr};
  lo_call_fn(l, "vprintf", l->mod->i32, p, (LLVMValueRef[]){lo_string(l, raw), args}, 2);
}

static LLVMValueRef lo_print(Lower *l, Node *n) {
  for (int i = 0; i < n->list.len; i++)
    if (n->list.items[i]->kind != N_STRING && interpreted(l->opts, n, n->list.items[i]->ty))
      return print_through_interpreter(l, n);
  Format f = {.arena = l->f->arena};
  put(&f, "");
  int nargs = 1;
  for (int i = 0; i < n->list.len; i++)
    if (n->list.items[i]->kind != N_STRING) nargs += slots_of(n->list.items[i]->ty);
  LLVMValueRef *slot = arena_alloc(l->f->arena, sizeof(LLVMValueRef) * (size_t)nargs);
  int used = 0;
  LLVMValueRef *vals = arena_alloc(l->f->arena, sizeof(LLVMValueRef) * (size_t)(n->list.len + 1));
  for (int i = 0; i < n->list.len; i++) {
    if (i) put_text(&f, print_text(n, "sep", " "));
    vals[i] = print_item(l, &f, n->list.items[i], slot, &used);
  }
  LLVMTypeRef arr = LLVMArrayType2(l->mod->i64, (uint64_t)nargs);
  LLVMValueRef args = lo_alloca(l, arr, "print");
  for (int k = 0; k < used; k++) {
    LLVMValueRef ix[2] = {const_i64(l, 0), const_i64(l, k)};
    LLVMBuildStore(l->b, slot[k], LLVMBuildGEP2(l->b, arr, args, ix, 2, ""));
  }
  put_text(&f, print_text(n, "end", "\n"));
  LLVMValueRef fmt = lo_string(l, f.text);
  if (l->mod->gpu && used > VPRINTF_MAX_ARGS) {
    gpu_print_raw(l, f.text, args);
  } else if (l->mod->gpu) {
    LLVMTypeRef p[2] = {l->mod->ptr, l->mod->ptr};
    lo_call_fn(l, "vprintf", l->mod->i32, p, (LLVMValueRef[]){fmt, args}, 2);
  } else {
    LLVMTypeRef p[3] = {l->mod->ptr, l->mod->ptr, l->mod->i1};
    lo_call_fn(l, "rt_print", void_type(l), p, (LLVMValueRef[]){fmt, args, const_bool(l, kernel_style(l))}, 3);
  }
  for (int i = 0; i < n->list.len; i++)
    if (vals[i]) lo_done_with(l, n->list.items[i], vals[i]);
  return LLVMGetUndef(l->mod->i8);
}

/* Whether str(x) (repr: repr(x)) writes x as print() does: a tuple, a
 * list, None, a complex number, bytes, an array, a timedelta64 or an enum
 * member (repr: not the last three, whose repr is not what print writes). */
bool ty_str_as_printed(const Type *t, bool repr) {
  if (printable_member(t)) return !repr;
  if (t->kind == TY_DTYPE) return false;  /* str(numpy.float32) is "<class 'numpy.float32'>" */
  if (repr && (t->kind == TY_ARRAY || t->kind == TY_TIMEDELTA)) return false;
  return printable(t);
}

/* str(v) (repr: repr(v)) of a value of type t that ty_str_as_printed
 * takes: print's format for it, filled into a new str at run time. */
LLVMValueRef lo_str_as_printed(Lower *l, LLVMValueRef v, const Type *t, bool repr) {
  Format f = {.arena = l->f->arena};
  put(&f, "");
  int nslots = slots_of(t) + 1, used = 0;
  LLVMValueRef *slot = arena_alloc(l->f->arena, sizeof(LLVMValueRef) * (size_t)nslots);
  print_value(l, &f, v, t, slot, &used, repr);
  LLVMTypeRef arr = LLVMArrayType2(l->mod->i64, (uint64_t)nslots);
  LLVMValueRef args = lo_alloca(l, arr, "str.args");
  for (int k = 0; k < used; k++) {
    LLVMValueRef ix[2] = {const_i64(l, 0), const_i64(l, k)};
    LLVMBuildStore(l->b, slot[k], LLVMBuildGEP2(l->b, arr, args, ix, 2, ""));
  }
  LLVMValueRef out = lo_alloca(l, l->mod->ptr, "str.out");
  LLVMTypeRef p[3] = {l->mod->ptr, l->mod->ptr, l->mod->ptr};
  lo_check_call(l, lo_call_fn(l, "rt_format_str", l->mod->i32, p, (LLVMValueRef[]){out, lo_string(l, f.text), args}, 3));
  return LLVMBuildLoad2(l->b, l->mod->ptr, out, "");
}

/* Whether str(x) (repr: repr(x)) of a value of type t, in call n, is made
 * by the interpreter (n->data: ruchey._objmode._str or _repr, which the
 * frontend gave): what print() hands it (sets, dicts, lists and tuples
 * of them...), CPython's text of it, outside kernels and device
 * functions. */
bool ty_text_by_interpreter(const CompileOptions *o, const Node *n, const Type *t, bool repr) {
  return interpreter_prints(o, n) && !ty_str_as_printed(t, repr) && boxed_for_print(t);
}

/* That str: x's value v boxed (with a reference of its own) and handed to
 * the interpreter, the str it makes compiled code's. */
LLVMValueRef lo_text_by_interpreter(Lower *l, const Node *n, Node *x, LLVMValueRef v) {
  const Type *str = TYS(TY_STR), *in_t = ty_tuple(1, &x->ty), *out_t = ty_tuple(1, &str);
  LLVMValueRef in = lo_alloca(l, lo_storage_type(l, in_t), "text.in"), out = lo_alloca(l, lo_storage_type(l, out_t), "text.out");
  lo_refcount(l, x->ty, v, true);  /* boxing it takes a reference */
  lo_store_storage(l, in_t, in, LLVMBuildInsertValue(l->b, LLVMGetUndef(lo_type(l, in_t)), v, 0, ""));
  LLVMValueRef status = lo_objmode_run(l, n->data, in_t, in, out_t, out);
  lo_done_with(l, x, v);
  lo_check_status(l, status);
  return LLVMBuildExtractValue(l->b, lo_load_storage(l, out_t, out), 0, "text");
}

static const char *const print_kw[] = {"sep", "end", NULL};

const Builtin bi_print[] = {
  {"print", "builtins", "print", BK_FUNCTION, 0, 0, 255, print_kw, BF_STRINGS | BF_NONE | BF_COMPLEX | BF_MEMBERS | BF_LISTS, 0, 0,
   ty_print, lo_print},
  BI_END,
};
