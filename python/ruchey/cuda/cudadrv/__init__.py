"""numba-cuda's module path of its device arrays and driver errors, which code
for numba-cuda names: ``cuda.cudadrv.devicearray.DeviceNDArray`` in an
isinstance check, ``from numba.cuda.cudadrv.driver import CudaAPIError``,
``cuda.cudadrv.nvrtc.find_closest_arch(cc)``."""
from ruchey.cuda.cudadrv import devicearray, driver, nvrtc  # noqa: F401
