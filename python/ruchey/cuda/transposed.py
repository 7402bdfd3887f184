"""numba-cuda's transpose of a 2-D device array (numba.cuda.kernels.transpose):
a new array, C-contiguous, holding the transpose, which is also what
DeviceNDArray.T and .transpose() give (a copy, not a view: writing to it
leaves the original as it was, as in numba-cuda).

On the GPU the copy is a kernel over the items seen as unsigned words (any
dtype: records and bools too); on the CPU backend it is NumPy's copy.
"""
import math

import numpy as np

from ruchey.cuda.devicearray import DeviceNDArray, _DeviceData, _address, device_array, to_device
from ruchey.cuda.intrinsics import grid, gridsize
from ruchey.cuda.kernels import jit

_BLOCK = (32, 8)  # threads along the result's columns (its writes coalesce), then rows
_MAX_BLOCKS = 65535  # the grid's y limit; the kernel strides over what is past it


@jit
def _transpose_words(src, dst):
    """dst[i, j, :] = src[j, i, :], a grid-stride loop."""
    j0, i0 = grid(2)
    sj, si = gridsize(2)
    for i in range(i0, dst.shape[0], si):
        for j in range(j0, dst.shape[1], sj):
            for k in range(dst.shape[2]):
                dst[i, j, k] = src[j, i, k]


def transpose(a, b=None):
    """The transpose of ``a`` (a 2-D device or host array) stored into ``b``
    (a device array of the transposed shape and a's dtype), or else into a
    new C-contiguous device array; returns it. The work goes on a's stream."""
    stream = getattr(a, "stream", 0)
    if not isinstance(a, DeviceNDArray):
        a = to_device(np.asarray(a), stream=stream)
    if a.ndim != 2:
        raise NotImplementedError("transposing a non-2D DeviceNDArray isn't supported")
    rows, cols = a.shape[1], a.shape[0]
    if b is None:
        b = device_array((rows, cols), dtype=a.dtype, stream=stream)
    elif not isinstance(b, DeviceNDArray) or b.shape != (rows, cols) or b.dtype != a.dtype:
        raise ValueError(f"the transpose of a {a.shape} array of {a.dtype} goes into a device array of shape "
                         f"{(rows, cols)} and that dtype, not {b!r}")
    if not a.size:
        return b
    if a.on_gpu != b.on_gpu:
        raise ValueError("the transpose of an array goes into an array on the same device (the GPU or the CPU backend)")
    if a.on_gpu:
        _copy_words(a, b, stream)
    else:
        np.copyto(b._ary, a._ary.T)
    return b


def _word_view(ary, width):
    """A GPU array (rows, cols) seen as (rows, cols, itemsize // width) unsigned words."""
    layout = ary._ary
    shape = layout.shape + (layout.itemsize // width,)
    words = np.asarray(_DeviceData(ary._mem, _address(layout), shape, layout.strides + (width,),
                                   np.dtype(f"u{width}")))
    return DeviceNDArray._wrap(words, ary.stream, ary._mem)


def _copy_words(a, b, stream):
    """b[i, j] = a[j, i] on the GPU, word by word."""
    width = next(w for w in (8, 4, 2, 1) if a.dtype.itemsize % w == 0 and all(
        s % w == 0 for s in a.strides + b.strides + (_address(a._ary), _address(b._ary))))
    rows, cols = b.shape
    blocks = (min(math.ceil(cols / _BLOCK[0]), _MAX_BLOCKS), min(math.ceil(rows / _BLOCK[1]), _MAX_BLOCKS))
    _transpose_words[blocks, _BLOCK, stream](_word_view(a, width), _word_view(b, width))

