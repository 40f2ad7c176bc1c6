"""Writes a set-up file that is pinned by SHA-256: to a temporary name beside the destination,
checked, then renamed, so a partial or unexpected file never has the final name (the model
converters, scripts/e5-to-gguf.py and scripts/embeddinggemma-to-gguf.py)."""
import hashlib
import os
import sys
import tempfile


def write_pinned(dest, expected, write):
    """Calls write(path) on a temporary path, then moves it to `dest` if its SHA-256 is `expected`;
    exits with an error naming both digests otherwise."""
    directory = os.path.dirname(os.path.abspath(dest))
    os.makedirs(directory, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".convert.", suffix=".part", dir=directory)
    os.close(fd)
    try:
        write(tmp)
        digest = hashlib.sha256()
        with open(tmp, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                digest.update(block)
        if digest.hexdigest() != expected:
            sys.exit(f"error: converted {dest} has SHA-256 {digest.hexdigest()}, expected {expected}")
        os.chmod(tmp, 0o644)
        os.replace(tmp, dest)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    print(f"model ready: {dest}", file=sys.stderr)
