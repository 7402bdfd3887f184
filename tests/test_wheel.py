"""The wheel `make wheel` builds (dist/): manylinux_2_28, LLVM inside, and
installed into a fresh environment it imports and compiles at once (how
fast: bench/wheel_install.py, which make wheel runs after these). Skipped
until a wheel for this Python is there (make wheel runs these after building)."""
import glob
import os
import re
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TAG = f"cp{sys.version_info[0]}{sys.version_info[1]}"
WHEELS = sorted(glob.glob(os.path.join(ROOT, "dist", f"ruchey-*-{TAG}-{TAG}-*manylinux_2_28_x86_64.whl")))

pytestmark = pytest.mark.skipif(not WHEELS, reason=f"no wheel for {TAG} in dist/ (make wheel)")


def test_wheel_needs_glibc_2_28_at_most_and_no_llvm(tmp_path):
    import zipfile
    with zipfile.ZipFile(WHEELS[-1]) as wheel:
        wheel.extractall(tmp_path)
    for lib in glob.glob(str(tmp_path / "ruchey" / "*.so")):
        symbols = subprocess.run(["objdump", "-T", lib], capture_output=True, text=True,
                                 check=True).stdout
        versions = {tuple(int(p) for p in v.split(".")) for v in re.findall(r"GLIBC_([0-9.]+)", symbols)}
        assert max(versions) <= (2, 28), (lib, max(versions))
        needed = set(re.findall(r"NEEDED\s+(\S+)", subprocess.run(
            ["objdump", "-p", lib], capture_output=True, text=True, check=True).stdout))
        assert needed <= {"libc.so.6", "libm.so.6", "libpthread.so.0", "libdl.so.2", "librt.so.1",
                          "libgcc_s.so.1", "ld-linux-x86-64.so.2", "libruchey_rt.so"}, (lib, needed)


def test_wheel_installs_imports_and_compiles(tmp_path):
    venv = tmp_path / "venv"
    # NumPy from this Python's site-packages: the clock measures ruchey alone
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True)
    python = str(venv / "bin" / "python")
    script = ("import ruchey, numpy\n"
              "@ruchey.njit\n"
              "def total(a):\n"
              "    s = 0.0\n"
              "    for i in range(a.shape[0]):\n"
              "        s += a[i]\n"
              "    return s\n"
              "assert total(numpy.arange(10.0)) == 45.0\n"
              "print(ruchey.__file__)\n")
    subprocess.run([python, "-m", "pip", "install", "-q", "--no-deps", "--ignore-installed", "--disable-pip-version-check",
                    WHEELS[-1]], check=True, timeout=300)
    proc = subprocess.run([python, "-c", script], capture_output=True, text=True, timeout=300,
                          cwd=str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith(str(venv)), proc.stdout
