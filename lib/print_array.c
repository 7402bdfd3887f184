/* print_array.c — an array as NumPy's str(a) writes it, for print() in
 * compiled code (print.c's %A): NumPy's default options (precision 8,
 * 75 characters a line, summarised past 1000 elements with 3 at each
 * edge), arrayprint.py's rules made C.
 *
 * Integers are right-aligned to the widest; bools are " True" and "False".
 * Floats are each written with their shortest digits (at most 8 after the
 * point), all aligned on the point and padded with spaces; when the
 * largest magnitude reaches 1e8, the smallest non-zero one is under 1e-4
 * or they span more than three decades, all are in scientific notation
 * with as many mantissa digits as the longest needs. NumPy 2.3 on lowers
 * that 1e8 to 1e6 for float32 (its precision, 6 digits); print.c passes
 * the cutoff, 1e6 where the installed NumPy writes a float32 scalar of 1e6
 * with an exponent (NumPy 2), which misses NumPy 2.0 to 2.2 only.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ruchey.h"

enum { EDGE = 3, SUMMARY_FROM = 1000, LINE_WIDTH = 75 };

typedef struct Text {
  char *s;
  size_t len, cap;
} Text;

static void put(Text *t, const char *s, size_t n) {
  if (t->len + n + 1 > t->cap) {
    size_t cap = 2 * (t->len + n + 1) + 64;
    char *g = realloc(t->s, cap);
    if (!g) return;
    t->s = g;
    t->cap = cap;
  }
  memcpy(t->s + t->len, s, n);
  t->len += n;
  t->s[t->len] = 0;
}

static void puts_(Text *t, const char *s) { put(t, s, strlen(s)); }

/* ---------------------------------------------------------------- the array's elements */

typedef struct Arr {
  const RtArray *a;
  int ndim, kind;
  bool summarise;
  double sci_from;  /* the magnitude from which all are scientific */
} Arr;

/* The indices along an axis of length n that are shown: all, or the edges. */
static int64_t shown(const Arr *x, int64_t n, int64_t k) {
  if (!x->summarise || n <= 2 * EDGE) return k;
  return k < EDGE ? k : n - 2 * EDGE + k;
}

static int64_t nshown(const Arr *x, int64_t n) { return x->summarise && n > 2 * EDGE ? 2 * EDGE : n; }

/* Calls f on every element shown, in C order. */
static void each_shown(const Arr *x, int axis, const char *p, void (*f)(const Arr *, const char *, void *), void *ctx) {
  if (axis == x->ndim) {
    f(x, p, ctx);
    return;
  }
  int64_t n = x->a->shape[axis];
  for (int64_t k = 0; k < nshown(x, n); k++) each_shown(x, axis + 1, p + shown(x, n, k) * x->a->strides[axis], f, ctx);
}

/* ---------------------------------------------------------------- floats */

/* |d|'s shortest digits that read back as d (a float32's if single), and
 * its decimal exponent (d = D.DDD * 10**exp). */
static int shortest(double d, bool single, char *digits, int *exp) {
  char text[40];
  for (int prec = 1; prec <= 17; prec++) {
    snprintf(text, sizeof text, "%.*e", prec - 1, fabs(d));
    double back = strtod(text, NULL);
    if (single ? (float)back == (float)fabs(d) : back == fabs(d)) break;
  }
  int n = 0;
  *exp = atoi(strchr(text, 'e') + 1);
  for (const char *c = text; *c != 'e'; c++)
    if (*c >= '0' && *c <= '9') digits[n++] = *c;
  while (n > 1 && digits[n - 1] == '0') n--;
  digits[n] = 0;
  return n;
}

/* A finite float's parts, NumPy's dragon4 with precision 8 and trim '.':
 * the integer part with its sign, the fraction, and (scientific) the
 * exponent. */
typedef struct Parts {
  char whole[424], frac[40], exp[12];  /* room for a sign and %.8f of 1e308; any int exponent */
} Parts;

static void positional(double d, bool single, Parts *o) {
  char digits[24];
  int e, n = shortest(d, single, digits, &e);
  const char *sign = signbit(d) ? "-" : "";
  if (n - 1 - e > 8) {  /* more than 8 decimals: rounded there, trailing zeros trimmed */
    char text[420];
    snprintf(text, sizeof text, "%.8f", fabs(d));
    char *dot = strchr(text, '.');
    *dot = 0;
    size_t k = strlen(dot + 1);
    while (k && dot[k] == '0') dot[k--] = 0;
    snprintf(o->whole, sizeof o->whole, "%s%s", sign, text);
    snprintf(o->frac, sizeof o->frac, "%s", dot + 1);
    return;
  }
  char *w = o->whole, *f = o->frac;
  w += sprintf(w, "%s", sign);
  if (e < 0) {
    *w++ = '0';
    for (int i = 0; i < -e - 1; i++) *f++ = '0';
    for (int i = 0; i < n; i++) *f++ = digits[i];
  } else {
    for (int i = 0; i <= e; i++) *w++ = i < n ? digits[i] : '0';
    for (int i = e + 1; i < n; i++) *f++ = digits[i];
  }
  *w = 0;
  *f = 0;
}

static void scientific(double d, bool single, Parts *o) {
  char digits[24], text[40];
  int e, n = shortest(d, single, digits, &e);
  const char *sign = signbit(d) ? "-" : "";
  if (n - 1 > 8) {  /* rounded to 8 decimals of the mantissa, trailing zeros trimmed */
    snprintf(text, sizeof text, "%.8e", fabs(d));
    e = atoi(strchr(text, 'e') + 1);
    n = 0;
    for (const char *c = text; *c != 'e'; c++)
      if (*c >= '0' && *c <= '9') digits[n++] = *c;
    while (n > 1 && digits[n - 1] == '0') n--;
  }
  snprintf(o->whole, sizeof o->whole, "%s%c", sign, digits[0]);
  memcpy(o->frac, digits + 1, (size_t)n - 1);
  o->frac[n - 1] = 0;
  snprintf(o->exp, sizeof o->exp, "%c%02d", e < 0 ? '-' : '+', abs(e));
}

/* What the elements shown decide: the notation and the paddings. */
typedef struct FloatFormat {
  bool sci, any_finite, non_finite, neg_inf;
  double max_abs, min_abs;  /* of the non-zero finite values */
  int pad_left, pad_right, precision, exp_size;
} FloatFormat;

static void scan_float(const Arr *x, const char *p, void *ctx) {
  FloatFormat *f = ctx;
  double d = rt_item_double(x->kind, p);
  if (isinf(d) && d < 0) f->neg_inf = true;
  if (!isfinite(d)) f->non_finite = true;
  if (!isfinite(d) || d == 0) return;
  double m = fabs(d);
  if (m > f->max_abs) f->max_abs = m;
  if (m < f->min_abs) f->min_abs = m;
}

static void measure_float(const Arr *x, const char *p, void *ctx) {
  FloatFormat *f = ctx;
  double d = rt_item_double(x->kind, p);
  if (!isfinite(d)) return;
  Parts o;
  if (f->sci) scientific(d, x->kind == TY_F32, &o);
  else positional(d, x->kind == TY_F32, &o);
  int w = (int)strlen(o.whole), r = (int)strlen(o.frac), ex = (int)strlen(o.exp) - 1;
  if (!f->any_finite || w > f->pad_left) f->pad_left = w;
  if (!f->any_finite || r > f->pad_right) f->pad_right = r;
  if (!f->any_finite || ex > f->exp_size) f->exp_size = ex;
  f->any_finite = true;
}

static void float_format(const Arr *x, FloatFormat *f) {
  *f = (FloatFormat){.min_abs = INFINITY};
  each_shown(x, 0, x->a->data, scan_float, f);
  f->sci = f->max_abs > 0 && (f->max_abs >= x->sci_from || f->min_abs < 1e-4 || f->max_abs / f->min_abs > 1e3);
  each_shown(x, 0, x->a->data, measure_float, f);
  if (f->sci) {  /* every mantissa as long as the longest; pad_right counts for nan's width */
    f->precision = f->pad_right;
    f->pad_right = f->exp_size + 2 + f->precision;
  }
  if (!f->non_finite) return;
  int offset = f->pad_right + 1;  /* nan and inf fill the width of the others */
  if (3 - offset > f->pad_left) f->pad_left = 3 - offset;
  if (3 + f->neg_inf - offset > f->pad_left) f->pad_left = 3 + f->neg_inf - offset;
}

static void spaces(Text *t, int n) {
  for (int i = 0; i < n; i++) put(t, " ", 1);
}

static void write_float(Text *t, const Arr *x, const FloatFormat *f, double d) {
  if (!isfinite(d)) {
    const char *s = isnan(d) ? "nan" : d < 0 ? "-inf" : "inf";
    spaces(t, f->pad_left + f->pad_right + 1 - (int)strlen(s));
    puts_(t, s);
    return;
  }
  Parts o;
  if (f->sci) scientific(d, x->kind == TY_F32, &o);
  else positional(d, x->kind == TY_F32, &o);
  if (f->sci && (int)strlen(o.frac) < f->precision) {
    /* a mantissa shorter than the others goes on with the value's own
     * digits (NumPy's min_digits), not zeros: a float32's show */
    char text[48];
    snprintf(text, sizeof text, "%.*e", f->precision, fabs(d));
    snprintf(o.frac, sizeof o.frac, "%.*s", f->precision, text + 2);
    snprintf(o.whole, sizeof o.whole, "%s%c", signbit(d) ? "-" : "", text[0]);
    int e = atoi(strchr(text, 'e') + 1);
    snprintf(o.exp, sizeof o.exp, "%c%02d", e < 0 ? '-' : '+', abs(e));
  }
  spaces(t, f->pad_left - (int)strlen(o.whole));
  puts_(t, o.whole);
  put(t, ".", 1);
  puts_(t, o.frac);
  if (f->sci) {
    for (int i = (int)strlen(o.frac); i < f->precision; i++) put(t, "0", 1);
    char e[16];
    int digits = atoi(o.exp + 1);
    snprintf(e, sizeof e, "e%c%0*d", o.exp[0], f->exp_size, digits);
    puts_(t, e);
  } else {
    spaces(t, f->pad_right - (int)strlen(o.frac));
  }
}

/* ---------------------------------------------------------------- ints */

typedef struct IntFormat {
  int width;
} IntFormat;

static int int_text(const Arr *x, const char *p, char *out) {
  if (x->kind == TY_U64) return sprintf(out, "%llu", (unsigned long long)*(const uint64_t *)p);
  return sprintf(out, "%lld", (long long)rt_item_int(x->kind, p));
}

static void measure_int(const Arr *x, const char *p, void *ctx) {
  char text[32];
  int n = int_text(x, p, text);
  IntFormat *f = ctx;
  if (n > f->width) f->width = n;
}

/* ---------------------------------------------------------------- the layout */

typedef struct Layout {
  const Arr *x;
  FloatFormat ff;
  IntFormat inf;
} Layout;

static void word(const Layout *lay, const char *p, Text *t) {
  const Arr *x = lay->x;
  if (x->kind == TY_BOOL) {
    puts_(t, *(const uint8_t *)p ? " True" : "False");
  } else if (x->kind == TY_F32 || x->kind == TY_F64) {
    write_float(t, x, &lay->ff, rt_item_double(x->kind, p));
  } else {
    char text[32];
    int n = int_text(x, p, text);
    spaces(t, lay->inf.width - n);
    put(t, text, (size_t)n);
  }
}

/* arrayprint's _extendLine: word onto line, wrapped when past width */
static void extend_line(Text *s, Text *line, const char *w, size_t wn, int width, size_t indent) {
  if (line->len + wn > (size_t)width && line->len > indent) {
    size_t n = line->len;
    while (n && line->s[n - 1] == ' ') n--;
    put(s, line->s, n);
    put(s, "\n", 1);
    line->len = 0;
    spaces(line, (int)indent);
  }
  put(line, w, wn);
}

/* arrayprint's _formatArray recurser: the sub-array at p from axis on */
static void format_axis(const Layout *lay, int axis, const char *p, size_t indent, int width, Text *out) {
  const Arr *x = lay->x;
  int64_t n = x->a->shape[axis];
  bool summary = x->summarise && n > 2 * EDGE;
  int64_t lead = summary ? EDGE : 0, trail = summary ? EDGE : n;
  int64_t stride = x->a->strides[axis];
  Text s = {0};
  put(&s, "", 0);
  if (axis == x->ndim - 1) {
    int elem_width = width - 1;
    Text line = {0};
    spaces(&line, (int)indent);
    for (int64_t k = 0; k < n; k++) {
      if (summary && k == lead) {
        extend_line(&s, &line, "...", 3, elem_width, indent);
        put(&line, " ", 1);
        k = n - trail;
      }
      Text w = {0};
      put(&w, "", 0);
      word(lay, p + k * stride, &w);
      extend_line(&s, &line, w.s, w.len, elem_width, indent);
      free(w.s);
      if (k + 1 < n) put(&line, " ", 1);
    }
    put(&s, line.s, line.len);
    free(line.s);
  } else {
    char sep[16] = "";
    for (int i = 0; i < x->ndim - axis - 1 && i < 15; i++) sep[i] = '\n';
    for (int64_t k = 0; k < n; k++) {
      if (summary && k == lead) {
        spaces(&s, (int)indent);
        puts_(&s, "...");
        puts_(&s, sep);
        k = n - trail;
      }
      spaces(&s, (int)indent);
      format_axis(lay, axis + 1, p + k * stride, indent + 1, width - 1, &s);
      if (k + 1 < n) puts_(&s, sep);
    }
  }
  put(out, "[", 1);
  if (s.len > indent) put(out, s.s + indent, s.len - indent);
  put(out, "]", 1);
  free(s.s);
}

/* NumPy's str(a) of an array of ndim >= 1 dimensions of dtype kind,
 * malloc'd; float32_sci: from what magnitude a float32 array is scientific. */
char *rt_array_str(const RtArray *a, int32_t ndim, int32_t kind, double float32_sci) {
  int64_t size = 1;
  for (int d = 0; d < ndim; d++) size *= a->shape[d];
  Text out = {0};
  put(&out, "", 0);
  if (size == 0) {
    puts_(&out, "[]");
    return out.s;
  }
  Arr x = {a, ndim, kind, size > SUMMARY_FROM, kind == TY_F32 && float32_sci < 1e8 ? float32_sci : 1e8};
  Layout lay = {.x = &x};
  if (kind == TY_F32 || kind == TY_F64) float_format(&x, &lay.ff);
  else if (kind != TY_BOOL) each_shown(&x, 0, a->data, measure_int, &lay.inf);
  format_axis(&lay, 0, a->data, 1, LINE_WIDTH, &out);
  return out.s;
}
