#!/usr/bin/env bash
# `make bench-llama`: the local runner's pp128 / tg128 at 1 and 2 threads on every benchmark file
# present (the default model, its requantisations of TYPES, Gemma 3 270M), each run interleaved
# with llama.cpp's llama-bench on the same file when LLAMA_BENCH is given, then one table: ours,
# llama.cpp's, the ratio (medians of RUNS runs each), and our rates per CPU-second (the machines
# here are shared). With LLAMA_BENCH, the requantised files are made first
# (scripts/make-quant-models.sh) with the llama-quantize beside it.
# Usage: bench-llama.sh TANDEM_LLAMA RUNS DEFAULT_MODEL "TYPES" [GEMMA_MODEL] [LLAMA_BENCH]
#   TYPES: llama-quantize recipes, e.g. "Q4_0 Q8_0 Q4_K_M" (make-quant-models.sh)
set -euo pipefail
tool=$1 runs=$2 default_model=$3 types=$4 gemma=${5:-} llama_bench=${6:-}
read -r -a type_list <<<"$types"
files=("$default_model")
if [ -n "$llama_bench" ]; then
  mapfile -t made < <("$(dirname "$0")/make-quant-models.sh" "$(dirname "$llama_bench")/llama-quantize" "$default_model" "${type_list[@]}")
  files+=("${made[@]}")
else
  stem=${default_model%.gguf}
  for type in "${type_list[@]}"; do [ -s "${stem%.*}.$type.gguf" ] && files+=("${stem%.*}.$type.gguf"); done
fi
[ -n "$gemma" ] && [ -s "$gemma" ] && files+=("$gemma")

results=$(mktemp)
trap 'rm -f "$results"' EXIT
for f in "${files[@]}"; do
  for t in 1 2; do
    echo "measuring $(basename "$f") at $t thread(s)" >&2
    if out=$("$tool" bench "$f" -t "$t" -p 128 -n 128 -r "$runs" --json ${llama_bench:+--llama-bench "$llama_bench"} 2>&1); then
      echo "$out" | tail -1 >>"$results"
    else
      printf '{"file": "%s", "threads": %d, "error": %s}\n' "$(basename "$f")" "$t" \
        "$(printf '%s' "$out" | tail -1 | python3 -c 'import json,sys; print(json.dumps(sys.stdin.read()))')" >>"$results"
    fi
  done
done

python3 - "$results" <<'PY'
import json, sys
rows = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
print("| file | threads | Tandem pp128 / tg128 (t/s) | llama.cpp pp128 / tg128 (t/s) | ratio pp / tg | Tandem per CPU-second pp / tg |")
print("|---|---|---|---|---|---|")
for r in rows:
    if "error" in r:
        print(f"| {r['file']} | {r['threads']} | fails: {r['error'].strip()} | | | |")
        continue
    pp, tg = r["pp128"]["median"], r["tg128"]["median"]
    base = r["llama_bench"]
    theirs = f"{base['pp']['median']:.0f} / {base['tg']['median']:.0f}" if base else "not run"
    ratio = f"{pp / base['pp']['median']:.2f} / {tg / base['tg']['median']:.2f}" if base else "—"
    print(f"| {r['model_version']} | {r['threads']} | {pp:.0f} / {tg:.0f} | {theirs} | {ratio} | "
          f"{r['pp_per_cpu_second']:.0f} / {r['tg_per_cpu_second']:.0f} |")
loads = sorted(float(r["load_average"]) for r in rows if "load_average" in r)
if loads: print(f"\nload average during the runs: {loads[0]:.1f}–{loads[-1]:.1f} (kernels: {rows[0].get('kernels', '?')})")
PY
