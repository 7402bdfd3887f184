"""The operator module's functions as values in compiled code
(`apply(operator.add, a, b)` inside a compiled function), as Numba passes
its builtins' function types between compiled functions: each is a
compiled function of its own calling the operator function, a call the
frontend makes the operator itself (core/frontend_operator.c). Each is
made by exec() on first use, ruchey reading its source from that string."""
import operator

from .decorators import njit

_made = {}


def value(name, arity):
    """The compiled function of arity parameters returning operator.<name> of them (made once)."""
    fn = _made.get(name)
    if fn is None:
        params = ", ".join("abc"[:arity])
        namespace = {"operator": operator}
        exec(f"def {name}({params}):\n    return operator.{name}({params})\n", namespace)
        fn = _made[name] = njit(namespace[name])
    return fn
