"""overload_classmethod (numba.extending's): a typing function for
``TypeClass.name(...)`` in compiled code, the class of types read as a
global; radiomesh's StructUvwTile.from_uvw builds a structref so. The
typing function and the implementation take the class first. Results are
compared with the implementation run by Python, or with the helper it
calls as Python runs it, on generated inputs."""
import re

import numpy as np
import pytest

import ruchey
from ruchey import njit, types
from ruchey.experimental import structref
from ruchey.extending import overload_classmethod, register_jitable

from conftest import make_rng

TILE_BITS = 21
TILE_MASK = (1 << TILE_BITS) - 1


@register_jitable
def pack(u, v, w):
    return (u & TILE_MASK) | ((v & TILE_MASK) << TILE_BITS) | ((w & TILE_MASK) << (2 * TILE_BITS))


@structref.register
class TileType(types.StructRef):
    def preprocess_fields(self, fields):
        return tuple((n, types.unliteral(t)) for n, t in fields)


TileStruct = TileType(fields=[("index", types.int64), ("scale", types.float64)])


@overload_classmethod(TileType, "from_uvw")
def tile_from_uvw(cls, u, v, w, scale=1.0):
    assert cls.instance_type is TileType

    def impl(cls, u, v, w, scale=1.0):
        tile = structref.new(TileStruct)
        tile.index = pack(u, v, w)
        tile.scale = scale
        return tile
    return impl


@njit
def tile_index(u, v, w):
    t = TileType.from_uvw(u, v, w)
    return t.index, t.scale


@njit
def tile_scaled(u, v, w, s):
    t = TileType.from_uvw(u, v, w, scale=s)
    return t.index, t.scale


def test_a_structref_made_by_a_classmethod_in_compiled_code():
    rng = make_rng(7301)
    for u, v, w in rng.integers(0, 1 << 22, size=(8, 3)):
        assert tile_index(u, v, w) == (pack(u, v, w), 1.0)
    for (u, v, w), s in zip(rng.integers(0, 1 << 22, size=(5, 3)), rng.normal(size=5)):
        assert tile_scaled(u, v, w, s) == (pack(u, v, w), s)


class ArangedArray(types.Array):
    pass


arange_impls = []


@overload_classmethod(ArangedArray, "alloc")
def aranged_alloc(cls, n):
    if not isinstance(n, types.Integer):
        return None

    def impl(cls, n):
        return np.arange(n) * 2
    arange_impls.append(impl)
    return impl


@njit
def alloc(n):
    return ArangedArray.alloc(n)


def test_a_classmethod_of_a_subclass_of_array():
    rng = make_rng(7302)
    for n in rng.integers(0, 50, size=6):
        got = alloc(n)
        expected = arange_impls[-1](None, n)
        assert got.dtype == expected.dtype and np.array_equal(got, expected)


def test_bad_calls_are_typing_errors():
    @njit
    def of_the_base(n):
        return types.Array.alloc(n)

    @njit
    def with_a_float(x):
        return ArangedArray.alloc(x)

    @njit
    def too_many(n):
        return ArangedArray.alloc(n, n)

    for f, arg in ((of_the_base, 3), (with_a_float, 2.5), (too_many, 3)):
        with pytest.raises((ruchey.TypingError, TypeError)):
            f(arg)


class ArangedSubArray(ArangedArray):
    pass


@overload_classmethod(ArangedSubArray, "ones")
def sub_ones(cls, n):
    def impl(cls, n):
        return np.ones(n)
    return impl


def test_a_classmethod_is_its_own_class_s_alone():
    """Numba keys the method by the TypeRef of the class registered: a
    subclass has neither it nor, unless registered itself, any (it is no
    namespace in compiled code), and the types made by the class lack it."""
    @njit
    def of_the_subclass(n):
        return ArangedSubArray.alloc(n)

    @njit
    def subclass_own(n):
        return ArangedSubArray.ones(n)

    @njit
    def of_the_class(n):
        return ArangedArray.ones(n)

    class Unregistered(ArangedArray):
        pass

    @njit
    def of_an_unregistered_subclass(n):
        return Unregistered.alloc(n)

    n = int(make_rng(7303).integers(1, 40))
    assert np.array_equal(subclass_own(n), sub_ones(None, n)(None, n))
    assert np.array_equal(alloc(n), arange_impls[-1](None, n))
    unknown = re.escape(f"Unknown attribute 'alloc' of type typeref[{Unregistered!r}]")
    with pytest.raises(ruchey.TypingError, match=unknown):
        of_an_unregistered_subclass(n)
    # (a class with classmethods of its own is read as a namespace)
    for f, name in ((of_the_subclass, "'ArangedSubArray' has no attribute 'alloc'"),
                    (of_the_class, "'ArangedArray' has no attribute 'ones'")):
        with pytest.raises(ruchey.TypingError, match=f"^{name}\n"):
            f(n)
    assert not hasattr(Unregistered, "alloc") and not hasattr(Unregistered, "__ruchey_namespace__")
    assert not hasattr(ArangedSubArray, "alloc") and not hasattr(ArangedArray, "ones")
    assert not hasattr(ArangedArray(types.float64, 1, "C"), "alloc")
