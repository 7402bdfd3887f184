"""Numba's ``numba.extending.intrinsic`` for numbers and bools, and the
parts of ``numba.core.cgutils`` intrinsics use.

```python
@intrinsic
def popcount_u8(typingctx, x):
    def codegen(context, builder, sig, args):
        fnty = llvmlite.ir.FunctionType(args[0].type, [args[0].type])
        ctpop = cgutils.get_or_insert_function(builder.module, fnty, "llvm.ctpop.i8")
        return builder.call(ctpop, args)
    return types.uint8(types.uint8), codegen
```

The typing function takes the call's argument types (after a typing
context: numba.core.typing.Context's resolve_value_type and can_convert)
and returns (signature, codegen), or None where it has no implementation. codegen builds the LLVM IR of the
call with llvmlite.ir, in a function of the signature's LLVM types (a bool
is i1, as Numba's): ruchey links that function into the compiled module
and inlines it. Arguments are numbers, bools, scalar types (a dtype
passed as a value, NumberClass, which has no value: an empty struct, as
Numba's) and arrays of numbers (Numba's array struct, whose members
``context.make_array(t)(context, builder, value)`` reads: ``.data``,
``.shape``...); results are numbers, bools or a pointer (CPointer: a 1-d array
of no known length, as a @cfunc's pointer argument, for ``carray``).
Stack memory (``cgutils.alloca_once``) of a constant size lives in the
calling function's frame, as where Numba writes the codegen into the
caller; a function holding it is inlined into its callers, as Numba's
``inline="always"`` functions (numba_celltree's stack-allocated arrays)
are, so that the memory outlives the call that made it.
"""
import functools

from ruchey import _core, types

__all__ = ["intrinsic", "get_or_insert_function", "alloca_once", "alloca_once_value", "NRT_get_api"]


def _llvmlite_ir():
    try:
        from llvmlite import ir
    except ImportError:
        raise ImportError("@intrinsic needs llvmlite (which comes with Numba: pip install llvmlite) "
                          "to build its LLVM IR") from None
    return ir


# numba.core.cgutils' LLVM types and constants that codegen functions name
# (builder.inttoptr(address, cgutils.voidptr_t)), made with llvmlite when
# first read: importing ruchey needs no llvmlite
CGUTILS_VALUES = {
    "bool_t": lambda ir: ir.IntType(1), "int8_t": lambda ir: ir.IntType(8), "int16_t": lambda ir: ir.IntType(16),
    "int32_t": lambda ir: ir.IntType(32), "int64_t": lambda ir: ir.IntType(64), "intp_t": lambda ir: ir.IntType(64),
    "voidptr_t": lambda ir: ir.IntType(8).as_pointer(),
    "true_bit": lambda ir: ir.Constant(ir.IntType(1), 1), "false_bit": lambda ir: ir.Constant(ir.IntType(1), 0),
    "true_byte": lambda ir: ir.Constant(ir.IntType(8), 1), "false_byte": lambda ir: ir.Constant(ir.IntType(8), 0),
}


def _is_number_or_bool(t):
    return isinstance(t, types.Type) and not isinstance(t, types.UnicodeType) and not t.ndim and \
        not t.name.startswith("complex")


def _is_array_of_numbers(t):
    return isinstance(t, types.Array) and t.ndim > 0 and _is_number_or_bool(t.dtype)


def _llvm_type(ir, t):
    """The LLVM type of a number, bool, scalar type, pointer or array in an intrinsic's code (Numba's value types)."""
    if _is_array_of_numbers(t):  # Numba's array struct: meminfo, parent, nitems, itemsize, data, shape, strides
        dims = ir.ArrayType(ir.IntType(64), t.ndim)
        return ir.LiteralStructType([ir.IntType(8).as_pointer(), ir.IntType(8).as_pointer(), ir.IntType(64),
                                     ir.IntType(64), _llvm_type(ir, t.dtype).as_pointer(), dims, dims])
    if isinstance(t, types.NumberClass):
        return ir.LiteralStructType([])
    if isinstance(t, types.MemInfoPointer):  # the RtMemInfo's address, as Numba's MemInfo*
        return ir.IntType(8).as_pointer()
    if isinstance(t, types.CPointer):
        return _llvm_type(ir, t.dtype).as_pointer()
    if not _is_number_or_bool(t):
        raise TypeError(f"an @intrinsic's signature takes numbers, bools, scalar types, pointers, arrays of "
                        f"numbers and MemInfoPointers only, not {t!r}")
    name = t.name
    if name == "bool":
        return ir.IntType(1)
    if name == "float16":
        return ir.HalfType()
    if name == "float32":
        return ir.FloatType()
    if name == "float64":
        return ir.DoubleType()
    return ir.IntType(t.bitwidth)


class _Nrt:
    """context.nrt: Numba's runtime as intrinsics reach it, over ruchey's
    counted memory (lib/nrt.c). A MemInfo is an RtMemInfo: its count, then
    its data pointer."""

    def __init__(self, ir):
        self._ir = ir
        self._ptr = ir.IntType(8).as_pointer()

    def _call(self, builder, name, ret, args):
        fnty = self._ir.FunctionType(ret, [a.type for a in args])
        return builder.call(get_or_insert_function(builder.module, fnty, name), args)

    def get_nrt_api(self, builder):
        """The address of the NRT_api_functions table (numba.core.unsafe.nrt.NRT_get_api)."""
        return self._call(builder, "rt_nrt_api", self._ptr, [])

    def meminfo_data(self, builder, meminfo):
        """The data pointer a MemInfo holds."""
        ir = self._ir
        slots = builder.bitcast(meminfo, self._ptr.as_pointer())
        return builder.load(builder.gep(slots, [ir.Constant(ir.IntType(64), 1)]))

    def _count(self, builder, typ, value, name):
        if not isinstance(typ, types.MemInfoPointer):
            raise TypeError(f"context.nrt counts MemInfoPointer values only in ruchey's intrinsics, not {typ!r}")
        self._call(builder, name, self._ir.VoidType(), [builder.bitcast(value, self._ptr)])

    def incref(self, builder, typ, value):
        self._count(builder, typ, value, "rt_nrt_acquire")

    def decref(self, builder, typ, value):
        """Drops a reference; the last runs the MemInfo's destructor."""
        self._count(builder, typ, value, "rt_nrt_release")


_ARRAY_MEMBERS = ("meminfo", "parent", "nitems", "itemsize", "data", "shape", "strides")


class _ArrayStruct:
    """What make_array(t)(context, builder, value) gives an intrinsic's
    code: the members of an array argument (Numba's array struct), read
    where it names them; shape and strides are LLVM arrays, which
    unpack_tuple splits."""

    def __init__(self, builder, value):
        object.__setattr__(self, "_builder", builder)
        object.__setattr__(self, "_value", value)

    def __getattr__(self, name):
        if name not in _ARRAY_MEMBERS:
            raise AttributeError(f"an array has no member {name!r} (it has {', '.join(_ARRAY_MEMBERS)})")
        return self._builder.extract_value(self._value, _ARRAY_MEMBERS.index(name))

    def __setattr__(self, name, value):
        raise NotImplementedError(f"ruchey's intrinsics read an array's members; setting .{name} is not supported")

    def _getvalue(self):
        return self._value


def make_array(aryty):
    """numba.np.arrayobj.make_array in an intrinsic's codegen: a class of
    the array arguments' member readers (_ArrayStruct)."""
    if not _is_array_of_numbers(aryty):
        raise TypeError(f"make_array takes an array type of numbers in ruchey's intrinsics, not {aryty!r}")

    def of(context, builder, value=None, ref=None):
        if value is None:
            raise NotImplementedError("make_array of no value (building a new array) is not supported in "
                                      "ruchey's intrinsics: they read the arrays they are given")
        return _ArrayStruct(builder, value)
    return of


def unpack_tuple(builder, tup, count=None):
    """numba.core.cgutils' in an intrinsic's codegen: the items of an LLVM
    array or struct value (an array's shape or strides)."""
    if count is None:
        count = tup.type.count if hasattr(tup.type, "count") else len(tup.type.elements)
    return [builder.extract_value(tup, i) for i in range(count)]


class _Context:
    """What codegen gets as context: the conversions and types intrinsics use."""

    def __init__(self, ir):
        self._ir = ir
        self.nrt = _Nrt(ir)

    make_array = staticmethod(make_array)

    def get_value_type(self, t):
        return _llvm_type(self._ir, t)

    get_data_type = get_value_type

    def get_dummy_value(self):
        """What a codegen of a void signature returns, as Numba's (a null
        pointer, which the call's void return drops)."""
        return self._ir.Constant(self._ir.IntType(8).as_pointer(), None)

    def get_constant(self, t, value):
        if t.name == "bool":
            value = int(bool(value))
        return self._ir.Constant(_llvm_type(self._ir, t), value)

    def cast(self, builder, value, fromty, toty):
        """value, of type fromty, as toty: Numba's conversions between numbers."""
        ir = self._ir
        want = _llvm_type(ir, toty)
        _llvm_type(ir, fromty)
        if fromty == toty:
            return value
        if toty.name == "bool":
            zero = ir.Constant(value.type, 0)
            return builder.fcmp_unordered("!=", value, zero) if fromty.name.startswith("float") \
                else builder.icmp_unsigned("!=", value, zero)
        from_float, to_float = fromty.name.startswith("float"), toty.name.startswith("float")
        if from_float and to_float:
            return builder.fpext(value, want) if toty.bitwidth > fromty.bitwidth else builder.fptrunc(value, want)
        if from_float:
            return builder.fptosi(value, want) if toty.signed else builder.fptoui(value, want)
        unsigned = fromty.name == "bool" or not fromty.signed
        if to_float:
            return builder.uitofp(value, want) if unsigned else builder.sitofp(value, want)
        have = value.type.width
        if want.width == have:
            return value
        if want.width < have:
            return builder.trunc(value, want)
        return builder.zext(value, want) if unsigned else builder.sext(value, want)


def get_or_insert_function(module, fnty, name):
    """numba.core.cgutils's: the module's function named name, declared with fnty if absent."""
    fn = module.globals.get(name)
    if fn is None:
        fn = _llvmlite_ir().Function(module, fnty, name)
    return fn


def alloca_once(builder, ty, size=None, name="", zfill=False):
    """numba.core.cgutils's: stack memory for size values (1 by default)
    of the LLVM type ty, allocated at the function's entry and zeroed there
    (and where it is called too, with zfill)."""
    ir = _llvmlite_ir()
    if isinstance(size, int):
        size = ir.Constant(ir.IntType(64), size)
    with builder.goto_entry_block():
        ptr = builder.alloca(ty, size=size, name=name)
        builder.store(ty(None), ptr)
    if zfill:
        builder.store(ty(None), ptr)
    return ptr


def alloca_once_value(builder, value, name="", zfill=False):
    """numba.core.cgutils's: stack memory of value's LLVM type (allocated
    at the function's entry) holding value, stored where it is called."""
    slot = alloca_once(builder, value.type, name=name, zfill=zfill)
    builder.store(value, slot)
    return slot


def _describe(t):
    """t as the compiler takes it: a pointer as a 1-d array of its elements
    (as a @cfunc's pointer argument), a scalar type by its name."""
    if isinstance(t, types.CPointer):
        return t.as_array().describe()
    if isinstance(t, types.NumberClass):
        return t.name
    return t.describe()


def _nrt_get_api_typer(typingctx):
    def codegen(context, builder, sig, args):
        return context.nrt.get_nrt_api(builder)
    return types.voidptr(), codegen


def __getattr__(name):
    if name in CGUTILS_VALUES:
        return CGUTILS_VALUES[name](_llvmlite_ir())
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class Intrinsic:
    """What @intrinsic makes: compiled code calls it; Python cannot."""

    def __init__(self, typer, prefer_literal=False):
        self._typer = typer
        self._prefer_literal = prefer_literal  # literal types (constants' values) tried first, as Numba's
        functools.update_wrapper(self, typer)
        self._code = {}  # the arguments' types, described -> (return, arguments, IR text), kept for the compiler

    def __call__(self, *args, **kwargs):
        raise TypeError(f"{self.__name__} is an @intrinsic: only compiled code can call it")

    def __repr__(self):
        return f"<intrinsic {self.__qualname__}>"

    def __reduce__(self):
        """Pickled by name where its module holds it, else by value: its
        typing function through cloudpickle, as Numba's intrinsics pickle
        (one defined in a function, for multiprocessing and Dask); the
        receiver generates its code again at its first call."""
        from ruchey import serialize
        return serialize.reduce_remade(self, Intrinsic, self._prefer_literal, func=self._typer)

    def __ruchey_intrinsic__(self, descs):
        """The signature and LLVM IR for a call with these argument types; or
        the compiled function building a package's value type of them; None
        where an argument is of a type its IR cannot take."""
        key = repr(descs)
        if key not in self._code:
            self._code[key] = self._generate(descs)
        return self._code[key]

    def _generate(self, descs):
        from ruchey import _values
        from ruchey.extending import _type_of, _typed
        literal = tuple(_type_of(d) for d in descs)
        plain = tuple(types.unliteral(t) for t in literal)
        ir = _llvmlite_ir()
        context = _values._TypingContext()
        # an exception of the typing function's own reaches the caller unchanged, as Numba lets it through
        found, _ = _typed(lambda *argtypes: self._typer(context, *argtypes),
                          (literal, plain) if self._prefer_literal else (plain, literal))
        if found is None:
            raise _core.TypingError(f"the intrinsic {self.__name__} has no implementation for argument types {plain}")
        try:
            return self._build(found, plain, ir)
        except _core.NumbaError:
            raise
        except Exception as exc:  # a bad signature, or codegen's failure: a compile error, as Numba's LoweringError
            raise _core.TypingError(f"{type(exc).__name__}: {exc}") from exc

    def _build(self, found, plain, ir):
        """_generate's result from the typing function's (signature, codegen)."""
        from ruchey import _values
        if not isinstance(found, tuple) or len(found) != 2 or not isinstance(found[0], types.Signature):
            raise TypeError(f"the intrinsic {self.__name__}'s typing function must return (signature, codegen), "
                            f"got {found!r}")
        sig, codegen = found
        if _values.is_value_type(sig.return_type):  # members set from the arguments: a ruchey function doing so
            return _values.intrinsic_construction(self.__name__, sig, codegen)
        if not all(_is_number_or_bool(t) or _is_array_of_numbers(t) or isinstance(t, (types.NumberClass,
                   types.MemInfoPointer)) for t in plain):
            return None  # no IR of such arguments: the compiler says which one
        ret = types.none if sig.return_type in (None, types.none) else sig.return_type
        if _is_array_of_numbers(ret):  # (a pointer, CPointer, is returned as an array)
            raise TypeError(f"an @intrinsic returns numbers, bools, scalar types, pointers and MemInfoPointers only, "
                            f"not {ret!r}")
        module = ir.Module(name=self.__name__)
        fnty = ir.FunctionType(ir.VoidType() if ret is types.none else _llvm_type(ir, ret),
                               [_llvm_type(ir, t) for t in sig.args])
        fn = ir.Function(module, fnty, "intrinsic")
        builder = ir.IRBuilder(fn.append_basic_block("entry"))
        value = codegen(_Context(ir), builder, sig, list(fn.args))
        if ret is types.none:
            builder.ret_void()
        elif value is None or value.type != fnty.return_type:
            raise TypeError(f"the intrinsic {self.__name__}'s codegen returned "
                            f"{'nothing' if value is None else value.type}, its signature says {fnty.return_type}")
        else:
            builder.ret(value)
        return _describe(ret), tuple(_describe(t) for t in sig.args), str(module)


def intrinsic(*args, **kwargs):
    """@intrinsic or @intrinsic(prefer_literal=...): a function whose calls in
    compiled code are LLVM IR that its codegen builds (see the module's help)."""
    if len(args) == 1 and callable(args[0]) and not kwargs:
        return Intrinsic(args[0])
    if args:
        raise TypeError("intrinsic takes a typing function, or keyword options only")
    return lambda typer: Intrinsic(typer, prefer_literal=kwargs.get("prefer_literal", False))


# numba.core.unsafe.nrt.NRT_get_api(): in compiled code, a voidptr to Numba's
# table of NRT functions (allocate, manage_memory, acquire, release,
# get_data), which works on ruchey's counted memory (lib/nrt.c); C code
# given it makes MemInfos that compiled code holds as MemInfoPointers
NRT_get_api = Intrinsic(_nrt_get_api_typer)
NRT_get_api.__name__ = NRT_get_api.__qualname__ = "NRT_get_api"
