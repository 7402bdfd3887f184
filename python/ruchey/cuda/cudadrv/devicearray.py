"""numba.cuda.cudadrv.devicearray: the device array class and the functions
code outside numba-cuda calls there."""
from ruchey.cuda.devicearray import DeviceNDArray, auto_device, from_array_like, is_cuda_ndarray  # noqa: F401

DeviceNDArrayBase = DeviceNDArray  # (numba-cuda's base class of its device arrays)
