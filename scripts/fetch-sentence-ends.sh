#!/usr/bin/env bash
# Fetches the Debian packages whose sentences the dangling-word check counts, verifies each one's
# pinned SHA-256, and counts them into one table (scripts/sentence-ends.py), renamed into place
# only when complete.
# Usage: fetch-sentence-ends.sh OUT PACKAGE=VERSION SHA256 [PACKAGE=VERSION SHA256 ...]
set -euo pipefail
out=$1
shift
mkdir -p "$(dirname "$out")"
work=$(mktemp -d "$(dirname "$out")/.fetch.XXXXXX")
trap 'rm -rf "$work"' EXIT
# apt's sandbox user cannot write into a private temporary folder.
chmod 755 "$work"
debs=()
while [ $# -gt 0 ]; do
  spec=$1 sha=$2
  shift 2
  echo "fetching $spec (debian) for $out" >&2
  mkdir "$work/${#debs[@]}" && chmod 755 "$work/${#debs[@]}"
  (cd "$work/${#debs[@]}" && { apt-get download -qq "$spec" 2>/dev/null || { apt-get update -qq && apt-get download -qq "$spec"; }; })
  deb=$(find "$work/${#debs[@]}" -maxdepth 1 -name '*.deb' | head -n 1)
  if [ -z "$deb" ]; then
    echo "error: no package was downloaded for $spec" >&2; exit 1
  fi
  actual=$(sha256sum "$deb" | cut -d' ' -f1)
  if [ "$actual" != "$sha" ]; then
    echo "error: $(basename "$deb") has SHA-256 $actual, expected $sha" >&2; exit 1
  fi
  debs+=("$deb")
done
python3 "$(dirname "$0")/sentence-ends.py" "$work/output.part" "${debs[@]}"
mv "$work/output.part" "$out"
echo "ready: $out" >&2
