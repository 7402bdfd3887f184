"""numba.cuda.cudadrv.driver: the errors code outside numba-cuda catches,
the memory pointers of device arrays (``d.gpu_data``), and numba-cuda's
driver object, whose raw driver calls and context stack ruchey does not
expose (its CUDA driver calls are C's, core/cudadrv.c)."""
import ctypes

from ruchey.cuda.runtime import CudaError as CudaAPIError, CudaSupportError  # noqa: F401


class MemoryPointer:
    """numba-cuda's device memory pointer, a device array's ``gpu_data``: the
    bytes its items span (``device_pointer``, ``size``), in a GPU's memory or
    the CPU backend's, kept alive by ``owner`` (the allocation). Two are equal
    where they name the same bytes: a view as another dtype has its array's."""

    __cuda_memory__ = True

    def __init__(self, pointer, size, owner):
        self.device_pointer = self.handle = int(pointer)
        self.size = self._cuda_memsize_ = int(size)
        self.owner = owner

    @property
    def device_ctypes_pointer(self):
        return ctypes.c_size_t(self.device_pointer)

    @property
    def device_pointer_value(self):
        return self.device_pointer or None

    def __eq__(self, other):
        return isinstance(other, MemoryPointer) and (self.device_pointer, self.size) == \
            (other.device_pointer, other.size)

    def __hash__(self):
        return hash((self.device_pointer, self.size))

    def __repr__(self):
        return f"<MemoryPointer {self.device_pointer:#x}, {self.size} bytes>"


class Driver:
    """numba-cuda's ``driver.driver``: each attribute refuses, with the reason
    (a stand-in that answered every call would leave ``while
    driver.pop_active_context() is not None`` looping for ever)."""

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        raise NotImplementedError(
            f"numba-cuda's driver.{name} is a raw CUDA driver call or its context stack, which ruchey does not "
            "expose: use cuda.current_context(), cuda.select_device() and cuda.gpus")

    def __repr__(self):
        return "<numba-cuda's CUDA driver object, not exposed by ruchey>"


driver = Driver()
