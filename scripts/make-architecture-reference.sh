#!/usr/bin/env bash
# Makes Tests/Reference/architectures: llama.cpp's logits at every position of one prompt for
# each random-weight model of scripts/random-weight-models.py (qwen2, qwen3, gemma3, phi3), with the
# model's SHA-256 so the tests know they compare the same file. Run once by hand when the models
# or the prompt change; the tests only read the result.
# Needs llama.cpp b11434's static libraries and headers (scripts/build-llama-cpp.sh keeps them
# beside its bin directory) and the PyPI gguf package.
# Usage: make-architecture-reference.sh LLAMA_CPP_BIN_DIR [OUT_DIR]
set -euo pipefail
bin=$(cd "$1" && pwd)
root=$(cd "$(dirname "$0")/.." && pwd)
out=${2:-$root/Tests/Reference/architectures}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

gcc -O2 -I"$bin/../include" "$root/scripts/dump-logits.c" -o "$work/dump-logits" \
  "$bin/../lib/libllama.a" "$bin/../lib/libggml.a" "$bin/../lib/libggml-cpu.a" "$bin/../lib/libggml-base.a" \
  -lstdc++ -fopenmp -lm -lpthread -ldl
python3 "$root/scripts/random-weight-models.py" "$work/models"

# 100 tokens: BOS, then ids spread over the vocabulary; longer than gemma3's window of 8 and than
# one forward chunk of the runner (64), so both the window and its ring cache are exercised.
ids=$(python3 -c 'print(",".join(["1"] + [str(3 + (37 * i + 11) % 317) for i in range(1, 100)]))')
mkdir -p "$out"
entries=()
for model in "$work"/models/*.gguf; do
  arch=$(basename "$model" -random.gguf)
  "$work/dump-logits" "$model" "$out/$arch.f32" "$ids" 2>"$work/$arch.log" || { cat "$work/$arch.log" >&2; exit 1; }
  entries+=("{\"architecture\":\"$arch\",\"model\":\"$(basename "$model")\",\"sha256\":\"$(sha256sum "$model" | cut -d' ' -f1)\",\"file\":\"$arch.f32\",\"prompt_ids\":[$ids]}")
done
(IFS=,; echo "[${entries[*]}]") | python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin), indent=1))' >"$out/index.json"
echo "wrote $out" >&2
