"""cuda.declare_device(name, sig, link=...): device functions written in CUDA
C/C++, called from kernels, on the CPU backend compiled by the host's C++
compiler (numba-cuda's ABI and the C ABI), checked against the same
computation written in Python."""
import os
import shutil

import numpy
import pytest

from ruchey import TypingError, cuda, types
from ruchey.cuda.hostlink import HostCompileError, c_type, numba_abi_entry
from conftest import make_rng

needs_cxx = pytest.mark.skipif(not (os.environ.get("CXX") or shutil.which("c++") or shutil.which("g++")),
                               reason="no C++ compiler on the host")


CUSource = cuda.CUSource


SCALE_CU = CUSource("""
extern "C" __device__
int scale_add(float *out, float a, float x, int k)
{
  *out = a * x + (float)k;
  return 0;
}
""")

TIMES2_CU = CUSource("""
extern "C" __device__ int times2(int *out, int a) { *out = a * 2; return 0; }
""")

TIMES4_CU = CUSource("""
extern "C" __device__ int times2(int *out, int a);
extern "C" __device__ int times4(int *out, int a) { int t; times2(&t, a); *out = t * 2; return 0; }
""")

C_ABI_CU = CUSource("""
extern "C" __device__ double hypot2(double a, double b) { return a * a + b * b; }
extern "C" __device__ void fill(int64_t *p, int64_t n) { for (int64_t i = 0; i < n; i++) p[i] = i * i; }
""")


def scale_add(a, x, k):
    return numpy.float32(a * x + numpy.float32(k))


@needs_cxx
def test_numba_abi_function_matches_python():
    scale = cuda.declare_device("scale_add", "float32(float32, float32, int32)", link=SCALE_CU)

    @cuda.jit
    def kernel(r, x, k):
        i = cuda.grid(1)
        if i < r.size:
            r[i] = scale(numpy.float32(2.5), x[i], k[i])

    rng = make_rng(5)
    for n in (1, 7, 100):
        x = rng.standard_normal(n).astype(numpy.float32)
        k = rng.integers(-50, 50, n).astype(numpy.int32)
        r = numpy.zeros_like(x)
        kernel[(n + 31) // 32, 32](r, x, k)
        numpy.testing.assert_array_equal(r, [scale_add(numpy.float32(2.5), a, b) for a, b in zip(x, k)])


@needs_cxx
@pytest.mark.parametrize("link", [[TIMES2_CU, TIMES4_CU], (TIMES4_CU, TIMES2_CU), {TIMES2_CU, TIMES4_CU}])
def test_function_calling_another_source_links_both(link):
    times4 = cuda.declare_device("times4", "int32(int32)", link=link)

    @cuda.jit
    def kernel(r, x):
        i = cuda.grid(1)
        if i < r.size:
            r[i] = times4(x[i])

    x = make_rng(6).integers(-1000, 1000, 50).astype(numpy.int32)
    r = numpy.empty_like(x)
    kernel[2, 32](r, x)
    numpy.testing.assert_array_equal(r, x * 4)


@needs_cxx
def test_c_abi_functions_take_values_and_pointers():
    import cffi
    ffi = cffi.FFI()
    hypot2 = cuda.declare_device("hypot2", "float64(float64, float64)", link=C_ABI_CU, abi="c")
    fill = cuda.declare_device("fill", types.void(types.CPointer(types.int64), types.int64), link=C_ABI_CU, abi="c")

    @cuda.jit
    def kernel(r, a, b, squares):
        i = cuda.grid(1)
        if i < r.size:
            r[i] = hypot2(a[i], b[i])
        if i == 0:
            fill(ffi.from_buffer(squares), squares.size)

    rng = make_rng(7)
    a, b = rng.standard_normal(40), rng.standard_normal(40)
    r, squares = numpy.zeros(40), numpy.zeros(9, dtype=numpy.int64)
    kernel[2, 32](r, a, b, squares)
    numpy.testing.assert_array_equal(r, a * a + b * b)
    numpy.testing.assert_array_equal(squares, numpy.arange(9) ** 2)


@needs_cxx
def test_source_from_a_file_and_its_includes(tmp_path, monkeypatch):
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "sq.cuh").write_text("__device__ __forceinline__ float sq(float v) { return v * v; }\n")
    source = tmp_path / "square.cu"
    source.write_text('#include <sq.cuh>\nextern "C" __device__ int square(float *r, float v) '
                      "{ *r = sq(v); return 0; }\n")
    from ruchey import config
    monkeypatch.setattr(config, "CUDA_NVRTC_EXTRA_SEARCH_PATHS", str(tmp_path / "inc"))
    square = cuda.declare_device("square", "float32(float32)", link=str(source))

    @cuda.jit
    def kernel(r, x):
        i = cuda.grid(1)
        if i < r.size:
            r[i] = square(x[i])

    x = make_rng(8).standard_normal(20).astype(numpy.float32)
    r = numpy.zeros_like(x)
    kernel[1, 32](r, x)
    numpy.testing.assert_array_equal(r, x * x)


@needs_cxx
def test_compile_error_names_the_source_and_says_why():
    broken = cuda.declare_device("broken", "int32(int32)", link=CUSource(
        'extern "C" __device__ int broken(int *r, int a) { *r = a +; return 0; }', name="broken.cu"))

    @cuda.jit
    def kernel(r):
        r[0] = broken(1)

    with pytest.raises((HostCompileError, TypingError), match=r"(?s)could not compile.*broken\.cu.*error"):
        kernel[1, 1](numpy.zeros(1, dtype=numpy.int32))


def test_gpu_code_cannot_be_linked_on_the_cpu():
    declared = cuda.declare_device("array_mutator", "void(CPointer(int32))", link="jitlink.ptx")

    @cuda.jit
    def kernel(x):
        declared(x.ctypes.data)

    with pytest.raises((NotImplementedError, TypingError), match=r"cannot link .ptx.*only a GPU runs"):
        kernel[1, 1](numpy.zeros(2, dtype=numpy.int32))


def test_ptx_in_memory_cannot_be_linked_on_the_cpu():
    declared = cuda.declare_device("f", "int32(int32)", link=cuda.PTXSource(".version 8.0"))
    assert cuda.PTXSource("").name == "<unnamed-ptx>" and cuda.CUSource("", name="a.cu").name == "a.cu"

    @cuda.jit
    def kernel(x):
        x[0] = declared(x[0])

    with pytest.raises((NotImplementedError, TypingError), match=r"cannot link PTXSource"):
        kernel[1, 1](numpy.zeros(1, dtype=numpy.int32))


def test_entry_of_numba_abi_passes_a_slot_for_the_result():
    text = numba_abi_entry("f", types.float64(types.int32, types.CPointer(types.float32)))
    assert 'extern "C" int f(void *, int32_t, void *);' in text
    assert "double ruchey_entry_f(int32_t a0, void * a1)" in text and "f(&r, a0, a1);" in text
    assert "return r;" not in numba_abi_entry("g", types.void(types.int8))


def test_only_numbers_bools_and_pointers_cross_to_cuda_c():
    assert c_type(types.boolean) == "bool" and c_type(types.uint16) == "uint16_t"
    with pytest.raises(TypeError, match="numbers, bools and pointers.*complex128"):
        c_type(types.complex128)
