"""cuda.ldca/ldcg/ldcs/ldlu/ldcv (loads) and cuda.stcg/stcs/stwb/stwt
(stores) with PTX's cache operators. On the CPU backend each is a plain
load or store: every operator, on every integer and float dtype, over
1-d, 2-d and strided arrays with negative indices, is compared with NumPy's
indexing; a store converts its value as an assignment does. A CPointer
argument is indexed as numba-cuda's. Compiled to PTX, each is one
ld.global.<op>.b<bits> or st.global.<op>.b<bits>, which ptxas assembles.
Wrong arguments are TypingErrors."""
import numpy as np
import pytest

import ruchey
from ruchey import cuda, types, typeof

from conftest import AS_NUMBA, make_rng, needs_ptxas, ptxas_errors, seed_of

pytestmark = pytest.mark.skipif(AS_NUMBA, reason="numba-cuda's cache hints need a GPU under Numba")

DTYPES = (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64, np.float16,
          np.float32, np.float64)
LOADS = ("ca", "cg", "cs", "lu", "cv")
STORES = ("cg", "cs", "wb", "wt")


def values(dtype, shape, seed):
    """Values of dtype over its range: extremes, negatives, NaN and infinities for floats."""
    rng = make_rng(seed)
    n = int(np.prod(shape))
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        a = rng.integers(info.min, info.max, size=n, dtype=dtype, endpoint=True)
        edge = np.array([info.min, info.max], dtype)
    else:
        a = (rng.normal(size=n) * 100).astype(dtype)
        edge = np.array([np.nan, np.inf, -np.inf, -0.0], dtype)
    a[:len(edge)] = edge[:n]
    rng.shuffle(a)
    return a.reshape(shape)


@cuda.jit
def load_all(out, x):
    """out[k, i] is x[i] read with the k-th load operator, x read backwards from -1."""
    for i in range(x.shape[0]):
        out[0, i] = cuda.ldca(x, i)
        out[1, i] = cuda.ldcg(x, i - x.shape[0])
        out[2, i] = cuda.ldcs(x, i)
        out[3, i] = cuda.ldlu(x, i)
        out[4, i] = cuda.ldcv(x, i)


@cuda.jit
def store_all(out, x):
    """out[k] gets x with the k-th store operator (the last through negative indices)."""
    for i in range(x.shape[0]):
        cuda.stcg(out[0], i, x[i])
        cuda.stcs(out[1], i, x[i])
        cuda.stwb(out[2], i, x[i])
        cuda.stwt(out, (3, i - x.shape[0]), x[i])


@cuda.jit
def copy_2d(r, x):
    """r = x element by element, loaded and stored with tuple indices."""
    i, j = cuda.grid(2)
    if i < x.shape[0] and j < x.shape[1]:
        cuda.stcs(r, (i, j), cuda.ldcg(x, (i, j)))


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: d.__name__)
def test_loads_and_stores_read_and_write_the_indexed_element(dtype):
    for n in (0, 1, 37):
        x = values(dtype, n, seed_of("load", dtype.__name__, n))
        loaded = np.zeros((5, n), dtype)
        load_all[1, 1](loaded, x)
        np.testing.assert_array_equal(loaded, np.broadcast_to(x, (5, n)))
        stored = np.zeros((4, n), dtype)
        store_all[1, 1](stored, x)
        np.testing.assert_array_equal(stored, np.broadcast_to(x, (4, n)))


@pytest.mark.parametrize("dtype", (np.int16, np.uint64, np.float32, np.float64), ids=lambda d: d.__name__)
def test_tuple_indices_of_2d_and_strided_arrays(dtype):
    x = values(dtype, (9, 14), seed_of("2d", dtype.__name__))
    for src in (x, x[::2, 1::3], x.T):
        r = np.zeros_like(src)
        copy_2d[(2, 2), (8, 8)](r, src)
        np.testing.assert_array_equal(r, src)


@cuda.jit
def reverse_each_block(x, y):
    """y[i] = x[the mirror of i in its block] + 1, after every thread stored its x."""
    i = cuda.grid(1)
    cuda.stcg(x, i, i * 2)
    cuda.syncthreads()
    j = cuda.blockIdx.x * cuda.blockDim.x + cuda.blockDim.x - 1 - cuda.threadIdx.x
    cuda.stwt(y, i, cuda.ldcv(x, j) + 1)


def test_stores_before_a_barrier_are_loaded_after_it_by_other_threads():
    x, y = np.zeros(256, np.int64), np.zeros(256, np.int64)
    reverse_each_block[4, 64](x, y)
    np.testing.assert_array_equal(x, np.arange(256) * 2)
    np.testing.assert_array_equal(y, np.arange(256).reshape(4, 64)[:, ::-1].ravel() * 2 + 1)


def test_a_store_converts_its_value_as_an_assignment():
    @cuda.jit
    def store(r, v):
        for i in range(v.shape[0]):
            cuda.stwb(r, i, v[i])

    v = np.array([7.9, -7.9, 0.5, 126.0, -128.0])
    for dtype in (np.int8, np.int32, np.float32):
        r, want = np.zeros(len(v), dtype), np.zeros(len(v), dtype)
        store[1, 1](r, v)
        want[:] = v
        np.testing.assert_array_equal(r, want)


def test_a_cpointer_argument_is_indexed_from_its_address():
    def twice(p, r, n):
        for i in range(n):
            r[i] = cuda.ldcg(p, i)
            cuda.stcs(p, i, r[i] * 2)

    kernel = cuda.jit("void(CPointer(float32), float32[::1], intp)")(twice)
    x = values(np.float32, 50, seed_of("cpointer"))
    x[np.isnan(x)] = 1.0
    want = x * 2
    r = np.zeros_like(x)
    kernel[1, 1](x.ctypes.data, r, len(x))
    np.testing.assert_array_equal(r, want / 2)
    np.testing.assert_array_equal(x, want)


# ---------------------------------------------------------------- PTX

def ptx_of(fn, sig):
    return cuda.compile_ptx(fn, sig)[0]


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: d.__name__)
def test_ptx_has_each_operator_at_the_elements_width(dtype, tmp_path):
    t = typeof(np.zeros(1, dtype))
    bits = np.dtype(dtype).itemsize * 8
    ptx = ptx_of(load_all.py_func, (t.copy(ndim=2), t))
    for op in LOADS:
        assert f"ld.global.{op}.b{bits} " in ptx
    ptx = ptx_of(store_all.py_func, (t.copy(ndim=2), t))
    for op in STORES:
        assert f"st.global.{op}.b{bits} " in ptx


@needs_ptxas
@pytest.mark.parametrize("dtype", (np.int8, np.float16, np.uint32, np.float64), ids=lambda d: d.__name__)
def test_ptxas_accepts_the_cache_operators(dtype, tmp_path):
    t = typeof(np.zeros(1, dtype))
    for name, fn in (("load", load_all.py_func), ("store", store_all.py_func)):
        assert ptxas_errors(ptx_of(fn, (t.copy(ndim=2), t)), "sm_90", tmp_path, name) == ""

    def pointer(p, r, n):
        for i in range(n):
            r[i] = cuda.ldlu(p, i)
            cuda.stwt(p, i, r[i])

    ptx = ptx_of(pointer, (types.CPointer(t.dtype), t, types.intp))
    assert "ld.global.lu." in ptx and "st.global.wt." in ptx
    assert ptxas_errors(ptx, "sm_75", tmp_path, "pointer") == ""


# ---------------------------------------------------------------- errors

@pytest.mark.parametrize("call, message", [
    ("cuda.ldca(v, 1.0)", "float64 is not a valid index"),
    ("cuda.ldcs(v, (1, 2))", "Expected 1 indices, got 2"),
    ("cuda.ldcg(m, 1)", "Expected 2 indices, got a scalar"),
    ("cuda.ldlu(m, (1,))", "Expected 2 indices, got 1"),
    ("cuda.ldcv(c, 0)", "ldcv requires array of integer or float type, got complex128"),
    ("cuda.ldca(b, 0)", "ldca requires array of integer or float type, got bool"),
    ("cuda.ldca(3, 0)", "operates on arrays or pointers, got int64"),
    ("cuda.stcg(v, 0, 1j)", "stores float64, not complex128"),
    ("cuda.stwb(v, 0, v)", "needs a number"),
    ("cuda.stcs(v)", "takes 3 arguments, got 1"),
])
def test_wrong_arguments_are_typing_errors(call, message):
    ns = {"cuda": cuda}
    exec(f"def kernel(v, m, c, b):\n    {call}\n", ns)
    with pytest.raises(ruchey.TypingError, match=message):
        cuda.jit(ns["kernel"])[1, 1](np.zeros(3), np.zeros((2, 2)), np.zeros(2, complex), np.zeros(2, bool))


def test_a_store_into_a_read_only_array_is_a_typing_error():
    @cuda.jit
    def store(r):
        cuda.stcg(r, 0, 1)

    r = np.zeros(2)
    r.flags.writeable = False
    with pytest.raises(ruchey.TypingError, match="read-only"):
        store[1, 1](r)



def ptx_params(ptx, name):
    """The PTX types of the parameters of the function or kernel name."""
    params = ptx.split(f" {name}(")[1].split(")")[0]
    return [row.split()[1] for row in params.strip().splitlines()]


@needs_ptxas
def test_a_cpointer_is_one_bare_pointer_parameter_in_the_ptx(tmp_path):
    def load(p, i):
        return cuda.ldcs(p, i)

    def kernel(p, r, n):
        for i in range(n):
            r[i] = cuda.ldcg(p, i)
            cuda.stwb(p, i, r[i] + p[i])

    for dtype in (types.int8, types.float32, types.float64):
        ptx, restype = cuda.compile_ptx(load, (types.CPointer(dtype), types.int64), device=True)
        assert ptx_params(ptx, "load") == [".b64", ".b64"] and restype == dtype
        assert ptxas_errors(ptx, "sm_80", tmp_path, "load") == ""
        ptx, _ = cuda.compile_ptx(kernel, (types.CPointer(dtype), dtype[::1], types.intp))
        assert ptx_params(ptx, "kernel") == [".u64"] * 5  # p; r's data, shape, stride; n
        assert ptxas_errors(ptx, "sm_80", tmp_path, "kernel") == ""
