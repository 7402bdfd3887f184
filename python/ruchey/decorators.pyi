from typing import Any, Callable, Literal, ParamSpec, TypeVar, overload

from ruchey._core import Dispatcher
from ruchey.types import Signature, Type

_P = ParamSpec("_P")
_R = TypeVar("_R")
_Signature = str | Signature | Type

@overload
def jit(signature_or_function: Callable[_P, _R], *, nopython: bool = ..., nogil: bool = ...,
        parallel: bool = ..., cache: bool = ..., fastmath: bool = ..., boundscheck: bool = ...,
        error_model: Literal["python", "numpy"] = ..., inline: str = ..., forceobj: bool = ...,
        looplift: bool = ..., locals: dict[str, Type] = ..., debug: bool = ...) -> Dispatcher[_P, _R]: ...
@overload
def jit(signature_or_function: _Signature | list[_Signature] | None = None, *, nopython: bool = ...,
        nogil: bool = ..., parallel: bool = ..., cache: bool = ..., fastmath: bool = ...,
        boundscheck: bool = ..., error_model: Literal["python", "numpy"] = ..., inline: str = ...,
        forceobj: bool = ..., looplift: bool = ..., locals: dict[str, Type] = ...,
        debug: bool = ...) -> Callable[[Callable[_P, _R]], Dispatcher[_P, _R]]: ...

njit = jit  # (forceobj and nopython ignored with a RuntimeWarning)

def prange(*args: int) -> range: ...
