#!/usr/bin/env bash
# Fetches the wordfreq wheel, verifies its pinned SHA-256, and converts its frequency lists
# into the distinctiveness score's tables (scripts/word-frequencies.py).
# Usage: fetch-word-frequencies.sh WHEEL_SPEC SHA256 OUT_DIR LANG...
set -euo pipefail
spec=$1 sha=$2 out=$3
shift 3
mkdir -p "$out"
work=$(mktemp -d "$out/.fetch.XXXXXX")
trap 'rm -rf "$work"' EXIT
python3 -c 'import msgpack' 2>/dev/null || python3 -m pip install --quiet msgpack
echo "fetching $spec" >&2
python3 -m pip download --quiet --no-deps --dest "$work" "$spec"
wheel=$(ls "$work"/*.whl)
actual=$(sha256sum "$wheel" | cut -d' ' -f1)
if [ "$actual" != "$sha" ]; then
  echo "error: $(basename "$wheel") has SHA-256 $actual, expected $sha" >&2
  exit 1
fi
python3 "$(dirname "$0")/word-frequencies.py" "$wheel" "$out" "$@"
echo "word frequencies ready: $out" >&2
