"""Complex numbers as set items and dict keys: hashed as Python hashes them
(so that a set iterates in Python's order), equal where their values are
(1j == 1j, 2 == 2+0j), each compiled function compared with its py_func on
generated complex64 and complex128 arrays with repeats, zeros of both signs
and infinities."""
import numpy as np
import pytest

import ruchey
from ruchey import njit, typed

from conftest import AS_NUMBA, make_rng


def complex_items(rng, n, dtype):
    """n complex numbers of dtype: small parts (so that many repeat), edge values among them."""
    parts = rng.integers(-3, 4, (n, 2)) * 0.5
    z = (parts[:, 0] + 1j * parts[:, 1]).astype(dtype)
    edges = np.array([0, -0.0 + 0j, complex(0, -0.0), np.inf, complex(1, -np.inf), 2 + 0j, 1j], dtype=dtype)
    return np.concatenate([z, edges]) if n >= 5 else z


@njit
def built(a, b):
    s = set()
    for z in a:
        s.add(z)
    t = set(b)
    lit = {1j, 2 + 0j, 1j, -0.5 - 0.5j}
    for z in b[:1]:
        s.discard(z - z)  # a zero of the items' type
    total = 0j
    for z in s:
        total += z
    return (len(s), list(s), list(t), list(lit), list(s | t), list(s & t), list(s - t), list(s ^ t),
            1j in s, 2 in t, s <= (s | t), total)


@pytest.mark.parametrize("n", [0, 1, 5, 40])
@pytest.mark.parametrize("dtype", [np.complex128, np.complex64])
def test_complex_sets_agree_with_python_in_python_order(n, dtype):
    rng = make_rng(n)
    a, b = complex_items(rng, n, dtype), complex_items(rng, n // 2, dtype)
    got, expected = built(a, b), built.py_func(a, b)
    if AS_NUMBA:  # Numba's sets iterate in an order of their own
        got, expected = [tuple(set(x) if isinstance(x, list) else x for x in r) for r in (got, expected)]
    assert got[:-1] == expected[:-1]
    assert got[-1] == pytest.approx(expected[-1])


@njit
def popped(a):
    s = set(a)
    out = []
    while len(s) > 1:
        out.append(s.pop())
    for z in a:
        if z in s:
            s.remove(z)
    return out, len(s)


@pytest.mark.skipif(AS_NUMBA, reason="Numba's sets pop in an order of their own")
def test_complex_set_pop_order_and_remove_as_python():
    a = complex_items(make_rng(3), 30, np.complex128)
    assert popped(a) == popped.py_func(a)

    @njit
    def remove(s, z):
        s.remove(z)

    with pytest.raises(KeyError) as e:
        remove({1j, 2j}, 0.5 - 3j)
    assert e.value.args == (0.5 - 3j,)


@njit
def counted(a):
    d = {}
    for z in a:
        d[z] = d.get(z, 0) + 1
    top = d.pop(a[0]) if len(a) else -1
    last = d.popitem() if len(d) else (0j, 0)
    return list(d.items()), top, last, (1 + 0j) in d, 1 in d


@pytest.mark.skipif(AS_NUMBA, reason="Numba types no {} by d.get(k, 0)")
@pytest.mark.parametrize("n", [0, 1, 7, 50])
@pytest.mark.parametrize("dtype", [np.complex128, np.complex64])
def test_complex_dict_keys_agree_with_python(n, dtype):
    a = complex_items(make_rng(n + 1), n, dtype)
    assert counted(a) == counted.py_func(a)


@pytest.mark.skipif(AS_NUMBA, reason="Numba takes no Python sets of complex numbers")
def test_python_sets_of_complex_numbers_are_reflected():
    @njit
    def grow(s, z):
        s.add(z)
        s.discard(1j)
        return len(s)

    s = {1j, 2 + 0.5j, -1 + 0j}
    assert grow(s, 3j) == 3
    assert s == {2 + 0.5j, -1 + 0j, 3j}


def test_keys_are_cast_to_the_key_type_as_numba_casts_them():
    @njit
    def narrow():
        f = typed.Dict.empty(ruchey.float32, ruchey.int64)
        c = typed.Dict.empty(ruchey.complex64, ruchey.int64)
        f[0.1] = 1
        c[0.1j] = 2
        return np.float32(0.1) in f, np.complex64(0.1j) in c, c[np.complex64(0.1j)], 0.5 in f

    assert narrow() == (True, True, 2, False)
