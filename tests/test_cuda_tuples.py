"""Tuples and None as arguments of CUDA kernels and device functions:
kernel[g, b](arr, (1.0, 2.0)), tuples of arrays, nested tuples, a
parameter defaulting to None. Run on the CPU backend and checked against
the same computation in NumPy; compiled to PTX, where a tuple's items are kernel parameters of
their own, and checked by ptxas."""
import collections
import shutil

import numpy as np
import pytest

import ruchey
from ruchey import cuda, float64, int64
from ruchey.types import Tuple, UniTuple

from conftest import AS_NUMBA, make_rng, needs_ptxas, ptxas_errors


@cuda.jit
def affine(out, coeffs):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = coeffs[0] * i + coeffs[1]


def test_tuple_of_floats():
    out = np.zeros(100)
    affine[4, 32](out, (1.5, -2.0))
    np.testing.assert_array_equal(out, 1.5 * np.arange(100) - 2.0)


def test_tuple_of_mixed_numbers_and_a_retyped_launch():
    out = np.zeros(50)
    affine[2, 32](out, (3, 0.25))
    np.testing.assert_array_equal(out, 3 * np.arange(50) + 0.25)
    affine[2, 32](out, (np.float32(0.5), True))
    np.testing.assert_array_equal(out, 0.5 * np.arange(50) + 1.0)


@cuda.jit
def add_arrays(arrays, out):
    i = cuda.grid(1)
    if i < out.size:
        a, b = arrays
        out[i] = a[i] + b[i]


def test_tuple_of_arrays():
    rng = make_rng(1)
    a, b = rng.random(70), rng.random(70)
    out = np.zeros(70)
    add_arrays[3, 32]((a, b), out)
    np.testing.assert_array_equal(out, a + b)


@cuda.jit
def nested(out, spec):
    i = cuda.grid(1)
    (scale, shift), src = spec
    if i < out.size:
        out[i] = src[i] * scale + shift


def test_nested_tuple_with_an_array_and_a_device_array():
    src = make_rng(2).random(40)
    out = np.zeros(40)
    nested[2, 32](out, ((2.0, 1), src))
    np.testing.assert_array_equal(out, src * 2.0 + 1)
    d_out = cuda.to_device(np.zeros(40))
    nested[2, 32](d_out, ((3.0, 0.5), cuda.to_device(src)))
    np.testing.assert_array_equal(d_out.copy_to_host(), src * 3.0 + 0.5)


def test_writes_to_an_array_in_a_tuple_come_back():
    @cuda.jit
    def fill(pair):
        i = cuda.grid(1)
        dst, value = pair
        if i < dst.size:
            dst[i] = value + i
    dst = np.zeros(33)
    fill[2, 32]((dst, 7.0))
    np.testing.assert_array_equal(dst, 7.0 + np.arange(33))


Affine = collections.namedtuple("Affine", ("scale", "shift", "src"))
Pair = collections.namedtuple("Pair", ("x", "y"))


@cuda.jit
def named_fields(out, spec, pair):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = spec.src[i] * spec.scale + spec.shift + pair.x - pair.y


def test_named_tuples_are_kernel_arguments_read_by_field():
    """A named tuple of numbers (a UniTuple or mixed) and of arrays: its fields
    read in the kernel, the arrays' writes seen by the caller."""
    rng = make_rng(5)
    for scale, shift, pair in ((2.0, 1, Pair(3, 4)), (np.float32(0.5), True, Pair(1.25, np.int16(-7))),
                               (-1, -2.5, Pair(0, 0))):
        src = rng.standard_normal(45)
        out = np.zeros(45)
        named_fields[2, 32](out, Affine(scale, shift, src), pair)
        want = np.zeros(45)
        for i in range(45):
            want[i] = src[i] * scale + shift + pair.x - pair.y
        np.testing.assert_array_equal(out, want)
    d_out = cuda.device_array(45)
    named_fields[2, 32](d_out, Affine(3.0, 0.5, cuda.to_device(src)), Pair(0, 0))
    np.testing.assert_array_equal(d_out.copy_to_host(), src * 3.0 + 0.5)


@needs_ptxas
@pytest.mark.skipif(AS_NUMBA, reason="ruchey's PTX")
def test_ptxas_accepts_kernels_taking_named_tuples(tmp_path):
    named_fields[1, 1](np.zeros(3), Affine(1.5, 2, np.zeros(3)), Pair(1, 2.5))
    ptxs = named_fields.inspect_ptx((8, 0))
    assert ptxs
    for ptx in ptxs.values():
        assert ptxas_errors(ptx, "sm_80", tmp_path, "named_fields") == ""


def test_an_unsupported_field_of_a_named_tuple_names_the_argument():
    with pytest.raises(TypeError, match="kernel argument 1 has unsupported type str"):
        named_fields[1, 1](np.zeros(1), Affine(1.0, 2.0, "three"), Pair(1, 2))


@cuda.jit
def scaled(out, x, scale=None):
    i = cuda.grid(1)
    if i < out.size:
        if scale is None:
            out[i] = x[i]
        else:
            out[i] = x[i] * scale


def test_a_none_default_and_a_value_for_it():
    x = make_rng(3).random(64)
    out = np.zeros(64)
    scaled[2, 32](out, x)
    np.testing.assert_array_equal(out, x)
    scaled[2, 32](out, x, 2.5)
    np.testing.assert_array_equal(out, x * 2.5)
    scaled[2, 32](out, x, None)
    np.testing.assert_array_equal(out, x)


def test_a_number_default():
    @cuda.jit
    def power(out, x, p=2):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = x[i] ** p
    x = make_rng(4).random(20)
    out = np.zeros(20)
    power[1, 32](out, x)
    np.testing.assert_allclose(out, x ** 2)
    power[1, 32](out, x, 3)
    np.testing.assert_allclose(out, x ** 3)


@cuda.jit(device=True)
def dot3(u, v):
    return u[0] * v[0] + u[1] * v[1] + u[2] * v[2]


@cuda.jit(device=True)
def maybe_offset(x, offset):
    if offset is None:
        return x
    return x + offset


@cuda.jit
def tuples_to_device_functions(out, v, offset):
    i = cuda.grid(1)
    if i < out.shape[0]:
        row = (out[i, 0], out[i, 1], out[i, 2])
        out[i, 0] = maybe_offset(dot3(row, v), offset)


def test_tuples_and_none_passed_to_device_functions():
    base = make_rng(5).random((30, 3))
    out = base.copy()
    tuples_to_device_functions[1, 32](out, (1.0, 2.0, 3.0), None)
    np.testing.assert_allclose(out[:, 0], base @ np.array([1.0, 2.0, 3.0]))
    out = base.copy()
    tuples_to_device_functions[1, 32](out, (1.0, 0.0, -1.0), 10.0)
    np.testing.assert_allclose(out[:, 0], base @ np.array([1.0, 0.0, -1.0]) + 10.0)


@cuda.jit
def shared_sum_of_pair(pair, out):
    """A tuple read after a barrier: loop fission keeps it per block."""
    sh = cuda.shared.array(64, float64)
    t = cuda.threadIdx.x
    x, w = pair
    sh[t] = x[t] * w
    cuda.syncthreads()
    if t == 0:
        s = 0.0
        for k in range(cuda.blockDim.x):
            s += sh[k]
        out[0] = s


def test_tuple_across_a_barrier():
    x = make_rng(6).random(64)
    out = np.zeros(1)
    shared_sum_of_pair[1, 64]((x, 0.5), out)
    assert out[0] == pytest.approx((x * 0.5).sum())


def test_still_refused_a_list_and_a_string():
    out = np.zeros(4)
    with pytest.raises(TypeError, match="kernel argument 1 has unsupported type list"):
        affine[1, 4](out, [1.0, 2.0])
    with pytest.raises(TypeError, match="kernel argument 1 has unsupported type str"):
        affine[1, 4](out, (1.0, "a"))


def test_too_few_arguments_without_defaults():
    with pytest.raises(TypeError, match="takes 2 arguments, got 1"):
        affine[1, 4](np.zeros(4))


# ---------------------------------------------------------------- PTX

PTX_KERNELS = [
    (affine, (ruchey.float64[::1], UniTuple(float64, 2))),
    (add_arrays, (UniTuple(ruchey.float64[::1], 2), ruchey.float64[::1])),
    (nested, (ruchey.float64[::1], Tuple([Tuple([float64, int64]), ruchey.float64[::1]]))),
    (scaled, (ruchey.float64[::1], ruchey.float64[::1], float64)),
    (tuples_to_device_functions, (ruchey.float64[:, ::1], UniTuple(float64, 3), float64)),
    (shared_sum_of_pair, (Tuple([ruchey.float64[::1], float64]), ruchey.float64[::1])),
]


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's PTX")
def test_a_tuples_items_are_kernel_parameters_of_their_own():
    ptx, _ = cuda.compile_ptx(nested, PTX_KERNELS[2][1], cc=(8, 0))
    params = ptx.split(".entry nested(")[1].split(")")[0]
    types = [line.split()[1] for line in params.strip().splitlines()]
    # out: data, shape, stride; scale, shift; src: data, shape, stride
    assert types == [".u64"] * 3 + [".f64", ".u64"] + [".u64"] * 3


def none_kernels_ptx(arch):
    """The PTX of kernels launched with None (a signature cannot spell it)."""
    scaled[1, 4](np.zeros(4), np.zeros(4))
    tuples_to_device_functions[1, 4](np.zeros((4, 3)), (1.0, 2.0, 3.0), None)
    cc = (int(arch[3]), int(arch[4]))
    found = {}
    for kernel in (scaled, tuples_to_device_functions):
        for sig, ptx in kernel.inspect_ptx(cc).items():
            if "none" in str(sig):
                found[kernel.__name__] = ptx
    assert len(found) == 2, found.keys()
    return found


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's PTX")
def test_none_is_no_kernel_parameter():
    ptx = none_kernels_ptx("sm_80")["scaled"]
    assert ptx.split(".entry scaled(")[1].split(")")[0].count(".param") == 6


@needs_ptxas
@pytest.mark.skipif(AS_NUMBA, reason="ruchey's PTX")
@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_ptxas_accepts_kernels_taking_none(arch, tmp_path):
    for name, ptx in none_kernels_ptx(arch).items():
        assert ptxas_errors(ptx, arch, tmp_path, name) == ""


@needs_ptxas
@pytest.mark.skipif(AS_NUMBA, reason="ruchey's PTX")
@pytest.mark.parametrize("kernel, sig", PTX_KERNELS, ids=[f"{k.__name__}{i}" for i, (k, _) in enumerate(PTX_KERNELS)])
@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_ptxas_accepts_kernels_taking_tuples(kernel, sig, arch, tmp_path):
    ptx, _ = cuda.compile_ptx(kernel, sig, cc=(int(arch[3]), int(arch[4])))
    assert ptxas_errors(ptx, arch, tmp_path, kernel.__name__) == ""


# ---------------------------------------------------------------- a GPU launch (the fake driver)

from test_cudadrv import PRELUDE, fake_driver, on_fake  # noqa: E402,F401  (fixtures)


@pytest.mark.skipif(AS_NUMBA or not shutil.which("cc"), reason="ruchey's driver layer, tested with a C compiler")
def test_a_gpu_launch_passes_a_tuples_items_and_a_complexs_parts_as_parameters(on_fake):
    on_fake("""
        @cuda.jit
        def packed(out, pair, nothing, z, w):
            if nothing is None:
                out[0] = pair[0][0] + pair[1] + z.real + w.imag

        out = cuda.device_array(1)
        arr = cuda.to_device(numpy.arange(4.0))
        packed[1, 1](out, (arr, numpy.int32(7)), None, 1.5 - 2.5j, numpy.complex64(0.5 + 4j))
        p = launch(0)["params"]
        # out: 3; pair: arr's 3 and an int32; nothing: none; z: 2 float64; w: 2 float32
        assert [len(b) for b in p] == [8, 8, 8, 8, 8, 8, 4, 8, 8, 4, 4]
        assert u64(p[3]) == address(arr) and [i64(b) for b in p[4:6]] == [4, 8]
        assert struct.unpack("<i", p[6])[0] == 7
        assert struct.unpack("<dd", p[7] + p[8]) == (1.5, -2.5)
        assert struct.unpack("<ff", p[9] + p[10]) == (0.5, 4.0)
    """)


@pytest.mark.skipif(AS_NUMBA or not shutil.which("cc"), reason="ruchey's driver layer, tested with a C compiler")
def test_a_gpu_launch_passes_a_named_tuples_fields_as_parameters(on_fake):
    on_fake("""
        import collections
        Spec = collections.namedtuple("Spec", ("src", "scale"))

        @cuda.jit
        def by_field(out, spec):
            out[0] = spec.src[1] * spec.scale

        out = cuda.device_array(1)
        arr = cuda.to_device(numpy.arange(4.0))
        by_field[1, 1](out, Spec(arr, 2.5))
        p = launch(0)["params"]
        assert [len(b) for b in p] == [8] * 7
        assert u64(p[3]) == address(arr) and struct.unpack("<d", p[6])[0] == 2.5
        by_field[1, 1](out, Spec(numpy.arange(3.0), numpy.float32(1.5)))  # a host array: copied in and back
        assert [len(b) for b in launch(1)["params"]] == [8] * 6 + [4]
    """)
