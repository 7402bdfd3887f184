"""numba.cuda.cudadrv.driver: the errors code outside numba-cuda catches."""
from ruchey.cuda.runtime import CudaError as CudaAPIError, CudaSupportError  # noqa: F401
