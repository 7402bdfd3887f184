"""numba-cuda's vector types in CUDA code: cuda.float32x4 and the others
(int8 .. uint64, float32, float64 with 1 to 4 elements) and their C names
(cuda.float4, cuda.short2), made from numbers and smaller vectors and
read through x, y, z and w. Each device function is checked against its
Python original (the constructors run in Python too), in a kernel on the
CPU backend; compiled to PTX, checked by ptxas."""
import itertools

import numpy as np
import pytest

import ruchey
from ruchey import cuda

from conftest import AS_NUMBA, make_rng, needs_ptxas, ptxas_errors

pytestmark = pytest.mark.skipif(AS_NUMBA, reason="ruchey's vector types are named tuples")

BASES = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64"]


def vector(base, n):
    return getattr(cuda, f"{base}x{n}")


def element_sum(base, n):
    """A device function making a vector of n elements from n numbers and
    summing its fields in float64, and a kernel calling it on each row of
    an array."""
    fields = "xyzw"[:n]
    params = ", ".join(f"a{i}" for i in range(n))
    source = (f"def element_sum({params}):\n    v = make({params})\n"
              f"    return {' + '.join(f'float(v.{f})' for f in fields)}\n\n"
              f"def sums(values, out):\n    i = cuda.grid(1)\n    if i < out.size:\n"
              f"        out[i] = device({', '.join(f'values[i, {k}]' for k in range(n))})\n")
    namespace = {"make": vector(base, n), "cuda": cuda}
    exec(source, namespace)
    device = namespace["device"] = cuda.jit(device=True)(namespace["element_sum"])
    return device, cuda.jit(namespace["sums"])


def values_for(base, count, seed):
    rng = make_rng(seed)
    if base.startswith("float"):
        return rng.standard_normal((count, 4)) * 100
    info = np.iinfo(base)
    return rng.integers(max(info.min, -1000), min(info.max, 1000), size=(count, 4)).astype(np.float64)


@pytest.mark.parametrize("base, n", list(itertools.product(BASES, range(1, 5))))
def test_a_vector_of_n_numbers_holds_them_converted_to_its_base_type(base, n):
    device, kernel = element_sum(base, n)
    values = values_for(base, 32, n)
    out = np.zeros(32)
    kernel[1, 32](values, out)
    want = np.array([device.py_func(*row[:n]) for row in values])
    np.testing.assert_array_equal(out, want)
    assert want.tolist() == [float(sum(np.array(row[:n]).astype(base).astype(np.float64))) for row in values]


@cuda.jit(device=True)
def fancy(one, two, three, four):
    f1 = cuda.float32x1(one)
    f2 = cuda.float32x2(two, three)
    f3 = cuda.float32x3(f2, f1)
    a = cuda.float32x4(one, f2, four)
    b = cuda.float4(f3, four)
    c = cuda.float32x4(f2, f2)
    d = cuda.float32x4(four, f3)
    e = cuda.float32x4(a)
    return (a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w, c.x, c.y, c.z, c.w, d.x, d.y, d.z, d.w,
            e.x + e.w, f3.z, cuda.float32x2(f1, f1).y)


@cuda.jit
def fancy_kernel(values, out):
    i = cuda.grid(1)
    if i < values.shape[0]:
        r = fancy(values[i, 0], values[i, 1], values[i, 2], values[i, 3])
        for k in range(len(r)):
            out[i, k] = r[k]


def test_vectors_made_from_numbers_and_smaller_vectors():
    values = make_rng(7).standard_normal((40, 4)) * 10
    out = np.zeros((40, 19), np.float32)
    fancy_kernel[1, 64](values, out)
    want = np.array([fancy.py_func(*row) for row in values], np.float32)
    np.testing.assert_array_equal(out, want)


@cuda.jit
def c_names(out):
    out[0] = cuda.double2(1.5, 2.5).y
    out[1] = cuda.short3(7, 8, 9).z
    out[2] = cuda.uchar4(1, 2, 3, 255).w
    out[3] = cuda.float1(0.25).x
    out[4] = cuda.int4(cuda.int2(1, 2), -3, 4).z


def test_c_names_of_the_vector_types():
    assert cuda.float4 is cuda.float32x4 and cuda.double3 is cuda.float64x3 and cuda.short2 is cuda.int16x2
    assert cuda.int4 is cuda.int32x4 and cuda.uchar1 is cuda.uint8x1
    out = np.zeros(5)
    c_names[1, 1](out)
    np.testing.assert_array_equal(out, [2.5, 9, 255, 0.25, -3])


def test_the_table_of_vector_types_describes_each_as_numba_cudas_does():
    """Code that walks the table (name -> constructor) builds kernels from its
    name, base type, number of elements and C names: each base_type(k) cast,
    made into a vector and read back."""
    from ruchey.cuda.vector_types import vector_types
    assert len(vector_types) == 40
    for name, vty in vector_types.items():
        assert vty.name == name and vty.user_facing_object is vty is getattr(cuda, name)
        assert vty.base_type is getattr(ruchey.types, name.rpartition("x")[0]) and vty.num_elements == int(name[-1])
        assert all(getattr(cuda, alias) is vty for alias in vty.aliases)
    assert sorted(vector_types["float32x4"].aliases) == ["float4"]
    for vty in (vector_types["uint8x3"], vector_types["float64x2"], vector_types["int16x4"], vector_types["float32x1"]):
        n, fields = vty.num_elements, "xyzw"[:vty.num_elements]
        params = ", ".join(f"base(values[{k}])" for k in range(n))
        namespace = {"make": vty.user_facing_object, "base": vty.base_type}
        exec(f"def read_back(values, out):\n    v = make({params})\n"
             + "".join(f"    out[{k}] = v.{f}\n" for k, f in enumerate(fields)), namespace)
        values = make_rng(n).uniform(-100 if vty.name[0] != "u" else 0, 100, n)
        out, want = np.zeros(n), np.zeros(n)
        cuda.jit(namespace["read_back"])[1, 1](values, out)
        namespace["read_back"](values, want)
        np.testing.assert_array_equal(out, want)


def test_in_python_a_vector_is_a_named_tuple_of_its_base_type():
    v = cuda.uint16x3(cuda.uint16x2(1, 2), 3.7)
    assert (v.x, v.y, v.z) == (1, 2, 3) and type(v.z) is np.uint16 and v._fields == ("x", "y", "z")
    with pytest.raises(TypeError, match="takes 3 elements"):
        cuda.uint16x3(1, 2)


def test_a_wrong_number_of_elements_or_a_non_number_is_a_typing_error():
    @cuda.jit
    def too_few(out):
        out[0] = cuda.float32x3(1.0, 2.0).x

    @cuda.jit
    def an_array(out):
        out[0] = cuda.float32x2(out, 1.0).x

    for kernel in (too_few, an_array):
        with pytest.raises(ruchey.TypingError, match="float32x[23]\\(\\) takes numbers and vectors"):
            kernel[1, 1](np.zeros(1))


@needs_ptxas
@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_ptxas_accepts_the_vector_kernels(arch, tmp_path):
    for kernel, sig in ((fancy_kernel, "void(float64[:, ::1], float32[:, ::1])"), (c_names, "void(float64[::1])")):
        ptx, _ = cuda.compile_ptx(kernel.py_func, sig, cc=(int(arch[3]), int(arch[4])))
        assert ptxas_errors(ptx, arch, tmp_path, kernel.__name__) == ""
