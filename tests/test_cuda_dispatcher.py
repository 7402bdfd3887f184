"""CUDA functions and their dispatchers: a kernel (``@cuda.jit`` without
``device=True``) called from a kernel runs as a device function returning
its value, as in numba-cuda; functions passed to it as values; calls with
``*t`` spread into device functions; overloads for one target; explicit
signatures of device functions and kernels (CPointer parameters taking
addresses among them); constant shapes, tuples too, passed to device
functions; specialize(), recompile(), launch bounds and the shared memory
carveout. Each kernel's results are checked against the
Python functions on generated inputs; the PTX against ptxas."""
import ctypes
import shutil

import numpy as np
import pytest

import ruchey
import ruchey.extending
import ruchey.intrinsics
from ruchey import cuda

from conftest import AS_NUMBA, make_rng, needs_ptxas, ptxas_errors, run_python_file, seed_of


@cuda.jit
def scaled_sum(a, b, c):  # a kernel, called from kernels below
    return a + 2 * b - c


@cuda.jit
def apply(func, *args):
    return func(*args)


@cuda.jit(device=True)
def spread_sum(*args):
    return scaled_sum(*args)


@cuda.jit
def calls_kernels(out, x, y, z):
    i = cuda.grid(1)
    if i < x.size:
        t = (x[i], y[i], z[i])
        out[i, 0] = scaled_sum(x[i], y[i], z[i])
        out[i, 1] = spread_sum(*t)
        out[i, 2] = apply(scaled_sum, x[i], y[i], z[i])
        out[i, 3] = scaled_sum(*t)


def expected_rows(x, y, z):
    return np.array([[scaled_sum.py_func(a, b, c)] * 4 for a, b, c in zip(x, y, z)]).reshape(len(x), 4)


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.float32, np.float64])
@pytest.mark.parametrize("n", [0, 1, 37])
def test_kernels_called_from_a_kernel_return_their_values(dtype, n):
    rng = make_rng(seed_of("kernel calls", np.dtype(dtype).name, n))
    x, y, z = (rng.integers(-50, 50, n).astype(dtype) for _ in range(3))
    out = np.zeros((n, 4), dtype)
    calls_kernels[max(1, (n + 31) // 32), 32](out, x, y, z)
    np.testing.assert_array_equal(out, expected_rows(x, y, z).astype(dtype))


def closure_kernel(offset):
    def shifted():
        def inner(v):
            return v + offset
        return apply(inner, offset * 2)
    jitted = cuda.jit(shifted)

    @cuda.jit
    def kernel(out):
        out[cuda.grid(1)] = jitted()
    return kernel, shifted


def test_a_closure_passed_to_a_kernel_called_from_a_kernel():
    for offset in (-3, 0, 11):
        kernel, shifted = closure_kernel(offset)
        out = np.zeros(4, np.int64)
        kernel[1, 4](out)
        np.testing.assert_array_equal(out, 3 * offset)


@cuda.jit
def too_many(out):
    out[0] = scaled_sum(1, 2, 3, 4)


def test_a_kernel_called_with_the_wrong_arguments_is_a_typing_error():
    with pytest.raises(ruchey.TypingError if not AS_NUMBA else Exception):
        too_many[1, 1](np.zeros(1))


@needs_ptxas
@pytest.mark.skipif(AS_NUMBA, reason="ruchey's PTX")
@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_ptxas_accepts_calls_to_kernels_and_spread_calls(arch, tmp_path):
    ptx, _ = cuda.compile_ptx(calls_kernels.py_func, "void(float64[:, :], float64[:], float64[:], float64[:])",
                              cc=(int(arch[3]), int(arch[4])))
    assert ptxas_errors(ptx, arch, tmp_path) == ""


# ---------------------------------------------------------------- overload(target=...)

def scale_any(x):
    pass


def scale_twice(x):
    pass


def scale_cpu_only(x):
    pass


def overload_scaling(func, factor, target):
    @ruchey.extending.overload(func, target=target)
    def typer(x):
        def impl(x):
            for i in range(x.size):
                x[i] *= factor
        return impl


overload_scaling(scale_any, 2, "generic")
overload_scaling(scale_any, 3, "cuda")  # a kernel's choice over the generic one
overload_scaling(scale_twice, 5, "generic")  # calls scale_any: the CUDA one in a kernel
overload_scaling(scale_cpu_only, 7, "cpu")


@ruchey.extending.overload(scale_twice, target="cpu")
def scale_twice_cpu(x):
    def impl(x):
        scale_any(x)
        scale_any(x)
    return impl


def uses_overloads(x, y):
    scale_any(x)
    scale_twice(y)


@pytest.mark.skipif(AS_NUMBA, reason="ruchey.extending")
@pytest.mark.parametrize("dtype", [np.int32, np.float64])
def test_overloads_for_one_target_are_chosen_in_its_code(dtype):
    rng = make_rng(seed_of("overload targets", np.dtype(dtype).name))
    x0, y0 = rng.integers(-9, 9, 17).astype(dtype), rng.integers(-9, 9, 5).astype(dtype)
    x, y = x0.copy(), y0.copy()
    cuda.jit(uses_overloads)[1, 1](x, y)
    np.testing.assert_array_equal(x, x0 * 3)
    np.testing.assert_array_equal(y, y0 * 5)
    x, y = x0.copy(), y0.copy()
    ruchey.njit(uses_overloads)(x, y)  # the CPU's: the generic one, and scale_twice's own
    np.testing.assert_array_equal(x, x0 * 2)
    np.testing.assert_array_equal(y, y0 * 4)


@pytest.mark.skipif(AS_NUMBA, reason="ruchey.extending")
def test_a_cpu_overload_is_not_seen_in_cuda_code():
    x = np.ones(3)
    ruchey.njit(lambda a: scale_cpu_only(a))(x)
    np.testing.assert_array_equal(x, 7.0)

    @cuda.jit
    def kernel(a):
        scale_cpu_only(a)
    with pytest.raises(ruchey.TypingError, match="scale_cpu_only"):
        kernel[1, 1](x)


@pytest.mark.skipif(AS_NUMBA, reason="ruchey.extending")
def test_an_unknown_overload_target_is_refused():
    with pytest.raises(ValueError, match="target"):
        ruchey.extending.overload(scale_any, target="npu")


# ---------------------------------------------------------------- device functions with signatures

@cuda.jit("int32(int32, int32, int32, int32)", device=True)
def rgba(r, g, b, a):
    return ((r & 0xFF) << 16) | ((g & 0xFF) << 8) | (b & 0xFF) | ((a & 0xFF) << 24)


@cuda.jit(["int64(int64, int64)", "float64(float64, float64)"], device=True)
def add_either(a, b):
    return a + b


@cuda.jit
def calls_signatures(out, sums, channels, x, y):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = rgba(channels[i, 0], channels[i, 1], channels[i, 2], channels[i, 3])
        sums[i, 0] = add_either(x[i], y[i])        # float32s: the float64 signature
        sums[i, 1] = add_either(np.int32(i), x[i])  # int32 and float32: the float64 one too
        sums[i, 2] = add_either(i, 3)              # int64s


def expected_signature_calls(channels, x, y):
    as_i32 = np.trunc(channels).astype(np.int64)  # float32 -> int32 as C converts (in range here)
    packed = (((as_i32[:, 0] & 0xFF) << 16) | ((as_i32[:, 1] & 0xFF) << 8) | (as_i32[:, 2] & 0xFF)
              | ((as_i32[:, 3] & 0xFF) << 24))
    wide = x.astype(np.float64)
    sums = np.stack([wide + y.astype(np.float64), np.arange(x.size) + wide, np.arange(x.size) + 3.0], axis=1)
    return packed.astype(np.int32), sums


@pytest.mark.parametrize("n", [0, 1, 40])
def test_a_device_function_with_signatures_converts_the_arguments_to_one(n):
    rng = make_rng(seed_of("device signatures", n))
    channels = rng.uniform(-300, 300, (n, 4)).astype(np.float32)
    x, y = rng.normal(0, 100, n).astype(np.float32), rng.normal(0, 100, n).astype(np.float32)
    out, sums = np.zeros(n, np.int32), np.zeros((n, 3))
    calls_signatures[max(1, (n + 15) // 16), 16](out, sums, channels, x, y)
    packed, expected_sums = expected_signature_calls(channels, x, y)
    np.testing.assert_array_equal(out, packed)
    np.testing.assert_array_equal(sums, expected_sums)
    assert len(rgba.signatures) == 1 and len(add_either.signatures) == 2  # none compiled for the calls' types


def test_a_device_function_launched_as_a_kernel_is_refused(request):
    """numba-cuda's RuntimeError for f[griddim, blockdim] of a device function (its call from a kernel still
    works); an @njit function is not subscriptable, as Python says of any function."""
    @cuda.jit(device=True)
    def twice(v):
        return v + v

    @cuda.jit
    def apply(out, x):
        i = cuda.grid(1)
        if i < x.size:
            out[i] = twice(x[i])

    with pytest.raises(RuntimeError, match="Cannot compile a device function as a kernel"):
        twice[1, 1](1.0)
    with pytest.raises(RuntimeError, match="Cannot compile a device function as a kernel"):
        twice[1, 32, 0, 0]
    x = make_rng(seed_of(request.node.name)).normal(size=50)
    out = np.zeros_like(x)
    apply[2, 32](out, x)
    np.testing.assert_array_equal(out, twice.py_func(x))
    with pytest.raises(TypeError, match="not subscriptable"):
        ruchey.njit(twice.py_func)[1, 1]


@cuda.jit
def adds_complex(out, z):
    out[0] = add_either(z, z)


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's message")
def test_no_signature_taking_the_arguments_is_a_typing_error():
    with pytest.raises(ruchey.TypingError, match="no compiled signature"):
        adds_complex[1, 1](np.zeros(1, np.complex128), 1j)


@needs_ptxas
@pytest.mark.skipif(AS_NUMBA, reason="ruchey's PTX")
def test_ptxas_accepts_calls_through_device_signatures(tmp_path):
    ptx, _ = cuda.compile_ptx(calls_signatures.py_func,
                              "void(int32[:], float64[:, :], float32[:, :], float32[:], float32[:])", cc=(8, 0))
    assert ptxas_errors(ptx, "sm_80", tmp_path) == ""


# ---------------------------------------------------------------- kernels with signatures

def axpy(out, a, x, k):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a * x[i] + k


def test_a_kernel_with_a_signature_converts_its_arguments_to_it():
    kernel = cuda.jit("void(float32[::1], float32, float32[::1], int32)")(axpy)
    rng = make_rng(seed_of("kernel signature"))
    for n in (0, 1, 33):
        x = rng.normal(size=n).astype(np.float32)
        for a, k in ((1 / 3, 7.9), (-2.5e-3, -7.9), (np.float64(np.pi), 2 ** 31 + 5)):
            out = np.zeros(n, np.float32)
            kernel[max(1, (n + 31) // 32), 32](out, a, x, k)
            k32 = np.array(int(k)).astype(np.int32)  # truncated, then wrapped to int32
            np.testing.assert_array_equal(out, np.float32(a) * x + np.float32(k32))
    assert len(kernel.overloads) == 1 and len(kernel.signatures) == 1  # nothing compiled for the launches' types


def test_a_kernel_launched_with_arguments_no_signature_takes_is_a_type_error():
    kernel = cuda.jit(["void(int32[::1], int32, int32[::1], int32)",
                       "void(float64[::1], float64, float64[::1], float64)"])(axpy)
    with pytest.raises(TypeError):
        kernel[1, 1](np.zeros(1, np.int32), 1j, np.zeros(1, np.int32), 1)
    with pytest.raises(TypeError):  # an array of another dtype
        kernel[1, 1](np.zeros(1, np.float32), 1.0, np.zeros(1, np.float32), 1.0)
    out = np.zeros(2)
    kernel[1, 2](out, 2, np.arange(2.0), 1)  # ints take the float64 signature with the float64 arrays
    np.testing.assert_array_equal(out, [1.0, 3.0])
    assert len(kernel.overloads) == 2


def affine_u32(out, x):
    i, j = cuda.grid(2)
    if i < out.shape[0] and j < out.shape[1]:
        out[i, j] = x[i, j] * numpy_u32(3) + numpy_u32(1)


numpy_u32 = np.uint32


def reread(ary, dtype, layout):
    """ary's memory read as dtype as numba-cuda's kernel reads it: its byte strides
    for an "A" parameter, dtype's contiguous ones for a C or F one."""
    strides = ary.strides if layout == "A" else None
    return np.ndarray(ary.shape, dtype, buffer=ary, strides=strides, order=layout if layout != "A" else "C")


@pytest.mark.skipif(AS_NUMBA, reason="numba-cuda's GPU launch (its simulator converts)")
@pytest.mark.parametrize("layout", ["A", "C", "F"])
def test_a_kernel_of_one_signature_reads_another_dtypes_array_as_its_own(layout):
    """numba-cuda launches a kernel compiled for one signature alone with its arrays
    as they are: one of another dtype is its memory read as the signature's dtype
    (strided as the array for an "A" parameter, contiguous for C or F), written
    where the kernel writes; host and device arrays alike. One it would read past
    the end of is refused; a kernel of a list of signatures refuses any."""
    spelt = {"A": "[:, :]", "C": "[:, ::1]", "F": "[::1, :]"}[layout]
    kernel = cuda.jit(f"void(uint32{spelt}, uint32{spelt})")(affine_u32)
    rng = make_rng(seed_of("reread", layout))
    for dtype in (np.float64, np.int64, np.int32, np.float32, np.uint32):
        # (an empty array and one of one element are typed C: an F signature takes neither)
        for shape in ((3, 5), (4, 7)) if layout == "F" else ((0, 3), (1, 1), (3, 5), (4, 7)):
            x = np.asarray(rng.integers(-2 ** 31, 2 ** 31, shape).astype(dtype), order="F" if layout == "F" else "C")
            out = np.asarray(rng.integers(0, 1000, shape).astype(dtype), order="F" if layout == "F" else "C")
            expected = out.copy(order="K")
            with np.errstate(over="ignore"):
                reread(expected, np.uint32, layout)[...] = reread(x, np.uint32, layout) * np.uint32(3) + np.uint32(1)
            for on_device in (False, True):
                got = out.copy(order="K")
                arg = cuda.to_device(got) if on_device else got
                kernel[(shape[0] or 1, 1), (1, shape[1])](arg, cuda.to_device(x) if on_device else x)
                assert (arg.copy_to_host() if on_device else got).tobytes("A") == expected.tobytes("A")  # (its memory)
    with pytest.raises(TypeError, match="too short"):  # 2-byte items read as 4-byte ones
        kernel[1, (1, 4)](np.zeros((1, 4), np.uint32), np.zeros((1, 4), np.int16))
    with pytest.raises(TypeError):  # another number of dimensions
        kernel[1, 4](np.zeros((1, 4), np.uint32), np.zeros(4, np.uint32))
    listed = cuda.jit([f"void(uint32{spelt}, uint32{spelt})"])(affine_u32)
    with pytest.raises(TypeError):
        listed[1, 1](np.zeros((1, 1), np.uint32), np.zeros((1, 1), np.float64))


# ---------------------------------------------------------------- specialize, launch bounds, carveout

def test_specialize_makes_one_kernel_per_types_compiled_for_them_alone():
    kernel = cuda.jit(axpy)
    f32 = kernel.specialize(ruchey.types.float32[::1], ruchey.types.float32, ruchey.types.float32[::1],
                            ruchey.types.int32)
    assert kernel.specialize(np.zeros(1, np.float32), np.float32(1), np.zeros(1, np.float32), np.int32(1)) is f32
    assert len(kernel.specializations) == 1 and not kernel.specialized and f32.specialized
    rng = make_rng(seed_of("specialize"))
    x = rng.normal(size=20).astype(np.float32)
    out = np.zeros(20, np.float32)
    f32[1, 32](out, 0.1, x, 2.7)  # float64 and float arguments: converted to the float32 and int32 types
    np.testing.assert_array_equal(out, np.float32(0.1) * x + np.float32(2))
    with pytest.raises(RuntimeError, match="already specialized"):
        f32.specialize(ruchey.types.float64[::1], ruchey.types.float64, ruchey.types.float64[::1],
                       ruchey.types.int64)
    out = np.zeros(2)  # float64 arrays: their memory read as float32s, as numba-cuda's specialized kernel reads it
    f32[1, 2](out, 1.0, np.zeros(2), 1)
    np.testing.assert_array_equal(out.view(np.float32), [1, 1, 0, 0])


@pytest.mark.parametrize("bounds", [64, (64,), (64, 2), (64, 2, 1)])
def test_a_launch_past_the_launch_bounds_is_refused(bounds):
    kernel = cuda.jit(launch_bounds=bounds)(axpy)
    out, x = np.zeros(64), np.arange(64.0)
    kernel[2, 32](out, 2.0, x, 1)
    kernel[1, (64, 1, 1)](out, 2.0, x, 1)
    np.testing.assert_array_equal(out, 2 * x + 1)
    with pytest.raises(cuda.CudaError, match="launch bounds"):
        kernel[1, 65](out, 2.0, x, 1)


@pytest.mark.parametrize("bounds", [(64, 2, 1, 1), (0,), 1.5, ()])
def test_bad_launch_bounds_are_a_value_error(bounds):
    with pytest.raises(ValueError):
        cuda.jit(launch_bounds=bounds)(axpy)


@pytest.mark.parametrize("carveout", ["MaxL1", "maxshared", "default", -1, 0, 50, 100])
def test_a_shared_memory_carveout_is_accepted(carveout):
    kernel = cuda.jit("void(float64[::1], float64, float64[::1], int64)", shared_memory_carveout=carveout)(axpy)
    out = np.zeros(8)
    kernel[1, 8](out, 3.0, np.arange(8.0), -1)
    np.testing.assert_array_equal(out, 3 * np.arange(8.0) - 1)


@pytest.mark.parametrize("carveout", [101, -2, "MinL1", 50.0, True])
def test_a_bad_shared_memory_carveout_is_a_value_error(carveout):
    with pytest.raises(ValueError, match="[Cc]arveout"):
        cuda.jit(shared_memory_carveout=carveout)(axpy)


CACHED_KERNEL = '''
import numpy as np
from ruchey import cuda

@cuda.jit(cache=True)
def scale(a, k):
    i = cuda.grid(1)
    if i < a.size:
        a[i] *= k
'''


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's cache")
def test_a_kernels_stats_count_its_cache_hits_and_misses(tmp_path):
    (tmp_path / "cached_kernel.py").write_text(CACHED_KERNEL)
    code = '''
        import os, numpy as np, cached_kernel
        os.environ["RUCHEY_CUDA_BACKEND"] = "cpu"
        a = np.arange(64.0)
        cached_kernel.scale[2, 32](a, 3.0)
        assert (a == 3.0 * np.arange(64.0)).all()
        stats = cached_kernel.scale.stats
        print(sum(stats.cache_hits.values()), sum(stats.cache_misses.values()), os.path.isdir(stats.cache_path))
    '''
    runs = [run_python_file(code, tmp_path) for _ in range(2)]
    assert [r.stdout.split() for r in runs] == [["0", "1", "True"], ["1", "0", "True"]], [r.stderr for r in runs]


# ---------------------------------------------------------------- constant arguments of device functions

@cuda.jit(device=True)
def local_sum(n, dtype, start):
    a = cuda.local.array(n, dtype)  # n and dtype: the caller's constants
    for i in range(n):
        a[i] = start + i
    s = a[0] - a[0]
    for i in range(n):
        s += a[i]
    return s


@cuda.jit(device=True)
def local_grid_sum(rows, cols, start):
    shape = (rows, cols)
    a = cuda.local.array(shape, np.int64)
    for i in range(rows):
        for j in range(cols):
            a[i, j] = start * i + j
    return local_total(a)


@cuda.jit(device=True)
def local_total(a):
    s = 0
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            s += a[i, j]
    return s


@cuda.jit(device=True)
def passes_size_on(n, start):
    return local_sum(n, np.float64, start)  # its own parameter, frozen in turn


@cuda.jit(device=True)
def block_sum(x, size, op):
    tile = cuda.shared.array(size, np.float32)
    t = cuda.threadIdx.x
    tile[t] = x
    cuda.syncthreads()
    step = size // 2
    while step > 0:
        if t < step:
            tile[t] = op(tile[t], tile[t + step])
        cuda.syncthreads()
        step //= 2
    return tile[0]


@cuda.jit(device=True)
def add32(a, b):
    return a + b


@cuda.jit(device=True)
def update(op, arr, i, v):
    op(arr, i, v)


@cuda.jit
def constant_arguments(out, counts, x, start):
    t = cuda.threadIdx.x
    total = block_sum(x[t], 32, add32)
    update(cuda.atomic.add, counts, 0, 1)
    update(cuda.atomic.max, counts, 1, t)
    if t == 0:
        out[0] = local_sum(5, np.float32, start)
        out[1] = local_sum(3, np.int64, 2)
        out[2] = passes_size_on(4, start)
        out[3] = local_grid_sum(3, 4, 10)
        out[4] = total


def test_device_functions_take_shapes_dtypes_and_functions_as_constant_arguments():
    rng = make_rng(seed_of("constant arguments"))
    for start in (0.5, -3.0):
        x = rng.integers(-50, 50, 32).astype(np.float32)
        out, counts = np.zeros(5), np.zeros(2, np.int64)
        constant_arguments[1, 32](out, counts, x, start)
        expected = [(np.float32(start) + np.arange(5, dtype=np.float32)).sum(), np.arange(2, 5).sum(),
                    (start + np.arange(4.0)).sum(), (10 * np.arange(3)[:, None] + np.arange(4)).sum(), x.sum()]
        np.testing.assert_allclose(out, expected, rtol=1e-6)
        np.testing.assert_array_equal(counts, [32, 31])


@cuda.jit(device=True)
def shared_tile_sum(x, shape, dtype):
    """A block's values through a shared tile of the caller's constant shape (a tuple)."""
    tile = cuda.shared.array(shape, dtype)
    t = cuda.threadIdx.x
    if t < shape[0] * shape[1]:
        tile[t // shape[1], t % shape[1]] = x[t]
    cuda.syncthreads()
    s = tile[0, 0] - tile[0, 0]
    for i in range(shape[0]):
        for j in range(shape[1]):
            s += tile[i, j]
    cuda.syncthreads()
    return s


@cuda.jit(device=True)
def local_tuple_sum(shape, start):
    return local_ones_sum(shape) * start  # the tuple its caller was given, passed on


@cuda.jit(device=True)
def local_ones_sum(shape):
    a = cuda.local.array(shape, np.int64)
    for i in range(shape[0]):
        for j in range(shape[1]):
            a[i, j] = 1 + i * j
    return local_total(a)


@cuda.jit
def tuple_shapes(out, x):
    shape = (2, 5)
    out[0] = shared_tile_sum(x, (4, 8), np.float64)
    out[1] = shared_tile_sum(x, shape, np.float64)  # the same function, another shape
    out[2] = shared_tile_sum(x, (1, 3), np.float32)
    out[3] = local_tuple_sum((3, 4), 10)
    out[4] = local_tuple_sum((2, 2), 1)


def test_device_functions_take_tuples_of_constants_as_shapes():
    rng = make_rng(seed_of("tuple shapes"))
    for x in (rng.integers(-50, 50, 32).astype(np.float64), rng.standard_normal(32)):
        out = np.zeros(5)
        tuple_shapes[1, 32](out, x)
        def ones_sum(rows, cols):
            return (1 + np.arange(rows)[:, None] * np.arange(cols)).sum()
        expected = [x.sum(), x[:10].sum(), x[:3].astype(np.float32).sum(dtype=np.float32),
                    ones_sum(3, 4) * 10, ones_sum(2, 2)]
        np.testing.assert_allclose(out, expected, rtol=1e-6)


@cuda.jit
def sized_at_run_time(out):
    out[0] = local_sum(out.shape[0], np.float64, 1.0)


@cuda.jit
def shape_sized_at_run_time(out):
    out[0] = local_ones_sum((2, out.shape[0]))


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's message")
def test_a_size_known_only_at_run_time_is_a_typing_error():
    for kernel in (sized_at_run_time, shape_sized_at_run_time):
        with pytest.raises(ruchey.TypingError, match="sizes a local or shared array with it"):
            kernel[1, 1](np.zeros(3))


@needs_ptxas
@pytest.mark.skipif(AS_NUMBA, reason="ruchey's PTX")
def test_ptxas_accepts_constant_arguments_of_device_functions(tmp_path):
    ptx, _ = cuda.compile_ptx(constant_arguments.py_func, "void(float64[::1], int64[::1], float32[::1], float64)",
                              cc=(8, 0))
    assert ".shared" in ptx and "atom" in ptx
    assert ptxas_errors(ptx, "sm_80", tmp_path) == ""
    ptx, _ = cuda.compile_ptx(tuple_shapes.py_func, "void(float64[::1], float64[::1])", cc=(8, 0))
    assert ptx.count(".shared") >= 3
    assert ptxas_errors(ptx, "sm_80", tmp_path) == ""


# ---------------------------------------------------------------- @intrinsic in CUDA code

ir = pytest.importorskip("llvmlite.ir")


@ruchey.extending.intrinsic
def popcount_u32(typingctx, val):
    sig = ruchey.types.uint32(ruchey.types.uint32)

    def codegen(context, builder, sig, args):
        fnty = ir.FunctionType(args[0].type, [args[0].type])
        ctpop = ruchey.intrinsics.get_or_insert_function(builder.module, fnty, "llvm.ctpop.i32")
        return builder.call(ctpop, args)
    return sig, codegen


@ruchey.extending.intrinsic
def fused(typingctx, a, b):
    if not (isinstance(a, ruchey.types.Float) and a == b):
        return None

    def codegen(context, builder, sig, args):
        return builder.fadd(builder.fmul(args[0], args[1]), args[0])
    return a(a, b), codegen


@ruchey.extending.intrinsic
def c_abs(typingctx, x):
    def codegen(context, builder, sig, args):
        fnty = ir.FunctionType(args[0].type, [args[0].type])
        return builder.call(ruchey.intrinsics.get_or_insert_function(builder.module, fnty, "labs"), args)
    return ruchey.types.int64(ruchey.types.int64), codegen


@cuda.jit
def uses_intrinsics(bits, out, x):
    i = cuda.grid(1)
    if i < x.size:
        bits[i] = popcount_u32(np.uint32(i * 2654435761 % 4294967296))
        out[i] = fused(x[i], x[i])


@pytest.mark.skipif(AS_NUMBA, reason="ruchey.extending")
@pytest.mark.parametrize("n", [1, 50])
def test_intrinsics_in_kernels(n):
    rng = make_rng(seed_of("cuda intrinsics", n))
    x = rng.normal(size=n)
    bits, out = np.zeros(n, np.uint32), np.zeros(n)
    uses_intrinsics[1, 64](bits, out, x)
    words = (np.arange(n, dtype=np.uint64) * 2654435761 % 4294967296)
    np.testing.assert_array_equal(bits, [bin(int(w)).count("1") for w in words])
    np.testing.assert_array_equal(out, x * x + x)


@needs_ptxas
@pytest.mark.skipif(AS_NUMBA, reason="ruchey's PTX")
def test_ptxas_accepts_intrinsics_and_a_c_call_is_refused_on_the_gpu(tmp_path):
    ptx, _ = cuda.compile_ptx(uses_intrinsics.py_func, "void(uint32[::1], float64[::1], float64[::1])", cc=(8, 0))
    assert "popc" in ptx and ".func" not in ptx  # inlined
    assert ptxas_errors(ptx, "sm_80", tmp_path) == ""

    def calls_c(out, x):
        out[0] = c_abs(x)
    out = np.zeros(1, np.int64)
    cuda.jit(calls_c)[1, 1](out, -5)  # the CPU backend has the C library
    assert out[0] == 5
    with pytest.raises(ruchey.TypingError, match="labs, which code on the GPU cannot call"):
        cuda.compile_ptx(calls_c, "void(int64[::1], int64)", cc=(8, 0))


def test_a_kernel_with_signatures_pickles_with_them():
    import pickle
    kernel = pickle.loads(pickle.dumps(cuda.jit("void(float32[::1], float32, float32[::1], int32)")(axpy)))
    assert kernel.specialized and len(kernel.overloads) == 1
    out, x = np.zeros(4, np.float32), np.arange(4, dtype=np.float32)
    kernel[1, 4](out, 0.1, x, 3.9)
    np.testing.assert_array_equal(out, np.float32(0.1) * x + np.float32(3))
    out = np.zeros(4)  # float64 arrays read as float32s: still its one signature's kernel
    kernel[1, 4](out, 0.1, np.zeros(4), 3)
    np.testing.assert_array_equal(out.view(np.float32), [3] * 4 + [0] * 4)


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's IR")
def test_inspect_takes_a_tuple_of_types_as_the_signature():
    i32 = ruchey.types.int32
    kernel = cuda.jit("void(float32[::1], float32, float32[::1], int32)")(axpy)
    sig = (ruchey.types.float32[::1], ruchey.types.float32, ruchey.types.float32[::1], i32)
    assert "define" in kernel.inspect_llvm(sig) and "axpy" in kernel.inspect_asm(sig)  # (made again each time)
    cpu = ruchey.njit("int32(int32)")(lambda x: x + 1)
    assert "define" in cpu.inspect_llvm((i32,))
    with pytest.raises(KeyError, match="not a compiled signature"):
        kernel.inspect_llvm((i32,))


@cuda.jit
def countdown(out, n):  # calls itself: as a device function
    if n > 0:
        out[n - 1] = n * n
        countdown(out, n - 1)


def test_a_kernel_calling_itself_recurses_as_a_device_function():
    for n in (0, 1, 7):
        out = np.zeros(8, np.int64)
        countdown[1, 1](out, n)
        np.testing.assert_array_equal(out[:n], np.arange(1, n + 1) ** 2)
        assert not out[n:].any()


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's message")
def test_a_kernel_compiled_for_a_signature_calling_itself_is_a_typing_error():
    # (compiled as cuda.jit returns, before its name is bound: was a crash)
    with pytest.raises(ruchey.TypingError, match="name 'again' is not defined"):
        @cuda.jit("void(int64[::1], int64)")
        def again(out, n):
            if n > 0:
                again(out, n - 1)


# ---------------------------------------------------------------- recompile()

OFFSET = 1.0


@cuda.jit
def add_offset(out, x):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = x[i] + OFFSET


def test_recompile_reads_the_globals_anew_for_each_compiled_signature():
    global OFFSET
    declared = cuda.jit("void(float64[::1], float64[::1])")(add_offset.py_func)
    rng = make_rng(seed_of("recompile"))
    x64, x32 = rng.standard_normal(40), rng.standard_normal(40).astype(np.float32)
    try:
        for offset in (1.0, -2.5, np.nan):
            OFFSET = offset
            for kernel in (add_offset, declared):
                kernel.recompile()  # (the first time: before any compile, nothing to do but forget)
                for x in (x64, x32) if kernel is add_offset else (x64,):
                    out = np.zeros(40, x.dtype)
                    kernel[2, 32](out, x)
                    np.testing.assert_array_equal(out, x + x.dtype.type(offset))
            assert len(add_offset.signatures) == 2 and len(declared.signatures) == 1
    finally:
        OFFSET = 1.0


# ---------------------------------------------------------------- CPointer parameters

@cuda.jit("void(CPointer(float32), int64)")
def scale_pointed(p, n):
    a = ruchey.carray(p, (n,))
    i = cuda.grid(1)
    if i < n:
        a[i] = a[i] * 2 + 1


@cuda.jit(ruchey.types.void(ruchey.types.CPointer(ruchey.types.float64), ruchey.types.int64, ruchey.types.int64))
def fill_fortran(p, rows, cols):
    x = ruchey.farray(p, (rows, cols))
    i, j = cuda.grid(2)
    if i < rows and j < cols:
        x[i, j] = i * 100 + j - p[0] * 0


def test_kernels_take_addresses_for_cpointer_parameters():
    """A signature's CPointer(dtype) parameter takes an address (an int, a
    ctypes pointer, a device array's device_ctypes_pointer); carray and farray
    shape the memory there, written in place."""
    rng = make_rng(seed_of("cpointer"))
    for n in (1, 37, 100):
        host = rng.standard_normal(n).astype(np.float32)
        d = cuda.to_device(host)
        scale_pointed[4, 32](d.device_ctypes_pointer, n)
        np.testing.assert_array_equal(d.copy_to_host(), host * 2 + 1)
        on_host = host.copy()
        scale_pointed[4, 32](on_host.ctypes.data, n)  # host memory: the CPU backend's
        np.testing.assert_array_equal(on_host, host * 2 + 1)
        scale_pointed[4, 32](on_host.ctypes.data_as(ctypes.POINTER(ctypes.c_float)), n)
        np.testing.assert_array_equal(on_host, (host * 2 + 1) * 2 + 1)
    for rows, cols in ((3, 4), (1, 7), (5, 1)):
        out = np.full((rows, cols), -1.0, order="F")
        fill_fortran[1, (8, 8)](out.ctypes.data_as(ctypes.c_void_p), rows, cols)
        np.testing.assert_array_equal(out, 100 * np.arange(rows)[:, None] + np.arange(cols))


def test_a_cpointer_parameter_refuses_what_is_no_address():
    for bad in ("0x10", 1.5, True, np.zeros(3, np.float32)):
        with pytest.raises(TypeError, match="kernel argument 0 is a pointer"):
            scale_pointed[1, 1](bad, 3)


@needs_ptxas
@pytest.mark.skipif(AS_NUMBA, reason="ruchey's PTX")
def test_ptxas_accepts_kernels_taking_cpointers(tmp_path):
    for kernel in (scale_pointed, fill_fortran):
        for ptx in kernel.inspect_ptx((8, 0)).values():
            assert ptxas_errors(ptx, "sm_80", tmp_path, kernel.__name__) == ""


@pytest.mark.skipif(AS_NUMBA or not shutil.which("cc"), reason="ruchey's driver layer, tested with a C compiler")
def test_a_gpu_launch_passes_the_address_given_for_a_cpointer(on_fake):
    on_fake("""
        import sys

        @cuda.jit("void(CPointer(float32), int64)")
        def first(p, n):
            p[0] = n

        d = cuda.to_device(numpy.zeros(4, numpy.float32))
        first[1, 1](d.device_ctypes_pointer, 4)
        p = launch(0)["params"]
        # the pointer as a 1-d array of no known length: its data, length and stride; then n
        assert u64(p[0]) == address(d) and i64(p[1]) == sys.maxsize // 4 and i64(p[2]) == 4 and i64(p[3]) == 4
    """)



# ---------------------------------------------------------------- the driver's attributes of a kernel

@pytest.mark.skipif(AS_NUMBA, reason="ruchey's CPU backend")
def test_kernel_attributes_on_the_cpu_backend():
    """The most threads per block is the backend's (or the launch bounds'); the
    registers and memory the driver reports of GPU code are refused."""
    @cuda.jit
    def triple(x):
        i = cuda.grid(1)
        if i < x.size:
            x[i] *= 3

    triple[1, 4](np.zeros(4))
    triple[1, 4](np.zeros(4, np.float32))
    sig = "void(float64[::1])"
    assert triple.get_max_threads_per_block(sig) == 1024
    assert list(triple.get_max_threads_per_block().values()) == [1024, 1024]
    bounded = cuda.jit(sig, launch_bounds=(128, 2))(triple.py_func)
    assert bounded.get_max_threads_per_block() == 128
    for getter in (triple.get_regs_per_thread, triple.get_shared_mem_per_block, triple.get_const_mem_size,
                   triple.get_local_mem_per_thread):
        with pytest.raises(cuda.CudaSupportError, match="CUDA driver reports"):
            getter(sig)


def test_per_signature_results_are_keyed_by_argument_types():
    """What a kernel gives per compiled signature (get_max_threads_per_block(),
    inspect_llvm(), inspect_asm()) is found by the tuple of argument types, as
    numba-cuda keys it, and by the kernel's own signatures; inspect_types()
    writes each signature's annotated source."""
    import io

    @cuda.jit
    def scale(x, factor):
        i = cuda.grid(1)
        if i < x.size:
            x[i] *= factor

    rng = make_rng(seed_of("per_signature"))
    for dtype, factor in ((np.float32, 2.5), (np.int64, 3)):
        x = rng.integers(-100, 100, 37).astype(dtype)
        expected = x.copy()
        for i in range(x.size):
            expected[i] *= factor
        scale.forall(x.size)(x, factor)
        np.testing.assert_array_equal(x, expected)
    f32 = (ruchey.float32[::1], ruchey.float64)
    i64 = (ruchey.int64[::1], ruchey.int64)
    for results in (scale.get_max_threads_per_block(), scale.inspect_llvm(), scale.inspect_asm()):
        assert len(results) == 2 and f32 in results and i64 in results
        assert (ruchey.int32[::1], ruchey.int64) not in results
        assert [results[sig] for sig in scale.signatures] == [results[f32], results[i64]]
    with pytest.raises(KeyError):
        scale.inspect_llvm()[(ruchey.int32[::1], ruchey.int64)]
    annotated = io.StringIO()
    scale.inspect_types(file=annotated)
    assert "scale (array(float32, 1d, C), float64)" in annotated.getvalue()
    assert "scale (array(int64, 1d, C), int64)" in annotated.getvalue()


@pytest.mark.skipif(AS_NUMBA or not shutil.which("cc"), reason="ruchey's driver layer, tested with a C compiler")
def test_kernel_attributes_are_the_drivers_on_the_gpu(on_fake):
    on_fake("""
        @cuda.jit
        def triple(x):
            x[0] *= 3

        triple[1, 1](cuda.to_device(numpy.zeros(4)))
        triple[1, 1](cuda.to_device(numpy.zeros(4, numpy.int32)))
        sig = "void(float64[::1])"
        # the fake driver's made-up values: max threads, shared, const, local, registers
        assert (triple.get_max_threads_per_block(sig), triple.get_shared_mem_per_block(sig),
                triple.get_const_mem_size(sig), triple.get_local_mem_per_thread(sig),
                triple.get_regs_per_thread(sig)) == (1024, 4096, 64, 16, 40)
        per_signature = triple.get_regs_per_thread()
        assert len(per_signature) == 2 and set(per_signature.values()) == {40}
        assert per_signature[(cuda.types.float64[::1],)] == 40  # (numba-cuda's keys: tuples of types)
        specialized = cuda.jit(sig)(triple.py_func)
        assert specialized.get_shared_mem_per_block() == 4096  # compiled for the GPU when asked
    """)


from test_cudadrv import PRELUDE, fake_driver, on_fake  # noqa: E402,F401  (fixtures)


def test_an_unpickled_device_function_is_still_one(tmp_path):
    # pickled by value in one process, rebuilt in another: kernels call it, its inspect_asm() is its PTX
    dumped = run_python_file(f"""
        import pickle
        from ruchey import cuda

        def make():
            @cuda.jit(device=True)
            def mix(x, y):
                return x * 3 - y // 2
            return make_kernel(mix), mix

        def make_kernel(mix):
            @cuda.jit
            def kernel(out, x, y):
                i = cuda.grid(1)
                if i < out.size:
                    out[i] = mix(x[i], y[i])
            return kernel

        with open({str(tmp_path / "mix.pkl")!r}, "wb") as fh:
            pickle.dump(make(), fh)
        """, tmp_path)
    assert dumped.returncode == 0, dumped.stderr
    loaded = run_python_file(f"""
        import pickle
        import numpy as np
        from ruchey import cuda, int64

        with open({str(tmp_path / "mix.pkl")!r}, "rb") as fh:
            kernel, mix = pickle.load(fh)
        assert mix._cuda_device
        x, y = np.random.default_rng({seed_of("unpickled")}).integers(-1000, 1000, (2, 300))
        out = np.zeros(300, np.int64)
        kernel[2, 256](out, x, y)
        assert out.tolist() == [mix.py_func(a, b) for a, b in zip(x.tolist(), y.tolist())]
        mix.compile((int64, int64))
        ptx = mix.inspect_asm((int64, int64))
        assert ".func" in ptx and "mix" in ptx, ptx[:300]
        print("ok")
        """, tmp_path)
    assert loaded.returncode == 0 and loaded.stdout.strip() == "ok", loaded.stderr


def lined(out, x):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = x[i] * 2 + 1


def test_debug_with_lineinfo_warns_as_numba_cuda():
    # debug=True writes the lines already: numba-cuda's NumbaInvalidConfigWarning, and the kernel still runs
    with pytest.warns(Warning, match="debug and lineinfo are mutually exclusive") as caught:
        kernel = cuda.jit(debug=True, lineinfo=True)(lined)
    assert type(caught[0].message).__name__ == "NumbaInvalidConfigWarning"
    x = make_rng(seed_of("lined")).normal(size=100)
    out = np.zeros(100)
    kernel[1, 128](out, x)
    ref = np.zeros(100)
    for i in range(100):
        ref[i] = x[i] * 2 + 1
    np.testing.assert_array_equal(out, ref)
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        cuda.jit(lineinfo=True)(lined)
        cuda.jit(debug=True)(lined)
