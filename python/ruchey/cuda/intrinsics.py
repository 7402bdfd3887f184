"""The names a kernel uses: cuda.threadIdx.x, cuda.grid(1), cuda.shared.array, ...

Each is a marker object. The compiler recognises them by identity (it looks
them up by dotted name on the module ``ruchey.cuda``), so each exists once and
``cuda.threadIdx.x is cuda.threadIdx.x``. Namespaces carry the class attribute
``__ruchey_namespace__`` so that the compiler may look attributes up on them.
Outside compiled code they have no value: using one raises RuntimeError.
"""


class _Intrinsic:
    """A name that only means something inside a @cuda.jit kernel."""

    def __init__(self, name, doc=None):
        self._name = name
        self.__doc__ = doc

    def __repr__(self):
        return f"<ruchey.cuda intrinsic cuda.{self._name}>"

    def _outside(self, *args, **kwargs):
        raise RuntimeError(
            f"cuda.{self._name} is only valid inside a @cuda.jit kernel (or a device function "
            "it calls), not in plain Python: launch the kernel with kernel[griddim, blockdim](...)")

    __call__ = _outside


# Arithmetic, comparisons and conversions of a marker (as py_func would do with
# cuda.threadIdx.x) give the same clear error. Equality and hashing stay those of
# object identity: the compiler finds the markers in a dict.
for _op in ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "lshift", "rshift", "and",
            "or", "xor", "matmul", "divmod"):
    setattr(_Intrinsic, f"__{_op}__", _Intrinsic._outside)
    setattr(_Intrinsic, f"__r{_op}__", _Intrinsic._outside)
for _op in ("neg", "pos", "abs", "invert", "index", "int", "float", "complex", "lt", "le", "gt",
            "ge", "round", "trunc", "floor", "ceil"):
    setattr(_Intrinsic, f"__{_op}__", _Intrinsic._outside)
del _op


class _Namespace:
    """cuda.threadIdx, cuda.shared, cuda.atomic, ...: a fixed set of intrinsics;
    ``_typename``, numba-cuda's type of it where it is a value (Dim3), which
    a compile error for an attribute it lacks names."""

    __ruchey_namespace__ = True

    def __init__(self, name, doc, typename=None, **members):
        object.__setattr__(self, "_name", name)
        object.__setattr__(self, "_typename", typename)
        object.__setattr__(self, "__doc__", doc)
        for member, member_doc in members.items():
            object.__setattr__(self, member, _Intrinsic(f"{name}.{member}", member_doc))

    def __setattr__(self, attr, value):
        raise AttributeError(f"cuda.{self._name} is read-only")

    def __repr__(self):
        return f"<ruchey.cuda namespace cuda.{self._name}>"


def _dim3(name, what):
    return _Namespace(name, f"The {what} (x, y, z), inside a kernel.", "Dim3",
                      x=f"{what}, x", y=f"{what}, y", z=f"{what}, z")


threadIdx = _dim3("threadIdx", "index of the thread within its block")
blockIdx = _dim3("blockIdx", "index of the block within the grid")
blockDim = _dim3("blockDim", "number of threads of a block, per dimension")
gridDim = _dim3("gridDim", "number of blocks of the grid, per dimension")

grid = _Intrinsic(
    "grid", "grid(ndim): the absolute index of the thread in the grid, an int for ndim=1, "
            "else a tuple of ndim ints.")
gridsize = _Intrinsic(
    "gridsize", "gridsize(ndim): the number of threads of the grid, an int for ndim=1, else a "
                "tuple of ndim ints.")
syncthreads = _Intrinsic(
    "syncthreads", "syncthreads(): wait until every thread of the block reaches this point.")
syncthreads_count = _Intrinsic(
    "syncthreads_count", "syncthreads_count(predicate): syncthreads(), giving how many threads "
                         "of the block had a true predicate (int32).")
syncthreads_and = _Intrinsic(
    "syncthreads_and", "syncthreads_and(predicate): syncthreads(), giving 1 if the predicate was "
                       "true in every thread of the block, else 0.")
syncthreads_or = _Intrinsic(
    "syncthreads_or", "syncthreads_or(predicate): syncthreads(), giving 1 if the predicate was "
                      "true in any thread of the block, else 0.")
threadfence = _Intrinsic(
    "threadfence", "threadfence(): order this thread's memory accesses for the whole device.")
threadfence_block = _Intrinsic(
    "threadfence_block", "threadfence_block(): order this thread's memory accesses for its block.")
threadfence_system = _Intrinsic(
    "threadfence_system", "threadfence_system(): order this thread's memory accesses for the "
                          "host too.")
nanosleep = _Intrinsic(
    "nanosleep", "nanosleep(ns): suspend the thread for about ns nanoseconds (PTX's nanosleep, "
                 "anywhere from 0 to 2 * ns); on the CPU it returns at once.")

# ---------------------------------------------------------------- warps

warpsize = _Intrinsic("warpsize", "The number of threads in a warp: 32.")
laneid = _Intrinsic("laneid", "The thread's lane in its warp: its linear index in the block "
                              "modulo 32.")
syncwarp = _Intrinsic(
    "syncwarp", "syncwarp(mask=0xffffffff): wait until the lanes of the warp named in mask "
                "reach this point.")
shfl_sync = _Intrinsic(
    "shfl_sync", "shfl_sync(mask, value, src_lane): value as lane src_lane (modulo 32) holds it.")
shfl_up_sync = _Intrinsic(
    "shfl_up_sync", "shfl_up_sync(mask, value, delta): value from lane laneid - delta, or the "
                    "thread's own below lane 0.")
shfl_down_sync = _Intrinsic(
    "shfl_down_sync", "shfl_down_sync(mask, value, delta): value from lane laneid + delta, or "
                      "the thread's own beyond lane 31.")
shfl_xor_sync = _Intrinsic(
    "shfl_xor_sync", "shfl_xor_sync(mask, value, lane_mask): value from lane laneid ^ lane_mask.")
all_sync = _Intrinsic(
    "all_sync", "all_sync(mask, predicate): whether the predicate is true in every lane of mask.")
any_sync = _Intrinsic(
    "any_sync", "any_sync(mask, predicate): whether the predicate is true in any lane of mask.")
eq_sync = _Intrinsic(
    "eq_sync", "eq_sync(mask, predicate): whether the predicate is the same in every lane of "
               "mask.")
ballot_sync = _Intrinsic(
    "ballot_sync", "ballot_sync(mask, predicate): a uint32 with bit i set where lane i of mask "
                   "has a true predicate.")
match_any_sync = _Intrinsic(
    "match_any_sync", "match_any_sync(mask, value): the lanes of mask holding the same value as "
                      "this one, as a uint32 mask.")
match_all_sync = _Intrinsic(
    "match_all_sync", "match_all_sync(mask, value): (mask, True) if every lane of mask holds "
                      "the same value, else (0, False).")
activemask = _Intrinsic(
    "activemask", "activemask(): the lanes of the warp running this call together, as a uint32 "
                  "mask.")
lanemask_lt = _Intrinsic(
    "lanemask_lt", "lanemask_lt(): a uint32 with the bits of the lanes below this one set.")

# ---------------------------------------------------------------- bits and arithmetic

popc = _Intrinsic("popc", "popc(x): the number of bits set in the integer x.")
brev = _Intrinsic("brev", "brev(x): the bits of x reversed (uint32 or uint64).")
clz = _Intrinsic("clz", "clz(x): the number of leading zero bits of the integer x.")
ffs = _Intrinsic("ffs", "ffs(x): the position (from 1) of the lowest bit set in x, or 0.")
fma = _Intrinsic("fma", "fma(a, b, c): a * b + c rounded once.")
cbrt = _Intrinsic("cbrt", "cbrt(x): the cube root of x.")
selp = _Intrinsic("selp", "selp(predicate, a, b): a if the predicate is true, else b.")

# ---------------------------------------------------------------- loads and stores with cache hints

ldca = _Intrinsic("ldca", "ldca(ary, idx): ary[idx], loaded with PTX's ld.global.ca (cached in all levels).")
ldcg = _Intrinsic("ldcg", "ldcg(ary, idx): ary[idx], loaded with PTX's ld.global.cg (cached in L2, not L1).")
ldcs = _Intrinsic("ldcs", "ldcs(ary, idx): ary[idx], loaded with PTX's ld.global.cs (streaming: likely read once).")
ldlu = _Intrinsic("ldlu", "ldlu(ary, idx): ary[idx], loaded with PTX's ld.global.lu (last use).")
ldcv = _Intrinsic("ldcv", "ldcv(ary, idx): ary[idx], loaded with PTX's ld.global.cv (fetched again, not cached).")
stcg = _Intrinsic("stcg", "stcg(ary, idx, value): ary[idx] = value, stored with PTX's st.global.cg (in L2, not L1).")
stcs = _Intrinsic("stcs", "stcs(ary, idx, value): ary[idx] = value, stored with PTX's st.global.cs (streaming).")
stwb = _Intrinsic("stwb", "stwb(ary, idx, value): ary[idx] = value, stored with PTX's st.global.wb (write-back).")
stwt = _Intrinsic("stwt", "stwt(ary, idx, value): ary[idx] = value, stored with PTX's st.global.wt (write-through "
                          "to system memory).")

shared = _Namespace(
    "shared", "Memory shared by the threads of a block.",
    array="shared.array(shape, dtype): an array shared by the threads of the block; shape 0 "
          "uses the dynamic shared memory of the launch (its 4th parameter, in bytes).")
cg = _Namespace(
    "cg", "Cooperative groups.",
    this_grid="cg.this_grid(): the grid of the kernel; its sync() waits until every thread of the "
              "grid reaches it (the kernel is then launched so that all its blocks run at once).")
const = _Namespace(
    "const", "Constant memory.",
    array_like="const.array_like(ary): ary, a NumPy array global to the module, copied into the "
               "kernel's constant memory (read-only there).")
local = _Namespace(
    "local", "Memory private to a thread.",
    array="local.array(shape, dtype): an array private to the thread.")
fp16 = _Namespace(
    "fp16", "Half-precision (float16) arithmetic; numbers are converted to float16 first.",
    hadd="fp16.hadd(a, b): a + b", hsub="fp16.hsub(a, b): a - b", hmul="fp16.hmul(a, b): a * b",
    hdiv="fp16.hdiv(a, b): a / b", hfma="fp16.hfma(a, b, c): a * b + c rounded once",
    hneg="fp16.hneg(a): -a", habs="fp16.habs(a): |a|",
    hsin="fp16.hsin(a): sin(a)", hcos="fp16.hcos(a): cos(a)", hlog="fp16.hlog(a): log(a)",
    hlog10="fp16.hlog10(a): log10(a)", hlog2="fp16.hlog2(a): log2(a)", hexp="fp16.hexp(a): e ** a",
    hexp10="fp16.hexp10(a): 10 ** a", hexp2="fp16.hexp2(a): 2 ** a", hsqrt="fp16.hsqrt(a): sqrt(a)",
    hrsqrt="fp16.hrsqrt(a): 1 / sqrt(a)", hrcp="fp16.hrcp(a): 1 / a", hfloor="fp16.hfloor(a): floor(a)",
    hceil="fp16.hceil(a): ceil(a)", hrint="fp16.hrint(a): a rounded to the nearest integer, ties to even",
    htrunc="fp16.htrunc(a): a rounded towards zero",
    heq="fp16.heq(a, b): a == b", hne="fp16.hne(a, b): a != b", hgt="fp16.hgt(a, b): a > b",
    hge="fp16.hge(a, b): a >= b", hlt="fp16.hlt(a, b): a < b", hle="fp16.hle(a, b): a <= b",
    hmax="fp16.hmax(a, b): a if a > b else b", hmin="fp16.hmin(a, b): a if a < b else b",
)
atomic = _Namespace(
    "atomic", "Atomic read-modify-write of an array element; each returns the old value.",
    add="atomic.add(ary, idx, val): ary[idx] += val",
    sub="atomic.sub(ary, idx, val): ary[idx] -= val",
    and_="atomic.and_(ary, idx, val): ary[idx] &= val",
    or_="atomic.or_(ary, idx, val): ary[idx] |= val",
    xor="atomic.xor(ary, idx, val): ary[idx] ^= val",
    inc="atomic.inc(ary, idx, val): ary[idx] = 0 if ary[idx] >= val else ary[idx] + 1",
    dec="atomic.dec(ary, idx, val): ary[idx] = val if ary[idx] == 0 or ary[idx] > val "
        "else ary[idx] - 1",
    exch="atomic.exch(ary, idx, val): ary[idx] = val",
    max="atomic.max(ary, idx, val): ary[idx] = max(ary[idx], val); a NaN on either side "
        "leaves it as it is",
    min="atomic.min(ary, idx, val): ary[idx] = min(ary[idx], val); a NaN on either side "
        "leaves it as it is",
    nanmax="atomic.nanmax(ary, idx, val): ary[idx] = max(ary[idx], val), NaN counting as missing",
    nanmin="atomic.nanmin(ary, idx, val): ary[idx] = min(ary[idx], val), NaN counting as missing",
    compare_and_swap="atomic.compare_and_swap(ary, old, val): ary[0] = val if ary[0] == old",
    cas="atomic.cas(ary, idx, old, val): ary[idx] = val if ary[idx] == old",
)
