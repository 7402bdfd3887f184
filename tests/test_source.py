"""Functions without a source file compile, as in Numba: defined in
``python -c``, typed into the REPL, run by exec()/eval()/compile() from a
string, or made by types.FunctionType from another function's code. Each
runs in a fresh interpreter, as a user would."""
import marshal
import os
import re
import select
import subprocess
import sys
import time

import pytest

from conftest import TESTS_DIR, run_python_file

PRELUDE = f"import sys; sys.path.insert(0, {TESTS_DIR!r}); import conftest\n"


def run_command(code, **kwargs):
    """``python -c code`` in a fresh interpreter that imports ruchey as the tests do."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    return subprocess.run([sys.executable, "-c", PRELUDE + code], capture_output=True, text=True,
                          timeout=120, env=env, **kwargs)


def assert_printed(proc, expected):
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == expected, proc.stdout + proc.stderr


def test_function_defined_in_python_c_compiles():
    proc = run_command(
        "import ruchey\n"
        "@ruchey.njit\n"
        "def total(n):\n"
        "    s = 0\n"
        "    for i in range(n):\n"
        "        s += i * i\n"
        "    return s\n"
        "square = ruchey.njit(lambda x: x * x)\n"
        "print(total(10), total.py_func(10), square(7))\n")
    assert_printed(proc, ["285", "285", "49"])


EXEC_SCRIPT = '''
import types
import ruchey

namespace = {}
exec("def scale(x, k):\\n    return x * k + 1\\n", namespace)
exec("def scale(x, k):\\n    return x * k - 1\\n", namespace)   # another "<string>", same line
first = ruchey.njit(types.FunctionType(compile("def scale(x, k):\\n    return x * k + 1\\n", "<string>",
                                               "exec").co_consts[0], {}))
second = ruchey.njit(namespace["scale"])
lam = ruchey.njit(eval("lambda a, b: a - b"))
ns2 = {}
exec(compile("def cube(v):\\n    return v ** 3\\n", "<generated>", "exec"), ns2)
cube = ruchey.njit(ns2["cube"])
print(first(3, 2), second(3, 2), lam(5, 8), cube(4))
'''


def test_functions_from_exec_eval_and_compile_of_strings_compile(tmp_path):
    """Each function compiles from the string it was made from, though every
    one of them is in "<string>" at line 1 (or line 1 of "<generated>")."""
    assert_printed(run_python_file(EXEC_SCRIPT, tmp_path), ["7", "5", "-3", "64"])


def test_string_compiled_under_a_path_where_no_file_stands_compiles(tmp_path):
    """Generated code often names a made-up file: its text is the compiled
    string's, as for "<string>"; a real file's name still means the file."""
    script = f"""
    import ruchey
    ns = {{}}
    exec(compile("def area(w, h):\\n    return w * h + 0.5\\n", {str(tmp_path / "no" / "such.py")!r}, "exec"), ns)
    print(ruchey.njit(ns["area"])(3.0, 4.0))
    """
    assert_printed(run_python_file(script, tmp_path), ["12.5"])


def test_compiled_string_is_remembered_while_ruchey_compiles_other_functions(tmp_path):
    """ruchey's own parsing of sources is not taken for the user's strings."""
    script = """
    import types
    import ruchey

    def add(x, y):
        return x + y

    code = compile("def late(x):\\n    return x * 7\\n", "<late>", "exec")
    for i in range(20):   # each compile parses a source of this file
        ruchey.njit(add)(i, 1.0 * i) if i % 2 else ruchey.njit(add)(i, i)
    print(ruchey.njit(types.FunctionType(code.co_consts[0], {}))(6))
    """
    assert_printed(run_python_file(script, tmp_path), ["42"])


def test_a_string_in_linecache_under_the_same_name_is_not_compiled_in_an_exec_strings_place(tmp_path):
    """"<string>" names every string exec() runs: another text linecache
    holds under it (a traceback's, a tool's), defining a function of the same
    name and parameters at the same line, is not the one compiled."""
    script = """
    import linecache
    import random
    import ruchey
    other = "def f(n, d):\\n    return n * 1000.0\\n"
    linecache.cache["<string>"] = (len(other), None, other.splitlines(True), "<string>")
    rng = random.Random(3)
    for k in range(3):
        ns = {}
        exec(f"def f(n, d):\\n    return n + d * {k}\\n", ns)
        n, d = rng.randint(-9, 9), rng.random()
        assert ruchey.njit(ns["f"])(n, d) == ns["f"](n, d), k
    lam = eval("lambda n, d: n - d")
    assert ruchey.njit(lam)(5, 0.5) == 4.5
    print("ok")
    """
    assert_printed(run_python_file(script, tmp_path), ["ok"])


def test_function_made_from_another_functions_code_compiles(tmp_path):
    script = '''
    import types
    import ruchey

    def double(x):
        return 2 * x

    ns = {}
    exec("def halve(x):\\n    return x / 2\\n", ns)
    made = types.FunctionType(double.__code__, {}, "made")
    made_from_exec = types.FunctionType(ns["halve"].__code__, {"__builtins__": __builtins__})
    print(ruchey.njit(made)(21), ruchey.njit(made_from_exec)(9))
    '''
    assert_printed(run_python_file(script, tmp_path), ["42", "4.5"])


def test_exec_source_is_kept_only_while_its_functions_live(tmp_path):
    """Strings run by exec() are remembered for the functions made from them,
    not for ever: a program that generates code in a loop stays flat."""
    script = '''
    import gc, resource
    import ruchey

    def run(count):
        for i in range(count):
            exec(f"def f{i}(x):\\n    return x + {i}  # " + "." * 20000 + "\\n", {})
        gc.collect()

    run(2000)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    run(5000)   # 100 MB of source if it were all kept
    grown_mib = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    print("GROWN", grown_mib)
    assert grown_mib < 20, grown_mib
    '''
    proc = run_python_file(script, tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_a_text_run_again_under_its_name_stays_for_the_newer_functions(tmp_path):
    """fluids.numba runs each solver's edited source by exec() under one made-up
    name, quad_adaptive's twice: the two codes are equal, and the first one's
    death must not take the text the second, the one compiled, is read from."""
    script = """
    import gc
    import random
    import ruchey
    text = "def area(a, b, depth=0):\\n    if depth > 3:\\n        return a * a * (b - a)\\n" \\
           "    mid = (a + b) / 2\\n    return area(a, mid, depth + 1) + area(mid, b, depth + 1)\\n"
    first = {}
    exec(compile(text, "<cache-safe>", "exec"), first)
    second = {}
    exec(compile(text, "<cache-safe>", "exec"), second)
    for k in range(20):  # (more than the last strings compiled that are kept for code never run)
        exec(compile(f"def other(x):\\n    return x + {k}\\n", "<cache-safe>", "exec"), {})
    del first
    gc.collect()
    python = second["area"]
    compiled = second["area"] = ruchey.njit(python)
    rng = random.Random(1)
    for _ in range(3):
        a, b = rng.uniform(-2, 0), rng.uniform(0, 2)
        assert compiled(a, b) == python(a, b)
    print("ok")
    """
    assert_printed(run_python_file(script, tmp_path), ["ok"])


def test_function_with_no_source_anywhere_is_a_typing_error_that_says_what_to_do(tmp_path):
    # code compiled in this process, marshalled into the script: the script's
    # process never saw its text
    code = marshal.dumps(compile("def f(x):\n    return x\n", "<gone>", "exec").co_consts[0])
    script = f'''
    import marshal, types
    import ruchey

    f = types.FunctionType(marshal.loads({code!r}), {{}})
    try:
        ruchey.njit(f)(1)
    except ruchey.TypingError as e:
        print(str(e))
    '''
    proc = run_python_file(script, tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "cannot find the source" in proc.stdout
    assert "define the function in a file, or in a string given to exec() or compile()" in proc.stdout


TREE_SCRIPT = '''
import ast, types
import ruchey

# as code generators do (datashader's macros): a tree parsed, changed, compiled
tree = ast.parse("def clamp(x, lo, hi):\\n    return min(max(x, lo), hi)\\n")
tree.body[0].body[0].value.func.id = "max"
tree.body[0].body[0].value.args[0].func.id = "min"
ns = {}
exec(compile(tree, "<clamp>", "exec"), ns)
clamp = ruchey.njit(ns["clamp"])
made = ast.parse("def twice(v):\\n    return 2 * v\\n")
ast.increment_lineno(made, 40)
twice = ruchey.njit(types.FunctionType(compile(made, "<twice>", "exec").co_consts[0], {}))
print(clamp(5, 0, 3), clamp.py_func(5, 0, 3), twice(21))   # max(min(5, 0), 3): the tree, not its text
'''


def test_functions_compiled_from_a_syntax_tree_compile(tmp_path):
    """A tree given to compile() is kept as the strings are: the function's
    def found in it by name, parameters and line (the tree's own)."""
    assert_printed(run_python_file(TREE_SCRIPT, tmp_path), ["3", "3", "42"])


FILE_TREES_SCRIPT = '''
import ast, gc, sys
import ruchey

# as import hooks do (pytest rewriting assertions, macro expanders): each
# module's tree compiled under its file's name, its functions read from the file
funcs = []
for k in range(30):
    path = {tmp!r} + f"/hooked{{k}}.py"
    text = f"def step(x):\\n    return x + {{k}}\\n" + "".join(f"def pad{{j}}(a, b):\\n    return a * b - {{j}}\\n" for j in range(40))
    with open(path, "w") as fh:
        fh.write(text)
    ns = {{"__name__": f"hooked{{k}}"}}
    exec(compile(ast.parse(text), path, "exec"), ns)
    funcs.append(ns["step"])
gc.collect()
per_tree = len({{id(o) for o in ast.walk(ast.parse(text)) if gc.is_tracked(o)}})
nodes = sum(isinstance(o, ast.AST) for o in gc.get_objects())
print(ruchey.njit(funcs[29])(1), nodes < 12 * per_tree)   # a few recent trees at most, not 30
'''


def test_trees_compiled_under_a_file_name_are_not_kept(tmp_path):
    """A tree an import hook compiled under the name of a file that stands
    is not kept for its functions (their defs are read from the file): kept,
    every hooked module's whole tree lives as long as its functions."""
    script = FILE_TREES_SCRIPT.format(tmp=str(tmp_path))
    assert_printed(run_python_file(script, tmp_path), ["30", "True"])


def test_function_whose_file_changed_after_import_is_not_compiled_from_the_new_text(tmp_path):
    module = tmp_path / "edited.py"
    module.write_text("def g(x):\n    return x + 1\n")
    script = f'''
    import linecache, sys
    sys.path.insert(0, {str(tmp_path)!r})
    import edited
    import ruchey
    with open(edited.__file__, "w") as fh:
        fh.write("x = 1\\n\\ndef h(y, z):\\n    return y\\n")
    linecache.checkcache()
    try:
        ruchey.njit(edited.g)(1)
    except ruchey.TypingError as e:
        print(str(e))
    '''
    proc = run_python_file(script, tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "does not read as its definition" in proc.stdout, proc.stdout
    assert "reload" in proc.stdout


def test_lambda_after_another_statement_on_its_line_compiles():
    proc = run_command("import ruchey; print(ruchey.njit(lambda x: x + 1)(41))")
    assert_printed(proc, ["42"])


def test_lambdas_on_one_line_are_told_apart_by_their_parameters(tmp_path):
    script = '''
    import ruchey
    add, neg = (lambda a, b: a + b), (lambda c: -c)
    print(ruchey.njit(neg)(3), ruchey.njit(add)(1, 2))
    '''
    assert_printed(run_python_file(script, tmp_path), ["-3", "3"])


def test_lambdas_with_the_same_parameters_on_one_line_are_told_apart_by_position(tmp_path):
    script = """
    from ruchey import jit
    f = jit(lambda x: x + 1); g = jit(lambda x: x * 100)
    a = jit(lambda x: 2); b = jit(lambda x: 6)
    s = "\u00e9\u4e2d"; k = [jit(lambda x: x - 1), jit(lambda x: x - 2)]  # non-ASCII before them
    def outer():
        y = 3
        return jit(lambda x: x + y), jit(lambda x: x * y * 10)
    p, q = outer()
    import math
    lo, hi = jit(lambda x: math.floor(x)), jit(lambda x: math.ceil(x))  # (differ in a name alone)
    def pair():
        y, z = 3, 5
        return jit(lambda x: x + y), jit(lambda x: x + z)
    r, t = pair()
    print(g(1), f(1), b(0), a(0), k[1](0), k[0](0), q(1), p(1), hi(1.5), lo(1.5), t(1), r(1))
    ns = {}
    exec("from ruchey import jit\\nf = jit(lambda x: x + 1); g = jit(lambda x: x * 100)\\n", ns)
    print(ns["g"](1), ns["f"](1))
    """
    assert_printed(run_python_file(script, tmp_path), ["100", "2", "6", "2", "-2", "-1", "30", "4", "2", "1", "6", "4", "100", "2"])


def test_a_lambda_inside_another_compiles_as_itself(tmp_path):
    script = """
    from ruchey import njit
    outer = lambda: njit(lambda: 7 * 6)()
    twice = lambda k: njit(lambda x: (lambda y: y + k)(x) * 2)
    print(outer(), njit(lambda: 1)(), twice(3)(4))
    """
    assert_printed(run_python_file(script, tmp_path), ["42", "1", "14"])


def test_lambda_inside_a_one_line_def_compiles(tmp_path):
    script = """
    import numpy as np
    from ruchey import njit
    def call(f, *args): return njit(f)(*args)
    def first(): return call(lambda a: a + 1, 41)
    def second(n): return call(lambda a, m: (a.sum() * m, a.shape), np.arange(4.0), n)
    class Holder:
        def method(self): return call(lambda x: -x, 5)
    print(first(), second(2)[0], second(2)[1][0], Holder().method())
    """
    assert_printed(run_python_file(script, tmp_path), ["42", "12.0", "4", "-5"])


def test_lambdas_on_later_lines_of_a_statement_compile(tmp_path):
    script = """
    from ruchey import njit
    table = {
        "add": lambda a, b: a + b,
        "sub": lambda a, b: a - b,
    }
    pair = (njit(lambda x: x * 2),
            njit(lambda x: x * 3))
    def apply(f, x):
        return njit(f)(x)
    r = apply(
        lambda x: x - 100, 1)
    print(njit(table["sub"])(5, 2), njit(table["add"])(5, 2), pair[1](1), pair[0](1), r)
    """
    assert_printed(run_python_file(script, tmp_path), ["3", "7", "3", "2", "-99"])


def test_nested_defs_with_lines_at_column_zero_compile(tmp_path):
    script = """
    from ruchey import njit
    def maker():
        @njit
        def documented(x):
            \"\"\"A docstring
    that continues at column 0.\"\"\"
            return x + 1

        @njit
        def continued(x):
            y = x + \\
    1
            return y * 2
        return documented, continued
    d, c = maker()
    print(d(1), c(1))
    """
    assert_printed(run_python_file(script, tmp_path), ["2", "4"])



def test_functions_whose_last_lines_hold_no_code_compile(tmp_path):
    """A def is read from its first line to the last its code stands on,
    and from inspect's block where that span does not parse: a closing
    bracket alone on the last line, a multi-line decorator, a string over
    several lines, a nested def last."""
    script = """
    import ruchey
    from ruchey import njit

    @njit
    def bracket_last(x):
        return (x,
                x + 1,
        )

    @ruchey.njit(
        fastmath=True,
    )
    def decorated(x):
        return x * 2.0

    @njit
    def long_string(x):
        return x + len(\"\"\"
    abc
    \"\"\")

    @njit
    def nested_last(x):
        y = x + 1
        def unused(z):
            return z
        return y

    for f, arg in ((bracket_last, 1), (decorated, 1.5), (long_string, 2), (nested_last, 3)):
        assert f(arg) == f.py_func(arg), f
    print("ok")
    """
    assert_printed(run_python_file(script, tmp_path), ["ok"])


# ---------------------------------------------------------------- the REPL

ANSI = re.compile(rb"\x1b\[[0-9;?]*[A-Za-z]|\x1b[=>]")


def run_repl(lines, env=None, timeout=120):
    """Types ``lines`` into an interactive interpreter on a pseudo-terminal,
    each after its prompt, as a person would; returns what the screen showed."""
    import pty
    master, slave = pty.openpty()
    env = dict(os.environ, TERM="xterm", PYTHON_COLORS="0",
               PYTHONPATH=os.pathsep.join(p for p in sys.path if p), **(env or {}))
    env.pop("PYTHONSTARTUP", None)
    proc = subprocess.Popen([sys.executable, "-q"], stdin=slave, stdout=slave, stderr=slave, env=env,
                            close_fds=True)
    os.close(slave)
    screen, pending = b"", [PRELUDE.strip()] + list(lines)
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline and proc.poll() is None:
            if select.select([master], [], [], 0.3)[0]:
                try:
                    screen += os.read(master, 65536)
                except OSError:  # the interpreter has gone
                    break
            elif ANSI.sub(b"", screen).rstrip().endswith((b">>>", b"...")):
                os.write(master, (pending.pop(0) + "\r").encode() if pending else b"\x04")
    finally:
        proc.kill() if proc.poll() is None else None
        proc.wait()
        os.close(master)
    return ANSI.sub(b"", screen).decode(errors="replace")


def needs_readline():
    try:
        import readline  # noqa: F401  (the REPL keeps its lines there)
    except ImportError:
        pytest.skip("this Python has no readline: its REPL keeps no lines")


def test_function_typed_into_the_repl_compiles():
    needs_readline()
    screen = run_repl(["import ruchey",
                       "def inc(x): return x + 1",
                       "",
                       "print('RESULT', ruchey.njit(inc)(41), ruchey.njit(lambda y: y * 3)(5))"])
    assert "RESULT 42 15" in screen, screen


def test_multiline_function_typed_into_the_basic_repl_compiles():
    """The basic REPL (every REPL before Python 3.13; PYTHON_BASIC_REPL=1 since)."""
    needs_readline()
    screen = run_repl(["import ruchey",
                       "@ruchey.njit",
                       "def total(n):",
                       "    s = 0",
                       "    for i in range(n):",
                       "        s += i",
                       "    return s",
                       "",
                       "print('RESULT', total(10))"], env={"PYTHON_BASIC_REPL": "1"})
    assert "RESULT 45" in screen, screen


def test_function_in_a_piped_script_is_a_typing_error_that_says_what_to_do():
    """``python < script`` keeps no text of the script anywhere."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    script = PRELUDE + ("import ruchey\n"
                        "def f(x):\n    return x\n"
                        "try:\n    ruchey.njit(f)(1)\n"
                        "except ruchey.TypingError as e:\n    print(e)\n")
    proc = subprocess.run([sys.executable], input=script, capture_output=True, text=True, timeout=120,
                          env=env)
    assert proc.returncode == 0, proc.stderr
    assert "cannot find the source" in proc.stdout and "define the function in a file" in proc.stdout
