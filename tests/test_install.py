"""Building and installing as a new user would: without LLVM 19 (one message
naming the packages), with another LLVM 19 (LLVM_CONFIG), without root, from a
virtual environment inside the checkout, as an editable install with pip's
build isolation, and with Debian's externally managed Python."""
import os
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LLVM_19 = "/usr/lib/llvm-19/bin/llvm-config"
PACKAGES = ("llvm-19-dev", "llvm19-devel", "llvm@19", "llvmdev=19", "LLVM_CONFIG")

pytestmark = pytest.mark.skipif(not os.path.exists(os.path.join(ROOT, "meson.build")),
                                reason="needs the source tree")


def meson_setup(build_dir, env=None, python=sys.executable):
    """Configures the build, as pip's first step does; returns the CompletedProcess."""
    return subprocess.run([python, "-m", "mesonbuild.mesonmain", "setup", str(build_dir), ROOT],
                          capture_output=True, text=True, timeout=300,
                          env=dict(without_leak_checker(), **(env or {})))


def without_leak_checker():
    """The environment, less the leak checker's preload: the compilers meson
    tries must not report CPython's and their own allocations."""
    return {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}


def fake_llvm_config(directory, version, static_ok=True):
    path = os.path.join(str(directory), "llvm-config")
    with open(path, "w") as fh:
        fh.write(f"""#!/bin/sh
case "$1" in
  --version) echo {version} ;;
  --link-static) {'echo -lLLVMCore' if static_ok else 'echo "llvm-config: error: missing: /fake/lib/libLLVMCore.a" >&2; exit 1'} ;;
  *) echo "" ;;
esac
""")
    os.chmod(path, 0o755)
    return path


def test_no_llvm_19_is_one_message_naming_the_packages_to_install(tmp_path):
    pytest.importorskip("mesonbuild")
    proc = meson_setup(tmp_path / "b", {"LLVM_CONFIG": str(tmp_path / "nowhere" / "llvm-config")})
    assert proc.returncode != 0
    for name in PACKAGES:
        assert name in proc.stdout, proc.stdout[-3000:]


def test_llvm_config_of_another_llvm_version_is_refused(tmp_path):
    pytest.importorskip("mesonbuild")
    proc = meson_setup(tmp_path / "b", {"LLVM_CONFIG": fake_llvm_config(tmp_path, "18.1.8")})
    assert proc.returncode != 0
    assert "is not the llvm-config of an LLVM 19" in proc.stdout, proc.stdout[-3000:]


def test_llvm_19_without_static_libraries_names_the_dev_package(tmp_path):
    pytest.importorskip("mesonbuild")
    proc = meson_setup(tmp_path / "b", {"LLVM_CONFIG": fake_llvm_config(tmp_path, "19.1.7", False)})
    assert proc.returncode != 0
    assert "has no static libraries" in proc.stdout and "llvm-19-dev" in proc.stdout, proc.stdout[-3000:]


@pytest.mark.skipif(not os.path.exists(LLVM_19), reason="Debian's LLVM 19 is not installed")
def test_llvm_config_selects_the_llvm_to_build_with(tmp_path):
    pytest.importorskip("mesonbuild")
    link = tmp_path / "bin" / "llvm-config"   # the same LLVM, under another name
    link.parent.mkdir()
    link.symlink_to(LLVM_19)
    proc = meson_setup(tmp_path / "b", {"LLVM_CONFIG": str(link)})
    assert proc.returncode == 0, proc.stdout[-3000:]
    assert f"Program {link} found: YES" in proc.stdout


def test_user_without_root_or_sudo_is_told_the_command_to_run_as_root():
    """Debian packages are missing (a dpkg-query that knows none), the user is
    not root, and there is no sudo: the script prints the apt-get command."""
    import tempfile
    place = tempfile.mkdtemp()   # where any user can read: the script, and a PATH without sudo
    try:
        os.chmod(place, 0o755)
        script = shutil.copy(os.path.join(ROOT, "scripts", "install-deps.sh"), place)
        bin_dir = os.path.join(place, "bin")
        os.mkdir(bin_dir)
        with open(os.path.join(bin_dir, "dpkg-query"), "w") as fh:
            fh.write("#!/bin/sh\nexit 1\n")
        os.chmod(os.path.join(bin_dir, "dpkg-query"), 0o755)
        for tool in ("bash", "id", "sh"):
            os.symlink(shutil.which(tool), os.path.join(bin_dir, tool))
        python = "/bin/false"   # reads no interpreter: the packages are what matters here
        command = ["bash", script]
        if os.getuid() == 0:  # become nobody
            if shutil.which("setpriv") is None:
                pytest.skip("needs setpriv to drop root")
            command = [shutil.which("setpriv"), "--reuid=65534", "--regid=65534", "--clear-groups"] + command
        proc = subprocess.run(command, capture_output=True, text=True, timeout=120, cwd=place,
                              env={"PATH": bin_dir, "PYTHON": python, "BASE_PYTHON": python})
    finally:
        shutil.rmtree(place)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "As root, run:" in proc.stderr, proc.stderr
    assert ("apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q "
            "llvm-19-dev libzstd-dev zlib1g-dev ninja-build gcc g++") in proc.stderr, proc.stderr
    assert "sudo" not in proc.stderr


def copy_checkout(destination):
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT,
                           capture_output=True, text=True, check=True).stdout.split()
    for name in files:
        source = os.path.join(ROOT, name)
        if os.path.isfile(source):
            os.makedirs(os.path.dirname(os.path.join(destination, name)), exist_ok=True)
            shutil.copy2(source, os.path.join(destination, name))
    return destination


def make_venv(path, *packages):
    subprocess.run([sys.executable, "-m", "venv", str(path)], check=True, timeout=300)
    python = os.path.join(str(path), "bin", "python")
    if packages:
        subprocess.run([python, "-m", "pip", "install", "-q", "--disable-pip-version-check",
                        *packages], check=True, timeout=600, capture_output=True)
    return python


@pytest.mark.skipif(not shutil.which("git"), reason="needs git")
def test_build_configures_from_a_virtual_environment_inside_the_checkout(tmp_path):
    """NumPy's headers then lie inside the source tree, where meson refuses
    absolute include directories."""
    pytest.importorskip("mesonbuild")
    checkout = copy_checkout(str(tmp_path / "ruchey"))
    python = make_venv(os.path.join(checkout, ".venv"), "numpy", "meson")
    proc = subprocess.run([python, "-m", "mesonbuild.mesonmain", "setup", "build"], cwd=checkout,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout[-3000:]


@pytest.mark.skipif(not shutil.which("git") or not shutil.which("ninja"),
                    reason="needs git and a ninja of the machine's")
def test_editable_install_with_build_isolation_rebuilds_on_import(tmp_path):
    checkout = copy_checkout(str(tmp_path / "ruchey"))
    python = make_venv(tmp_path / "venv", "pip>=23.1", "numpy")  # -C needs pip 23.1 (Python 3.10 brings 23.0)
    # built unoptimised (half the compiler's time): what is checked is
    # the editable install's machinery, not the code it builds
    proc = subprocess.run([python, "-m", "pip", "install", "-q", "--disable-pip-version-check",
                           "-Csetup-args=-Dbuildtype=plain", "-e", checkout],
                          capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    run = "import ruchey; print(ruchey.njit(lambda x: x + 1)(41), ruchey.__file__)"
    first = subprocess.run([python, "-c", run], capture_output=True, text=True, timeout=600,
                           cwd=str(tmp_path))
    assert first.returncode == 0 and first.stdout.startswith("42 " + checkout), first.stderr
    # an edit to the extension's C source is rebuilt at the next import
    source = os.path.join(checkout, "core", "source.c")
    with open(source, "a") as fh:
        fh.write("\n/* edited */\n")
    again = subprocess.run([python, "-c", run], capture_output=True, text=True, timeout=600,
                           cwd=str(tmp_path), env=dict(os.environ, MESONPY_EDITABLE_VERBOSE="1"))
    assert again.returncode == 0 and again.stdout.splitlines()[-1].startswith("42 "), again.stderr
    assert "source.c" in again.stdout + again.stderr


def externally_managed(python):
    code = ("import os, sys, sysconfig; print(sys.prefix == sys.base_prefix and os.path.exists("
            "os.path.join(sysconfig.get_path('stdlib'), 'EXTERNALLY-MANAGED')))")
    try:
        return subprocess.run([python, "-c", code], capture_output=True, text=True,
                              timeout=60).stdout.strip() == "True"
    except OSError:
        return False


@pytest.mark.skipif(not shutil.which("make"), reason="needs make")
def test_make_uses_a_virtual_environment_for_an_externally_managed_python(tmp_path):
    debian = "/usr/bin/python3"
    if not externally_managed(debian):
        pytest.skip("no externally managed Python here")
    plan = subprocess.run(["make", "-n", "demo", f"PYTHON={debian}"], cwd=ROOT, capture_output=True,
                          text=True, timeout=60).stdout
    assert f"PYTHON={ROOT}/.venv/bin/python BASE_PYTHON={debian}" in plan, plan
    assert f"{ROOT}/.venv/bin/python -m ruchey -s" in plan, plan


@pytest.mark.skipif(not shutil.which("make"), reason="needs make")
def test_make_uses_any_other_python_as_it_is():
    plan = subprocess.run(["make", "-n", "test", f"PYTHON={sys.executable}"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60).stdout
    assert f"PYTHON={sys.executable} BASE_PYTHON={sys.executable}" in plan, plan
    assert f"{sys.executable} -m pytest" in plan, plan


def test_every_file_of_the_package_is_installed():
    """Each file under python/ruchey is named in meson.build's install lists:
    one left out imports from the source tree but not from an install."""
    with open(os.path.join(ROOT, "meson.build")) as f:
        build = f.read()
    package = os.path.join(ROOT, "python", "ruchey")
    left_out = []
    for folder, dirs, names in os.walk(package):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        for name in names:
            path = os.path.relpath(os.path.join(folder, name), ROOT)
            if f"'{path}'" not in build:
                left_out.append(path)
    assert not left_out, f"not installed by meson.build: {left_out}"
