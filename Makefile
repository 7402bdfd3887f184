# make demo   — install what is missing, build, run the seed's examples
# make test   — install what is missing, build, run every test
# make docs   — the documentation site (docs/_build/html), its examples run as tests
# make bench  — the benchmark suite (bench/results/)
# make compat — real Numba-based packages (stumpy, pynndescent, quantecon, numbagg, pvlib...) run
#               with ruchey registered as numba, compared with Numba (bench/compat.py)
# make leakcheck — the test suite under LeakSanitizer, failing on leaks from ruchey
# make fuzz   — the generated-program tests at 200 times their count (a long run)
# make test-pythons — the suite on the other supported Pythons and NumPy 1.x
# make test-python314 — the suite on Python 3.14, in a Debian unstable chroot (root)
# make wheel  — a manylinux_2_28 wheel in dist/ (scripts/build-wheel.sh)
#
# PYTHON is the interpreter to build and test with (python3 by default). One
# that is externally managed (PEP 668: Debian's /usr/bin/python3) takes no
# packages from pip, so make builds and tests in a virtual environment made
# from it, .venv; any other (a venv's, pyenv's, conda's) is used as it is.
PYTHON ?= python3
MANAGED := $(shell $(PYTHON) -c 'import os, sys, sysconfig; print(sys.prefix == sys.base_prefix and os.path.exists(os.path.join(sysconfig.get_path("stdlib"), "EXTERNALLY-MANAGED")))' 2>/dev/null)
ifeq ($(MANAGED),True)
PY := $(CURDIR)/.venv/bin/python
else
PY := $(PYTHON)
endif
DEPS = PYTHON=$(PY) BASE_PYTHON=$(PYTHON) bash scripts/install-deps.sh

.PHONY: deps build demo test docs bench compat leakcheck fuzz test-pythons test-python314 wheel clean

deps:
	@$(DEPS)

build: deps
	$(PY) -m pip install -q --root-user-action=ignore --no-build-isolation -Cbuild-dir=build .

demo: build
	$(PY) -m ruchey -s
	$(PY) examples/demo.py

# the documentation's examples in a run of their own: docs/ and tests/ each
# have a conftest.py, which one pytest run would import as one module. The
# suite runs on every core (pytest-xdist), a file's tests together in one
# process, in their order; the tests that failed run once more, alone (the
# timing tests of threads can lose to the other workers), and fail the run
# if they fail again, as make test-pythons does.
test: build
	$(PY) -m pytest tests -q -n auto --dist loadfile --no-loadscope-reorder || \
	  { echo "the failed tests once more, alone:"; $(PY) -m pytest tests -q --last-failed --last-failed-no-failures none; }
	$(PY) -m pytest docs -q

docs: build
	@$(DEPS) --docs
	$(PY) -m sphinx -q -W -b html docs docs/_build/html
	$(PY) -m pytest -q docs

bench: build
	$(PY) bench/bench.py
	$(PY) bench/numpy_ops.py
	$(PY) bench/real_code.py
	$(PY) bench/cuda_kernels.py

compat: build
	$(PY) bench/compat.py

leakcheck: build
	$(PY) scripts/leakcheck.py $(PY) -m pytest tests -q -p no:cacheprovider

fuzz: build
	RUCHEY_FUZZ_SCALE=200 $(PY) -m pytest -q -s -p no:cacheprovider tests/test_hypothesis.py tests/test_int_mixes.py

test-pythons: build
	PYTHON=$(PY) bash scripts/test-pythons.sh

# Debian 12 has no Python 3.14: it comes from Debian unstable's packages
test-python314:
	VERSION=3.14 bash scripts/test-debian-python.sh

wheel: deps
	PYTHONS=$(PY) bash scripts/build-wheel.sh
	$(PY) -m pytest -q tests/test_wheel.py
	$(PY) bench/wheel_install.py

clean:
	rm -rf build docs/_build
