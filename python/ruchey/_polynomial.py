"""numpy.polynomial.Polynomial in compiled code, as Numba's (its
numba/np/polynomial): Polynomial(coef), Polynomial(coef, domain, window),
their .coef, .domain and .window, passed in and returned. Compiled code
holds one as the named tuple of those three arrays (a value type of
values.c: a Polynomial argument is read as one, one returned is made a
Polynomial again); calling it evaluates it, as NumPy's __call__.

The arrays are NumPy's: the coefficients of as_series (ints made
float64, floats and complex kept, a copy), the default domain and window
[-1, 1] of NumPy's dtype (float64; NumPy 1's and Numba's int64). Registered on first need (the class
named by compiled code or passed to it), as numpy.polynomial is imported
by a program only when it uses it.
"""
import collections

import numpy
from numpy.polynomial import polynomial, polyutils

from ruchey import _core, extending, types

# what compiled code holds of a Polynomial
Shadow = collections.namedtuple("Polynomial", ["coef", "domain", "window"])


class PolynomialType(types.Type):
    """What typing functions see of a Polynomial: a value type of its own,
    so that the tuple's operators (p + q, p[0]) are refused, not the
    named tuple's."""

    def __init__(self):
        super().__init__("Polynomial")


# NumPy's default domain and window: float64 [-1, 1] (NumPy 1's are int64)
_DEFAULT_INTERVAL = polynomial.Polynomial.domain


@extending.register_jitable
def _interval(a, what):
    """domain or window a as NumPy's Polynomial takes it: two numbers (a
    copy, as as_series makes), [-1, 1] where a is None."""
    if a is None:
        return _DEFAULT_INTERVAL.copy()
    v = polyutils.as_series((a,), False)[0]
    if len(v) != 2:
        raise ValueError(what + " has wrong number of elements.")
    return v


def _construct(coef, domain=None, window=None):
    if isinstance(coef, types.Array) and coef.ndim != 1:
        raise _core.TypingError("Coefficient array is not 1-d")

    def impl(coef, domain=None, window=None):
        return Shadow(polyutils.as_series((coef,), False)[0], _interval(domain, "Domain"), _interval(window, "Window"))
    return impl


def _evaluate(p, x):
    """p(x): x mapped from p's domain to its window, then p's value there (NumPy's __call__)."""
    def impl(p, x):
        d, w = p.domain, p.window
        scale = (w[1] - w[0]) / (d[1] - d[0])
        offset = (d[1] * w[0] - d[0] * w[1]) / (d[1] - d[0])
        return polynomial.polyval(offset + scale * x, p.coef)
    return impl


def _len(p):
    """len(p): its coefficients' count, as NumPy's (not the three arrays held)."""
    if isinstance(p, PolynomialType):
        return lambda p: len(p.coef)
    return None


def _convert(obj):
    """A Polynomial argument as compiled code holds it."""
    return Shadow(obj.coef, obj.domain, obj.window)


def _box(coef, domain, window):
    """A Polynomial holding these arrays as they are (its constructor would
    make NumPy 1's int64 default domain float64)."""
    p = polynomial.Polynomial(coef)
    p.domain, p.window = domain, window
    return p


_registered = False


def register():
    """Lets compiled code build, take, return and call Polynomials (once)."""
    global _registered
    if _registered:
        return
    _registered = True
    _core._value_class(polynomial.Polynomial, _convert)
    _core._value_boxer(Shadow, _box)
    extending.overload(polynomial.Polynomial)(_construct)
    extending._named_values[Shadow] = PolynomialType()
    extending.overload_call(PolynomialType, _evaluate)
    extending.overload(len)(_len)
