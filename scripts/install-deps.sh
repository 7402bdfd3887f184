#!/usr/bin/env bash
# Installs what building and testing ruchey needs, only what is missing:
# LLVM 19 (static libraries) from Debian, the Python packages from PyPI.
set -euo pipefail
PYTHON=${PYTHON:-python3}

need_apt=()
[ -x /usr/lib/llvm-19/bin/llvm-config ] || need_apt+=(llvm-19-dev)
[ -e /usr/lib/x86_64-linux-gnu/libzstd.so ] || [ -e /usr/lib/aarch64-linux-gnu/libzstd.so ] || need_apt+=(libzstd-dev)
[ -e /usr/include/zlib.h ] || need_apt+=(zlib1g-dev)
if [ ${#need_apt[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q "${need_apt[@]}"
fi

need_pip=()
for spec in numpy:numpy pytest:pytest hypothesis:hypothesis numba:numba \
            mesonpy:meson-python mesonbuild:meson ninja:ninja \
            matplotlib:matplotlib; do
  mod=${spec%%:*}; pkg=${spec#*:}
  $PYTHON -c "import $mod" 2>/dev/null || need_pip+=("$pkg")
done
if [ ${#need_pip[@]} -gt 0 ]; then
  $PYTHON -m pip install -q --root-user-action=ignore "${need_pip[@]}"
fi
