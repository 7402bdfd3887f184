"""An @intrinsic pickles, as Numba's: by name where its module holds it
(the same object comes back), by value where it was made inside a
function (its typing function through cloudpickle; the receiver generates
its code again), so that a compiled function calling it, or the intrinsic
itself, goes to multiprocessing and Dask workers. Each use is compared with
a Numba-free Python expectation on generated inputs (an intrinsic cannot
run in Python)."""
import pickle

import pytest
from ruchey import njit, types
from ruchey.extending import intrinsic

from conftest import make_rng

pytest.importorskip("cloudpickle")


@intrinsic
def wrapping_add(typingctx, a, b):
    if not (isinstance(a, types.Integer) and a == b):
        return None

    def codegen(context, builder, sig, args):
        return builder.add(args[0], args[1])
    return a(a, b), codegen


def make_local_intrinsics(offset):
    @intrinsic
    def plus_offset(typingctx, x):
        if not isinstance(x, types.Integer):
            return None

        def codegen(context, builder, sig, args):
            return builder.add(args[0], args[0].type(offset))
        return x(x), codegen

    @njit
    def twice_plus_offset(v):
        return plus_offset(v) + plus_offset(v)
    return plus_offset, twice_plus_offset


def test_a_module_level_intrinsic_pickles_by_name():
    assert pickle.loads(pickle.dumps(wrapping_add)) is wrapping_add


def test_a_local_intrinsic_pickles_by_value_and_compiles_again():
    rng = make_rng(1)
    for offset in rng.integers(-100, 100, 3):
        plus_offset, _ = make_local_intrinsics(int(offset))
        rebuilt = pickle.loads(pickle.dumps(plus_offset))
        assert rebuilt.__name__ == "plus_offset"

        @njit
        def use(v):
            return rebuilt(v)
        for v in rng.integers(-10**6, 10**6, 10):
            assert use(int(v)) == int(v) + int(offset)


def test_a_compiled_function_calling_a_local_intrinsic_pickles():
    rng = make_rng(2)
    offset = int(rng.integers(1, 50))
    _, twice_plus_offset = make_local_intrinsics(offset)
    rebuilt = pickle.loads(pickle.dumps(twice_plus_offset))
    for v in rng.integers(-1000, 1000, 10):
        assert rebuilt(int(v)) == twice_plus_offset(int(v)) == 2 * (int(v) + offset)


def test_a_local_intrinsic_calls_nothing_in_python_after_unpickling():
    plus_offset, _ = make_local_intrinsics(3)
    with pytest.raises((TypeError, NotImplementedError)):  # (ruchey's TypeError, Numba's NotImplementedError)
        pickle.loads(pickle.dumps(plus_offset))(1)
