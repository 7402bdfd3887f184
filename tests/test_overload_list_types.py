"""A list argument as an @overload's typing function sees it: Numba's
typing functions see a Python list as types.List (a reflected list, its
items' type in .dtype) and a typed.List as types.ListType. ruchey holds
both alike, so its typing functions see either as a type that is both:
isinstance(t, types.List) and isinstance(t, types.ListType) hold, and
t.dtype and t.item_type name the items' type. Packages that take a
Python list where the typing function tests for types.List compile
(codex-africanus' spectral_model promotes a list of bases that way)."""
import numpy as np
import pytest

import ruchey
from conftest import AS_NUMBA
from ruchey import types
from ruchey.extending import overload

pytestmark = pytest.mark.skipif(AS_NUMBA, reason="numba itself stands in for ruchey")


def promoted(base, n):
    """base (one number or a list of them) as a list of n, the last repeated."""
    raise NotImplementedError


def promoted_python(base, n):
    return base + [base[-1]] * (n - len(base)) if isinstance(base, list) else [base] * n


@overload(promoted)
def promoted_typer(base, n):
    if isinstance(base, types.List):
        if not isinstance(base.dtype, (types.Integer, types.Float)):
            raise TypeError(f"a list of numbers, got {base}")
        return lambda base, n: base + [base[-1]] * (n - len(base))
    if isinstance(base, (types.Integer, types.Float)):
        return lambda base, n: [base] * n
    return None


@ruchey.njit
def weighted(values, base):
    bases = promoted(base, len(values))
    total = 0.0
    for i in range(len(values)):
        total += values[i] * bases[i]
    return total, len(bases)


def weighted_python(values, base):
    bases = promoted_python(base, len(values))
    return sum(v * b for v, b in zip(values, bases)), len(bases)


def test_a_python_list_is_numbas_list_in_a_typing_function():
    rng = np.random.default_rng(4)
    for n in (1, 3, 8):
        values = rng.normal(size=n)
        for k in range(1, n + 1):
            ints = [int(x) for x in rng.integers(0, 3, k)]
            floats = [float(x) for x in rng.uniform(-1, 1, k)]
            for base in (ints, floats):
                got, want = weighted(values, base), weighted_python(values, base)
                assert got[1] == want[1]
                assert got[0] == pytest.approx(want[0], rel=1e-12)
        for base in (2, 0.5):
            assert weighted(values, base) == pytest.approx(weighted_python(values, base), rel=1e-12)


def test_a_list_made_in_compiled_code_is_numbas_list_too():
    @ruchey.njit
    def made(values, a, b):
        return weighted(values, [a, b])

    values = np.arange(1.0, 6.0)
    assert made(values, 2, 3) == pytest.approx(weighted_python(values, [2, 3]), rel=1e-12)


def test_a_typed_list_passes_both_tests_and_keeps_its_item_type():
    seen = []

    def stub(x):
        raise NotImplementedError

    @overload(stub)
    def stub_typer(x):
        seen.append((isinstance(x, types.List), isinstance(x, types.ListType), x.dtype, x.item_type))
        return lambda x: len(x)

    @ruchey.njit
    def length(x):
        return stub(x)

    assert length(ruchey.typed.List([1.5, 2.5, 3.5])) == 3
    assert seen == [(True, True, types.float64, types.float64)]


def test_a_list_of_strs_is_refused_by_the_typing_function_with_its_error():
    with pytest.raises(TypeError, match="a list of numbers"):
        weighted(np.ones(2), ["std", "log"])
