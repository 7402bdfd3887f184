"""numba-cuda's own test suite as an oracle: its kernel tests run with
ruchey.cuda in numba.cuda's place, each module in a process of its own.

    python3 bench/numba_cuda_tests.py [MODULE ...] [-k SUBSTRING] [-v] [--simulator-skips]

MODULE is a module under numba.cuda.tests (cudapy.test_warp_ops,
doc_examples.test_vecadd); the default is every cudapy and doc_examples
test module. numba-cuda (NUMBA_CUDA below, with the CUDA Python bindings
its import needs) is installed on first use into build/numba-cuda with
pip --target, outside any environment, and loaded from there.

numba-cuda's tests launch kernels and compare what they wrote with NumPy's
results. They are imported under numba-cuda's simulator
(NUMBA_ENABLE_CUDASIM=1: they import without a GPU); the tests it skips on
its simulator run (warp functions, atomics and more that ruchey has; most
of the rest read what only numba-cuda's GPU compile makes: PTX, SASS, LLVM,
driver objects), unless --simulator-skips; then ruchey is registered as numba and the names a module
took from numba and numba.cuda (``cuda``, ``int32``, ``compile_ptx``,
kernels it compiled as it loaded) are rebound to ruchey's, as
bench/numba_tests.py does for Numba's own tests. Kernels run on ruchey's
CPU backend where there is no GPU. Many failures are not gaps: tests that
read the simulator's own objects, or numba-cuda's wording of an error.
"""
import argparse
import functools
import importlib
import os
import site
import subprocess
import sys
import time
import types as pytypes
import unittest
import warnings

import numba_tests

HERE = os.path.dirname(os.path.abspath(__file__))
TARGET = os.path.join(os.path.dirname(HERE), "build", "numba-cuda")
NUMBA_CUDA = ("numba-cuda==0.30.4", "cuda-bindings==13.*", "cuda-core<1", "cuda-pathfinder", "filecheck",
              "ml_dtypes")
TIMEOUT = 1200
# numba.cuda's home under ruchey, beside Numba's (a kernel test takes cuda, its types and compile_ptx there)
HOMES = ("numba.cuda",) + numba_tests.HOMES
SUPPORT = numba_tests.TEST_SUPPORT[1:]  # (numba-cuda's)


def ensure_numba_cuda():
    """Installs numba-cuda and its bindings into TARGET if they are not there."""
    if os.path.isdir(os.path.join(TARGET, "numba_cuda")):
        return
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", TARGET, *NUMBA_CUDA],
                   check=True)


def is_support(value):
    name = value.__name__ if hasattr(value, "__path__") else getattr(value, "__module__", "") or ""
    return isinstance(name, str) and name.startswith(SUPPORT)


def simulator_kernels(module):
    """The module's kernels and device functions that numba-cuda's simulator
    compiled as it loaded (@cuda.jit at the top level), made again with
    ruchey.cuda.jit: name -> ruchey's."""
    from numba.cuda.simulator.kernel import FakeCUDAKernel
    import ruchey.cuda
    return {name: ruchey.cuda.jit(device=value._device, fastmath=value._fastmath, debug=value._debug)(value.fn)
            for name, value in vars(module).items() if isinstance(value, FakeCUDAKernel)}


def rebind_cuda(module, helpers):
    """Points the names module and its helpers took from numba and numba.cuda at ruchey's."""
    import ruchey.numba_shim
    from numba.core.dispatcher import Dispatcher  # (Numba's: CPU functions the module compiled)
    kernels = {helper: simulator_kernels(helper) for helper in (module, *helpers)}
    overloads = cuda_overloaded([module, *helpers])
    ruchey.numba_shim.install_as_numba()
    import ruchey.extending
    for func, template in overloads:  # @overload(func, target=...) at the module's top level, registered again
        ruchey.extending.overload(func, prefer_literal=template.prefer_literal,
                                  target=template.metadata.get("target", "cuda"))(template._overload_func)
    homes = [importlib.import_module(name) for name in HOMES]
    for holder in (module, *helpers):
        for name, kernel in kernels[holder].items():
            setattr(holder, name, kernel)
        rebind_random(holder)
        rebind_vector_types(holder)
        rebind_launch_error(holder)
        rebind_simulator_nones(holder, homes[0])
        rebind_simulator_modules(holder)
        rebind_libdevice_table(holder, homes, Dispatcher)
        rebind_numbas_own(holder, Dispatcher)
        numba_tests.rebind_names(holder, homes, Dispatcher)
        rebind_items(holder, homes, Dispatcher)
        numba_tests.rebind_type_values(holder)  # (def make(dtype=float32): its functions' defaults)
    for namespace in exec_namespaces(module, helpers):
        numba_tests.rebind_names(namespace, homes, Dispatcher)
    for value in list(vars(module).values()):
        if isinstance(value, type) and value.__module__ == module.__name__:
            numba_tests.rebind_names(value, homes, Dispatcher)
            numba_tests.rebind_type_values(value)
            without_nrt_stats(value)


def without_nrt_stats(test_class):
    """numba-cuda's MemoryLeakMixin off in a test class: it counts the
    allocations of numba-cuda's NRT, which ruchey's kernels never make (its
    simulator has no such counts)."""
    def nothing(self):
        pass
    for base in test_class.__mro__:
        if base.__name__ == "EnableNRTStatsMixin":
            base.setUp = base.tearDown = nothing
        elif base.__name__ == "MemoryLeak":
            base.memory_leak_setup = base.memory_leak_teardown = nothing


def rebind_random(holder):
    """Points the draws holder took from numba.cuda.random (Numba CPU functions
    under the simulator, which rebind_names would compile again) at ruchey.cuda.random's."""
    import ruchey.cuda.random
    for name, value in list(vars(holder).items()):
        if getattr(value, "__module__", None) == "numba.cuda.random" and hasattr(ruchey.cuda.random, name):
            setattr(holder, name, getattr(ruchey.cuda.random, name))


def rebind_vector_types(holder):
    """Points the simulator's table of vector types (all of them float32 there) that holder
    took at ruchey.cuda.vector_types' (name -> constructor, with numba-cuda's attributes)."""
    import ruchey.cuda.vector_types
    for name, value in list(vars(holder).items()):
        if isinstance(value, dict) and value and all(
                getattr(v, "__module__", None) == "numba.cuda.simulator.vector_types" for v in value.values()):
            setattr(holder, name, ruchey.cuda.vector_types.vector_types)


def rebind_launch_error(holder):
    """Points the error class of a failed launch that holder took from
    cuda.core (CUDAError: numba-cuda launches through cuda.core) at ruchey's
    CudaError, which ruchey's launches raise with the driver's error name."""
    import ruchey.cuda
    for name, value in list(vars(holder).items()):
        if isinstance(value, type) and value.__name__ == "CUDAError" and value.__module__.startswith("cuda.core."):
            setattr(holder, name, ruchey.cuda.CudaError)


def rebind_numbas_own(holder, dispatcher):
    """Points the names holder took from Numba itself (from numba import jit) at ruchey's
    under Numba's homes alone: numba.cuda, first among HOMES, holds others of the same
    names (its jit is cuda.jit)."""
    taken = {name: value for name, value in vars(holder).items()
             if not name.startswith("__") and not isinstance(value, pytypes.ModuleType)
             and numba_tests.taken_from_numba(value)
             and not (getattr(value, "__module__", None) or "").startswith("numba.cuda")}
    namespace = Namespace(dict(taken))
    numba_tests.rebind_names(namespace, [importlib.import_module(name) for name in numba_tests.HOMES], dispatcher)
    for name, value in vars(namespace).items():
        if value is not taken[name]:
            setattr(holder, name, value)


def rebind_simulator_nones(holder, cuda):
    """The names holder took from numba-cuda that its simulator leaves None
    (from numba.cuda.compiler import compile_ptx; from numba.cuda.cudadrv.devicearray
    import DeviceRecord), pointed at ruchey.cuda's or its cudadrv.devicearray's."""
    homes = (cuda, cuda.cudadrv.devicearray)
    for name, value in list(vars(holder).items()):
        found = next((getattr(home, name) for home in homes if getattr(home, name, None) is not None), None)
        if value is None and not name.startswith("_") and found is not None:
            setattr(holder, name, found)


def rebind_simulator_modules(holder):
    """The modules holder took from numba-cuda's driver package (from numba.cuda.cudadrv import
    driver), the simulator's stand-ins under it, pointed at ruchey.cuda.cudadrv's of the same
    name: registered as numba, the simulator's would be a module of placeholders whose calls
    answer anything (a test's ``while driver.driver.pop_active_context() is not None`` looped)."""
    import ruchey.cuda.cudadrv
    prefix = "numba.cuda.simulator.cudadrv."
    for name, value in list(vars(holder).items()):
        module = getattr(value, "__name__", None) if isinstance(value, pytypes.ModuleType) else None
        if module and module.startswith(prefix) and hasattr(ruchey.cuda.cudadrv, module[len(prefix):]):
            setattr(holder, name, getattr(ruchey.cuda.cudadrv, module[len(prefix):]))


def fill_simulator_intrinsics():
    """The kernel intrinsics numba-cuda's simulator leaves None (cuda.ldca),
    ruchey.cuda's from the start: a module's tables of them
    (load_operators = ((cuda.ldca, "ca"), ...)) hold them before any
    rebinding, where no name says which each None was."""
    import numba.cuda
    import ruchey.cuda
    from ruchey.cuda.intrinsics import _Intrinsic
    for name, value in list(vars(numba.cuda).items()):
        if value is None and isinstance(getattr(ruchey.cuda, name, None), _Intrinsic):
            setattr(numba.cuda, name, getattr(ruchey.cuda, name))


def rebind_libdevice_table(holder, homes, dispatcher):
    """numba-cuda's table of libdevice functions (name -> (return type,
    [arg(name, ty, is_ptr)])) and its create_signature, which test_libdevice
    reads as it runs, in ruchey's types: the test compiles a call of each."""
    make = vars(holder).get("create_signature")
    if getattr(make, "__module__", None) != "numba.cuda.libdevicefuncs":
        return
    names = make.__globals__  # (the table's module: its float32, Tuple and signature)
    numba_tests.rebind_names(Namespace(names), homes, dispatcher)
    table = names["functions"]
    for name, (retty, args) in table.items():
        table[name] = (numba_tests.ours(retty), [a._replace(ty=numba_tests.ours(a.ty)) for a in args])


def rebind_items(holder, homes, dispatcher):
    """Numba's values in holder's lists and tuples (signatures = [int32(int32, int32)],
    vectorize_funcs = [cuda_vectorize, partial(numba_vectorize, target="cuda")])."""
    for name, value in list(vars(holder).items()):
        if type(value) in (list, tuple) and not name.startswith("__"):
            setattr(holder, name, type(value)(ruchey_item(item, homes, dispatcher) for item in value))


def ruchey_item(value, homes, dispatcher):
    if isinstance(value, functools.partial):
        return functools.partial(ruchey_item(value.func, homes, dispatcher), *value.args, **value.keywords)
    if not numba_tests.taken_from_numba(value):
        return value
    if hasattr(value, "return_type") and hasattr(value, "args"):  # a signature: return_type(*args)
        return numba_tests.ours(value.return_type)(*(numba_tests.ours(a) for a in value.args))
    name = getattr(value, "__name__", None)
    holder = Namespace({name if isinstance(name, str) else "item": value})
    numba_tests.rebind_names(holder, homes, dispatcher)
    return next(iter(vars(holder).values()))


def cuda_overloaded(modules):
    """The modules' functions that numba-cuda's @overload registered, each
    with its template (which holds the typer function and the target), and
    those Numba's own @overload(func, target="cuda") registered (numba-cuda
    takes them in kernels where Numba is installed)."""
    from numba.cuda import HAS_NUMBA, types
    from numba.cuda.typing.templates import builtin_registry
    names = {m.__name__ for m in modules}
    found = [(func, typ) for func, typ in builtin_registry.globals if isinstance(typ, types.Function)]
    if HAS_NUMBA:  # (Numba itself, beside numba-cuda)
        from numba.core import types as numbas_types
        from numba.core.typing.templates import builtin_registry as numbas_registry
        found += [(func, typ) for func, typ in numbas_registry.globals if isinstance(typ, numbas_types.Function)
                  and getattr(typ.templates[0], "metadata", {}).get("target") == "cuda"]
    return [(func, typ.templates[0]) for func, typ in found
            if isinstance(func, pytypes.FunctionType) and func.__module__ in names
            and hasattr(typ.templates[0], "_overload_func")]


def exec_namespaces(module, helpers):
    """The globals of functions the modules made with exec() as they loaded
    (exec(source, {"cuda": cuda, ...})), each as an object whose attributes are them."""
    own = {id(vars(m)) for m in (module, *helpers)}
    found = {}
    for holder in (module, *helpers):
        for value in vars(holder).values():
            if isinstance(value, pytypes.FunctionType) and id(value.__globals__) not in own:
                found[id(value.__globals__)] = value.__globals__
    return [Namespace(names) for names in found.values()]


class Namespace:
    """A dict of names read and written as an object's attributes (vars() gives the dict itself)."""

    def __init__(self, names):
        self.__dict__ = names


def run_anyway(reason):
    """numba-cuda's skip_on_cudasim, for ruchey: the test runs."""
    return lambda test: test


def run_module(name, substring, keep_simulator_skips, tracebacks=False):
    """In this process: runs one module's tests; prints its counts and
    failures (with their whole tracebacks where asked)."""
    warnings.simplefilter("ignore")
    site.addsitedir(TARGET)  # (its .pth sends numba.cuda to numba-cuda's package)
    os.environ["NUMBA_ENABLE_CUDASIM"] = "1"
    import ruchey  # noqa: F401  (first: it keeps the source of functions compiled from strings)
    import numba.cuda.testing
    if not keep_simulator_skips:  # (ruchey runs what the simulator cannot: warp functions, atomics...)
        numba.cuda.testing.skip_on_cudasim = run_anyway
    fill_simulator_intrinsics()
    try:
        module = importlib.import_module("numba.cuda.tests." + name)
    except unittest.SkipTest as skip:  # (a module numba-cuda's simulator cannot run at all)
        print(f"COUNTS {name} 0 0 1\nSKIPPED {name} :: {skip}")
        return
    kept = {key: value for key, value in sys.modules.items() if key.startswith(SUPPORT)}
    helpers = [value for key, value in kept.items() if key != module.__name__ and hasattr(value, "__file__")
               and os.path.basename(value.__file__ or "").endswith("usecases.py")]
    rebind_cuda(module, helpers)
    sys.modules.update(kept)  # (registering ruchey dropped every numba.* module)
    sys.meta_path.insert(0, numba_tests.TestsFinder(SUPPORT, None, kept))
    tests = [*numba_tests.tests_of(unittest.defaultTestLoader.loadTestsFromModule(module)), *module_functions(module)]
    numba_tests.run_tests(name, tests, substring, 4, tracebacks)


def module_functions(module):
    """The module's test functions of its own (pytest's kind, def test_matmul():), as test cases."""
    return [unittest.FunctionTestCase(value) for name, value in vars(module).items()
            if name.startswith("test") and isinstance(value, pytypes.FunctionType)
            and value.__module__ == module.__name__]


def all_modules():
    site.addsitedir(TARGET)
    folder = os.path.join(TARGET, "numba_cuda", "numba", "cuda", "tests")
    return [f"{sub}.{f[:-3]}" for sub in ("cudapy", "doc_examples")
            for f in sorted(os.listdir(os.path.join(folder, sub))) if f.startswith("test_") and f.endswith(".py")]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("modules", nargs="*", help="modules under numba.cuda.tests (default: cudapy and doc_examples)")
    parser.add_argument("-k", default="", help="only tests whose id holds this")
    parser.add_argument("-v", action="store_true", help="print each failing test (with --worker: its traceback)")
    parser.add_argument("--simulator-skips", action="store_true",
                        help="skip what numba-cuda skips on its simulator (most of it reads a GPU compile's output)")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        return run_module(args.worker, args.k, args.simulator_skips, args.v)
    ensure_numba_cuda()
    modules = args.modules or all_modules()
    extra = ["--simulator-skips"] if args.simulator_skips else []
    return numba_tests.run_modules(__file__, modules, args.k, args.v, TIMEOUT, extra)


if __name__ == "__main__":
    sys.exit(main())
