"""Host-side API of numba-cuda: cuda.reduce, cuda.gpus as context managers,
the profiler's start and stop, checked against NumPy."""
import numpy
import pytest

import ruchey
from ruchey import cuda

from conftest import AS_NUMBA, make_rng, run_python_file

sum_reduce = cuda.reduce(lambda a, b: a + b)


@cuda.reduce
def max_reduce(a, b):
    return max(a, b)


@pytest.mark.parametrize("n", [1, 7, 1000, 100003])
@pytest.mark.parametrize("dtype", [numpy.int32, numpy.int64, numpy.float64])
def test_sum_reduce_adds_every_element(n, dtype):
    a = make_rng(n).integers(-1000, 1000, size=n).astype(dtype)
    got = sum_reduce(a)
    assert got == a.sum() and type(got) is numpy.dtype(dtype).type


def test_reduce_applies_init_once_as_numba_cuda_does():
    a = make_rng(2).standard_normal(5000) - 10.0  # all negative
    assert max_reduce(a, init=-numpy.inf) == a.max()
    assert max_reduce(a) == 0.0  # numba-cuda's default init, 0, takes part
    assert sum_reduce(numpy.arange(10.0), init=100) == 145.0


def test_reduce_of_device_arrays_sizes_results_and_empty_arrays():
    d = cuda.to_device(numpy.arange(10, dtype=numpy.int32))
    res = cuda.device_array(3, dtype=numpy.int32)
    assert sum_reduce(d, res=res) is None
    assert res.copy_to_host()[0] == 45
    assert sum_reduce(d, size=4) == 6
    assert sum_reduce(numpy.zeros(0), init=5) == 5.0


def test_reduce_needs_a_1d_array():
    with pytest.raises(TypeError, match="only support 1D array"):
        sum_reduce(numpy.zeros((2, 2)))


def test_gpus_are_the_devices_each_a_context_manager():
    assert len(cuda.gpus) == len(list(cuda.gpus)) >= 1
    first = cuda.gpus[0]
    with first as dev:
        assert dev is first and cuda.gpus.current.id == first.id
        a = cuda.to_device(numpy.arange(4.0))
        assert a.copy_to_host().sum() == 6.0
    assert cuda.get_current_device().id == first.id


def test_profiler_start_and_stop_around_work():
    cuda.profile_start()
    sum_reduce(numpy.ones(10))
    cuda.profile_stop()
    with cuda.profiling():
        assert sum_reduce(numpy.ones(3)) == 3.0


@cuda.jit
def triple(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] *= 3


@pytest.mark.parametrize("make", [cuda.mapped_array, cuda.managed_array, cuda.pinned_array])
def test_host_arrays_of_the_drivers_memory_are_kernel_arguments(make):
    a = make(10, dtype=numpy.float64)
    a[:] = numpy.arange(10.0)
    triple[1, 16](a)
    cuda.synchronize()
    numpy.testing.assert_array_equal(numpy.asarray(a), numpy.arange(10.0) * 3)


def test_copies_on_a_stream_into_pinned_memory():
    s = cuda.stream()
    src = numpy.arange(6.0).reshape(2, 3)
    d = cuda.to_device(src, stream=s)
    out = cuda.pinned_array_like(src)
    d.copy_to_host(out, stream=s)
    s.synchronize()
    numpy.testing.assert_array_equal(out, src)


def views():
    """Arrays and views of them: contiguous in C or F order, strided, axes permuted, reversed."""
    base = numpy.zeros((4, 6, 10))
    yield base
    yield numpy.asfortranarray(base)
    yield base[::2, :, ::3]
    yield base.transpose(2, 0, 1)[:, ::2]
    yield numpy.asfortranarray(base)[1:, ::2, ::-1]
    yield base[:, 0, :].T[::2]
    yield base[:, :1, ::2]  # a dimension of one
    yield numpy.zeros(9)[::3]


def test_like_arrays_lie_in_memory_as_numpys_empty_like():
    """device_array_like, pinned_array_like and mapped_array_like: contiguous,
    their axes in the order of the array's in memory, as numba-cuda's (NumPy's
    order='K'); the layout the GPU backend gives too (_strides_like)."""
    from ruchey.cuda import devicearray
    for view in views():
        expected = numpy.empty_like(view, order="K").strides
        for like in (cuda.device_array_like(view), cuda.pinned_array_like(view), cuda.mapped_array_like(view)):
            assert like.shape == view.shape and like.strides == expected
        strides = devicearray._strides_like(view)
        assert strides is None or strides == expected
        if strides is None:
            assert view.flags.c_contiguous or view.flags.f_contiguous
    device_view = cuda.device_array((4, 6, 10))[::2, :, ::3]
    like = cuda.device_array_like(device_view)
    assert like.strides == numpy.empty_like(numpy.zeros((4, 6, 10))[::2, :, ::3], order="K").strides


@cuda.jit
def scale_in_place(a, factor):
    i = cuda.grid(1)
    if i < a.size:
        a[i] *= factor


def test_cuda_mapped_gives_device_arrays_over_the_host_arrays_memory():
    """Kernels write the host arrays in place (on the CPU backend, the memory
    itself), one device array for one array, a list for several."""
    rng = make_rng(7)
    for host in (rng.standard_normal(50), rng.integers(-9, 9, (6, 7)).astype(numpy.int32)[:, ::2].ravel(),
                 numpy.zeros(0)):
        want = host * 3
        with cuda.mapped(host) as d:
            assert isinstance(d, cuda.DeviceNDArray) and d.shape == host.shape
            scale_in_place[2, 32](d, 3)
        numpy.testing.assert_array_equal(host, want)
    a, b = numpy.arange(5.0), numpy.arange(4, dtype=numpy.int64)
    with cuda.mapped(a, b) as views:
        assert isinstance(views, list) and len(views) == 2
        for view in views:
            scale_in_place[1, 8](view, -1)
    numpy.testing.assert_array_equal(a, -numpy.arange(5.0))
    numpy.testing.assert_array_equal(b, -numpy.arange(4))
    with pytest.raises(TypeError, match="maps NumPy arrays"):
        with cuda.mapped([1.0, 2.0]):
            pass


def test_cuda_ipc_is_refused_with_what_to_do_instead():
    d = cuda.to_device(numpy.arange(4.0))
    with pytest.raises(NotImplementedError, match="CUDA IPC.*multiprocessing.shared_memory"):
        d.get_ipc_handle()
    with pytest.raises(NotImplementedError, match="CUDA IPC.*copy_to_host"):
        with cuda.open_ipc_array(b"\0" * 64, shape=4, dtype=numpy.float64):
            pass


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's module path")
def test_numba_cudas_cudadrv_devicearray_path():
    """cuda.cudadrv.devicearray (numba.cuda.cudadrv.devicearray under
    install_as_numba): its DeviceNDArray for isinstance checks, from_array_like
    keeping a view's strides, auto_device copying only what is not on the
    device, and the driver's CudaAPIError."""
    from ruchey.cuda.cudadrv import devicearray, driver
    rng = make_rng(31)
    for host in (rng.normal(size=(6, 8)), rng.integers(-9, 9, (5, 7)).astype(numpy.int32)[::2, 1::3],
                 numpy.asfortranarray(rng.normal(size=(3, 4))), numpy.zeros((0, 3))):
        like = devicearray.from_array_like(host)
        assert isinstance(like, cuda.cudadrv.devicearray.DeviceNDArray) and devicearray.is_cuda_ndarray(like)
        assert (like.shape, like.strides, like.dtype) == (host.shape, host.strides, host.dtype)
        like.copy_to_device(host)
        numpy.testing.assert_array_equal(like.copy_to_host(), host)
    host = rng.normal(size=9)
    dev, copied = devicearray.auto_device(host)
    assert copied and isinstance(dev, devicearray.DeviceNDArray)
    numpy.testing.assert_array_equal(dev.copy_to_host(), host)
    assert devicearray.auto_device(dev) == (dev, False)
    assert devicearray.auto_device(3)[0].copy_to_host() == 3
    with pytest.raises(ValueError, match="non-contiguous"):
        devicearray.auto_device(host[::2])
    assert driver.CudaAPIError is cuda.CudaError and not devicearray.is_cuda_ndarray(host)


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's numba stand-in")
def test_cudadrv_imports_under_install_as_numba(tmp_path):
    r = run_python_file("""
        import numpy, ruchey.numba_shim
        ruchey.numba_shim.install_as_numba()
        from numba import cuda
        from numba.cuda.cudadrv.devicearray import DeviceNDArray, auto_device
        from numba.cuda.cudadrv.driver import CudaAPIError
        from numba.cuda.cudadrv import devicearray
        d = cuda.to_device(numpy.arange(4.0))
        assert isinstance(d, DeviceNDArray) and devicearray.auto_device(d)[0] is d
        assert issubclass(CudaAPIError, Exception) and cuda.cudadrv.devicearray is devicearray
        print("ok")
    """, tmp_path)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr


def test_typeof_a_device_array_is_its_array_type():
    """ruchey.typeof of a device array (and specialize() on one) is the type a
    kernel takes it as, that of a host array of its layout; a device record's is
    the record type."""
    import ruchey
    rng = make_rng(32)
    host = rng.normal(size=(4, 6)).astype(numpy.float32)
    dev = cuda.to_device(host)
    fortran = numpy.asfortranarray(host)
    for h, d in ((host, dev), (host[:, ::2], dev[:, ::2]), (host[1], dev[1]), (fortran, cuda.to_device(fortran))):
        assert ruchey.typeof(d) == ruchey.typeof(h)
    record = numpy.zeros(1, [("a", numpy.int16), ("b", numpy.float64)])[0]
    assert ruchey.typeof(cuda.to_device(record)) == ruchey.typeof(record)

    @cuda.jit
    def double(x):
        i, j = cuda.grid(2)
        if i < x.shape[0] and j < x.shape[1]:
            x[i, j] *= 2

    strided = dev[:, ::2]
    kernel = double.specialize(strided)
    assert kernel.signatures == [(ruchey.typeof(host[:, ::2]),)]
    kernel[(4, 1), (1, 3)](strided)
    expected = host.copy()
    expected[:, ::2] *= 2
    numpy.testing.assert_array_equal(dev.copy_to_host(), expected)


@cuda.jit("void(CPointer(float32), int64)")
def halve_pointed(p, n):
    a = ruchey.carray(p, (n,))
    i = cuda.grid(1)
    if i < n:
        a[i] = a[i] / 2


def test_gpu_data_is_the_memory_pointer_of_the_bytes_an_array_spans():
    """d.gpu_data, numba-cuda's memory pointer: the address of the lowest byte
    the array's items span and how many bytes, equal for a view as another
    dtype; a kernel taking int(gpu_data.device_pointer) as a CPointer writes
    into the array."""
    rng = make_rng(33)
    for n in (1, 9, 64):
        host = rng.normal(size=n).astype(numpy.float32)
        d = cuda.to_device(host)
        g = d.gpu_data
        assert g.device_pointer == d.device_ctypes_pointer.value == g.device_ctypes_pointer.value
        assert g.size == host.nbytes and g.device_pointer_value == g.device_pointer
        assert d.view(numpy.int32).gpu_data == g and hash(d.view(numpy.uint32).gpu_data) == hash(g)
        assert d[n // 2:].gpu_data.device_pointer == g.device_pointer + (n // 2) * 4
        assert d[n // 2:].gpu_data != g or n == 1
        assert d[::-1].gpu_data == g  # (its lowest byte is the array's first)
        halve_pointed[1, 64](int(g.device_pointer), n)
        numpy.testing.assert_array_equal(d.copy_to_host(), host / numpy.float32(2))
    times = cuda.to_device(rng.integers(0, 10**6, 12).astype("datetime64[s]"))
    assert times.view(numpy.int64).gpu_data == times.gpu_data
    assert cuda.device_array((0, 3)).gpu_data.size == 0
