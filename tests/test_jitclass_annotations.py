"""jitclass fields typed by annotations written as strings (this module has
``from __future__ import annotations``, as many packages do): evaluated in
the class's module, as Numba's typing.get_type_hints, with Python's own
types (int, float, complex, bool, str, list[...], dict[...], tuple[...],
Optional[...]) read as Numba's as_numba_type reads them. Each class is
checked against the undecorated class (class_type.class_def) on generated
inputs."""
from __future__ import annotations

from typing import Optional, Union

import numpy as np
import pytest

import ruchey as nb
from ruchey import typed, types
from ruchey.experimental import jitclass

from conftest import AS_NUMBA, make_rng

ruchey_only = pytest.mark.skipif(AS_NUMBA, reason="ruchey's messages")


@jitclass
class Peaks:
    name: nb.types.string
    charge: nb.int8
    mz: nb.float64[:]
    intensity: nb.float32[:]
    scale: float
    count: int
    sorted_: bool
    phase: complex

    def __init__(self, name, charge, mz, intensity, scale):
        self.name = name
        self.charge = charge
        order = np.argsort(mz)
        self.mz = mz[order]
        self.intensity = intensity[order].astype(np.float32)
        self.scale = scale
        self.count = len(mz)
        self.sorted_ = True
        self.phase = complex(scale, charge)

    def top(self, k):
        keep = np.argsort(self.intensity)[-k:]
        return self.mz[np.sort(keep)] * self.scale

    def label(self):
        return self.name + "/" + str(self.count)


@jitclass
class Containers:
    weights: list[float]
    index: dict[str, int]
    pair: tuple[int, float]
    limit: Optional[float]

    def __init__(self, n, limit):
        self.weights = typed.List.empty_list(types.float64)
        self.index = typed.Dict.empty(types.unicode_type, types.int64)
        for i in range(n):
            self.weights.append(i * 0.5)
            self.index["k" + str(i)] = i
        self.pair = (n, n * 0.25)
        self.limit = limit

    def total(self):
        s = 0.0
        for w in self.weights:
            s += w
        if self.limit is not None:
            s = min(s, self.limit)
        return s + self.pair[1] + self.index["k0"]


def plain(cls):
    return cls.class_type.class_def


def test_string_annotations_type_the_fields():
    rng = make_rng(31)
    for n in (1, 5, 40):
        mz = rng.uniform(100, 900, n)
        inten = rng.lognormal(1, 1, n).astype(np.float32)
        got, want = Peaks("s", 2, mz, inten, 1.5), plain(Peaks)("s", 2, mz, inten, 1.5)
        np.testing.assert_array_equal(got.mz, want.mz)
        np.testing.assert_array_equal(got.intensity, want.intensity)
        assert got.intensity.dtype == np.float32 and got.mz.dtype == np.float64
        k = min(3, n)
        np.testing.assert_array_equal(got.top(k), want.top(k))
        assert (got.name, got.charge, got.scale, got.count, got.sorted_, got.phase) == \
            (want.name, want.charge, want.scale, want.count, want.sorted_, want.phase)
        assert got.label() == want.label()


def test_python_generic_annotations_are_typed_containers():
    for n, limit in ((1, None), (4, 2.0), (10, None)):
        got, want = Containers(n, limit), plain(Containers)(n, limit)
        assert got.total() == want.total()
        assert got.pair == want.pair and got.limit == want.limit
        assert list(got.weights) == list(want.weights)


@ruchey_only
def test_union_annotation_is_refused():
    class Bad:
        v: Union[int, float]

        def __init__(self):
            self.v = 1
    with pytest.raises(TypeError, match="field 'v' is annotated"):
        jitclass(Bad)


@ruchey_only
def test_annotation_naming_nothing_is_a_name_error():
    class Missing:
        v: no_such_type  # noqa: F821

        def __init__(self):
            self.v = 1
    with pytest.raises(NameError, match="no_such_type"):
        jitclass(Missing)
