#!/usr/bin/env bash
# The whole test suite on the other supported Pythons and on NumPy 1.x (make
# test runs it on the main one): each in a virtual environment of its own
# under build/pythons/, built in a build directory of its own.
#
# An interpreter comes from this machine (python3.X on the PATH, or pyenv's)
# or else from uv (`uv python install`, where uv can download it). One that
# cannot be had is skipped with a message; in CI (CI=true) it fails the run.
# MATRIX lists "version:numpy requirement" pairs.
set -euo pipefail
cd "$(dirname "$0")/.."
MATRIX=${MATRIX:-"3.10:numpy<2 3.12:numpy>=2 3.13:numpy>=2"}
PYTHON=${PYTHON:-python3}

find_python() {
  local v=$1 p
  for p in "python$v" "$(pyenv root 2>/dev/null)/versions/$v"*/bin/"python$v"; do
    if "$p" -c 'pass' >/dev/null 2>&1; then command -v "$p"; return; fi
  done
  if "$PYTHON" -m uv --version >/dev/null 2>&1 || "$PYTHON" -m pip install -q uv >/dev/null 2>&1; then
    "$PYTHON" -m uv python install "$v" >/dev/null 2>&1 && "$PYTHON" -m uv python find "$v" && return
  fi
  return 1
}

# The suite; the tests that failed run once more, alone (the timing tests of
# threads can lose to a loaded machine), and fail the run if they fail again.
run_suite() {
  local python=$1 cache=$2
  "$python" -m pytest -q -o cache_dir="$cache" -n auto --dist loadfile --no-loadscope-reorder tests && return 0
  echo "   the failed tests once more:"
  "$python" -m pytest -q -o cache_dir="$cache" --last-failed --last-failed-no-failures none tests
}

failed=()
for entry in $MATRIX; do
  v=${entry%%:*}; numpy=${entry#*:}
  if ! interp=$(find_python "$v"); then
    echo "== Python $v: no interpreter on this machine, and uv could not get one" >&2
    [ "${CI:-}" = true ] && failed+=("$v (no interpreter)")
    continue
  fi
  name=$v-$(echo "$numpy" | tr -dc '0-9a-z<>=' | tr '<>=' 'lge')
  venv=build/pythons/$name
  echo "== Python $v ($interp), $numpy: $venv"
  if [ ! -x "$venv/bin/python" ]; then
    "$interp" -m venv "$venv"
    "$venv/bin/python" -m pip install -q --disable-pip-version-check -U pip  # -C needs pip 23.1
  fi
  # scipy: the BLAS and LAPACK that float matrix products call; llvmlite: what @intrinsic's code is written with;
  # cffi: the C functions of the cffi tests
  "$venv/bin/python" -m pip install -q --disable-pip-version-check \
    "$numpy" pytest pytest-xdist hypothesis meson-python meson scipy llvmlite cffi
  if "$venv/bin/python" -m pip install -q --disable-pip-version-check --no-build-isolation \
       -Cbuild-dir="build/pythons/build-$name" . &&
     "$venv/bin/python" -c 'import numpy, sys; print("   Python", sys.version.split()[0], "NumPy", numpy.__version__)' &&
     run_suite "$venv/bin/python" "$venv/.pytest_cache" &&
     "$venv/bin/python" -m pytest -q -p no:cacheprovider docs; then
    :
  else
    failed+=("$v $numpy")
  fi
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "failed: ${failed[*]}" >&2
  exit 1
fi
