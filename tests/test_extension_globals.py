"""Value types of a package's own beyond the Interval example, as clifford's
MultiVector and Layout are made: objects typed by their class's
``_numba_type_``, an OpaqueModel type whose box returns the object its type
holds (context.add_dynamic_addr), globals read through lower_constant, an
@intrinsic filling the struct, operators and builtins overloaded for the
type (overload(operator.add), overload(abs)) and a call of a value through
a typing template (make_overload_attribute_template + infer_getattr).
Each check runs in a fresh interpreter (install_as_numba changes it) and
compares with py_func; what the recording cannot follow is a TypeError."""
import os
import subprocess
import sys
import textwrap

import pytest

from conftest import AS_NUMBA

shim_only = pytest.mark.skipif(AS_NUMBA, reason="numba itself stands in for ruchey")

# arrows in a frame: a frame scales lengths; an arrow holds its frame, its coordinates and a weight
ARROW_MODULE = '''
import operator

import numpy as np
from numba import types
from numba.core import cgutils
from numba.core.imputils import impl_ret_borrowed, lower_constant
from numba.core.typing.templates import (_OverloadAttributeTemplate, make_overload_attribute_template,
                                         make_overload_method_template)
from numba.extending import (NativeValue, box, infer_getattr, intrinsic, make_attribute_wrapper, models, overload,
                             overload_attribute, overload_method, register_model, unbox)


class Frame:
    def __init__(self, scale):
        self.scale = scale

    def arrow(self, coords, weight=1.0):
        return Arrow(self, coords, weight)


class Arrow:
    def __init__(self, frame, coords, weight=1.0):
        self.frame, self.coords, self.weight = frame, coords, weight

    def __add__(self, other):
        if isinstance(other, Arrow):
            return Arrow(self.frame, self.coords + other.coords, self.weight + other.weight)
        return Arrow(self.frame, self.coords + other, self.weight)

    __radd__ = __add__

    def __mul__(self, k):
        return Arrow(self.frame, self.coords * k, self.weight)

    __rmul__ = __mul__

    def __neg__(self):
        return Arrow(self.frame, -self.coords, self.weight)

    def __abs__(self):
        return np.sqrt(np.sum(self.coords ** 2)) * self.frame.scale

    def __call__(self, *axes):
        total = 0.0
        for a in axes:
            total += self.coords[a]
        return total


class FrameType(types.Dummy):
    def __init__(self, frame):
        self.obj = frame
        super().__init__("FrameType(%r)" % (frame.scale,))


class ArrowType(types.Type):
    def __init__(self, frame_type, coords_type):
        self.frame_type, self.coords_type = frame_type, coords_type
        super().__init__(name="Arrow(%r, %r)" % (frame_type, coords_type))


_frame_types = {}


def _frame_numba_type(self):
    if id(self) not in _frame_types:
        _frame_types[id(self)] = FrameType(self)
    return _frame_types[id(self)]


Frame._numba_type_ = property(_frame_numba_type)


def _arrow_numba_type(self):
    if self.coords.ndim != 1:
        return None
    return ArrowType(self.frame._numba_type_, types.float64[::1])


Arrow._numba_type_ = property(_arrow_numba_type)


@register_model(FrameType)
class FrameModel(models.OpaqueModel):
    pass


@register_model(ArrowType)
class ArrowModel(models.StructModel):
    def __init__(self, dmm, fe_type):
        members = [("frame", fe_type.frame_type), ("coords", fe_type.coords_type), ("weight", types.float64)]
        super().__init__(dmm, fe_type, members)


make_attribute_wrapper(ArrowType, "frame", "frame")
make_attribute_wrapper(ArrowType, "coords", "coords")
make_attribute_wrapper(ArrowType, "weight", "weight")


@lower_constant(FrameType)
def lower_frame(context, builder, typ, pyval):
    return context.get_dummy_value()


@unbox(FrameType)
def unbox_frame(typ, obj, c):
    return NativeValue(c.context.get_dummy_value())


@box(FrameType)
def box_frame(typ, val, c):
    obj = c.context.add_dynamic_addr(c.builder, id(typ.obj), info=typ.name)
    c.pyapi.incref(obj)
    return obj


@lower_constant(ArrowType)
def lower_arrow(context, builder, typ, pyval):
    arrow = cgutils.create_struct_proxy(typ)(context, builder)
    arrow.coords = context.get_constant_generic(builder, typ.coords_type, pyval.coords)
    arrow.frame = context.get_constant_generic(builder, typ.frame_type, pyval.frame)
    arrow.weight = context.get_constant_generic(builder, types.float64, pyval.weight)
    return arrow._getvalue()


@unbox(ArrowType)
def unbox_arrow(typ, obj, c):
    frame = c.pyapi.object_getattr_string(obj, "frame")
    coords = c.pyapi.object_getattr_string(obj, "coords")
    weight = c.pyapi.object_getattr_string(obj, "weight")
    arrow = cgutils.create_struct_proxy(typ)(c.context, c.builder)
    arrow.frame = c.unbox(typ.frame_type, frame).value
    arrow.coords = c.unbox(typ.coords_type, coords).value
    arrow.weight = c.pyapi.float_as_double(weight)
    for o in (frame, coords, weight):
        c.pyapi.decref(o)
    return NativeValue(arrow._getvalue(), is_error=cgutils.is_not_null(c.builder, c.pyapi.err_occurred()))


@box(ArrowType)
def box_arrow(typ, val, c):
    arrow = cgutils.create_struct_proxy(typ)(c.context, c.builder, value=val)
    frame = c.box(typ.frame_type, arrow.frame)
    coords = c.box(typ.coords_type, arrow.coords)
    weight = c.pyapi.float_from_double(arrow.weight)
    cls = c.builder.bitcast(c.context.add_dynamic_addr(c.builder, id(Arrow), info="Arrow"), c.pyapi.pyobj)
    res = c.pyapi.call_function_objargs(cls, (frame, coords, weight))
    for o in (frame, coords, weight):
        c.pyapi.decref(o)
    return res


@intrinsic
def make_arrow(tyctx, frame, coords, weight):
    def codegen(context, builder, sig, args):
        arrow = cgutils.create_struct_proxy(sig.return_type)(context, builder)
        arrow.frame, arrow.coords, arrow.weight = args
        return impl_ret_borrowed(context, builder, sig.return_type, arrow._getvalue())
    return ArrowType(frame, coords)(frame, coords, weight), codegen


@overload(Arrow)
def arrow_ctor(frame, coords, weight=1.0):
    if isinstance(frame, FrameType) and isinstance(coords, types.Array):
        def impl(frame, coords, weight=1.0):
            return make_arrow(frame, coords, float(weight))
        return impl


@overload_method(FrameType, "arrow")
def frame_arrow(self, coords, weight=1.0):
    def impl(self, coords, weight=1.0):
        return Arrow(self, coords, weight)
    return impl


@overload_attribute(FrameType, "scale")
def frame_scale(self):
    scale = self.obj.scale
    def get(self):
        return scale
    return get


@overload(operator.add)
def arrow_add(a, b):
    if isinstance(a, ArrowType) and isinstance(b, ArrowType):
        def impl(a, b):
            return a.frame.arrow(a.coords + b.coords, a.weight + b.weight)
        return impl
    if isinstance(a, ArrowType) and isinstance(b, types.Number):
        def impl(a, b):
            return a.frame.arrow(a.coords + b, a.weight)
        return impl
    if isinstance(a, types.Number) and isinstance(b, ArrowType):
        def impl(a, b):
            return b.frame.arrow(b.coords + a, b.weight)
        return impl


@overload(operator.mul)
def arrow_mul(a, b):
    if isinstance(a, ArrowType) and isinstance(b, types.Number):
        def impl(a, b):
            return a.frame.arrow(a.coords * b, a.weight)
        return impl
    if isinstance(a, types.Number) and isinstance(b, ArrowType):
        def impl(a, b):
            return b.frame.arrow(b.coords * a, b.weight)
        return impl


@overload(operator.neg)
def arrow_neg(a):
    if isinstance(a, ArrowType):
        def impl(a):
            return a.frame.arrow(-a.coords, a.weight)
        return impl


@overload(abs)
def arrow_abs(self):  # (named as the method it gives: a strict overload's implementation takes its parameters)
    if isinstance(self, ArrowType):
        return Arrow.__abs__


def arrow_call(self, *axes):
    if all(isinstance(a, types.Integer) for a in axes):
        def impl(self, *axes):
            total = 0.0
            for i in range(len(axes)):
                total += self.coords[axes[i]]
            return total
        return impl


infer_getattr(make_overload_attribute_template(ArrowType, "__call__", arrow_call, base=_OverloadAttributeTemplate))


def arrow_total(self, k):
    def impl(self, k):
        return self.coords.sum() * k
    return impl


def arrow_size(self):
    def get(self):
        return self.coords.shape[0]
    return get


Arrow.total = lambda self, k: self.coords.sum() * k
Arrow.size = property(lambda self: self.coords.shape[0])
infer_getattr(make_overload_method_template(ArrowType, "total", arrow_total))
infer_getattr(make_overload_attribute_template(ArrowType, "size", arrow_size))

UNIT = Frame(2.0)
NORTH = Arrow(UNIT, np.array([0.0, 1.0, 0.0]), 0.5)
'''


def run_fresh(code, tmp_path, module=ARROW_MODULE):
    (tmp_path / "arrows.py").write_text(module)
    script = tmp_path / "script.py"
    script.write_text("import ruchey\nruchey.install_as_numba()\n" + textwrap.dedent(code))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path)] + [p for p in sys.path if p]))
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300, env=env,
                          cwd=str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().endswith("ok"), done.stdout


def _same_arrow_check():
    return """
        def same(got, want):
            assert type(got) is Arrow and got.frame is want.frame, (got, want)
            np.testing.assert_array_equal(got.coords, want.coords)
            assert got.weight == want.weight
    """


@shim_only
def test_numba_type_attribute_opaque_member_and_intrinsic_constructor(tmp_path):
    run_fresh(_same_arrow_check() + """
        import numpy as np
        from numba import njit
        from arrows import Arrow, Frame

        @njit
        def shifted(a, by):
            return Arrow(a.frame, a.coords + by, a.weight * 2.0)

        @njit
        def frame_of(a):
            return a.frame

        @njit
        def made(f, n):
            return f.arrow(np.arange(float(n)), 3.0), f.arrow(np.ones(n)), f.scale

        rng = np.random.default_rng(0)
        for scale in (1.0, 0.5):
            f = Frame(scale)
            for _ in range(3):
                a = Arrow(f, rng.normal(size=int(rng.integers(1, 5))), float(rng.normal()))
                same(shifted(a, 1.5), shifted.py_func(a, 1.5))
                assert frame_of(a) is f    # the box returns the frame its type holds
            (x, y, s), (wx, wy, ws) = made(f, 4), made.py_func(f, 4)
            same(x, wx)
            same(y, wy)
            assert s == ws
        print("ok")
    """, tmp_path)


@shim_only
def test_package_types_are_interned_as_numba_s(tmp_path):
    run_fresh("""
        import pickle
        import numpy as np
        from numba import types
        from arrows import ArrowType, Frame, FrameType

        f = Frame(1.0)
        ft = f._numba_type_
        assert FrameType(Frame(1.0)) is ft          # the same class and name: the first made
        assert FrameType(Frame(2.0)) is not ft
        assert pickle.loads(pickle.dumps(ft)) is ft
        at = ArrowType(ft, types.float64[::1])
        assert ArrowType(ft, types.float64[::1]) is at and pickle.loads(pickle.dumps(at)) is at
        print("ok")
    """, tmp_path)


@shim_only
def test_types_of_one_name_told_apart_by_their_key(tmp_path):
    run_fresh("""
        import numpy as np
        from numba import njit, types
        from numba.extending import NativeValue, make_attribute_wrapper, models, register_model, unbox
        from numba.core import cgutils

        class Box:
            def __init__(self, v):
                self.v = v

        class BoxType(types.Type):    # one name for every dtype; the key tells them apart, as Numba's does
            def __init__(self, dtype):
                self.dtype_ = dtype
                super().__init__("Box")

            @property
            def key(self):
                return self.name, self.dtype_

        Box._numba_type_ = property(lambda self: BoxType(types.from_dtype(self.v.dtype)))

        @register_model(BoxType)
        class BoxModel(models.StructModel):
            def __init__(self, dmm, fe_type):
                super().__init__(dmm, fe_type, [("v", types.Array(fe_type.dtype_, 1, "C"))])

        make_attribute_wrapper(BoxType, "v", "v")

        @unbox(BoxType)
        def unbox_box(typ, obj, c):
            v = c.pyapi.object_getattr_string(obj, "v")
            box = cgutils.create_struct_proxy(typ)(c.context, c.builder)
            box.v = c.unbox(types.Array(typ.dtype_, 1, "C"), v).value
            return NativeValue(box._getvalue())

        @njit
        def doubled(b):
            return b.v * 2

        for dtype in (np.float32, np.int64, np.float64):
            b = Box(np.arange(5, dtype=dtype))
            got, want = doubled(b), doubled.py_func(b)
            assert got.dtype == want.dtype and (got == want).all(), (got, want)
        assert BoxType(types.float32) is BoxType(types.float32) and BoxType(types.int64) is not BoxType(types.float32)

        class LaxType(types.Type):    # a key holding what a Numba name ruchey lacks made: the name tells apart
            def __init__(self, dtype):
                self.dtype_ = types.NoSuchNumbaType(dtype)
                super().__init__("Lax")

            @property
            def key(self):
                return self.name, self.dtype_

        assert LaxType(types.float32) is LaxType(types.float32)
        print("ok")
    """, tmp_path)


@shim_only
def test_operators_and_builtins_overloaded_for_the_type(tmp_path):
    run_fresh(_same_arrow_check() + """
        import numpy as np
        from numba import njit
        from arrows import Arrow, Frame

        @njit
        def combine(a, b, k):
            return -(a + b) * k + 1.0

        @njit
        def scaled_left(a, k):
            return k * a + 2.0 + a

        @njit
        def length(a):
            return abs(a)

        @njit
        def updated(a, b, k):
            x = a
            x += b     # x = x + b: a new arrow, as Numba's operator.iadd falls back to add
            x *= k
            return x, a

        rng = np.random.default_rng(1)
        f = Frame(3.0)
        for _ in range(4):
            a, b = (Arrow(f, rng.normal(size=3), float(rng.normal())) for _ in range(2))
            k = float(rng.normal())
            same(combine(a, b, k), combine.py_func(a, b, k))
            same(scaled_left(a, k), scaled_left.py_func(a, k))
            assert length(a) == length.py_func(a)
            (x, a2), (wx, wa2) = updated(a, b, k), updated.py_func(a, b, k)
            same(x, wx)
            same(a2, wa2)
        print("ok")
    """, tmp_path)


@shim_only
def test_globals_read_through_lower_constant(tmp_path):
    run_fresh(_same_arrow_check() + """
        import numpy as np
        from numba import njit
        from arrows import NORTH, UNIT, Arrow

        @njit
        def towards_north(a):
            return a + NORTH

        def make_in(frame):
            @njit
            def closure(coords):
                return frame.arrow(coords)    # the frame, a closure variable: its lower_constant
            return closure

        @njit
        def north_weight():
            return NORTH.weight, NORTH.coords.sum(), UNIT.scale

        PAIR = (NORTH, NORTH * 2.0)

        @njit
        def pair_sum(k):
            return PAIR[0] + PAIR[1] * k    # a global tuple of them: each item's lower_constant

        rng = np.random.default_rng(2)
        for _ in range(3):
            a = Arrow(UNIT, rng.normal(size=3), float(rng.normal()))
            same(towards_north(a), towards_north.py_func(a))
        c = rng.normal(size=4)
        inner = make_in(UNIT)
        same(inner(c), inner.py_func(c))
        assert north_weight() == north_weight.py_func()
        same(pair_sum(3.0), pair_sum.py_func(3.0))
        print("ok")
    """, tmp_path)


@shim_only
def test_value_called_through_a_typing_template(tmp_path):
    """And its method and attribute through templates (make_overload_method_template,
    make_overload_attribute_template) that infer_getattr registers."""
    run_fresh("""
        import numpy as np
        from numba import njit
        from arrows import Arrow, Frame

        @njit
        def picked(a, i, j):
            axes = (i, j, i)
            return a(i), a(i, j), (a * 2.0)(j), a(*axes), a(j, *axes), a.total(2.0), a.size

        rng = np.random.default_rng(3)
        f = Frame(1.0)
        for _ in range(4):
            a = Arrow(f, rng.normal(size=5), 1.0)
            i, j = (int(x) for x in rng.integers(0, 5, size=2))
            assert picked(a, i, j) == picked.py_func(a, i, j)
        print("ok")
    """, tmp_path)


@shim_only
def test_what_the_recording_cannot_follow_is_a_type_error(tmp_path):
    run_fresh("""
        import numpy as np
        from numba import njit, types
        from numba.core import cgutils
        from numba.core.errors import TypingError
        from numba.extending import (NativeValue, box, intrinsic, make_attribute_wrapper, models, register_model,
                                     unbox)
        from arrows import Arrow, ArrowType, Frame

        def refused(f, *args, match):   # a TypeError, or at compile time the TypingError saying it
            try:
                f(*args)
            except Exception as exc:
                assert isinstance(exc, (TypeError, TypingError)) and all(m in str(exc) for m in match), repr(exc)
            else:
                raise AssertionError("no error")

        # no lower_constant for the type: a global of it is refused, naming what is missing
        class Loose:
            weight = 1.0

        class LooseType(types.Type):
            def __init__(self):
                super().__init__(name="Loose")

        @register_model(LooseType)
        class LooseModel(models.StructModel):
            def __init__(self, dmm, fe_type):
                super().__init__(dmm, fe_type, [("w", types.float64)])

        make_attribute_wrapper(LooseType, "w", "weight")
        Loose._numba_type_ = property(lambda self: LooseType())
        LOOSE = Loose()

        @njit
        def read_loose():
            return LOOSE.weight
        refused(read_loose, match=["LOOSE", "lower_constant(LooseType)"])

        # an intrinsic writing other IR for the struct: refused naming the call
        @intrinsic
        def odd_arrow(tyctx, frame, coords):
            def codegen(context, builder, sig, args):
                arrow = cgutils.create_struct_proxy(sig.return_type)(context, builder)
                arrow.frame, arrow.coords = args
                arrow.weight = builder.fadd(args[1], args[1])
                return arrow._getvalue()
            return ArrowType(frame, coords)(frame, coords), codegen

        @njit
        def make_odd(f, c):
            return odd_arrow(f, c)
        refused(make_odd, Frame(1.0), np.zeros(3), match=["odd_arrow", "builder.fadd"])

        # an arrow of 2-d coordinates has no type: refused as an argument
        @njit
        def weight(a):
            return a.weight
        refused(weight, Arrow(Frame(1.0), np.zeros((2, 2))), match=["argument 1"])
        assert weight(Arrow(Frame(1.0), np.zeros(2), 4.0)) == 4.0

        # a box naming an address of no object its function or type holds: refused, never read as an object
        class Tag:
            pass

        class TagType(types.Dummy):
            def __init__(self):
                super().__init__("Tag")

        Tag._numba_type_ = property(lambda self: TagType())

        @register_model(TagType)
        class TagModel(models.OpaqueModel):
            pass

        @unbox(TagType)
        def unbox_tag(typ, obj, c):
            return NativeValue(c.context.get_dummy_value())

        @box(TagType)
        def box_tag(typ, val, c):
            return c.context.add_dynamic_addr(c.builder, id(object()), info="a stray object")

        @njit
        def same_tag(t):
            return t
        try:
            same_tag(Tag())
        except NotImplementedError as exc:
            assert "add_dynamic_addr" in str(exc) and "a stray object" in str(exc), str(exc)
        else:
            raise AssertionError("no error")

        # a call of a value whose template does not type these arguments
        @njit
        def float_axis(a):
            return a(1.5)
        try:
            float_axis(Arrow(Frame(1.0), np.zeros(3)))
        except TypingError:
            pass
        else:
            raise AssertionError("no error")
        print("ok")
    """, tmp_path)
