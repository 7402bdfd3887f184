#!/usr/bin/env bash
# Installs what building and testing ruchey needs, only what is missing:
# LLVM 19 (static libraries) and the build tools from Debian's packages,
# then the Python packages from PyPI into $PYTHON.
#
# PYTHON is the interpreter that builds and tests. When it is the path of a
# virtual environment that does not exist yet (the Makefile asks for .venv
# where the interpreter is externally managed, PEP 668), it is made from
# BASE_PYTHON, apart from its packages (Debian's python3-numpy would be
# older than ruchey's NumPy). LLVM_CONFIG, if set, names the LLVM 19 to use
# instead of Debian's. --docs adds what the documentation is built with.
set -euo pipefail
PYTHON=${PYTHON:-python3}
BASE_PYTHON=${BASE_PYTHON:-python3}

# Runs a shell command as root: directly, through sudo, or, where neither
# can be done, says what to run as root and stops.
as_root() {
  if [ "$(id -u)" = 0 ]; then
    sh -c "$1"
  elif command -v sudo >/dev/null 2>&1; then
    sudo sh -c "$1"
  else
    echo "ruchey needs Debian packages that only root can install. As root, run:" >&2
    echo "    $1" >&2
    echo "then run make again." >&2
    exit 1
  fi
}

deb_installed() {
  [ "$(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null)" = installed ]
}

# Debian's own Python: its headers and venv come in packages of their own.
debian_python_packages() {
  "$BASE_PYTHON" -c 'import sys; v = "%d.%d" % sys.version_info[:2]
if sys.base_prefix == "/usr": print(f"python{v}-dev python{v}-venv")'
}

# On Debian and Ubuntu; elsewhere meson's error says what to install.
need_deb=()
if command -v dpkg-query >/dev/null 2>&1; then
  llvm=(llvm-19-dev libzstd-dev zlib1g-dev)
  [ -n "${LLVM_CONFIG:-}" ] && llvm=()  # another LLVM 19 is named
  # ninja-build: a ninja outside pip's isolated build environment, which
  # editable installs rebuild with on import
  # tests/test_loader_cross.py runs the cached-code loader built for AArch64
  # under qemu-user (gcc-aarch64-linux-gnu brings AArch64's C library)
  cross=()
  [ "$(uname -m)" = x86_64 ] && cross=(gcc-aarch64-linux-gnu qemu-user)
  for pkg in "${llvm[@]}" ninja-build gcc g++ "${cross[@]}" $(debian_python_packages); do
    deb_installed "$pkg" || need_deb+=("$pkg")
  done
fi
if [ ${#need_deb[@]} -gt 0 ]; then
  as_root "apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q ${need_deb[*]}"
fi

if [ ! -e "$PYTHON" ] && [[ "$PYTHON" == */bin/python ]]; then
  venv=${PYTHON%/bin/python}
  echo "making a virtual environment in $venv (from $BASE_PYTHON)"
  "$BASE_PYTHON" -m venv "$venv"
  "$PYTHON" -m pip install -q --root-user-action=ignore -U pip  # -C needs pip 23.1 (Debian 12 has 23.0)
fi

need_pip=()
for spec in numpy:numpy scipy:scipy pytest:pytest xdist:pytest-xdist hypothesis:hypothesis numba:numba \
            mesonpy:meson-python mesonbuild:meson matplotlib:matplotlib mypy:mypy \
            cloudpickle:cloudpickle distributed:dask[distributed] cffi:cffi; do
  mod=${spec%%:*}; pkg=${spec#*:}
  "$PYTHON" -c "import $mod" 2>/dev/null || need_pip+=("$pkg")
done
command -v ninja >/dev/null 2>&1 || need_pip+=(ninja)
# `install-deps.sh --docs`: what `make docs` builds the site with
[ "${1:-}" = --docs ] && { "$PYTHON" -c "import sphinx, myst_parser" 2>/dev/null || need_pip+=(sphinx myst-parser); }
if [ ${#need_pip[@]} -gt 0 ]; then
  "$PYTHON" -m pip install -q --root-user-action=ignore "${need_pip[@]}"
fi
