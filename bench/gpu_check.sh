#!/usr/bin/env bash
# gpu_check.sh — ruchey on a GPU machine, in one command that takes a few
# minutes: builds the _core extension with cc for this machine's Python and
# NumPy (libruchey.so comes ready-built in gpu_carry/, made by
# bench/gpu_prepare.sh), runs the CUDA tests on the GPU with every launch
# also run on the CPU backend and compared (RUCHEY_CUDA_COMPARE=1), then
# times kernels and launches against CUDA C built by nvcc -O3 and against
# numba-cuda (bench/gpu_bench.py), runs examples/demo.py, and last the
# whole test suite on this machine's Python and NumPy (SUITE_LIMIT seconds).
#
#   bench/gpu_check.sh [carry folder]
#
# Without a GPU the tests run on the CPU backend and the timings are
# skipped, with a message saying why. Logs and gpu_bench.json go to $OUT
# when it is set. The exit status is nonzero if a step failed. The tests
# and the timings each run under a time limit (TEST_LIMIT, BENCH_LIMIT
# seconds), so that one hanging step leaves the other its time.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CARRY=$(cd "${1:-$ROOT/gpu_carry}" 2>/dev/null && pwd) || CARRY=${1:-$ROOT/gpu_carry}
PYTHON=${PYTHON:-python3}
OUT=${OUT:-}
TEST_LIMIT=${TEST_LIMIT:-240}
BENCH_LIMIT=${BENCH_LIMIT:-180}
SUITE_LIMIT=${SUITE_LIMIT:-300}
WORK=$(mktemp -d)
export PYTHONUNBUFFERED=1
status=0

step() { echo; echo "== $* ($SECONDS s)"; }
failed() { echo "FAILED: $*"; status=1; }

command -v nvidia-smi >/dev/null && nvidia-smi -L
PYVER=$("$PYTHON" -c 'import sys; print(sys.version.split()[0])')
step "1. ruchey for Python $PYVER"
if [ ! -f "$CARRY/libruchey.so" ]; then
  echo "no $CARRY/libruchey.so: run bench/gpu_prepare.sh where ruchey is built, and carry gpu_carry/"
  exit 2
fi
read -r PYINC NPINC EXT < <("$PYTHON" -c 'import sysconfig, numpy
print(sysconfig.get_paths()["include"], numpy.get_include(), sysconfig.get_config_var("EXT_SUFFIX"))')
cp -r "$ROOT/python/ruchey" "$WORK/ruchey"
cp "$CARRY/libruchey.so" "$WORK/ruchey/"
cc -std=c11 -O2 -DNDEBUG -fPIC -shared -fvisibility=hidden -I"$ROOT/include" -I"$PYINC" -I"$NPINC" \
  "$ROOT"/core/*.c "$ROOT/lib/types.c" -ldl -o "$WORK/ruchey/_core$EXT" || { echo "FAILED: building _core"; exit 2; }
export PYTHONPATH=$WORK${PYTHONPATH:+:$PYTHONPATH}
if ! "$PYTHON" -c 'import pytest' 2>/dev/null; then
  "$PYTHON" -m pip install -q --no-index --no-deps --target "$WORK/site" "$CARRY"/wheels/*.whl \
    || failed "installing pytest from $CARRY/wheels"
  export PYTHONPATH=$PYTHONPATH:$WORK/site
fi
# libdevice: the toolkit's (CUDA_HOME, the standard place, nvcc's), else the carried one
if [ -z "${CUDA_HOME:-}" ] && [ ! -f /usr/local/cuda/nvvm/libdevice/libdevice.10.bc ]; then
  if command -v nvcc >/dev/null && [ -f "$(dirname "$(dirname "$(command -v nvcc)")")/nvvm/libdevice/libdevice.10.bc" ]; then
    export CUDA_HOME=$(dirname "$(dirname "$(command -v nvcc)")")
  elif [ -f "$CARRY/libdevice.10.bc" ]; then
    mkdir -p "$WORK/cuda/nvvm/libdevice"
    cp "$CARRY/libdevice.10.bc" "$WORK/cuda/nvvm/libdevice/"
    export CUDA_HOME=$WORK/cuda
  fi
fi
(cd "$WORK" && "$PYTHON" -c 'import ruchey; print("ruchey from", ruchey.__file__)' && "$PYTHON" -m ruchey -s) \
  || { echo "FAILED: import ruchey"; exit 2; }
"$PYTHON" -c 'from ruchey import cuda; cuda.detect()'
GPU=$("$PYTHON" -c 'from ruchey import cuda; print(int(cuda.is_available()))')

step "2. the CUDA tests"
TESTS="tests/test_kernels.py tests/test_cuda_api.py tests/test_ptx.py tests/test_cudadrv.py
       tests/test_cuda_interop.py tests/test_kernels_warp.py tests/test_kernels_atomic.py
       tests/test_kernels_memory.py tests/test_kernels_grid.py tests/test_cuda_random.py
       tests/test_cuda_host.py tests/test_cuda_sourcemodule.py tests/test_cuda_tuples.py
       tests/test_cuda_complex.py tests/test_cuda_grid_device.py tests/test_cuda_shuffle_inplace.py"
cd "$ROOT"
if [ "$GPU" = 1 ]; then
  echo "on the GPU, each launch compared with the CPU backend"
  RUCHEY_CUDA_BACKEND=gpu RUCHEY_CUDA_COMPARE=1 timeout "$TEST_LIMIT" "$PYTHON" -m pytest $TESTS \
    -q -rfE --tb=short -p no:cacheprovider 2>&1 | tee ${OUT:+"$OUT/gpu_tests.log"} \
    || failed "the CUDA tests on the GPU"
else
  echo "no GPU: the CUDA tests run on the CPU backend"
  "$PYTHON" -m pytest $TESTS -q -p no:cacheprovider || failed "the CUDA tests"
fi

step "3. timings"
if [ "$GPU" = 1 ] && ls "$CARRY"/numba/*.whl >/dev/null 2>&1; then  # the NumPy numba-cuda can import
  "$PYTHON" -m pip install -q --no-index --no-deps --target "$WORK/numba-site" "$CARRY"/numba/*.whl \
    && export NUMBA_PYTHONPATH=$WORK/numba-site
fi
if [ "$GPU" != 1 ]; then
  echo "no GPU: no timings"
elif ! command -v nvcc >/dev/null; then
  echo "no nvcc: timing without CUDA C"
  timeout "$BENCH_LIMIT" "$PYTHON" bench/gpu_bench.py ${OUT:+--json "$OUT/gpu_bench.json"} \
    ${OUT:+--ptx "$OUT/gpu_ptx.txt"} || failed "the timings"
else
  nvcc -O3 -arch=native bench/gpu_kernels.cu -o "$WORK/gpu_kernels" || failed "nvcc"
  timeout "$BENCH_LIMIT" "$PYTHON" bench/gpu_bench.py --nvcc "$WORK/gpu_kernels" \
    ${OUT:+--json "$OUT/gpu_bench.json"} ${OUT:+--ptx "$OUT/gpu_ptx.txt"} || failed "the timings"
fi
step "4. the demo (make demo's examples/demo.py)"
timeout 120 "$PYTHON" examples/demo.py || failed "the demo"

step "5. the whole test suite on Python $PYVER"
timeout "$SUITE_LIMIT" "$PYTHON" -m pytest tests -q -rfE --tb=short -p no:cacheprovider 2>&1 \
  | tee ${OUT:+"$OUT/suite.log"} || failed "the test suite"

step "done: $([ $status = 0 ] && echo ok || echo 'with failures')"
rm -rf "$WORK"
exit $status
