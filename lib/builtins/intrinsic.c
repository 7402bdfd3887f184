/* builtins/intrinsic.c — calls of @intrinsic functions (Numba's
 * numba.extending.intrinsic): Python code that writes LLVM IR for a call's
 * numbers, bools, scalar types (a dtype as a value, which has none: an
 * empty struct) and arrays of numbers (Numba's array struct, which its
 * context.make_array reads), giving a number, a bool or a pointer (a 1-d
 * array of no known length, as a @cfunc's pointer argument). The extension runs the
 * intrinsic's typing and code generation for the argument types
 * (ruchey/intrinsics.py, with llvmlite) and hands back the signature and
 * the text of a module holding one function, "intrinsic", of it. Typing
 * parses that text once to report bad IR at the call; lowering parses it
 * into the module's context, links it in under a name of its own, marks it
 * internal and always inlined, and calls it: after inlining, the
 * intrinsic's instructions sit in the caller. An intrinsic of one block
 * that allocates stack memory (cgutils.alloca_once) is copied into the
 * caller instead, its allocas of a constant size into the caller's entry,
 * as Numba writes the codegen into the caller: the memory lives as long as
 * the caller's frame, not the inlined call's (LLVM's inliner would end its
 * lifetime there). A callee holding such memory is always inlined into its
 * callers and its memory marked live from the entry on (no lifetime end
 * for the inliner to add), so that an array made over it (carray) may be
 * returned, as from Numba's inline="always" functions. An intrinsic whose
 * signature returns a value type of a package's own (fast_array_utils'
 * sparse matrix copy) sets its members from its arguments: the extension
 * reads its codegen as a constructor's lowering (ruchey/_values.py) and
 * the call becomes a call of the ruchey function that builds the value.
 */
#include <stdio.h>
#include <string.h>

#include <llvm-c/IRReader.h>
#include <llvm-c/Linker.h>

#include "builtins/builtins.h"

static bool is_number_or_bool(const Type *t) { return ty_is_int(t) || ty_is_float(t) || t->kind == TY_BOOL; }
/* an array of numbers or bools, passed as Numba's array struct (numba_array) */
static bool is_array_argument(const Type *t) { return t->kind == TY_ARRAY && is_number_or_bool(t->elem); }
static bool is_argument(const Type *t) {
  return is_number_or_bool(t) || t->kind == TY_DTYPE || t->kind == TY_MEMINFO || is_array_argument(t);
}
static bool is_pointer(const Type *t) { return t->kind == TY_ARRAY && t->ndim == 1 && t->layout == 'C' && ty_is_scalar(t->elem); }

/* The IR's module in context c, or NULL with LLVM's message in msg (to free). */
static LLVMModuleRef parse_intrinsic(LLVMContextRef c, const char *ir, char **msg) {
  LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(ir, strlen(ir), "intrinsic");
  LLVMModuleRef m = NULL;
  if (LLVMParseIRInContext(c, buf, &m, msg)) return NULL;  /* the parser owns buf */
  return m;
}

/* A function m declares that is no LLVM intrinsic (a C library's), or NULL. */
static LLVMValueRef foreign_declaration(LLVMModuleRef m) {
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
    size_t len;
    if (LLVMIsDeclaration(f) && strncmp(LLVMGetValueName2(f, &len), "llvm.", 5)) return f;
  }
  return NULL;
}

/* Reports IR that LLVM cannot read, or that lacks the function, at the
 * call; on the GPU, IR calling a function other than LLVM's intrinsics
 * (which the GPU's code has no library to find in). */
static bool check_intrinsic_ir(Infer *in, Node *n, const IntrinsicCall *call) {
  LLVMContextRef c = LLVMContextCreate();
  char *msg = NULL;
  LLVMModuleRef m = parse_intrinsic(c, call->ir, &msg);
  LLVMValueRef fn = m ? LLVMGetNamedFunction(m, "intrinsic") : NULL;
  bool ok = fn && !LLVMIsDeclaration(fn) && LLVMCountParams(fn) == (unsigned)call->nargs;
  LLVMValueRef foreign = ok && in->opts->gpu_cc ? foreign_declaration(m) : NULL;
  size_t len;
  if (!ok)
    ty_error(in, n, "the intrinsic's code is not valid LLVM IR: %s", msg ? msg : "its function is missing");
  else if (foreign)
    ok = ty_error(in, n, "the intrinsic's code calls %s, which code on the GPU cannot call (only LLVM's "
                  "intrinsics)", LLVMGetValueName2(foreign, &len)) != NULL;
  if (msg) LLVMDisposeMessage(msg);
  if (m) LLVMDisposeModule(m);
  LLVMContextDispose(c);
  return ok;
}

static const Type *ty_intrinsic_call(Infer *in, Node *n, const Type **args) {
  IntrinsicCall *call = n->callee;
  if (!in->opts || !in->opts->intrinsic) return ty_error(in, n, "an @intrinsic cannot be called here");
  const Node *consts[64] = {0};
  for (int i = 0; i < n->list.len; i++) consts[i] = ty_constant(in, n->list.items[i]);
  Diag inner = {0};
  if (!in->opts->intrinsic(in->opts->resolve_ctx, call, args, consts, n->list.len, &inner))
    return ty_error(in, n, "%s", inner.msg[0] ? inner.msg : "the intrinsic failed");
  if (call->function) {  /* a package's value type built of the arguments: a call of the ruchey function doing so */
    n->callee = call->function;
    n->bi = bi_named("a ruchey function");
    return n->bi->type(in, n, args);
  }
  for (int i = 0; i < n->list.len; i++)
    if (!is_argument(args[i]))
      return ty_error(in, n->list.items[i], "an @intrinsic takes numbers, bools, scalar types, arrays of numbers "
                      "and MemInfoPointers only: argument %d is %s", i + 1, args[i]->name);
  if (!call->ir) return ty_error(in, n, "the intrinsic gave no code for these argument types");
  if (call->nargs != n->list.len)
    return ty_error(in, n, "the intrinsic's signature takes %d argument%s, the call gives %d", call->nargs,
                    call->nargs == 1 ? "" : "s", n->list.len);
  if (call->ret->kind != TY_NONE && call->ret->kind != TY_MEMINFO && !is_number_or_bool(call->ret) && !is_pointer(call->ret))
    return ty_error(in, n, "an @intrinsic returns a number, a bool, a pointer, a MemInfoPointer or nothing, not %s",
                    call->ret->name);
  for (int i = 0; i < call->nargs; i++) {
    const Type *want = call->args[i], *have = args[i];
    if (!is_argument(want))
      return ty_error(in, n, "an @intrinsic's signature takes numbers, bools, scalar types, arrays of numbers and "
                      "MemInfoPointers only, not %s", want->name);
    /* an array's writability may differ, and any layout is 'A', as Numba casts between them; not its items,
     * dimensions or another layout (code reading a 'C' array's data as contiguous) */
    if ((want->kind == TY_ARRAY) != (have->kind == TY_ARRAY) ||
        (want->kind == TY_ARRAY && (want->elem != have->elem || want->ndim != have->ndim ||
                                    (want->layout != 'A' && want->layout != have->layout))))
      return ty_error(in, n->list.items[i], "the intrinsic's signature takes %s as argument %d, the call gives %s",
                      want->name, i + 1, have->name);
  }
  return check_intrinsic_ir(in, n, call) ? call->ret : NULL;
}

/* The intrinsic's function in the module, linked in on its first call
 * (named for its IR, which the intrinsic keeps one of per argument types). */
static LLVMValueRef intrinsic_function(Lower *l, const IntrinsicCall *call) {
  char name[48];
  snprintf(name, sizeof name, "intrinsic.%p", (const void *)call->ir);
  LLVMValueRef fn = LLVMGetNamedFunction(l->mod->m, name);
  if (fn) return fn;
  char *msg = NULL;
  LLVMModuleRef src = parse_intrinsic(l->mod->c, call->ir, &msg);  /* typing read it already */
  if (msg) LLVMDisposeMessage(msg);
  if (!src) return NULL;
  LLVMSetValueName2(LLVMGetNamedFunction(src, "intrinsic"), name, strlen(name));
  LLVMSetTarget(src, LLVMGetTarget(l->mod->m));
  LLVMSetDataLayout(src, LLVMGetDataLayoutStr(l->mod->m));
  if (LLVMLinkModules2(l->mod->m, src)) return NULL;  /* src is consumed either way */
  fn = LLVMGetNamedFunction(l->mod->m, name);
  LLVMSetLinkage(fn, LLVMInternalLinkage);
  unsigned inline_always = LLVMGetEnumAttributeKindForName("alwaysinline", 12);
  LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(l->mod->c, inline_always, 0));
  return fn;
}

/* A value of one integer width as another (a bool is i1 to the intrinsic's
 * code, as to Numba's, and may be wider in ruchey's values). */
static LLVMValueRef fit_int(Lower *l, LLVMValueRef v, LLVMTypeRef want) {
  LLVMTypeRef have = LLVMTypeOf(v);
  if (have == want || LLVMGetTypeKind(have) != LLVMIntegerTypeKind || LLVMGetTypeKind(want) != LLVMIntegerTypeKind)
    return v;
  return LLVMGetIntTypeWidth(have) > LLVMGetIntTypeWidth(want) ? LLVMBuildTrunc(l->b, v, want, "")
                                                                : LLVMBuildZExt(l->b, v, want, "");
}

enum { MAX_COPIED = 512 };  /* instructions of an intrinsic copied into its caller */

/* Whether fn, an intrinsic's function, is one block (of at most
 * MAX_COPIED instructions) that allocates stack memory: copied into the
 * caller (inline_intrinsic). */
static bool allocates(LLVMValueRef fn) {
  if (LLVMCountBasicBlocks(fn) != 1) return false;
  bool found = false;
  int count = 0;
  for (LLVMValueRef i = LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(fn)); i; i = LLVMGetNextInstruction(i), count++)
    found = found || LLVMGetInstructionOpcode(i) == LLVMAlloca;
  return found && count <= MAX_COPIED;
}

/* Stack memory a of the caller, allocated at its entry: marked live from
 * there on (so that inlining the caller adds no end to its lifetime), and
 * the caller, if another function calls it, always inlined. */
static void keep_alloca(Lower *l, LLVMValueRef a) {
  LLVMBasicBlockRef cur = LLVMGetInsertBlock(l->b);
  LLVMValueRef first = LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(l->fn));
  LLVMPositionBuilderBefore(l->b, first);
  LLVMInsertIntoBuilder(l->b, a);
  LLVMValueRef start = LLVMGetNextInstruction(a);  /* the entry's first instruction that is no alloca */
  while (start && LLVMGetInstructionOpcode(start) == LLVMAlloca) start = LLVMGetNextInstruction(start);
  if (start) LLVMPositionBuilderBefore(l->b, start);
  else LLVMPositionBuilderAtEnd(l->b, LLVMGetEntryBasicBlock(l->fn));
  LLVMValueRef size = const_i64(l, -1);  /* the whole allocation */
  lo_intrinsic(l, "llvm.lifetime.start", &l->mod->ptr, 1, (LLVMValueRef[]){size, a}, 2);
  LLVMPositionBuilderAtEnd(l->b, cur);
  lo_hold_stack_memory(l);
}

#define STACK_MEMORY "ruchey.stack-memory"

void lo_hold_stack_memory(Lower *l) {
  if (!l->callee || lo_holds_stack_memory(l->fn)) return;
  unsigned inline_always = LLVMGetEnumAttributeKindForName("alwaysinline", 12);
  LLVMAddAttributeAtIndex(l->fn, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(l->mod->c, inline_always, 0));
  LLVMAddAttributeAtIndex(l->fn, LLVMAttributeFunctionIndex,
                          LLVMCreateStringAttribute(l->mod->c, STACK_MEMORY, sizeof STACK_MEMORY - 1, "", 0));
}

bool lo_holds_stack_memory(LLVMValueRef fn) {
  return LLVMGetStringAttributeAtIndex(fn, LLVMAttributeFunctionIndex, STACK_MEMORY, sizeof STACK_MEMORY - 1) != NULL;
}

/* fn's one block copied to where the builder is, its parameters args; its
 * allocas of a constant size go to the caller's entry. Its result, or
 * NULL where it has none. */
static LLVMValueRef inline_intrinsic(Lower *l, LLVMValueRef fn, LLVMValueRef *args, int nargs) {
  LLVMValueRef from[MAX_COPIED + 64], to[MAX_COPIED + 64];
  int n = 0;
  for (int i = 0; i < nargs; i++, n++) from[n] = LLVMGetParam(fn, (unsigned)i), to[n] = args[i];
  for (LLVMValueRef i = LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(fn)); i; i = LLVMGetNextInstruction(i)) {
    if (LLVMGetInstructionOpcode(i) == LLVMRet) {
      if (!LLVMGetNumOperands(i)) return NULL;
      LLVMValueRef v = LLVMGetOperand(i, 0);
      for (int k = 0; k < n; k++)
        if (from[k] == v) return to[k];
      return v;  /* a constant */
    }
    LLVMValueRef copy = LLVMInstructionClone(i);
    for (int o = 0; o < LLVMGetNumOperands(copy); o++) {
      LLVMValueRef v = LLVMGetOperand(copy, (unsigned)o);
      for (int k = 0; k < n; k++)
        if (from[k] == v) LLVMSetOperand(copy, (unsigned)o, to[k]);
    }
    if (LLVMGetInstructionOpcode(i) == LLVMAlloca && LLVMIsConstant(LLVMGetOperand(copy, 0)))
      keep_alloca(l, copy);
    else
      LLVMInsertIntoBuilder(l->b, copy);
    from[n] = i, to[n++] = copy;
  }
  return NULL;
}

/* Array a (ruchey's {meminfo, parent, data, shape, strides}) as Numba's
 * array struct, the intrinsic's parameter type want: {meminfo, parent,
 * nitems, itemsize, data, shape, strides}, which make_array reads. */
static LLVMValueRef numba_array(Lower *l, const Type *t, LLVMValueRef a, LLVMTypeRef want) {
  LLVMValueRef shape = LLVMBuildExtractValue(l->b, a, 3, "shape"), nitems = const_i64(l, 1);
  for (unsigned d = 0; d < (unsigned)t->ndim; d++)
    nitems = LLVMBuildMul(l->b, nitems, LLVMBuildExtractValue(l->b, shape, d, ""), "nitems");
  LLVMValueRef fields[7] = {LLVMBuildExtractValue(l->b, a, 0, ""), LLVMBuildExtractValue(l->b, a, 1, ""), nitems,
                            const_i64(l, (int64_t)t->elem->size), LLVMBuildExtractValue(l->b, a, 2, ""), shape,
                            LLVMBuildExtractValue(l->b, a, 4, "")};
  LLVMValueRef v = LLVMGetUndef(want);
  for (unsigned f = 0; f < 7; f++) v = LLVMBuildInsertValue(l->b, v, fields[f], f, "");
  return v;
}

static LLVMValueRef intrinsic_argument(Lower *l, Node *arg, const Type *t, LLVMTypeRef param, LLVMValueRef *value) {
  if (t->kind == TY_DTYPE) return LLVMGetUndef(param);  /* a scalar type has no value: Numba's empty struct */
  if (t->kind != TY_ARRAY) return *value = fit_int(l, lo_expr_as(l, arg, t), param);
  *value = lo_expr(l, arg);
  return numba_array(l, arg->ty, *value, param);
}

static LLVMValueRef lo_intrinsic_call(Lower *l, Node *n) {
  const IntrinsicCall *call = n->callee;
  /* The CPU's object code holds the intrinsic's IR: the cache keeps it where its key can describe the intrinsic
   * (ruchey/caching.py: one its module holds by name, as Numba's). PTX is not kept: the owner is named (its
   * global deleted, since PTX cannot name a host object), which keeps the code out of the cache. */
  if (l->mod->gpu) {
    char symbol[48];
    snprintf(symbol, sizeof symbol, "intrinsic_owner_%p", call->owner);
    LLVMDeleteGlobal(lo_extern(l, arena_strdup(l->f->arena, symbol), call->owner));
  }
  LLVMValueRef fn = intrinsic_function(l, call);
  if (!fn)  /* typing parsed the same text: only a clash of the IR's own globals gets here */
    return LLVMGetUndef(call->ret->kind == TY_NONE ? l->mod->i8 : lo_type(l, call->ret));
  LLVMTypeRef fnty = LLVMGlobalGetValueType(fn);
  LLVMTypeRef params[64];
  LLVMGetParamTypes(fnty, params);
  LLVMValueRef args[64], values[64] = {0};
  for (int i = 0; i < call->nargs; i++)
    args[i] = intrinsic_argument(l, n->list.items[i], call->args[i], params[i], &values[i]);
  LLVMValueRef v = allocates(fn) ? inline_intrinsic(l, fn, args, call->nargs)
                                 : LLVMBuildCall2(l->b, fnty, fn, args, (unsigned)call->nargs, "");
  for (int i = 0; i < call->nargs; i++)  /* a MemInfoPointer or array is borrowed for the call */
    if (values[i]) lo_done_with(l, n->list.items[i], values[i]);
  if (call->ret->kind == TY_NONE) return LLVMGetUndef(l->mod->i8);
  if (call->ret->kind == TY_ARRAY) return lo_pointer_array(l, call->ret, v);
  return fit_int(l, v, lo_type(l, call->ret));
}

const Builtin bi_intrinsic[] = {
  /* complex arguments reach the typer: an intrinsic building a package's value type takes complex arrays */
  {"an intrinsic", NULL, NULL, BK_FUNCTION, 0, 0, 64, NULL, BF_VARIES | BF_COMPLEX, 0, 0, ty_intrinsic_call, lo_intrinsic_call},
  BI_END,
};
