"""The decorators: thin glue that hands a function to the C dispatcher."""
import functools

from ruchey import _core

_OPTIONS = ("nopython", "nogil", "parallel", "cache", "fastmath", "boundscheck", "error_model",
            "inline", "forceobj", "looplift")


def _dispatcher(func, options):
    unknown = set(options) - set(_OPTIONS)
    if unknown:
        raise TypeError(f"unsupported jit option(s): {', '.join(sorted(unknown))}")
    disp = _core.Dispatcher(
        func,
        boundscheck=bool(options.get("boundscheck")),
        fastmath=bool(options.get("fastmath")),
        error_model=options.get("error_model", "python"),
        nogil=bool(options.get("nogil")),
    )
    functools.update_wrapper(disp, func)
    return disp


def jit(signature_or_function=None, **options):
    """Compile a function to machine code at its first call.

    ``@jit``, ``@jit(...)`` and ``@njit`` all compile in nopython mode: the
    function runs without the interpreter, or is refused with a TypingError.
    """
    if callable(signature_or_function):
        return _dispatcher(signature_or_function, options)
    if signature_or_function is not None:
        raise TypeError("explicit signatures are not supported yet; call with no signature")
    return lambda func: _dispatcher(func, options)


njit = jit


def prange(*args):
    """range() that ``parallel=True`` functions may run on several threads."""
    return range(*args)
