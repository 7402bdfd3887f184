"""Device arrays on the CPU backend: a DeviceNDArray owns a private NumPy array.

The API is numba-cuda's (cuda.to_device, cuda.device_array, copy_to_host, ...):
data moves only through explicit copies, exactly as between a host and a GPU,
so code written for one runs unchanged on the other.
"""
import contextlib
import math

import numpy as np

from ruchey.cuda.runtime import check_stream

_NONCONTIGUOUS = ("Array contains non-contiguous buffer and cannot be transferred as a single "
                  "memory region. Please ensure contiguous buffer with numpy "
                  ".ascontiguousarray()")


def _array_core(ary):
    """ary without its broadcast (zero-stride) dimensions."""
    if not ary.strides or not ary.size:
        return ary
    return ary[tuple(0 if s == 0 else slice(None) for s in ary.strides)]


def _sentry_contiguous(ary):
    core = _array_core(ary)
    if not core.flags.c_contiguous and not core.flags.f_contiguous:
        raise ValueError(_NONCONTIGUOUS)


def _check_compatible(dst, src):
    """Copies need the same dtype and the same shape (up to dimensions of 1)."""
    if dst.dtype != src.dtype:
        raise TypeError(f"incompatible dtype: {dst.dtype} vs. {src.dtype}")
    if dst.squeeze().shape != src.squeeze().shape:
        raise ValueError(f"incompatible shape: {dst.shape} vs. {src.shape}")


def _copy(dst, src):
    """dst[...] = src for arrays whose shapes match up to dimensions of 1."""
    np.copyto(dst, src if src.shape == dst.shape else src.reshape(dst.shape))


class DeviceNDArray:
    """An array in the memory of the device kernels run on (the CPU backend)."""

    def __init__(self, shape, strides=None, dtype=np.float64, stream=0, order="C"):
        check_stream(stream)
        self._ary = np.ndarray(shape, dtype=dtype, strides=strides, order=order)
        self.stream = stream

    @classmethod
    def _wrap(cls, ary, stream=0):
        self = cls.__new__(cls)
        self._ary = ary
        self.stream = stream
        return self

    # ---------------------------------------------------------- description

    @property
    def shape(self):
        return self._ary.shape

    @property
    def strides(self):
        return self._ary.strides

    @property
    def dtype(self):
        return self._ary.dtype

    @property
    def ndim(self):
        return self._ary.ndim

    @property
    def size(self):
        return self._ary.size

    @property
    def nbytes(self):
        return self._ary.nbytes

    @property
    def alloc_size(self):
        return self._ary.nbytes

    @property
    def flags(self):
        return {"C_CONTIGUOUS": self._ary.flags.c_contiguous,
                "F_CONTIGUOUS": self._ary.flags.f_contiguous}

    def is_c_contiguous(self):
        return self._ary.flags.c_contiguous

    def is_f_contiguous(self):
        return self._ary.flags.f_contiguous

    def __len__(self):
        if not self._ary.ndim:
            raise TypeError("len() of unsized object")
        return self._ary.shape[0]

    def __repr__(self):
        return (f"<ruchey.cuda.DeviceNDArray shape={self.shape} dtype={self.dtype} "
                "on the CPU backend>")

    # ---------------------------------------------------------- copies

    def copy_to_host(self, ary=None, stream=0):
        """Copy to ``ary`` (a host array of the same dtype and shape), or to a
        new host array; returns the host array."""
        check_stream(stream)
        if ary is None:
            host = np.empty_like(self._ary, order="K")
            np.copyto(host, self._ary)
            return host
        if not isinstance(ary, np.ndarray):
            raise TypeError(f"copy_to_host copies into a NumPy array, not {type(ary).__name__}")
        _check_compatible(self._ary, ary)
        _copy(ary, self._ary)
        return ary

    def copy_to_device(self, ary, stream=0):
        """Copy ``ary`` (a host or device array of the same dtype and shape)
        into this array."""
        check_stream(stream)
        src = ary._ary if isinstance(ary, DeviceNDArray) else np.asarray(ary)
        if src.size == 0 and self._ary.size == 0:
            return
        _check_compatible(self._ary, src)
        _copy(self._ary, src)

    def __array__(self, dtype=None, copy=None):
        """A host copy (numba-cuda's behaviour: np.asarray(d) copies to the host)."""
        if copy is False:
            raise ValueError("`copy=False` is not supported. A copy is always created.")
        host = self.copy_to_host()
        return host if dtype is None else host.astype(dtype, copy=False)

    # ---------------------------------------------------------- indexing

    def __getitem__(self, item):
        return self.getitem(item)

    def getitem(self, item, stream=0):
        """self[item]: a device array view, or an element copied to the host."""
        check_stream(stream)
        result = self._ary[item]
        if isinstance(result, np.ndarray):
            return DeviceNDArray._wrap(result, stream or self.stream)
        return result

    def __setitem__(self, key, value):
        self.setitem(key, value)

    def setitem(self, key, value, stream=0):
        """self[key] = value, for a scalar, a host array or a device array."""
        check_stream(stream)
        if isinstance(value, DeviceNDArray):
            value = value._ary
        self._ary[key] = value

    # ---------------------------------------------------------- views

    @property
    def T(self):
        return self.transpose()

    def transpose(self, axes=None):
        return DeviceNDArray._wrap(self._ary.transpose(axes), self.stream)

    def _no_copy(self, result):
        if result.size and not np.may_share_memory(result, self._ary):
            raise NotImplementedError("operation requires copying")
        return DeviceNDArray._wrap(result, self.stream)

    def reshape(self, *newshape, order="C"):
        """A view of another shape; NotImplementedError if that needs a copy."""
        if len(newshape) == 1 and isinstance(newshape[0], (tuple, list)):
            newshape = tuple(newshape[0])
        return self._no_copy(self._ary.reshape(newshape, order=order))

    def ravel(self, order="C", stream=0):
        """A 1-D view; NotImplementedError if the array is not contiguous."""
        check_stream(stream)
        return self._no_copy(self._ary.ravel(order=order))

    def squeeze(self, axis=None, stream=0):
        check_stream(stream)
        return DeviceNDArray._wrap(self._ary.squeeze(axis), stream or self.stream)

    def view(self, dtype):
        """The same memory seen as another dtype."""
        return DeviceNDArray._wrap(self._ary.view(dtype), self.stream)

    def bind(self, stream=0):
        """The same array with ``stream`` as its default stream."""
        check_stream(stream)
        return DeviceNDArray._wrap(self._ary, stream)

    def split(self, section, stream=0):
        """Views of consecutive pieces of ``section`` elements (of a 1-D array)."""
        check_stream(stream)
        if self.ndim != 1:
            raise ValueError("only support 1d array")
        if self.strides[0] != self.dtype.itemsize:
            raise ValueError("only support unit stride")
        for i in range(math.ceil(self.size / section)):
            yield DeviceNDArray._wrap(self._ary[i * section:(i + 1) * section],
                                      stream or self.stream)


# ---------------------------------------------------------------- constructors

def to_device(obj, stream=0, copy=True, to=None):
    """Copy a host array to the device; returns the device array (``to`` when
    given, which must have the same dtype and shape)."""
    check_stream(stream)
    if to is not None:
        if not isinstance(to, DeviceNDArray):
            raise TypeError(f"to= must be a device array, not {type(to).__name__}")
        if copy:
            to.copy_to_device(obj, stream=stream)
        return to
    if isinstance(obj, DeviceNDArray):
        return obj
    ary = np.asarray(obj)
    _sentry_contiguous(ary)
    dev = np.empty_like(ary, order="K", subok=False)
    if copy:
        np.copyto(dev, ary)
    return DeviceNDArray._wrap(dev, stream)


def device_array(shape, dtype=np.float64, strides=None, order="C", stream=0):
    """A new device array, uninitialised."""
    return DeviceNDArray(shape, strides=strides, dtype=dtype, stream=stream, order=order)


def _host_layout(ary):
    return ary._ary if isinstance(ary, DeviceNDArray) else np.asarray(ary)


def device_array_like(ary, stream=0):
    """A new device array of the shape, dtype and layout (C or F) of ``ary``."""
    check_stream(stream)
    return DeviceNDArray._wrap(np.empty_like(_host_layout(ary), order="K", subok=False), stream)


def is_cuda_array(obj):
    """Whether ``obj`` is a device array."""
    return isinstance(obj, DeviceNDArray)


# Host memory: pinned, mapped and managed memory are plain NumPy arrays on the
# CPU backend (kernels take host arrays as they are).

def pinned_array(shape, dtype=np.float64, strides=None, order="C"):
    return np.ndarray(shape, dtype=dtype, strides=strides, order=order)


def pinned_array_like(ary):
    return np.empty_like(_host_layout(ary), order="K", subok=False)


def mapped_array(shape, dtype=np.float64, strides=None, order="C", stream=0, portable=False,
                 wc=False):
    check_stream(stream)
    return np.ndarray(shape, dtype=dtype, strides=strides, order=order)


def managed_array(shape, dtype=np.float64, strides=None, order="C", stream=0,
                  attach_global=True):
    check_stream(stream)
    return np.ndarray(shape, dtype=dtype, strides=strides, order=order)


@contextlib.contextmanager
def pinned(*arylist):
    """Pin host arrays for the duration of the context (nothing to do)."""
    yield
