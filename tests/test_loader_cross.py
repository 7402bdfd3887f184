"""The runtime library's loader of cached code (lib/loader.c) on each
processor it knows, run without Python: tests/loader/harness.c, built for
the processor with loader.c alone, loads tests/loader/objects.ll compiled
for it by llc and calls its functions, compared with the same functions
written in Python. AArch64 runs under qemu-user on other hosts (the cross
compiler, its C library and qemu come from scripts/install-deps.sh); a
test whose tools are missing is skipped."""
import math
import os
import platform
import shutil
import struct
import subprocess

import pytest

from conftest import AS_NUMBA, seed_of

pytestmark = pytest.mark.skipif(AS_NUMBA, reason="ruchey's own loader")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HERE = os.path.join(ROOT, "tests", "loader")
LLC = shutil.which("llc-19") or shutil.which("llc")
HOST = {"x86_64": "x86_64", "amd64": "x86_64", "aarch64": "aarch64", "arm64": "aarch64"}.get(platform.machine().lower())


def _toolchain(arch):
    """(C compiler, how to run a program) for arch, or a reason to skip."""
    if LLC is None:
        return "llc (LLVM 19) is not installed"
    if arch == HOST:
        return shutil.which("cc") or shutil.which("gcc"), []
    cc, qemu, sysroot = shutil.which(f"{arch}-linux-gnu-gcc"), shutil.which(f"qemu-{arch}"), f"/usr/{arch}-linux-gnu"
    if not cc or not qemu or not os.path.isdir(sysroot):
        return f"no {arch} cross compiler, C library or qemu-user (scripts/install-deps.sh installs them)"
    return cc, [qemu, "-L", sysroot]


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """arch -> (harness, how to run it, folder), built once."""
    folder = tmp_path_factory.mktemp("loader")
    made = {}

    def build(arch):
        if arch not in made:
            tools = _toolchain(arch)
            if isinstance(tools, str):
                made[arch] = tools
            else:
                cc, runner = tools
                exe = str(folder / f"harness-{arch}")
                subprocess.run([cc, "-std=c11", "-O2", "-Wall", "-Wextra", "-Werror", "-Wno-unused-parameter",
                                "-Wno-missing-field-initializers", "-I", os.path.join(ROOT, "include"),
                                os.path.join(HERE, "harness.c"), os.path.join(ROOT, "lib", "loader.c"), "-o", exe,
                                "-Wl,--no-as-needed", "-lm", "-ldl"], check=True)
                made[arch] = (exe, runner, folder)
        if isinstance(made[arch], str):
            pytest.skip(made[arch])
        return made[arch]
    return build


def compile_object(folder, arch, model, source=os.path.join(HERE, "objects.ll"), name="objects"):
    path = str(folder / f"{name}-{arch}-{model}.o")
    subprocess.run([LLC, f"-mtriple={arch}-linux-gnu", "-O2", f"-code-model={model}", "-filetype=obj", source,
                    "-o", path], check=True)
    return path


def run_harness(harness, obj, calls):
    exe, runner, _ = harness
    args = [str(a) for call in calls for a in call]
    return subprocess.run(runner + [exe, obj] + args, capture_output=True, text=True, timeout=120)


# objects.ll's functions in Python: the two results of two calls on one load
TABLE = [1.0, 2.5, 3.25, 4.0]


def poly(x):
    return (3.1 * x * x - 2.7 * x + 0.123,) * 2


def factorial(x):
    return (float(math.factorial(int(x))),) * 2


def calls_out(x):
    twice = 2 * x
    value = math.sin(x) + twice + twice + twice + (twice, math.sin(x), twice)[int(x) % 3]
    return (value,) * 2


def data(x):
    table, i, results = list(TABLE), int(x), []
    for _ in range(2):
        results.append(table[i % 4] * (1.0, 10.0, 100.0, 1000.0, 7.0, 70.0, 700.0)[i % 7] + table[1] + table[3] +
                       table[0])
        table[0] += 1.0
    return tuple(results)


FUNCTIONS = {"poly": poly, "factorial": factorial, "calls_out": calls_out, "data": data}
TARGETS = [("aarch64", "large"), ("aarch64", "small"), ("x86_64", "large")]


def _inputs(name):
    """Edge values and random ones; factorials that fit an int64."""
    import random
    rng = random.Random(seed_of("loader", name))
    if name == "factorial":
        return [0.0, 1.0, 20.0] + [float(rng.randrange(0, 21)) for _ in range(3)]
    return [0.0, 1.0, 2.5] + [rng.uniform(0.0, 50.0) for _ in range(3)]  # int(x) as the IR takes it: >= 0


@pytest.mark.parametrize("arch,model", TARGETS, ids=[f"{a}-{m}" for a, m in TARGETS])
def test_objects_load_and_run_as_their_python_originals(built, arch, model):
    """Constants, data, a table of addresses and offsets between symbols,
    calls within the object, to the C library and to a function too far
    away for a direct call (through a stub on AArch64): each function
    loaded afresh, each result as in Python."""
    harness = built(arch)
    obj = compile_object(harness[2], arch, model)
    calls = [(name, x) for name in sorted(FUNCTIONS) for x in _inputs(name)]
    r = run_harness(harness, obj, calls)
    assert r.returncode == 0, r.stdout + r.stderr
    lines = r.stdout.splitlines()
    assert len(lines) == len(calls)
    for (name, x), line in zip(calls, lines):
        first, second, status, *far = line.split()
        assert status == "0" and far == ["far"], (name, x, line)
        assert (float(first), float(second)) == pytest.approx(FUNCTIONS[name](x), rel=1e-15), (name, x)


TLS = '''
@slot = internal thread_local global i64 0
define i32 @poly(ptr %ret, ptr %args) {
  %v = load i64, ptr @slot
  %d = sitofp i64 %v to double
  store double %d, ptr %ret
  ret i32 0
}
'''


def _unknown_relocation(path):
    """The first relocation of .rela.text made one of a kind the loader does
    not know (R_AARCH64_TLSLE_ADD_TPREL_HI12)."""
    obj = bytearray(open(path, "rb").read())
    shoff, = struct.unpack_from("<Q", obj, 0x28)
    shnum, = struct.unpack_from("<H", obj, 0x3C)
    for i in range(shnum):
        kind, offset = struct.unpack_from("<I16xQ", obj, shoff + 64 * i + 4)
        if kind == 4:  # SHT_RELA
            info, = struct.unpack_from("<Q", obj, offset + 8)
            struct.pack_into("<Q", obj, offset + 8, (info >> 32 << 32) | 549)
            break
    open(path, "wb").write(bytes(obj))
    return path


def test_what_the_loader_does_not_know_is_refused_with_a_reason(built, tmp_path):
    """A thread-local variable or a relocation of a kind not known: the
    loader refuses the object and says why (then LLVM's loader gets it)."""
    harness = built("aarch64")
    (tmp_path / "tls.ll").write_text(TLS)
    r = run_harness(harness, compile_object(tmp_path, "aarch64", "large", str(tmp_path / "tls.ll"), "tls"),
                    [("poly", 1.0)])
    assert r.returncode == 3 and "of a kind not known" in r.stdout, r.stdout + r.stderr
    r = run_harness(harness, _unknown_relocation(compile_object(tmp_path, "aarch64", "large")), [("poly", 1.0)])
    assert r.returncode == 3 and "a relocation not known or out of range, of kind 549" in r.stdout, \
        r.stdout + r.stderr
