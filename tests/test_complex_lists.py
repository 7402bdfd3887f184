"""Lists of complex numbers (and dicts of complex values) in compiled code:
literals, append/insert/extend/pop/index/count/remove/in, indexing,
slices, iteration, comprehensions, sum, == and !=, typed.List of
complex128 and complex64 shared with Python; sorting, min/max and < are
refused as Python refuses them (complex numbers have no order). Compared
with the function's py_func on generated inputs."""
import numpy as np
import pytest

import ruchey
from ruchey import TypingError, njit, typed

from conftest import AS_NUMBA, make_rng, seed_of

pytestmark = pytest.mark.skipif(AS_NUMBA, reason="ruchey's typed containers (numba's reflected lists differ)")


def random_complex(rng, n):
    return [complex(round(float(a), 3), round(float(b), 3)) for a, b in rng.normal(size=(n, 2))]


def as_python(v):
    if isinstance(v, (typed.List, list)):
        return [as_python(x) for x in v]
    if isinstance(v, (typed.Dict, dict)):
        return {k: as_python(x) for k, x in v.items()}
    if isinstance(v, tuple):
        return tuple(as_python(x) for x in v)
    return complex(v) if isinstance(v, (complex, np.complexfloating)) else v


def same(f, *args):
    """f against f.py_func: typed lists given as fresh copies to each, results as Python values."""
    def fresh():
        return [typed.List(a) if isinstance(a, list) else a for a in args]
    want = as_python(f.py_func(*[list(a) if isinstance(a, list) else a for a in args]))
    got = as_python(f(*fresh()))
    assert got == want
    return got


@njit
def literal_and_appends(z, n):
    out = [1j, z, 2 - 3j]
    for i in range(n):
        out.append(z * i)
    out.insert(1, -z)
    out.extend([z, z.conjugate()])
    return out


@njit
def searches(l, z):
    return z in l, l.count(z), len(l), (l.index(z) if z in l else -1)


@njit
def pops_and_removes(l, z):
    l.append(z)
    last = l.pop()
    if len(l) > 1:
        del l[0]
    if z in l:
        l.remove(z)
    return last, l


@njit
def indexing_and_slices(l):
    l[0] = l[-1] * 2
    return l[0], l[1:], l[::-1], l[::2] == l[::2], l != l[::-1]


@njit
def walk_and_sum(l):
    total = 0j
    for z in l:
        total += z * z
    return total, sum(l, 0j), [abs(z) for z in l], [z for z in l if z.real > 0]


@njit
def from_array(a):
    return list(a), [x for x in a], typed.List(a)


@njit
def values_of_a_dict(l):
    d = {}
    for i, z in enumerate(l):
        d[i % 3] = d.get(i % 3, 0j) + z
    return d, list(d.values())


@njit
def repeat_and_concat(l, n):
    return l * n + [1j]


@njit
def sorted_by_magnitude(l):
    return sorted(l, key=lambda z: abs(z))


@pytest.mark.parametrize("n", [1, 3, 17])
def test_complex_list_operations_match_python(n):
    rng = make_rng(seed_of("complex lists", n))
    items = random_complex(rng, n)
    z = items[int(rng.integers(0, n))]
    same(literal_and_appends, z, n)
    same(searches, items, z)
    same(searches, items, z + 1)
    same(pops_and_removes, items, z)
    same(indexing_and_slices, items)
    same(walk_and_sum, items)
    same(values_of_a_dict, items)
    same(repeat_and_concat, items, 2)
    same(sorted_by_magnitude, items)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_list_of_complex_array_items_keeps_the_dtype(dtype):
    a = (make_rng(seed_of("complex array", str(dtype))).normal(size=(5, 2)) @ [1, 1j]).astype(dtype)
    as_list, comp, as_typed = from_array(a)
    assert type(as_list) is list and all(type(z) is complex for z in as_list + comp)  # as Numba's reflected lists
    assert str(as_typed.item_type) == np.dtype(dtype).name
    assert as_list == list(a) and comp == list(a) and list(as_typed) == list(a)


@njit
def grow_typed(l, z):
    l.append(z)
    return l[0] + l[-1]


@pytest.mark.parametrize("item", ["complex64", "complex128"])
def test_typed_list_of_complex_shared_with_python(item):
    l = typed.List.empty_list(getattr(ruchey, item))
    l.append(1 + 2j)
    l.append(3)
    r = grow_typed(l, 0.5j)
    assert r == (1 + 2j) + 0.5j and list(l) == [1 + 2j, 3 + 0j, 0.5j]
    assert all(type(x) is complex for x in l)
    assert l == [1 + 2j, 3, 0.5j]


def test_python_sort_of_a_typed_complex_list_raises_as_python():
    l = typed.List([2j, 1j])
    with pytest.raises(TypeError, match="'<' not supported"):
        l.sort()
    one = typed.List([1j])
    one.sort()  # no comparison made: as Python's
    assert list(one) == [1j]


def test_orderings_of_complex_items_are_typing_errors():
    def sort_it(z):
        l = [z, 2j]
        l.sort()
        return l

    def sorted_it(z):
        return sorted([z, 2j])

    def less(z):
        return [z] < [2j]

    def biggest(z):
        return max([z, 2j])

    for f, match in ((sort_it, "complex numbers have no order"), (sorted_it, "complex numbers have no order"),
                     (less, "only compared with == and !="), (biggest, "does not support complex")):
        with pytest.raises(TypingError, match=match):
            njit(f)(1j)
        with pytest.raises(TypeError):
            f(1j)  # Python refuses each too


def test_complex_dict_keys_and_set_items_are_numbers_as_in_python():
    def complex_key(z):
        d = {z: 1, 2 + 0j: 2}
        return d[z], d.get(2), z in {z}, list(d.items())

    def complex_in(z):
        return z in {1: 2}

    for f in (complex_key, complex_in):
        for z in (1j, 2 + 0j, complex(-0.5, 3)):
            assert njit(f)(z) == f(z)


@njit
def narrower_items(z, x, i):
    c = typed.List.empty_list(ruchey.complex64)
    c.append(z)
    c.append(x)
    c.append(i)
    f = typed.List.empty_list(ruchey.float32)
    f.append(x)
    f.append(i)
    n = typed.List.empty_list(ruchey.int32)
    n.append(i)
    d = typed.Dict.empty(ruchey.int64, ruchey.complex64)
    d[0] = z
    return c, f, n, d


def test_numbers_are_cast_into_narrower_containers_as_numba_does():
    c, f, n, d = narrower_items(1.25 - 0.5j, 2.5, 7)
    assert list(c) == [1.25 - 0.5j, 2.5, 7] and list(f) == [2.5, 7.0] and list(n) == [7] and d[0] == 1.25 - 0.5j
    assert (str(c.item_type), str(f.item_type), str(n.item_type)) == ("complex64", "float32", "int32")


@njit
def narrower_stores(n, i, x, z):
    ints = typed.List.empty_list(ruchey.int32)
    floats = typed.List.empty_list(ruchey.float32)
    cs = typed.List.empty_list(ruchey.complex64)
    for k in range(n):
        ints.append(k)
        floats.append(k)
        cs.append(k)
    ints[0] = i
    ints[-1] = i + 1
    floats[-1] = i
    floats[0] = x
    cs[0] = z
    cs[-1] = x
    return ints, floats, cs


def test_stores_into_narrower_list_items_cast_as_appends_do():
    rng = np.random.default_rng(5)
    for i in [0, -1, 2**31 - 1, -2**31, 2**40 + 7, *(int(v) for v in rng.integers(-2**62, 2**62, size=4))]:
        n, x, z = int(rng.integers(1, 5)), float(rng.normal() * 1e3), complex(rng.normal(), rng.normal())
        ints, floats, cs = narrower_stores(n, i, x, z)
        want = narrower_stores.py_func(n, i, x, z)
        assert list(ints) == list(np.array(want[0], dtype=np.int64).astype(np.int32))
        assert list(floats) == list(np.array(want[1], dtype=np.float64).astype(np.float32))
        assert list(cs) == list(np.array(want[2], dtype=np.complex128).astype(np.complex64))


def test_a_float_into_an_int_list_is_still_refused():
    def float_into_ints(x):
        n = typed.List.empty_list(ruchey.int32)
        n.append(x)
        return n

    def float_stored_into_ints(x):
        n = typed.List.empty_list(ruchey.int32)
        n.append(1)
        n[0] = x
        return n

    with pytest.raises(TypingError, match="cannot put float64 into"):
        njit(float_into_ints)(1.5)
    with pytest.raises(TypingError, match="cannot store float64 into"):
        njit(float_stored_into_ints)(1.5)


def test_empty_complex_list_from_empty_list():
    @njit
    def empty_then(z):
        l = typed.List.empty_list(ruchey.complex128)
        s = 0j
        for v in l:
            s += v
        l.append(z)
        return s, l

    s, l = empty_then(2j)
    assert s == 0j and list(l) == [2j]
