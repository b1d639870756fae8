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

.PHONY: all setup system-deps venv configure build demo test test-cpp test-python bench clean

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

test-python: build
	PYTHONPATH=$(BUILD)/python $(VPY) -m pytest tests/python $(PYTEST_ARGS)

test: test-cpp test-python

# The benchmark suite: Numba and matplotlib from the package index (optional at
# run time: missing ones are reported as skipped), g++ for the C++ reference.
bench: build
	$(VPY) -m pip install -q numba matplotlib || echo "plait: numba/matplotlib unavailable; those parts are skipped"
	PYTHONPATH=$(BUILD)/python $(VPY) bench/run.py
	@echo "Report: bench/results/latest.md"

clean:
	rm -rf $(BUILD)
