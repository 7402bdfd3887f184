"""Numba's own test suite as an oracle: its test modules run with ruchey in
Numba's place, each in a process of its own.

    python3 bench/numba_tests.py [MODULE ...] [-k SUBSTRING] [--all]

Numba's tests compile a plain Python function and compare the compiled
result with the function's own (or expect an exception), so they state
what Numba compiles and what it gives. A module is imported under the
installed Numba, then ruchey is registered as numba
(``ruchey.install_as_numba()``, as packages written for Numba run) and
every name the module took from numba (``njit``, ``jit``, ``types``,
``typed.List``, ``TypingError``...) is rebound to ruchey's, so its tests
compile with ruchey and check against Numba's expectations; functions
that Numba's ``@jit`` compiled as the module (or a helper module of
usecases) loaded are compiled by ruchey, its classes of ``@jitclass``
made again by ruchey's, those of ``@register_jitable`` registered with
ruchey's.

Prints per module the tests run, failed and skipped, and with -v each
failing test with the first lines of its error. Many failures are not
gaps: a test that reads Numba's internals (its IR, typing templates,
NRT statistics), or that expects Numba's own wording of an error where
ruchey raises the same exception class with its own words. MODULES
below are the modules about the language, NumPy and Numba's API as
programs call it (not Numba's compiler passes); --all runs every test
module Numba installed. `--worker MODULE -k NAME -v` runs one module in
this process and prints each failure's whole traceback.
"""
import argparse
import functools
import importlib
import importlib.abc
import importlib.machinery
import os
import re
import subprocess
import sys
import time
import types as pytypes
import unittest
import warnings

MODULES = (
    "test_np_functions", "test_array_methods", "test_array_reductions", "test_array_manipulation",
    "test_array_attr", "test_array_exprs", "test_array_constants", "test_array_return",
    "test_array_iterators", "test_dyn_array", "test_fancy_indexing", "test_indexing", "test_slices",
    "test_storeslice", "test_sort", "test_nan", "test_ufuncs", "test_linalg", "test_random",
    "test_np_randomgen", "test_polynomial", "test_npdatetime", "test_record_dtype",
    "test_recarray_usecases", "test_unicode_array", "test_builtins", "test_mathlib",
    "test_operators", "test_complex", "test_numberctor", "test_numbers", "test_range", "test_maxmin",
    "test_python_int", "test_casting", "test_conversion", "test_intwidth", "test_hashing",
    "test_unicode", "test_print", "test_tuples", "test_lists", "test_dicts", "test_sets",
    "test_typedlist", "test_dictobject", "test_setobject", "test_listobject", "test_generators",
    "test_comprehension", "test_closure", "test_iteration", "test_optional", "test_exceptions",
    "test_try_except", "test_unpack_sequence", "test_heapq", "test_enums", "test_map_filter_reduce",
    "test_recursion", "test_jitclasses", "test_globals", "test_usecases", "test_getitem_on_types",
    "test_mixed_tuple_unroller", "test_function_type", "test_vectorization_type_inference",
    "test_nested_calls", "test_blackscholes", "test_mandelbrot", "test_stencils", "test_parfors",
    # Numba's API as programs call it: ufunc building, C functions and buffers, the extension API, object
    # mode, the dispatcher, pickling
    "npyufunc.test_dufunc", "npyufunc.test_gufunc", "npyufunc.test_ufuncbuilding", "npyufunc.test_vectorize_decor",
    "npyufunc.test_errors", "npyufunc.test_update_inplace", "test_cfunc", "test_ctypes", "test_cffi",
    "test_buffer_protocol", "test_typeof", "test_extending", "test_struct_ref", "test_withlifting",
    "test_dispatcher", "test_jit_module", "test_fastmath", "test_make_function_to_jit_function", "test_serialize",
)
TIMEOUT = 1800
# the names under which ruchey, registered as numba, offers what a test module took from numba
HOMES = ("numba", "numba.core.types", "numba.typed", "numba.core.errors", "numba.extending",
         "numba.np.numpy_support", "numba.experimental", "numba.cloudpickle")
# switches of Numba's own pipeline (its NRT, its array-expression rewrites, its wrappers) that some
# tests pass to jit to test one of its passes alone; the result is the same with them or without
PIPELINE_FLAGS = ("_nrt", "no_rewrites", "no_cpython_wrapper", "no_cfunc_wrapper")
# test packages and their support (Numba's, numba-cuda's): read as they are, never rebound to ruchey's
TEST_SUPPORT = ("numba.tests", "numba.cuda.tests", "numba.cuda.testing")


def taken_from_numba(value):
    """Whether a test module's global came from Numba (not from its test support)."""
    if isinstance(value, functools.partial):  # (Numba's register_model is one)
        value = value.func
    if isinstance(value, pytypes.ModuleType):
        name = value.__name__
    else:
        name = getattr(value, "__module__", None) or getattr(type(value), "__module__", "")
    return isinstance(name, str) and (name == "numba" or name.startswith("numba.")) \
        and not name.startswith(TEST_SUPPORT)


def rebind(module, helpers=()):
    """Points the names module took from Numba at ruchey's, registered as numba,
    and the functions it and its helper modules (usecases) compiled as they loaded."""
    import ruchey.extending
    import ruchey.numba_shim
    from numba.core.dispatcher import Dispatcher
    from numba.experimental.jitclass.base import JitClassType
    jitable = jitables([module, *helpers])  # (read before Numba's modules are replaced)
    overloads = overloaded([module, *helpers])
    ruchey.numba_shim.install_as_numba()
    homes = [importlib.import_module(name) for name in HOMES]
    rebound = rebind_names(module, homes, Dispatcher)
    rebind_closures(module, homes, Dispatcher)
    for name, value in list(vars(module).items()):
        made = rejitclass(value) if isinstance(value, JitClassType) else None
        if made is not None:
            setattr(module, name, made)
            rebound.append(name)
    for func in jitable:  # the function itself is the module's: registered, it compiles where called
        ruchey.extending.register_jitable(func)
    for func, template in overloads:  # @overload(func) at the module's top level, registered again
        ruchey.extending.overload(func, prefer_literal=template.prefer_literal)(template._overload_func)
    for helper in helpers:  # (a test base class's module too: test_numpy_support's ValueTypingTestBase reads types)
        rebound += rebind_names(helper, homes, Dispatcher)
    # test classes keep some in attributes too (listimpl = typed.List)
    for value in list(vars(module).values()):
        if isinstance(value, type) and value.__module__ == module.__name__:
            rebound += rebind_names(value, homes, Dispatcher)
            rebind_type_values(value)
    return rebound


def ours(value):
    """A Numba scalar type (types.int8) as ruchey's of its name, in tuples too, and a pointer type
    (CPointer(float32), voidptr) or a signature of such types (void(CPointer(float32), intp)) as
    ruchey's; other values as they are."""
    if type(value) is tuple:
        return tuple(ours(v) for v in value)
    if taken_from_numba(value) and not isinstance(value, (type, pytypes.ModuleType)):
        import ruchey.types
        kind = type(value).__name__
        if kind == "RawPointer" and str(value) == "void*":
            return ruchey.types.voidptr
        if kind in ("CPointer", "Signature"):
            try:
                return ruchey.types.CPointer(ours(value.dtype)) if kind == "CPointer" else \
                    ruchey.types.Signature(ours(value.return_type), ours(tuple(value.args)))
            except TypeError:  # (of a type ruchey has not)
                return value
        mine = getattr(ruchey.types, str(value), None)
        if isinstance(mine, (ruchey.types.Type, ruchey.types.NoneType)):  # (types.none, types.void too)
            return mine
    return value


def rebind_type_values(cls):
    """Numba types a test class took when it was defined, before ruchey came in: in lists or
    tuples of its attributes (int_types = [types.int8, ...]), its methods' defaults
    (def test_x(self, int_type=types.int64)) and the variables its methods made by a
    template close over (setattr(cls, name, template(fromty, toty)))."""
    for name, value in list(vars(cls).items()):
        if type(value) in (list, tuple):  # (not a named tuple of a test's own)
            mine = type(value)(ours(v) for v in value)
            if mine != value:  # (a ctypes Structure's _fields_, final, hold no type of Numba's)
                setattr(cls, name, mine)
        elif isinstance(value, pytypes.FunctionType):
            if value.__defaults__:
                value.__defaults__ = tuple(ours(v) for v in value.__defaults__)
            for cell in value.__closure__ or ():
                try:
                    cell.cell_contents = ours(cell.cell_contents)
                except ValueError:  # (a cell not bound yet)
                    pass


def jitables(modules):
    """The modules' functions that Numba's @register_jitable registered (it
    returns the function itself, so only Numba's registry tells)."""
    from numba.core.typing.templates import builtin_registry
    names = {m.__name__ for m in modules}
    return [func for func, _ in builtin_registry.globals
            if isinstance(func, pytypes.FunctionType) and func.__module__ in names]


def overloaded(modules):
    """The modules' functions that Numba's @overload registered, each with its
    template (which holds the overload's typer function)."""
    from numba.core import types
    from numba.core.typing.templates import builtin_registry
    names = {m.__name__ for m in modules}
    return [(func, typ.templates[0]) for func, typ in builtin_registry.globals
            if isinstance(func, pytypes.FunctionType) and func.__module__ in names
            and isinstance(typ, types.Function) and hasattr(typ.templates[0], "_overload_func")]


def rejit(dispatcher):
    """A function the module compiled with Numba as it loaded (@jit at its
    top level), compiled with ruchey instead, with the options ruchey takes."""
    import ruchey
    from ruchey.decorators import _OPTIONS
    options = {key: value for key, value in dispatcher.targetoptions.items()
               if key in _OPTIONS and key != "cache" and value is not None}
    return ruchey.jit(**options)(dispatcher.py_func)


def rejitclass(cls):
    """A class the module made with Numba's @jitclass as it loaded (at its top
    level), made again by ruchey's from the same Python class and fields (of
    types ruchey's of the same name); None where a field's type has none."""
    from ruchey.experimental import jitclass
    spec = [(name, ours(t)) for name, t in cls.class_type.struct.items()]
    if any(taken_from_numba(t) for _, t in spec):
        return None
    return jitclass(cls.mro()[1], spec)  # (Numba's class derives from the Python one)


def rebind_names(holder, homes, numba_dispatcher):
    """Rebinds holder's (a module's or a class's) names that came from Numba."""
    rebound = []
    for name, value in list(vars(holder).items()):
        if isinstance(value, numba_dispatcher):
            setattr(holder, name, rejit(value))
            rebound.append(name)
            continue
        if name.startswith("__") or not taken_from_numba(value):
            continue
        decorator = ruchey_decorator(value)
        if decorator is not None:
            setattr(holder, name, decorator)
            rebound.append(name)
            continue
        if ours(value) is not value:  # a Numba scalar type the module keeps (gv_type = types.intp)
            setattr(holder, name, ours(value))
            rebound.append(name)
            continue
        if isinstance(value, pytypes.ModuleType):
            try:
                setattr(holder, name, importlib.import_module(value.__name__))
                rebound.append(name)
            except ImportError:
                pass
            continue
        for home, key in places_of(name, value, homes):
            found = getattr(home, key, None) if isinstance(key, str) else None
            if found is not None and type(found).__name__ != "_Placeholder":
                if key in ("jit", "njit"):
                    found = without_pipeline_flags(found)
                setattr(holder, name, found)
                rebound.append(name)
                break
    return rebound


def rebind_closures(module, homes, numba_dispatcher):
    """Numba's functions that the module's functions closed over as it loaded
    (carray_usecase = make_cfarray_usecase(carray)), rebound to ruchey's."""
    for func in list(vars(module).values()):
        if not (isinstance(func, pytypes.FunctionType) and func.__module__ == module.__name__):
            continue
        for cell in func.__closure__ or ():
            try:
                value = cell.cell_contents
            except ValueError:  # (a cell not bound yet)
                continue
            if isinstance(value, pytypes.FunctionType) and taken_from_numba(value):
                holder = pytypes.SimpleNamespace(**{value.__name__: value})
                if rebind_names(holder, homes, numba_dispatcher):
                    cell.cell_contents = getattr(holder, value.__name__)


def without_pipeline_flags(decorator):
    """ruchey's jit or njit, taking and dropping Numba's PIPELINE_FLAGS."""
    def decorate(*args, **options):
        for flag in PIPELINE_FLAGS:
            options.pop(flag, None)
        return decorator(*args, **options)
    decorate.__wrapped__ = decorator
    return decorate


def ruchey_decorator(value):
    """A decorator a test module made with Numba's jit at import
    (nrtjit = jit(_nrt=True, nopython=True)) made again with ruchey's, with
    the same signatures and options less Numba's pipeline flags; None for
    anything else."""
    if not (isinstance(value, pytypes.FunctionType) and value.__module__ == "numba.core.decorators"
            and value.__name__ == "wrapper"):
        return None
    import inspect
    import ruchey
    taken = inspect.getclosurevars(value).nonlocals
    if "targetoptions" not in taken or taken.get("target") not in (None, "cpu"):
        return None
    options = {k: v for k, v in taken["targetoptions"].items() if k not in PIPELINE_FLAGS}
    if taken.get("locals"):
        options["locals"] = taken["locals"]
    if taken.get("cache"):
        options["cache"] = True
    sigs = taken.get("sigs")
    if sigs and not all(isinstance(sig, str) for sig in sigs):
        return None  # Numba's own type objects, which ruchey's jit does not read
    return ruchey.jit(list(sigs), **options) if sigs else ruchey.jit(**options)


def places_of(name, value, homes):
    """Where ruchey may hold what value is: first under value's own module and
    name (numba.typed.List, not the type numba.core.types.List), then the
    homes under the name it has in the test module or its own."""
    own = getattr(value, "__name__", None)
    try:
        module = importlib.import_module(value.__module__)
        yield module, own
        yield module, name  # an instance, without a name of its own (withcontexts.objmode_context)
    except (ImportError, AttributeError, TypeError):
        pass
    for key in (name, own):
        for home in homes:
            yield home, key


class TestsFinder(importlib.abc.MetaPathFinder):
    """Finds a test module not loaded yet (a name under prefixes) in its
    package's folder, else path (ahead of ruchey's finder, which takes every
    numba.* name)."""

    def __init__(self, prefixes, path, kept):
        self.prefixes, self.path, self.kept = prefixes, path, kept

    def find_spec(self, fullname, path, target=None):
        if not fullname.startswith(self.prefixes) or fullname in self.kept:
            return None
        parent = self.kept.get(fullname.rpartition(".")[0])  # (a subpackage's module: npyufunc's usecases)
        return importlib.machinery.PathFinder.find_spec(fullname, getattr(parent, "__path__", self.path))


def headline(traceback_text):
    """A failure in one line: its exception line and the one after it."""
    lines = traceback_text.strip().splitlines()
    for i in range(len(lines) - 1, -1, -1):
        if re.match(r"^[\w.]+(Error|Exception|Warning)\b", lines[i]) or lines[i].startswith("AssertionError"):
            return " | ".join(line.strip() for line in lines[i:i + 2])[:300]
    return lines[-1][:300] if lines else ""


def tests_of(suite):
    for test in suite:
        yield from tests_of(test) if isinstance(test, unittest.TestSuite) else [test]


def errors_for_support(numbas, ours):
    """numba.core.errors as the test support's assertions read it: ruchey's
    classes, and Numba's own where ruchey has only a placeholder (an
    assertTypingError catching LoweringError too would fail on it), which
    ruchey never raises."""
    names = {}
    for key in dir(numbas):
        value = getattr(ours, key, None)
        names[key] = getattr(numbas, key) if value is None or type(value).__name__ == "_Placeholder" else value
    return pytypes.SimpleNamespace(**names)


class CompileResult:
    """A function compiled by ruchey for one signature, read as Numba's
    tests read its compile result (``compile_isolated``'s, ``overloads[sig]``):
    ``entry_point`` calls it; ``library.get_llvm_str()`` is its LLVM, where a
    parallel region's call into ruchey's thread pool reads as the call into
    Numba's scheduler (``@do_scheduling``) that the tests look for."""

    def __init__(self, dispatcher, sig):
        self.entry_point, self.signature = dispatcher, sig
        self.library = pytypes.SimpleNamespace(get_llvm_str=lambda: self.llvm(dispatcher, sig))
        (result,) = dispatcher.overloads.values()  # (compiled for sig alone)
        self.fndesc = pytypes.SimpleNamespace(argtypes=result.argtypes, restype=result.return_type)
        self.type_annotation = None

    @staticmethod
    def llvm(dispatcher, sig):
        text = "\n".join(dispatcher.inspect_llvm().values())
        return text.replace("@pool_parallel_for", "@do_scheduling")


def compile_for_tests(func, sig, parallel=False, **options):
    """func compiled by ruchey's njit for sig (a tuple of types), as a CompileResult."""
    import ruchey
    dispatcher = ruchey.njit(tuple(sig), parallel=parallel, **options)(func)
    return CompileResult(dispatcher, tuple(sig))


def adapt_stencils(module):
    """test_stencils compiles through Numba's compiler (compile_extra with its
    Flags): the same function compiled by ruchey's njit instead, parallel
    where the flags ask it."""
    import ruchey

    def compile_this(self, func, sig, flags):
        return compile_for_tests(func, sig, parallel=bool(flags.auto_parallel.enabled))
    module.TestStencilBase._compile_this = compile_this
    # the stencils the module made with Numba's @stencil as it loaded, made again with ruchey's
    for name, value in list(vars(module).items()):
        if type(value).__module__ == "numba.stencils.stencil" and type(value).__name__ == "StencilFunc":
            setattr(module, name, ruchey.stencil(value.kernel_ir.func_id.func, **value.options))


def parallel_bodies(llvm):
    """The functions of LLVM text that ruchey outlines a parallel loop's body
    into (what Numba's tests read as its parfors' gufuncs), by name."""
    bodies = re.findall(r"^define [^@]*@([\w.]+\.prange\d+)\(.*?^}$", llvm, re.M | re.S)
    return {name: re.search(rf"^define [^@]*@{re.escape(name)}\(.*?^}}$", llvm, re.M | re.S).group(0)
            for name in bodies}


def with_pranges(pyfunc, patch_instance, namespace):
    """pyfunc with its calls of range made calls of prange: the patch_instance-th
    ones in source order, or all. Numba's tests patch the function's bytecode;
    ruchey reads its source, so the source is patched."""
    import ast
    import inspect
    import linecache
    import textwrap
    tree = ast.parse(textwrap.dedent(inspect.getsource(pyfunc)))
    tree.body[0].decorator_list = []
    ranges = sorted((n for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id == "range"),
                    key=lambda n: (n.lineno, n.col_offset))
    for i in range(len(ranges)) if patch_instance is None else patch_instance:
        ranges[i].id = "prange"
    text = ast.unparse(tree) + "\n"
    filename = f"<prange {pyfunc.__qualname__} {id(text):x}>"
    linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)
    scope = {}
    exec(compile(text, filename, "exec"), namespace, scope)
    return scope[pyfunc.__name__]


def adapt_parfors(module):
    """test_parfors runs each test class in a subprocess of Numba's own test
    runner (numba.runtests: Numba itself, not ruchey); its test classes skip
    unless they are that subprocess. This worker is a process of its own: the
    classes run here (their skip condition is met) and the runner's tests are
    left out. Its compile results are ruchey's (CompileResult); the prange
    tests patch their function's source, not its bytecode (with_pranges)."""
    def compile_this(self, func, sig, **flags):
        return compile_for_tests(func, sig, **flags)

    def check_scheduling(self, cres, scheduler_type):
        # (which of Numba's schedulers, for signed or unsigned indices, runs a loop is Numba's own)
        self.assertIn("@do_scheduling", cres.library.get_llvm_str())

    def gufunc_ir(self, cres):
        return parallel_bodies(cres.library.get_llvm_str())

    def generate_prange_func(self, pyfunc, patch_instance):
        return with_pranges(pyfunc, patch_instance, vars(module))
    module.TestParforsBase._compile_this = compile_this
    module.TestParforsBase.check_scheduling = check_scheduling
    module.TestParforsBase._get_gufunc_ir = gufunc_ir
    module.TestPrangeBase.generate_prange_func = generate_prange_func
    for cls in vars(module).values():
        if isinstance(cls, type) and cls.__dict__.get("__unittest_skip__") \
                and cls.__dict__.get("__unittest_skip_why__") == "needs subprocess harness":
            cls.__unittest_skip__ = False
    del module.TestParforsRunner


# adapters for a module's own reading of Numba's internals, run once the module is rebound
ADAPTERS = {"test_stencils": adapt_stencils, "test_parfors": adapt_parfors}
# modules whose import defines types of their own with Numba's extension API (types.Type subclasses,
# typeof_impl, register_model, box and unbox, structref.register): imported with ruchey registered as
# numba, as a package using that API runs, so that their types are ruchey's and their registrations
# reach it (imported under Numba, they would define and register Numba's types)
IMPORTED_UNDER_RUCHEY = ("test_extending", "test_extending_types", "test_struct_ref", "test_ndarray_subclasses")


def run_module(name, substring, tracebacks=False):
    """In this process: runs one module's tests; prints its counts and
    failures (with their whole tracebacks where asked)."""
    warnings.simplefilter("ignore")
    # ruchey compiles from source: loaded first, it keeps the text of the functions a module
    # compiles from strings as it loads (compile_function), for when they are compiled again
    import ruchey  # noqa: F401
    import numba  # noqa: F401  (Numba's test modules import it as they load)
    import ruchey.numba_shim
    under_ruchey = name in IMPORTED_UNDER_RUCHEY
    module = None if under_ruchey else importlib.import_module("numba.tests." + name)
    # (Numba's own modules, taken before ruchey is registered as numba)
    support = importlib.import_module("numba.tests.support")
    numbas = importlib.import_module("numba.core.errors")
    fixtures = importlib.import_module("numba._helperlib").__file__
    tests_package = sys.modules["numba.tests"]
    kept = {key: value for key, value in sys.modules.items() if key.startswith("numba.tests")}
    if under_ruchey:  # (its jit and njit take Numba's pipeline flags, as rebound ones do)
        shim = ruchey.numba_shim.install_as_numba()
        for key in ("jit", "njit"):
            setattr(shim, key, without_pipeline_flags(getattr(shim, key)))
    else:
        rebind(module, [value for key, value in kept.items()
                        if key not in ("numba.tests", "numba.tests.support", module.__name__)])
    # registering ruchey dropped numba.* from sys.modules: the test modules' package and support
    # come back, and a helper module a test imports later (recursion_usecases, which compiles at
    # import) loads from its own file then, so that it compiles with ruchey
    sys.modules.update(kept)
    sys.meta_path.insert(0, TestsFinder(("numba.tests.",), tests_package.__path__, kept))
    # its assertions (assertTypingError) name Numba's exception classes
    support.errors = errors_for_support(numbas, importlib.import_module("numba.core.errors"))
    # the C functions the tests call through ctypes and cffi (_numba_test_sin...) are fixtures
    # compiled into Numba's helper library, which they open by numba._helperlib's file
    importlib.import_module("numba._helperlib").__file__ = fixtures
    if under_ruchey:  # (its helper modules too, through TestsFinder)
        module = importlib.import_module("numba.tests." + name)
    if name in ADAPTERS:
        ADAPTERS[name](module)
    run_tests(name, tests_of(unittest.defaultTestLoader.loadTestsFromModule(module)), substring, 3, tracebacks)


def run_tests(name, tests, substring, package_parts, tracebacks=False):
    """Runs the tests whose id holds substring; prints the module's counts and
    each failure, named by its id less its package_parts leading names, in
    one line (what the table's parent reads) or with its whole traceback."""
    result = unittest.TestResult()
    unittest.TestSuite([t for t in tests if substring in t.id()]).run(result)
    failed = result.failures + result.errors
    print(f"COUNTS {name} {result.testsRun} {len(failed)} {len(result.skipped)}")
    for test, text in failed:
        print(f"FAILED {test.id().split('.', package_parts)[-1]} :: {headline(text)}")
        if tracebacks:
            print(text)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("modules", nargs="*", help="Numba test modules (default: MODULES)")
    parser.add_argument("-k", default="", help="only tests whose id holds this")
    parser.add_argument("-v", action="store_true", help="print each failing test (with --worker: its traceback)")
    parser.add_argument("--all", action="store_true", help="every test module Numba installed")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        return run_module(args.worker, args.k, args.v)
    modules = args.modules or MODULES
    if args.all:
        import numba.tests
        folder = os.path.dirname(numba.tests.__file__)
        modules = sorted(f[:-3] for f in os.listdir(folder) if f.startswith("test_") and f.endswith(".py"))
    run_modules(__file__, modules, args.k, args.v, TIMEOUT)


def run_modules(script, modules, substring, verbose, timeout, extra=()):
    """Runs each module in a process of its own (script --worker MODULE [extra]) and prints the table."""
    totals = [0, 0, 0]
    print("| module | run | failed | skipped | seconds |\n|---|---:|---:|---:|---:|")
    for name in modules:
        start = time.perf_counter()
        try:
            out = subprocess.run([sys.executable, script, "--worker", name, "-k", substring, *extra],
                                 capture_output=True, text=True, timeout=timeout)
            text, code = out.stdout, out.returncode
        except subprocess.TimeoutExpired:
            text, code = "", "timeout"
        seconds = time.perf_counter() - start
        counts = [line.split()[2:] for line in text.splitlines() if line.startswith("COUNTS ")]
        if not counts:
            print(f"| {name} | - | did not finish ({code}) | - | {seconds:.0f} |")
            continue
        run, failed, skipped = map(int, counts[0])
        totals = [totals[0] + run, totals[1] + failed, totals[2] + skipped]
        print(f"| {name} | {run} | {failed} | {skipped} | {seconds:.0f} |")
        if verbose:
            for line in text.splitlines():
                if line.startswith(("FAILED ", "SKIPPED ")):
                    print("    " + line.partition(" ")[2])
    print(f"| all | {totals[0]} | {totals[1]} | {totals[2]} | |")

if __name__ == "__main__":
    sys.exit(main())
