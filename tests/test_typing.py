"""The installed package carries types (PEP 561: py.typed and stubs) that an
editor or mypy reads: a compiled function keeps its parameters and return
type, device arrays their methods, and every name a stub declares exists."""
import ast
import importlib
import os
import re
import subprocess
import sys

import pytest

import ruchey

PACKAGE = os.path.dirname(ruchey.__file__)

USAGE = '''
import numpy
from ruchey import cuda, njit, prange

@njit
def add(x: int, y: int) -> int:
    return x + y

@njit(parallel=True, fastmath=True)
def total(a: numpy.ndarray) -> float:
    s = 0.0
    for i in prange(a.shape[0]):
        s += a[i]
    return s

@cuda.jit
def double(io: numpy.ndarray) -> None:
    i = cuda.grid(1)
    if i < io.size:
        io[i] *= 2

reveal_type(add(1, 2))
reveal_type(total)
d = cuda.to_device(numpy.zeros(4))
double[1, 4](d)
reveal_type(d.copy_to_host())
add("one", 2)
d.no_such_method()
'''


def stub_files():
    return [os.path.join(root, name) for root, _, names in os.walk(PACKAGE)
            for name in names if name.endswith(".pyi")]


def test_package_is_marked_typed_and_ships_stubs():
    assert os.path.exists(os.path.join(PACKAGE, "py.typed"))
    names = {os.path.relpath(p, PACKAGE) for p in stub_files()}
    assert {"_core.pyi", "decorators.pyi", os.path.join("cuda", "kernels.pyi"),
            os.path.join("cuda", "devicearray.pyi")} <= names


@pytest.mark.parametrize("stub", stub_files(), ids=os.path.basename)
def test_every_name_a_stub_declares_exists_at_run_time(stub):
    module_name = "ruchey." + os.path.relpath(stub, PACKAGE)[:-4].replace(os.sep, ".")
    module = importlib.import_module(module_name)
    tree = ast.parse(open(stub).read())
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and not node.name.startswith("_"):
            assert hasattr(module, node.name), f"{module_name} has no {node.name}"
        if isinstance(node, ast.ClassDef):
            cls = getattr(module, node.name)
            for member in node.body:
                if isinstance(member, ast.FunctionDef) and not member.name.startswith("_"):
                    assert hasattr(cls, member.name), f"{module_name}.{node.name} has no {member.name}"


def test_mypy_sees_compiled_functions_with_their_signatures(tmp_path):
    pytest.importorskip("mypy")
    script = tmp_path / "usage.py"
    script.write_text(USAGE)
    proc = subprocess.run([sys.executable, "-m", "mypy", "--no-incremental", "--python-version",
                           f"{sys.version_info[0]}.{sys.version_info[1]}", str(script)],
                          capture_output=True, text=True, cwd=tmp_path, timeout=300)
    out = proc.stdout
    revealed = re.findall(r'Revealed type is "(.*)"', out)
    assert len(revealed) == 3 and revealed[0] in ("int", "builtins.int"), out
    assert revealed[1].startswith("ruchey._core.Dispatcher[[a: numpy.ndarray"), out
    assert revealed[1].endswith(("], float]", "], builtins.float]")), out
    assert revealed[2].startswith("numpy.ndarray["), out   # copy_to_host()
    assert 'incompatible type "str"; expected "int"' in out, out
    assert '"DeviceNDArray" has no attribute "no_such_method"' in out, out
    assert "Found 2 errors" in out, out   # those two: a launch takes device arrays
