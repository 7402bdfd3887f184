"""Device arrays: a DeviceNDArray lives on the GPU, or on the CPU backend in a
private NumPy array; which is chosen when it is made (cuda.to_device,
cuda.device_array, ...), as kernels are.

The API is numba-cuda's (cuda.to_device, cuda.device_array, copy_to_host, ...):
data moves only through explicit copies, exactly as between a host and a GPU,
so code written for one runs unchanged on the other.

On the GPU the array's ``_ary`` is a NumPy array whose data pointer is the
device address: NumPy gives views, shapes and strides, and kernels receive
it as they receive host arrays, but its data is never read through it; every
read and write goes through the driver's copies. ``_mem`` owns the device
memory, shared by every view.
"""
import contextlib
import math

import numpy as np

from ruchey import _core
from ruchey.cuda.runtime import CudaSupportError, check_stream, stream_handle, use_gpu

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


# ---------------------------------------------------------------- device memory seen through NumPy

class _DeviceData:
    """Describes device memory to NumPy (the array interface), and keeps it
    alive as the base of the array NumPy makes."""

    def __init__(self, mem, ptr, shape, strides, dtype):
        self.mem = mem
        self.__array_interface__ = {"version": 3, "shape": shape, "strides": strides,
                                    "typestr": dtype.str, "data": (ptr, False)}


def _contiguous_strides(shape, itemsize, order):
    strides, step = [], itemsize
    for n in (shape if order == "F" else reversed(shape)):
        strides.append(step)
        step *= max(n, 1)
    return tuple(strides if order == "F" else reversed(strides))


def _extent(ary):
    """The bytes an array spans, [lo, hi) from its data pointer."""
    if ary.size == 0:
        return 0, 0
    lo = hi = 0
    for n, s in zip(ary.shape, ary.strides):
        if s < 0:
            lo += (n - 1) * s
        else:
            hi += (n - 1) * s
    return lo, hi + ary.itemsize


def _device_bytes(shape, strides, dtype):
    """The bytes device memory of this layout spans from its first element."""
    probe = np.lib.stride_tricks.as_strided(np.empty(1, dtype), shape, strides)  # reads nothing
    lo, hi = _extent(probe)
    if lo < 0:
        raise ValueError("a device array cannot have negative strides")
    return hi


def _gpu_empty(shape, dtype, strides=None, order="C"):
    """(layout, memory) of a new device array."""
    shape = tuple(int(n) for n in shape) if isinstance(shape, (tuple, list)) else (int(shape),)
    dtype = np.dtype(dtype)
    if strides is None:
        strides = _contiguous_strides(shape, dtype.itemsize, order)
    strides = tuple(int(s) for s in strides)
    mem = _core.DeviceMemory(_device_bytes(shape, strides, dtype))
    return np.asarray(_DeviceData(mem, mem.ptr, shape, strides, dtype)), mem


def _cpu_empty(shape, dtype, strides=None, order="C"):
    """A new device array's layout on the CPU backend: as many bytes as its strides
    span (a view's leave gaps), as _gpu_empty allocates."""
    if strides is None:
        return np.ndarray(shape, dtype=dtype, order=order)
    shape = tuple(int(n) for n in shape) if isinstance(shape, (tuple, list)) else (int(shape),)
    strides, dtype = tuple(int(s) for s in strides), np.dtype(dtype)
    return np.ndarray(shape, dtype, buffer=np.empty(_device_bytes(shape, strides, dtype), np.uint8), strides=strides)


def _address(ary):
    return ary.__array_interface__["data"][0]


def _dense(ary):
    return ary.flags.c_contiguous or ary.flags.f_contiguous


def _fetch(ary):
    """A host array of a device layout's shape and strides, with its values."""
    lo, hi = _extent(ary)
    buf = np.empty(hi - lo, np.uint8)
    if hi > lo:
        _core.cuda_memcpy_dtoh(buf, _address(ary) + lo, hi - lo)
    return np.ndarray(ary.shape, ary.dtype, buffer=buf, offset=-lo, strides=ary.strides), buf


def _store(ary, values):
    """ary[...] = values, ary a device layout: the bytes it spans are
    written (read first when the array has gaps)."""
    if ary.size == 0:
        return
    if _dense(ary):
        host = np.empty_like(ary, order="K")  # the same strides; reads nothing
        host[...] = values
        _core.cuda_memcpy_htod(_address(ary), host, host.nbytes)
        return
    host, buf = _fetch(ary)
    host[...] = values
    lo = _extent(ary)[0]
    _core.cuda_memcpy_htod(_address(ary) + lo, buf, buf.nbytes)


def _to_host(ary):
    """The values of a device layout, as a new host array."""
    host = np.empty_like(ary, order="K")
    if _dense(ary):
        if ary.size:
            _core.cuda_memcpy_dtoh(host, _address(ary), host.nbytes)
    else:
        np.copyto(host, _fetch(ary)[0])
    return host


def _view_index(item):
    """item with an Ellipsis added, so that NumPy makes a view (0-d for an
    element) instead of reading; and whether item names one element."""
    item = item if isinstance(item, tuple) else (item,)
    for i in item:
        if isinstance(i, (list, np.ndarray)) or not (
                i is None or i is Ellipsis or isinstance(i, (slice, int, np.integer))):
            raise NotImplementedError(f"indexing a device array with {i!r} (only integers, "
                                      "slices, None and ...) would need a copy")
    has_ellipsis = any(i is Ellipsis for i in item)
    return (item if has_ellipsis else item + (Ellipsis,)), not has_ellipsis


class DeviceNDArray:
    """An array in the memory of the device kernels run on: the GPU, or the
    CPU backend."""

    def __init__(self, shape, strides=None, dtype=np.float64, stream=0, order="C"):
        check_stream(stream)
        if use_gpu():
            self._ary, self._mem = _gpu_empty(shape, dtype, strides, order)
        else:
            self._ary, self._mem = _cpu_empty(shape, dtype, strides, order), None
        self.stream = stream

    @classmethod
    def _wrap(cls, ary, stream=0, mem=None):
        self = cls.__new__(cls)
        self._ary = ary
        self._mem = mem
        self.stream = stream
        return self

    def _like(self, ary, stream=None):
        """A view of this array's memory."""
        return DeviceNDArray._wrap(ary, self.stream if stream is None else stream, self._mem)

    @property
    def on_gpu(self):
        """Whether the array is in a GPU's memory (else on the CPU backend)."""
        return self._mem is not None

    def __ruchey_captured__(self):
        """What a kernel reading this array as a global takes (numba-cuda
        captures a device array by reference, not as a copy): a NumPy array
        of its shape, strides and dtype, its data's address, and whether
        that is in a GPU's memory."""
        return self._ary, self._ary.ctypes.data, self.on_gpu

    @property
    def _numba_type_(self):
        """The array type kernels take it as (numba-cuda's): ruchey.typeof(d) and specialize(d) read it."""
        from ruchey import types
        return types.typeof(self._ary)

    @property
    def __cuda_array_interface__(self):
        """The CUDA Array Interface (version 3), through which CuPy, PyTorch
        and others use the array without a copy; a GPU array's only."""
        if self._mem is None:
            raise AttributeError("a device array on the CPU backend is not in a GPU's memory: "
                                 "it has no __cuda_array_interface__")
        ary = self._ary
        return {"shape": ary.shape, "typestr": ary.dtype.str, "version": 3,
                "strides": None if ary.flags.c_contiguous else ary.strides,
                "data": (_address(ary), False),
                # work queued on the array's stream (or the legacy default one) comes first
                "stream": stream_handle(self.stream) or 1}

    def get_ipc_handle(self):
        """numba-cuda's handle sharing the array with another process: not supported (_ipc_refusal)."""
        raise NotImplementedError(_ipc_refusal(self.on_gpu))

    @property
    def gpu_data(self):
        """numba-cuda's memory pointer of the bytes the array's items span
        (from its lowest address; a view shares its array's bytes)."""
        from ruchey.cuda.cudadrv.driver import MemoryPointer
        lo, hi = _extent(self._ary)
        return MemoryPointer(_address(self._ary) + lo, hi - lo, self._mem if self._mem is not None else self._ary)

    @property
    def device_ctypes_pointer(self):
        """The address of the first element (in the GPU's memory on the GPU)."""
        import ctypes
        return ctypes.c_void_p(_address(self._ary))

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
        where = "on the GPU" if self._mem is not None else "on the CPU backend"
        return f"<ruchey.cuda.DeviceNDArray shape={self.shape} dtype={self.dtype} {where}>"

    # ---------------------------------------------------------- copies

    def copy_to_host(self, ary=None, stream=0):
        """Copy to ``ary`` (a host array of the same dtype and shape), or to a
        new host array; returns the host array."""
        check_stream(stream)
        if ary is not None and not isinstance(ary, np.ndarray):
            raise TypeError(f"copy_to_host copies into a NumPy array, not {type(ary).__name__}")
        if ary is not None:
            _check_compatible(self._ary, ary)
        handle = stream_handle(stream)
        if self._mem is not None and handle and ary is not None and _dense(self._ary) and \
                ary.strides == self._ary.strides:  # queued on the stream: returns at once into page-locked memory
            if ary.size:
                _core.cuda_memcpy_dtoh(ary, _address(self._ary), ary.nbytes, handle)
            return ary
        if self._mem is not None:
            host = _to_host(self._ary)
        else:
            host = np.empty_like(self._ary, order="K")
            np.copyto(host, self._ary)
        if ary is None:
            return host
        _copy(ary, host)
        return ary

    def copy_to_device(self, ary, stream=0):
        """Copy ``ary`` (a host or device array of the same dtype and shape)
        into this array."""
        check_stream(stream)
        if isinstance(ary, DeviceNDArray):
            src = ary._ary if ary._mem is None else _to_host(ary._ary)
        else:
            src = np.asarray(ary)
        if src.size == 0 and self._ary.size == 0:
            return
        _check_compatible(self._ary, src)
        handle = stream_handle(stream)
        if self._mem is None:
            _copy(self._ary, src)
        elif handle and _dense(self._ary) and src.strides == self._ary.strides:  # queued on the stream
            _core.cuda_memcpy_htod(_address(self._ary), src, src.nbytes, handle)
        else:
            _store(self._ary, src if src.shape == self.shape else src.reshape(self.shape))

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
        if self._mem is not None:
            index, element = _view_index(item)
            view = self._ary[index]
            if element and view.ndim == 0:
                return _fetch(view)[0][()]
            return self._like(view, stream or self.stream)
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
            value = value._ary if value._mem is None else _to_host(value._ary)
        if self._mem is not None:
            _store(self._ary[_view_index(key)[0]], value)
        else:
            self._ary[key] = value

    # ---------------------------------------------------------- views

    @property
    def T(self):
        return self.transpose()

    def transpose(self, axes=None):
        """A new array holding the transpose of this 2-D array (numba-cuda's:
        a copy, C-contiguous, not a view); itself for the identity's axes."""
        if axes is not None and tuple(axes) == tuple(range(self.ndim)):
            return self
        if self.ndim != 2:
            raise NotImplementedError("transposing a non-2D DeviceNDArray isn't supported")
        if axes is not None and sorted(axes) != [0, 1]:
            raise ValueError(f"invalid axes list {axes!r}")
        from ruchey.cuda.transposed import transpose
        return transpose(self)

    def _no_copy(self, make, order):
        """The view make() gives; NotImplementedError if it needs a copy. On
        the GPU NumPy must not even try (it would read device memory): only
        arrays contiguous in that order reshape, as in numba-cuda."""
        if self._mem is not None:
            ary = self._ary
            if order == "A":
                order = "F" if ary.flags.f_contiguous and not ary.flags.c_contiguous else "C"
            if ary.size and not (ary.flags.c_contiguous if order == "C" else ary.flags.f_contiguous):
                raise NotImplementedError("operation requires copying")
            return self._like(make())
        result = make()
        if result.size and not np.may_share_memory(result, self._ary):
            raise NotImplementedError("operation requires copying")
        return self._like(result)

    def reshape(self, *newshape, order="C"):
        """A view of another shape; NotImplementedError if that needs a copy."""
        if len(newshape) == 1 and isinstance(newshape[0], (tuple, list)):
            newshape = tuple(newshape[0])
        return self._no_copy(lambda: self._ary.reshape(newshape, order=order), order)

    def ravel(self, order="C", stream=0):
        """A 1-D view; NotImplementedError if the array is not contiguous."""
        check_stream(stream)
        return self._no_copy(lambda: self._ary.ravel(order=order), order)

    def squeeze(self, axis=None, stream=0):
        check_stream(stream)
        return self._like(self._ary.squeeze(axis), stream or self.stream)

    def view(self, dtype):
        """The same memory seen as another dtype."""
        return self._like(self._ary.view(dtype))

    def bind(self, stream=0):
        """The same array with ``stream`` as its default stream."""
        check_stream(stream)
        return self._like(self._ary, stream)

    def split(self, section, stream=0):
        """Views of consecutive pieces of ``section`` elements (of a 1-D array)."""
        check_stream(stream)
        if self.ndim != 1:
            raise ValueError("only support 1d array")
        if self.strides[0] != self.dtype.itemsize:
            raise ValueError("only support unit stride")
        for i in range(math.ceil(self.size / section)):
            yield self._like(self._ary[i * section:(i + 1) * section], stream or self.stream)


class DeviceRecord(DeviceNDArray):
    """A record on the device (cuda.to_device of an element of a structured
    array, numba-cuda's DeviceRecord): a kernel takes it as a record, whose
    fields it reads and writes where it is; the host sees it as a 0-d array."""

    def __init__(self, dtype, stream=0, gpu_data=None):
        if gpu_data is not None:
            raise NotImplementedError("DeviceRecord(gpu_data=...) wraps numba-cuda's device memory objects, which "
                                      "ruchey does not have")
        super().__init__((), dtype=dtype, stream=stream)

    @property
    def _numba_type_(self):
        from ruchey import types
        return types.from_dtype(self.dtype)

    def copy_to_host(self, ary=None, stream=0):
        """Copy to ``ary`` (a record, or a 0-d array of the dtype), or to a new 0-d array."""
        if not isinstance(ary, np.void):
            return super().copy_to_host(ary, stream)
        if ary.dtype != self.dtype:
            raise TypeError(f"incompatible dtype: {self.dtype} vs. {ary.dtype}")
        host = super().copy_to_host(stream=stream)
        for name in self.dtype.names:  # (a record's own memory: written field by field)
            ary[name] = host[name]
        return ary


def from_record_like(rec, stream=0, gpu_data=None):
    """A new device record of rec's dtype, uninitialised (numba-cuda's)."""
    return DeviceRecord(rec.dtype, stream=stream, gpu_data=gpu_data)


def _ipc_refusal(on_gpu):
    """Why there is no CUDA IPC (numba-cuda's get_ipc_handle, open_ipc_array): on the CPU
    backend device memory is this process's own, which another cannot open."""
    if on_gpu:
        return ("CUDA IPC handles (get_ipc_handle, open_ipc_array) are not supported by ruchey: send the data "
                "(copy_to_host) to the other process, or share host memory (multiprocessing.shared_memory)")
    return ("CUDA IPC shares GPU memory between processes, and a device array on the CPU backend is in this "
            "process's own memory: send the data (copy_to_host) to the other process, or share host memory "
            "(multiprocessing.shared_memory) and pass views of it to kernels")


@contextlib.contextmanager
def open_ipc_array(handle, shape, dtype, strides=None, offset=0):
    """numba-cuda's array opened from another process's IPC handle: not supported (_ipc_refusal)."""
    raise NotImplementedError(_ipc_refusal(use_gpu()))
    yield  # (a context manager, as numba-cuda's)


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
    made = DeviceRecord if isinstance(obj, np.void) else DeviceNDArray  # (np.record is one too)
    if use_gpu():
        host = ary if _dense(ary) else np.array(ary, order="K")  # broadcast dimensions filled in
        layout, mem = _gpu_empty(host.shape, host.dtype, host.strides)
        if copy and host.size:
            _core.cuda_memcpy_htod(mem.ptr, host, host.nbytes, stream_handle(stream))
        return made._wrap(layout, stream, mem)
    dev = np.empty_like(ary, order="K", subok=False)
    if copy:
        np.copyto(dev, ary)
    return made._wrap(dev, stream)


def device_array(shape, dtype=np.float64, strides=None, order="C", stream=0):
    """A new device array, uninitialised."""
    return DeviceNDArray(shape, strides=strides, dtype=dtype, stream=stream, order=order)


def _host_layout(ary):
    return ary._ary if isinstance(ary, DeviceNDArray) else np.asarray(ary)


def _order_like(like):
    return "F" if like.flags.f_contiguous and not like.flags.c_contiguous else "C"


def _strides_like(like):
    """The strides of a new contiguous array of like's shape whose axes lie in
    memory in the order of like's (NumPy's order='K': a view's array is one
    too); None where like is contiguous (its order says them)."""
    if like.flags.c_contiguous or like.flags.f_contiguous:
        return None
    strides, step = [0] * like.ndim, like.dtype.itemsize
    for d in sorted(range(like.ndim), key=lambda d: abs(like.strides[d])):  # innermost first
        strides[d] = step
        step *= like.shape[d]
    return tuple(strides)


def device_array_like(ary, stream=0):
    """A new device array of the shape and dtype of ``ary``, its axes in the
    order ``ary``'s lie in memory (C or F where it is contiguous)."""
    check_stream(stream)
    like = _host_layout(ary)
    if use_gpu():
        layout, mem = _gpu_empty(like.shape, like.dtype, strides=_strides_like(like), order=_order_like(like))
        return DeviceNDArray._wrap(layout, stream, mem)
    return DeviceNDArray._wrap(np.empty_like(like, order="K", subok=False), stream)


def from_array_like(ary, stream=0, gpu_data=None):
    """A new device array of ary's shape, strides and dtype, uninitialised
    (numba-cuda's, under numba.cuda.cudadrv.devicearray)."""
    if gpu_data is not None:
        raise NotImplementedError("from_array_like(gpu_data=...) wraps numba-cuda's device memory objects, which "
                                  "ruchey does not have: use cuda.from_cuda_array_interface")
    return DeviceNDArray(ary.shape, ary.strides, ary.dtype, stream=stream)


def auto_device(obj, stream=0, copy=True, user_explicit=False):
    """(a device array holding obj, whether it was copied there): obj itself
    where it is a device array, a view of it where it is another library's
    (the CUDA Array Interface), else a copy on the device (numba-cuda's)."""
    if isinstance(obj, DeviceNDArray):
        return obj, False
    if is_cuda_array(obj):
        return as_cuda_array(obj), False
    return to_device(obj, stream=stream, copy=copy), True


def is_cuda_ndarray(obj):
    """Whether obj is a device array of cuda's own (not another library's)."""
    return isinstance(obj, DeviceNDArray)


def is_cuda_array(obj):
    """Whether ``obj`` is a device array, or an object in a GPU's memory that
    exposes the CUDA Array Interface (a CuPy array, a PyTorch CUDA tensor)."""
    return isinstance(obj, DeviceNDArray) or hasattr(obj, "__cuda_array_interface__")


def from_cuda_array_interface(desc, owner=None, sync=True):
    """A device array over the GPU memory a ``__cuda_array_interface__``
    dictionary describes, without a copy; ``owner`` (which holds that memory)
    is kept alive as long as the array. With ``sync``, the stream the
    interface names is waited for first, as the interface asks."""
    if not use_gpu():
        raise CudaSupportError("a CUDA array interface describes memory on a GPU, and kernels "
                               "run on the CPU backend here")
    if desc.get("mask") is not None:
        raise NotImplementedError("masked CUDA arrays are not supported")
    shape = tuple(int(n) for n in desc["shape"])
    dtype = np.dtype(desc["typestr"])
    strides = desc.get("strides")
    strides = (_contiguous_strides(shape, dtype.itemsize, "C") if strides is None
               else tuple(int(v) for v in strides))
    ptr = int(desc["data"][0] or 0)
    size = _device_bytes(shape, strides, dtype)
    stream = desc.get("stream") if desc.get("version", 0) >= 3 else None
    if stream == 0:
        raise ValueError("the CUDA array interface forbids stream 0: 1 is the legacy default "
                         "stream, 2 the per-thread default stream")
    if sync and stream is not None:
        _core.cuda_stream_synchronize(int(stream))
    mem = _core.DeviceMemory(size, ptr, owner)
    return DeviceNDArray._wrap(np.asarray(_DeviceData(mem, ptr, shape, strides, dtype)), 0, mem)


def as_cuda_array(obj, sync=True):
    """A device array sharing the GPU memory of ``obj``, which exposes the
    CUDA Array Interface (a CuPy array, a PyTorch CUDA tensor, ...)."""
    if isinstance(obj, DeviceNDArray):
        return obj
    try:
        desc = obj.__cuda_array_interface__
    except AttributeError:
        raise TypeError(f"{type(obj).__name__} does not expose __cuda_array_interface__") \
            from None
    return from_cuda_array_interface(desc, owner=obj, sync=sync)


# Host memory: on the GPU backend the driver's (page-locked, mapped, managed);
# on the CPU backend plain NumPy arrays (kernels take host arrays as they are).

_PINNED, _MAPPED, _MANAGED = 1, 2, 3  # the driver's kinds of host memory (cudadrv.c)


def _host_memory(kind, shape, dtype, strides, order, cls=np.ndarray):
    """An array in host memory the driver allocated (page-locked, mapped or
    managed) on the GPU backend; a plain host array on the CPU backend."""
    dtype = np.dtype(dtype)
    if not use_gpu():
        return np.ndarray(shape, dtype=dtype, strides=strides, order=order).view(cls)
    shape = (shape,) if isinstance(shape, (int, np.integer)) else tuple(shape)
    strides = _contiguous_strides(shape, dtype.itemsize, order) if strides is None else tuple(strides)
    mem = _core.cuda_host_alloc(_device_bytes(shape, strides, dtype), kind)
    ary = np.ndarray(shape, dtype=dtype, buffer=mem, strides=strides).view(cls)
    if cls is not np.ndarray:
        ary._mem = mem  # the device's view of it: its __cuda_array_interface__
    return ary


class _DeviceVisibleArray(np.ndarray):
    """A host array the GPU reads and writes where it is: kernels get its
    device address (its __cuda_array_interface__), nothing is copied."""

    @property
    def __cuda_array_interface__(self):
        mem = getattr(self, "_mem", None)
        if mem is None:
            raise AttributeError("a view of a mapped or managed array has no device address")
        return {"shape": self.shape, "strides": None if self.flags.c_contiguous else self.strides,
                "typestr": self.dtype.str, "data": (mem.ptr, False), "version": 3}


class MappedNDArray(_DeviceVisibleArray):
    """cuda.mapped_array: page-locked host memory mapped into the GPU's."""


class ManagedNDArray(_DeviceVisibleArray):
    """cuda.managed_array: memory the driver moves between host and GPU."""


def pinned_array(shape, dtype=np.float64, strides=None, order="C"):
    """A host array in page-locked memory, which copies on a stream do not wait for."""
    return _host_memory(_PINNED, shape, dtype, strides, order)


def pinned_array_like(ary):
    """pinned_array of ary's shape and dtype, laid out as device_array_like's."""
    host = _host_layout(ary)
    return pinned_array(host.shape, host.dtype, strides=_strides_like(host), order=_order_like(host))


def mapped_array_like(ary, stream=0, portable=False, wc=False):
    """mapped_array of ary's shape and dtype, laid out as device_array_like's."""
    host = _host_layout(ary)
    return mapped_array(host.shape, host.dtype, strides=_strides_like(host), order=_order_like(host), stream=stream,
                        portable=portable, wc=wc)


def mapped_array(shape, dtype=np.float64, strides=None, order="C", stream=0, portable=False,
                 wc=False):
    """A host array the GPU reads and writes in place (on the CPU backend, a host array)."""
    check_stream(stream)
    return _host_memory(_MAPPED, shape, dtype, strides, order, MappedNDArray)


def managed_array(shape, dtype=np.float64, strides=None, order="C", stream=0,
                  attach_global=True):
    """An array in managed memory, shared by host and GPU (on the CPU backend, a host array)."""
    check_stream(stream)
    return _host_memory(_MANAGED, shape, dtype, strides, order, ManagedNDArray)


@contextlib.contextmanager
def pinned(*arylist):
    """Pin host arrays for the duration of the context (nothing to do)."""
    yield


def _mapped_view(ary, stream):
    """A device array over the host array's own memory: on the GPU, that memory
    registered with the driver and mapped into the GPU's; on the CPU backend, itself."""
    if not isinstance(ary, np.ndarray):
        raise TypeError(f"cuda.mapped maps NumPy arrays (their memory, in place), not {type(ary).__name__}")
    if not use_gpu():
        return DeviceNDArray._wrap(ary.view(np.ndarray), stream)
    lo, hi = _extent(ary)
    mem = _core.cuda_host_register(ary.ctypes.data + lo, hi - lo, ary)
    layout = np.asarray(_DeviceData(mem, mem.ptr - lo, ary.shape, ary.strides, ary.dtype))
    return DeviceNDArray._wrap(layout, stream, mem)


@contextlib.contextmanager
def mapped(*arylist, stream=0):
    """numba-cuda's cuda.mapped: for the duration of the context, a device
    array over each host array's memory (a list of them for several), which
    kernels read and write in place, nothing copied. On the GPU the memory is
    mapped into the GPU's until the context ends (the device arrays must not
    be used after)."""
    check_stream(stream)
    views = []
    try:
        for ary in arylist:
            views.append(_mapped_view(ary, stream))
        yield views[0] if len(views) == 1 else views
    finally:
        for view in views:
            if view._mem is not None:
                view._mem.release()
