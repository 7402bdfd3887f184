# make demo   — install what is missing, build, run the seed's examples
# make test   — install what is missing, build, run every test
# make bench  — the benchmark suite (bench/results/)
# make leakcheck — the test suite under LeakSanitizer, failing on leaks from ruchey
PYTHON ?= python3
export PYTHON

.PHONY: deps build demo test bench leakcheck clean

deps:
	@bash scripts/install-deps.sh

build: deps
	$(PYTHON) -m pip install -q --root-user-action=ignore --no-build-isolation -Cbuild-dir=build .

demo: build
	$(PYTHON) -m ruchey -s
	$(PYTHON) examples/demo.py

test: build
	$(PYTHON) -m pytest tests -q

bench: build
	$(PYTHON) bench/bench.py
	$(PYTHON) bench/cuda_kernels.py

leakcheck: build
	$(PYTHON) scripts/leakcheck.py $(PYTHON) -m pytest tests -q -p no:cacheprovider

clean:
	rm -rf build
