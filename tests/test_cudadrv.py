"""The GPU backend's driver layer (core/cudadrv.c) against a fake CUDA driver.

tests/c/fakecuda.c is built into a shared library and loaded in place of
libcuda.so.1 (RUCHEY_CUDA_DRIVER), in a fresh interpreter per test so that
this process keeps its own backend. The fake has one device, keeps "device"
memory in host memory and records every launch with its parameters' bytes,
so argument packing is checked exactly: pointers equal the device
allocations, shapes and strides (in bytes) follow C, Fortran and strided
layouts, scalars have their type's size and value. Its kernel named
fake_double doubles a float64 vector, so results can be followed end to end.
"""
import os
import shutil
import subprocess
import textwrap

import pytest

from conftest import AS_NUMBA, TESTS_DIR, run_python_file

pytestmark = pytest.mark.skipif(AS_NUMBA or not shutil.which("cc"),
                                reason="ruchey's driver layer, tested with a C compiler")

PRELUDE = """
import ctypes, os, struct
import numpy
from ruchey import cuda

DRIVER = os.environ["RUCHEY_CUDA_DRIVER"]
fake = ctypes.CDLL(DRIVER) if os.path.exists(DRIVER) else None


def launch(i):
    name = ctypes.create_string_buffer(128)
    grid, block = (ctypes.c_uint * 3)(), (ctypes.c_uint * 3)()
    shared, stream = ctypes.c_uint(), ctypes.c_uint64()
    assert fake.fake_launch_info(i, name, 128, grid, block, ctypes.byref(shared),
                                 ctypes.byref(stream)) == 0
    sizes, raw = (ctypes.c_int * 128)(), (ctypes.c_ubyte * 1024)()
    n = fake.fake_launch_params(i, sizes, raw)
    params, off = [], 0
    for size in sizes[:n]:
        params.append(bytes(raw[off:off + size]))
        off += size
    return dict(name=name.value.decode(), grid=tuple(grid), block=tuple(block),
                shared=shared.value, stream=stream.value, params=params)


def u64(b):
    return struct.unpack("<Q", b)[0]


def i64(b):
    return struct.unpack("<q", b)[0]


def address(d):
    return d.device_ctypes_pointer.value


def raised(error, call, what):  # the error call() raises; AssertionError(what) if none
    try:
        call()
    except error as exc:
        return exc
    raise AssertionError(what)


@cuda.jit
def fake_double(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] *= 2
"""


@pytest.fixture(scope="module")
def fake_driver(tmp_path_factory):
    out = str(tmp_path_factory.mktemp("fakecuda") / "fakecuda.so")
    subprocess.run(["cc", "-std=c11", "-O1", "-shared", "-fPIC",
                    os.path.join(TESTS_DIR, "c", "fakecuda.c"), "-o", out], check=True,
                   env={k: v for k, v in os.environ.items() if k != "LD_PRELOAD"})  # not the leak checker's
    return out


@pytest.fixture(scope="module")
def fake_nvrtc(tmp_path_factory):
    out = str(tmp_path_factory.mktemp("fakenvrtc") / "fakenvrtc.so")
    subprocess.run(["cc", "-std=c11", "-O1", "-shared", "-fPIC",
                    os.path.join(TESTS_DIR, "c", "fakenvrtc.c"), "-o", out], check=True,
                   env={k: v for k, v in os.environ.items() if k != "LD_PRELOAD"})
    return out


@pytest.fixture
def on_fake(fake_driver, tmp_path, monkeypatch):
    """Runs code (after PRELUDE) with the fake driver; returns its output."""
    def run(code, **env):
        monkeypatch.setenv("RUCHEY_CUDA_DRIVER", fake_driver)
        monkeypatch.delenv("RUCHEY_CUDA_BACKEND", raising=False)
        for key, value in env.items():
            monkeypatch.setenv(key, value)
        r = run_python_file(PRELUDE + textwrap.dedent(code), tmp_path)
        assert r.returncode == 0, r.stdout + r.stderr
        return r.stdout
    return run


# ---------------------------------------------------------------- devices

def test_detect_and_current_device_describe_the_gpu(on_fake):
    out = on_fake("""
        assert cuda.is_available() and cuda.detect() is True
        dev = cuda.get_current_device()
        assert dev.name == "ruchey fake GPU" and dev.id == 0
        assert dev.compute_capability == (9, 0)
        assert dev.MULTIPROCESSOR_COUNT == 132 and dev.total_memory == 80 << 30
        assert dev.MAX_THREADS_PER_BLOCK == 1024 and dev.WARP_SIZE == 32
        assert (dev.ASYNC_ENGINE_COUNT, dev.CONCURRENT_KERNELS, dev.UNIFIED_ADDRESSING) == (3, 1, 1)
        assert dev.supports_float16 and not dev.supports_bfloat16 and not dev.supports_fp8
        assert cuda.list_devices()[0] is dev and cuda.select_device(0) is dev
        ptx, _ = cuda.compile_ptx_for_current_device(fake_double.py_func, "void(float64[::1])")
        assert ".target sm_90" in ptx
    """)
    assert "Found 1 CUDA devices" in out and "'ruchey fake GPU'" in out
    assert "Compute Capability: 9.0" in out and "Multiprocessors: 132" in out
    assert "80.0 GiB" in out and "Kernels run on the GPU: device 0, ruchey fake GPU" in out


def test_gpus_select_their_device_and_the_profiler_is_optional(on_fake):
    on_fake("""
        assert len(cuda.gpus) == 1 and cuda.gpus[0] is cuda.get_current_device()
        with cuda.gpus[0] as gpu:
            assert gpu.name == "ruchey fake GPU" and cuda.gpus.current is gpu
        cuda.profile_start()  # the fake has no cuProfilerStart: nothing to do
        cuda.profile_stop()
    """)


def test_sysinfo_lists_the_gpu(on_fake, tmp_path):
    on_fake("""
        from ruchey.__main__ import system_report
        report = system_report()
        assert "CUDA devices : 1 found" in report, report
        assert "kernels run on the GPU" in report, report
    """)


# ---------------------------------------------------------------- argument packing

def test_arrays_are_passed_as_pointer_shape_and_strides_in_bytes(on_fake):
    on_fake("""
        @cuda.jit
        def three(c, f, s):
            pass

        c = cuda.to_device(numpy.zeros((3, 5)))
        f = cuda.to_device(numpy.asfortranarray(numpy.zeros((4, 6), dtype=numpy.float32)))
        base = cuda.to_device(numpy.arange(20, dtype=numpy.int32))
        s = base[3::4]
        three[1, 1](c, f, s)
        p = launch(0)["params"]
        assert [len(b) for b in p] == [8] * 13
        assert u64(p[0]) == address(c) and [i64(b) for b in p[1:5]] == [3, 5, 40, 8]
        assert u64(p[5]) == address(f) and [i64(b) for b in p[6:10]] == [4, 6, 4, 16]
        assert u64(p[10]) == address(base) + 12 and [i64(b) for b in p[11:13]] == [5, 16]
        assert address(s) == address(base) + 12
    """)


def test_a_kernel_of_one_signature_takes_another_dtypes_device_array_where_it_is(on_fake):
    """numba-cuda's launch of a kernel of one signature: a float64 device array is
    passed for a float32 parameter as it is (its address and shape; its byte strides
    for an "A" parameter, a C one's read as float32's), not refused nor copied."""
    on_fake("""
        @cuda.jit("void(float32[:, :], float32[:, ::1])")
        def two(a, c):
            pass

        a, c = cuda.to_device(numpy.zeros((3, 5))), cuda.to_device(numpy.zeros((2, 4)))
        two[1, 1](a, c)
        p = launch(0)["params"]
        assert u64(p[0]) == address(a) and [i64(b) for b in p[1:5]] == [3, 5, 40, 8]
        assert u64(p[5]) == address(c) and [i64(b) for b in p[6:10]] == [2, 4, 16, 4]
    """)


def test_a_dtype_kernel_argument_is_no_parameter_of_a_gpu_launch(on_fake):
    """numba-cuda's kernel taking a dtype (np.float32, np.dtype("int16"), in a tuple
    too): compiled for it, launched with the other arguments' parameters alone, as
    the PTX has none for it."""
    on_fake("""
        @cuda.jit
        def staged(out, dtype, pair):
            tmp = cuda.local.array(2, dtype)
            tmp[0] = pair[0]
            out[0] = tmp[0]

        out = cuda.device_array(2)
        staged[1, 1](out, numpy.float32, (7, numpy.dtype("int16")))
        staged[1, 1](out, numpy.dtype("int16"), (8, numpy.float64))
        for n in range(2):
            p = launch(n)["params"]
            assert [len(b) for b in p] == [8] * 4
            assert u64(p[0]) == address(out) and [i64(b) for b in p[1:3]] == [2, 8] and i64(p[3]) == 7 + n
        assert len(staged.signatures) == 2
        ptx = staged.inspect_asm(staged.signatures[0])
        import re
        assert len(re.findall(r"^\\s*\\.param ", ptx, re.M)) == 4, ptx
    """)


def test_a_gpu_print_of_more_than_32_values_warns_at_its_launch(on_fake):
    """CUDA's printf formats 32 values at most: a kernel printing 33 prints its
    format string on the GPU, and its launch warns, as numba-cuda's."""
    items = ", ".join(f"r[{i}]" for i in range(33))
    out = on_fake(f"""
        import warnings

        @cuda.jit
        def rows(r):
            print({items})

        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            rows[1, 1](cuda.to_device(numpy.arange(33)))
        print([str(w.message) for w in caught])
        assert launch(0)["name"] == "rows"
    """)
    assert "CUDA print() cannot print more than 32 items. The raw format string will be emitted by the kernel " \
        "instead." in out


def test_scalars_are_passed_at_their_types_size(on_fake):
    on_fake("""
        @cuda.jit
        def scalars(out, b, i8, i16, i32, i64, u8, u16, u32, u64, f32, f64):
            pass

        out = cuda.device_array(1)
        values = (True, numpy.int8(-3), numpy.int16(-300), numpy.int32(-70000), -2**40,
                  numpy.uint8(250), numpy.uint16(65000), numpy.uint32(4000000000),
                  numpy.uint64(2**63 + 5), numpy.float32(1.5), 2.25)
        scalars[1, 1](out, *values)
        p = launch(0)["params"]
        assert [len(b) for b in p] == [8, 8, 8, 1, 1, 2, 4, 8, 1, 2, 4, 8, 4, 8]
        got = [struct.unpack("<" + f, b)[0] for f, b in zip("?bhiqBHIQfd", p[3:])]
        assert got == [True, -3, -300, -70000, -2**40, 250, 65000, 4000000000, 2**63 + 5, 1.5, 2.25]
    """)


def test_launch_configuration_reaches_the_driver(on_fake):
    on_fake("""
        d = cuda.to_device(numpy.ones(8))
        s = cuda.stream()
        fake_double[(3, 2), (4, 5, 6), s, 256](d)
        fake_double[7, 32](d)
        first, second = launch(0), launch(1)
        assert first["name"] == "fake_double"
        assert first["grid"] == (3, 2, 1) and first["block"] == (4, 5, 6)
        assert first["shared"] == 256 and first["stream"] == s.handle != 0
        assert second["grid"] == (7, 1, 1) and second["stream"] == 0 and second["shared"] == 0
        assert d.copy_to_host().tolist() == [4.0] * 8
    """)


def test_a_kernel_is_loaded_once_per_signature(on_fake):
    on_fake("""
        d = cuda.to_device(numpy.ones(8))
        for _ in range(3):
            fake_double[1, 8](d)
        assert fake.fake_live_modules() == 1 and fake.fake_launches() == 3
        fake_double[1, 8](cuda.to_device(numpy.ones(8, dtype=numpy.float32)))
        assert fake.fake_live_modules() == 2
        assert len(fake_double.signatures) == 2
    """)


def test_unsupported_arguments_of_a_gpu_launch_raise_type_error(on_fake):
    on_fake("""
        class Impostor:  # looks like a device array, owns no device memory
            _mem = 1
            _ary = numpy.ones(8)

        for bad in ([1.0], ("x",), "x", Impostor()):
            exc = raised(TypeError, lambda: fake_double[1, 8](bad), f"{bad!r} was launched")
            assert "argument 0 has unsupported type" in str(exc), exc
        assert fake.fake_launches() == 0
    """)


def test_dynamic_shared_memory_beyond_48_kib_opts_in(on_fake):
    on_fake("""
        d = cuda.to_device(numpy.ones(8))
        fake_double[1, 8, 0, 49152](d)
        fake_double[1, 8, 0, 100 * 1024](d)  # the fake refuses this without the opt-in
        assert launch(1)["shared"] == 100 * 1024
        exc = raised(cuda.CudaError, lambda: fake_double[1, 8, 0, 300 * 1024](d),
                     "300 KiB of shared memory was launched")
        assert "307200 bytes of dynamic shared memory" in str(exc), exc
        assert "at most 232448 bytes" in str(exc), exc
        assert fake.fake_launches() == 2
    """)


def test_a_kernel_that_waits_for_its_grid_is_launched_cooperatively(on_fake):
    on_fake("""
        from ruchey import int64

        @cuda.jit
        def rounds(a):
            g = cuda.cg.this_grid()
            for r in range(3):
                a[cuda.grid(1)] += 1
                g.sync()

        d = cuda.to_device(numpy.zeros(64, dtype=numpy.int64))
        fake_double[1, 8](cuda.to_device(numpy.ones(8)))
        rounds[2, 32](d)
        assert fake.fake_launch_cooperative(0) == 0 and fake.fake_launch_cooperative(1) == 1
        # the fake fits 2048 threads on each of its 132 multiprocessors
        assert rounds.max_cooperative_grid_blocks(256) == 8 * 132
        assert rounds.overloads[(int64[::1],)].max_cooperative_grid_blocks((16, 4)) == 32 * 132
        exc = raised(cuda.CudaError, lambda: rounds[8 * 132 + 1, 256](d), "a grid too large ran")
        assert "cuLaunchCooperativeKernel" in str(exc), exc
        assert "CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE" in str(exc), exc
        assert fake.fake_launches() == 2
    """)


def test_a_kernel_taking_its_grid_group_is_launched_cooperatively(on_fake):
    on_fake("""
        @cuda.jit
        def grid_alone(a):
            cuda.cg.this_grid()
            a[cuda.grid(1)] = 1

        @cuda.jit
        def no_grid(a):
            a[cuda.grid(1)] = 1

        d = cuda.to_device(numpy.zeros(64, dtype=numpy.int64))
        no_grid[2, 32](d)
        grid_alone[2, 32](d)
        assert fake.fake_launch_cooperative(0) == 0 and fake.fake_launch_cooperative(1) == 1
    """)


# ---------------------------------------------------------------- CUDA Array Interface

def test_gpu_arrays_expose_the_cuda_array_interface(on_fake):
    on_fake("""
        d = cuda.to_device(numpy.arange(12.0).reshape(3, 4))
        desc = d.__cuda_array_interface__
        assert desc["shape"] == (3, 4) and desc["typestr"] == "<f8" and desc["version"] == 3
        assert desc["strides"] is None and desc["data"] == (address(d), False)
        assert desc["stream"] == 1  # the legacy default stream
        t = d[:, ::2].__cuda_array_interface__
        assert t["strides"] == (32, 16) and t["data"][0] == address(d)
        s = cuda.stream()
        assert cuda.device_array(4, stream=s).__cuda_array_interface__["stream"] == s.handle
        assert cuda.is_cuda_array(d)
    """)


def test_foreign_gpu_arrays_are_used_in_place(on_fake):
    on_fake("""
        import gc, weakref

        class Foreign:  # another library's GPU array, as CuPy or PyTorch show it
            def __init__(self, dev):
                self.dev = dev
                self.__cuda_array_interface__ = dict(dev.__cuda_array_interface__, stream=None)

        original = cuda.to_device(numpy.arange(8.0))
        foreign = Foreign(original)
        assert cuda.is_cuda_array(foreign)
        view = cuda.as_cuda_array(foreign)
        assert address(view) == address(original) and view.shape == (8,)
        fake_double[1, 8](foreign)  # launched on the memory itself
        fake_double[1, 8](view)
        assert (original.copy_to_host() == numpy.arange(8.0) * 4).all()
        # the view keeps the foreign owner alive, and frees nothing itself
        allocations = fake.fake_live_allocations()
        alive = weakref.ref(foreign)
        del foreign
        gc.collect()
        assert alive() is not None
        del view
        gc.collect()
        assert alive() is None and fake.fake_live_allocations() == allocations

        strided = cuda.from_cuda_array_interface(
            dict(shape=(2,), typestr="<f8", data=(address(original) + 8, False), strides=(32,),
                 version=3, stream=None), owner=original)
        assert (strided.copy_to_host() == [4.0, 20.0]).all()
    """)


def test_bad_cuda_array_interfaces_raise(on_fake):
    on_fake("""
        base = cuda.to_device(numpy.zeros(4))
        desc = dict(base.__cuda_array_interface__)
        for change, error in ((dict(stream=0), ValueError), (dict(strides=(-8,)), ValueError),
                              (dict(mask=object()), NotImplementedError)):
            raised(error, lambda: cuda.from_cuda_array_interface(dict(desc, **change), owner=base),
                   f"{change} was accepted")
        exc = raised(TypeError, lambda: cuda.as_cuda_array(numpy.zeros(3)),
                     "a host array was taken for a GPU array")
        assert "__cuda_array_interface__" in str(exc)
    """)


def test_kernels_launched_on_the_gpu_show_their_ptx(on_fake):
    on_fake("""
        fake_double[1, 8](cuda.to_device(numpy.ones(8)))
        ptx = fake_double.inspect_ptx(cc=(9, 0))
        assert len(ptx) == 1, ptx.keys()
        assert ".target sm_90" in list(ptx.values())[0]
        assert len(fake_double.inspect_llvm()) == 1
    """)


def test_kernels_calling_device_functions_load_on_the_gpu(on_fake):
    on_fake("""
        @cuda.jit(device=True)
        def twice(v):
            return v * 2

        @cuda.jit
        def apply(a):
            i = cuda.grid(1)
            if i < a.size:
                a[i] = twice(a[i])

        apply[1, 8](cuda.device_array(8))
        assert launch(0)["name"] == "apply"
    """)


# ---------------------------------------------------------------- memory

def test_host_arrays_are_copied_in_and_back(on_fake):
    on_fake("""
        x = numpy.arange(10.0)
        fake_double[1, 32](x)
        assert x.tolist() == [2.0 * i for i in range(10)]
        y = numpy.arange(12.0)
        fake_double[1, 32](y[::3])  # a strided host view goes through a contiguous copy
        assert y.tolist() == [2.0 * i if i % 3 == 0 else i for i in range(12)]
        assert i64(launch(1)["params"][2]) == 8
        assert fake.fake_live_allocations() == 0
    """)


def test_current_context_gives_the_drivers_memory_info(on_fake):
    on_fake("""
        free, total = cuda.current_context().get_memory_info()
        assert total == 80 << 30 and free == total
        d = cuda.device_array(1000)
        info = cuda.current_context().get_memory_info()
        assert info.total == total and info.free < total
        assert cuda.current_context().device is cuda.get_current_device()
    """)


def test_device_arrays_round_trip_and_free_their_memory(on_fake):
    on_fake("""
        import gc
        host = numpy.arange(24.0).reshape(2, 3, 4)
        d = cuda.to_device(host)
        f = cuda.to_device(numpy.asfortranarray(host[0]))
        assert fake.fake_live_allocations() == 2
        assert (d.copy_to_host() == host).all() and (f.copy_to_host() == host[0]).all()
        assert f.copy_to_host().flags.f_contiguous
        assert (d[1, :, 1:3].copy_to_host() == host[1, :, 1:3]).all()
        assert d[1, 2, 3] == 23.0 and (d[:, ::2, 1:].copy_to_host() == host[:, ::2, 1:]).all()
        d[0, 1] = -1.0
        d[1, :, ::2] = numpy.zeros((3, 2))
        expected = host.copy()
        expected[0, 1] = -1.0
        expected[1, :, ::2] = 0
        assert (d.copy_to_host() == expected).all()
        assert (numpy.asarray(d.reshape(6, 4)) == expected.reshape(6, 4)).all()
        raised(NotImplementedError, lambda: d[:, 1].reshape(8),
               "reshaping a strided device view needs a copy")
        view = d[1]
        del d
        gc.collect()
        assert fake.fake_live_allocations() == 2  # the view keeps the memory
        assert (view.copy_to_host() == expected[1]).all()
        del view, f
        gc.collect()
        assert fake.fake_live_allocations() == 0
        e = cuda.device_array((0, 3))
        assert e.copy_to_host().shape == (0, 3)
        c = cuda.device_array_like(numpy.zeros((2, 2), order="F"))
        assert c.is_f_contiguous()
        c.copy_to_device(numpy.ones((2, 2)))
        d2 = cuda.to_device(numpy.zeros((2, 2)))
        d2.copy_to_device(c)
        assert d2.copy_to_host().tolist() == [[1.0, 1.0], [1.0, 1.0]]
    """)


# ---------------------------------------------------------------- streams and events

def test_streams_and_events_are_the_drivers(on_fake):
    on_fake("""
        import gc
        s = cuda.stream()
        start, end = cuda.event(), cuda.event()
        start.record(s)
        fake_double[1, 8, s](cuda.to_device(numpy.ones(8), stream=s))
        end.record(s)
        end.synchronize()
        s.synchronize()
        assert end.query() is True and cuda.event_elapsed_time(start, end) >= 0.0
        end.wait(s)
        assert fake.fake_live_streams() == 1 and fake.fake_live_events() == 2
        quiet = cuda.event(timing=False)
        quiet.record()
        raised(RuntimeError, lambda: cuda.event_elapsed_time(start, quiet),
               "an event without timing has no elapsed time")
        cuda.synchronize()
        del s, start, end, quiet
        gc.collect()
        assert fake.fake_live_streams() == 0 and fake.fake_live_events() == 0
    """)


# ---------------------------------------------------------------- errors and the backend choice

def test_the_jit_log_of_a_failed_module_load_is_in_the_error(on_fake):
    on_fake("""
        fake.fake_fail_module_loads(b"ptxas fatal : Unresolved extern function 'nope'")
        msg = str(raised(cuda.CudaError, lambda: fake_double[1, 8](numpy.ones(8)),
                         "the module load should fail"))
        assert "kernel 'fake_double'" in msg and "CUDA_ERROR_INVALID_PTX" in msg, msg
        assert "Unresolved extern function 'nope'" in msg, msg
        fake.fake_fail_module_loads(None)
        x = numpy.ones(8)
        fake_double[1, 8](x)  # a later launch compiles and loads again
        assert x.tolist() == [2.0] * 8
    """)


def test_without_a_driver_kernels_run_on_the_cpu(on_fake):
    on_fake("""
        assert not cuda.is_available() and cuda.list_devices() == []
        x = numpy.arange(4.0)
        fake_double[1, 8](x)
        assert x.tolist() == [0.0, 2.0, 4.0, 6.0]
        assert not cuda.to_device(x).on_gpu
        os.environ["RUCHEY_CUDA_BACKEND"] = "gpu"
        exc = raised(cuda.CudaSupportError, lambda: fake_double[1, 8](x),
                     "RUCHEY_CUDA_BACKEND=gpu without a driver must raise")
        assert "cannot be loaded" in str(exc), exc
    """, RUCHEY_CUDA_DRIVER="/nonexistent/libcuda.so.1")


def test_a_driver_without_a_device_means_the_cpu_backend(on_fake):
    on_fake("""
        assert not cuda.is_available()
        x = numpy.arange(4.0)
        fake_double[1, 8](x)
        assert x.tolist() == [0.0, 2.0, 4.0, 6.0] and fake.fake_launches() == 0
        os.environ["RUCHEY_CUDA_BACKEND"] = "gpu"
        exc = raised(cuda.CudaSupportError, lambda: cuda.to_device(x),
                     "RUCHEY_CUDA_BACKEND=gpu without a device must raise")
        assert "did not start" in str(exc), exc
    """, FAKECUDA_NO_DEVICE="1")


def test_backend_cpu_keeps_kernels_off_the_gpu(on_fake):
    on_fake("""
        x = numpy.arange(4.0)
        fake_double[1, 8](x)
        d = cuda.to_device(x)
        assert not d.on_gpu and cuda.get_current_device().name.startswith("ruchey CPU backend")
        assert x.tolist() == [0.0, 2.0, 4.0, 6.0] and fake.fake_launches() == 0
    """, RUCHEY_CUDA_BACKEND="cpu")


def test_arrays_follow_a_launch_to_the_other_backend(on_fake):
    on_fake("""
        d = cuda.to_device(numpy.arange(4.0))
        assert d.on_gpu
        os.environ["RUCHEY_CUDA_BACKEND"] = "cpu"
        fake_double[1, 8](d)  # runs on the CPU backend: copied out of the GPU and back
        assert fake.fake_launches() == 0 and d.copy_to_host().tolist() == [0.0, 2.0, 4.0, 6.0]
        c = cuda.to_device(numpy.arange(4.0))
        del os.environ["RUCHEY_CUDA_BACKEND"]
        fake_double[1, 8](c)  # made on the CPU backend, launched on the GPU
        assert fake.fake_launches() == 1 and c.copy_to_host().tolist() == [0.0, 2.0, 4.0, 6.0]
    """)


def test_debug_kernels_run_on_the_cpu_backend(on_fake):
    on_fake("""
        @cuda.jit(debug=True)
        def oob(a):
            a[cuda.grid(1)] = 1.0

        exc = raised(IndexError, lambda: oob[1, 8](cuda.to_device(numpy.zeros(4))),
                     "debug=True reports the index error")
        assert "thread" in str(exc) and "block" in str(exc), exc
        assert fake.fake_launches() == 0
    """)


# ---------------------------------------------------------------- bench/gpu_check.sh's comparison

COMPARED = """
import numpy
from ruchey import cuda


@cuda.jit
def fake_double(a):  # the fake driver runs this one
    i = cuda.grid(1)
    if i < a.size:
        a[i] *= 2


@cuda.jit
def add_one(a):  # and not this one
    i = cuda.grid(1)
    if i < a.size:
        a[i] += 1


def test_agrees():
    fake_double[1, 32](numpy.arange(10.0))


def test_disagrees():
    add_one[1, 32](cuda.to_device(numpy.arange(10.0)))
"""


def test_compare_mode_runs_each_gpu_launch_on_the_cpu_backend_too(fake_driver, tmp_path):
    import sys
    (tmp_path / "test_compared.py").write_text(COMPARED)
    env = dict(os.environ, RUCHEY_CUDA_DRIVER=fake_driver, RUCHEY_CUDA_COMPARE="1",
               PYTHONPATH=os.pathsep.join([TESTS_DIR] + [p for p in sys.path if p]))
    env.pop("RUCHEY_CUDA_BACKEND", None)
    r = subprocess.run([sys.executable, "-m", "pytest", "-p", "conftest", "-q", "-p",
                        "no:cacheprovider", str(tmp_path / "test_compared.py")],
                       capture_output=True, text=True, env=env, cwd=str(tmp_path), timeout=300)
    assert "1 failed, 1 passed" in r.stdout, r.stdout + r.stderr
    assert "add_one: argument 0 on the GPU vs the CPU backend" in r.stdout, r.stdout


# ---------------------------------------------------------------- raw CUDA C kernels (fake NVRTC)

RAW_PRELUDE = '''
nvrtc = ctypes.CDLL(os.environ["RUCHEY_NVRTC"])
nvrtc.fake_nvrtc_options.restype = ctypes.c_char_p
SOURCE = """
__global__ void scale(float *a, float s, int n) {
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i < n) a[i] *= s;
}
__global__ void mix(double *out, long n, double w, unsigned short k, char c) { }
"""
'''


def test_a_source_modules_kernel_launches_with_its_parameters_packed(on_fake, fake_nvrtc):
    on_fake(RAW_PRELUDE + """
mod = cuda.SourceModule(SOURCE)
assert "--gpu-architecture=compute_90" in nvrtc.fake_nvrtc_options().decode()
scale, mix = mod.get_function("scale"), mod.get_function("mix")
assert scale.params == ["u64", "f32", "u32"] and mix.params == ["u64", "u64", "f64", "u16", "u8"]
d = cuda.to_device(numpy.ones(8, dtype=numpy.float32))
s = cuda.stream()
scale(d, numpy.float32(2.5), numpy.int32(8), block=(128, 1, 1), grid=(3, 2), shared=64, stream=s)
first = launch(0)
assert first["name"] == "scale" and first["grid"] == (3, 2, 1) and first["block"] == (128, 1, 1)
assert first["shared"] == 64 and first["stream"] == s.handle
assert u64(first["params"][0]) == address(d)
assert struct.unpack("<f", first["params"][1])[0] == 2.5
assert struct.unpack("<i", first["params"][2])[0] == 8
host = numpy.zeros(4)
mix(host, 7, 0.25, 65535, -3)  # a host array is copied in and back; Python numbers take the types
p = launch(1)["params"]
assert i64(p[1]) == 7 and struct.unpack("<d", p[2])[0] == 0.25
assert struct.unpack("<H", p[3])[0] == 65535 and struct.unpack("<b", p[4])[0] == -3
assert fake.fake_launches() == 2 and nvrtc.fake_nvrtc_compiles() == 1
cuda.SourceModule(SOURCE)  # compiled once per source, options and device
assert nvrtc.fake_nvrtc_compiles() == 1
""", RUCHEY_NVRTC=fake_nvrtc)


def test_raw_kernel_is_called_as_cupy_calls_it(on_fake, fake_nvrtc):
    on_fake(RAW_PRELUDE + """
k = cuda.RawKernel('extern "C" ' + SOURCE.strip(), "scale")
d = cuda.to_device(numpy.ones(8, dtype=numpy.float32))
k((4,), (32,), (d, numpy.float32(3), numpy.int32(8)), shared_mem=16)
assert launch(0)["grid"] == (4, 1, 1) and launch(0)["block"] == (32, 1, 1)
assert launch(0)["shared"] == 16
mangled = cuda.RawKernel(SOURCE, "scale")  # no extern "C": the name is C++'s
raised(LookupError, lambda: mangled((1,), (1,), (d, numpy.float32(1), numpy.int32(1))),
       "a mangled kernel was found by its plain name")
""", RUCHEY_NVRTC=fake_nvrtc)


def test_raw_kernel_errors_are_python_exceptions(on_fake, fake_nvrtc):
    on_fake(RAW_PRELUDE + """
exc = raised(cuda.CompileError, lambda: cuda.SourceModule("#error no way" + chr(10) + SOURCE),
             "an #error compiled")
assert "NVRTC_ERROR_COMPILATION" in str(exc) and "kernel.cu(2): error" in exc.log, exc
scale = cuda.SourceModule(SOURCE).get_function("scale")
d = cuda.to_device(numpy.ones(2, dtype=numpy.float32))
exc = raised(TypeError, lambda: scale(d, numpy.float64(2), numpy.int32(2)), "8 bytes went to a float")
assert "takes 4" in str(exc), exc
raised(TypeError, lambda: scale(d, 2.0), "two arguments for three parameters")
raised(TypeError, lambda: scale(d, "x", 2), "a string was passed")
raised(LookupError, lambda: cuda.SourceModule(SOURCE).get_function("nope"), "found nope")
""", RUCHEY_NVRTC=fake_nvrtc)


def test_without_nvrtc_raw_kernels_say_how_to_get_it(on_fake, tmp_path):
    on_fake("""
exc = raised(cuda.CudaSupportError, lambda: cuda.SourceModule("__global__ void k() {}"),
             "compiled without NVRTC")
assert "pip install nvidia-cuda-nvrtc" in str(exc), exc
""", RUCHEY_NVRTC=str(tmp_path / "no-such-libnvrtc.so"))


# ---------------------------------------------------------------- host memory and streams

def test_pinned_memory_and_copies_on_a_stream_are_the_drivers(on_fake):
    on_fake("""
import gc
fake.fake_live_host_allocations.restype = ctypes.c_long
fake.fake_async_copies.restype = ctypes.c_long
pinned = cuda.pinned_array((4, 3), dtype=numpy.float32)
assert fake.fake_live_host_allocations() == 1 and pinned.shape == (4, 3)
pinned[...] = numpy.arange(12, dtype=numpy.float32).reshape(4, 3)
s = cuda.stream()
d = cuda.to_device(pinned, stream=s)           # queued on s
back = cuda.pinned_array_like(pinned)
d.copy_to_host(back, stream=s)                 # queued on s: returns at once on a GPU
s.synchronize()
numpy.testing.assert_array_equal(back, pinned)
d.copy_to_device(back * 2, stream=s)
assert fake.fake_async_copies() == 3
numpy.testing.assert_array_equal(d.copy_to_host(), pinned * 2)  # the default stream: waits
assert fake.fake_async_copies() == 3
del pinned, back
gc.collect()
assert fake.fake_live_host_allocations() == 0
""")


def test_mapped_and_managed_arrays_are_passed_where_they_are(on_fake):
    on_fake("""
import gc
fake.fake_live_host_allocations.restype = ctypes.c_long
mapped = cuda.mapped_array(8, dtype=numpy.float64)
managed = cuda.managed_array(8, dtype=numpy.float64)
mapped[:] = 1.0
managed[:] = 2.0
assert isinstance(mapped, numpy.ndarray) and isinstance(managed, numpy.ndarray)
live = fake.fake_live_allocations()
fake_double[1, 8](mapped)
fake_double[1, 8](managed)
assert u64(launch(0)["params"][0]) == mapped.__cuda_array_interface__["data"][0]
assert u64(launch(1)["params"][0]) == managed.__cuda_array_interface__["data"][0]
assert fake.fake_live_allocations() == live  # nothing was copied to the device
numpy.testing.assert_array_equal(mapped, 2.0)  # the fake ran fake_double in place
numpy.testing.assert_array_equal(managed, 4.0)
del mapped, managed
gc.collect()
assert fake.fake_live_host_allocations() == 0
""")


def test_cuda_mapped_maps_host_arrays_into_the_gpus_memory_for_the_context(on_fake):
    on_fake("""
        fake.fake_live_host_allocations.restype = ctypes.c_long
        host, other = numpy.ones(8), numpy.arange(8.0)
        with cuda.mapped(host) as d:
            assert d.on_gpu and d.shape == (8,) and fake.fake_live_host_allocations() == 1
            assert address(d) == host.ctypes.data and d.__cuda_array_interface__["data"][0] == host.ctypes.data
            live = fake.fake_live_allocations()
            fake_double[1, 8](d)
            assert u64(launch(0)["params"][0]) == host.ctypes.data and fake.fake_live_allocations() == live
        numpy.testing.assert_array_equal(host, 2.0)  # written in place, nothing copied
        assert fake.fake_live_host_allocations() == 0  # unmapped when the context ends
        with cuda.mapped(host, other) as (a, b):  # mapped again at once; several give a list
            assert address(b) == other.ctypes.data and fake.fake_live_host_allocations() == 2
        try:
            with cuda.mapped(host):
                raise KeyError("inside")
        except KeyError:
            pass
        assert fake.fake_live_host_allocations() == 0
    """)


def test_in_out_and_inout_hints_choose_the_copies_of_a_gpu_launch(on_fake):
    on_fake("""
        out = numpy.full(1000, 3.0)
        fake_double[1, 8](cuda.Out(out))  # not copied in: the fake doubles fresh device memory
        assert not (out == 6.0).any()
        host = numpy.ones(8)
        fake_double[1, 8](cuda.In(host))  # copied in, not back
        numpy.testing.assert_array_equal(host, 1.0)
        fake_double[1, 8](cuda.InOut(host))
        numpy.testing.assert_array_equal(host, 2.0)
        d = cuda.to_device(host)
        fake_double[1, 8](cuda.In(d))  # a device array: used where it is
        assert u64(launch(fake.fake_launches() - 1)["params"][0]) == address(d)
        numpy.testing.assert_array_equal(d.copy_to_host(), 4.0)
    """)


def test_an_external_stream_is_the_drivers_and_is_not_destroyed_here(on_fake):
    on_fake("""
        import gc
        made = cuda.stream()  # (as CuPy or PyTorch would make one)
        ext = cuda.external_stream(made.handle)
        assert ext.handle == made.handle and "external stream" in repr(ext) and "on the GPU" in repr(ext)
        fake_double[1, 8, ext](cuda.to_device(numpy.ones(8), stream=ext))
        assert launch(fake.fake_launches() - 1)["stream"] == made.handle
        ext.synchronize()
        del ext
        gc.collect()
        assert fake.fake_live_streams() == 1
        raised(TypeError, lambda: cuda.external_stream("s"), "a handle is an int")
    """)
