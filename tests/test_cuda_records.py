"""Records (elements of structured arrays) as kernel arguments: read and
written in place by reference, as @njit does with them and numba-cuda
with the record it copies to the GPU and back. Each kernel is checked
against its Python function run on a copy (a recarray's record, whose
fields read as attributes) on generated values; the PTX against ptxas."""
import numpy as np
import pytest

import ruchey
from ruchey import cuda

from conftest import AS_NUMBA, make_rng, needs_ptxas, ptxas_errors, seed_of

RECORD = np.dtype([("a", np.float64), ("b", np.int32), ("c", np.complex64), ("h", np.float32, (3,)),
                   ("m", np.int16, (2, 2))])


def update(rec, v, out):
    out[0] = rec.a + rec.b + rec.h[0] + rec.m[1, 0]
    rec.a = v
    rec.b = rec.b * 2 - 1
    rec.c = rec.c * 1j
    for i in range(rec.h.size):
        rec.h[i] += v
    rec.m[0, 1] = rec.m[1, 0]


def records(rng, n):
    arr = np.zeros(n, RECORD)
    arr["a"] = rng.normal(size=n)
    arr["b"] = rng.integers(-1000, 1000, n)
    arr["c"] = rng.normal(size=n) + 1j * rng.normal(size=n)
    arr["h"] = rng.normal(size=(n, 3))
    arr["m"] = rng.integers(-99, 99, (n, 2, 2))
    return arr


@pytest.mark.parametrize("value", [0.0, -2.5, np.nan])
def test_a_record_argument_is_read_and_written_in_place(value):
    rng = make_rng(seed_of("record argument", str(value)))
    kernel = cuda.jit(update)
    for arr in (records(rng, 4), records(rng, 4).view(np.recarray)):
        expected = arr.copy().view(np.recarray)
        for i in range(arr.size):
            got_out, expected_out = np.zeros(1), np.zeros(1)
            kernel[1, 1](arr[i], value, got_out)
            update(expected[i], value, expected_out)
            np.testing.assert_array_equal(got_out, expected_out)
        for name in RECORD.names:  # (field by field: NaN equals NaN there) the other records too
            np.testing.assert_array_equal(arr[name], expected[name])


@pytest.mark.parametrize("value", [0.0, -2.5, np.nan])
def test_a_device_record_is_read_and_written_where_it_is(value):
    """cuda.to_device(record) (numba-cuda's DeviceRecord): a kernel takes it as
    the record, its writes seen by the next launch and by copy_to_host (into a
    new 0-d array, or into a record); from_record_like and auto_device make one."""
    from ruchey.cuda.cudadrv.devicearray import DeviceRecord, auto_device, from_record_like
    rng = make_rng(seed_of("device record", str(value)))
    kernel = cuda.jit(update)
    for arr in (records(rng, 3), records(rng, 3).view(np.recarray)):
        expected = arr.copy().view(np.recarray)
        for i in range(arr.size):
            dev = cuda.to_device(arr[i])
            assert isinstance(dev, DeviceRecord) and dev.shape == () and dev.dtype == RECORD
            for _ in range(2):  # (the second launch reads what the first wrote)
                got_out, expected_out = np.zeros(1), np.zeros(1)
                kernel[1, 1](dev, value, got_out)
                update(expected[i], value, expected_out)
                np.testing.assert_array_equal(got_out, expected_out)
            host = dev.copy_to_host()
            into = records(rng, 1).view(type(arr))[0]
            assert dev.copy_to_host(into) is into
            for name in RECORD.names:
                np.testing.assert_array_equal(host[name], expected[i][name])
                np.testing.assert_array_equal(into[name], expected[i][name])
        copied, made = auto_device(arr[0])
        assert made and isinstance(copied, DeviceRecord) and auto_device(copied) == (copied, False)
        like = from_record_like(arr[0])
        assert isinstance(like, DeviceRecord) and like.dtype == RECORD and like._numba_type_ == ruchey.typeof(arr[0])
        with pytest.raises(TypeError, match="dtype"):
            like.copy_to_host(np.zeros(1, [("a", np.float64)])[0])


@cuda.jit
def copy_record(dst, src, i):
    dst[i] = src


def test_a_record_stored_into_a_structured_array():
    rng = make_rng(seed_of("record store"))
    src, dst = records(rng, 3), records(rng, 5)
    expected = dst.copy()
    for i in range(dst.size):
        copy_record[1, 1](dst, src[i % 3], i)
        expected[i] = src[i % 3]
    np.testing.assert_array_equal(dst, expected)


def test_a_kernel_of_one_signature_of_record_arrays():
    rng = make_rng(seed_of("record signature"))
    rec = ruchey.from_dtype(RECORD)
    kernel = cuda.jit((rec[::1], rec, ruchey.int64))(copy_record.py_func)
    src, dst = records(rng, 2), records(rng, 4)
    expected = dst.copy()
    for i in range(dst.size):
        kernel[1, 1](dst, src[i % 2], i)
        expected[i] = src[i % 2]
    np.testing.assert_array_equal(dst, expected)


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's message")
def test_a_record_of_another_layout_is_a_typing_error():
    other = np.zeros(1, [("a", np.float64)])
    with pytest.raises(ruchey.TypingError):
        copy_record[1, 1](np.zeros(2, RECORD), other[0], 0)


@needs_ptxas
@pytest.mark.skipif(AS_NUMBA, reason="ruchey's PTX")
@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_ptxas_accepts_kernels_taking_records(arch, tmp_path):
    rec = ruchey.types.from_dtype(RECORD)
    ptx, _ = cuda.compile_ptx(update, (rec, ruchey.types.float64, ruchey.types.float64[:]),
                              cc=(int(arch[3]), int(arch[4])))
    assert ptxas_errors(ptx, arch, tmp_path) == ""


def swap_fields(a, n):
    i = cuda.grid(1)
    if i < a.size:
        b = a[i].b
        a[i].b = a[i].a * 0.5 + b
        a[i].a = n - i
        a[i].b += 1.25


@needs_ptxas
@pytest.mark.skipif(AS_NUMBA, reason="ruchey's PTX")
@pytest.mark.parametrize("aligned", [False, True])
def test_a_packed_records_float64_at_offset_4_is_read_and_written_at_its_alignment(aligned, tmp_path):
    # NumPy's packed dtype puts b at byte 4 (items 12 bytes apart): an 8-byte load there faults on the GPU, so
    # its PTX reads and writes it at the alignment it has; the aligned dtype (b at 8) keeps 8-byte loads
    dtype = np.dtype([("a", np.int32), ("b", np.float64)], align=aligned)
    rec = ruchey.types.from_dtype(dtype)
    ptx, _ = cuda.compile_ptx(swap_fields, (rec[::1], ruchey.types.int64), cc=(8, 0))
    assert ("ld.global.f64" in ptx) == aligned and ("st.global.f64" in ptx) == aligned
    assert ptxas_errors(ptx, "sm_80", tmp_path, "swap_fields") == ""
    rng = make_rng(seed_of("packed record", aligned))
    arr = np.zeros(300, dtype)
    arr["a"], arr["b"] = rng.integers(-1000, 1000, 300), rng.normal(size=300)
    expected = arr.copy().view(np.recarray)
    cuda.jit(swap_fields)[2, 256](arr, 77)
    for i in range(expected.size):
        b = expected[i].b
        expected[i].b = expected[i].a * 0.5 + b
        expected[i].a = 77 - i
        expected[i].b += 1.25
    np.testing.assert_array_equal(arr["a"], expected["a"])
    np.testing.assert_array_equal(arr["b"], expected["b"])
