"""numba.cuda.cudadrv.driver: the errors code outside numba-cuda catches,
and numba-cuda's driver object, whose raw driver calls and context stack
ruchey does not expose (its CUDA driver calls are C's, core/cudadrv.c)."""
from ruchey.cuda.runtime import CudaError as CudaAPIError, CudaSupportError  # noqa: F401


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
