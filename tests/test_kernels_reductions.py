"""NumPy's reductions of a whole array in CUDA kernels (numpy.sum(a),
a.max(), numpy.nanmean(a), a.std() ...), as numba-cuda compiles them: each
thread reduces the array it is given to one number, allocating nothing.
On the CPU backend each result is checked against NumPy's; compiled to
PTX, checked by ptxas. Along an axis a reduction makes an array, which a
kernel cannot: a TypingError."""
import numpy as np
import pytest

import ruchey
from ruchey import cuda

from conftest import AS_NUMBA, make_rng, needs_ptxas, ptxas_errors, seed_of

REDUCTIONS = [np.sum, np.prod, np.mean, np.std, np.var, np.min, np.max, np.argmin, np.argmax, np.any, np.all,
              np.count_nonzero, np.ptp, np.nansum, np.nanprod, np.nanmean, np.nanstd, np.nanvar, np.nanmin,
              np.nanmax]


@cuda.jit
def all_reductions(a, out):
    out[0] = np.sum(a)
    out[1] = np.prod(a)
    out[2] = np.mean(a)
    out[3] = np.std(a)
    out[4] = np.var(a)
    out[5] = np.min(a)
    out[6] = np.max(a)
    out[7] = np.argmin(a)
    out[8] = np.argmax(a)
    out[9] = np.any(a)
    out[10] = np.all(a)
    out[11] = np.count_nonzero(a)
    out[12] = np.ptp(a)
    out[13] = np.nansum(a)
    out[14] = np.nanprod(a)
    out[15] = np.nanmean(a)
    out[16] = np.nanstd(a)
    out[17] = np.nanvar(a)
    out[18] = np.nanmin(a)
    out[19] = np.nanmax(a)


@cuda.jit
def methods(a, out):
    out[0] = a.sum()
    out[1] = a.prod()
    out[2] = a.mean()
    out[3] = a.std()
    out[4] = a.var()
    out[5] = a.min()
    out[6] = a.max()
    out[7] = a.argmin()
    out[8] = a.argmax()
    out[9] = a.any()
    out[10] = a.all()


@cuda.jit
def row_sums(a, out):
    i = cuda.grid(1)
    if i < a.shape[0]:
        out[i, 0] = a[i].sum()
        out[i, 1] = np.max(a[i])
        out[i, 2] = a[i, ::2].mean()


@cuda.jit
def sum_of_local(out):
    tmp = cuda.local.array(8, np.float64)
    for k in range(8):
        tmp[k] = k * 0.5 + cuda.threadIdx.x
    out[cuda.threadIdx.x] = tmp.sum()


def values(shape, dtype, seed):
    rng = make_rng(seed)
    if np.dtype(dtype).kind == "f":
        return rng.uniform(-2, 2, shape).astype(dtype)
    if np.dtype(dtype).kind == "b":
        return rng.integers(0, 2, shape).astype(dtype)
    return rng.integers(1 if np.dtype(dtype).kind == "u" else -3, 4, shape).astype(dtype)


def layouts(a):
    """a and a strided view of it (Fortran order where it has two dimensions)."""
    yield a
    yield np.asfortranarray(a) if a.ndim == 2 else a[..., ::2]


def check(got, expected, dtype):
    if np.dtype(dtype).kind == "f":
        np.testing.assert_allclose(got, expected, rtol=1e-5 if dtype == np.float32 else 1e-12, atol=1e-12)
    else:
        np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("dtype, shape", [(np.float64, (33,)), (np.float32, (4, 6)), (np.int32, (3, 2, 5)),
                                          (np.uint8, (1,))])
def test_whole_array_reductions_equal_numpys(dtype, shape):
    for a in layouts(values(shape, dtype, seed_of(shape, dtype))):
        out = np.zeros(len(REDUCTIONS))
        all_reductions[1, 1](a, out)
        with np.errstate(all="ignore"):
            expected = np.array([f(a) for f in REDUCTIONS], dtype=np.float64)
        check(out, expected, dtype)


@pytest.mark.parametrize("dtype", [np.float64, np.bool_])
def test_reduction_methods_equal_numpys(dtype):
    for a in layouts(values((5, 8), dtype, seed_of("methods", dtype))):
        out = np.zeros(11)
        methods[1, 1](a, out)
        expected = [a.sum(), a.prod(), a.mean(), a.std(), a.var(), a.min(), a.max(), a.argmin(), a.argmax(),
                    a.any(), a.all()]
        check(out, np.array(expected, dtype=np.float64), np.float64)


def test_nan_propagates_and_nan_functions_skip_it():
    a = values((6, 5), np.float64, 7)
    a[2, 3] = np.nan
    a[0, 1] = np.inf
    out = np.zeros(len(REDUCTIONS))
    all_reductions[1, 1](a, out)
    with np.errstate(all="ignore"):
        expected = np.array([f(a) for f in REDUCTIONS], dtype=np.float64)
    np.testing.assert_allclose(out, expected, rtol=1e-12, equal_nan=True)


def test_each_thread_reduces_its_own_row():
    a = values((70, 9), np.float32, 8)
    out = np.zeros((70, 3))
    row_sums[3, 32](a, out)
    expected = np.stack([a.sum(axis=1), a.max(axis=1), a[:, ::2].mean(axis=1)], axis=1)
    np.testing.assert_allclose(out, expected, rtol=1e-6)


def test_reduction_of_a_local_array():
    out = np.zeros(4)
    sum_of_local[1, 4](out)
    np.testing.assert_array_equal(out, [np.sum(np.arange(8) * 0.5 + t) for t in range(4)])


def test_min_of_an_empty_array_is_numpys_value_error():
    with pytest.raises(ValueError, match="zero-size array"):
        all_reductions[1, 1](np.zeros(0), np.zeros(len(REDUCTIONS)))


def test_reduction_along_an_axis_is_a_typing_error():
    @cuda.jit
    def along_axis(a, out):
        out[0] = a.sum(axis=0)[0]

    with pytest.raises(ruchey.TypingError, match="kernels cannot allocate arrays"):
        along_axis[1, 1](np.ones((2, 3)), np.zeros(1))


PTX_SIGS = ["void(float64[:, :], float64[:])", "void(int32[::1], float64[:])"]


@needs_ptxas
@pytest.mark.skipif(AS_NUMBA, reason="ruchey's PTX")
@pytest.mark.parametrize("sig", PTX_SIGS)
def test_ptxas_accepts_reductions_in_kernels(sig, tmp_path):
    for kernel in (all_reductions, methods):
        ptx, _ = cuda.compile_ptx(kernel.py_func, sig, cc=(8, 0))
        assert ptxas_errors(ptx, "sm_80", tmp_path, kernel.__name__) == ""
