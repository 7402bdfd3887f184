"""The methods of a @vectorize ufunc, or of NumPy's own, called in compiled
code: u.reduce(a, axis, initial=), u.reduceat(a, indices, axis, out=),
u.accumulate(a, axis), u.at(a, indices, b) and u.outer(a, b), as NumPy's
ufuncs have them. The
frontend calls these with the ufunc's scalar function first (a compiled
function value, specialised where called), then what NumPy's method needs
to know of the ufunc (its name, identity and whether it may reduce along
several axes at once), then the call's own
arguments; at_unary is u.at of a ufunc of one input."""
import numpy as np

from . import _operator_values, extending, types
from .decorators import njit


def numpy_scalar(ufunc, nin):
    """The compiled function of scalars a method of NumPy's own ufunc folds
    or applies: the ufunc itself, but for add and multiply, whose
    reductions take bools and narrower ints as int64 (uint64), NumPy's
    rule, so that np.add.reduce of bools counts them."""
    if ufunc is np.add:
        return _add_widened
    if ufunc is np.multiply:
        return _multiply_widened
    return _operator_values.builtin_value(ufunc, nin, False)


def method_function(ufunc, method):
    """The function here that compiled code's ufunc.<method>(...) calls
    (method: at_unary for at of one input): numpy.add.reduce's is
    add_reduce, which sums floats as numpy.sum does; a @vectorize ufunc's
    reduce, its loop_reduce."""
    if method == "reduce" and ufunc is np.add:
        return add_reduce
    if method == "reduce" and getattr(np, getattr(ufunc, "__name__", ""), None) is not ufunc:
        return loop_reduce
    return globals()[method]


def whole_ufunc(ufunc):
    """The compiled function calling ufunc on its two inputs as compiled
    code calls it (arrays broadcast, NumPy's result type): what outer applies."""
    return _operator_values.builtin_value(ufunc, 2, False)


def _widened(x):
    """x as NumPy's add and multiply reductions take it."""


@extending.overload(_widened)
def _widened_for(x):
    name = getattr(x, "name", "")
    if name in ("bool", "int8", "int16", "int32"):
        return lambda x: np.int64(x)
    if name in ("uint8", "uint16", "uint32"):
        return lambda x: np.uint64(x)
    return lambda x: x


@njit
def _add_widened(x, y):
    return np.add(_widened(x), _widened(y))


@njit
def _multiply_widened(x, y):
    return np.multiply(_widened(x), _widened(y))


def _step(f, acc, item):
    """f(acc, item), f the ufunc's scalar function; or where f is that
    function and a dtype, (f, dtype) (loop_reduce's), f of acc in dtype and
    item as it is, in dtype."""


@extending.overload(_step)
def _step_for(f, acc, item):
    if isinstance(f, types.TupleType):
        return lambda f, acc, item: f[1](f[0](f[1](acc), item))
    return lambda f, acc, item: f(acc, item)


def _accumulating_in(f, dtype):
    """What a fold steps with: f, or with dtype= (f, dtype)."""


@extending.overload(_accumulating_in)
def _accumulating_in_for(f, dtype):
    if getattr(dtype, "name", "none") == "none":
        return lambda f, dtype: f
    return lambda f, dtype: (f, dtype)


@njit
def _results_for(f, row, shape):
    """An empty array of shape in the type of a step of f over two of row's
    elements (f is typed here, never called)."""
    never = [_step(f, row[i], row[i]) for i in range(0)]
    return np.empty(shape, np.array(never).dtype)


@njit
def _as_result(f, x, row):
    """x converted to the type of f of two of row's elements, as NumPy's
    reduction starts its accumulator (a float row of logical_and folds
    bools; an identity or initial value takes the row's type)."""
    buf = _results_for(f, row, 1)
    buf[0] = x
    return buf[0]


@njit
def accumulate(f, name, identity, has_identity, reorderable, array, axis=0):
    """u.accumulate: the running fold along axis (negative from the end), in
    the type of f of two elements, as NumPy's (a new C-contiguous array)."""
    a = np.asarray(array)
    ax = _axis(axis, a.ndim)
    last = np.ascontiguousarray(np.moveaxis(a, ax, -1))
    n = last.shape[-1]
    count = 1
    for d in last.shape[:-1]:
        count *= d
    rows = last.reshape((count, n))
    res = _results_for(f, last.ravel(), (count, n))
    for j in range(count):
        if n:
            res[j, 0] = rows[j, 0]
        for i in range(1, n):
            res[j, i] = f(res[j, i - 1], rows[j, i])
    return np.ascontiguousarray(np.moveaxis(res.reshape(last.shape), -1, ax))


@njit
def _reduce_row(f, row, has_start, start):
    """f folded over row from the left, from start or row[0]: the type of
    the result is f's (an integer row of a float function gives floats)."""
    if has_start:
        r = _as_result(f, start, row)
        for i in range(row.shape[0]):
            r = _step(f, r, row[i])
        return r
    r = _as_result(f, row[0], row)
    for i in range(1, row.shape[0]):
        r = _step(f, r, row[i])
    return r


@njit
def _reduce_rows(f, name, identity, has_identity, rows, initial):
    """Each row of the 2-d rows reduced: where a row is empty, initial, else
    the ufunc's identity, else NumPy's ValueError."""
    has_initial = initial is not None
    if rows.shape[1] == 0 and not has_initial and not has_identity:
        raise ValueError("zero-size array to reduction operation " + name + " which has no identity")
    if has_initial:
        return [_reduce_row(f, rows[j], True, initial) for j in range(rows.shape[0])]
    if rows.shape[1] == 0:
        return [_reduce_row(f, rows[j], True, identity) for j in range(rows.shape[0])]
    return [_reduce_row(f, rows[j], False, identity) for j in range(rows.shape[0])]


def _in_dtype(x, dtype):
    """x (an array-like or a number) as dtype= where one is given; else as it is."""


@extending.overload(_in_dtype)
def _in_dtype_for(x, dtype):
    if getattr(dtype, "name", "none") == "none":
        return lambda x, dtype: x
    if isinstance(x, types.Number) or isinstance(x, types.Boolean):
        return lambda x, dtype: np.full(1, x).astype(dtype)[0]
    return lambda x, dtype: np.asarray(x).astype(dtype)


@njit
def reduce(f, name, identity, has_identity, reorderable, array, axis=0, dtype=None, initial=None):
    """u.reduce: along one axis (negative from the end), a tuple of them,
    all of them (None) or none (()), as NumPy's; with dtype=, of the array
    in that dtype, the result in it too (add and multiply, which count
    narrow ints in 64 bits, wrap as NumPy's computing in it)."""
    folded = _reduce(f, name, identity, has_identity, reorderable, _in_dtype(array, dtype), axis, initial)
    return _in_dtype(folded, dtype)


@njit
def loop_reduce(f, name, identity, has_identity, reorderable, array, axis=0, dtype=None, initial=None):
    """u.reduce of a ufunc of the program's own (a @vectorize one): as
    reduce, but with dtype= each step is f of the accumulator, in dtype,
    and an item in its own dtype, its result in dtype, as NumPy reduces by
    the loop taking (dtype, the items' dtype) and writes dtype: a 'dl->d'
    loop sums int64 items with dtype=float64, a float dtype of int items
    takes a float loop."""
    folded = _reduce(_accumulating_in(f, dtype), name, identity, has_identity, reorderable, array, axis, initial)
    return _in_dtype(folded, dtype)


@njit
def _reduce(f, name, identity, has_identity, reorderable, array, axis, initial):
    a = np.asarray(array)
    if isinstance(axis, tuple):
        if len(axis) == 0:  # each element alone, in the loop's type
            return _reduce(f, name, identity, has_identity, reorderable, np.expand_dims(a, 0), 0, initial)
        order = np.empty(len(axis), np.int64)
        for i in range(len(axis)):
            order[i] = _axis(axis[i], a.ndim)
        if order.size > 1 and not reorderable:
            raise ValueError("reduction operation '" + name + "' is not reorderable, so at most one axis may be "
                             "specified")
        order = np.sort(order)[::-1]
        for i in range(1, order.size):
            if order[i] == order[i - 1]:
                raise ValueError("duplicate value in 'axis'")
        return _reduce_axes(f, name, identity, has_identity, reorderable, a, order, axis, initial)
    if axis is None or a.ndim == 1:
        if axis is not None:
            _axis(axis, 1)
        flat = np.ascontiguousarray(a).reshape((1, a.size))
        return _reduce_rows(f, name, identity, has_identity, flat, initial)[0]
    last = np.ascontiguousarray(np.moveaxis(a, _axis(axis, a.ndim), -1))
    rest = last.shape[:-1]
    count = 1
    for n in rest:
        count *= n
    rows = last.reshape((count, last.shape[-1]))
    return np.array(_reduce_rows(f, name, identity, has_identity, rows, initial)).reshape(rest)


def _add_reduce(f, name, identity, has_identity, reorderable, array, axis, dtype, initial):
    """numpy.add.reduce's fold, chosen by the types of its operands."""


@extending.overload(_add_reduce)
def _add_reduce_for(f, name, identity, has_identity, reorderable, array, axis, dtype, initial):
    """Where numpy.add.reduce sums a float array in its own dtype, along
    one axis, several or all, it sums as numpy.sum (NumPy's pairwise
    summation, whose bits numpy.sum keeps: a fold in order differs in the
    last ones); with initial= over all its elements (or a 1-d array's),
    initial plus that sum, as NumPy starts its accumulator at initial and
    adds the pairwise sum to it. Other operands fold."""
    floats = isinstance(getattr(array, "dtype", None), types.Float) and getattr(array, "ndim", 0) > 0
    summed = floats and isinstance(dtype, types.NoneType)
    whole = isinstance(axis, types.NoneType) or (isinstance(axis, types.Integer) and getattr(array, "ndim", 0) == 1)
    if summed and isinstance(initial, types.NoneType) and isinstance(axis, (types.Integer, types.NoneType, types.BaseTuple)):
        return lambda f, name, identity, has_identity, reorderable, array, axis, dtype, initial: np.sum(array, axis=axis)
    if summed and whole and isinstance(initial, (types.Number, types.Boolean)):
        def initial_plus_sum(f, name, identity, has_identity, reorderable, array, axis, dtype, initial):
            if axis is not None:
                _axis(axis, 1)
            return _as_result(f, initial, np.empty(0, array.dtype)) + np.sum(array)
        return initial_plus_sum
    if summed and isinstance(axis, types.Integer) and isinstance(initial, (types.Number, types.Boolean)) \
            and array.dtype.bitwidth >= 32:
        return _initial_plus_lanes
    return lambda f, name, identity, has_identity, reorderable, array, axis, dtype, initial: reduce(
        f, name, identity, has_identity, reorderable, array, axis, dtype, initial)


@njit
def _initial_plus_lanes(f, name, identity, has_identity, reorderable, array, axis, dtype, initial):
    """numpy.add.reduce(a, axis, initial=) of floats: where the axis is the
    one NumPy's iterator walks innermost (the smallest step in memory), it
    adds each lane's pairwise sum (numpy.sum's along that axis) to initial;
    along another axis, it adds the elements to initial one by one."""
    ax = _axis(axis, array.ndim)
    if array.shape[ax] > 1 and _innermost_axis(array) == ax:
        return _as_result(f, initial, np.empty(0, array.dtype)) + np.sum(array, axis=ax)
    return reduce(f, name, identity, has_identity, reorderable, array, axis, dtype, initial)


@njit
def _innermost_axis(a):
    """The axis of more than one element with the smallest step in memory
    (NumPy's iterator orders axes so), -1 where none has more than one."""
    best = -1
    for d in range(a.ndim):
        if a.shape[d] > 1 and (best < 0 or abs(a.strides[d]) < abs(a.strides[best])):
            best = d
    return best


@njit
def add_reduce(f, name, identity, has_identity, reorderable, array, axis=0, dtype=None, initial=None):
    """numpy.add.reduce: reduce, floats summed as numpy.sum sums them."""
    return _add_reduce(f, name, identity, has_identity, reorderable, array, axis, dtype, initial)


@njit
def _reduce_axes(f, name, identity, has_identity, reorderable, a, order, left, initial):
    """a reduced along each axis of order (descending, so that the axes
    still to go keep their numbers), the next being order[-len(left)]:
    left's length, known when typed, counts the levels. NumPy folds initial
    into each result once: it joins at the last level, where the earlier
    ones leave the identity in place of an empty axis; a ufunc without one
    (maximum, minimum: to fold initial again changes nothing) takes it at
    every level, as an empty axis there needs it."""
    if len(left) == 0:
        return a
    k = order[order.size - len(left)]
    if len(left) == 1 or not has_identity:
        reduced = _reduce(f, name, identity, has_identity, reorderable, a, k, initial)
    else:
        reduced = _reduce(f, name, identity, has_identity, reorderable, a, k, None)
    return _reduce_axes(f, name, identity, has_identity, reorderable, reduced, order, left[1:], initial)


@njit
def reduceat(f, name, identity, has_identity, reorderable, array, indices, axis=0, dtype=None, out=None):
    """u.reduceat: along axis, the fold of each run indices[i]:indices[i + 1]
    (to the end for the last), or the element at indices[i] alone where the
    next index is not past it, as NumPy's; out=, if given, filled once all
    are made and returned; with dtype=, in that dtype as reduce's."""
    a = np.asarray(_in_dtype(array, dtype))
    idx = np.asarray(indices)
    if idx.ndim != 1:
        raise ValueError("index array must have at most 1 dimension")
    ax = _within(axis, a.ndim)
    if ax < 0:
        raise ValueError("axis " + str(axis) + " is out of bounds for array of dimension " + str(a.ndim))
    moved = np.moveaxis(a, ax, 0)
    n = moved.shape[0]
    rest = moved.shape[1:]
    rows = np.ascontiguousarray(moved).reshape((n, moved.size // n if n else 0))
    folds = []
    for i in range(idx.size):
        lo, hi = _run(idx, i, n)
        for j in range(rows.shape[1]):
            folds.append(_reduce_row(f, rows[lo:hi, j], False, identity))
    made = _in_dtype(np.moveaxis(np.array(folds).reshape((idx.size,) + rest), 0, ax), dtype)
    if out is None:
        return made
    if out.shape != made.shape:
        raise ValueError("out= has the wrong shape for reduceat's result")
    out[...] = made  # after every run is read: out may be the array itself, as NumPy buffers it
    return out


@njit
def outer(f, name, identity, has_identity, reorderable, a, b):
    """u.outer: f of every element of a with every element of b, of shape
    a.shape + b.shape, as NumPy's (which takes Python scalars as arrays,
    int64 and float64, not as weak scalars: np.add.outer(int8s, 3) is int64)."""
    left = np.asarray(a).copy()  # C-contiguous, and 0-d where a is (ascontiguousarray makes it 1-d)
    return f(left.reshape(_padded(left.shape, np.shape(b))), np.asarray(b))


@njit
def _padded(shape, more):
    """shape followed by a 1 for each axis of the shape more."""
    if len(more) == 0:
        return shape
    return _padded(shape + (1,), more[1:])


@njit
def _run(idx, i, n):
    """The run reduceat folds for index i: to the next index, or the element alone."""
    lo = idx[i]
    if lo < 0 or lo >= n:
        raise IndexError("index out-of-bounds in reduceat")
    hi = idx[i + 1] if i + 1 < idx.size else n
    return lo, (hi if hi > lo else lo + 1)


@njit
def _within(i, n):
    """Index i of n places, negative from the end; -1 where outside them."""
    j = i + n if i < 0 else i
    return j if 0 <= j < n else -1


@njit
def _axis(axis, ndim):
    """axis of ndim, negative from the end; Numba's words where outside."""
    ax = _within(axis, ndim)
    if ax < 0:
        raise ValueError("Invalid axis")
    return ax


@njit
def _at_one(f, a, where, value):
    a[where] = f(a[where], value)


@njit
def _at_one_unary(f, a, where, value):
    a[where] = f(a[where])


@njit
def at(f, name, identity, has_identity, reorderable, a, indices, b=None):
    """a[i] = f(a[i], b) for each index i in turn (a repeated index applies
    each time, unbuffered, as NumPy's ufunc.at): indices whatever a[indices]
    takes (integers and integer arrays, slices, a boolean mask, a tuple of
    them, () of a 0-d array); b broadcast against what they select."""
    if b is None:
        raise ValueError("second operand needed for ufunc")
    _at_each(f, _at_one, a, indices, np.asarray(b))


@njit
def at_unary(f, name, identity, has_identity, reorderable, a, indices, b=None):
    if b is not None:
        raise ValueError("second operand provided when ufunc is unary")
    _at_each(f, _at_one_unary, a, indices, np.asarray(0))


def _at_each(f, one, a, indices, given):
    """one(f, a, i, value) for each index i indices selects, in turn."""


@extending.overload(_at_each)
def _at_each_for(f, one, a, indices, given):
    items = getattr(indices, "types", None)
    if items is not None:
        return _at_by_index_arrays if _integer_arrays(items) and 0 < len(items) == a.ndim <= 4 else _at_by_index
    return _at_along_first_axis if a.ndim and not _slice_or_mask(indices) else _at_by_index


def _slice_or_mask(index_type):
    """Whether a single index (a type) is a slice or a boolean array."""
    if getattr(index_type, "ndim", 0):
        return index_type.dtype.name == "bool"
    return getattr(index_type, "name", "").startswith("slice")


def _integer_arrays(index_types):
    """Whether each of index_types is an integer array."""
    return all(getattr(t, "ndim", 0) and t.dtype.name.startswith(("int", "uint")) for t in index_types)


def _at_along_first_axis(f, one, a, indices, given):
    """indices an integer or integer array of a's first axis."""
    idx = np.asarray(indices).ravel()
    if a.ndim == 1:
        values = np.broadcast_to(given, idx.shape)
        for k in range(idx.size):
            one(f, a, _checked(idx[k], a.shape[0]), values[k])
        return
    values = np.broadcast_to(given, (idx.size,) + a.shape[1:])
    for k in range(idx.size):
        row = a[_checked(idx[k], a.shape[0])]
        vals = values[k]
        for j in np.ndindex(row.shape):
            one(f, row, j, vals[j])


def _at_by_index_arrays(f, one, a, indices, given):
    """indices a tuple of an integer array per axis of a, broadcast
    together: each of their elements picks one of a's."""
    count = np.asarray(indices[0]).size
    picks = np.empty((a.ndim, count), np.int64)
    d = 0
    for p in indices:
        picks[d] = np.broadcast_to(np.asarray(p), (count,))
        d += 1
    values = np.broadcast_to(given, (count,))
    for k in range(count):
        one(f, a, _element(picks, k, a.shape), values[k])


def _at_by_index(f, one, a, indices, given):
    """Any other index a[indices] takes (slices beside index arrays, a
    boolean mask, () of a 0-d array): the elements it selects, found by
    the C-order positions it selects, in C order as NumPy's."""
    positions = np.asarray(np.arange(a.size).reshape(a.shape)[indices])
    values = np.broadcast_to(given, positions.shape)
    for j in np.ndindex(positions.shape):
        one(f, a, _unravel(positions[j], a.shape), values[j])


@njit
def _unravel(position, shape):
    """The index in an array of shape of its element at C-order position."""
    if len(shape) == 0:
        return ()
    inner = 1
    for n in shape[1:]:
        inner *= n
    return (position // inner,) + _unravel(position % inner, shape[1:])


@njit
def _checked(i, n):
    """Index i of an axis of n, negative from the end, as NumPy's IndexError where outside."""
    j = _within(i, n)
    if j < 0:
        raise IndexError("index out of bounds")
    return j


@njit
def _element(picks, k, shape):
    """The index of the k-th element the per-axis picks select, a tuple of
    shape's length (its items checked, negative from the end)."""
    i = _checked(picks[0, k], shape[0])
    if len(shape) == 1:
        return (i,)
    j = _checked(picks[1, k], shape[1])
    if len(shape) == 2:
        return (i, j)
    m = _checked(picks[2, k], shape[2])
    if len(shape) == 3:
        return (i, j, m)
    return (i, j, m, _checked(picks[3, k], shape[3]))
