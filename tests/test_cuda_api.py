"""ruchey.cuda's Python API (numba-cuda's): everything that runs no kernel.

Launch configurations and their validation, argument checking, device arrays
and copies, streams and events, the device description, the backend choice,
and the intrinsics used outside a kernel. Kernels that run are in
test_kernels.py.

Skipped with RUCHEY_TEST_AS_NUMBA=1: numba's CUDA simulator (the only numba
CUDA that runs without a GPU) implements another subset of this API.
"""
import os
import re
import subprocess
import sys

import numpy
import pytest

import ruchey
from ruchey import TypingError, cuda, float32, int32

from conftest import AS_NUMBA, make_rng, needs_ptxas, ptxas_errors, run_python_file, seed_of

pytestmark = pytest.mark.skipif(AS_NUMBA, reason="ruchey.cuda's API on the CPU backend; "
                                "numba's CUDA simulator implements another subset")


def noop(x):
    pass


@pytest.fixture
def kernel():
    return cuda.jit(noop)


# ---------------------------------------------------------------- import

def test_import_ruchey_does_not_import_cuda(tmp_path):
    r = run_python_file("""
        import sys
        import ruchey
        assert "ruchey.cuda" not in sys.modules, sorted(m for m in sys.modules if "ruchey" in m)
        from ruchey import cuda
        assert sys.modules["ruchey.cuda"] is cuda is ruchey.cuda
        import ruchey.cuda as c2
        assert c2 is cuda
        print("ok")
    """, tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "ok"


def test_cuda_is_an_attribute_of_ruchey():
    assert ruchey.cuda is cuda
    with pytest.raises(AttributeError):
        ruchey.no_such_attribute_xyz


# ---------------------------------------------------------------- intrinsics

DIM3 = ("threadIdx", "blockIdx", "blockDim", "gridDim")


def all_intrinsics():
    objs = {f"{ns}.{a}": getattr(getattr(cuda, ns), a) for ns in DIM3 for a in "xyz"}
    objs.update({name: getattr(cuda, name) for name in ("grid", "gridsize", "syncthreads")})
    objs["shared.array"] = cuda.shared.array
    objs["local.array"] = cuda.local.array
    for op in ("add", "sub", "max", "min", "exch", "cas"):
        objs[f"atomic.{op}"] = getattr(cuda.atomic, op)
    return objs


def test_intrinsics_are_unique_objects_stable_across_lookups():
    objs = all_intrinsics()
    assert len({id(o) for o in objs.values()}) == len(objs)
    for name, obj in objs.items():
        value = cuda
        for part in name.split("."):
            value = getattr(value, part)
        assert value is obj, name
    assert cuda.threadIdx.x is cuda.threadIdx.x
    assert cuda.atomic.add is cuda.atomic.add


def test_namespaces_are_marked_for_the_compiler():
    for ns in DIM3 + ("shared", "local", "atomic"):
        assert getattr(type(getattr(cuda, ns)), "__ruchey_namespace__", False) is True, ns
    assert not hasattr(cuda.grid, "__ruchey_namespace__")


def test_intrinsics_are_hashable_by_identity():
    objs = all_intrinsics()
    table = {obj: name for name, obj in objs.items()}
    assert all(table[obj] == name for name, obj in objs.items())


def test_namespaces_are_read_only():
    with pytest.raises(AttributeError):
        cuda.threadIdx.x = 3
    assert isinstance(cuda.threadIdx.x, type(cuda.grid))


@pytest.mark.parametrize("call", [
    lambda: cuda.syncthreads(),
    lambda: cuda.grid(1),
    lambda: cuda.gridsize(2),
    lambda: cuda.shared.array(16, numpy.float64),
    lambda: cuda.local.array(4, numpy.int64),
    lambda: cuda.atomic.add(numpy.zeros(1), 0, 1.0),
    lambda: cuda.atomic.sub(numpy.zeros(1), 0, 1.0),
    lambda: cuda.atomic.max(numpy.zeros(1), 0, 1.0),
    lambda: cuda.atomic.min(numpy.zeros(1), 0, 1.0),
    lambda: cuda.atomic.exch(numpy.zeros(1), 0, 1.0),
    lambda: cuda.atomic.cas(numpy.zeros(1, numpy.int64), 0, 0, 1),
    lambda: cuda.threadIdx.x + 1,
    lambda: 2 * cuda.blockIdx.y,
    lambda: cuda.blockDim.z < 3,
    lambda: range(cuda.gridDim.x),
], ids=["syncthreads", "grid", "gridsize", "shared", "local", "add", "sub", "max", "min", "exch",
        "cas", "threadIdx+1", "2*blockIdx", "blockDim<3", "range(gridDim)"])
def test_intrinsics_outside_a_kernel_raise_runtime_error(call):
    with pytest.raises(RuntimeError, match=r"only valid inside a @cuda\.jit kernel"):
        call()


def test_calling_a_kernels_py_func_raises_runtime_error():
    @cuda.jit
    def k(a):
        i = cuda.threadIdx.x + cuda.blockIdx.x * cuda.blockDim.x
        a[i] = 1

    with pytest.raises(RuntimeError, match=r"cuda\.(blockIdx|threadIdx)\.x is only valid inside"):
        k.py_func(numpy.zeros(4))


# ---------------------------------------------------------------- cuda.jit

def test_jit_forms_keep_the_function():
    def k1(a):
        """doc of k1"""
        a[0] = 1

    for kern in (cuda.jit(k1), cuda.jit()(k1), cuda.jit(debug=True, opt=False)(k1),
                 cuda.jit("void(float64[:])")(k1),
                 cuda.jit(["void(float64[:])", "void(int64[:])"])(k1),
                 cuda.jit(lineinfo=True, cache=False)(k1), cuda.jit(fastmath=True)(k1)):
        assert kern.py_func is k1
        assert kern.__name__ == "k1"
        assert kern.__doc__ == "doc of k1"


def test_jit_boundscheck_is_accepted():
    kern = cuda.jit(boundscheck=True)(noop)
    assert kern.py_func is noop


def test_kernel_has_no_signatures_before_its_first_launch(kernel):
    assert list(kernel.signatures) == []
    assert kernel.inspect_llvm() == {}


def test_cuda_gives_the_types_as_numba_cuda_does():
    """from numba.cuda import float32, void (numba-cuda's documentation): ruchey's types."""
    from ruchey.cuda import float32, int32, types, void
    assert types is ruchey.types and float32 is ruchey.float32 and int32 is ruchey.int32
    assert cuda.float64 is ruchey.float64 and cuda.boolean is ruchey.boolean

    @cuda.jit(void(float32[::1], int32))
    def scaled(a, k):
        i = cuda.grid(1)
        if i < a.size:
            a[i] = cuda.float32(a[i] * k) + float32(0.5)

    a = numpy.arange(10, dtype=numpy.float32)
    scaled[1, 16](a, 3)
    numpy.testing.assert_array_equal(a, numpy.arange(10, dtype=numpy.float32) * 3 + numpy.float32(0.5))
    with pytest.raises(AttributeError, match="no attribute 'float128'"):
        cuda.float128


def test_which_narrow_float_types_kernels_take():
    assert cuda.is_float16_supported() is True
    assert cuda.is_bfloat16_supported() is False and cuda.is_fp8_supported() is False
    dev = cuda.get_current_device()  # (numba-cuda's device attributes say the same)
    assert dev.supports_float16 is True and dev.supports_bfloat16 is False and dev.supports_fp8 is False
    assert cuda.is_supported_version() is True


def test_kernel_overloads_map_each_compiled_signature():
    """One per launched specialisation: a host array and a device array of one
    layout share it (numba-cuda's issue 4628)."""
    @cuda.jit
    def double(a, out):
        i = cuda.grid(1)
        if i < a.size:
            out[i] = a[i] * 2

    assert len(double.overloads) == 0 and list(double.overloads) == []
    a, out = numpy.arange(64.0), numpy.zeros(64)
    double[1, 64](a, out)
    double[1, 64](cuda.to_device(a), out)
    assert len(double.overloads) == 1 and list(double.overloads) == double.signatures
    assert double.signatures[0] in double.overloads and (ruchey.int8,) not in double.overloads
    numpy.testing.assert_array_equal(out, a * 2)


def test_kernel_signature_must_return_void():
    with pytest.raises(TypeError, match="void return type"):
        cuda.jit("float64(float64[:])")(noop)


def test_jit_rejects_unknown_options():
    with pytest.raises(TypeError, match="no_such_option"):
        cuda.jit(no_such_option=True)(noop)


def test_jit_refuses_link():
    with pytest.raises(NotImplementedError, match="link"):
        cuda.jit(link=["kernel.cu"])(noop)


@pytest.mark.parametrize("sig", ["int32(float32[:])", int32(float32[:])])
def test_declare_device_gives_numba_cudas_declaration(sig):
    declared = cuda.declare_device("f1", sig, link="f1.cu")
    assert declared.name == "f1" and declared.link == ("f1.cu",)
    assert declared.sig.args == (float32[:],) and declared.sig.return_type == int32


@pytest.mark.parametrize("sig", [(float32[:],), "(float32[:],)"])
def test_declare_device_needs_a_return_type(sig):
    with pytest.raises(TypeError, match="Return type must be provided"):
        cuda.declare_device("f1", sig)


def test_declare_device_refuses_an_unknown_abi():
    with pytest.raises(NotImplementedError, match="Unsupported ABI: fortran"):
        cuda.declare_device("f1", "int32()", abi="fortran")


def test_a_kernel_calling_a_declared_function_of_a_missing_source_names_it():
    mul_f32 = cuda.declare_device("mul_f32", "float32(float32, float32)", link=["no-such-functions.cu"])

    @cuda.jit
    def kernel(r, x):
        i = cuda.grid(1)
        if i < r.size:
            r[i] = mul_f32(x[i], x[i])

    x = numpy.ones(4, dtype=numpy.float32)
    with pytest.raises((FileNotFoundError, TypingError), match=r"no-such-functions\.cu"):
        kernel[1, 4](numpy.empty_like(x), x)


def test_device_function_is_an_njit_dispatcher_callable_from_python():
    def twice(v):
        return v * 2

    dev = cuda.jit(device=True)(twice)
    assert type(dev) is type(ruchey.njit(twice))
    assert dev.py_func is twice and dev.__name__ == "twice"
    assert dev(21) == 42


def test_device_function_with_signature_compiles_eagerly():
    def add(a, b):
        return a + b

    dev = cuda.jit("float64(float64, float64)", device=True)(add)
    assert len(dev.signatures) == 1
    assert dev(1.5, 2.0) == 3.5


def test_device_function_follows_numba_cuda_error_model():
    def div(a, b):
        return a / b

    assert cuda.jit(device=True)(div)(1.0, 0.0) == numpy.inf  # error_model="numpy"
    with pytest.raises(ZeroDivisionError):
        cuda.jit(device=True, debug=True)(div)(1.0, 0.0)


def test_fastmath_float32_division_by_zero_is_unchecked_as_numba_cudas():
    def div(out, x, y):
        out[0] = x / y

    out32 = numpy.zeros(1, dtype=numpy.float32)
    for x, y in ((1.0, 0.0), (-2.5, 0.0), (0.0, 0.0), (3.0, 2.0)):
        with numpy.errstate(divide="ignore", invalid="ignore"):
            expected = numpy.float32(x) / numpy.float32(y)
        cuda.jit(fastmath=True, debug=True)(div)[1, 1](out32, numpy.float32(x), numpy.float32(y))
        numpy.testing.assert_array_equal(out32[0], expected)
    with pytest.raises(ZeroDivisionError):  # float64 keeps Python's check, as without fastmath
        cuda.jit(fastmath=True, debug=True)(div)[1, 1](numpy.zeros(1), 1.0, 0.0)
    with pytest.raises(ZeroDivisionError):
        cuda.jit(debug=True)(div)[1, 1](out32, numpy.float32(1), numpy.float32(0))


# ---------------------------------------------------------------- launch configurations

def test_calling_a_kernel_without_configuration_raises(kernel):
    with pytest.raises(ValueError, match="launch configuration was not specified"):
        kernel(numpy.zeros(3))


def test_calling_a_kernel_without_configuration_raises_with_no_args():
    with pytest.raises(ValueError, match="launch configuration was not specified"):
        cuda.jit(lambda: None)()


@pytest.mark.parametrize("griddim, blockdim, grid3, block3", [
    (1, 1, (1, 1, 1), (1, 1, 1)),
    (4, 256, (4, 1, 1), (256, 1, 1)),
    ((4,), (256,), (4, 1, 1), (256, 1, 1)),
    ((2, 3), (4, 5), (2, 3, 1), (4, 5, 1)),
    ((2, 3, 4), (8, 8, 4), (2, 3, 4), (8, 8, 4)),
    ([2, 3], [16, 16], (2, 3, 1), (16, 16, 1)),
    (numpy.int64(7), numpy.int32(32), (7, 1, 1), (32, 1, 1)),
    (2**31 - 1, 1024, (2**31 - 1, 1, 1), (1024, 1, 1)),
    ((1, 65535, 65535), (1, 1, 64), (1, 65535, 65535), (1, 1, 64)),
    (1, (1, 1024), (1, 1, 1), (1, 1024, 1)),
    (1, (32, 32), (1, 1, 1), (32, 32, 1)),
    (1, (4, 4, 64), (1, 1, 1), (4, 4, 64)),
])
def test_configuration_pads_dimensions_with_ones(kernel, griddim, blockdim, grid3, block3):
    launch = kernel[griddim, blockdim]
    assert launch.griddim == grid3 and launch.blockdim == block3
    assert all(type(v) is int for v in launch.griddim + launch.blockdim)
    assert callable(launch)


def test_configuration_with_stream_and_dynamic_shared_memory(kernel):
    s = cuda.stream()
    assert kernel[1, 1, s].stream is s
    launch = kernel[(2, 2), (8, 8), s, 1024]
    assert launch.stream is s and launch.sharedmem == 1024
    assert kernel[1, 1, 0, 64].sharedmem == 64
    assert kernel[1, 1, 0].griddim == (1, 1, 1)


@pytest.mark.parametrize("config, pattern", [
    ((0, 1), "griddim must be positive"),
    ((1, 0), "blockdim must be positive"),
    ((-1, 32), "griddim must be positive"),
    ((1, -32), "blockdim must be positive"),
    (((4, 0), 32), "griddim must be positive"),
    ((1, (32, 1, 0)), "blockdim must be positive"),
    ((1, 1025), "blockdim.x = 1025 exceeds"),
    ((1, (1, 1025)), "blockdim.y = 1025 exceeds"),
    ((1, (1, 1, 65)), "blockdim.z = 65 exceeds"),
    ((1, (32, 33)), "1056 threads; a block has at most 1024"),
    ((1, (16, 16, 8)), "2048 threads; a block has at most 1024"),
    ((2**31, 1), "griddim.x = 2147483648 exceeds"),
    (((1, 65536), 1), "griddim.y = 65536 exceeds"),
    (((1, 1, 65536), 1), "griddim.z = 65536 exceeds"),
    (((1, 1, 1, 1), 1), "griddim must be a sequence of 1, 2 or 3 integers"),
    ((1, (1, 1, 1, 1)), "blockdim must be a sequence of 1, 2 or 3 integers"),
    (((), 1), "griddim must be a sequence of 1, 2 or 3 integers"),
    ((None, 32), "launch configuration was not specified"),
    ((4, None), "launch configuration was not specified"),
    ((1, 1, 0, -1), "dynamic shared memory size must be >= 0"),
])
def test_invalid_configuration_raises_value_error(kernel, config, pattern):
    with pytest.raises(ValueError, match=re.escape(pattern)):
        kernel[config]


@pytest.mark.parametrize("config", [(), (1,), (1, 2, 0, 0, 0)])
def test_configuration_needs_two_to_four_items(kernel, config):
    with pytest.raises(ValueError, match="must specify at least the griddim and blockdim"):
        kernel[config]
    if len(config) == 1:
        with pytest.raises(ValueError, match="must specify at least the griddim and blockdim"):
            kernel[config[0]]


def test_non_integral_dimensions_raise_type_error(kernel):
    msg = "{} must be a sequence of integers, got [{}]"
    with pytest.raises(TypeError, match=re.escape(msg.format("griddim", 2.0))):
        kernel[2.0, 3]
    with pytest.raises(TypeError, match=re.escape(msg.format("blockdim", 3.0))):
        kernel[2, 3.0]


def test_dimensions_equal_to_an_earlier_launchs_are_checked_too(kernel):
    # kernel[1, 1] is remembered for launches in a loop; 1.0 == 1 and True == 1
    launch = kernel[1, 1]
    assert kernel[1, 1] is launch or AS_NUMBA
    with pytest.raises(TypeError, match="griddim"):
        kernel[1.0, 1]
    with pytest.raises(TypeError, match="blockdim"):
        kernel[1, True]
    with pytest.raises(TypeError, match="stream"):
        kernel[1, 1, 0.0]


def test_invalid_stream_or_shared_memory_type_raises_type_error(kernel):
    with pytest.raises(TypeError, match="stream"):
        kernel[1, 1, "default"]
    with pytest.raises(TypeError, match="stream"):
        kernel[1, 1, 5]
    with pytest.raises(TypeError, match="shared memory"):
        kernel[1, 1, 0, 1.5]


# ---------------------------------------------------------------- arguments

@pytest.mark.parametrize("bad", [[1.0, 2.0], "text", {"a": 1}, object(), b"xy"],
                         ids=["list", "str", "dict", "object", "bytes"])
def test_unsupported_argument_raises_type_error_listing_accepted_types(kernel, bad):
    with pytest.raises(TypeError) as info:
        kernel[1, 1](bad)
    msg = str(info.value)
    assert "argument 0" in msg and type(bad).__name__ in msg
    for accepted in ("NumPy arrays", "device arrays", "int", "float", "bool", "None", "tuples"):
        assert accepted in msg, msg


@pytest.mark.parametrize("good", [(1, 2), None, (numpy.zeros(2), (1.5, None))], ids=["tuple", "None", "nested"])
def test_tuples_and_none_are_kernel_arguments(kernel, good):
    kernel[1, 1](good)  # test_cuda_tuples.py checks what kernels do with them


def test_an_unsupported_item_of_a_tuple_names_the_argument_and_its_type(kernel):
    with pytest.raises(TypeError, match="argument 0 has unsupported type str"):
        kernel[1, 1]((1, "text"))


def staged_through(a, out, dtype):
    """Copies a through a local array of dtype: what dtype holds comes out."""
    staged = cuda.local.array(8, dtype)
    for i in range(a.size):
        staged[i] = a[i]
    for i in range(a.size):
        out[i] = staged[i]


@pytest.mark.parametrize("dtype", [numpy.int8, numpy.float32, numpy.dtype("uint16"), numpy.float64])
def test_a_dtype_is_a_kernel_argument(dtype):
    """A NumPy scalar type or dtype as a kernel argument: a constant of its
    type, which cuda.local.array takes, as numba-cuda passes it."""
    kernel = cuda.jit(staged_through)
    a = make_rng(seed_of("dtype argument", str(dtype))).uniform(0, 120, 8)  # (in every dtype's range)
    out = numpy.zeros(8)
    kernel[1, 1](a, out, dtype)
    numpy.testing.assert_array_equal(out, a.astype(dtype))


def test_argument_error_names_its_position():
    k = cuda.jit(lambda a, b, c: None)
    with pytest.raises(TypeError, match="argument 2 has unsupported type list"):
        k[1, 1](numpy.zeros(2), 1.0, [1])


class _GpuOnly:
    """Stands for a CuPy array or a PyTorch CUDA tensor: GPU memory."""
    __cuda_array_interface__ = dict(shape=(4,), typestr="<f8", data=(0x7f0000000000, False),
                                    strides=None, version=3, stream=None)


@pytest.mark.no_gpu
@pytest.mark.skipif(AS_NUMBA, reason="ruchey's CPU backend")
def test_gpu_memory_cannot_reach_the_cpu_backend(kernel):
    with pytest.raises(TypeError, match="argument 0 .* in a GPU's memory"):
        kernel[1, 1](_GpuOnly())
    with pytest.raises(cuda.CudaSupportError, match="CPU backend"):
        cuda.as_cuda_array(_GpuOnly())
    assert cuda.is_cuda_array(_GpuOnly())
    d = cuda.to_device(numpy.zeros(3))  # in host memory, on the CPU backend
    assert cuda.is_cuda_array(d) and not hasattr(d, "__cuda_array_interface__")


# ---------------------------------------------------------------- backend

@pytest.mark.skipif(not AS_NUMBA and cuda.is_available(), reason="a GPU is present")
def test_gpu_backend_without_a_gpu_raises_at_launch(kernel, monkeypatch):
    monkeypatch.setenv("RUCHEY_CUDA_BACKEND", "gpu")
    launch = kernel[1, 1]  # configuring is fine, launching is not
    with pytest.raises(cuda.CudaSupportError, match="no GPU can be used: .*CUDA driver"):
        launch(numpy.zeros(1))
    assert issubclass(cuda.CudaSupportError, RuntimeError)
    assert cuda.is_available() is False


def test_invalid_backend_name_raises_at_launch(kernel, monkeypatch):
    monkeypatch.setenv("RUCHEY_CUDA_BACKEND", "tpu")
    with pytest.raises(ValueError, match="RUCHEY_CUDA_BACKEND must be 'cpu' or 'gpu'"):
        kernel[1, 1](numpy.zeros(1))


@pytest.mark.no_gpu
def test_is_available_is_false_without_a_gpu(monkeypatch):
    assert cuda.is_available() is False
    monkeypatch.setenv("RUCHEY_CUDA_BACKEND", "gpu")
    assert cuda.is_available() is False


def test_is_available_with_the_cpu_backend_chosen_explicitly(monkeypatch):
    # as Numba's simulator (NUMBA_ENABLE_CUDASIM=1): kernels can run
    monkeypatch.setenv("RUCHEY_CUDA_BACKEND", "cpu")
    assert cuda.is_available() is True
    cuda.synchronize()  # nothing to wait for, with or without a GPU
    monkeypatch.setenv("RUCHEY_CUDA_BACKEND", "tpu")
    assert cuda.is_available() is (not ruchey.cuda.runtime.gpu_problem())


@pytest.mark.no_gpu
def test_detect_reports_no_devices_and_the_cpu_backend(capsys):
    assert cuda.detect() is False
    out = capsys.readouterr().out
    assert "Found 0 CUDA devices" in out
    assert f"CPU backend with {ruchey.get_num_threads()} threads" in out


@pytest.mark.no_gpu
def test_current_device_describes_the_cpu_backend():
    dev = cuda.get_current_device()
    assert dev is cuda.get_current_device()
    assert dev.id == 0
    assert dev.name.startswith("ruchey CPU backend (") and dev.name.endswith(")")
    assert dev.MAX_THREADS_PER_BLOCK == 1024
    assert (dev.MAX_BLOCK_DIM_X, dev.MAX_BLOCK_DIM_Y, dev.MAX_BLOCK_DIM_Z) == (1024, 1024, 64)
    assert dev.WARP_SIZE == 32
    assert dev.MULTIPROCESSOR_COUNT == ruchey.get_num_threads()
    assert (dev.ASYNC_ENGINE_COUNT, dev.CONCURRENT_KERNELS, dev.UNIFIED_ADDRESSING) == (1, 1, 1)
    cc = dev.compute_capability
    assert isinstance(cc, tuple) and len(cc) == 2 and all(type(v) is int for v in cc)
    assert cuda.select_device(0) is dev
    assert cuda.list_devices() == []


@pytest.mark.cpu_backend
def test_current_context_gives_the_hosts_memory_on_the_cpu_backend():
    ctx = cuda.current_context()
    assert ctx.device is cuda.get_current_device()
    free, total = ctx.get_memory_info()
    info = ctx.get_memory_info()
    assert (info.free, info.total) == (info[0], info[1])
    page = os.sysconf("SC_PAGE_SIZE")
    assert total == os.sysconf("SC_PHYS_PAGES") * page
    assert 0 < free <= total
    ctx.deallocations.clear()
    assert len(ctx.deallocations) == 0
    for deferring in (cuda.defer_cleanup(), ctx.defer_cleanup()):
        with deferring:  # arrays made and dropped inside: freed with their last reference
            d = cuda.to_device(numpy.arange(4.0))
            assert d.copy_to_host().sum() == 6.0
            del d
        assert len(ctx.deallocations) == 0
    ctx.synchronize()
    ctx.reset()
    with cuda.gpus[0]:
        assert cuda.current_context().device is cuda.get_current_device()
    assert cuda.current_context(0).device is cuda.get_current_device()
    with pytest.raises(cuda.CudaSupportError, match="no device 1"):
        cuda.current_context(1)


@pytest.mark.cpu_backend
def test_multiprocessor_count_follows_set_num_threads():
    before = ruchey.get_num_threads()
    try:
        ruchey.set_num_threads(1)
        assert cuda.get_current_device().MULTIPROCESSOR_COUNT == 1
    finally:
        ruchey.set_num_threads(before)


@pytest.mark.no_gpu
def test_sysinfo_reports_cuda_section():
    r = subprocess.run([sys.executable, "-m", "ruchey", "-s"], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    assert re.search(r"^CUDA devices\s*: none found", r.stdout, re.M), r.stdout
    m = re.search(r"kernels run on the CPU backend with (\d+) threads", r.stdout)
    assert m and int(m.group(1)) >= 1, r.stdout


def test_synchronize_and_close_are_harmless():
    assert cuda.synchronize() is None
    cuda.synchronize()


# ---------------------------------------------------------------- streams and events

def test_streams():
    s1, s2 = cuda.stream(), cuda.stream()
    assert s1 is not s2
    assert s1.synchronize() is None
    with s1.auto_synchronize():
        d = cuda.to_device(numpy.arange(4.0), stream=s1)
        assert d.copy_to_host(stream=s1).tolist() == [0.0, 1.0, 2.0, 3.0]
    assert cuda.default_stream() is cuda.default_stream()


def test_external_stream_on_the_cpu_backend_names_a_stream():
    s = cuda.external_stream(0x1234)
    assert s.handle == 0x1234 and "external stream" in repr(s)
    a = numpy.ones(8)
    d = cuda.to_device(a, stream=s)
    s.synchronize()
    assert d.copy_to_host(stream=s).tolist() == a.tolist()
    for bad in ("0x1234", -1, True, 1.5):
        with pytest.raises(TypeError, match="stream's handle"):
            cuda.external_stream(bad)


def test_stream_callback_runs():
    s = cuda.stream()
    seen = []
    s.add_callback(lambda stream, status, arg: seen.append((stream, status, arg)), "x")
    assert seen == [(s, None, "x")]


def test_events_measure_elapsed_time():
    start, end = cuda.event(), cuda.event()
    start.record()
    sum(range(1000))
    end.record()
    end.synchronize()
    assert end.query() is True
    assert cuda.event_elapsed_time(start, end) >= 0.0
    assert start.elapsed_time(end) >= 0.0


def test_unrecorded_event_has_no_elapsed_time():
    with pytest.raises(RuntimeError, match="never recorded"):
        cuda.event_elapsed_time(cuda.event(), cuda.event())


# ---------------------------------------------------------------- device arrays

def test_to_device_describes_the_array():
    host = numpy.arange(12, dtype=numpy.float32).reshape(3, 4)
    d = cuda.to_device(host)
    assert type(d).__name__ == "DeviceNDArray"
    assert cuda.is_cuda_array(d) and not cuda.is_cuda_array(host)
    assert d.shape == (3, 4) and d.size == 12 and d.ndim == 2
    assert d.dtype == numpy.float32 and d.strides == host.strides and d.nbytes == 48
    assert len(d) == 3
    assert d.is_c_contiguous() and not d.is_f_contiguous()


def test_to_device_copies():
    host = numpy.arange(10.0)
    d = cuda.to_device(host)
    host[:] = -1.0
    back = d.copy_to_host()
    numpy.testing.assert_array_equal(back, numpy.arange(10.0), strict=True)
    assert not numpy.shares_memory(back, host)
    back2 = d.copy_to_host()
    assert not numpy.shares_memory(back, back2)
    back[:] = 5.0
    numpy.testing.assert_array_equal(d.copy_to_host(), numpy.arange(10.0))


@pytest.mark.parametrize("dtype", [numpy.bool_, numpy.int8, numpy.uint16, numpy.int32,
                                   numpy.int64, numpy.uint64, numpy.float32, numpy.float64])
def test_round_trip_keeps_dtype_and_values(dtype):
    host = (numpy.arange(-50, 50) % 7).astype(dtype)
    back = cuda.to_device(host).copy_to_host()
    assert back.dtype == host.dtype
    numpy.testing.assert_array_equal(back, host, strict=True)


def test_round_trip_of_fortran_and_3d_arrays():
    f = numpy.asfortranarray(numpy.arange(30.0).reshape(5, 6))
    d = cuda.to_device(f)
    assert d.is_f_contiguous()
    numpy.testing.assert_array_equal(d.copy_to_host(), f, strict=True)
    a3 = numpy.arange(60, dtype=numpy.int64).reshape(3, 4, 5)
    numpy.testing.assert_array_equal(cuda.to_device(a3).copy_to_host(), a3, strict=True)


def test_copy_to_host_into_given_array():
    d = cuda.to_device(numpy.arange(6, dtype=numpy.int64))
    out = numpy.zeros(6, dtype=numpy.int64)
    r = d.copy_to_host(out)
    assert r is out
    numpy.testing.assert_array_equal(out, numpy.arange(6))
    out2 = numpy.zeros(6, dtype=numpy.int64)
    assert d.copy_to_host(ary=out2, stream=cuda.stream()) is out2
    numpy.testing.assert_array_equal(out2, numpy.arange(6))


def test_copy_to_host_into_incompatible_array_raises():
    d = cuda.to_device(numpy.arange(6, dtype=numpy.int64))
    with pytest.raises(TypeError, match="incompatible dtype"):
        d.copy_to_host(numpy.zeros(6, dtype=numpy.float64))
    with pytest.raises(ValueError, match="incompatible shape"):
        d.copy_to_host(numpy.zeros(7, dtype=numpy.int64))


def test_copy_to_device():
    d = cuda.device_array(5, dtype=numpy.float64)
    d.copy_to_device(numpy.arange(5.0))
    numpy.testing.assert_array_equal(d.copy_to_host(), numpy.arange(5.0))
    other = cuda.to_device(numpy.full(5, 3.0))
    d.copy_to_device(other)
    numpy.testing.assert_array_equal(d.copy_to_host(), numpy.full(5, 3.0))
    with pytest.raises(TypeError, match="incompatible dtype"):
        d.copy_to_device(numpy.arange(5, dtype=numpy.int32))
    with pytest.raises(ValueError, match="incompatible shape"):
        d.copy_to_device(numpy.arange(4.0))


def test_to_device_into_existing_array():
    d = cuda.device_array(4, dtype=numpy.int32)
    r = cuda.to_device(numpy.arange(4, dtype=numpy.int32), to=d)
    assert r is d or r is None  # numba-cuda returns ``to`` (its simulator returns None)
    numpy.testing.assert_array_equal(d.copy_to_host(), numpy.arange(4, dtype=numpy.int32))


def test_to_device_without_copy_allocates_alike():
    d = cuda.to_device(numpy.arange(8.0).reshape(2, 4), copy=False)
    assert d.shape == (2, 4) and d.dtype == numpy.float64


def test_to_device_refuses_non_contiguous_arrays():
    with pytest.raises(ValueError, match="non-contiguous"):
        cuda.to_device(numpy.arange(20.0)[::2])
    with pytest.raises(ValueError, match="non-contiguous"):
        cuda.to_device(numpy.arange(20.0).reshape(4, 5)[:, 1:3])


def test_device_array_shapes_and_orders():
    d = cuda.device_array(7)
    assert d.shape == (7,) and d.dtype == numpy.float64
    d = cuda.device_array((3, 4), dtype=numpy.int16)
    assert d.shape == (3, 4) and d.dtype == numpy.int16 and d.is_c_contiguous()
    d = cuda.device_array((3, 4), dtype=numpy.float32, order="F")
    assert d.is_f_contiguous() and not d.is_c_contiguous()
    d = cuda.device_array((2, 3), dtype=numpy.float64, strides=(8, 16))
    assert d.strides == (8, 16)
    d = cuda.device_array(shape=(2, 2), dtype=numpy.int64, stream=cuda.stream())
    assert d.shape == (2, 2)


def test_device_array_like():
    f = numpy.asfortranarray(numpy.zeros((4, 3), dtype=numpy.int32))
    d = cuda.device_array_like(f)
    assert d.shape == (4, 3) and d.dtype == numpy.int32 and d.is_f_contiguous()
    d2 = cuda.device_array_like(d)
    assert d2.shape == (4, 3) and d2.dtype == numpy.int32 and d2.is_f_contiguous()
    c = cuda.device_array_like(numpy.zeros((2, 5), dtype=numpy.uint8), stream=cuda.stream())
    assert c.shape == (2, 5) and c.is_c_contiguous()


def test_slicing_returns_device_array_views():
    host = numpy.arange(10.0)
    d = cuda.to_device(host)
    v = d[1:5]
    assert type(v) is type(d)
    assert v.shape == (4,)
    numpy.testing.assert_array_equal(v.copy_to_host(), host[1:5], strict=True)
    v[0] = 99.0  # writes through to the parent
    assert d.copy_to_host()[1] == 99.0
    assert d[3] == 3.0 and isinstance(d[3], numpy.floating)
    assert d[-1] == 9.0
    stepped = d[::3]
    numpy.testing.assert_array_equal(stepped.copy_to_host(), d.copy_to_host()[::3])


def test_slicing_2d():
    host = numpy.arange(20, dtype=numpy.int64).reshape(4, 5)
    d = cuda.to_device(host)
    row = d[2]
    assert row.shape == (5,)
    numpy.testing.assert_array_equal(row.copy_to_host(), host[2], strict=True)
    col = d[:, 1]
    assert col.shape == (4,) and not col.is_c_contiguous()
    numpy.testing.assert_array_equal(col.copy_to_host(), host[:, 1], strict=True)
    assert d[1, 3] == 8
    numpy.testing.assert_array_equal(d[1:3, 2:4].copy_to_host(), host[1:3, 2:4], strict=True)


def test_setitem():
    d = cuda.to_device(numpy.zeros(6, dtype=numpy.int64))
    d[2] = 7
    d[3:6] = numpy.array([1, 2, 3])
    d[0:2] = cuda.to_device(numpy.array([5, 6]))
    numpy.testing.assert_array_equal(d.copy_to_host(), [5, 6, 7, 1, 2, 3])


def test_transpose_reshape_ravel():
    host = numpy.arange(12.0).reshape(3, 4)
    d = cuda.to_device(host)
    numpy.testing.assert_array_equal(d.T.copy_to_host(), host.T, strict=True)
    assert d.T.strides == (24, 8)  # numba-cuda's: a C-contiguous copy, not a view
    r = d.reshape(4, 3)
    assert r.shape == (4, 3)
    numpy.testing.assert_array_equal(r.copy_to_host(), host.reshape(4, 3), strict=True)
    assert d.reshape((2, 6)).shape == (2, 6)
    numpy.testing.assert_array_equal(d.ravel().copy_to_host(), host.ravel(), strict=True)
    with pytest.raises(NotImplementedError, match="requires copying"):
        d[:, :3].reshape(9)


def test_len_of_device_arrays():
    assert len(cuda.device_array((5, 2))) == 5
    assert len(cuda.to_device(numpy.arange(3))) == 3


def test_split():
    d = cuda.to_device(numpy.arange(10))
    parts = list(d.split(4))
    assert [p.shape for p in parts] == [(4,), (4,), (2,)]
    numpy.testing.assert_array_equal(numpy.concatenate([p.copy_to_host() for p in parts]),
                                     numpy.arange(10))


def test_asarray_copies_to_host_like_numba_cuda():
    d = cuda.to_device(numpy.arange(4.0))
    h = numpy.asarray(d)
    assert type(h) is numpy.ndarray
    numpy.testing.assert_array_equal(h, numpy.arange(4.0), strict=True)
    h[:] = 0.0
    numpy.testing.assert_array_equal(d.copy_to_host(), numpy.arange(4.0))


def test_device_array_repr_and_no_arithmetic():
    d = cuda.to_device(numpy.arange(4.0))
    assert "DeviceNDArray" in repr(d) and "(4,)" in repr(d)
    with pytest.raises(TypeError):
        d + 1


def test_copies_refuse_invalid_streams():
    with pytest.raises(TypeError, match="stream"):
        cuda.to_device(numpy.arange(3), stream="s")
    with pytest.raises(TypeError, match="stream"):
        cuda.to_device(numpy.arange(3)).copy_to_host(stream=3)


def test_pinned_and_mapped_arrays_are_host_arrays():
    p = cuda.pinned_array((3, 2), dtype=numpy.int32)
    assert isinstance(p, numpy.ndarray) and p.shape == (3, 2) and p.dtype == numpy.int32
    with cuda.pinned(p):
        pass
    m = cuda.mapped_array(4, dtype=numpy.float64)
    assert m.shape == (4,)


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's message")
def test_pool_thread_id_refused_in_kernels():
    @cuda.jit
    def kernel(out):
        out[0] = ruchey.get_thread_id()

    with pytest.raises(ruchey.TypingError, match=r"get_thread_id\(\) is not available in CUDA kernels"):
        kernel[1, 1](numpy.zeros(1, dtype=numpy.int64))


@needs_ptxas
@pytest.mark.skipif(AS_NUMBA, reason="ruchey's PTX")
def test_lambdas_compile_to_ptx_under_names_ptx_takes(tmp_path):
    # a lambda's name is "<lambda>", which no PTX symbol may hold (LLVM's
    # NVPTX backend aborted the process on it): spelled "_lambda_"
    device_ptx, restype = cuda.compile_ptx(lambda x: x, "int32(int32)", device=True)
    kernel_ptx, _ = cuda.compile_ptx(lambda a: None, "void(float32[:])")
    assert restype == ruchey.types.int32
    assert re.search(r"\.func\s+\(\.param \.b32 func_retval0\) _lambda_\(", device_ptx)
    assert re.search(r"\.entry _lambda_\(", kernel_ptx)
    for ptx in (device_ptx, kernel_ptx):
        assert ptxas_errors(ptx, "sm_80", tmp_path, "lambda") == ""
    launched = cuda.jit(lambda a: None)  # (the CPU backend runs it under its own name)
    launched[1, 1](numpy.zeros(2, numpy.float32))


def scale_rows(out, x, factor):
    i, j = cuda.grid(2)
    if i < x.shape[0] and j < x.shape[1]:
        out[i, j] = x[i, j] * factor


@needs_ptxas
@pytest.mark.skipif(AS_NUMBA, reason="ruchey's PTX")
@pytest.mark.parametrize("bounds, arch, directives", [
    (128, "sm_80", [".maxntid 128, 1, 1"]),
    ((256,), "sm_80", [".maxntid 256, 1, 1"]),
    ((128, 2), "sm_80", [".maxntid 128, 1, 1", ".minnctapersm 2"]),
    ((64, 3, 4), "sm_90", [".maxntid 64, 1, 1", ".minnctapersm 3", ".maxclusterrank 4"]),
])
def test_launch_bounds_are_written_into_a_kernels_ptx(bounds, arch, directives, tmp_path):
    sig = "void(float64[:, ::1], float64[:, ::1], float64)"
    ptx, _ = cuda.compile_ptx(scale_rows, sig, launch_bounds=bounds, cc=(int(arch[3]), int(arch[4])))
    written = re.findall(r"^\.(?:maxntid|minnctapersm|maxclusterrank) .*$", ptx, re.M)
    assert written == directives
    assert ptxas_errors(ptx, arch, tmp_path, "scale_rows") == ""
    kernel = cuda.jit(launch_bounds=bounds)(scale_rows)  # the dispatcher's PTX for the GPU has them too
    x = numpy.arange(48.0).reshape(6, 8)
    out = numpy.zeros_like(x)
    kernel[(2, 2), (4, 4)](out, x, -1.5)
    numpy.testing.assert_array_equal(out, x * -1.5)
    gpu_ptx = next(iter(kernel.inspect_ptx(cc=(int(arch[3]), int(arch[4]))).values()))
    assert re.findall(r"^\.(?:maxntid|minnctapersm|maxclusterrank) .*$", gpu_ptx, re.M) == directives
    plain, _ = cuda.compile_ptx(scale_rows, sig)
    assert ".maxntid" not in plain and ".minnctapersm" not in plain


@pytest.mark.parametrize("bounds", [(128, 2, 4, 8), (0,), (64, -1), "128"])
def test_bad_launch_bounds_of_compile_ptx_are_a_value_error(bounds):
    with pytest.raises(ValueError, match="launch bounds" if not AS_NUMBA else ""):
        cuda.compile_ptx(scale_rows, "void(float64[:, ::1], float64[:, ::1], float64)", launch_bounds=bounds)


def sum_of_squares(x, y):
    return x * x + y * y


@needs_ptxas
@pytest.mark.skipif(AS_NUMBA, reason="ruchey's PTX")
def test_compile_makes_a_c_abi_device_function_named_as_asked(tmp_path):
    sig = "float32(float32, float32)"
    ptx, restype = cuda.compile(sum_of_squares, sig)  # numba-cuda's defaults: a device function, the C ABI, PTX
    assert restype == ruchey.types.float32
    assert re.search(r"\.visible\s+\.func\s+\(\.param\s+\.b32\s+func_retval0\)\s+sum_of_squares\(", ptx)
    assert ".entry" not in ptx
    named, _ = cuda.compile(sum_of_squares, sig, abi_info={"abi_name": "_Z14sum_of_squaresff"})
    assert re.search(r"\.func\s+\(\.param\s+\.b32\s+func_retval0\)\s+_Z14sum_of_squaresff\(", named)
    lam, _ = cuda.compile(lambda v: v + 1, "int64(int64)", abi_info={"abi_name": "plus_one"})
    assert re.search(r"\.func\s+\(\.param\s+\.b64\s+func_retval0\)\s+plus_one\(", lam)
    codes, restype = cuda.compile_all(sum_of_squares, sig, output="ptx")
    assert codes == [ptx] and restype == ruchey.types.float32
    kernel, restype = cuda.compile(scale_rows, "void(float64[:, ::1], float64[:, ::1], float64)", device=False,
                                   abi="numba", launch_bounds=32)
    assert restype == ruchey.types.void and ".entry scale_rows(" in kernel and ".maxntid 32, 1, 1" in kernel
    for i, code in enumerate((ptx, named, lam, kernel)):
        assert ptxas_errors(code, "sm_80", tmp_path, f"compiled{i}") == ""


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's messages")
@pytest.mark.parametrize("options, error, message", [
    (dict(output="ltoir"), NotImplementedError, "LTO-IR output needs NVIDIA's NVVM"),
    (dict(output="cubin"), NotImplementedError, "Unsupported output type: cubin"),
    (dict(abi="fastcall"), NotImplementedError, "Unsupported ABI: fastcall"),
    (dict(device=False), NotImplementedError, "The C ABI is not supported for kernels"),
    (dict(forceinline=True), ValueError, "forced inlining in LTO-IR"),
    (dict(abi_info={"abi_name": 3}), TypeError, "abi_name must be a str"),
])
def test_what_compile_cannot_make_is_refused_clearly(options, error, message):
    with pytest.raises(error, match=message):
        cuda.compile(sum_of_squares, "float32(float32, float32)", **options)
    with pytest.raises(error, match=message):
        cuda.compile_all(sum_of_squares, "float32(float32, float32)", **{"output": "ptx", **options})
@cuda.jit
def overwrite_with_index(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] = i


def test_in_out_and_inout_hints_say_which_copies_a_launch_makes():
    """cuda.In: the kernel's writes to the host array are lost; cuda.Out and
    cuda.InOut: they come back, as for a plain host array (records too)."""
    rng = make_rng(seed_of("arg hints"))
    for host in (rng.standard_normal(40), rng.integers(-5, 5, 33).astype(numpy.int16), numpy.zeros(0)):
        for hint, changed in ((cuda.In, False), (cuda.Out, True), (cuda.InOut, True), (lambda a: a, True)):
            a = host.copy()
            overwrite_with_index[2, 32](hint(a))
            numpy.testing.assert_array_equal(a, numpy.arange(a.size).astype(a.dtype) if changed else host)
    record = numpy.dtype([("b", numpy.int32)], align=True)

    @cuda.jit
    def set_b(rec):
        rec[0]["b"] = 3

    for hint, want in ((cuda.In, 0), (cuda.InOut, 3)):
        rec = numpy.zeros(1, dtype=record)
        set_b[1, 1](hint(rec))
        assert rec[0]["b"] == want
    d = cuda.to_device(numpy.zeros(4))
    overwrite_with_index[1, 4](cuda.In(d))  # a device array is used where it is
    numpy.testing.assert_array_equal(d.copy_to_host(), numpy.arange(4.0))
    assert cuda.wrap_arg(d).value is d and isinstance(cuda.wrap_arg(d), cuda.InOut)
    assert isinstance(cuda.wrap_arg(cuda.In(d), default=cuda.Out), cuda.In)


class Scaled:
    """A value a launch extension turns into an array (and back after the launch)."""

    def __init__(self, data, factor):
        self.data, self.factor = data, factor


class ScaledExtension:
    """numba-cuda's launch extension: prepare_args maps each argument; retr runs after."""

    def __init__(self):
        self.seen = []

    def prepare_args(self, ty, val, stream=0, retr=None):
        self.seen.append(ty)
        if not isinstance(val, Scaled):
            return ty, val
        scaled = val.data * val.factor
        retr.append(lambda: val.data.__setitem__(slice(None), scaled / val.factor))
        return ty, scaled


def test_launch_extensions_map_the_arguments_and_write_back_after():
    extension = ScaledExtension()

    @cuda.jit(extensions=[extension])
    def add_one(a, b):
        i = cuda.grid(1)
        if i < a.size:
            a[i] += 1 + b

    rng = make_rng(seed_of("extensions"))
    for factor in (2.0, -0.5):
        data = rng.standard_normal(20)
        want = ((data * factor) + 1 + 3) / factor
        add_one[1, 32](Scaled(data, factor), 3)
        numpy.testing.assert_allclose(data, want, rtol=1e-15)
    assert repr(extension.seen[-1]) == "int64" and extension.seen[0] is None  # typeof, or None where none
    plain = cuda.jit(add_one.py_func)
    plain.extensions.append(extension)  # added afterwards, as numba-cuda's list
    data = numpy.zeros(4)
    plain[1, 4](Scaled(data, 4.0), 0)
    numpy.testing.assert_array_equal(data, 0.25)


def test_cuda_literal_unroll_is_ruchey_literal_unroll_in_kernels():
    import ruchey
    assert cuda.literal_unroll is ruchey.literal_unroll

    @cuda.jit
    def weighted(out, parts):
        i = cuda.grid(1)
        if i < out.size:
            s = 0.0
            for p in cuda.literal_unroll(parts):  # an int, a float, an array: one body each
                s += p * (i + 1) if not hasattr(p, "shape") else p[i]
            out[i] = s

    x = make_rng(seed_of("literal_unroll")).standard_normal(9)
    out = numpy.zeros(9)
    weighted[1, 16](out, (2, -0.5, x))
    numpy.testing.assert_array_equal(out, [2 * (i + 1) + -0.5 * (i + 1) + x[i] for i in range(9)])
