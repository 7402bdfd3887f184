/* print.c — print() in compiled code on the CPU.
 *
 * The format (builtins/print.c) holds only %lld, %llu, %f, %g (a double as
 * Python's repr writes it), %h (a float32 as NumPy writes it), %C (a
 * complex number as Python's repr writes it, from two doubles), %s, %U (a
 * str value, an RtStr), %R (its repr, in a tuple), %L followed by the items' kind ('a' +
 * TypeKind) (an RtList: its repr, as str() of a list writes it), %N (an Optional's
 * flag: "None" where it is clear, the next directive and its arguments
 * skipped), %A followed by a dtype's kind ('a' + TypeKind) and
 * ndim ('0' + ndim) (an RtArray, as NumPy's str writes it) and %%,
 * each directive taking the next 8-byte argument (%C two). A line of @njit code
 * goes to the print sink (Python's sys.stdout) at once. A kernel's lines go to a
 * buffer of the pool thread running it; when the thread's chunk of blocks
 * ends, the buffer joins the launch's pieces, and when the launch ends the
 * pieces are written in the order of their first block: each block's lines
 * come out together, its threads' in their order, as a GPU's printf buffer
 * shows them, and the same every run whichever thread ran which chunk.
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ruchey.h"
#include "rtstr.h"
#include "containers.h"

typedef struct Buffer {
  char *text;
  size_t len, cap;
} Buffer;

static _Thread_local Buffer lines;

static void append(Buffer *b, const char *s, size_t n) {
  if (b->len + n > b->cap) {
    size_t cap = 2 * (b->len + n) + 256;
    char *grown = realloc(b->text, cap);
    if (!grown) return;  /* out of memory: the line is lost, as printf's would be */
    b->text = grown;
    b->cap = cap;
  }
  memcpy(b->text + b->len, s, n);
  b->len += n;
}

static void write_out(const char *s, size_t n) {
  while (n > 0) {
    ssize_t w = write(1, s, n);
    if (w <= 0) return;
    s += w;
    n -= (size_t)w;
  }
}

static void (*print_sink)(const char *text, size_t len);
static double float32_sci = 1e16;  /* NumPy 1.x; NumPy 2 writes 1e+06 */

void rt_set_print_sink(void (*sink)(const char *text, size_t len), double float32_exponent_from) {
  print_sink = sink;
  float32_sci = float32_exponent_from;
}

/* The shortest digits that read back as d (as a float32 where single), as
 * Python's repr writes a float (positional from 1e-4 up to 1e16, with ".0"
 * if whole, else d.ddde+XX) and NumPy's str a float32 (positional from
 * 1e-4 up to 1e6 in NumPy 2, 1e16 in NumPy 1). */
static size_t float_repr(char *out, double d, bool single) {
  if (isnan(d)) return (size_t)sprintf(out, "nan");
  if (isinf(d)) return (size_t)sprintf(out, d < 0 ? "-inf" : "inf");
  char text[40];
  for (int prec = 1; prec <= 17; prec++) {
    snprintf(text, sizeof text, "%.*e", prec - 1, d);
    double back = strtod(text, NULL);
    if (single ? (float)back == (float)d : back == d) break;
  }
  /* text: [-]D[.DDD]e[+-]XX */
  char digits[24];
  int n = 0, e = atoi(strchr(text, 'e') + 1);
  for (const char *c = text; *c != 'e'; c++)
    if (*c >= '0' && *c <= '9') digits[n++] = *c;
  while (n > 1 && digits[n - 1] == '0') n--;
  char *o = out;
  if (text[0] == '-') *o++ = '-';
  /* Python switches on the digits' exponent; NumPy's float32 on the value */
  bool sci = single ? d != 0 && (fabs(d) < 1e-4 || fabs(d) >= float32_sci) : e < -4 || e >= 16;
  if (sci) {
    *o++ = digits[0];
    if (n > 1) {
      *o++ = '.';
      memcpy(o, digits + 1, (size_t)n - 1);
      o += n - 1;
    }
    o += sprintf(o, "e%c%02d", e < 0 ? '-' : '+', abs(e));
  } else if (e < 0) {
    o += sprintf(o, "0.%.*s%.*s", -e - 1, "0000", n, digits);
  } else {
    for (int i = 0; i <= e; i++) *o++ = i < n ? digits[i] : '0';
    *o++ = '.';
    if (n > e + 1) {
      memcpy(o, digits + e + 1, (size_t)(n - e - 1));
      o += n - e - 1;
    } else {
      *o++ = '0';
    }
  }
  *o = 0;
  return (size_t)(o - out);
}

/* A part of a complex number as Python's complex repr writes it: a float's
 * repr without a whole number's ".0", with its sign if sign. */
static size_t complex_part(char *out, double d, bool sign) {
  char *o = out;
  if (sign && !signbit(d)) *o++ = '+';
  size_t n = float_repr(o, d, false);
  if (n > 2 && !strcmp(o + n - 2, ".0")) o[n -= 2] = 0;
  return (size_t)(o - out) + n;
}

/* Python's repr of re + im j: "2j" where re is +0, else "(re+imj)". */
static size_t complex_repr(char *out, double re, double im) {
  char *o = out;
  if (re == 0 && !signbit(re)) {
    o += complex_part(o, im, false);
    return (size_t)(o - out) + (size_t)sprintf(o, "j");
  }
  *o++ = '(';
  o += complex_part(o, re, false);
  o += complex_part(o, im, true);
  return (size_t)(o - out) + (size_t)sprintf(o, "j)");
}

char *rt_array_str(const RtArray *a, int32_t ndim, int32_t kind, double float32_sci);  /* print_array.c */

/* Python's repr of a bytes value (a contiguous RtArray): b'...', in double
 * quotes where it holds a single quote and no double one. */
static void bytes_repr(Buffer *line, const RtArray *b) {
  const unsigned char *d = (const unsigned char *)b->data;
  int64_t n = b->shape[0];
  char quote = memchr(d, '\'', (size_t)n) && !memchr(d, '"', (size_t)n) ? '"' : '\'';
  append(line, "b", 1);
  append(line, &quote, 1);
  for (int64_t i = 0; i < n; i++) {
    char esc[5] = {'\\', 0};
    size_t len = 2;
    unsigned char c = d[i];
    if (c == '\t' || c == '\n' || c == '\r') esc[1] = c == '\t' ? 't' : c == '\n' ? 'n' : 'r';
    else if (c == '\\' || c == (unsigned char)quote) esc[1] = (char)c;
    else if (c < 0x20 || c >= 0x7f) len = (size_t)snprintf(esc, sizeof esc, "\\x%02x", c);
    else esc[0] = (char)c, len = 1;
    append(line, esc, len);
  }
  append(line, &quote, 1);
}

/* Python's repr of each item of a list of numbers, bools or strs, the
 * items' TypeKind given: [1, 2.5, 'a'], as str() of a list writes it. */
static void list_repr(Buffer *line, const RtList *list, int32_t kind) {
  char item[64];
  append(line, "[", 1);
  for (int64_t i = 0; i < list->len; i++) {
    const char *p = list->data + i * list->itemsize;
    if (i) append(line, ", ", 2);
    if (kind == TY_STR) {
      char *text = rt_str_repr(*(RtStr *const *)p);
      if (text) append(line, text, strlen(text));
      free(text);
    } else if (kind == TY_BOOL) {
      append(line, *p ? "True" : "False", *p ? 4 : 5);
    } else if (kind == TY_F16 || kind == TY_F32 || kind == TY_F64) {
      append(line, item, float_repr(item, rt_item_double(kind, p), kind != TY_F64));
    } else {
      int64_t v = rt_item_int(kind, p);
      append(line, item, (size_t)(kind == TY_U64 ? snprintf(item, sizeof item, "%llu", (unsigned long long)v)
                                                 : snprintf(item, sizeof item, "%lld", (long long)v)));
    }
  }
  append(line, "]", 1);
}

/* The number written after a directive as 'a' + n: a byte, read unsigned,
 * since TypeKinds past 30 write bytes past 127 (a char may be signed). */
static int32_t code_after(char c) { return (int32_t)(unsigned char)c - 'a'; }

/* fmt filled in from args into line (the directives above). */
static void format_line(Buffer *line, const char *fmt, const uint64_t *args) {
  char item[128];
  for (const char *p = fmt; *p; p++) {
    if (*p != '%') {
      append(line, p, 1);
      continue;
    }
    uint64_t a = 0;
    if (p[1] != '%') a = *args++;
    if (!strncmp(p, "%lld", 4)) {
      append(line, item, (size_t)snprintf(item, sizeof item, "%lld", (long long)a));
      p += 3;
    } else if (!strncmp(p, "%llu", 4)) {
      append(line, item, (size_t)snprintf(item, sizeof item, "%llu", (unsigned long long)a));
      p += 3;
    } else if (!strncmp(p, "%f", 2)) {
      double d;
      memcpy(&d, &a, sizeof d);
      int n = snprintf(NULL, 0, "%f", d);  /* 1e300 takes 300 digits */
      char *big = malloc((size_t)n + 1);
      if (big) {
        snprintf(big, (size_t)n + 1, "%f", d);
        append(line, big, (size_t)n);
        free(big);
      }
      p += 1;
    } else if (!strncmp(p, "%g", 2) || !strncmp(p, "%h", 2)) {
      double d;
      memcpy(&d, &a, sizeof d);
      append(line, item, float_repr(item, d, p[1] == 'h'));
      p += 1;
    } else if (!strncmp(p, "%C", 2)) {
      double re, im;
      uint64_t b = *args++;
      memcpy(&re, &a, sizeof re);
      memcpy(&im, &b, sizeof im);
      append(line, item, complex_repr(item, re, im));
      p += 1;
    } else if (!strncmp(p, "%A", 2) && p[2] && p[3]) {  /* an array: its kind and ndim follow (print_array.c) */
      char *text = rt_array_str((const RtArray *)(uintptr_t)a, p[3] - '0', code_after(p[2]), float32_sci);
      if (text) append(line, text, strlen(text));
      free(text);
      p += 3;
    } else if (!strncmp(p, "%U", 2) || !strncmp(p, "%R", 2)) {  /* a str value (an RtStr), or its repr */
      size_t n = 0;
      char *text = p[1] == 'U' ? rt_str_utf8((const RtStr *)(uintptr_t)a, &n) : rt_str_repr((const RtStr *)(uintptr_t)a);
      if (text) append(line, text, p[1] == 'U' ? n : strlen(text));
      free(text);
      p += 1;
    } else if (!strncmp(p, "%Y", 2)) {  /* a bytes value: its repr, as print writes it */
      bytes_repr(line, (const RtArray *)(uintptr_t)a);
      p += 1;
    } else if (!strncmp(p, "%m", 2) && p[2]) {  /* a timedelta64's count, its unit's code after: as NumPy's str() */
      static const char *const units[TU_COUNT] = {
        [TU_Y] = "years", [TU_M] = "months", [TU_W] = "weeks", [TU_D] = "days", [TU_h] = "hours",
        [TU_m] = "minutes", [TU_s] = "seconds", [TU_ms] = "milliseconds", [TU_us] = "microseconds",
        [TU_ns] = "nanoseconds", [TU_ps] = "picoseconds", [TU_fs] = "femtoseconds", [TU_as] = "attoseconds",
        [TU_GENERIC] = "generic time units"};
      const char *unit = code_after(p[2]) >= 0 && code_after(p[2]) < TU_COUNT ? units[code_after(p[2])] : NULL;
      if ((int64_t)a == INT64_MIN) append(line, "NaT", 3);
      else append(line, item, (size_t)snprintf(item, sizeof item, "%lld %s", (long long)a, unit ? unit : "?"));
      p += 2;
    } else if (!strncmp(p, "%N", 2)) {  /* an Optional's flag: None, its value's directive skipped, where clear */
      p += 1;
      if (!a) {
        append(line, "None", 4);
        args += p[2] == 'C' ? 2 : 1;      /* %C takes two slots, the others one */
        p += !strncmp(p + 1, "%ll", 3) ? 4 : 2;  /* %lld, %llu; %g, %h, %f, %C, %s, %U, %R */
      }
    } else if (!strncmp(p, "%L", 2) && p[2]) {  /* a list (an RtList), its items' kind after: its repr */
      list_repr(line, (const RtList *)(uintptr_t)a, code_after(p[2]));
      p += 2;
    } else if (!strncmp(p, "%s", 2)) {
      const char *s = (const char *)(uintptr_t)a;
      append(line, s, strlen(s));
      p += 1;
    } else {  /* %% */
      append(line, "%", 1);
      p += 1;
    }
  }
}

void rt_print(const char *fmt, const uint64_t *args, bool buffered) {
  Buffer line = {0};
  format_line(&line, fmt, args);
  if (buffered) append(&lines, line.text, line.len);
  else if (print_sink) print_sink(line.text, line.len);
  else write_out(line.text, line.len);
  free(line.text);
}

/* A chunk's lines, waiting for the launch to end. */
typedef struct Piece {
  int64_t first_block;
  Buffer text;
} Piece;

static pthread_mutex_t pieces_lock = PTHREAD_MUTEX_INITIALIZER;
static Piece *pieces;
static size_t npieces, pieces_cap;

const size_t *rt_print_buffered(void) { return &lines.len; }

void rt_print_flush(int64_t first_block) {
  if (!lines.len) return;
  pthread_mutex_lock(&pieces_lock);
  if (npieces == pieces_cap) {
    size_t cap = 2 * pieces_cap + 16;
    Piece *grown = realloc(pieces, cap * sizeof *pieces);
    if (!grown) {  /* out of memory: the lines go out now, in whatever order */
      pthread_mutex_unlock(&pieces_lock);
      write_out(lines.text, lines.len);
      lines.len = 0;
      return;
    }
    pieces = grown;
    pieces_cap = cap;
  }
  pieces[npieces++] = (Piece){first_block, lines};
  pthread_mutex_unlock(&pieces_lock);
  lines = (Buffer){0};
}

static int by_first_block(const void *a, const void *b) {
  int64_t x = ((const Piece *)a)->first_block, y = ((const Piece *)b)->first_block;
  return (x > y) - (x < y);
}

void rt_print_write_out(void) {
  pthread_mutex_lock(&pieces_lock);
  qsort(pieces, npieces, sizeof *pieces, by_first_block);
  for (size_t i = 0; i < npieces; i++) {
    write_out(pieces[i].text.text, pieces[i].text.len);
    free(pieces[i].text.text);
  }
  npieces = 0;
  pthread_mutex_unlock(&pieces_lock);
}

/* str(x) of a value print() writes (a tuple, a list, None...): its text as print's format makes it. */
int32_t rt_format_str(RtStr **out, const char *fmt, const uint64_t *args) {
  Buffer text = {0};
  format_line(&text, fmt, args);
  append(&text, "", 1);  /* the final NUL */
  if (text.len == 0 || text.text[text.len - 1]) {  /* out of memory along the way */
    free(text.text);
    text.text = NULL;
  }
  return rt_str_from_utf8(out, text.text);
}

/* Python's repr of a float (single: NumPy's str of a float32), for str(x) (strings.c). */
size_t rt_float_repr(char *out, double d, bool single) { return float_repr(out, d, single); }
