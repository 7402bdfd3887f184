/* lower/refcount.c — reference counts of the memory behind arrays.
 *
 * Every array value an expression makes is a new reference, variables own
 * one each, and every exit releases them; an error raised in the middle of
 * a statement releases the arrays the statement made so far (its temps).
 */
#include <stdio.h>

#include "lower/lower.h"

/* incref/decref of reference-counted memory whose count is its first
 * field (an RtMemInfo, a typed list or dict; NULL: borrowed, nothing to
 * do), the last release calling free_fn: small internal functions that
 * LLVM inlines, one decref per kind of memory. */
LLVMValueRef lo_refcount_fn(Lower *l, bool inc, const char *free_fn) {
  char name[64];
  snprintf(name, sizeof name, inc ? "rc.incref" : "rc.decref.%s", free_fn);
  LLVMValueRef f = LLVMGetNamedFunction(l->mod->m, name);
  if (f) return f;
  LLVMTypeRef ft = LLVMFunctionType(void_type(l), &l->mod->ptr, 1, 0);
  f = LLVMAddFunction(l->mod->m, name, ft);
  LLVMSetLinkage(f, LLVMInternalLinkage);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(l->mod->c);
  LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(l->mod->c, f, "entry");
  LLVMBasicBlockRef live = LLVMAppendBasicBlockInContext(l->mod->c, f, "live");
  LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(l->mod->c, f, "done");
  LLVMPositionBuilderAtEnd(b, entry);
  LLVMValueRef mem = LLVMGetParam(f, 0);
  LLVMBuildCondBr(b, LLVMBuildIsNull(b, mem, ""), done, live);
  LLVMPositionBuilderAtEnd(b, live);
  LLVMValueRef old = LLVMBuildAtomicRMW(b, inc ? LLVMAtomicRMWBinOpAdd : LLVMAtomicRMWBinOpSub,
                                        mem, LLVMConstInt(l->mod->i64, 1, 0),
                                        LLVMAtomicOrderingAcquireRelease, 0);
  if (inc) {
    LLVMBuildBr(b, done);
  } else {
    LLVMBasicBlockRef release = LLVMAppendBasicBlockInContext(l->mod->c, f, "release");
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, old, LLVMConstInt(l->mod->i64, 1, 0), ""), release,
                    done);
    LLVMPositionBuilderAtEnd(b, release);
    LLVMBuildCall2(b, ft, lo_get_fn(l, free_fn, ft), &mem, 1, "");
    LLVMBuildBr(b, done);
  }
  LLVMPositionBuilderAtEnd(b, done);
  LLVMBuildRetVoid(b);
  LLVMDisposeBuilder(b);
  return f;
}

/* Adjusts the reference count of an array's memory. */
void lo_meminfo_refcount(Lower *l, LLVMValueRef meminfo, bool inc) {
  LLVMValueRef f = lo_refcount_fn(l, inc, "rt_meminfo_free");
  LLVMBuildCall2(l->b, LLVMGlobalGetValueType(f), f, &meminfo, 1, "");
}

/* Whether evaluating n yields a new reference (an allocation, a tuple or
 * conditional built from owned parts) rather than a borrowed one. */
bool lo_is_fresh(const Node *n) {
  /* a view holds its own reference, as does an array taken from a tuple */
  if (n->kind == N_INDEX) return ty_has_arrays(n->ty);
  if (n->kind == N_ATTR && ty_is_enum(n->lhs->ty)) return lo_is_fresh(n->lhs) && ty_has_arrays(n->ty);  /* m.value: m's reference */
  if (n->kind == N_ATTR && ty_holds_object_of(n)) return lo_is_fresh(n->lhs);  /* p.m as a value: p's reference */
  if (n->kind == N_ATTR && n->ty->kind == TY_BITGEN) return lo_is_fresh(n->lhs);  /* g.bit_generator: g's pointer and reference */
  if (n->kind == N_ATTR) return n->ty->kind == TY_ARRAY || n->ty->kind == TY_CTYPES || n->ty->kind == TY_FLAGS || ty_is_text_field(n) || (ty_is_jitclass_field(n) && ty_has_arrays(n->ty));
  if (n->kind == N_BINOP || n->kind == N_UNARY || n->kind == N_COMPARE) return ty_has_arrays(n->ty);  /* t + u too */
  if (n->kind == N_UNWRAP) return lo_is_fresh(n->lhs) && ty_has_arrays(n->ty);
  return n->kind == N_CALL || n->kind == N_TUPLE || n->kind == N_IFEXP || n->kind == N_BOOLOP;
}

/* Evaluates n as an owned reference. */
void lo_temp_made(Lower *l, const Type *t, LLVMValueRef v) {
  if (l->ntemps == l->temps_cap) {
    int cap = l->temps_cap ? 2 * l->temps_cap : 16;
    LLVMValueRef *temps = arena_alloc(l->f->arena, sizeof(LLVMValueRef) * (size_t)cap);
    const Type **types = arena_alloc(l->f->arena, sizeof(Type *) * (size_t)cap);
    if (l->ntemps) {
      memcpy(temps, l->temps, sizeof(LLVMValueRef) * (size_t)l->ntemps);
      memcpy(types, l->temp_types, sizeof(Type *) * (size_t)l->ntemps);
    }
    l->temps = temps;
    l->temp_types = types;
    l->temps_cap = cap;
  }
  l->temps[l->ntemps] = v;
  l->temp_types[l->ntemps++] = t;
}

void lo_temp_taken(Lower *l, LLVMValueRef v) {
  for (int i = l->ntemps - 1; i >= 0; i--)
    if (l->temps[i] == v) {
      memmove(&l->temps[i], &l->temps[i + 1], sizeof(LLVMValueRef) * (size_t)(l->ntemps - i - 1));
      memmove(&l->temp_types[i], &l->temp_types[i + 1], sizeof(Type *) * (size_t)(l->ntemps - i - 1));
      l->ntemps--;
      return;
    }
}

void lo_release_temp(Lower *l, const Type *t, LLVMValueRef v) {
  lo_temp_taken(l, v);
  lo_refcount(l, t, v, false);
}

LLVMValueRef lo_owned(Lower *l, Node *n) {
  LLVMValueRef v = lo_expr(l, n);
  if (!ty_has_arrays(n->ty)) return v;
  if (lo_is_fresh(n)) lo_temp_taken(l, v);
  else lo_refcount(l, n->ty, v, true);
  return v;
}

/* Releases what evaluating n made, once its value has been used. */
void lo_done_with(Lower *l, Node *n, LLVMValueRef v) {
  if (!lo_is_fresh(n) || !ty_has_arrays(n->ty)) return;
  lo_temp_taken(l, v);
  lo_refcount(l, n->ty, v, false);
}
