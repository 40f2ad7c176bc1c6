#!/usr/bin/env bash
# Installs built plugins into the plugins folder atomically, so the host never sees a partial
# file (a truncated .so kills the loader with SIGBUS): copy to a hidden temporary name in the
# same folder (the loader skips hidden files), then rename over the final name.
# Usage: install-plugins.sh PLUGINS_DIR LIBRARY=PLUGIN_ID...   (lib<X>.so -> <plugin id>.so)
set -euo pipefail
dir=$1; shift
mkdir -p "$dir"
chmod 0755 "$dir"  # the loader refuses a folder writable by group or others
for pair in "$@"; do
  src=${pair%%=*} id=${pair#*=}
  [[ -f $src ]] || { echo "install-plugins: $src is missing (build it first)" >&2; exit 1; }
  [[ $id =~ ^[A-Za-z0-9._-]{1,64}$ ]] || { echo "install-plugins: bad plugin id '$id'" >&2; exit 1; }
  tmp="$dir/.$id.tmp.$$"
  install -m 0755 "$src" "$tmp"
  mv -f "$tmp" "$dir/$id.so"
  echo "installed $dir/$id.so"
done
