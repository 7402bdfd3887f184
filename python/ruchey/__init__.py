"""ruchey: a just-in-time compiler for numeric Python, written in C on LLVM.

Its API is the core of Numba's, so ``import ruchey as numba`` runs existing
code. Importing it loads neither LLVM nor the compiler: the first call of a
compiled function does.
"""
from ruchey._core import TypingError
from ruchey.decorators import jit, njit, prange

__version__ = "0.1.0"
__all__ = ["jit", "njit", "prange", "TypingError"]
