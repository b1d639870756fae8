# plait: `make demo` and `make test` set up everything they need on a fresh
# Debian machine (distribution packages via apt-get, Python packages into .venv).

PYTHON ?= python3
VENV := .venv
VPY := $(VENV)/bin/python
BUILD := build
LLVM_VERSION ?= $(shell scripts/llvm-version.sh)
LLVM_ROOT := /usr/lib/llvm-$(LLVM_VERSION)
PYTEST_ARGS ?=
# Relative paths in ccache's hashes: clones in other folders (CI) hit the cache.
export CCACHE_BASEDIR := $(CURDIR)

.PHONY: all setup system-deps venv configure build demo test test-cpp test-lit test-sanitizers test-python test-fuzz test-free-threaded test-wheel fuzz bench bench-npbench clean

all: build

system-deps:
	@scripts/install-system-deps.sh $(LLVM_VERSION)

$(VENV)/.stamp: requirements-dev.txt
	$(PYTHON) -m venv $(VENV)
	$(VPY) -m pip install -q --upgrade pip
	$(VPY) -m pip install -q -r requirements-dev.txt
	touch $@

venv: $(VENV)/.stamp

setup: system-deps venv

$(BUILD)/build.ninja: | setup
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release \
	  -DPLAIT_LLVM_ROOT=$(LLVM_ROOT) -DPython_EXECUTABLE=$(abspath $(VPY))

configure: $(BUILD)/build.ninja

build: setup configure
	cmake --build $(BUILD)

demo: build
	PYTHONPATH=$(BUILD)/python $(VPY) examples/demo.py

test-cpp: build
	ctest --test-dir $(BUILD) --output-on-failure

# lit + FileCheck: the plait dialect, its passes, and the IR plait.jit emits.
test-lit: build
	$(VENV)/bin/lit -sv $(BUILD)/tests/lit

test-python: build
	PYTHONPATH=$(BUILD)/python $(VPY) -m pytest tests/python $(PYTEST_ARGS)

# The executor table and reclamation under ThreadSanitizer and
# AddressSanitizer (standalone: no LLVM, no Python); zero reports required.
SANITIZE_SOURCES := lib/Support/EpochDomain.cpp tests/cpp/DispatchStress.cpp
# The array runtime (reference counts, arenas, products) with no LLVM.
RUNTIME_SANITIZE_SOURCES := $(wildcard lib/Runtime/*.cpp) lib/Support/Rendezvous.cpp lib/Support/NumPyLoops.cpp tests/cpp/RuntimeStress.cpp
test-sanitizers: system-deps
	mkdir -p $(BUILD)/sanitizers
	g++ -std=c++17 -O1 -g -fsanitize=thread -Iinclude $(SANITIZE_SOURCES) -pthread -o $(BUILD)/sanitizers/stress-tsan
	TSAN_OPTIONS=halt_on_error=1:abort_on_error=0 $(BUILD)/sanitizers/stress-tsan
	g++ -std=c++17 -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -Iinclude $(SANITIZE_SOURCES) -pthread -o $(BUILD)/sanitizers/stress-asan
	ASAN_OPTIONS=halt_on_error=1:detect_leaks=1 $(BUILD)/sanitizers/stress-asan
	g++ -std=c++17 -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -Iinclude $(RUNTIME_SANITIZE_SOURCES) -pthread -ldl -o $(BUILD)/sanitizers/runtime-asan
	ASAN_OPTIONS=halt_on_error=1:detect_leaks=1 $(BUILD)/sanitizers/runtime-asan
	g++ -std=c++17 -O1 -g -fsanitize=thread -Iinclude $(RUNTIME_SANITIZE_SOURCES) -pthread -ldl -o $(BUILD)/sanitizers/runtime-tsan
	TSAN_OPTIONS=halt_on_error=1:abort_on_error=0 $(BUILD)/sanitizers/runtime-tsan

# When a free-threaded CPython is on PATH, build plait for it too and run the
# whole Python suite there (the GIL must stay disabled: see test_jit_sharing).
FT_PYTHON := $(shell command -v python3.14t 2>/dev/null || command -v python3.13t 2>/dev/null)
FT_VENV := .venv-ft
FT_BUILD := build-ft
test-free-threaded: system-deps
ifneq ($(FT_PYTHON),)
	test -x $(FT_VENV)/bin/python || $(FT_PYTHON) -m venv $(FT_VENV)
	$(FT_VENV)/bin/python -m pip install -q --prefer-binary -r requirements-dev.txt
	test -f $(FT_BUILD)/build.ninja || cmake -S . -B $(FT_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release \
	  -DPLAIT_BUILD_TESTS=OFF -DPLAIT_LLVM_ROOT=$(LLVM_ROOT) -DPython_EXECUTABLE=$(abspath $(FT_VENV)/bin/python)
	cmake --build $(FT_BUILD)
	PYTHONPATH=$(FT_BUILD)/python $(FT_VENV)/bin/python -m pytest tests/python $(PYTEST_ARGS)
else
	@echo "plait: no free-threaded CPython (python3.13t or python3.14t) on PATH: the free-threaded run is skipped"
endif

# The differential fuzzer (tests/fuzz): a fixed seed and about a minute in
# `make test`; `make fuzz FUZZ_SECONDS=3600` explores new seeds for longer.
FUZZ_SECONDS ?= 600
test-fuzz: build
	PYTHONPATH=$(BUILD)/python $(VPY) tests/fuzz/fuzz.py --seed 1 --programs 150 --seconds 75

fuzz: build
	PYTHONPATH=$(BUILD)/python $(VPY) tests/fuzz/fuzz.py --seconds $(FUZZ_SECONDS) --findings fuzz-findings

# The package as users install it: a wheel built by pip (scikit-build-core),
# installed into a fresh virtual environment, used from outside the tree.
test-wheel: setup
	rm -rf $(BUILD)/wheel $(BUILD)/wheel-venv
	$(VPY) -m pip wheel . --no-deps --no-build-isolation -w $(BUILD)/wheel -q
	$(PYTHON) -m venv $(BUILD)/wheel-venv
	$(BUILD)/wheel-venv/bin/python -m pip install -q $(BUILD)/wheel/plait-*.whl
	cd /tmp && $(abspath $(BUILD))/wheel-venv/bin/python $(abspath tests/wheel/smoke.py)

test: test-cpp test-lit test-sanitizers test-python test-fuzz test-free-threaded test-wheel

# The benchmark suite: Numba and matplotlib from the package index (optional at
# run time: missing ones are reported as skipped), g++ for the C++ reference.
bench: build
	$(VPY) -m pip install -q numba scipy matplotlib || echo "plait: numba/scipy/matplotlib unavailable; those parts are skipped"
	PYTHONPATH=$(BUILD)/python $(VPY) bench/run.py
	@echo "Report: bench/results/latest.md"
	@if [ -n "$(NPBENCH_DIR)" ]; then \
	  PYTHONPATH=$(BUILD)/python $(VPY) bench/npbench.py --npbench $(NPBENCH_DIR) && \
	  echo "Report: bench/results/npbench.md"; \
	else echo "plait: NPBENCH_DIR (a checkout of spcl/npbench) not set: the npbench run is skipped"; fi

# spcl/npbench's NumPy kernels under plait.jit and under Numba, side by side
# (bench/results/npbench.md): make bench-npbench NPBENCH=<a checkout of spcl/npbench>
bench-npbench: build
	@if [ -z "$(NPBENCH)" ]; then echo "usage: make bench-npbench NPBENCH=<a checkout of spcl/npbench>"; exit 2; fi
	$(VPY) -m pip install -q numba scipy || echo "plait: numba/scipy unavailable; Numba's column is skipped"
	PYTHONPATH=$(BUILD)/python $(VPY) bench/npbench.py --npbench $(NPBENCH)
	@echo "Report: bench/results/npbench.md"

clean:
	rm -rf $(BUILD)
