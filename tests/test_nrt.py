"""Numba's NRT C API: a C library makes MemInfos through the table that
``NRT_get_api()`` gives compiled code, compiled code holds them as
``types.MemInfoPointer`` values (counted: a copy takes a reference, the end
of a value's life drops one, the last runs the library's destructor) and
reads their data in an @intrinsic with ``context.nrt.meminfo_data``.

The library (tests/c/nrt_boxes.c) is built here with the system C compiler
and loaded with RTLD_GLOBAL, as llvmlite loads a package's library; it
counts the boxes it made and those its destructor freed, so that each test
checks there is no leak and no double free. The functions call C code
that Python cannot run, so each is checked against the same computation
done by hand in Python.
"""
import ctypes
import gc
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

import ruchey
from ruchey import njit, types
from ruchey.extending import intrinsic
from ruchey.experimental import structref

from conftest import AS_NUMBA

if AS_NUMBA:
    from numba.core.unsafe.nrt import NRT_get_api
else:
    from ruchey.intrinsics import NRT_get_api

CC = shutil.which("cc") or shutil.which("gcc")
pytestmark = pytest.mark.skipif(CC is None, reason="no C compiler")


@pytest.fixture(scope="module")
def lib(tmp_path_factory):
    out = tmp_path_factory.mktemp("nrt") / "libnrtboxes.so"
    src = Path(__file__).parent / "c" / "nrt_boxes.c"
    subprocess.run([CC, "-std=c11", "-O2", "-shared", "-fPIC", "-Wall", "-Werror", "-o", str(out), str(src)],
                   check=True)
    lib = ctypes.CDLL(str(out), mode=ctypes.RTLD_GLOBAL)
    lib.nrtbox_made.restype = lib.nrtbox_destroyed.restype = ctypes.c_long
    return lib


def live(lib):
    gc.collect()
    return lib.nrtbox_made() - lib.nrtbox_destroyed()


MI = types.MemInfoPointer(types.voidptr)
make = types.ExternalFunction("nrtbox_make", MI(types.voidptr, types.float64, types.int64))
apply = types.ExternalFunction("nrtbox_apply", types.float64(types.voidptr, types.float64))
halves = types.ExternalFunction("nrtbox_halves", MI(types.voidptr, types.int64))
keep = types.ExternalFunction("nrtbox_keep", types.void(types.voidptr, MI))
drop = types.ExternalFunction("nrtbox_drop", types.void())
# a use of a MemInfo after its data's: Numba drops a variable after its last
# use, which would free the box before the data were read
touch = types.ExternalFunction("nrtbox_touch", types.void(MI))


@intrinsic
def data_of(typingctx, mi):
    def codegen(context, builder, sig, args):
        return context.nrt.meminfo_data(builder, args[0])
    return types.voidptr(mi), codegen


@intrinsic
def doubles_of(typingctx, mi):
    def codegen(context, builder, sig, args):
        return builder.bitcast(context.nrt.meminfo_data(builder, args[0]), context.get_value_type(sig.return_type))
    return types.CPointer(types.float64)(mi), codegen


@intrinsic
def incref(typingctx, mi):
    def codegen(context, builder, sig, args):
        context.nrt.incref(builder, sig.args[0], args[0])
    return types.void(mi), codegen


@intrinsic
def decref(typingctx, mi):
    def codegen(context, builder, sig, args):
        context.nrt.decref(builder, sig.args[0], args[0])
    return types.void(mi), codegen


def box_by_hand(scale, offset, x):
    return scale * x + offset


def test_meminfo_made_by_c_is_freed_once_at_the_end_of_its_life(lib):
    @njit
    def f(scale, offset, x):
        m = make(NRT_get_api(), scale, offset)
        v = apply(data_of(m), x)
        touch(m)
        return v
    before = live(lib)
    rng = np.random.default_rng(1)
    for scale, x in rng.normal(size=(5, 2)):
        offset = int(rng.integers(-9, 9))
        assert f(scale, offset, x) == box_by_hand(scale, offset, x)
    assert live(lib) == before


def test_copies_take_references_and_the_last_drop_runs_the_destructor(lib):
    @njit
    def use(m, x):
        return apply(data_of(m), x)

    @njit
    def f(n, x):
        total = 0.0
        for i in range(n):
            m = make(NRT_get_api(), 1.0, i)
            copy = m
            pair = (copy, m)
            total += use(pair[0], x) + use(pair[1], x)
        return total
    before = live(lib)
    made = lib.nrtbox_made()
    assert f(100, 0.25) == sum(2 * box_by_hand(1.0, i, 0.25) for i in range(100))
    assert lib.nrtbox_made() - made == 100
    assert live(lib) == before


def test_reassigning_a_variable_drops_the_old_meminfo(lib):
    @njit
    def f(n):
        m = make(NRT_get_api(), 2.0, 0)
        for i in range(n):
            m = make(NRT_get_api(), 2.0, i)
        v = apply(data_of(m), 1.0)
        touch(m)
        return v
    before = live(lib)
    assert f(50) == box_by_hand(2.0, 49, 1.0)
    assert live(lib) == before


def test_the_tables_allocator_gives_data_compiled_code_reads():
    @njit
    def f(n):
        m = halves(NRT_get_api(), n)
        return ruchey.carray(doubles_of(m), n).sum()
    for n in (0, 1, 7, 1000):
        assert f(n) == sum(0.5 * i for i in range(n))


def test_a_reference_the_library_keeps_outlives_compiled_code(lib):
    @njit
    def f():
        m = make(NRT_get_api(), 3.0, 1)
        keep(NRT_get_api(), m)
        return apply(data_of(m), 2.0)
    before = live(lib)
    assert f() == box_by_hand(3.0, 1, 2.0)
    assert live(lib) == before + 1  # the library's reference holds it
    lib.nrtbox_drop()
    assert live(lib) == before


def test_context_nrt_incref_and_decref_in_intrinsics(lib):
    @njit
    def balanced():
        m = make(NRT_get_api(), 1.0, 0)
        incref(m)
        decref(m)
        v = apply(data_of(m), 4.0)
        touch(m)
        return v

    @njit
    def leaked():
        m = make(NRT_get_api(), 1.0, 0)
        incref(m)
        return apply(data_of(m), 4.0)
    before = live(lib)
    assert balanced() == 4.0
    assert live(lib) == before
    assert leaked() == 4.0
    assert live(lib) == before + 1  # the extra reference was never dropped


@structref.register
class HolderType(types.StructRef):
    def __init__(self, fields):
        super().__init__([("meminfo", MI), ("handle", types.voidptr)] + list(fields))


class Holder(structref.StructRefProxy):
    def __new__(cls, scale):
        return structref.StructRefProxy.__new__(cls, scale)


structref.define_proxy(Holder, HolderType, ["scale"])


@njit
def new_holder(scale, offset):
    h = Holder(scale)
    h.meminfo = make(NRT_get_api(), scale, offset)
    h.handle = data_of(h.meminfo)
    return h


@njit
def holder_apply(h, x):
    return apply(h.handle, x)


def test_a_structref_field_holds_the_meminfo_until_the_object_dies(lib):
    before = live(lib)
    holders = [new_holder(float(s), s) for s in range(1, 6)]
    assert live(lib) == before + 5
    assert [holder_apply(h, 0.5) for h in holders] == [box_by_hand(float(s), s, 0.5) for s in range(1, 6)]
    del holders
    assert live(lib) == before


def test_setting_the_field_again_frees_the_previous_meminfo(lib):
    @njit
    def remake(h, offset):
        h.meminfo = make(NRT_get_api(), 1.0, offset)
        h.handle = data_of(h.meminfo)
    h = new_holder(1.0, 0)
    before = live(lib)
    for offset in range(10):
        remake(h, offset)
        assert holder_apply(h, 1.0) == box_by_hand(1.0, offset, 1.0)
    assert live(lib) == before
    del h
    assert live(lib) == before - 1


@pytest.mark.skipif(AS_NUMBA, reason="Numba links an unknown symbol and crashes at the call")
def test_an_unknown_symbol_is_a_clear_error():
    missing = types.ExternalFunction("nrtbox_no_such_function", types.float64(types.float64))

    @njit
    def f(x):
        return missing(x)
    with pytest.raises(ruchey.TypingError, match="nrtbox_no_such_function"):
        f(1.0)


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's own errors")
def test_an_external_function_is_not_callable_from_python():
    with pytest.raises(TypeError, match="compiled code"):
        make(None, 1.0, 1)


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's own errors (Numba fails in lowering)")
def test_a_number_is_no_meminfo(lib):
    @njit
    def f(x):
        return apply(data_of(x), 1.0)
    with pytest.raises(ruchey.TypingError):
        f(3)

    @njit
    def g():
        keep(NRT_get_api(), 5)
    with pytest.raises(ruchey.TypingError, match="MemInfoPointer"):
        g()


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's own errors")
def test_returning_a_meminfo_to_python_is_refused_and_frees_it(lib):
    @njit
    def f():
        return make(NRT_get_api(), 1.0, 2)
    before = live(lib)
    with pytest.raises(TypeError, match="MemInfoPointer"):
        f()
    assert live(lib) == before
