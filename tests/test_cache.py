"""cache=True keeps compiled code on disk: a later process loads it instead
of compiling, and never loads code made from other sources. Every step
runs in a fresh Python process; each result is compared with the Python
function's own."""
import hashlib
import marshal
import os
import struct
import subprocess
import sys
import textwrap

import pytest

from conftest import AS_NUMBA, needs_ptxas, ptxas_errors
from ruchey import caching

pytestmark = pytest.mark.skipif(AS_NUMBA, reason="ruchey's own cache")

KERNELS = '''
import numpy as np
from ruchey import njit, prange

SCALE = 3.0

@njit(cache=True)
def poly(x):
    return SCALE * x * x - 2.0 * x + 1.0

@njit(cache=True)
def total(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i]
    return s

@njit(cache=True, parallel=True)
def norm2(a):
    s = 0.0
    for i in prange(a.shape[0]):
        s += a[i] * a[i]
    return s

@njit(cache=True)
def checked(x):
    if x < 0:
        raise ValueError("negative")
    return x * 2

@njit(cache=True)
def fact(n):
    return 1 if n <= 1 else n * fact(n - 1)
'''

CALLS = '''
import numpy as np
import kernels as k
a = np.linspace(0.0, 1.0, 101)
assert k.poly(2.0) == k.poly.py_func(2.0)
assert k.poly(3) == k.poly.py_func(3)
assert k.total(a) == k.total.py_func(a)
assert abs(k.norm2(a) - k.norm2.py_func(a)) < 1e-9
assert k.checked(4) == 8
try:
    k.checked(-1)
    raise SystemExit("no error")
except ValueError as e:
    assert str(e) == "negative"
assert k.fact(10) == k.fact.py_func(10)
fs = (k.poly, k.total, k.norm2, k.checked, k.fact)
print(sum(sum(f.stats.cache_hits.values()) for f in fs), sum(sum(f.stats.cache_misses.values()) for f in fs))
'''


def run(folder, code, **env):
    environ = {k: v for k, v in os.environ.items() if k not in ("RUCHEY_CACHE_DIR", "NUMBA_CACHE_DIR")}
    # no .pyc of Python's own: a module rewritten within a second at the same
    # size would be imported stale, and __pycache__ is where ruchey's files go
    environ.update(PYTHONPATH=str(folder), XDG_CACHE_HOME=str(folder / "usercache"), PYTHONDONTWRITEBYTECODE="1",
                   **env)
    r = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=folder, env=environ,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    return r.stdout.split()


def hits_misses(folder, code=CALLS, **env):
    return tuple(int(x) for x in run(folder, code, **env)[-2:])


def files(folder):
    return sorted(p.name for p in folder.rglob("*.rb[ic]"))


def test_a_second_process_loads_every_function_without_compiling(tmp_path):
    (tmp_path / "kernels.py").write_text(KERNELS)
    assert hits_misses(tmp_path) == (0, 6)  # poly twice: float and int
    assert any(n.endswith(".rbi") for n in os.listdir(tmp_path / "__pycache__"))
    assert hits_misses(tmp_path) == (6, 0)
    assert hits_misses(tmp_path) == (6, 0)


def test_a_changed_source_is_compiled_again(tmp_path):
    (tmp_path / "kernels.py").write_text(KERNELS)
    hits_misses(tmp_path)
    (tmp_path / "kernels.py").write_text(KERNELS.replace("- 2.0 * x", "- 5.0 * x"))
    assert run(tmp_path, "import kernels; print(kernels.poly(2.0), kernels.poly.stats.cache_hits['(float64,)'])") == \
        ["3.0", "0"]
    assert run(tmp_path, "import kernels; print(kernels.poly(2.0), kernels.poly.stats.cache_hits['(float64,)'])") == \
        ["3.0", "1"]


def test_a_changed_global_constant_is_compiled_again(tmp_path):
    (tmp_path / "kernels.py").write_text(KERNELS)
    hits_misses(tmp_path)
    code = "import kernels; kernels.SCALE = %s; print(kernels.poly(2.0), sum(kernels.poly.stats.cache_hits.values()))"
    assert run(tmp_path, code % "4.0") == ["13.0", "0"]
    assert run(tmp_path, code % "3.0") == ["9.0", "1"]


RELOADED = '''
import importlib
import numpy as np
import kernels as k
a = np.linspace(0.0, 1.0, 101)
first = (k.poly(2.0), k.total(a), k.norm2(a), k.checked(4), k.fact(10))
k = importlib.reload(k)
again = (k.poly(2.0), k.total(a), k.norm2(a), k.checked(4), k.fact(10))
assert again == first == (k.poly.py_func(2.0), k.total.py_func(a), again[2], 8, k.fact.py_func(10))
assert abs(again[2] - k.norm2.py_func(a)) < 1e-9
try:
    k.checked(-1)
    raise SystemExit("no error")
except ValueError as e:
    assert str(e) == "negative"
fs = (k.poly, k.total, k.norm2, k.checked, k.fact)
print(sum(sum(f.stats.cache_hits.values()) for f in fs), sum(sum(f.stats.cache_misses.values()) for f in fs))
'''


def test_a_module_imported_again_in_the_same_process_loads_its_cached_code(tmp_path):
    """importlib.reload (or a module imported again under another name): its
    functions load the code this process compiled and saved, as Numba's
    do, rather than compile it all again."""
    (tmp_path / "kernels.py").write_text(KERNELS)
    assert hits_misses(tmp_path, RELOADED) == (5, 0)  # (the first import's misses are its old functions')
    assert hits_misses(tmp_path, RELOADED) == (5, 0)


def write_zip(path, entries):
    import zipfile
    with zipfile.ZipFile(path, "w") as zf:
        for name, text in entries.items():
            zf.writestr(name, text)


ZIP_CALLS = '''
import sys
import numpy as np
sys.path.insert(0, "app.zip")
import kernels as k
from pkg import nested
a = np.linspace(0.0, 1.0, 101)
assert k.poly(2.0) == k.poly.py_func(2.0) and k.total(a) == k.total.py_func(a)
assert nested.poly(1.5) == nested.poly.py_func(1.5)
fs = (k.poly, k.total, nested.poly)
print(k.poly(2.0), sum(sum(f.stats.cache_hits.values()) for f in fs), sum(sum(f.stats.cache_misses.values()) for f in fs))
'''


def test_functions_of_a_module_in_a_zip_archive_are_cached_in_the_users_folder(tmp_path):
    """A module imported from a zip archive (zipimport) keeps its code in the
    user's cache folder (the folder beside it is inside the archive), as
    Numba's ZipCacheLocator; a rewritten archive makes it stale."""
    write_zip(tmp_path / "app.zip", {"kernels.py": KERNELS, "pkg/__init__.py": "", "pkg/nested.py": KERNELS})
    assert run(tmp_path, ZIP_CALLS)[-3:] == ["9.0", "0", "3"]
    assert run(tmp_path, ZIP_CALLS)[-3:] == ["9.0", "3", "0"]
    assert any(p.name.startswith("kernels.poly") for p in (tmp_path / "usercache").rglob("*.rbc"))
    assert any(p.name.startswith("nested.poly") for p in (tmp_path / "usercache").rglob("*.rbc"))
    changed = KERNELS.replace("- 2.0 * x", "- 5.0 * x")
    write_zip(tmp_path / "app.zip", {"kernels.py": changed, "pkg/__init__.py": "", "pkg/nested.py": changed + "\n"})
    assert run(tmp_path, ZIP_CALLS)[-3:] == ["3.0", "0", "3"]


HELPER = '''
from ruchey import njit

@njit
def inner(x):
    return x + %s
'''

OUTER = '''
from ruchey import njit
import helper
from helper import inner

@njit(cache=True)
def outer(x):
    return inner(x) * 2

@njit(cache=True)
def outer_attr(x):
    return helper.inner(x) * 3
'''


def test_a_changed_callee_in_another_module_is_compiled_again(tmp_path):
    # the callee's code is inside the caller's object file: its change must not
    # load the caller's old code, though the caller's own source is unchanged
    (tmp_path / "helper.py").write_text(HELPER % "1")
    (tmp_path / "outer.py").write_text(OUTER)
    code = "import outer; print(outer.outer(1), outer.outer_attr(1), outer.outer.stats.cache_hits['(int64,)'])"
    assert run(tmp_path, code) == ["4", "6", "0"]
    assert run(tmp_path, code) == ["4", "6", "1"]
    (tmp_path / "helper.py").write_text(HELPER % "10")
    assert run(tmp_path, code) == ["22", "33", "0"]
    assert run(tmp_path, code) == ["22", "33", "1"]


def test_a_damaged_cache_file_is_ignored_and_rewritten(tmp_path):
    (tmp_path / "kernels.py").write_text(KERNELS)
    hits_misses(tmp_path)
    data = sorted((tmp_path / "__pycache__").glob("kernels.poly-*.rbc"))
    assert len(data) == 2
    data[0].write_bytes(data[0].read_bytes()[:100])  # truncated
    body = bytearray(data[1].read_bytes())
    body[len(body) // 2] ^= 0xFF  # one byte changed
    data[1].write_bytes(bytes(body))
    index = next((tmp_path / "__pycache__").glob("kernels.total-*.rbi"))
    index.write_bytes(b"garbage")
    assert hits_misses(tmp_path) == (3, 3)
    assert hits_misses(tmp_path) == (6, 0)


def test_cache_dir_from_the_environment(tmp_path):
    (tmp_path / "kernels.py").write_text(KERNELS)
    for var in ("RUCHEY_CACHE_DIR", "NUMBA_CACHE_DIR"):
        root = tmp_path / var.lower()
        assert hits_misses(tmp_path, **{var: str(root)}) == (0, 6)
        assert hits_misses(tmp_path, **{var: str(root)}) == (6, 0)
        assert files(root) and not (tmp_path / "__pycache__").exists()


def test_an_unwritable_source_folder_falls_back_to_the_user_cache(tmp_path):
    (tmp_path / "kernels.py").write_text(KERNELS)
    (tmp_path / "__pycache__").write_text("not a folder")  # cannot be made, even by root
    assert hits_misses(tmp_path) == (0, 6)
    assert hits_misses(tmp_path) == (6, 0)
    assert files(tmp_path / "usercache" / "ruchey")
    assert run(tmp_path, "import kernels; print(kernels.poly.stats.cache_path)")[0].startswith(
        str(tmp_path / "usercache" / "ruchey"))


def test_no_writable_folder_at_all_compiles_without_error(tmp_path):
    (tmp_path / "kernels.py").write_text(KERNELS)
    blocked = tmp_path / "blocked"
    blocked.write_text("a file, not a folder")
    assert hits_misses(tmp_path, RUCHEY_CACHE_DIR=str(blocked / "x")) == (0, 6)
    assert hits_misses(tmp_path, RUCHEY_CACHE_DIR=str(blocked / "x")) == (0, 6)


def test_functions_without_a_source_file_or_with_unknown_globals_are_compiled_each_time(tmp_path):
    (tmp_path / "odd.py").write_text('''
from ruchey import njit

class Opaque:
    pass

THING = Opaque()

@njit(cache=True)
def uses_thing(x):
    if x > 100:
        return THING
    return x + 1
''')
    code = '''
    import odd
    from ruchey import njit
    src = "from ruchey import njit\\n@njit(cache=True)\\ndef g(x):\\n    return x * 3\\n"
    ns = {}
    exec(src, ns)
    print(ns["g"](2), ns["g"].stats.cache_path, sum(ns["g"].stats.cache_misses.values()))
    '''
    assert run(tmp_path, code) == ["6", "None", "1"]
    assert run(tmp_path, code) == ["6", "None", "1"]


def test_objmode_blocks_and_jitclass_or_structref_results_compile_each_time_with_a_warning(tmp_path):
    # their code refers to this process's Python objects: never a crash or a
    # stale object in a new process, and the user is told why it is not cached
    (tmp_path / "held.py").write_text('''
import numpy as np
from ruchey import njit, objmode, float64, types
from ruchey.experimental import jitclass, structref

@njit(cache=True)
def with_objmode(x):
    with objmode(y="float64"):
        y = float(np.sum(x))
    return y + 1.0

@jitclass([("a", float64)])
class Box:
    def __init__(self, a):
        self.a = a

@njit(cache=True)
def make_box(a):
    return Box(a * 2.0)

@structref.register
class PairType(types.StructRef):
    pass

class Pair(structref.StructRefProxy):
    def __new__(cls, a):
        return structref.StructRefProxy.__new__(cls, a)

    @property
    def a(self):
        return pair_a(self)

@njit
def pair_a(p):
    return p.a

structref.define_proxy(Pair, PairType, ["a"])

@njit(cache=True)
def make_pair(a):
    return Pair(a + 1.0)
''')
    code = '''
    import warnings
    import numpy as np
    import held
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = [held.with_objmode(np.arange(4.0)), held.make_box(1.5).a, held.make_pair(2.5).a]
        again = [held.with_objmode(np.arange(3.0)), held.make_box(-1.0).a, held.make_pair(0.0).a]
    told = sorted(str(w.message).split()[2] for w in caught if "cannot cache" in str(w.message))
    fs = (held.with_objmode, held.make_box, held.make_pair)
    print(*got, *again, *told, sum(sum(f.stats.cache_hits.values()) for f in fs))
    '''
    for _ in range(2):
        assert run(tmp_path, code) == ["7.0", "3.0", "3.5", "4.0", "-2.0", "1.0", "make_box", "make_pair",
                                       "with_objmode", "0"]


def test_processes_saving_at_once_leave_a_usable_cache(tmp_path):
    (tmp_path / "kernels.py").write_text(KERNELS)
    environ = {k: v for k, v in os.environ.items() if k not in ("RUCHEY_CACHE_DIR", "NUMBA_CACHE_DIR")}
    environ.update(PYTHONPATH=str(tmp_path), XDG_CACHE_HOME=str(tmp_path / "usercache"))
    procs = [subprocess.Popen([sys.executable, "-c", CALLS], cwd=tmp_path, env=environ, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for _ in range(4)]
    for p in procs:
        out, err = p.communicate(timeout=300)
        assert p.returncode == 0, err
    hits, misses = hits_misses(tmp_path)
    assert hits + misses == 6 and hits >= 1
    assert not list(tmp_path.rglob("*.tmp"))


def test_explicit_signatures_are_cached(tmp_path):
    (tmp_path / "sigs.py").write_text('''
from ruchey import njit

@njit(["float64(float64)", "int64(int64)"], cache=True)
def double(x):
    return x * 2
''')
    code = "import sigs; print(sigs.double(2.5), sigs.double(4), sum(sigs.double.stats.cache_hits.values()))"
    assert run(tmp_path, code) == ["5.0", "8", "0"]
    assert run(tmp_path, code) == ["5.0", "8", "2"]


def test_the_same_cached_function_twice_in_one_process(tmp_path):
    (tmp_path / "kernels.py").write_text(KERNELS)
    hits_misses(tmp_path)
    code = '''
    import importlib, kernels
    first = kernels.poly
    assert first(2.0) == 9.0
    importlib.reload(kernels)
    assert kernels.poly is not first
    print(kernels.poly(2.0), first(2.0))
    '''
    assert run(tmp_path, code) == ["9.0", "9.0"]


EXTENSIONS = '''
from ruchey import types
from ruchey.extending import overload, overload_method, register_jitable

def twice(x):
    pass

@overload(twice)
def ol_twice(x):
    if isinstance(x, types.Float):
        return lambda x: x * %s
    return None

@overload_method(types.Array, "top")
def ol_top(a):
    return lambda a: a.max() + %s

@register_jitable
def plus(x):
    return x + %s
'''

USER = '''
import numpy as np
from ruchey import njit
from exts import twice, plus

@njit(cache=True)
def use(x, a):
    return twice(x) + plus(x) + a.top()
'''


def test_a_changed_extension_in_another_module_is_compiled_again(tmp_path):
    # overload's, overload_method's and register_jitable's code is in the
    # caller's object file: changing any of them compiles the caller again
    (tmp_path / "user.py").write_text(USER)
    code = "import numpy as np, user; print(user.use(1.0, np.arange(3.0)), sum(user.use.stats.cache_hits.values()))"
    for values, expected in [(("2", "0", "0"), "5.0"), (("3", "0", "0"), "6.0"), (("3", "10", "0"), "16.0"),
                             (("3", "10", "1"), "17.0")]:
        (tmp_path / "exts.py").write_text(EXTENSIONS % values)
        assert run(tmp_path, code) == [expected, "0"]
        assert run(tmp_path, code) == [expected, "1"]


def test_a_function_calling_a_vectorize_ufunc_is_compiled_each_time(tmp_path):
    # a ufunc's loops are compiled in each process, so its callers are too
    (tmp_path / "uf.py").write_text('''
from ruchey import njit, vectorize

@vectorize(["float64(float64)"])
def bump(x):
    return x + 1.0

@njit(cache=True)
def use(x):
    return bump(x) * 2.0
''')
    code = "import uf; print(uf.use(1.0), uf.use.py_func(1.0), sum(uf.use.stats.cache_hits.values()))"
    assert run(tmp_path, code) == ["4.0", "4.0", "0"]
    assert run(tmp_path, code) == ["4.0", "4.0", "0"]


def test_cached_linear_algebra_finds_blas_in_a_new_process(tmp_path):
    pytest.importorskip("scipy")
    (tmp_path / "la.py").write_text('''
import numpy as np
from ruchey import njit

@njit(cache=True)
def solve_and_dot(a, b):
    return np.linalg.solve(a, b), np.dot(a, b)
''')
    code = '''
    import numpy as np, la
    a = np.array([[3.0, 1.0], [1.0, 2.0]]); b = np.array([9.0, 8.0])
    x, d = la.solve_and_dot(a, b)
    x0, d0 = la.solve_and_dot.py_func(a, b)
    print(np.allclose(x, x0, rtol=1e-14), np.allclose(d, d0, rtol=1e-14), sum(la.solve_and_dot.stats.cache_hits.values()))
    '''
    assert run(tmp_path, code) == ["True", "True", "0"]
    assert run(tmp_path, code) == ["True", "True", "1"]


def test_tuples_and_read_only_arrays_returned_from_cached_code(tmp_path):
    (tmp_path / "tup.py").write_text('''
import numpy as np
from ruchey import njit

TABLE = np.array([1.5, 2.5, 3.5])

@njit(cache=True)
def stats(a):
    return a.min(), (a.max(), a.shape[0]), TABLE
''')
    code = '''
    import numpy as np, tup
    a = np.array([4.0, -1.0, 2.0])
    r, p = tup.stats(a), tup.stats.py_func(a)
    print(r[0] == p[0], r[1] == p[1], (r[2] == p[2]).all(), r[2].flags.writeable,
          sum(tup.stats.stats.cache_hits.values()))
    '''
    first = run(tmp_path, code)
    assert first[:3] == ["True", "True", "True"] and first[4] == "0"
    assert run(tmp_path, code) == first[:4] + ["1"]



def test_containers_and_optionals_returned_from_cached_code(tmp_path):
    (tmp_path / "made.py").write_text('''
import numpy as np
from ruchey import njit, typed, types

@njit(cache=True)
def floats(n):
    return [i * 0.5 for i in range(n)]

@njit(cache=True)
def pairs(n):
    made = typed.List()
    for i in range(n):
        made.append((i, str(i)))
    return made

@njit(cache=True)
def ranges(n):
    return {i: np.arange(i) for i in range(n)}

@njit(cache=True)
def thirds(n):
    d = typed.Dict.empty(types.unicode_type, types.float64)
    for i in range(n):
        d[str(i)] = i / 3
    return d

@njit(cache=True)
def residues(n):
    return {i % 3 for i in range(n)}

@njit(cache=True)
def maybe(n):
    return None if n > 2 else n * 1.5

@njit(cache=True)
def nested(n):
    return [[i] * i for i in range(n)], [np.ones(i) for i in range(n)], (1 + 2j) * n

FUNCTIONS = [floats, pairs, ranges, thirds, residues, maybe, nested]
''')
    code = '''
    import numpy as np, made
    def same(a, b):
        if isinstance(a, np.ndarray):
            return isinstance(b, np.ndarray) and a.dtype == b.dtype and np.array_equal(a, b)
        if isinstance(a, (list, tuple)) or type(a).__name__ == "List":
            return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
        if isinstance(a, dict) or type(a).__name__ == "Dict":
            return sorted(a.keys()) == sorted(b.keys()) and all(same(a[k], b[k]) for k in a.keys())
        return a == b and type(a) is type(b)
    kinds = {"floats": "list", "pairs": "List", "ranges": "Dict", "thirds": "Dict", "residues": "set",
             "maybe": "NoneType", "nested": "tuple"}
    for f in made.FUNCTIONS:
        for n in (1, 4):
            got, want = f(n), f.py_func(n)
            assert same(got, want), (f.__name__, got, want)
            assert type(f(4)).__name__ == kinds[f.__name__], (f.__name__, type(f(4)))
    print(sum(sum(f.stats.cache_hits.values()) for f in made.FUNCTIONS),
          sum(sum(f.stats.cache_misses.values()) for f in made.FUNCTIONS))
    '''
    assert run(tmp_path, code)[-2:] == ["0", "7"]
    assert run(tmp_path, code)[-2:] == ["7", "0"]


def test_dict_views_returned_from_cached_code(tmp_path):
    (tmp_path / "views.py").write_text('''
from ruchey import njit, typed, types

def made(n):
    d = typed.Dict.empty(types.unicode_type, types.float64)
    for i in range(n):
        d[str(i * 7 % 5)] = i / 4
    return d

@njit(cache=True)
def keys(n):
    return made(n).keys()

@njit(cache=True)
def values(n):
    return made(n).values()

@njit(cache=True)
def all_views(n):
    d = typed.Dict.empty(types.int64, types.int64)
    for i in range(n):
        d[i * 3] = -i
    return d.keys(), d.values(), d.items()

made = njit(made)
FUNCTIONS = [keys, values, all_views]
''')
    code = '''
    import views
    for f in views.FUNCTIONS:
        for n in (0, 1, 6):
            got, want = f(n), f.py_func(n)
            if f is views.all_views:
                assert [list(v) for v in got] == [list(v) for v in want], (got, want)
            else:
                assert list(got) == list(want), (f.__name__, got, want)
    print(sum(sum(f.stats.cache_hits.values()) for f in views.FUNCTIONS),
          sum(sum(f.stats.cache_misses.values()) for f in views.FUNCTIONS))
    '''
    assert run(tmp_path, code)[-2:] == ["0", "3"]
    assert run(tmp_path, code)[-2:] == ["3", "0"]


FROZEN = __import__("numpy").array([[1.5, 2.5], [3.5, 4.5]])


def test_a_returned_global_array_is_a_read_only_copy():
    # cached or not, code's memory goes with its function: what it returns is a copy
    import numpy as np
    from ruchey import njit

    @njit
    def table(i):
        return FROZEN, FROZEN[i], i

    whole, row, _ = table(1)
    np.testing.assert_array_equal(whole, table.py_func(1)[0])
    np.testing.assert_array_equal(row, table.py_func(1)[1])
    assert not whole.flags.writeable and not row.flags.writeable and whole is not FROZEN


DEFAULTS = '''
from ruchey import njit

@njit
def helper(x, k=%s):
    return x * k
'''


def test_a_changed_default_of_a_callee_is_compiled_again(tmp_path):
    # the caller compiles the callee's default in; it lives in the function
    # object, not in the callee's bytecode
    (tmp_path / "defaults.py").write_text(DEFAULTS % "2")
    (tmp_path / "caller.py").write_text('''
from ruchey import njit
from defaults import helper

@njit(cache=True)
def caller(x):
    return helper(x)
''')
    code = "import caller; print(caller.caller(5), sum(caller.caller.stats.cache_hits.values()))"
    assert run(tmp_path, code) == ["10", "0"]
    assert run(tmp_path, code) == ["10", "1"]
    (tmp_path / "defaults.py").write_text(DEFAULTS % "3")
    assert run(tmp_path, code) == ["15", "0"]


UFUNCS = '''
import math
from ruchey import vectorize

@vectorize(["float64(float64, float64)", "int64(int64, int64)"], cache=True)
def hyp(x, y):
    return x * x + y * y

@vectorize(cache=True)
def damped(x):
    return math.exp(-x) * %s
'''


def test_vectorize_loops_are_cached(tmp_path):
    (tmp_path / "ufs.py").write_text(UFUNCS % "2.0")
    code = '''
    import numpy as np, ufs
    a = np.linspace(0.0, 2.0, 9)
    print(np.allclose(ufs.hyp(a, 1.0), a * a + 1.0, rtol=1e-15), (ufs.hyp(np.arange(4), 2) == np.arange(4) ** 2 + 4).all(),
          np.allclose(ufs.damped(a), [ufs.damped.py_func(x) for x in a], rtol=1e-15),
          sum(ufs.damped._ruchey_scalar_function.stats.cache_hits.values()))
    '''
    assert run(tmp_path, code) == ["True", "True", "True", "0"]
    saved = files(tmp_path / "__pycache__")
    assert len([n for n in saved if n.endswith(".rbc")]) == 3
    assert run(tmp_path, code) == ["True", "True", "True", "1"]
    assert files(tmp_path / "__pycache__") == saved
    (tmp_path / "ufs.py").write_text(UFUNCS % "3.0")
    assert run(tmp_path, code.replace("rtol=1e-15),\n", "rtol=1e-15), ufs.damped(0.0),\n")) == \
        ["True", "True", "True", "3.0", "0"]


def test_cached_code_runs_without_loading_the_compiler(tmp_path):
    """Code from the cache is linked by the runtime library's own loader:
    LLVM (in libruchey.so) is never loaded, exceptions, the thread pool and
    recursion included."""
    (tmp_path / "kernels.py").write_text(KERNELS)
    hits_misses(tmp_path)
    maps = "\nlibs = {p.rsplit('/', 1)[-1] for p in open('/proc/self/maps').read().split() if 'libruchey' in p}\n"
    out = run(tmp_path, CALLS + maps + "print(sorted(libs))")
    assert out[-3:] == ["6", "0", "['libruchey_rt.so']"]


def _elf_sections(obj):
    """(type, offset, size, entsize) of each section of an ELF64 object."""
    shoff, = struct.unpack_from("<Q", obj, 0x28)
    shnum, = struct.unpack_from("<H", obj, 0x3C)
    return [struct.unpack_from("<4xI16xQQ16xQ", obj, shoff + 64 * i) for i in range(shnum)]


def _bad_relocation(obj):
    """The first relocation names a symbol past the symbol table's end."""
    rela = next(s for s in _elf_sections(obj) if s[0] == 4)  # SHT_RELA
    info, = struct.unpack_from("<Q", obj, rela[1] + 8)
    struct.pack_into("<Q", obj, rela[1] + 8, (0xFFFFFF << 32) | (info & 0xFFFFFFFF))


def _sections_past_the_end(obj):
    struct.pack_into("<Q", obj, 0x28, len(obj) + 4096)


def _sections_overlapping_the_end(obj):
    for i, section in enumerate(_elf_sections(obj)):
        if section[0] == 1:  # SHT_PROGBITS
            shoff, = struct.unpack_from("<Q", obj, 0x28)
            struct.pack_into("<Q", obj, shoff + 64 * i + 32, len(obj) - 8)  # sh_size


DAMAGES = {
    "truncated": lambda obj: obj.__delitem__(slice(len(obj) // 2, None)),
    "not_elf": lambda obj: obj.__setitem__(slice(0, 4), b"\x7fRUC"),
    "section_headers_past_the_end": _sections_past_the_end,
    "sections_overlapping_the_end": _sections_overlapping_the_end,
    "relocation_symbol_out_of_range": _bad_relocation,
}


@pytest.mark.parametrize("damage", sorted(DAMAGES))
def test_a_damaged_object_with_a_valid_checksum_is_compiled_again(tmp_path, damage):
    """Object code whose file checks out but whose ELF is damaged is refused
    by the loaders, never run: the function compiles again."""
    (tmp_path / "kernels.py").write_text(KERNELS)
    hits_misses(tmp_path)
    magic = caching._MAGIC
    for path in (tmp_path / "__pycache__").glob("kernels.*.rbc"):
        data = path.read_bytes()
        assert data.startswith(magic)
        entry = list(marshal.loads(data[len(magic) + 32:]))
        obj = bytearray(entry[2])
        DAMAGES[damage](obj)
        entry[2] = bytes(obj)
        payload = marshal.dumps(tuple(entry))
        path.write_bytes(magic + hashlib.sha256(payload).digest() + payload)
    assert hits_misses(tmp_path) == (0, 6)
    assert hits_misses(tmp_path) == (6, 0)


STRINGS = '''
from ruchey import njit

@njit(cache=True)
def count(s, pair):
    return len(s) + s.count("a") + pair[1] + len(pair[0])

@njit(cache=True)
def shout(s):
    return s.upper() + "!"
'''


def test_functions_of_strings_and_tuples_of_strings_are_cached(tmp_path):
    (tmp_path / "strs.py").write_text(STRINGS)
    code = '''
    import strs
    assert strs.count("banana", ("xy", 3)) == strs.count.py_func("banana", ("xy", 3))
    assert strs.shout("hey") == strs.shout.py_func("hey")
    print(sum(strs.count.stats.cache_hits.values()) + sum(strs.shout.stats.cache_hits.values()))
    '''
    assert run(tmp_path, code) == ["0"]
    assert run(tmp_path, code) == ["2"]


KERNELS_CUDA = '''
import numpy as np
from ruchey import cuda

@cuda.jit(cache=True)
def scale(a, k):
    i = cuda.grid(1)
    if i < a.size:
        a[i] *= k

@cuda.jit(cache=True)
def block_sums(a, out):
    tile = cuda.shared.array(32, np.float64)
    t = cuda.threadIdx.x
    tile[t] = a[cuda.grid(1)]
    cuda.syncthreads()
    if t == 0:
        s = 0.0
        for j in range(32):
            s += tile[j]
        out[cuda.blockIdx.x] = s
'''


def test_kernels_on_the_cpu_backend_are_cached(tmp_path):
    """A kernel's CPU-backend code, barriers included, loads from the cache
    as an @njit function's does."""
    (tmp_path / "kk.py").write_text(KERNELS_CUDA)
    code = '''
    import numpy as np, kk
    a = np.arange(128.0)
    kk.scale[4, 32](a, 2.0)
    assert (a == 2.0 * np.arange(128.0)).all()
    out = np.zeros(4)
    kk.block_sums[4, 32](a, out)
    assert (out == a.reshape(4, 32).sum(axis=1)).all()
    print(sum(sum(k._compiled().stats.cache_hits.values()) for k in (kk.scale, kk.block_sums)))
    '''
    assert run(tmp_path, code, RUCHEY_CUDA_BACKEND="cpu") == ["0"]
    assert run(tmp_path, code, RUCHEY_CUDA_BACKEND="cpu") == ["2"]


PTX_CODE = '''
import hashlib, numpy as np, kk
from ruchey import cuda
a = np.arange(128.0)
kk.scale[4, 32](a, 2.0)  # compiled (or loaded) for the CPU backend: a signature to ask PTX of
assert (a == 2.0 * np.arange(128.0)).all()
ptx = kk.scale.inspect_ptx((%s))
fresh = cuda.jit(kk.scale.py_func)  # the same function without a cache
fresh[4, 32](np.arange(4.0), 2.0)
assert fresh.inspect_ptx((%s)) == ptx
for text in ptx.values():
    open("kernel.ptx", "w").write(text)
libs = {p.rsplit('/', 1)[-1] for p in open('/proc/self/maps').read().split() if 'libruchey' in p}
stats = kk.scale._compiled().stats
print(sum(stats.cache_hits.values()), sum(stats.cache_misses.values()), "compiler" if "libruchey.so" in libs else "-")
'''


def _ptx_hits(folder, cc="8, 0", fresh=False):
    code = PTX_CODE % (cc, cc)
    if not fresh:  # without the uncached twin, which compiles
        code = code.replace("fresh = ", "#").replace("fresh[", "#").replace("assert fresh", "#")
    return run(folder, code, RUCHEY_CUDA_BACKEND="cpu")


@needs_ptxas
def test_kernel_ptx_is_cached_and_loads_without_the_compiler(tmp_path):
    """A kernel's PTX, as a launch on a GPU asks for it (the same C path,
    here through inspect_ptx: no GPU is needed to make PTX), is kept on
    disk: a later process reads the same text and never loads the compiler;
    another compute capability or a changed kernel misses."""
    (tmp_path / "kk.py").write_text(KERNELS_CUDA)
    assert _ptx_hits(tmp_path, fresh=True) == ["0", "2", "compiler"]  # the CPU backend's code and the PTX
    first = (tmp_path / "kernel.ptx").read_text()
    assert ptxas_errors(first, "sm_80", tmp_path) == ""
    assert _ptx_hits(tmp_path) == ["2", "0", "-"]
    assert (tmp_path / "kernel.ptx").read_text() == first
    assert _ptx_hits(tmp_path, "9, 0") == ["1", "1", "compiler"]  # another target: the PTX misses
    assert ".target sm_90" in (tmp_path / "kernel.ptx").read_text()
    assert _ptx_hits(tmp_path, "9, 0") == ["2", "0", "-"]
    assert _ptx_hits(tmp_path) == ["2", "0", "-"]  # both targets kept
    (tmp_path / "kk.py").write_text(KERNELS_CUDA.replace("a[i] *= k", "a[i] *= k + 0.0"))
    assert _ptx_hits(tmp_path, fresh=True) == ["0", "2", "compiler"]
    assert (tmp_path / "kernel.ptx").read_text() != first
    assert _ptx_hits(tmp_path) == ["2", "0", "-"]


def test_a_damaged_ptx_entry_is_compiled_again(tmp_path):
    (tmp_path / "kk.py").write_text(KERNELS_CUDA)
    assert _ptx_hits(tmp_path) == ["0", "2", "compiler"]
    for path in (tmp_path / "__pycache__").glob("kk.scale*.rbc"):
        path.write_bytes(path.read_bytes()[:-7])
    assert _ptx_hits(tmp_path) == ["0", "2", "compiler"]
    assert _ptx_hits(tmp_path) == ["2", "0", "-"]


CFUNCS = '''
import math
from ruchey import cfunc

@cfunc("float64(float64)", cache=True)
def gauss(x):
    return math.exp(-x * x)

@cfunc("int64(int64, int64)", cache=True)
def div(a, b):
    return a // b
'''


def test_cfuncs_are_cached_and_report_failures_from_cached_code(tmp_path):
    (tmp_path / "cf.py").write_text(CFUNCS)
    code = '''
    import sys, cf
    caught = []
    sys.unraisablehook = lambda u: caught.append(u.exc_type.__name__)
    assert cf.gauss.ctypes(0.5) == cf.gauss.py_func(0.5)
    assert cf.div.ctypes(7, 2) == cf.div.py_func(7, 2)
    assert cf.div.ctypes(7, 0) == 0 and caught == ["ZeroDivisionError"]
    print(sum(sum(f._disp.stats.cache_hits.values()) for f in (cf.gauss, cf.div)))
    '''
    assert run(tmp_path, code) == ["0"]
    assert run(tmp_path, code) == ["2"]


LEVELS = '''
import enum
from ruchey import njit

class Level(enum.Enum):
    LOW = 1
    HIGH = %s

@njit(cache=True)
def shifted(x):
    return x + Level.HIGH.value
'''


def test_a_changed_enum_member_value_is_compiled_again(tmp_path):
    (tmp_path / "levels.py").write_text(LEVELS % "2")
    code = "import levels; print(levels.shifted(1), sum(levels.shifted.stats.cache_hits.values()))"
    assert run(tmp_path, code) == ["3", "0"]
    assert run(tmp_path, code) == ["3", "1"]
    (tmp_path / "levels.py").write_text(LEVELS % "5")  # the function's own text unchanged
    assert run(tmp_path, code) == ["6", "0"]


PAIRS = '''
import operator
from numba import types
from numba.extending import NativeValue, make_attribute_wrapper, models, overload, register_model, typeof_impl, unbox


class Pair:
    def __init__(self, x, y):
        self.x, self.y = x, y


class PairType(types.Type):
    def __init__(self):
        super().__init__(name="Pair")


@typeof_impl.register(Pair)
def typeof_pair(val, c):
    return PairType()


@register_model(PairType)
class PairModel(models.StructModel):
    def __init__(self, dmm, fe_type):
        super().__init__(dmm, fe_type, [("x", types.float64), ("y", types.float64)])


make_attribute_wrapper(PairType, "x", "x")
make_attribute_wrapper(PairType, "y", "y")


@unbox(PairType)
def unbox_pair(typ, obj, c):
    from numba.core import cgutils
    pair = cgutils.create_struct_proxy(typ)(c.context, c.builder)
    for name in ("x", "y"):
        attr = c.pyapi.object_getattr_string(obj, name)
        setattr(pair, name, c.pyapi.float_as_double(attr))
        c.pyapi.decref(attr)
    return NativeValue(pair._getvalue(), is_error=cgutils.is_not_null(c.builder, c.pyapi.err_occurred()))


@overload(operator.mul)
def pair_times(a, k):
    if isinstance(a, PairType) and isinstance(k, types.Number):
        return lambda a, k: (a.x + a.y) * k + %s
'''

PAIR_USER = '''
import ruchey
ruchey.install_as_numba()
import numba
import pairs

@numba.njit(cache=True)
def scaled(p):
    return p * 2.0

print(scaled(pairs.Pair(1.0, 2.0)), sum(scaled.stats.cache_hits.values()))
'''


def test_a_changed_operator_overload_of_a_value_type_is_compiled_again(tmp_path):
    # p * 2.0 of a package's value type runs the package's overload of
    # operator.mul, which no name in the function reaches: it is in the key
    (tmp_path / "pair_user.py").write_text(PAIR_USER)
    for constant, expected in [("0.0", "6.0"), ("100.0", "106.0")]:
        (tmp_path / "pairs.py").write_text(PAIRS % constant)
        assert run(tmp_path, "import pair_user") == [expected, "0"]
        assert run(tmp_path, "import pair_user") == [expected, "1"]


TYPES_READ = '''
import numba as nb
import numpy as np

@nb.njit(cache=True)
def widened(a):
    out = np.empty(a.size, dtype=np.uint32)
    for i in range(a.size):
        out[i] = nb.uint32(a[i]) * nb.uint32(3)
    return out

@nb.njit(cache=True)
def typed_list(n):
    rows = nb.typed.List.empty_list(nb.float64[:])
    for i in range(n):
        rows.append(np.full(i + 1, float(i)))
    return sum(r.sum() for r in rows)
'''


def test_functions_reading_types_from_the_numba_module_are_cached(tmp_path):
    (tmp_path / "typesread.py").write_text(TYPES_READ)
    code = """
    import warnings
    import numpy as np
    import ruchey
    ruchey.install_as_numba()
    warnings.simplefilter("error")  # (a function it could not cache would warn)
    import typesread as k
    a = np.random.default_rng(3).integers(0, 1000, 50)
    assert (k.widened(a) == k.widened.py_func(a)).all()
    assert k.typed_list(6) == k.typed_list.py_func(6)
    fs = (k.widened, k.typed_list)
    print(sum(sum(f.stats.cache_hits.values()) for f in fs), sum(sum(f.stats.cache_misses.values()) for f in fs))
    """
    assert hits_misses(tmp_path, code) == (0, 2)
    assert hits_misses(tmp_path, code) == (2, 0)


BITOPS = '''
import llvmlite.ir as ir
from ruchey import types
from ruchey.extending import intrinsic


@intrinsic
def popcount(typingctx, x):
    def codegen(context, builder, sig, args):
        fnty = ir.FunctionType(args[0].type, [args[0].type])
        ctpop = builder.module.declare_intrinsic("llvm.ctpop", [args[0].type], fnty)
        return builder.call(ctpop, args)
    return types.uint64(types.uint64), codegen
'''

INTRINSICS = '''
import numpy as np
from ruchey import njit, types
from ruchey.extending import intrinsic
from bitops import popcount


def made_here():
    @intrinsic
    def twice(typingctx, x):
        def codegen(context, builder, sig, args):
            return builder.add(args[0], args[0])
        return types.int64(types.int64), codegen
    return twice


TWICE = made_here()


@njit(cache=True)
def bits(a):
    n = 0
    for v in a:
        n += popcount(np.uint64(v))
    return n


@njit(cache=True)
def doubled(x):
    return TWICE(x)
'''


def test_a_function_calling_an_importable_intrinsic_is_cached(tmp_path):
    """Its IR is in the object code: a later process loads it (an intrinsic
    made inside a function, which no later process can find, is compiled
    each time, with the cache's warning)."""
    (tmp_path / "bitops.py").write_text(BITOPS)
    (tmp_path / "intrins.py").write_text(INTRINSICS)
    code = """
    import warnings
    import numpy as np
    import intrins as k
    a = np.random.default_rng(11).integers(0, 2 ** 62, 200).astype(np.uint64)
    expected = sum(bin(int(v)).count("1") for v in a)
    assert k.bits(a) == expected
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert k.doubled(21) == 42
    assert any("of type Intrinsic" in str(w.message) for w in caught), [str(w.message) for w in caught]
    print(*(sum(getattr(f.stats, c).values()) for f in (k.bits, k.doubled) for c in ("cache_hits", "cache_misses")))
    """
    assert run(tmp_path, code)[-4:] == ["0", "1", "0", "1"]
    assert run(tmp_path, code)[-4:] == ["1", "0", "0", "1"]
    # the intrinsic's codegen edited in its own module (the same instructions): compiled again, then loaded
    (tmp_path / "bitops.py").write_text(BITOPS.replace("builder.call(ctpop, args)",
                                                       "builder.call(ctpop, [args[0]])"))
    assert run(tmp_path, code)[-4:] == ["0", "1", "0", "1"]
    assert run(tmp_path, code)[-4:] == ["1", "0", "0", "1"]
