from typing import Any, Callable, Generic, ParamSpec, TypeVar, overload

from ruchey.cuda.runtime import Stream
from ruchey.types import Signature, Type

_P = ParamSpec("_P")
_R = TypeVar("_R")
_Dim = int | tuple[int] | tuple[int, int] | tuple[int, int, int]
_StreamArg = Stream | int

class CUDADispatcher(Generic[_P, _R]):
    """A CUDA kernel (launched as kernel[griddim, blockdim](args)) or a device
    function (called from kernels)."""

    py_func: Callable[_P, _R]
    @property
    def signatures(self) -> list[Any]: ...
    def __call__(self, *args: _P.args, **kwargs: _P.kwargs) -> _R: ...
    # a launch takes host or device arrays (or CuPy's, PyTorch's) for each array
    # parameter, so its arguments are not the Python function's annotations
    def __getitem__(self, config: tuple[_Dim, _Dim] | tuple[_Dim, _Dim, _StreamArg]
                    | tuple[_Dim, _Dim, _StreamArg, int]) -> Callable[..., None]: ...
    def configure(self, griddim: _Dim, blockdim: _Dim, stream: _StreamArg = 0,
                  sharedmem: int = 0) -> Callable[..., None]: ...
    def forall(self, ntasks: int, tpb: int = 0, stream: _StreamArg = 0,
               sharedmem: int = 0) -> Callable[..., None]: ...
    def inspect_llvm(self, signature: Any = None) -> Any: ...
    def inspect_ptx(self, cc: tuple[int, int] = (7, 5)) -> Any: ...
    def inspect_asm(self, signature: Any = None) -> Any: ...
    def device_function(self) -> Any: ...
    def specialize(self, *args: Any) -> CUDADispatcher[_P, _R]: ...

_Signature = str | Signature | Type

@overload
def jit(func_or_sig: Callable[_P, _R], device: bool = False, debug: bool | None = None,
        boundscheck: bool | None = None, fastmath: bool = False, link: Any = None,
        extensions: Any = None, cache: bool = False, **kws: Any) -> CUDADispatcher[_P, _R]: ...
@overload
def jit(func_or_sig: _Signature | list[_Signature] | None = None, device: bool = False,
        debug: bool | None = None, boundscheck: bool | None = None, fastmath: bool = False,
        link: Any = None, extensions: Any = None, cache: bool = False,
        **kws: Any) -> Callable[[Callable[_P, _R]], CUDADispatcher[_P, _R]]: ...

def normalize_kernel_dimensions(griddim: _Dim, blockdim: _Dim) -> Any: ...
