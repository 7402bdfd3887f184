/* print.c — print() in compiled code on the CPU.
 *
 * The format (builtins/print.c) holds only %lld, %llu, %f, %s and %%, each
 * directive taking the next 8-byte argument. A kernel's lines go to a
 * buffer of the pool thread running it; when the thread's chunk of blocks
 * ends, the buffer joins the launch's pieces, and when the launch ends the
 * pieces are written in the order of their first block: each block's lines
 * come out together, its threads' in their order, as a GPU's printf buffer
 * shows them, and the same every run whichever thread ran which chunk.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ruchey.h"

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

void rt_print(const char *fmt, const uint64_t *args, bool buffered) {
  Buffer line = {0};
  char item[64];
  for (const char *p = fmt; *p; p++) {
    if (*p != '%') {
      append(&line, p, 1);
      continue;
    }
    uint64_t a = 0;
    if (p[1] != '%') a = *args++;
    if (!strncmp(p, "%lld", 4)) {
      append(&line, item, (size_t)snprintf(item, sizeof item, "%lld", (long long)a));
      p += 3;
    } else if (!strncmp(p, "%llu", 4)) {
      append(&line, item, (size_t)snprintf(item, sizeof item, "%llu", (unsigned long long)a));
      p += 3;
    } else if (!strncmp(p, "%f", 2)) {
      double d;
      memcpy(&d, &a, sizeof d);
      int n = snprintf(NULL, 0, "%f", d);  /* 1e300 takes 300 digits */
      char *big = malloc((size_t)n + 1);
      if (big) {
        snprintf(big, (size_t)n + 1, "%f", d);
        append(&line, big, (size_t)n);
        free(big);
      }
      p += 1;
    } else if (!strncmp(p, "%s", 2)) {
      const char *s = (const char *)(uintptr_t)a;
      append(&line, s, strlen(s));
      p += 1;
    } else {  /* %% */
      append(&line, "%", 1);
      p += 1;
    }
  }
  if (buffered) append(&lines, line.text, line.len);
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
