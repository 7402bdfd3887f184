"""print() of more than 32 values (Python's has no limit; CUDA's printf formats
at most 32): @njit functions and kernels on the CPU backend print every
value, as the Python function does, on generated values; in a GPU's PTX such
a print writes its format string instead (each % doubled, for vprintf to
print as it is) and warns, as numba-cuda does; ptxas assembles it."""
import re
import warnings

import numpy as np
import pytest

import ruchey
from ruchey import cuda, types

from conftest import AS_NUMBA, make_rng, needs_ptxas, ptxas_errors, seed_of

pytestmark = pytest.mark.skipif(AS_NUMBA, reason="ruchey's print of many values")


def printer(n, name="show"):
    """A function printing its n parameters (and the text "end")."""
    params = ", ".join(f"a{i}" for i in range(n))
    namespace = {}
    exec(compile(f"def {name}({params}):\n    print({params}, 'end')\n", f"<{name}{n}>", "exec"), namespace)
    return namespace[name]


def row_printer(n):
    namespace = {}
    items = ", ".join(f"r[{i}]" for i in range(n))
    exec(compile(f"def rows(r):\n    print({items})\n", f"<rows{n}>", "exec"), namespace)
    return namespace["rows"]


def strings(ptx):
    """The texts of the PTX's byte-array constants (its format strings)."""
    return [bytes(int(b) for b in body.split(",")).rstrip(b"\0").decode()
            for body in re.findall(r"\.b8 \S+\[\d+\] = \{([\d, ]+)\}", ptx)]


@pytest.mark.parametrize("n", [33, 40, 100, 200])
def test_njit_prints_every_value(n, capsys, request):
    rng = make_rng(seed_of(request))
    f = printer(n)
    fast = ruchey.njit(f)
    values = [int(v) if i % 3 else float(v) for i, v in enumerate(rng.normal(size=n) * 1000)]
    fast(*values)
    got = capsys.readouterr().out
    f(*values)
    assert got == capsys.readouterr().out


def test_more_than_255_values_is_a_typing_error(capsys):
    r = np.arange(256)
    ruchey.njit(row_printer(255))(r)  # (255: printed)
    assert capsys.readouterr().out == " ".join(map(str, range(255))) + "\n"
    with pytest.raises(ruchey.TypingError, match="too many arguments"):
        ruchey.njit(row_printer(256))(r)


@pytest.mark.parametrize("n", [33, 64])
def test_kernel_on_the_cpu_backend_prints_every_value(n, capfd, request):
    rows = row_printer(n)
    r = make_rng(seed_of(request)).integers(-10**9, 10**9, size=n)
    cuda.jit(rows)[1, 1](r)
    got = capfd.readouterr().out
    rows(r)
    assert got == capfd.readouterr().out


def test_gpu_print_of_33_values_writes_its_format(tmp_path):
    rows = row_printer(33)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ptx, _ = cuda.compile_ptx(rows, (types.int64[::1],))
    assert any("CUDA print() cannot print more than 32 items. The raw format string will be emitted by the kernel "
               "instead." in str(w.message) for w in caught)
    assert " ".join(["%%lld"] * 33) + "\n" in strings(ptx)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        cuda.compile_ptx(row_printer(32), (types.int64[::1],))
    assert not caught  # (32 values: formatted)


@needs_ptxas
def test_ptxas_assembles_a_raw_print(tmp_path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ptx, _ = cuda.compile_ptx(row_printer(40), (types.int64[::1],))
    arch = re.search(r"^\.target\s+(sm_\d+)", ptx, re.M).group(1)
    assert ptxas_errors(ptx, arch, tmp_path, "rows") == ""
