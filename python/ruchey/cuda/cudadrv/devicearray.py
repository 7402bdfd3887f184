"""numba.cuda.cudadrv.devicearray: the device array class and the functions
code outside numba-cuda calls there."""
from ruchey.cuda.devicearray import (DeviceNDArray, DeviceRecord, auto_device, from_array_like,  # noqa: F401
                                     from_record_like, is_cuda_ndarray)

DeviceNDArrayBase = DeviceNDArray  # (numba-cuda's base class of its device arrays)
