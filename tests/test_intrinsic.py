"""@intrinsic (ruchey.extending.intrinsic, as numba.extending.intrinsic) for
numbers, bools, scalar types and arrays (make_array's members) as arguments and pointers as results (stack
memory, cgutils.alloca_once, in an array by carray): a typing function
returning (signature, codegen), codegen
writing the call's LLVM IR with llvmlite.ir, linked into the compiled code
and inlined. Each is compared with a Numba-free Python expectation (an
intrinsic cannot run in Python) on generated inputs."""
import platform
import struct

import numpy as np
import pytest

from ruchey import carray, njit, prange, types
from ruchey.extending import intrinsic

from conftest import AS_NUMBA, make_rng, seed_of

ir = pytest.importorskip("llvmlite.ir")
if AS_NUMBA:
    from numba.core import cgutils
else:
    from ruchey import intrinsics as cgutils

ruchey_only = pytest.mark.skipif(AS_NUMBA, reason="ruchey's messages")


@intrinsic
def popcount_u8(typingctx, val):
    sig = types.uint8(types.uint8)

    def codegen(context, builder, sig, args):
        fnty = ir.FunctionType(args[0].type, [args[0].type])
        ctpop = cgutils.get_or_insert_function(builder.module, fnty, "llvm.ctpop.i8")
        return builder.call(ctpop, args)
    return sig, codegen


@intrinsic
def int32_bits_as_float32(typingctx, x):
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, sig, args):
        val = context.cast(builder, args[0], sig.args[0], types.int32)
        return builder.bitcast(val, ir.FloatType())
    return types.float32(x), codegen


@intrinsic
def float32_bits_as_int32(typingctx, x):
    if not isinstance(x, types.Float) or x.bitwidth != 32:
        return None

    def codegen(context, builder, sig, args):
        return builder.bitcast(args[0], ir.IntType(32))
    return types.int32(x), codegen


@intrinsic
def scaled_sum(typingctx, a, b):
    def codegen(context, builder, sig, args):
        x = context.cast(builder, args[0], sig.args[0], types.float64)
        y = context.cast(builder, args[1], sig.args[1], types.float64)
        three = context.get_constant(types.float64, 3.0)
        return builder.fadd(builder.fmul(x, three), y)
    return types.float64(a, b), codegen


@intrinsic
def both(typingctx, p, q):
    def codegen(context, builder, sig, args):
        return builder.and_(args[0], args[1])
    return types.boolean(types.boolean, types.boolean), codegen


@intrinsic
def as_value_type(typingctx, x):
    def codegen(context, builder, sig, args):
        return context.cast(builder, args[0], sig.args[0], sig.return_type)
    return types.int16(x), codegen


def test_popcount_through_an_llvm_intrinsic():
    @njit
    def count(a):
        total = 0
        for i in range(a.shape[0]):
            total += popcount_u8(a[i])
        return total
    rng = make_rng(seed_of("popcount"))
    for n in (0, 1, 100):
        a = rng.integers(0, 256, n).astype(np.uint8)
        assert count(a) == sum(bin(int(v)).count("1") for v in a)


def test_int32_float32_bitcasts_round_trip():
    @njit
    def there_and_back(ids):
        out = np.empty(ids.shape[0], np.float32)
        back = np.empty(ids.shape[0], np.int32)
        for i in range(ids.shape[0]):
            out[i] = int32_bits_as_float32(ids[i])
            back[i] = float32_bits_as_int32(out[i])
        return out, back
    rng = make_rng(seed_of("bitcasts"))
    ids = rng.integers(0, 2**24 + 1000, 50).astype(np.int32)
    out, back = there_and_back(ids)
    np.testing.assert_array_equal(out.view(np.int32), ids)
    np.testing.assert_array_equal(back, ids)


def test_an_int64_argument_casts_to_the_signatures_int32():
    @njit
    def bits(i):
        return int32_bits_as_float32(i)
    for i in (0, 1, 12345, 2**24 + 3):
        got = bits(i)
        assert struct.pack("<f", got) == struct.pack("<i", i)


def test_context_cast_and_constants_between_types():
    @njit
    def f(a, b):
        return scaled_sum(a, b)
    rng = make_rng(seed_of("scaled_sum"))
    for _ in range(10):
        a, b = int(rng.integers(-1000, 1000)), float(rng.normal())
        assert f(a, b) == 3.0 * a + b
        assert f(np.float32(b), a) == 3.0 * float(np.float32(b)) + a


def test_bools_in_and_out():
    @njit
    def f(p, q):
        return both(p, q)
    for p in (False, True):
        for q in (False, True):
            got = f(p, q)
            assert got is (p and q)


def test_cast_narrows_and_widens_ints():
    @njit
    def f(x):
        return as_value_type(x)
    for x in (np.int8(-5), np.uint8(200), 70000, -70000, True):
        assert f(x) == np.int64(x).astype(np.int16)


# ---------------------------------------------------------------- bad input

@ruchey_only
def test_an_array_where_the_signature_names_a_number_is_a_typing_error():
    from ruchey import TypingError

    @njit
    def f(a):
        return popcount_u8(a)
    with pytest.raises(TypingError, match=r"takes uint8 as argument 1, the call gives array\(uint8, 1d, C\)"):
        f(np.zeros(3, np.uint8))


@ruchey_only
def test_no_implementation_is_a_typing_error():
    from ruchey import TypingError

    @njit
    def f(x):
        return float32_bits_as_int32(x)
    with pytest.raises(TypingError, match="no implementation"):
        f(1.5)  # a float64


@ruchey_only
def test_calling_from_python_is_a_type_error():
    with pytest.raises(TypeError, match="only compiled code"):
        popcount_u8(3)


@ruchey_only
def test_codegen_returning_the_wrong_type_is_a_typing_error():
    from ruchey import TypingError

    @intrinsic
    def wrong(typingctx, x):
        def codegen(context, builder, sig, args):
            return args[0]
        return types.float64(types.int64), codegen

    @njit
    def f(x):
        return wrong(x)
    with pytest.raises(TypingError, match="codegen returned i64"):
        f(1)


@intrinsic
def checked_shift(typingctx, x, by):
    """x << by for ints: a ValueError of the typer's own for a bool x (a
    package's refusal), a TypingError for a float x."""
    from ruchey import TypingError
    if isinstance(x, types.Boolean):
        raise ValueError(f"checked_shift refuses {x}")
    if isinstance(x, types.Float):
        raise TypingError("checked_shift shifts ints")

    def codegen(context, builder, sig, args):
        return builder.shl(args[0], args[1])
    return types.int64(types.int64, types.int64), codegen


@njit
def shifts_by(x, k):
    return checked_shift(x, k)


@njit
def calls_shifts_by(x, k):
    return shifts_by(x, k) + 1


def test_a_typer_that_raises_lets_its_own_exception_through():
    """As Numba: the typing function's own exception (not one of the
    compiler's) reaches the caller unchanged, from a caller's caller too;
    a TypingError it raises stays one."""
    from ruchey import TypingError
    for f in (shifts_by, calls_shifts_by):
        with pytest.raises(ValueError, match="checked_shift refuses bool"):
            f(True, 2)
        with pytest.raises(TypingError, match="shifts ints"):
            f(1.5, 2)
    rng = make_rng(seed_of("checked shift"))
    for x, k in zip(rng.integers(-1000, 1000, 20), rng.integers(0, 40, 20)):  # the failures left nothing behind
        assert shifts_by(int(x), int(k)) == int(x) << int(k)
        assert calls_shifts_by(int(x), int(k)) == (int(x) << int(k)) + 1


@intrinsic
def shifted_left(typingctx, x, by):
    """x << by, by a shift known when compiling (a literal), as Numba's
    intrinsics read constants' values: IR with the count written in."""
    if not isinstance(x, types.Integer) or not isinstance(by, types.IntegerLiteral):
        return None
    count = by.literal_value

    def codegen(context, builder, sig, args):
        return builder.shl(args[0], ir.Constant(args[0].type, count))
    return x(x, by), codegen


def test_an_intrinsic_typer_gets_the_literal_types_of_constants_and_of_literally():
    from ruchey import literally

    @njit
    def by_constants(x):
        return shifted_left(x, 3) + shifted_left(x, 1)

    @njit
    def by_argument(x, k):
        return shifted_left(x, literally(k))

    for x in make_rng(seed_of("shifted_left")).integers(-1000, 1000, 8):
        x = int(x)
        assert by_constants(x) == (x << 3) + (x << 1)
        for k in (0, 2, 5):
            assert by_argument(x, k) == x << k

    @njit
    def by_variable(x, k):
        return shifted_left(x, k)

    with pytest.raises(Exception, match="shifted_left"):  # no implementation for a plain int64 count
        by_variable(3, 2)


# ---------------------------------------------------------------- stack memory through a pointer

@intrinsic
def stack_empty(typingctx, size, dtype):
    """size values of dtype on the stack of the function that (after
    inlining) calls it, as a pointer: the scratch arrays of numba_celltree."""
    def codegen(context, builder, sig, args):
        return cgutils.alloca_once(builder, context.get_value_type(dtype.dtype), size=args[0])
    return types.CPointer(dtype.dtype)(types.int64, dtype), codegen


SCRATCH_ROWS = 6
SCRATCH_SIZE = 2 * SCRATCH_ROWS  # a global: a constant in the IR, as Numba's alloca_once at the entry needs


@njit(inline="always")
def scratch_pairs():
    return carray(stack_empty(SCRATCH_SIZE, np.float64), (SCRATCH_ROWS, 2), dtype=np.float64)


@njit(inline="always")
def corners(x, y, n):
    """The first n rows of a scratch array, a view returned through another function."""
    out = scratch_pairs()
    for i in range(n):
        out[i, 0] = x + i
        out[i, 1] = y * i
    return out[:n]


@njit
def polygon_sums(xs, ys, counts):
    """Two scratch arrays alive at once in each iteration: neither overwrites the other."""
    total = np.empty(xs.size)
    for k in range(xs.size):
        a = corners(xs[k], ys[k], counts[k])
        b = scratch_pairs()
        for i in range(SCRATCH_ROWS):
            b[i, 0] = -1.0
            b[i, 1] = 2.0 * i
        total[k] = a[:, 0].sum() + 3.0 * a[:, 1].sum() + b.sum()
    return total


@njit(parallel=True)
def polygon_sums_parallel(xs, ys, counts):
    total = np.empty(xs.size)
    for k in prange(xs.size):
        a = corners(xs[k], ys[k], counts[k])
        total[k] = a[:, 0].sum() + 3.0 * a[:, 1].sum()
    return total


@njit
def int32_counts(n):
    c = carray(stack_empty(4, np.int32), 4)
    c[:] = 0
    for i in range(n):
        c[i % 4] += i
    return c[0] * 1000 + c[1] * 100 + c[2] * 10 + c[3]


def test_stack_memory_from_an_intrinsic_lives_in_the_callers_frame():
    rng = make_rng(seed_of("stack_empty"))
    for size in (0, 1, 5, 200):
        xs, ys = rng.standard_normal(size), rng.standard_normal(size)
        counts = rng.integers(1, SCRATCH_ROWS + 1, size)
        corner_sums = np.array([sum(x + i + 3 * y * i for i in range(n)) for x, y, n in zip(xs, ys, counts)])
        scratch_sum = sum(-1.0 + 2.0 * i for i in range(SCRATCH_ROWS))
        np.testing.assert_allclose(polygon_sums(xs, ys, counts), corner_sums + scratch_sum, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(polygon_sums_parallel(xs, ys, counts), corner_sums, rtol=1e-12, atol=1e-12)
    for n in (0, 3, 17):
        c = [sum(i for i in range(n) if i % 4 == j) for j in range(4)]
        assert int32_counts(n) == c[0] * 1000 + c[1] * 100 + c[2] * 10 + c[3]


@ruchey_only
def test_a_scalar_type_argument_reaches_the_typer_with_its_dtype():
    seen = []

    @intrinsic
    def itemsize(typingctx, dtype):
        seen.append(dtype.dtype)

        def codegen(context, builder, sig, args):
            return context.get_constant(types.int64, np.dtype(str(dtype.dtype)).itemsize)
        return types.int64(dtype), codegen

    @njit
    def f():
        return itemsize(np.float32) + 10 * itemsize(np.int16)
    assert f() == 24
    assert seen == [types.float32, types.int16]


@ruchey_only
def test_an_array_in_the_signature_is_a_typing_error():
    from ruchey import TypingError

    @intrinsic
    def as_matrix(typingctx, x):
        def codegen(context, builder, sig, args):
            return args[0]
        return types.float64[:, :](x), codegen

    @njit
    def f(x):
        return as_matrix(x)
    with pytest.raises(TypingError, match="scalar types, pointers and MemInfoPointers only, not array"):
        f(1.0)


# ---------------------------------------------------------------- addresses as void pointers (cgutils' LLVM types)

@intrinsic
def address_as_void_pointer(typingctx, src):
    """An address (an integer) as a void*, as packages pass user data to C callbacks."""
    def codegen(context, builder, sig, args):
        return builder.inttoptr(args[0], cgutils.voidptr_t)
    return types.voidptr(src), codegen


@njit
def sum_at(address, n):
    a = carray(address_as_void_pointer(address), (n,), dtype=np.float64)
    return a.sum(), a[n - 1]


@njit
def rows_at(address, rows, cols):
    return carray(address_as_void_pointer(address), (rows, cols), dtype=np.int32).sum(axis=1)


def test_an_address_made_a_void_pointer_reads_as_an_array_of_a_dtype():
    rng = make_rng(seed_of("void pointers"))
    x = rng.normal(size=9)
    assert sum_at(x.ctypes.data, 9) == (x.sum(), x[8])
    m = rng.integers(-50, 50, (4, 5)).astype(np.int32)
    np.testing.assert_array_equal(rows_at(m.ctypes.data, 4, 5), m.sum(axis=1))
    assert (cgutils.int32_t, cgutils.true_bit.constant) == (ir.IntType(32), 1)


@intrinsic
def doubled_through_a_slot(typingctx, x):
    """x kept in stack memory by cgutils.alloca_once_value, doubled there and read back."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, sig, args):
        slot = cgutils.alloca_once_value(builder, args[0])
        builder.store(builder.add(builder.load(slot), builder.load(slot)), slot)
        return builder.load(slot)
    return x(x), codegen


@njit
def doubled_sum(xs):
    total = 0
    for i in range(xs.shape[0]):
        total += doubled_through_a_slot(xs[i])
    return total


def test_alloca_once_value_holds_the_value_in_stack_memory():
    rng = make_rng(seed_of("alloca_once_value"))
    for n in (0, 1, 9):
        xs = rng.integers(-1000, 1000, size=n)
        assert doubled_sum(xs) == 2 * int(xs.sum())


@intrinsic
def note(typingctx, x):
    """A void intrinsic whose codegen returns the dummy value, as Numba's do."""
    def codegen(context, builder, sig, args):
        return context.get_dummy_value()
    return types.void(x), codegen


def test_arguments_given_by_name_bind_by_the_typing_functions_parameters():
    @njit
    def f(a, b):
        note(x=a)
        return scaled_sum(a, b=b), scaled_sum(b=b, a=a), scaled_sum(a=b, b=a)

    rng = make_rng(seed_of("intrinsic keywords"))
    for a, b in zip(rng.normal(size=5), rng.integers(-9, 9, 5)):
        assert f(a, b) == (a * 3.0 + b, a * 3.0 + b, b * 3.0 + a)


@ruchey_only
@pytest.mark.parametrize("call, says", [("scaled_sum(a, c=b)", "no parameter 'c'"),
                                        ("scaled_sum(a, a=b)", "two values for 'a'"),
                                        ("scaled_sum(b=b)", "argument 'a' is missing")])
def test_arguments_given_by_a_name_it_lacks_are_a_typing_error(call, says):
    from ruchey import TypingError
    scope = {"scaled_sum": scaled_sum}
    exec(f"def f(a, b):\n    return {call}\n", scope)
    with pytest.raises(TypingError, match=says):
        njit(scope["f"])(1.0, 2.0)


@intrinsic
def typed_like(typingctx, x):
    """A typing function asking its context for a constant's type, as Numba's may."""
    t = typingctx.resolve_value_type(1.5)

    def codegen(context, builder, sig, args):
        return context.cast(builder, args[0], sig.args[0], sig.return_type)
    return t(x), codegen


def test_the_typing_function_gets_a_typing_context():
    @njit
    def f(n):
        return typed_like(n)
    for n in (0, -3, 7):
        assert f(n) == float(n) and isinstance(f(n), float)


x86_only = pytest.mark.skipif(platform.machine() not in ("x86_64", "AMD64"), reason="x86-64 inline assembly")


@intrinsic
def asm_multiply(typingctx, x, y):
    """x * y by the imul instruction (Numba's test_nrt test_inline_asm)."""
    def codegen(context, builder, sig, args):
        fnty = ir.FunctionType(ir.IntType(32), [ir.IntType(32), ir.IntType(32)])
        return builder.asm(fnty, "mov $2, $0; imul $1, $0", "=&r,r,r", args, name="asm_mul", side_effect=False)
    return types.int32(types.int32, types.int32), codegen


@intrinsic
def asm_unknown_instruction(typingctx, x):
    def codegen(context, builder, sig, args):
        fnty = ir.FunctionType(ir.IntType(32), [ir.IntType(32)])
        return builder.asm(fnty, "no_such_instruction $0", "=r,r", args, name="bad", side_effect=False)
    return types.int32(types.int32), codegen


@x86_only
def test_inline_assembly_is_assembled_into_the_code():
    @njit(["int32(int32, int32)"])
    def scaled(x, k):
        x += 1
        return asm_multiply(x, k)

    rng = make_rng(seed_of("inline asm"))
    for x, k in rng.integers(-2**15, 2**15, (20, 2)):
        assert scaled(int(x), int(k)) == (int(x) + 1) * int(k)


@x86_only
@ruchey_only
def test_inline_assembly_the_assembler_refuses_is_an_error_not_an_exit():
    @njit
    def bad(x):
        return asm_unknown_instruction(x)

    with pytest.raises(RuntimeError, match="invalid instruction mnemonic 'no_such_instruction'"):
        bad(3)
    assert njit(lambda x: x + 1)(2) == 3  # (the process goes on compiling)


# ---------------------------------------------------------------- arrays as arguments (Numba's array struct)

@intrinsic
def load_u32_at(typingctx, arr, offset):
    """The uint32 at a byte offset of a uint8 array's data, as packages read words of packed bits."""
    sig = types.uint32(types.Array(types.uint8, 1, "C"), types.intp)

    def codegen(context, builder, sig, args):
        ary = context.make_array(sig.args[0])(context, builder, args[0])
        at = builder.gep(ary.data, [args[1]])
        return builder.load(builder.bitcast(at, ir.IntType(32).as_pointer()))
    return sig, codegen


@intrinsic
def array_members(typingctx, arr):
    """nitems, itemsize, then each dimension's shape and stride of an array, summed with weights."""
    if not isinstance(arr, types.Array):
        return None

    def codegen(context, builder, sig, args):
        ary = context.make_array(sig.args[0])(context, builder, args[0])
        total = builder.add(ary.nitems, builder.mul(ary.itemsize, ir.Constant(ir.IntType(64), 1000)))
        weight = 10 ** 6
        for extent, stride in zip(cgutils.unpack_tuple(builder, ary.shape, arr.ndim),
                                  cgutils.unpack_tuple(builder, ary.strides, arr.ndim)):
            total = builder.add(total, builder.mul(extent, ir.Constant(ir.IntType(64), weight)))
            total = builder.add(total, builder.mul(stride, ir.Constant(ir.IntType(64), weight * 1000)))
            weight *= 10 ** 6
        return total
    return types.int64(arr), codegen


def members_expected(a):
    total, weight = a.size + 1000 * a.itemsize, 10 ** 6
    for extent, stride in zip(a.shape, a.strides):
        total += extent * weight + stride * weight * 1000
        weight *= 10 ** 6
    return (total + 2 ** 63) % 2 ** 64 - 2 ** 63  # int64's arithmetic, as the intrinsic's


@njit
def words_of(bits):
    out = np.empty(bits.shape[0] // 4, np.uint32)
    for i in range(out.shape[0]):
        out[i] = load_u32_at(bits, i * 4)
    return out


@pytest.mark.parametrize("n", [4, 8, 64, 100])
def test_an_array_argument_gives_its_data_to_the_intrinsic(n):
    bits = make_rng(seed_of("u32 words", n)).integers(0, 256, n, dtype=np.uint8)
    assert np.array_equal(words_of(bits), np.frombuffer(bits[:n // 4 * 4].tobytes(), dtype=np.uint32))


def test_a_read_only_array_passes_where_the_signature_names_a_writable_one():
    bits = make_rng(seed_of("u32 read-only")).integers(0, 256, 32, dtype=np.uint8)
    bits.flags.writeable = False
    assert np.array_equal(words_of(bits), bits.view(np.uint32))


@njit
def members_of(a):
    return array_members(a)


@pytest.mark.parametrize("shape, index", [((7,), np.s_[:]), ((5, 6), np.s_[:]), ((6, 8), np.s_[1::2, ::3]),
                                          ((3, 4, 5), np.s_[:, 1:, ::-2])])
@pytest.mark.parametrize("dtype", [np.float64, np.int16, np.bool_])
def test_an_intrinsic_reads_an_arrays_shape_strides_and_sizes(shape, index, dtype):
    a = (make_rng(seed_of("members", shape)).standard_normal(shape) > 0).astype(dtype)[index]
    assert members_of(a) == members_expected(a)


@njit
def words_of_new_array(n):
    return load_u32_at(np.full(n, 1, np.uint8), 0)


def test_a_new_array_given_to_an_intrinsic_is_released_after_it():
    assert words_of_new_array(8) == 0x01010101


@ruchey_only
def test_an_array_of_other_items_than_the_signatures_is_a_typing_error():
    from ruchey import TypingError

    @njit
    def f(x):
        return load_u32_at(x, 0)
    with pytest.raises(TypingError, match=r"takes array\(uint8, 1d, C\) as argument 1, the call gives array\(int32"):
        f(np.zeros(4, np.int32))


@ruchey_only
def test_an_array_of_complex_numbers_is_a_typing_error():
    from ruchey import TypingError

    @njit
    def f(x):
        return members_of(x)
    with pytest.raises(TypingError, match="arrays of numbers"):
        f(np.zeros(4, np.complex128))


@ruchey_only
def test_a_strided_array_where_the_signature_names_a_contiguous_one_is_a_typing_error():
    from ruchey import TypingError
    with pytest.raises(TypingError, match=r"takes array\(uint8, 1d, C\) as argument 1, the call gives array\(uint8, 1d, A\)"):
        words_of(np.zeros(16, np.uint8)[::2])
