#!/usr/bin/env bash
# Makes the benchmark's other quantisations of the default model once, with llama.cpp's
# llama-quantize from the same build as the llama-bench they are compared with (`make bench-llama`):
# MODEL.TYPE.gguf beside MODEL.Q4_1.gguf in models/ (ignored by git) for each TYPE given, by
# llama-quantize's recipe of that name; TYPE-pure quantises every tensor it can to TYPE (--pure).
# The default model's 576-column tensors are not whole 256-value superblocks, so the K-quant
# recipes put them in llama-quantize's fallbacks (Q4_0, Q5_0, Q5_1) and use their own type only
# where rows have 1536 values (ffn_down): the Q2_K recipe makes those Q3_K, hence Q2_K-pure. A
# file already there is kept. Requantising from 4-bit loses accuracy, which does not matter for
# speed.
# Usage: make-quant-models.sh LLAMA_QUANTIZE SOURCE.gguf TYPE...   (prints the files made or found)
set -euo pipefail
quantize=$1 source=$2
shift 2
[ -x "$quantize" ] || { echo "error: $quantize is not an executable llama-quantize" >&2; exit 1; }
[ -s "$source" ] || { echo "error: $source is missing (make model)" >&2; exit 1; }
stem=${source%.gguf}
stem=${stem%.*}  # drop the source's own quantisation label
for type in "$@"; do
  out=$stem.$type.gguf
  if [ ! -s "$out" ]; then
    log=$(mktemp)
    pure=()
    [ "${type%-pure}" != "$type" ] && pure=(--pure)
    if ! "$quantize" --allow-requantize "${pure[@]}" "$source" "$out.partial" "${type%-pure}" >"$log" 2>&1; then
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
