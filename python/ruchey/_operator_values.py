"""The operator module's functions, and NumPy's and math's, as values in
compiled code (`apply(operator.add, a, b)`, `along_axis(numpy.amin, a)`
inside a compiled function), as Numba passes its builtins' function types
between compiled functions: each is a compiled function of its own calling
the function, a call the frontend makes the builtin itself
(core/frontend_operator.c). A NumPy or math function's takes the
arguments the builtin requires, and the optional ones after them. Each is
made by exec() on first use, its text kept in linecache (as an
interactive cell's) for the source and for error messages."""
import linecache
import operator

from .decorators import njit

_made = {}


def value(name, arity):
    """The compiled function of arity parameters returning operator.<name> of them (made once)."""
    fn = _made.get(name)
    if fn is None:
        params = ", ".join("abc"[:arity])
        namespace, filename = {"operator": operator}, f"<operator.{name}>"
        text = f"def {name}({params}):\n    return operator.{name}({params})\n"
        linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)
        exec(compile(text, filename, "exec"), namespace)
        fn = _made[name] = njit(namespace[name])
    return fn


_builtins_made = {}


def builtin_value(fn, arity, more):
    """The compiled function of arity parameters returning fn (a NumPy or math
    function, or min and max) of them (made once); where more is true, it
    passes on the optional arguments after them too (*more), so that
    min(a, b, c) through a parameter holding min is min of the three."""
    made = _builtins_made.get(id(fn))
    if made is None:
        name = getattr(fn, "__name__", "function")
        params = ", ".join([f"x{i}" for i in range(arity)] + (["*more"] if more else []))
        namespace = {"__ruchey_builtin": fn}
        filename = f"<{getattr(fn, '__module__', None) or 'builtin'}.{name} as a value>"
        text = f"def {name}({params}):\n    return __ruchey_builtin({params})\n"
        linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)
        exec(compile(text, filename, "exec"), namespace)
        made = _builtins_made[id(fn)] = (fn, njit(namespace[name]))  # fn kept: its id stays its own
    return made[1]
