#!/usr/bin/env bash
# gpu_prepare.sh — gathers into gpu_carry/ what bench/gpu_check.sh needs on a
# GPU machine that has Python, NumPy and a C compiler but neither LLVM nor a
# network: libruchey.so from build/ (stripped: it holds LLVM), libdevice
# from the CUDA toolkit if there is one here, wheels of pytest and its
# pure-Python dependencies (installed there only if pytest is missing), and
# a NumPy older than 2.5 for numba-cuda's process of the timings (the
# numba-cuda releases built before NumPy 2.5 fail to import with it,
# which dropped np.row_stack).
#
#   bench/gpu_prepare.sh          after a build (make build)
#
# Carry the folder to the GPU machine with the source tree and run
# bench/gpu_check.sh there.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CARRY=$ROOT/gpu_carry
PYTHON=${PYTHON:-python3}
LIB=$ROOT/build/libruchey.so

if [ ! -f "$LIB" ]; then
  echo "no $LIB: build ruchey first (make build)" >&2
  exit 1
fi
rm -rf "$CARRY"
mkdir -p "$CARRY/wheels"
strip --strip-unneeded -o "$CARRY/libruchey.so" "$LIB"
LIBDEVICE=${CUDA_HOME:-/usr/local/cuda}/nvvm/libdevice/libdevice.10.bc
if [ -f "$LIBDEVICE" ]; then
  cp "$LIBDEVICE" "$CARRY/"
fi
"$PYTHON" -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 \
  -d "$CARRY/wheels" pytest pluggy iniconfig packaging pygments
"$PYTHON" -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 \
  --implementation cp --platform manylinux_2_28_x86_64 --platform manylinux_2_17_x86_64 \
  -d "$CARRY/numba" "numpy>=2,<2.5"
du -sh "$CARRY"
size=$(du -sm "$CARRY" | cut -f1)
if [ "$size" -gt 60 ]; then
  echo "$CARRY holds $size MiB: more than travels to the GPU machine (64 MiB in all)" >&2
  exit 1
fi
