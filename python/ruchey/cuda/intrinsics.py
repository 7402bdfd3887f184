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
    """cuda.threadIdx, cuda.shared, cuda.atomic, ...: a fixed set of intrinsics."""

    __ruchey_namespace__ = True

    def __init__(self, name, doc, **members):
        object.__setattr__(self, "_name", name)
        object.__setattr__(self, "__doc__", doc)
        for member, member_doc in members.items():
            object.__setattr__(self, member, _Intrinsic(f"{name}.{member}", member_doc))

    def __setattr__(self, attr, value):
        raise AttributeError(f"cuda.{self._name} is read-only")

    def __repr__(self):
        return f"<ruchey.cuda namespace cuda.{self._name}>"


def _dim3(name, what):
    return _Namespace(name, f"The {what} (x, y, z), inside a kernel.",
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

shared = _Namespace(
    "shared", "Memory shared by the threads of a block.",
    array="shared.array(shape, dtype): an array shared by the threads of the block; shape 0 "
          "uses the dynamic shared memory of the launch (its 4th parameter, in bytes).")
local = _Namespace(
    "local", "Memory private to a thread.",
    array="local.array(shape, dtype): an array private to the thread.")
atomic = _Namespace(
    "atomic", "Atomic read-modify-write of an array element; each returns the old value.",
    add="atomic.add(ary, idx, val): ary[idx] += val",
    sub="atomic.sub(ary, idx, val): ary[idx] -= val",
    max="atomic.max(ary, idx, val): ary[idx] = max(ary[idx], val)",
    min="atomic.min(ary, idx, val): ary[idx] = min(ary[idx], val)",
    exch="atomic.exch(ary, idx, val): ary[idx] = val",
    cas="atomic.cas(ary, idx, old, val): ary[idx] = val if ary[idx] == old",
)
