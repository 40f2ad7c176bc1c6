#!/usr/bin/env bash
# Makes the benchmark's other quantisations of the default model once, with llama.cpp's
# llama-quantize from the same build as the llama-bench they are compared with (`make bench-llama`):
# MODEL.Q4_0.gguf, MODEL.Q8_0.gguf and MODEL.Q4_K_M.gguf beside MODEL.Q4_1.gguf in models/ (ignored
# by git). A file already there is kept. Requantising from 4-bit loses accuracy, which does not
# matter for speed.
# Usage: make-quant-models.sh LLAMA_QUANTIZE SOURCE.gguf   (prints the files made or found)
set -euo pipefail
quantize=$1 source=$2
[ -x "$quantize" ] || { echo "error: $quantize is not an executable llama-quantize" >&2; exit 1; }
[ -s "$source" ] || { echo "error: $source is missing (make model)" >&2; exit 1; }
stem=${source%.gguf}
stem=${stem%.*}  # drop the source's own quantisation label
for type in Q4_0 Q8_0 Q4_K_M; do
  out=$stem.$type.gguf
  if [ ! -s "$out" ]; then
    log=$(mktemp)
    if ! "$quantize" --allow-requantize "$source" "$out.partial" "$type" >"$log" 2>&1; then
      echo "error: llama-quantize $type failed:" >&2
      tail -5 "$log" >&2
      rm -f "$log" "$out.partial"
      exit 1
    fi
    rm -f "$log"
    mv "$out.partial" "$out"
  fi
  echo "$out"
done
