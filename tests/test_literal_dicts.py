"""Literal dicts: a dict written out with constant str keys whose values do
not all convert safely to the first value's type ({'a': 1, 'b': 'x'},
{'a': 1, 'b': 2.5}) is Numba's LiteralStrKeyDict: each value keeps its own
type, read by constant keys (d['a'] of {'a': 1, 'b': 2.5} is the int 1),
len, `in`, keys()/values()/items() as tuples, copy(), ==, a for loop over
its keys, passed to other functions, returned as the Python dict it is;
any change to it, get() and a key not known when compiled are
TypingErrors. Values that all convert safely to the first's type make a
typed dict of that type, as Numba's. Each against the Python original on
generated values."""
import numpy as np
import pytest

import ruchey
from ruchey import literal_unroll, njit
from conftest import assert_same, assert_same_value, make_rng, numba_deviation


def values(seed, count=8):
    """(int, float, str) triples: negative, zero and positive numbers, empty and repeated strs."""
    rng = make_rng(seed)
    words = ["", "a", "cat", "b"]
    return [(int(rng.integers(-50, 50)), float(rng.normal()) * 10, words[int(rng.integers(0, len(words)))])
            for _ in range(count)] + [(0, 0.0, ""), (-1, -0.0, "a"), (7, float("nan"), "b")]


@njit
def reads(i, x, s):
    d = {'a': i, 'b': x, 'c': s}
    key = 'c'
    return d['a'], d['b'], d['c'], d[key], len(d), 'a' in d, 'z' in d, s in d


def test_literal_dict_reads_each_value_as_its_own_type():
    for i, x, s in values(1):
        assert_same(reads, i, x, s)


@njit
def int_then_float(i, x):
    d = {'a': i, 'b': x}
    return d['a'], d['b']


@njit
def float_then_int(i, x):
    d = {'a': x, 'b': i}
    return d['a'], d['b']


def test_mixed_numbers_follow_numbas_first_value_rule():
    # an int first and a float after: not safely one type, each keeps its own (Numba's LiteralStrKeyDict)
    for i, x, _ in values(2):
        assert_same(int_then_float, i, x)
    # a float first and an int after: a typed dict of float64, the int read as a float (Numba's DictType)
    for i, x, _ in values(3):
        got, want = float_then_int(i, x), (x, float(i))
        assert_same_value(want, got)
        assert type(got[1]) is float


@njit
def views(i, x, s, a):
    d = {'n': i, 'x': x, 's': s, 'a': a}
    return d.keys(), d.values(), d.items()


def test_keys_values_items_are_tuples():
    rng = make_rng(4)
    for i, x, s in values(4):
        a = rng.normal(size=int(rng.integers(0, 4)))
        keys, vals, items = views(i, x, s, a)
        d = views.py_func(i, x, s, a)[0]
        assert keys == ('n', 'x', 's', 'a')
        assert_same_value((i, x, s, a), vals)
        assert_same_value((('n', i), ('x', x), ('s', s), ('a', a)), items)


@njit
def walks(i, x, s):
    d = {'n': i, 'x': x, 's': s}
    names = ''
    for k in d:
        names += k
    for k in d.keys():
        names += k.upper()
    total = 0.0
    for v in literal_unroll(d.values()):
        total += len(str(v))
    return names, total


@numba_deviation("Numba refuses a for loop over a literal dict itself; Python walks its keys")
def test_for_loops_walk_keys_and_literal_unroll_walks_values():
    for i, x, s in values(5):
        assert_same(walks, i, x, s)


@njit
def repeated(i, x, s):
    d = {'a': i, 'b': x, 'a': s, 'c': i}  # noqa: F601
    return d['a'], tuple(d.keys()), len(d)


def test_repeated_key_keeps_its_place_and_last_value():
    for i, x, s in values(6):
        assert_same(repeated, i, x, s)


@njit
def compares(i, x, s):
    d = {'a': i, 'b': s}
    e = d.copy()
    f = {'a': i, 'b': s + 'z'}
    g = {'q': x, 'b': s}
    return d == e, d != e, d == f, d != f, d == g, d != g


def test_copy_and_equality():
    for i, x, s in values(7):
        assert_same(compares, i, x, s)


@njit
def add_to(kw):
    kw['arr'][:] += kw['step']
    return kw['name'] + '!'


@njit
def passes_on(n, step, name):
    arr = np.zeros(n)
    kw = {'arr': arr, 'step': step, 'name': name}
    return add_to(kw), arr


def test_passed_to_another_function_shares_its_arrays():
    rng = make_rng(8)
    for _, x, s in values(8):
        n = int(rng.integers(0, 5))
        arr = np.zeros(n)
        want = (add_to.py_func({'arr': arr, 'step': x, 'name': s}), arr)
        assert_same_value(want, passes_on(n, x, s))


@njit
def chooses(c, x):
    if c > 0:
        d = {'a': 1, 'b': 'pos', 'c': x}
    else:
        d = {'a': 2, 'b': 'neg', 'c': x * 2}
    return d['a'], d['b'], d['c']


def test_branches_unify_literal_dicts_of_the_same_keys():
    for i, x, _ in values(9):
        assert_same(chooses, i, x)


@njit
def returned(i, s, a):
    return {'i': i, 's': s, 'a': a}


@numba_deviation("Numba cannot return a LiteralStrKeyDict to Python; ruchey returns the dict it is")
def test_returned_as_a_python_dict():
    rng = make_rng(10)
    for i, _, s in values(10):
        a = rng.integers(-5, 5, size=3)
        got, want = returned(i, s, a), returned.py_func(i, s, a)
        assert type(got) is dict and list(got) == list(want)
        for k in want:
            assert_same_value(want[k], got[k])


@njit
def nested(i, s):
    d = {'inner': {'x': i, 'y': s}}
    return d['inner']['y'], d['inner']['x'], len(d)


def test_a_lone_literal_dict_value_makes_a_literal_dict():
    for i, _, s in values(11):
        assert_same(nested, i, s)


def _setitem():
    d = {'a': 1, 'b': 'x'}
    d['a'] = 2


def _delitem():
    d = {'a': 1, 'b': 'x'}
    del d['a']


def _pop():
    d = {'a': 1, 'b': 'x'}
    d.pop('a')


def _popitem():
    d = {'a': 1, 'b': 'x'}
    d.popitem()


def _clear():
    d = {'a': 1, 'b': 'x'}
    d.clear()


def _setdefault():
    d = {'a': 1, 'b': 'x'}
    d.setdefault('c', 1)


def _update():
    d = {'a': 1, 'b': 'x'}
    d.update(d)


@pytest.mark.parametrize("f", [_setitem, _delitem, _pop, _popitem, _clear, _setdefault, _update])
def test_changes_are_typing_errors(f):
    with pytest.raises(ruchey.TypingError, match="Cannot mutate a literal dictionary"):
        njit(f)()


def test_unknown_key_variable_key_get_and_iteration_of_values_are_typing_errors():
    @njit
    def missing():
        d = {'a': 1, 'b': 'x'}
        return d['c']

    @njit
    def variable(k):
        d = {'a': 1, 'b': 'x'}
        return d[k]

    @njit
    def get():
        d = {'a': 1, 'b': 'x'}
        return d.get('a')

    @njit
    def loop_values():
        d = {'a': 1, 'b': 'x'}
        for v in d.values():
            pass

    with pytest.raises(ruchey.TypingError, match="Key 'c' is not in dict"):
        missing()
    with pytest.raises(ruchey.TypingError, match="Cannot getitem"):
        variable('a')
    with pytest.raises(ruchey.TypingError, match=r"Cannot get\(\)"):
        get()
    with pytest.raises(ruchey.TypingError, match="iteration over the values"):
        loop_values()


def test_different_keys_do_not_unify():
    @njit
    def f(c):
        if c:
            d = {'a': 1, 'b': 'x'}
        else:
            d = {'z': 1, 'b': 'x'}
        return len(d)

    with pytest.raises(ruchey.TypingError, match="Cannot unify LiteralStrKey.*the same keys"):
        f(True)


@njit
def printed(i, x, s):
    d = {'n': i, 'x': x, "it's %d": s, 't': (i, s)}
    print(d, i)
    return str(d), repr(d)


def test_print_and_str_write_it_as_python_writes_a_dict(capsys):
    for i, x, s in values(12):
        got = printed(i, x, s)
        out = capsys.readouterr().out
        want = printed.py_func(i, x, s)
        assert got == want
        assert out == capsys.readouterr().out


@njit
def typed_by_first(a, b):
    return {1: a, 2: b}, {'x': a, 'y': b}


@pytest.mark.parametrize("first, second, value_type", [
    (np.int32(-3), np.int8(7), "int32"),      # int8 converts safely to int32: the first's type, as Numba's
    (2.5, 1, "float64"),                      # int64 into float64: safe
    (np.complex64(1j), np.float32(-0.0), "complex64"),
    (True, np.uint8(200), None),              # uint8 is no bool: unified, uint8 (int keys); a literal dict (str keys)
])
def test_typed_dict_written_out_takes_its_first_values_type(first, second, value_type):
    d, e = typed_by_first(first, second)
    want_d, want_e = typed_by_first.py_func(first, second)
    assert d.value_type == (value_type or "uint8") and dict(d) == want_d
    if value_type:
        assert e.value_type == value_type and dict(e) == want_e
    else:
        assert type(e) is dict and e == want_e and type(e['x']) is bool


def test_overloads_see_literal_dict_and_dict_types():
    from ruchey import types
    from ruchey.extending import overload

    def kind_of(x):
        pass

    @overload(kind_of)
    def ol_kind_of(x):
        if isinstance(x, types.LiteralStrKeyDict):
            keys = tuple(k.literal_value for k in x.literal_value)
            return lambda x: keys
        if isinstance(x, types.DictType):
            return lambda x: ('typed',)

    @njit
    def kinds(i, s):
        return kind_of({'a': i, 'b': s}), kind_of({'a': i, 'b': i})

    assert kinds(1, 'z') == (('a', 'b'), ('typed',))


@njit
def kinds_of(i, s):
    d = {'a': i, 'b': s}
    return isinstance(d, dict), isinstance(d, tuple), isinstance(d, (list, dict)), any(d), bool(d), not d, 1 if d else 0


def test_isinstance_and_truth_know_it_for_a_dict():
    for i, _, s in values(13):
        assert_same(kinds_of, i, s)
