"""cuda.reduce: numba-cuda's reduction of a 1-d array by a binary function.

    sum_reduce = cuda.reduce(lambda a, b: a + b)
    total = sum_reduce(arr, init=0)

The function is compiled as a device function; two kernels apply it: one
thread per element up to a few thousand reduces its stride of the array,
then one thread reduces those partial results and the initial value (as
numba-cuda, ``op(result, init)``, init 0 unless given). Runs wherever the
kernels run: on the GPU, or on the CPU backend.
"""
import numpy as np

from ruchey.cuda import devicearray
from ruchey.cuda.intrinsics import grid as cuda_grid
from ruchey.cuda.kernels import jit

_THREADS = 256
_MAX_PARTIALS = 64 * _THREADS


def _kernels(op):
    @jit
    def strided(arr, partials):
        t = cuda_grid(1)
        if t < partials.size:
            acc = arr[t]
            for i in range(t + partials.size, arr.size, partials.size):
                acc = op(acc, arr[i])
            partials[t] = acc

    @jit
    def finish(partials, init, out):
        if cuda_grid(1) == 0:
            acc = partials[0]
            for i in range(1, partials.size):
                acc = op(acc, partials[i])
            out[0] = op(acc, init)

    return strided, finish


class Reduce:
    """A reduction by ``functor(a, b)``, compiled once per element type."""

    def __init__(self, functor):
        self._functor = functor
        self._op = jit(device=True)(functor)
        self._kernels = None

    def __call__(self, arr, size=None, res=None, init=0, stream=0):
        """Reduces the 1-d ``arr`` (its first ``size`` elements): returns the
        result, or writes it to ``res[0]`` (a device array) and returns None.
        An empty array gives ``init``."""
        if arr.ndim != 1:
            raise TypeError("only support 1D array")
        if size is not None:
            arr = arr[:size]
        init = arr.dtype.type(init)
        if arr.size < 1:
            return init
        if self._kernels is None:
            self._kernels = _kernels(self._op)
        strided, finish = self._kernels
        if not isinstance(arr, devicearray.DeviceNDArray):
            arr = devicearray.to_device(arr, stream=stream)
        count = min(arr.size, _MAX_PARTIALS)
        partials = devicearray.device_array(count, dtype=arr.dtype, stream=stream)
        out = devicearray.device_array(1, dtype=arr.dtype, stream=stream)
        strided[(count + _THREADS - 1) // _THREADS, _THREADS, stream](arr, partials)
        finish[1, 1, stream](partials, init, out)
        if res is not None:
            res[:1].copy_to_device(out, stream=stream)
            return None
        return out.copy_to_host(stream=stream)[0]


def reduce(functor):
    """``cuda.reduce(f)`` or ``@cuda.reduce``: a Reduce by f."""
    return Reduce(functor)
