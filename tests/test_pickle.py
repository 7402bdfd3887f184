"""Compiled functions pickle: by reference where importable, by value
otherwise (defined in __main__, inside a function), so that multiprocessing
(fork, spawn, forkserver), concurrent.futures and Dask take them as
arguments. Each result is compared with the Python function's."""
import pickle

import numpy as np
import pytest
import ruchey
from ruchey import cuda

from conftest import AS_NUMBA, run_python_file

pytestmark = pytest.mark.skipif(AS_NUMBA, reason="ruchey's own pickling")


@ruchey.njit
def scaled_sum(x, k):
    return (x * k).sum()


@ruchey.njit(parallel=True, fastmath=True)
def parallel_norm(x):
    s = 0.0
    for i in ruchey.prange(x.shape[0]):
        s += x[i] * x[i]
    return np.sqrt(s)


@cuda.jit
def add_one(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] += 1


@ruchey.vectorize
def halved(x):
    return x / 2


@ruchey.guvectorize("(n),()->(n)")
def shifted(x, k, out):
    for i in range(x.shape[0]):
        out[i] = x[i] + k


def doubled_py(x):
    return x * 2.0


doubled = ruchey.vectorize(["float64(float64)", "int64(int64)"])(doubled_py)  # not the module's doubled_py


@ruchey.vectorize(["float64(float64, float64)"])
def hypot_static(x, y):
    return (x * x + y * y) ** 0.5


def make_closure(k):
    @ruchey.njit
    def times_k(x):
        return x * k
    return times_k


def test_an_importable_function_pickles_by_reference():
    for f in (scaled_sum, parallel_norm, add_one):
        data = pickle.dumps(f)
        assert b"test_pickle" in data and len(data) < 200
        assert pickle.loads(data) is f


def test_importable_dynamic_ufuncs_pickle_by_reference():
    """A @vectorize and a @guvectorize without signatures (Numba's DUFunc
    and dynamic GUFunc)."""
    for f in (halved, shifted):
        data = pickle.dumps(f)
        assert b"test_pickle" in data and len(data) < 200
        assert pickle.loads(data) is f


def test_importable_static_ufuncs_pickle_by_name():
    data = pickle.dumps(hypot_static)
    assert b"hypot_static" in data and len(data) < 200
    assert pickle.loads(data) is hypot_static


# NumPy before 2.2 takes no attributes on a ufunc: a static ufunc is not marked, and pickles by name alone
needs_ufunc_attributes = pytest.mark.skipif(np.lib.NumpyVersion(np.__version__) < "2.2.0",
                                            reason="NumPy before 2.2: ufuncs take no attributes (by name only)")


@needs_ufunc_attributes
def test_static_ufuncs_their_name_does_not_give_pickle_by_value():
    """A @vectorize or @guvectorize with signatures is a numpy.ufunc; bound
    to another name than its function's, or made inside a function, it
    pickles as Numba's ufunc objects do: by value, made again in the
    receiver (NumPy's ufuncs keep pickling by name)."""
    k = 1.5

    @ruchey.guvectorize(["void(float64[:], float64, float64[:])", "void(int64[:], int64, int64[:])"], "(n),()->(n)")
    def scaled_shift(x, c, out):
        for i in range(x.shape[0]):
            out[i] = x[i] * k + c

    rng = np.random.default_rng(5)
    for u, args in ((doubled, (rng.standard_normal(9),)), (doubled, (np.arange(-4, 5),)),
                    (scaled_shift, (rng.standard_normal((3, 4)), rng.standard_normal(3)))):
        again = pickle.loads(pickle.dumps(u))
        assert again is not u and isinstance(again, np.ufunc) and again.types == u.types
        got = again(*args)
        assert got.dtype == u(*args).dtype
        np.testing.assert_array_equal(got, u(*args))
    assert pickle.loads(pickle.dumps(np.add)) is np.add


def test_an_operands_array_ufunc_gets_the_dufunc_itself():
    """NEP 13 (Dask, xarray, pint): an operand's __array_ufunc__ is given
    the DUFunc, which pickles and compiles the loops its receiver needs,
    as Numba's, not the ufunc of the loops compiled so far."""
    class Wrapped:
        def __init__(self, array):
            self.array = array

        def __array_ufunc__(self, ufunc, method, *args, **kwargs):
            ufunc = pickle.loads(pickle.dumps(ufunc))  # sent to a worker
            return Wrapped(ufunc(*[a.array if isinstance(a, Wrapped) else a for a in args], **kwargs))

    @ruchey.vectorize
    def offset(x, y):
        return x - y * 3

    for x, y in ((np.arange(5.0), 2), (np.arange(6), np.arange(6)[::-1])):
        got = offset(Wrapped(x), y)
        assert isinstance(got, Wrapped)
        np.testing.assert_array_equal(got.array, offset.py_func(x, y))
        np.testing.assert_array_equal(offset(x, Wrapped(y)).array, offset.py_func(x, y))


def test_a_pickled_dufunc_keeps_its_loops_and_frozen_state():
    @ruchey.vectorize
    def over(a, b):
        return a if (a >> 24) == 255 else b

    over._compile_for_argtys((ruchey.uint32, ruchey.uint32))
    over._frozen = True
    again = pickle.loads(pickle.dumps(over))
    assert again._frozen and again.types == over.types == ["II->I"]
    a = np.array([0xFF000001, 5, 0xFF000007], np.uint32)
    b = np.array([9, 8, 7], np.uint32)
    np.testing.assert_array_equal(again(a, b), over(a, b))
    with pytest.raises(TypeError):
        again(np.ones(2), np.ones(2))  # no float64 loop, and none compiled


def test_local_dynamic_ufuncs_pickle_by_value():
    k = 3.0

    @ruchey.vectorize
    def scaled(x):
        return x * k

    @ruchey.guvectorize("(n)->()")
    def total(x, out):
        s = 0.0
        for v in x:
            s += v * k
        out[0] = s

    x = np.random.default_rng(16).random((4, 5))
    expected = np.empty(4)
    for i in range(4):
        total.py_func(x[i], expected[i:i + 1])
    scaled_again, total_again = pickle.loads(pickle.dumps((scaled, total)))
    assert scaled_again is not scaled and total_again is not total  # made again from their functions
    np.testing.assert_array_equal(scaled_again(x), scaled.py_func(x))
    out = np.empty(4)
    total_again(x, out)
    np.testing.assert_allclose(out, expected, rtol=1e-15)


def test_local_cuda_ufuncs_pickle_by_value():
    k = 3

    @ruchey.vectorize(["intp(intp)", ruchey.float64(ruchey.float64)], target="cuda")
    def scaled(x):
        return x * k

    rng = np.random.default_rng(17)
    for x in (np.arange(-5, 10), rng.standard_normal(33), np.array([np.nan, -np.inf, 0.0])):
        again = pickle.loads(pickle.dumps(scaled))
        twice = pickle.loads(pickle.dumps(again))
        assert again is not scaled and again.types == scaled.types
        for f in (again, twice):
            np.testing.assert_array_equal(f(x), scaled.py_func(x))


@needs_ufunc_attributes
def test_ufuncs_from_main_pickle_into_a_fresh_process(tmp_path):
    r = run_python_file("""
        import pickle, subprocess, sys
        import numpy as np
        import ruchey

        @ruchey.vectorize
        def cube(x):
            return x * x * x

        @ruchey.guvectorize("(n),()->(n)")
        def shift(x, k, out):
            for i in range(x.shape[0]):
                out[i] = x[i] + k

        @ruchey.vectorize(["int64(int64)"])
        def square(x):
            return x * x

        data = pickle.dumps((cube, shift, square))
        child = subprocess.run([sys.executable, "-c",
            "import pickle, sys, numpy as np; cube, shift, square = pickle.loads(sys.stdin.buffer.read()); "
            "out = np.empty(3); shift(np.arange(3.0), 0.5, out); "
            "print(cube(np.arange(4)).tolist(), out.tolist(), square(np.arange(3)).tolist())"],
            input=data, capture_output=True)
        print(child.stdout.decode(), child.stderr.decode()[-2000:])
    """, tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().startswith("[0, 1, 8, 27] [0.5, 1.5, 2.5] [0, 1, 4]"), r.stdout


def test_a_local_function_pickles_by_value_and_keeps_its_closure():
    three, five = make_closure(3), make_closure(5)
    assert three(2) == 6
    g3, g5 = pickle.loads(pickle.dumps(three)), pickle.loads(pickle.dumps(five))
    assert g3 is three and g5 is five  # the same process: the same objects
    assert (g3(7), g5(7)) == (21, 35)


def test_options_travel_with_a_function_pickled_by_value(tmp_path):
    @ruchey.njit(parallel=True, error_model="numpy", boundscheck=True)
    def divide(a, b):
        return a / b

    (tmp_path / "f.pkl").write_bytes(pickle.dumps(divide))
    r = run_python_file(f"""
        import pickle, math
        f = pickle.loads(open({str(tmp_path / 'f.pkl')!r}, "rb").read())
        print(f._ruchey_options, math.isinf(f(1.0, 0.0)))
    """, tmp_path)
    assert r.returncode == 0, r.stderr
    assert "'boundscheck': True" in r.stdout and "'error_model': 'numpy'" in r.stdout
    assert "'parallel': True" in r.stdout and r.stdout.strip().endswith("True")


def test_recursive_and_calling_functions_by_value_in_a_fresh_process(tmp_path):
    r = run_python_file("""
        import pickle, subprocess, sys
        import ruchey

        @ruchey.njit
        def fib(n):
            return n if n < 2 else fib(n - 1) + fib(n - 2)

        @ruchey.njit
        def fib_sum(n):
            return fib(n) + fib(n - 1)

        data = pickle.dumps((fib, fib_sum))
        child = subprocess.run([sys.executable, "-c",
            "import pickle, sys; f, g = pickle.loads(sys.stdin.buffer.read()); "
            "print(f(20), g(20), f.py_func(20), g.py_func is not None)"],
            input=data, capture_output=True)
        print(child.stdout.decode(), child.stderr.decode()[-2000:])
    """, tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split()[:4] == ["6765", "10946", "6765", "True"], r.stdout


def test_objmode_blocks_and_forceobj_functions_by_value_in_a_fresh_process(tmp_path):
    """A closure holding an objmode block (which calls a helper of its
    enclosing scope), and @jit(forceobj=True) functions local or of
    __main__, as multiprocessing and Dask send them."""
    r = run_python_file("""
        import pickle, subprocess, sys
        import numpy as np
        import ruchey
        from ruchey import objmode

        def make(k):
            def helper(v):
                return float(np.median(v.tolist())) * k

            @ruchey.njit
            def centred(a):
                with objmode(m="float64"):
                    m = helper(a)
                return a - m

            @ruchey.jit(forceobj=True)
            def described(a):
                return repr(a.tolist()) + str(k)
            return centred, described

        @ruchey.jit(forceobj=True)
        def top(x):
            return {"x": x}

        centred, described = make(2.0)
        a = np.array([1.0, 5.0, 2.0])
        want = (centred.py_func(a).tolist(), described.py_func(a), top.py_func(3))
        data = pickle.dumps((centred, described, top, a))
        assert pickle.loads(data)[0] is centred  # the same process: the same object
        child = subprocess.run([sys.executable, "-c",
            "import pickle, sys; f, g, h, a = pickle.loads(sys.stdin.buffer.read()); "
            "print(repr((f(a).tolist(), g(a), h(3))))"],
            input=data, capture_output=True)
        print(child.stdout.decode().strip() == repr(want), child.stderr.decode()[-2000:])
    """, tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("True"), r.stdout


@pytest.mark.parametrize("method", ["fork", "spawn", "forkserver"])
def test_multiprocessing_pool_maps_a_function_from_main(tmp_path, method):
    r = run_python_file(f"""
        import multiprocessing as mp
        import numpy as np
        import ruchey

        @ruchey.njit
        def helper(x):
            return x * x

        @ruchey.njit
        def work(seed):
            x = np.arange(seed, seed + 1000.0)
            s = 0.0
            for v in x:
                s += helper(v)
            return s

        if __name__ == "__main__":
            with mp.get_context({method!r}).Pool(2) as pool:
                got = pool.map(work, range(8))
            print(got == [work.py_func(i) for i in range(8)])
    """, tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().endswith("True"), r.stdout


def test_process_pool_executor_with_a_parallel_function_and_a_kernel(tmp_path):
    r = run_python_file("""
        from concurrent.futures import ProcessPoolExecutor
        import multiprocessing as mp
        import numpy as np
        import ruchey
        from ruchey import cuda

        @ruchey.njit(parallel=True)
        def total(x):
            s = 0.0
            for i in ruchey.prange(x.shape[0]):
                s += x[i]
            return s

        @cuda.jit
        def double(a):
            i = cuda.grid(1)
            if i < a.size:
                a[i] *= 2

        def launch(kernel, n):
            a = np.arange(n, dtype=np.float64)
            kernel[(n + 63) // 64, 64](a)
            return a.sum()

        if __name__ == "__main__":
            with ProcessPoolExecutor(2, mp_context=mp.get_context("spawn")) as ex:
                sums = list(ex.map(total, [np.arange(float(n)) for n in (10, 1000, 100000)]))
                launched = ex.submit(launch, double, 1000).result()
            print(sums == [45.0, 499500.0, 4999950000.0], launched == 999000.0)
    """, tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split()[-2:] == ["True", "True"], r.stdout


def test_a_function_unpickled_many_times_compiles_once(tmp_path):
    r = run_python_file("""
        import pickle, subprocess, sys
        import ruchey

        @ruchey.njit
        def inc(x):
            return x + 1

        inc(1)
        blob = pickle.dumps(inc).hex()
        code = ("import pickle, ruchey; b = bytes.fromhex(sys.argv[1]); "
                "fs = [pickle.loads(b) for _ in range(50)]; "
                "print(len({id(f) for f in fs}), [f(2) for f in fs[:3]], len(fs[0].signatures))")
        out = subprocess.run([sys.executable, "-c", "import sys; " + code, blob], capture_output=True, text=True)
        print(out.stdout, out.stderr[-2000:])
    """, tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("1 [3, 3, 3] 1"), r.stdout


def test_pickling_without_cloudpickle_names_what_to_do(tmp_path):
    r = run_python_file("""
        import pickle, sys
        sys.modules["cloudpickle"] = None  # as if not installed
        import ruchey

        def outer():
            @ruchey.njit
            def inner(x):
                return x
            return inner

        try:
            pickle.dumps(outer())
        except pickle.PicklingError as e:
            print("PicklingError:", e)
    """, tmp_path)
    assert r.returncode == 0, r.stderr
    assert "PicklingError" in r.stdout and "pip install cloudpickle" in r.stdout, r.stdout


def test_dask_distributed_maps_compiled_functions_over_workers(tmp_path):
    pytest.importorskip("distributed")
    r = run_python_file("""
        import numpy as np
        import ruchey
        import dask.array as da
        from dask.base import tokenize
        from distributed import Client, LocalCluster

        @ruchey.njit
        def smooth(block):
            out = np.empty_like(block)
            for i in range(block.shape[0]):
                out[i] = 0.5 * block[i] + 0.25
            return out

        @ruchey.njit
        def square(n):
            return n * n

        if __name__ == "__main__":
            assert tokenize(smooth) == tokenize(smooth) != tokenize(square)
            with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \\
                 Client(cluster) as client:
                x = da.from_array(np.arange(100000.0), chunks=10000)
                got = x.map_blocks(smooth, dtype=np.float64).compute()
                futures = client.map(square, range(20))
                squares = client.gather(futures)
                workers = len(client.scheduler_info()["workers"])
            print(np.array_equal(got, smooth.py_func(np.arange(100000.0))), squares == [n * n for n in range(20)], workers)
    """, tmp_path, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    assert r.stdout.split()[-3:] == ["True", "True", "2"], r.stdout


def test_numba_serialize_helpers_under_the_numba_shim(tmp_path):
    """numba.core.serialize's dumps, is_serializable, disable_pickling and
    ReduceMixin, which packages written for Numba call."""
    r = run_python_file("""
        import pickle
        import ruchey
        ruchey.install_as_numba()
        from numba.core.serialize import dumps, is_serializable, disable_pickling, ReduceMixin

        def make(k):
            return lambda x: x * k

        @disable_pickling
        class Handle:
            pass

        class Point(ReduceMixin):
            def __init__(self, x, y):
                self.x, self.y = x, y

            def _reduce_states(self):
                return dict(x=self.x, y=self.y)

            @classmethod
            def _rebuild(cls, x, y):
                return cls(x, y)

        f = pickle.loads(dumps(make(3)))  # a closure: by value
        p = pickle.loads(pickle.dumps(Point(1, 2.5)))
        print(f(2), (p.x, p.y), is_serializable(make(2)), is_serializable(Handle()), is_serializable([Handle()]))
    """, tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["6", "(1,", "2.5)", "True", "False", "False"], r.stdout


def test_loading_a_pickled_class_again_keeps_the_attributes_set_since(tmp_path):
    """numba.core.serialize.dumps of a class defined in a function (pickled by
    value): loading it where the class already is (the process that pickled
    it, or one that loaded it before) gives that class with the attributes it
    has now, as Numba's; a fresh process gets those pickled."""
    r = run_python_file("""
        import pickle, subprocess, sys
        import ruchey
        ruchey.install_as_numba()
        from numba.core.serialize import dumps

        def make():
            class Klass:
                classvar = None

                def scaled(self, k):
                    return Klass.classvar * k
            return Klass

        Klass = make()
        saved = dumps(Klass)
        Klass.classvar = 100
        again = pickle.loads(saved)
        pickle.loads(saved)
        print(again is Klass, Klass.classvar, Klass().scaled(3))
        child = subprocess.run([sys.executable, "-c",
            "import pickle, sys; data = sys.stdin.buffer.read(); K = pickle.loads(data); before = K.classvar; "
            "K.classvar = 7; K2 = pickle.loads(data); print(before, K2 is K, K.classvar, K().scaled(2))"],
            input=saved, capture_output=True)
        print(child.stdout.decode(), child.stderr.decode()[-2000:])
    """, tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split()[:7] == ["True", "100", "300", "None", "True", "7", "14"], r.stdout


def test_numba_cloudpickle_under_the_numba_shim_keeps_a_reloaded_class(tmp_path):
    """numba.cloudpickle (Numba's own copy, whose dumps and loads packages
    and Numba's tests import) is ruchey.serialize's dumps, pickle's loads and
    cloudpickle's other names."""
    r = run_python_file("""
        import pickle
        import ruchey
        ruchey.install_as_numba()
        from numba.cloudpickle import dumps, loads, CloudPickler

        def make():
            class Klass:
                classvar = None
            return Klass

        Klass = make()
        saved = dumps(Klass)
        Klass.classvar = 100
        print(loads(saved) is Klass, Klass.classvar, CloudPickler.__module__.split(".")[0])
    """, tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["True", "100", "cloudpickle"], r.stdout


def make_local_jitclass():
    from ruchey import float64, int64
    from ruchey.experimental import jitclass

    @jitclass([("x", float64), ("n", int64)])
    class Counted:
        def __init__(self, x):
            self.x = x
            self.n = 3

        def scaled(self, k):
            return self.x * k + self.n
    return Counted


def test_a_local_jitclass_instance_type_pickles_to_itself():
    """Numba's jitclass instance types pickle (a type in a signature sent
    to a worker): loaded in the same process, the very type."""
    Counted = make_local_jitclass()
    ty = ruchey.typeof(Counted(1.0))
    for proto in range(2, pickle.HIGHEST_PROTOCOL + 1):
        assert pickle.loads(pickle.dumps(ty, proto)) is ty
    from ruchey.experimental import jitclass

    @jitclass
    class Empty:
        def __init__(self):
            pass
    assert pickle.loads(pickle.dumps(ruchey.typeof(Empty()))) is ruchey.typeof(Empty())


def test_a_local_jitclass_instance_type_rebuilds_its_class_in_a_fresh_process(tmp_path):
    r = run_python_file("""
        import pickle, subprocess, sys
        import numpy as np
        import ruchey
        from ruchey import float64, int64
        from ruchey.experimental import jitclass

        def make():
            @jitclass([("x", float64), ("n", int64)])
            class Counted:
                def __init__(self, x):
                    self.x = x
                    self.n = 3

                def scaled(self, k):
                    return self.x * k + self.n

                @property
                def twice(self):
                    return self.x * 2
            return Counted

        Counted = make()
        data = pickle.dumps(ruchey.typeof(Counted(1.0)))
        child = subprocess.run([sys.executable, "-c",
            "import pickle, sys; t = pickle.loads(sys.stdin.buffer.read()); c = t.jitclass(2.5); "
            "print(t, c.scaled(4.0), c.twice, pickle.loads(pickle.dumps(t)) is t)"],
            input=data, capture_output=True)
        print(child.stdout.decode(), child.stderr.decode()[-2000:])
        c = Counted(2.5)
        print(c.scaled(4.0), c.twice)
    """, tmp_path)
    assert r.returncode == 0, r.stderr
    words = r.stdout.split()
    assert words[0].startswith("instance.jitclass.Counted") and words[1:4] == ["13.0", "5.0", "True"], r.stdout
    assert words[-2:] == ["13.0", "5.0"], r.stdout
