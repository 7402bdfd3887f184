"""Where Numba's API raises a KeyError (an array type written with an
index or bounds, int32[0] or int32[:2]; an option vectorize or
guvectorize has not), ruchey's error is a KeyError too, as well as the
TypeError it was, so code written for either catches it; its message is
readable (no quotes a KeyError adds)."""
import numpy as np
import pytest
from ruchey import guvectorize, types, vectorize

from conftest import AS_NUMBA, make_rng


def bad_notations(rng, count):
    for _ in range(count):
        k = int(rng.integers(0, 5))
        yield lambda t: t[k]
        yield lambda t: t[:, k]
        yield lambda t: t[::1, k:]
        yield lambda t: t[:k + 1]
    yield lambda t: list(t)


@pytest.mark.parametrize("scalar", [types.int32, types.float64, types.uint8])
def test_array_types_written_with_indices_are_key_and_type_errors(scalar):
    for write in bad_notations(make_rng(1), 3):
        with pytest.raises(KeyError) as raised:
            write(scalar)
        assert "Can only index numba types with slices with no start or stop" in str(raised.value)
        if not AS_NUMBA:  # (Numba's is a KeyError alone)
            assert isinstance(raised.value, TypeError) and not str(raised.value).startswith(("'", '"'))
    assert scalar[:, ::1].layout == "C" and scalar[::1, :].layout == "F"


def add(a, b):
    return a + b


def test_unknown_vectorize_options_are_key_and_type_errors():
    a, b = make_rng(2).random((2, 5)).astype(np.float32)
    sig = ["float32(float32, float32)"]
    for target, sigs in (("cpu", sig), ("cpu", []), ("parallel", sig)):
        with pytest.raises(KeyError, match="Unrecognized options") as raised:  # (Numba's, lazy: at the call)
            vectorize(*([sigs] if sigs else []), target=target, nonexistent=2)(add)(a, b)
        assert "nonexistent" in str(raised.value)
        assert AS_NUMBA or isinstance(raised.value, TypeError)
    f = vectorize(["float32(float32, float32)"])(add)
    assert np.array_equal(f(a, b), a + b)


def test_unknown_guvectorize_options_are_key_errors():
    def total(x, out):
        out[0] = x.sum()
    with pytest.raises(KeyError, match="Unrecognized options"):
        guvectorize(["void(float64[:], float64[:])"], "(n)->()", nonexistent=1)(total)
