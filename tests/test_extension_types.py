"""Value types of a package's own, made with numba.extending as Numba's
documentation's Interval example makes them (typeof_impl, a StructModel,
make_attribute_wrapper, unbox and box written against Numba's lowering
objects, a constructor by type_callable and lower_builtin, overload_method
and overload_attribute of the type): under install_as_numba() compiled
code takes, builds and returns such objects. Each check runs in a fresh
interpreter (install_as_numba changes it) and compares with py_func."""
import os
import subprocess
import sys
import textwrap

import pytest

from conftest import AS_NUMBA

shim_only = pytest.mark.skipif(AS_NUMBA, reason="numba itself stands in for ruchey")

# a range of floats with a weights array: Numba's Interval example, written for these tests
SPAN_MODULE = '''
import numpy as np
from numba import types
from numba.core import cgutils
from numba.extending import (NativeValue, box, lower_builtin, make_attribute_wrapper, models, overload_attribute,
                             overload_method, register_model, type_callable, typeof_impl, unbox)


class Span:
    def __init__(self, lo, hi, weights):
        self.lo, self.hi, self.weights = lo, hi, weights

    @property
    def width(self):
        return self.hi - self.lo

    def contains(self, x):
        return self.lo <= x <= self.hi


class SpanType(types.Type):
    def __init__(self):
        super().__init__(name="Span")


span_type = SpanType()


@typeof_impl.register(Span)
def typeof_span(val, c):
    return span_type


@register_model(SpanType)
class SpanModel(models.StructModel):
    def __init__(self, dmm, fe_type):
        members = [("lo", types.float64), ("hi", types.float64), ("w", types.Array(types.float64, 1, "C"))]
        models.StructModel.__init__(self, dmm, fe_type, members)


make_attribute_wrapper(SpanType, "lo", "lo")
make_attribute_wrapper(SpanType, "hi", "hi")
make_attribute_wrapper(SpanType, "w", "weights")


@unbox(SpanType)
def unbox_span(typ, obj, c):
    lo_obj = c.pyapi.object_getattr_string(obj, "lo")
    hi_obj = c.pyapi.object_getattr_string(obj, "hi")
    w_obj = c.pyapi.object_getattr_string(obj, "weights")
    span = cgutils.create_struct_proxy(typ)(c.context, c.builder)
    span.lo = c.pyapi.float_as_double(lo_obj)
    span.hi = c.unbox(types.float64, hi_obj).value
    span.w = c.unbox(types.Array(types.float64, 1, "C"), w_obj).value
    for o in (lo_obj, hi_obj, w_obj):
        c.pyapi.decref(o)
    is_error = cgutils.is_not_null(c.builder, c.pyapi.err_occurred())
    return NativeValue(span._getvalue(), is_error=is_error)


@box(SpanType)
def box_span(typ, val, c):
    span = cgutils.create_struct_proxy(typ)(c.context, c.builder, value=val)
    lo_obj = c.pyapi.float_from_double(span.lo)
    hi_obj = c.box(types.float64, span.hi)
    w_obj = c.box(types.Array(types.float64, 1, "C"), span.w)
    class_obj = c.pyapi.unserialize(c.pyapi.serialize_object(Span))
    res = c.pyapi.call_function_objargs(class_obj, (lo_obj, hi_obj, w_obj))
    for o in (lo_obj, hi_obj, w_obj, class_obj):
        c.pyapi.decref(o)
    return res


@type_callable(Span)
def type_span(context):
    def typer(lo, hi, weights):
        if isinstance(lo, types.Float) and isinstance(hi, types.Float) and isinstance(weights, types.Array):
            return span_type
    return typer


@lower_builtin(Span, types.Float, types.Float, types.Array)
def lower_span(context, builder, sig, args):
    span = cgutils.create_struct_proxy(sig.return_type)(context, builder)
    span.lo, span.hi, span.w = args
    return span._getvalue()


@overload_attribute(SpanType, "width")
def span_width(span):
    def get(span):
        return span.hi - span.lo
    return get


@overload_method(SpanType, "contains")
def span_contains(span, x):
    if isinstance(x, types.Float):
        def impl(span, x):
            return span.lo <= x <= span.hi
        return impl
'''


def run_fresh(code, tmp_path):
    (tmp_path / "span.py").write_text(SPAN_MODULE)
    script = tmp_path / "script.py"
    script.write_text("import ruchey\nruchey.install_as_numba()\n" + textwrap.dedent(code))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path)] + [p for p in sys.path if p]))
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300, env=env,
                          cwd=str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().endswith("ok"), done.stdout


@shim_only
def test_value_type_members_attributes_and_methods_match_python(tmp_path):
    run_fresh("""
        import numpy as np
        from numba import njit
        from span import Span

        @njit
        def width(s):
            return s.width

        @njit
        def weighted_inside(s, xs):
            total = 0.0
            for i in range(xs.shape[0]):
                if s.contains(xs[i]):
                    total += s.weights[i % s.weights.shape[0]]
            return total

        @njit
        def scale_weights(s, k):
            s.weights[:] *= k    # the object's own array: the caller sees the change

        for seed in range(4):
            rng = np.random.default_rng(seed)
            lo = float(rng.normal())
            s = Span(lo, lo + float(rng.uniform(0, 2)), rng.uniform(size=int(rng.integers(1, 6))))
            xs = rng.normal(size=40)
            assert width(s) == width.py_func(s)
            assert weighted_inside(s, xs) == weighted_inside.py_func(s, xs)
            before = s.weights.copy()
            scale_weights(s, 3.0)
            np.testing.assert_array_equal(s.weights, before * 3.0)
        assert width(Span(1, 4, np.ones(1))) == 3.0   # ints read as floats, as float_as_double reads them
        assert len(width.signatures) == 1
        print("ok")
    """, tmp_path)


@shim_only
def test_value_type_built_in_compiled_code_and_returned(tmp_path):
    run_fresh("""
        import numpy as np
        from numba import njit, prange
        from span import Span

        @njit
        def widened(s, by):
            return Span(s.lo - by, s.hi + by, s.weights * 2.0)

        @njit
        def spans(n):
            return Span(0.0, float(n), np.arange(float(n))), Span(-1.0, 1.0, np.zeros(2))

        @njit(parallel=True)
        def spread(s, out):
            for i in prange(out.shape[0]):
                out[i] = s.lo + s.width * i / out.shape[0]
            return out

        rng = np.random.default_rng(1)
        for _ in range(3):
            s = Span(float(rng.normal()), float(rng.normal()) + 3, rng.uniform(size=3))
            got, want = widened(s, 0.5), widened.py_func(s, 0.5)
            assert type(got) is Span and (got.lo, got.hi) == (want.lo, want.hi)
            np.testing.assert_array_equal(got.weights, want.weights)
            np.testing.assert_allclose(spread(s, np.zeros(7)), spread.py_func(s, np.zeros(7)), rtol=1e-15)
        (a, b), (c, d) = spans(4), spans.py_func(4)
        assert (a.lo, a.hi, b.lo, b.hi) == (c.lo, c.hi, d.lo, d.hi)
        np.testing.assert_array_equal(a.weights, c.weights)
        print("ok")
    """, tmp_path)


@shim_only
def test_value_type_bad_objects_raise_clear_errors(tmp_path):
    run_fresh("""
        import numpy as np
        from numba import njit
        from span import Span

        @njit
        def width(s):
            return s.width

        def refused(obj, *words):
            try:
                width(obj)
            except TypeError as exc:
                assert all(w in str(exc) for w in words), str(exc)
            else:
                raise AssertionError("accepted")

        refused(Span("a", 1.0, np.zeros(2)), "member 'lo'", "'a'")
        refused(Span(0.0, 1.0, np.zeros(2, np.int32)), "attribute 'weights'", "int32")
        refused(Span(0.0, 1.0, np.zeros((2, 2))[:, 0]), "attribute 'weights'", "array(float64, 1d, A)")
        refused(Span(0.0, 1.0, [1.0]), "attribute 'weights'", "list")
        s = Span(0.0, 1.0, np.zeros(2))
        del s.hi
        refused(s, "no attribute 'hi'")

        class Made(Span):   # (a subclass's objects are of its type) an array made anew each read cannot be borrowed
            weights = property(lambda self: np.zeros(2))
            def __init__(self):
                self.lo, self.hi = 0.0, 1.0
        refused(Made(), "new array each time")

        from numba.extending import typeof_impl
        class Untyped:
            pass
        typeof_impl.register(Untyped)(lambda val, c: None)
        refused(Untyped(), "'Untyped'", "returned None")
        print("ok")
    """, tmp_path)


@shim_only
def test_value_type_code_the_recording_cannot_follow_is_refused(tmp_path):
    run_fresh("""
        import numpy as np
        from numba import njit, types
        from numba.core import cgutils
        from numba.extending import (NativeValue, box, make_attribute_wrapper, models, register_model,
                                     typeof_impl, unbox)

        class Odd:
            def __init__(self, x):
                self.x = x

        class OddType(types.Type):
            def __init__(self):
                super().__init__(name="Odd")

        @typeof_impl.register(Odd)
        def typeof_odd(val, c):
            return OddType()

        @register_model(OddType)
        class OddModel(models.StructModel):
            def __init__(self, dmm, fe_type):
                super().__init__(dmm, fe_type, [("x", types.float64)])

        make_attribute_wrapper(OddType, "x", "x")

        @unbox(OddType)
        def unbox_odd(typ, obj, c):   # arbitrary IR: doubled with the builder
            x_obj = c.pyapi.object_getattr_string(obj, "x")
            odd = cgutils.create_struct_proxy(typ)(c.context, c.builder)
            odd.x = c.builder.fadd(c.pyapi.float_as_double(x_obj), c.pyapi.float_as_double(x_obj))
            return NativeValue(odd._getvalue())

        @njit
        def first(o):
            return o.x

        try:
            first(Odd(2.0))
        except TypeError as exc:
            assert "builder.fadd" in str(exc), str(exc)
        else:
            raise AssertionError("accepted")

        from numba import TypingError
        from numba.extending import lower_builtin, type_callable
        from span import Span

        class Odd2(Span):
            pass

        @type_callable(Odd2)
        def type_odd2(context):
            def typer(lo, hi, w):
                return __import__("span").span_type
            return typer

        @lower_builtin(Odd2, types.Float, types.Float, types.Array)
        def lower_odd2(context, builder, sig, args):   # a member computed with the builder
            span = cgutils.create_struct_proxy(sig.return_type)(context, builder)
            span.lo, span.hi, span.w = builder.fneg(args[0]), args[1], args[2]
            return span._getvalue()

        @njit
        def made(lo):
            return Odd2(lo, 1.0, np.zeros(1)).lo

        @njit
        def made_of_ints(lo):
            return Odd2(lo, 1, np.zeros(1)).lo

        for f, arg, words in ((made, 0.5, "builder.fneg"), (made_of_ints, 1.0, "no lower_builtin")):
            try:
                f(arg)
            except TypingError as exc:
                assert words in str(exc), str(exc)
            else:
                raise AssertionError("compiled")
        print("ok")
    """, tmp_path)


@shim_only
def test_value_type_of_a_counter_array_updated_atomically_in_prange(tmp_path):
    # numba_progress's ProgressBar's shape: a uint64 hook array unboxed with unbox_array, a box
    # that refuses, and an update method adding to the hook atomically from parallel loops
    run_fresh("""
        import numpy as np
        from numba import njit, prange, types
        from numba.core import cgutils
        from numba.core.boxing import unbox_array
        from numba.extending import (NativeValue, box, lower_builtin, make_attribute_wrapper, models,
                                     overload_attribute, overload_method, register_model, type_callable,
                                     typeof_impl, unbox)
        from numba.np.arrayobj import basic_indexing, make_array, normalize_indices

        def fetch_add(a, i, v):
            old = a[i]
            a[i] += v
            return old

        def lower_fetch_add(context, builder, sig, args):
            aryty, idxty, valty = sig.args
            ary, idx, val = args
            view = make_array(aryty)(context, builder, ary)
            index_types, indices = normalize_indices(context, builder, (idxty,), (idx,))
            ptr, _, _ = basic_indexing(context, builder, aryty, view, index_types, indices)
            val = context.cast(builder, val, valty, aryty.dtype)
            return builder.atomic_rmw("add", ptr, context.get_value_as_data(builder, aryty.dtype, val), "monotonic")

        type_callable(fetch_add)(lambda context: None)
        lower_builtin(fetch_add, types.Buffer, types.Any, types.Any)(lower_fetch_add)

        class Counter:
            def __init__(self):
                self.hook = np.zeros(1, dtype=np.uint64)

        class CounterType(types.Type):
            def __init__(self):
                super().__init__(name="Counter")

        counter_type = CounterType()
        typeof_impl.register(Counter)(lambda val, c: counter_type)

        @register_model(CounterType)
        class CounterModel(models.StructModel):
            def __init__(self, dmm, fe_type):
                models.StructModel.__init__(self, dmm, fe_type, [("hook", types.Array(types.uint64, 1, "C"))])

        make_attribute_wrapper(CounterType, "hook", "hook")

        @unbox(CounterType)
        def unbox_counter(typ, obj, c):
            hook_obj = c.pyapi.object_getattr_string(obj, "hook")
            counter = cgutils.create_struct_proxy(typ)(c.context, c.builder)
            counter.hook = unbox_array(types.Array(types.uint64, 1, "C"), hook_obj, c).value
            c.pyapi.decref(hook_obj)
            return NativeValue(counter._getvalue(), is_error=cgutils.is_not_null(c.builder, c.pyapi.err_occurred()))

        @box(CounterType)
        def box_counter(typ, val, c):
            raise TypeError("a Counter stays in compiled code")

        @overload_method(CounterType, "update", jit_options={"nogil": True})
        def counter_update(self, n=1):
            if isinstance(self, CounterType):
                def impl(self, n=1):
                    fetch_add(self.hook, 0, n)
                return impl

        @overload_attribute(CounterType, "n")
        def counter_n(self):
            return lambda self: self.hook[0]

        @njit(nogil=True, parallel=True)
        def count_positive(xs, counter):
            total = 0.0
            for i in prange(xs.shape[0]):
                if xs[i] > 0:
                    total += xs[i]
                counter.update(1)
            return total

        @njit
        def read(counter):
            counter.update()
            return counter.n

        @njit
        def back(counter):
            return counter

        c = Counter()
        xs = np.random.default_rng(2).normal(size=1000)
        assert np.isclose(count_positive(xs, c), xs[xs > 0].sum())
        assert c.hook[0] == 1000 and read(c) == 1001
        try:
            back(c)
        except TypeError as exc:
            assert "stays in compiled code" in str(exc)
        else:
            raise AssertionError("boxed")
        print("ok")
    """, tmp_path)


@shim_only
def test_value_type_holding_another_value_type(tmp_path):
    run_fresh("""
        import numpy as np
        from numba import njit, types
        from numba.core import cgutils
        from numba.extending import (NativeValue, box, make_attribute_wrapper, models, register_model,
                                     typeof_impl, unbox)
        from span import Span, span_type

        class Tally:
            def __init__(self, span, count):
                self.span, self.count = span, count

        class TallyType(types.Type):
            def __init__(self):
                super().__init__(name="Tally")

        typeof_impl.register(Tally)(lambda val, c: TallyType())

        @register_model(TallyType)
        class TallyModel(models.StructModel):
            def __init__(self, dmm, fe_type):
                super().__init__(dmm, fe_type, [("span", span_type), ("count", types.int64)])

        make_attribute_wrapper(TallyType, "span", "span")
        make_attribute_wrapper(TallyType, "count", "count")

        @unbox(TallyType)
        def unbox_tally(typ, obj, c):
            span_obj = c.pyapi.object_getattr_string(obj, "span")
            count_obj = c.pyapi.object_getattr_string(obj, "count")
            tally = cgutils.create_struct_proxy(typ)(c.context, c.builder)
            tally.span = c.unbox(span_type, span_obj).value
            tally.count = c.pyapi.long_as_longlong(count_obj)
            return NativeValue(tally._getvalue())

        @box(TallyType)
        def box_tally(typ, val, c):
            tally = cgutils.create_struct_proxy(typ)(c.context, c.builder, value=val)
            args = (c.box(span_type, tally.span), c.pyapi.long_from_longlong(tally.count))
            return c.pyapi.call_function_objargs(c.pyapi.unserialize(c.pyapi.serialize_object(Tally)), args)

        @njit
        def share(t):
            return t.span.width / t.count

        @njit
        def same(t):
            return t

        rng = np.random.default_rng(5)
        for _ in range(3):
            t = Tally(Span(float(rng.normal()), 4.0, rng.uniform(size=2)), int(rng.integers(1, 9)))
            assert share(t) == share.py_func(t)
            back = same(t)
            assert type(back) is Tally and type(back.span) is Span and back.count == t.count
            assert (back.span.lo, back.span.hi) == (t.span.lo, t.span.hi) and back.span.weights is not None
        try:
            share(Tally((1.0, 2.0), 3))
        except TypeError as exc:
            assert "member 'span'" in str(exc) and "expected an object of Span" in str(exc), str(exc)
        else:
            raise AssertionError("accepted")
        print("ok")
    """, tmp_path)


@shim_only
def test_methods_of_a_value_type_named_as_a_tuples_are_the_packages(tmp_path):
    """numba-scipy's csr_matrix.copy(): a package's overload_method named as a
    method ruchey has for the named tuple it holds the value as (copy, index,
    count) is the one called, as under Numba, where the type is no tuple."""
    run_fresh("""
        import numpy as np
        from numba import njit, types
        from numba.extending import overload_method
        from span import Span, SpanType

        Span.copy = lambda self: Span(self.lo, self.hi, self.weights.copy())
        Span.count = lambda self, x: int(np.sum(self.weights > x))
        Span.index = lambda self, x: int(np.argmax(self.weights > x))

        @overload_method(SpanType, "copy")
        def span_copy(s):
            return lambda s: Span(s.lo, s.hi, s.weights.copy())

        @overload_method(SpanType, "count")
        def span_count(s, x):
            return lambda s, x: np.sum(s.weights > x)

        @overload_method(SpanType, "index")
        def span_index(s, x):
            if isinstance(x, types.Float):
                return lambda s, x: np.argmax(s.weights > x)

        @njit
        def use(s, x):
            c = s.copy()
            c.weights[0] = -1.0
            return c, s.count(x), s.index(x)

        rng = np.random.default_rng(8)
        for n in (1, 4, 9):
            s = Span(-1.0, 2.0, rng.uniform(size=n))
            x = float(rng.uniform(0.0, 0.5))
            (c, k, i), (pc, pk, pi) = use(s, x), use.py_func(Span(s.lo, s.hi, s.weights.copy()), x)
            assert (k, i) == (pk, pi) and s.weights[0] != -1.0
            np.testing.assert_array_equal(c.weights, pc.weights)
        try:
            use(Span(0.0, 1.0, np.ones(2)), 1)   # index of an int: the typing function returns None
        except Exception as exc:
            assert "TypingError" in type(exc).__name__, exc
        else:
            raise AssertionError("accepted")
        print("ok")
    """, tmp_path)


@shim_only
def test_value_type_of_a_named_tuple_member_as_vector_writes_it(tmp_path):
    """scikit-hep vector's VectorObject2D: a member holding a typing.NamedTuple
    of coordinates (read by pyapi.to_native_value, written back by
    from_native_value), a constructor lowered for any types.Type, a
    subclass's type renamed after Type.__init__, and an overload picking
    the result's class by the member type's instance_class."""
    run_fresh("""
        import typing
        import numpy as np
        from numba import njit, types
        from numba.core import cgutils
        from numba.extending import (NativeValue, box, lower_builtin, make_attribute_wrapper, models,
                                     overload_method, register_model, type_callable, typeof_impl, unbox)
        import numba

        class XY(typing.NamedTuple):
            x: float
            y: float

        class Vec:
            def __init__(self, azimuthal):
                self.azimuthal = azimuthal

            def add(self, w):
                return type(self)(XY(self.azimuthal.x + w.azimuthal.x, self.azimuthal.y + w.azimuthal.y))

        class Momentum(Vec):
            pass

        class VecType(types.Type):
            instance_class = Vec
            def __init__(self, aztype):
                super().__init__(name=f"VecType({aztype})")
                self.aztype = aztype

        class MomentumType(VecType):
            instance_class = Momentum
            def __init__(self, aztype):
                super().__init__(aztype)
                self.name = f"MomentumType({aztype})"

        @typeof_impl.register(Vec)
        def typeof_vec(val, c):
            return (MomentumType if isinstance(val, Momentum) else VecType)(numba.typeof(val.azimuthal))

        @register_model(VecType)
        @register_model(MomentumType)
        class VecModel(models.StructModel):
            def __init__(self, dmm, fe_type):
                super().__init__(dmm, fe_type, [("azimuthal", fe_type.aztype)])

        make_attribute_wrapper(VecType, "azimuthal", "azimuthal")
        make_attribute_wrapper(MomentumType, "azimuthal", "azimuthal")

        @unbox(VecType)
        def unbox_vec(typ, obj, c):
            az = c.pyapi.object_getattr_string(obj, "azimuthal")
            out = cgutils.create_struct_proxy(typ)(c.context, c.builder)
            out.azimuthal = c.pyapi.to_native_value(typ.aztype, az).value
            c.pyapi.decref(az)
            return NativeValue(out._getvalue(), is_error=cgutils.is_not_null(c.builder, c.pyapi.err_occurred()))

        @box(VecType)
        def box_vec(typ, val, c):
            cls = c.pyapi.unserialize(c.pyapi.serialize_object(typ.instance_class))
            proxy = cgutils.create_struct_proxy(typ)(c.context, c.builder, value=val)
            az = c.pyapi.from_native_value(typ.aztype, proxy.azimuthal)
            return c.pyapi.call_function_objargs(cls, (az,))

        for cls, typ in ((Vec, VecType), (Momentum, MomentumType)):
            type_callable(cls)(lambda context, typ=typ: (lambda aztype: typ(aztype)))

        @lower_builtin(Vec, types.Type)
        @lower_builtin(Momentum, types.Type)
        def make_vec(context, builder, sig, args):
            out = cgutils.create_struct_proxy(sig.return_type)(context, builder)
            out.azimuthal = args[0]
            return out._getvalue()

        @overload_method(VecType, "add")
        def vec_add(v, w):
            coords, cls = v.aztype.instance_class, v.instance_class
            def impl(v, w):
                return cls(coords(v.azimuthal.x + w.azimuthal.x, v.azimuthal.y + w.azimuthal.y))
            return impl

        @njit
        def norm_of_sum(v, w):
            s = v.add(w)
            return np.hypot(s.azimuthal.x, s.azimuthal.y)

        @njit
        def total(v, w):
            return v.add(w)

        rng = np.random.default_rng(3)
        for _ in range(4):
            a, b = (XY(*rng.normal(size=2)) for _ in range(2))
            for cls in (Vec, Momentum):
                v, w = cls(a), cls(b)
                assert norm_of_sum(v, w) == norm_of_sum.py_func(v, w)
                got, want = total(v, w), total.py_func(v, w)
                assert type(got) is cls and type(got.azimuthal) is XY and got.azimuthal == want.azimuthal
        assert numba.typeof(Momentum(XY(1.0, 2.0))).name.startswith("MomentumType(")
        print("ok")
    """, tmp_path)


@shim_only
def test_value_type_with_dtype_set_per_instance_and_error_flag_slot(tmp_path):
    # a type class that sets its own dtype (Numba's Type has none), one type
    # per element dtype; typeof_impl.register(cls, func) as singledispatch
    # takes it; an unbox keeping its error flag in alloca_once_value's slot
    run_fresh("""
        import numpy as np
        from numba import njit, types
        from numba.core import cgutils
        from numba.extending import (NativeValue, box, make_attribute_wrapper, models, register_model,
                                     typeof_impl, unbox)

        class Ragged:
            def __init__(self, values, offsets):
                self.values, self.offsets = values, offsets

        class RaggedType(types.Type):
            def __init__(self, dtype):
                self.dtype = dtype
                self.values = types.Array(dtype, 1, "A")
                super().__init__(name=f"Ragged({dtype})")

        def typeof_ragged(val, c):
            return RaggedType(typeof_impl(val.values, c).dtype)

        typeof_impl.register(Ragged, typeof_ragged)

        @register_model(RaggedType)
        class RaggedModel(models.StructModel):
            def __init__(self, dmm, fe_type):
                super().__init__(dmm, fe_type, [("values", fe_type.values),
                                                ("offsets", types.Array(types.int64, 1, "C"))])

        make_attribute_wrapper(RaggedType, "values", "values")
        make_attribute_wrapper(RaggedType, "offsets", "offsets")

        @unbox(RaggedType)
        def unbox_ragged(typ, obj, c):
            ragged = cgutils.create_struct_proxy(typ)(c.context, c.builder)
            for name in ("values", "offsets"):
                member = c.pyapi.object_getattr_string(obj, name)
                setattr(ragged, name, c.unbox(typ.values if name == "values" else
                                              types.Array(types.int64, 1, "C"), member).value)
                c.pyapi.decref(member)
            is_error_ptr = cgutils.alloca_once_value(c.builder, cgutils.false_bit)
            return NativeValue(ragged._getvalue(), is_error=c.builder.load(is_error_ptr))

        @njit
        def row_sums(r):
            out = np.zeros(r.offsets.shape[0] - 1)
            for i in range(out.shape[0]):
                for j in range(r.offsets[i], r.offsets[i + 1]):
                    out[i] += r.values[j]
            return out

        rng = np.random.default_rng(3)
        for dtype in (np.float64, np.float32, np.int32):
            offsets = np.concatenate([[0], np.cumsum(rng.integers(0, 5, 6))]).astype(np.int64)
            r = Ragged((rng.normal(size=offsets[-1]) * 10).astype(dtype)[::-1], offsets)
            np.testing.assert_allclose(row_sums(r), row_sums.py_func(r), rtol=1e-6)
        assert RaggedType(types.float32).dtype == types.float32
        assert len(row_sums.signatures) == 3
        try:
            typeof_impl.register(3, typeof_ragged)
        except TypeError as exc:
            assert "takes a class" in str(exc), str(exc)
        else:
            raise AssertionError("accepted")
        print("ok")
    """, tmp_path)


@shim_only
def test_value_type_built_by_an_intrinsic_from_its_arguments(tmp_path):
    # an @intrinsic whose codegen fills a struct proxy of the value type from
    # its arguments and returns it through impl_ret_borrowed (fast_array_utils'
    # sparse matrix copy does so); types.DType, which such types keep
    run_fresh("""
        import numpy as np
        from numba import njit, types
        from numba.core import cgutils
        from numba.core.imputils import impl_ret_borrowed
        from numba.extending import intrinsic, overload_method
        from span import Span, SpanType

        @intrinsic
        def span_of(typingctx, s, lo, hi, w):
            def codegen(context, builder, sig, args):
                made = cgutils.create_struct_proxy(sig.return_type)(context, builder)
                _, made.lo, made.hi, made.w = args
                return impl_ret_borrowed(context, builder, sig.return_type, made._getvalue())
            return s(s, lo, hi, w), codegen

        @overload_method(SpanType, "shifted")
        def span_shifted(s, by):
            def impl(s, by):
                return span_of(s, s.lo + by, s.hi + by, s.weights.copy())
            return impl

        @njit
        def shifted(s, by):
            return s.shifted(by)

        @intrinsic
        def not_a_constructor(typingctx, w):
            def codegen(context, builder, sig, args):
                return args[0]
            return w(w), codegen

        @njit
        def refused(w):
            return not_a_constructor(w)

        rng = np.random.default_rng(5)
        for _ in range(3):
            s = Span(float(rng.normal()), float(rng.normal()) + 3, rng.uniform(size=4))
            by = float(rng.normal())
            got = shifted(s, by)
            assert type(got) is Span and (got.lo, got.hi) == (s.lo + by, s.hi + by)
            np.testing.assert_array_equal(got.weights, s.weights)
            assert not np.shares_memory(got.weights, s.weights)
        assert types.DType(types.float32).dtype == types.float32 and str(types.DType(types.int64)) == "dtype(int64)"
        assert isinstance(types.DType(types.int8), types.DType) and types.DType(types.int8) == types.DType(types.int8)
        try:
            refused(np.zeros(2))
        except Exception as exc:
            assert "returns numbers" in str(exc) and "not array(float64, 1d, C)" in str(exc), str(exc)
        else:
            raise AssertionError("accepted")
        print("ok")
    """, tmp_path)


@shim_only
def test_value_types_of_one_name_told_apart_by_their_key(tmp_path):
    # one type name for every dtype and a key per dtype, as Numba's Type.key
    # allows (fast_array_utils' sparse matrix types): one function called
    # with each dtype in turn compiles for each
    run_fresh("""
        import numpy as np
        from numba import njit, types
        from numba.extending import NativeValue, make_attribute_wrapper, models, register_model, typeof_impl, unbox
        from numba.core import cgutils

        class Packed:
            def __init__(self, values):
                self.values = values

        class PackedType(types.Type):
            def __init__(self, dtype):
                self.values = types.Array(dtype, 1, "C")
                super().__init__(name="Packed")

            @property
            def key(self):
                return (self.name, self.values.dtype)

        typeof_impl.register(Packed, lambda val, c: PackedType(typeof_impl(val.values, c).dtype))

        @register_model(PackedType)
        class PackedModel(models.StructModel):
            def __init__(self, dmm, fe_type):
                super().__init__(dmm, fe_type, [("values", fe_type.values)])

        make_attribute_wrapper(PackedType, "values", "values")

        @unbox(PackedType)
        def unbox_packed(typ, obj, c):
            packed = cgutils.create_struct_proxy(typ)(c.context, c.builder)
            member = c.pyapi.object_getattr_string(obj, "values")
            packed.values = c.unbox(typ.values, member).value
            c.pyapi.decref(member)
            return NativeValue(packed._getvalue(), is_error=cgutils.is_not_null(c.builder, c.pyapi.err_occurred()))

        @njit
        def total(p):
            return p.values.sum()

        rng = np.random.default_rng(8)
        for dtype in (np.float32, np.float64, np.int16):
            p = Packed((rng.normal(size=9) * 50).astype(dtype))
            got, want = total(p), total.py_func(p)
            assert np.isclose(got, want, rtol=1e-6), (dtype, got, want)  # (a scalar comes back a Python number)
        assert len(total.signatures) == 3
        print("ok")
    """, tmp_path)


@shim_only
def test_a_packages_overload_of_a_numpy_function_for_its_value_type(tmp_path):
    # @overload(numpy.shape) and (numpy.sum) for the package's type, as
    # fast_array_utils overloads numpy.shape for its sparse matrices: called
    # for that type, while arrays in the same function get NumPy's own
    run_fresh("""
        import numpy as np
        from numba import njit
        from numba.extending import overload
        from span import Span, SpanType

        @overload(np.shape)
        def span_shape(s):
            if isinstance(s, SpanType):
                return lambda s: (s.weights.shape[0], 2)

        @overload(np.sum)
        def span_sum(s):
            if isinstance(s, SpanType):
                return lambda s: s.weights.sum() * (s.hi - s.lo)

        @njit
        def both(s, a):
            return np.shape(s), np.shape(a), np.sum(s), np.sum(a)

        def expected(s, a):
            return (len(s.weights), 2), a.shape, s.weights.sum() * (s.hi - s.lo), a.sum()

        rng = np.random.default_rng(6)
        for n in (1, 4, 9):
            s = Span(float(rng.normal()), float(rng.normal()) + 2, rng.uniform(size=n))
            a = rng.normal(size=(n, 3))
            got, want = both(s, a), expected(s, a)
            assert got[:2] == want[:2] and np.allclose(got[2:], want[2:], rtol=1e-12), (got, want)
        print("ok")
    """, tmp_path)


@shim_only
def test_subscripts_of_a_value_type_call_the_operator_overloads(tmp_path):
    # x[i], x[a:b], x[i] = v and del x[i] of the package's type are calls of its
    # overloads of operator.getitem, setitem and delitem (Numba's); with none
    # registered, a subscript or an operator is a TypingError, never the
    # indexing or the + of the tuple of members ruchey holds it as
    run_fresh("""
        import operator
        import numpy as np
        from numba import njit, types
        from numba.core.errors import TypingError
        from numba.extending import overload
        from span import Span, SpanType

        @njit
        def added(s):
            return s + s

        @njit
        def first(s):
            return s[0]

        for f in (added, first):
            try:
                f(Span(0.0, 1.0, np.ones(2)))
            except TypingError as exc:
                assert "operator." in str(exc), str(exc)
            else:
                raise AssertionError(f"{f.__name__} of a value type without an overload compiled")

        @overload(operator.getitem)
        def span_getitem(s, i):
            if isinstance(s, SpanType) and isinstance(i, types.Integer):
                return lambda s, i: s.weights[i] * (s.hi - s.lo)
            if isinstance(s, SpanType) and isinstance(i, types.SliceType):
                return lambda s, i: s.weights[i].sum()

        @overload(operator.setitem)
        def span_setitem(s, i, v):
            if isinstance(s, SpanType):
                def impl(s, i, v):
                    s.weights[i] = v / (s.hi - s.lo)
                return impl

        @overload(operator.delitem)
        def span_delitem(s, i):
            if isinstance(s, SpanType):
                def impl(s, i):
                    s.weights[i] = 0.0
                return impl

        def py_getitem(s, i):
            return s.weights[i] * (s.hi - s.lo)

        @njit
        def read(s, i):
            return s[i], s[1:], s[i:-1]

        @njit
        def write(s, i, v):
            s[i] = v
            del s[0]

        rng = np.random.default_rng(3)
        for n in (2, 5):
            lo = float(rng.normal())
            s = Span(lo, lo + 1.5, rng.normal(size=n))
            for i in (0, n - 1, -1):
                got = read(s, i)
                assert got == (py_getitem(s, i), s.weights[1:].sum(), s.weights[i:-1].sum()), got
            w = s.weights.copy()
            write(s, n - 1, 3.0)
            w[n - 1], w[0] = 3.0 / 1.5, 0.0
            np.testing.assert_array_equal(s.weights, w)
        print("ok")
    """, tmp_path)


@shim_only
def test_a_global_of_an_opaque_type_needs_no_lower_constant(tmp_path):
    # Numba lowers a constant of any Dummy type (Opaque's) as its dummy
    # value: a global of such a type is read by compiled code, here as the
    # argument of an overload of numpy.exp
    run_fresh("""
        import numpy as np
        from numba import njit, types
        from numba.extending import NativeValue, models, overload, register_model, typeof_impl, unbox

        class Marker:
            pass

        class MarkerType(types.Opaque):
            pass

        marker_type = MarkerType("marker")
        register_model(MarkerType)(models.OpaqueModel)

        @typeof_impl.register(Marker)
        def typeof_marker(val, c):
            return marker_type

        @unbox(MarkerType)
        def unbox_marker(typ, obj, c):
            return NativeValue(c.context.get_dummy_value())

        @overload(np.exp)
        def marker_exp(x):
            if isinstance(x, MarkerType):
                return lambda x: 0xDEADBEEF

        marker = Marker()

        @njit
        def use(a):
            return np.exp(marker), np.exp(a)

        a = np.linspace(-2.0, 2.0, 5)
        got = use(a)
        assert got[0] == 0xDEADBEEF
        np.testing.assert_allclose(got[1], np.exp(a), rtol=1e-15)  # (NumPy 1's exp is not libm's)
        print("ok")
    """, tmp_path)


@shim_only
def test_an_unbox_and_a_box_calling_compiled_code(tmp_path):
    # pyapi.call_jit_code: an opaque value's pointer made by a function
    # compiled for constants (calling an intrinsic), read back by its box
    # (ptrtoint); a box giving such a function's result; what the function
    # raises comes out of the call, as Numba's
    run_fresh("""
        import numpy as np
        from numba import njit, types
        from numba.core import cgutils
        from numba.core.typing.templates import signature
        from numba.extending import NativeValue, box, intrinsic, models, register_model, typeof_impl, unbox

        @intrinsic
        def plus_offset(typingctx, val):
            def codegen(context, builder, sig, args):
                return builder.add(args[0], args[0].type(123))
            return signature(val, val), codegen

        def make(name):
            class Handle:
                pass

            class HandleType(types.Opaque):
                pass

            handle_type = HandleType(name)
            typeof_impl.register(Handle)(lambda val, c: handle_type)
            register_model(HandleType)(models.OpaqueModel)
            return Handle, HandleType

        rng = np.random.default_rng(5)
        tokens = [int(t) for t in rng.integers(0, 1 << 40, 3)]
        for token in tokens:
            Handle, HandleType = make(f"handle{token}")

            @unbox(HandleType)
            def unbox_handle(typ, obj, c, token=token):
                def bridge(x):
                    return plus_offset(x)
                args = [c.context.get_constant(types.intp, token)]
                is_error, res = c.pyapi.call_jit_code(bridge, signature(types.voidptr, types.intp), args)
                return NativeValue(res, is_error=is_error)

            @box(HandleType)
            def box_handle(typ, val, c):
                return c.pyapi.long_from_ssize_t(c.builder.ptrtoint(val, cgutils.intp_t))

            passthru = njit(lambda x: x)
            assert passthru(Handle()) == token + 123, passthru(Handle())
            first = njit(lambda x, k: (x, k * 2.0))
            got = first(Handle(), 1.5)
            assert got == (token + 123, 3.0), got

        Raising, RaisingType = make("raising")

        @unbox(RaisingType)
        def unbox_raising(typ, obj, c):
            def bridge(x):
                if x > 0:
                    raise ValueError("cannot be x > 0")
                return x
            args = [c.context.get_constant(types.intp, 1)]
            is_error, res = c.pyapi.call_jit_code(bridge, signature(types.voidptr, types.intp), args)
            return NativeValue(res, is_error=is_error)

        try:
            njit(lambda x: x)(Raising())
        except ValueError as e:
            assert "cannot be x > 0" in str(e)
        else:
            raise AssertionError("no ValueError")

        Boxed, BoxedType = make("boxed")
        unbox(BoxedType)(lambda typ, obj, c: NativeValue(c.context.get_dummy_value()))

        @box(BoxedType)
        def box_boxed(typ, val, c):
            def bridge(x):
                if x < 0:
                    raise ValueError("cannot do x < 0")
                return plus_offset(x)
            args = [c.context.get_constant(types.intp, 77)]
            is_error, res = c.pyapi.call_jit_code(bridge, signature(types.intp, types.intp), args)
            retval = cgutils.alloca_once(c.builder, c.pyapi.pyobj, zfill=True)
            with c.builder.if_then(c.builder.not_(is_error)):
                c.builder.store(c.pyapi.long_from_ssize_t(res), retval)
            return c.builder.load(retval)

        assert njit(lambda x: x)(Boxed()) == 77 + 123
        print("ok")
    """, tmp_path)


@shim_only
def test_a_pandas_like_buffer_type_with_private_attributes(tmp_path):
    # types.Buffer and types.ArrayCompatible subclasses (Numba's pandas-like
    # example): members exposed under private names (make_attribute_wrapper(
    # IndexType, "data", "_data")), one value type holding another, a method
    # building a new object, returned to Python
    run_fresh("""
        import numpy as np
        from numba import njit, types
        from numba.core import cgutils
        from numba.core.datamodel import models
        from numba.extending import (NativeValue, box, lower_builtin, make_attribute_wrapper, overload,
                                     overload_attribute, overload_method, register_model, type_callable,
                                     typeof_impl, unbox)

        class Index:
            def __init__(self, data):
                self._data = data

        class Series:
            def __init__(self, data, index):
                self._values, self._index = data, index

            def clip(self, lower, upper):
                return Series(np.clip(self._values, lower, upper), self._index)

        class IndexType(types.Buffer):
            def __init__(self, dtype, layout):
                super().__init__(dtype, 1, layout)

            @property
            def key(self):
                return self.dtype, self.layout

            @property
            def as_array(self):
                return types.Array(self.dtype, 1, self.layout)

        class SeriesType(types.ArrayCompatible):
            def __init__(self, dtype, index):
                self.dtype, self.index = dtype, index
                self.values = types.Array(dtype, 1, "C")
                super().__init__("series(%s, %s)" % (dtype, index))

            @property
            def key(self):
                return self.dtype, self.index

            @property
            def as_array(self):
                return self.values

        @typeof_impl.register(Index)
        def typeof_index(val, c):
            arr = typeof_impl(val._data, c)
            return IndexType(arr.dtype, arr.layout)

        @typeof_impl.register(Series)
        def typeof_series(val, c):
            return SeriesType(typeof_impl(val._values, c).dtype, typeof_impl(val._index, c))

        @register_model(IndexType)
        class IndexModel(models.StructModel):
            def __init__(self, dmm, fe_type):
                models.StructModel.__init__(self, dmm, fe_type, [("data", fe_type.as_array)])

        @register_model(SeriesType)
        class SeriesModel(models.StructModel):
            def __init__(self, dmm, fe_type):
                members = [("index", fe_type.index), ("values", fe_type.as_array)]
                models.StructModel.__init__(self, dmm, fe_type, members)

        make_attribute_wrapper(IndexType, "data", "_data")
        make_attribute_wrapper(SeriesType, "index", "_index")
        make_attribute_wrapper(SeriesType, "values", "_values")

        @type_callable(Series)
        def type_series(context):
            def typer(data, index):
                if isinstance(index, IndexType) and isinstance(data, types.Array):
                    return SeriesType(data.dtype, index)
            return typer

        @lower_builtin(Series, types.Array, IndexType)
        def lower_series(context, builder, sig, args):
            series = cgutils.create_struct_proxy(sig.return_type)(context, builder)
            series.values, series.index = args
            return series._getvalue()

        @unbox(IndexType)
        def unbox_index(typ, obj, c):
            data = c.pyapi.object_getattr_string(obj, "_data")
            index = cgutils.create_struct_proxy(typ)(c.context, c.builder)
            index.data = c.unbox(typ.as_array, data).value
            return NativeValue(index._getvalue())

        @unbox(SeriesType)
        def unbox_series(typ, obj, c):
            index = c.pyapi.object_getattr_string(obj, "_index")
            values = c.pyapi.object_getattr_string(obj, "_values")
            series = cgutils.create_struct_proxy(typ)(c.context, c.builder)
            series.index = c.unbox(typ.index, index).value
            series.values = c.unbox(typ.values, values).value
            return NativeValue(series._getvalue())

        @box(IndexType)
        def box_index(typ, val, c):
            index = cgutils.create_struct_proxy(typ)(c.context, c.builder, value=val)
            classobj = c.pyapi.unserialize(c.pyapi.serialize_object(Index))
            arrayobj = c.box(typ.as_array, index.data)
            return c.pyapi.call_function_objargs(classobj, (arrayobj,))

        @box(SeriesType)
        def box_series(typ, val, c):
            series = cgutils.create_struct_proxy(typ)(c.context, c.builder, value=val)
            classobj = c.pyapi.unserialize(c.pyapi.serialize_object(Series))
            indexobj = c.box(typ.index, series.index)
            arrayobj = c.box(typ.as_array, series.values)
            return c.pyapi.call_function_objargs(classobj, (arrayobj, indexobj))

        @overload_attribute(IndexType, "is_monotonic_increasing")
        def index_monotonic(index):
            def get(index):
                data = index._data
                for i in range(1, len(data)):
                    if data[i] < data[i - 1]:
                        return False
                return True
            return get

        @overload(len)
        def series_len(s):
            if isinstance(s, SeriesType):
                return lambda s: len(s._values)

        @overload_method(SeriesType, "clip")
        def series_clip(s, lower, upper):
            def impl(s, lower, upper):
                data = s._values.copy()
                for i in range(len(data)):
                    data[i] = min(max(data[i], lower), upper)
                return Series(data, s._index)
            return impl

        assert IndexType(types.int64, "C").ndim == 1 and SeriesType(types.float64, IndexType(types.int64, "C")).ndim == 1
        assert SeriesType(types.float64, IndexType(types.int64, "C")).layout == "C"

        @njit
        def parts(s):
            return s._values, s._index, s._index._data, s._index.is_monotonic_increasing, len(s)

        @njit
        def clipped(s, lo, hi):
            return s.clip(lo, hi)

        @njit
        def made(data, index):
            return Series(data, index)

        rng = np.random.default_rng(5)
        for n, dtype in ((0, np.int64), (4, np.int32), (7, np.float64)):
            index = Index(np.sort(rng.integers(-9, 9, n)).astype(dtype) if n != 4 else rng.permutation(n).astype(dtype))
            s = Series(rng.normal(size=n), index)
            values, got_index, data, monotonic, length = parts(s)
            assert values is s._values and data is index._data and got_index._data is index._data
            assert monotonic == bool(np.all(np.diff(index._data) >= 0)) and length == n
            c = clipped(s, -0.5, 0.5)
            assert isinstance(c, Series) and c._index._data is index._data
            np.testing.assert_array_equal(c._values, s.clip(-0.5, 0.5)._values)
            m = made(s._values, index)
            assert isinstance(m, Series) and m._values is s._values and m._index._data is index._data
        print("ok")
    """, tmp_path)


@shim_only
def test_comparisons_of_a_value_type_call_the_operator_overloads(tmp_path):
    # a == b and a < b of the package's type are calls of its overloads of
    # operator.eq and lt; one it has not overloaded (!=, as under Numba,
    # which has no fallback to eq) is a TypingError, never a comparison of
    # the tuples ruchey holds them as
    run_fresh("""
        import operator
        import numpy as np
        from numba import njit
        from numba.core.errors import TypingError
        from numba.extending import overload
        from span import Span, SpanType

        def width(s):
            return s.hi - s.lo

        @overload(operator.eq)
        def span_eq(a, b):
            if isinstance(a, SpanType) and isinstance(b, SpanType):
                return lambda a, b: a.hi - a.lo == b.hi - b.lo

        @overload(operator.lt)
        def span_lt(a, b):
            if isinstance(a, SpanType) and isinstance(b, SpanType):
                return lambda a, b: a.hi - a.lo < b.hi - b.lo

        @njit
        def compared(a, b):
            return a == b, a < b, b < a

        @njit
        def unequal(a, b):
            return a != b

        rng = np.random.default_rng(8)
        for _ in range(6):
            lo = float(rng.normal())
            a = Span(lo, lo + float(rng.integers(0, 3)), np.ones(2))
            b = Span(-lo, -lo + float(rng.integers(0, 3)), np.zeros(3))
            assert compared(a, b) == (width(a) == width(b), width(a) < width(b), width(b) < width(a))
        try:
            unequal(a, b)
        except TypingError as exc:
            assert "operator.ne" in str(exc), str(exc)
        else:
            raise AssertionError("!= of a value type without an overload compiled")
        print("ok")
    """, tmp_path)


@shim_only
def test_print_of_a_value_type_writes_the_boxed_objects_str(tmp_path):
    # as Numba's print boxes a value it does not write itself: the box
    # function's object, written by its own str()
    run_fresh("""
        import contextlib
        import io
        import numpy as np
        from numba import njit
        from span import Span

        Span.__str__ = lambda self: "Span[%g, %g] of %d" % (self.lo, self.hi, len(self.weights))
        Span.__repr__ = lambda self: "Span(%r, %r)" % (self.lo, self.hi)  # (in a tuple: its items' repr)

        @njit
        def show(s, k):
            print(s, k)
            print((k, s))

        for lo, n in ((0.0, 1), (-2.5, 3)):
            s = Span(lo, lo + 1.0, np.ones(n))
            got, want = io.StringIO(), io.StringIO()
            with contextlib.redirect_stdout(got):
                show(s, n)
            with contextlib.redirect_stdout(want):
                show.py_func(s, n)
            assert got.getvalue() == want.getvalue(), (got.getvalue(), want.getvalue())
        print("ok")
    """, tmp_path)


@shim_only
def test_str_and_repr_of_a_value_type_call_its_overloaded_methods(tmp_path):
    # as Numba's generic str and repr: str(x) is x.__str__() where the type
    # overloads it, else x.__repr__(); repr(x) is x.__repr__(); never the
    # boxed object's own str (Span's is object's here)
    run_fresh("""
        import numpy as np
        from numba import njit
        from numba.extending import overload_method
        from span import Span, SpanType

        def repr_text(s):
            return "<span " + str(s.weights.shape[0]) + ">"

        def str_text(s):
            return "Span of " + str(s.weights.shape[0])

        @overload_method(SpanType, "__repr__")
        def span_repr(s):
            return repr_text

        @njit
        def texts(s):
            return str(s), repr(s), "[" + str(s) + "]"

        rng = np.random.default_rng(9)
        for n in rng.integers(1, 40, 5):
            s = Span(0.0, 1.0, np.ones(int(n)))
            assert texts(s) == (repr_text(s), repr_text(s), "[" + repr_text(s) + "]"), texts(s)

        @overload_method(SpanType, "__str__")
        def span_str(s):
            return str_text

        @njit
        def text(s):
            return str(s), repr(s)

        for n in rng.integers(1, 40, 5):
            s = Span(0.0, 1.0, np.ones(int(n)))
            assert text(s) == (str_text(s), repr_text(s)), text(s)
        print("ok")
    """, tmp_path)


# a pandas-like column (Numba's pandas-like example's Index): a types.Buffer whose values stand for the array one
# member holds, as lower_builtin("__array__", ColumnType) says
COLUMN_MODULE = '''
import numpy as np
from numba import types
from numba.core import cgutils
from numba.core.datamodel import models
from numba.extending import (NativeValue, box, lower_builtin, make_attribute_wrapper, register_model,
                             type_callable, typeof_impl, unbox)


class Column:
    """A pandas-like column: an array and a name; len() and [] are its array's, a slice a Column again."""

    def __init__(self, data, scale):
        self._data, self.scale = data, scale

    def __len__(self):
        return len(self._data)

    def __getitem__(self, index):
        taken = self._data[index]
        return Column(taken, self.scale) if isinstance(taken, np.ndarray) else taken

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        plain = [x._data if isinstance(x, Column) else x for x in inputs]
        return Column(getattr(ufunc, method)(*plain, **kwargs), self.scale)


class ColumnType(types.Buffer):
    def __init__(self, dtype, ndim, layout):
        super().__init__(dtype, ndim, layout)

    @property
    def key(self):
        return self.dtype, self.ndim, self.layout

    @property
    def as_array(self):
        return types.Array(self.dtype, self.ndim, self.layout)


@typeof_impl.register(Column)
def typeof_column(val, c):
    arr = typeof_impl(val._data, c)
    return ColumnType(arr.dtype, arr.ndim, arr.layout)


@register_model(ColumnType)
class ColumnModel(models.StructModel):
    def __init__(self, dmm, fe_type):
        models.StructModel.__init__(self, dmm, fe_type, [("scale", types.float64), ("data", fe_type.as_array)])


make_attribute_wrapper(ColumnType, "data", "_data")
make_attribute_wrapper(ColumnType, "scale", "scale")


@lower_builtin("__array__", ColumnType)
def column_as_array(context, builder, sig, args):
    return cgutils.create_struct_proxy(sig.args[0])(context, builder, ref=args[0])._get_ptr_by_name("data")


@type_callable("__array_wrap__")
def type_column_wrap(context):
    def typer(input_type, result):
        if isinstance(input_type, ColumnType):
            return ColumnType(result.dtype, result.ndim, result.layout)
    return typer


@lower_builtin("__array_wrap__", ColumnType, types.Array)
def column_wrap(context, builder, sig, args):
    source = cgutils.create_struct_proxy(sig.args[0])(context, builder, value=args[0])
    made = cgutils.create_struct_proxy(sig.return_type)(context, builder)
    made.data = args[1]
    made.scale = source.scale
    return made._getvalue()


@unbox(ColumnType)
def unbox_column(typ, obj, c):
    data = c.pyapi.object_getattr_string(obj, "_data")
    scale = c.pyapi.object_getattr_string(obj, "scale")
    col = cgutils.create_struct_proxy(typ)(c.context, c.builder)
    col.data = c.unbox(typ.as_array, data).value
    col.scale = c.pyapi.float_as_double(scale)
    return NativeValue(col._getvalue())


@box(ColumnType)
def box_column(typ, val, c):
    col = cgutils.create_struct_proxy(typ)(c.context, c.builder, value=val)
    data = c.box(typ.as_array, col.data)
    scale = c.pyapi.float_from_double(col.scale)
    cls = c.pyapi.unserialize(c.pyapi.serialize_object(Column))
    return c.pyapi.call_function_objargs(cls, (data, scale))
'''


@shim_only
def test_len_and_subscripts_of_an_array_like_type_are_its_arrays(tmp_path):
    # len(c) and c[i] of a type whose __array__ lowering returns a member's address: the array's; a view taken
    # (a slice, a row) a Column again, holding it, its other members c's, as Numba's Buffer types give
    (tmp_path / "arraylike.py").write_text(COLUMN_MODULE)
    run_fresh("""
        import numpy as np
        from numba import njit
        from arraylike import Column

        @njit
        def size(c):
            return len(c)

        @njit
        def item(c, i):
            return c[i]

        @njit
        def total(c):
            s = 0.0
            for i in range(len(c)):
                s += c[i] * c.scale
            return s

        rng = np.random.default_rng(8)
        for n in (1, 3, 8):
            for dtype in (np.int32, np.float64):
                c = Column(rng.integers(-50, 50, n).astype(dtype), float(rng.normal()))
                assert size(c) == size.py_func(c)
                assert total(c) == total.py_func(c)
                for i in range(-n, n):
                    got, want = item(c, i), item.py_func(c, i)
                    assert got == want, (got, want)
                for sl in (slice(1, None), slice(None, None, -1), slice(0, n, 2)):
                    got, want = item(c, sl), item.py_func(c, sl)
                    assert type(got) is Column and got.scale == want.scale, got
                    np.testing.assert_array_equal(got._data, want._data)
        m = Column(np.arange(12.0).reshape(3, 4), 2.0)
        assert item(m, (1, 2)) == item.py_func(m, (1, 2))
        row = item(m, 1)
        assert type(row) is Column and list(row._data) == list(m._data[1])
        assert size(m) == 3
        print("ok")
    """, tmp_path)


@shim_only
def test_ufuncs_of_an_array_like_type_are_its_arrays_wrapped_again(tmp_path):
    # numpy ufuncs of such a type apply to its array, and the result is made a Column again as its
    # __array_wrap__ typer and lowering say (its scale the input's), as Numba's pandas-like Index and Series
    (tmp_path / "arraylike.py").write_text(COLUMN_MODULE)
    run_fresh("""
        import numpy as np
        from numba import njit
        from arraylike import Column

        @njit
        def waves(c):
            return np.cos(np.sin(c))

        @njit
        def mixed(c, a, k):
            return np.add(c, a), np.multiply(k, c), np.hypot(c, c), np.negative(c)

        rng = np.random.default_rng(10)
        for n in (1, 4, 9):
            for dtype in (np.int32, np.float64):
                c = Column(rng.integers(-9, 9, n).astype(dtype), float(rng.normal()))
                a, k = rng.normal(size=n), float(rng.normal())
                for got, want in zip((waves(c),) + mixed(c, a, k), (waves.py_func(c),) + mixed.py_func(c, a, k)):
                    assert type(got) is Column and got.scale == want.scale
                    np.testing.assert_allclose(got._data, want._data, rtol=1e-15)
                    assert got._data.dtype == want._data.dtype
        print("ok")
    """, tmp_path)


@shim_only
def test_an_array_lowering_the_recording_cannot_follow_is_refused(tmp_path):
    (tmp_path / "arraylike.py").write_text(COLUMN_MODULE)
    run_fresh("""
        import numpy as np
        from numba import njit, types
        from numba.extending import lower_builtin, typeof_impl
        from arraylike import Column, ColumnType

        class OddColumn(Column):
            pass

        class OddColumnType(ColumnType):
            pass

        @typeof_impl.register(OddColumn)
        def typeof_odd(val, c):
            return OddColumnType(types.float64, 1, "C")

        @lower_builtin("__array__", OddColumnType)
        def odd_as_array(context, builder, sig, args):
            return context.make_array(sig.return_type)(context, builder)

        @njit
        def size(c):
            return len(c)

        try:
            size(OddColumn(np.ones(3), 1.0))
        except NotImplementedError as e:  # (ruchey._values.UnsupportedLowering), naming what it did
            assert "__array__ lowering" in str(e) and "context.make_array" in str(e), e
        else:
            raise AssertionError("not refused")
        print("ok")
    """, tmp_path)


@shim_only
def test_a_value_converting_to_a_number_is_one_for_operators_before_overloads(tmp_path):
    # a type whose can_convert_to takes Number and whose lower_cast gives a constant: a + b, operator.mul(a, k),
    # comparisons and += of it are those of the number, as Numba tries its number signatures before a package's
    # overloads of the operator; an overload still serves a type that does not convert
    run_fresh("""
        import operator
        import numpy as np
        from numba import njit, types
        from numba.core.datamodel import models
        from numba.extending import lower_cast, overload, register_model, typeof_impl, unbox, NativeValue

        def number_operators(cls, value):
            for name in ("add", "sub", "mul", "truediv", "lt", "le", "eq", "gt"):
                op = getattr(operator, name)
                number = lambda x: value if isinstance(x, cls) else x
                setattr(cls, f"__{name}__", lambda a, b, op=op: op(number(a), number(b)))
                setattr(cls, f"__r{name}__", lambda a, b, op=op: op(number(b), number(a)))
            return cls

        class Seven:
            pass

        Seven = number_operators(Seven, 7)

        class Other:
            pass

        class SevenType(types.Opaque):
            def can_convert_to(self, context, toty):
                if isinstance(toty, types.Number):
                    from numba.core.typeconv import Conversion
                    return Conversion.safe

        class OtherType(types.Opaque):
            pass

        seven_type, other_type = SevenType("seven"), OtherType("other")
        typeof_impl.register(Seven)(lambda val, c: seven_type)
        typeof_impl.register(Other)(lambda val, c: other_type)
        register_model(SevenType)(models.OpaqueModel)
        register_model(OtherType)(models.OpaqueModel)
        for cls in (SevenType, OtherType):
            unbox(cls)(lambda typ, obj, c: NativeValue(c.context.get_dummy_value()))

        @lower_cast(SevenType, types.Number)
        def seven_to_number(context, builder, fromty, toty, val):
            return context.get_constant(toty, 7)

        @overload(operator.add)
        def add_any(a, b):
            if isinstance(a, (SevenType, OtherType)) and isinstance(b, (SevenType, OtherType)):
                return lambda a, b: -1

        @njit
        def arithmetic(a, b, k):
            return a + b, operator.mul(a, k), k - a, a / k, a < k, a == 7, k > b

        @njit
        def accumulate(a, k):
            k += a
            return k

        rng = np.random.default_rng(11)
        for k in list(rng.normal(size=4)) + [int(v) for v in rng.integers(-20, 20, 4)]:
            got, want = arithmetic(Seven(), Seven(), k), arithmetic.py_func(Seven(), Seven(), k)
            assert got == want, (got, want)
            assert accumulate(Seven(), k) == k + 7
        assert arithmetic.py_func(Seven(), Seven(), 2)[0] == 14
        add = njit(lambda a, b: a + b)
        assert add(Other(), Other()) == -1 and add(Seven(), Other()) == -1 and add(Seven(), Seven()) == 14
        print("ok")
    """, tmp_path)
