"""The operator module's functions as values in compiled code
(`apply(operator.add, a, b)` inside a compiled function), as Numba passes
its builtins' function types between compiled functions: each is a
compiled function of its own calling the operator function, a call the
frontend makes the operator itself (core/frontend_operator.c). Each is
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
