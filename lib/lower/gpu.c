/* lower/gpu.c — CUDA kernels and device functions for NVPTX.
 *
 * On the GPU a kernel is one function run by every thread: thread indices
 * are special registers, syncthreads is bar.sync, shared arrays are globals
 * in address space 3, local arrays allocas. Arrays arrive as (data,
 * shape..., strides...) parameters.
 */
#include <stdio.h>

#include "lower/lower.h"

static LLVMValueRef sreg(Lower *l, const char *reg, int axis) {
  char name[64];
  snprintf(name, sizeof name, "llvm.nvvm.read.ptx.sreg.%s.%c", reg, "xyz"[axis]);
  return LLVMBuildZExt(l->b, lo_call_fn(l, name, l->mod->i32, NULL, NULL, 0), l->mod->i64, "");
}

LLVMValueRef lo_gpu_array_data(Lower *l, Node *n, int64_t count) {
  LLVMTypeRef elem = lo_storage_type(l, n->ty->elem);
  unsigned align = (unsigned)lo_cuda_alignment(n);  /* alignment=, or 0 */
  if (n->bi->flags & BF_PER_THREAD) {
    LLVMValueRef a = lo_alloca(l, LLVMArrayType2(elem, (uint64_t)count), "local");
    if (align) LLVMSetAlignment(a, align);
    return a;
  }
  LLVMTypeRef ty = LLVMArrayType2(elem, (uint64_t)count);
  LLVMValueRef g = LLVMAddGlobalInAddressSpace(l->mod->m, ty, count ? "shared" : "dynshared", 3);
  if (count) {  /* one per call site */
    LLVMSetInitializer(g, LLVMGetUndef(ty));
    LLVMSetLinkage(g, LLVMInternalLinkage);
  } else {  /* extern: sized by the launch */
    LLVMSetLinkage(g, LLVMExternalLinkage);
  }
  LLVMSetAlignment(g, align ? align : 16);
  return LLVMBuildAddrSpaceCast(l->b, g, l->mod->ptr, "");
}

/* A parameter's PTX parameters, appended at params[*np]: a number as
 * itself (a complex as its two parts: a launch passes 8 bytes a slot), an
 * array as data, shape[ndim], strides[ndim], a tuple as its items' in
 * turn, None and a scalar type (numpy.float32: its type is its value) as
 * none. */
static void add_params(Lower *l, const Type *t, LLVMTypeRef *params, unsigned *np) {
  if (*np > 240) return;
  if (ty_is_enum(t)) {  /* an enum member: its value's */
    add_params(l, t->elem, params, np);
  } else if (t->kind == TY_TUPLE) {
    for (int i = 0; i < t->nfields; i++) add_params(l, t->fields[i], params, np);
  } else if (t->kind == TY_ARRAY) {
    params[(*np)++] = l->mod->ptr;
    for (int d = 0; d < 2 * t->ndim; d++) params[(*np)++] = l->mod->i64;
  } else if (ty_is_complex(t)) {
    params[(*np)++] = t->kind == TY_C64 ? l->mod->f32 : l->mod->f64;
    params[(*np)++] = t->kind == TY_C64 ? l->mod->f32 : l->mod->f64;
  } else if (t->kind != TY_NONE && t->kind != TY_DTYPE) {
    params[(*np)++] = lo_type(l, t);
  }
}

/* Whether parameter v is a CPointer of the signature compiled (a bare pointer in the PTX). */
static bool pointer_param(const Lower *l, int v) { return v < 64 && (l->opts->pointer_params >> v & 1); }

static LLVMTypeRef gpu_kernel_type(Lower *l) {
  LLVMTypeRef params[256];
  unsigned np = 0;
  for (int v = 0; v < l->f->nparams; v++) {
    if (pointer_param(l, v)) params[np++] = l->mod->ptr;
    else add_params(l, l->f->var_types[v], params, &np);
  }
  return LLVMFunctionType(void_type(l), params, np, 0);
}

/* ---------------------------------------------------------------- line tables */

/* With lineinfo (numba-cuda's lineinfo=True, debug=True's lines), the PTX
 * says which source line each instruction comes from, for profilers and
 * debuggers: a DWARF line table (LLVM's NVPTX writes .file and .loc), one
 * subprogram per function, the statements' instructions at their lines. */
static LLVMMetadataRef source_file(LowerModule *mod, const char *path) {
  const char *slash = strrchr(path, '/');
  const char *name = slash ? slash + 1 : path;
  size_t dir = slash ? (size_t)(slash - path) : 0;
  return LLVMDIBuilderCreateFile(mod->lines, name, strlen(name), path, dir);
}

void lo_gpu_lines_begin(LowerModule *mod, const Func *f) {
  mod->lines = LLVMCreateDIBuilder(mod->m);
  static const char producer[] = "ruchey";
  LLVMDIBuilderCreateCompileUnit(  /* (the builder holds it: the subprograms are its) */
      mod->lines, LLVMDWARFSourceLanguagePython, source_file(mod, f->filename), producer, sizeof producer - 1, 1, "",
      0, 0, "", 0, LLVMDWARFEmissionLineTablesOnly, 0, 0, 0, "", 0, "", 0);
}

void lo_gpu_lines_end(LowerModule *mod) {
  LLVMDIBuilderFinalize(mod->lines);
  LLVMDisposeDIBuilder(mod->lines);
  mod->lines = NULL;
  LLVMAddModuleFlag(mod->m, LLVMModuleFlagBehaviorWarning, "Debug Info Version", 18,
                    LLVMValueAsMetadata(LLVMConstInt(mod->i32, LLVMDebugMetadataVersion(), 0)));
}

void lo_gpu_line(Lower *l, int line, int col) {
  /* (DWARF counts columns from 1; 0 is none) */
  LLVMMetadataRef at =
      LLVMDIBuilderCreateDebugLocation(l->mod->c, (unsigned)line, (unsigned)col + 1, l->subprogram, NULL);
  LLVMSetCurrentDebugLocation2(l->b, at);
}

/* The function's subprogram, its prologue at its def line. */
static void function_lines(Lower *l) {
  LowerModule *mod = l->mod;
  LLVMMetadataRef file = source_file(mod, l->f->filename);
  LLVMMetadataRef type = LLVMDIBuilderCreateSubroutineType(mod->lines, file, NULL, 0, LLVMDIFlagZero);
  size_t n;
  const char *symbol = LLVMGetValueName2(l->fn, &n);
  l->subprogram = LLVMDIBuilderCreateFunction(mod->lines, file, l->f->name, strlen(l->f->name), symbol, n, file,
                                              (unsigned)l->f->line, type, 0, 1, (unsigned)l->f->line, LLVMDIFlagZero,
                                              1);
  LLVMSetSubprogram(l->fn, l->subprogram);
  lo_gpu_line(l, l->f->line, 0);
}

/* The entry block of a GPU function: the thread's indices from the special
 * registers, a slot per variable. */
static void gpu_prologue(Lower *l) {
  if (l->mod->lines) function_lines(l);
  LLVMBasicBlockRef entry = new_block(l, "entry");
  l->exit_bb = new_block(l, "exit");
  position(l, entry);
  l->status = lo_alloca(l, l->mod->i32, "status");
  for (int d = 0; d < 3; d++) {
    l->tid[d] = sreg(l, "tid", d);
    l->bid[d] = sreg(l, "ctaid", d);
    l->bdim[d] = sreg(l, "ntid", d);
    l->gdim[d] = sreg(l, "nctaid", d);
  }
}

/* A value of type t from the PTX parameters from *p on (add_params' order). */
static LLVMValueRef from_params(Lower *l, const Type *t, unsigned *p) {
  if (t->kind == TY_NONE || t->kind == TY_DTYPE) return LLVMGetUndef(lo_type(l, t));
  if (ty_is_enum(t)) return from_params(l, t->elem, p);  /* held as its value */
  if (ty_is_scalar(t) && !ty_is_complex(t)) return LLVMGetParam(l->fn, (*p)++);
  if (t->kind == TY_RECORD) return LLVMGetParam(l->fn, (*p)++);  /* by reference: its data's address */
  LLVMValueRef val = LLVMGetUndef(lo_type(l, t));
  if (ty_is_complex(t)) {
    for (unsigned k = 0; k < 2; k++) val = LLVMBuildInsertValue(l->b, val, LLVMGetParam(l->fn, (*p)++), k, "");
    return val;
  }
  if (t->kind == TY_TUPLE) {
    for (int i = 0; i < t->nfields; i++)
      val = LLVMBuildInsertValue(l->b, val, from_params(l, t->fields[i], p), (unsigned)i, "");
    return val;
  }
  val = LLVMConstNull(lo_type(l, t));
  val = LLVMBuildInsertValue(l->b, val, LLVMGetParam(l->fn, (*p)++), 2, "");
  for (unsigned f = 3; f < 5; f++)
    for (int d = 0; d < t->ndim; d++) {
      unsigned path[2] = {f, (unsigned)d};
      LLVMValueRef agg = LLVMBuildExtractValue(l->b, val, path[0], "");
      agg = LLVMBuildInsertValue(l->b, agg, LLVMGetParam(l->fn, (*p)++), path[1], "");
      val = LLVMBuildInsertValue(l->b, val, agg, f, "");
    }
  return val;
}

/* A kernel's parameter from its PTX parameters; *next counts them. */
static LLVMValueRef kernel_argument(Lower *l, int v, void *next) {
  if (v >= l->f->nparams) return NULL;
  if (!pointer_param(l, v)) return from_params(l, l->f->var_types[v], next);
  unsigned *p = next;
  return lo_pointer_array(l, l->f->var_types[v], LLVMGetParam(l->fn, (*p)++));
}

/* A device function's parameter: its argument, as a value. */
static LLVMValueRef device_argument(Lower *l, int v, void *ctx) {
  if (v >= l->f->nparams) return NULL;
  LLVMValueRef p = LLVMGetParam(l->fn, (unsigned)v);
  return pointer_param(l, v) ? lo_pointer_array(l, l->f->var_types[v], p) : p;
}

/* The kernel's launch bounds as the NVPTX backend reads them (nvvm.annotations
 * of the kernel: maxntidx, minctasm, maxclusterrank), which it writes as the
 * PTX directives that let ptxas budget registers for that many threads. */
static void annotate_launch_bounds(Lower *l) {
  static const char *const keys[3] = {"maxntidx", "minctasm", "maxclusterrank"};
  for (int i = 0; i < 3; i++) {
    if (!l->opts->launch_bounds[i]) continue;
    LLVMMetadataRef entry[3] = {LLVMValueAsMetadata(l->fn), LLVMMDStringInContext2(l->mod->c, keys[i], strlen(keys[i])),
                                LLVMValueAsMetadata(const_i32(l, l->opts->launch_bounds[i]))};
    LLVMAddNamedMetadataOperand(l->mod->m, "nvvm.annotations",
                                LLVMMetadataAsValue(l->mod->c, LLVMMDNodeInContext2(l->mod->c, entry, 3)));
  }
}

void lo_gpu_kernel(Lower *l, const char *symbol) {
  l->fn = LLVMAddFunction(l->mod->m, symbol, gpu_kernel_type(l));
  LLVMSetFunctionCallConv(l->fn, 71);  /* PTX_Kernel: an entry point, not a .func */
  annotate_launch_bounds(l);
  gpu_prologue(l);
  l->next_thread = l->exit_bb;  /* return: this thread is done */
  unsigned next = 0;
  lo_slots(l, kernel_argument, &next);
  lo_block(l, &l->f->body);
  if (!terminated(l)) LLVMBuildBr(l->b, l->exit_bb);
  position(l, l->exit_bb);
  LLVMBuildRetVoid(l->b);
}

/* A device function on the GPU: a .func taking its arguments as values
 * (arrays as their descriptor) and returning its result. Errors trap, as in
 * kernels, so there is no status to return. */
LLVMTypeRef lo_gpu_device_type(Lower *l) {
  LLVMTypeRef params[l->f->nparams + 1];
  for (int v = 0; v < l->f->nparams; v++)
    params[v] = pointer_param(l, v) ? l->mod->ptr : lo_type(l, l->f->var_types[v]);
  const Type *rt = l->f->ret_type;
  LLVMTypeRef ret = rt->kind == TY_NONE ? void_type(l) : lo_result_type(l, rt);
  return LLVMFunctionType(ret, params, (unsigned)l->f->nparams, 0);
}

void lo_gpu_device(Lower *l, LLVMValueRef fn) {
  l->fn = fn;
  gpu_prologue(l);
  const Type *rt = l->f->ret_type;
  if (rt->kind != TY_NONE) l->ret_val = lo_alloca(l, lo_result_type(l, rt), "result");
  lo_slots(l, device_argument, NULL);
  lo_unbound_flags(l);
  lo_block(l, &l->f->body);
  if (!terminated(l)) LLVMBuildBr(l->b, l->exit_bb);
  position(l, l->exit_bb);
  if (rt->kind == TY_NONE) LLVMBuildRetVoid(l->b);
  else LLVMBuildRet(l->b, LLVMBuildLoad2(l->b, lo_result_type(l, rt), l->ret_val, ""));
}

/* The callee of a call on the GPU, lowered into this module the first time
 * it is called (its symbol is one per callee and argument types). */
static LLVMValueRef gpu_callee(Lower *l, const CallTarget *target) {
  LLVMValueRef fn = LLVMGetNamedFunction(l->mod->m, target->func->symbol);
  if (fn) return fn;
  Lower sub;
  lo_func_init(&sub, l->mod, target->func, target->func_opts);
  fn = LLVMAddFunction(l->mod->m, target->func->symbol, lo_gpu_device_type(&sub));
  LLVMSetLinkage(fn, LLVMInternalLinkage);
  if (target->func_opts->force_inline) {
    unsigned always = LLVMGetEnumAttributeKindForName("alwaysinline", 12);
    LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(l->mod->c, always, 0));
  }
  lo_gpu_device(&sub, fn);
  lo_func_done(&sub);
  return fn;
}

LLVMValueRef lo_gpu_call(Lower *l, Node *n) {
  LLVMValueRef fn = n->target->self ? l->fn : gpu_callee(l, n->target);
  const Func *callee = n->target->self ? l->f : n->target->func;
  int na = n->list.len;
  LLVMValueRef *args = arena_alloc(l->f->arena, sizeof(LLVMValueRef) * (size_t)(callee->nparams + na + 1)), packed;
  if (n->op) na = lo_spread_args(l, n, callee, args, &packed);  /* f(*t) */
  else  /* (as its parameters' types: a signature's where it was compiled for one; a pointer's data) */
    for (int i = 0; i < na; i++) {
      args[i] = lo_expr_as(l, n->list.items[i], callee->var_types[i]);
      if (n->target->self && pointer_param(l, i)) args[i] = LLVMBuildExtractValue(l->b, args[i], 2, "");
    }
  LLVMValueRef r = LLVMBuildCall2(l->b, LLVMGlobalGetValueType(fn), fn, args, (unsigned)na, "");
  return n->ty->kind == TY_NONE ? LLVMGetUndef(l->mod->i8) : lo_take_result(l, n->ty, r);
}
