"""A variable that is None on one path and a number on another (an
Optional) passed to a function compiled for explicit signatures: the
number's signature takes it, unwrapped, as Numba's unsafe conversion of
Optional(T) to T does; None reaching it at run time is a TypeError."""
import numpy as np
import pytest

from ruchey import njit, types

f8 = types.float64


@njit(types.UniTuple(f8, 2)(types.Optional(f8), f8, types.int64, types.Array(f8, 1, "C")))
def flux(s, s0, i, p):
    return s + p[i], s0 * p[i]


@njit
def step(fluxes, s, s0, i, args):
    if s is None:  # s: None or a float, the state given or the one before
        s = s0
    return fluxes(s, s0, i, *args)


@njit
def step_direct(s, s0, i, p):
    if s is None:
        s = s0
    return flux(s, s0, i, p)


@njit
def chosen(s, s0, p, use):
    x = s if use else None
    return flux(x, s0, 0, p)


@njit("f8(f8)")
def half(x):
    return x / 2


@njit
def halve_if(n, use):
    x = n if use else None
    return half(x)


def test_optional_state_reaches_a_function_compiled_for_its_value():
    rng = np.random.default_rng(3)
    p = rng.uniform(0.5, 2.0, 12)
    for i in range(12):
        s0 = float(rng.uniform(1, 5))
        for s in (None, float(rng.uniform(1, 5))):
            assert step(flux, s, s0, i, (p,)) == step.py_func(flux, s, s0, i, (p,))
            assert step_direct(s, s0, i, p) == step_direct.py_func(s, s0, i, p)


def test_optional_int_converts_to_a_float_signature():
    for n in np.random.default_rng(4).integers(-50, 50, 10):
        assert halve_if(int(n), True) == halve_if.py_func(int(n), True)


def test_none_reaching_a_value_signature_raises_type_error():
    p = np.arange(1.0, 4.0)
    assert chosen(2.0, 1.0, p, True) == chosen.py_func(2.0, 1.0, p, True)
    with pytest.raises(TypeError, match="expected float64, got None"):
        chosen(2.0, 1.0, p, False)
    with pytest.raises(TypeError):
        halve_if(3, False)
