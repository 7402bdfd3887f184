"""Every instruction set numpy.sort may use, on one machine: the fast
sorts' tests (test_sort_fast.py) run again in a process whose
RUCHEY_SORT_ISA names a lesser one than the host's (AVX2's registers,
or the scalar merge, radix and counting sorts), each checked against
NumPy as there. A name the host lacks falls back to its best, so the
runs pass on any machine; the host's own is the plain run of that file.
"""
import os
import subprocess
import sys

import pytest

from conftest import AS_NUMBA

pytestmark = pytest.mark.skipif(AS_NUMBA, reason="numba's sort takes no kind=")

HERE = os.path.dirname(os.path.abspath(__file__))


@pytest.mark.parametrize("isa", ["avx2", "scalar"])
def test_fast_sorts_on_a_forced_instruction_set(isa):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "XDIST"))}
    env["RUCHEY_SORT_ISA"] = isa
    run = subprocess.run([sys.executable, "-m", "pytest", os.path.join(HERE, "test_sort_fast.py"), "-q", "-x",
                          "-p", "no:cacheprovider", "-p", "no:xdist"], cwd=os.path.dirname(HERE), env=env,
                         capture_output=True, text=True, timeout=1800)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
