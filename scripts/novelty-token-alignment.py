#!/usr/bin/env python3
"""Measures token-level alignment as a paraphrase signal on the labelled pairs in eval/novelty/.

Usage: novelty-token-alignment.py

The sentence cosine of multilingual-e5-small puts paraphrases and distinct same-topic lines in
one band (see the novelty section of Sources/QuoteLibrary/README.md). This script asks whether
the encoder's per-token states, before pooling, separate them better, in the style of BERTScore:
every token of one line is matched greedily to its most similar token of the other.

Features of a pair (base, other), besides novelty-calibration.py's three (cosine, shared
content-word stems, shared character 3-grams):
- alignment: BERTScore F1 over the content tokens (no start, end or "query: " prefix tokens),
  each state centred by the mean content-token state of the tuning texts (the states share a
  large common direction that makes every pair look alike) and L2-normalised;
- unsharedAlignment: the same F1 over only the tokens whose id the other line does not have. A
  same-topic line reuses the base's frame and swaps its content; a paraphrase swaps the words
  and keeps the content, so what differs between the two lines still aligns;
- weightedUnsharedAlignment: unsharedAlignment with each token's best match weighted by its
  inverse document frequency over the tuning lines (log((n + 1) / (lines with it + 1))), so a
  rare content token counts more than an inflection or a particle;
- sharedTokens: the fraction of both lines' content tokens whose id the other line has.

The split, the threshold and the decision (a logistic regression and its cutoff, within 2.5% of
the tuning distinct and unrelated pairs) are novelty-calibration.py's, fitted on the tuning half
only; the held-out figures are printed for each feature set.

States come from the built `tandem-llama token-states` on models/multilingual-e5-small.Q4_0.gguf
with tandem.json's embedding prefix: the tokens and states the gate's encoder computes.
Needs `swift build -c release --product tandem-llama` and `make embedding-model` first.
"""
import importlib.util
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOOL = os.path.join(ROOT, ".build/release/tandem-llama")
MODEL = os.path.join(ROOT, "models/multilingual-e5-small.Q4_0.gguf")
spec = importlib.util.spec_from_file_location("novelty_calibration", os.path.join(ROOT, "scripts/novelty-calibration.py"))
calibration = importlib.util.module_from_spec(spec)
spec.loader.exec_module(calibration)

FEATURE_SETS = [
    ["cosine", "sharedWords", "sharedTrigrams"],
    ["cosine", "alignment", "sharedWords", "sharedTrigrams"],
    ["cosine", "unsharedAlignment", "sharedWords", "sharedTrigrams"],
    ["cosine", "unsharedAlignment", "sharedTokens", "sharedWords", "sharedTrigrams"],
    ["cosine", "weightedUnsharedAlignment", "sharedWords", "sharedTrigrams"],
    ["cosine", "weightedUnsharedAlignment", "sharedTokens", "sharedWords", "sharedTrigrams"],
]


def embedding_prefix():
    with open(os.path.join(ROOT, "tandem.json"), encoding="utf-8") as f:
        config = json.load(f)
    embedder = config["quote"]["embedder"]
    return config["backends"][embedder]["settings"].get("embedding_prefix", "")


def token_states(texts):
    """{text: (ids, states)} from `tandem-llama token-states`, start and end tokens included."""
    for path, what in ((TOOL, "swift build -c release --product tandem-llama"), (MODEL, "make embedding-model")):
        if not os.path.exists(path):
            sys.exit(f"error: {path} is missing (run `{what}`)")
    prefix = embedding_prefix()
    if any("\n" in t for t in texts):
        sys.exit("error: a labelled line contains a line break")
    with tempfile.TemporaryDirectory() as scratch:
        out = os.path.join(scratch, "states.bin")
        done = subprocess.run([TOOL, "token-states", MODEL, out], input="".join(prefix + t + "\n" for t in texts),
                              capture_output=True, text=True)
        if done.returncode != 0:
            sys.exit(f"error: tandem-llama token-states exited {done.returncode}: {done.stderr.strip()}")
        data = open(out, "rb").read()
    dimensions = int(done.stderr.split(" dimensions")[0].split(", ")[-1])
    result, at = {}, 0
    for text in texts:
        (count,) = np.frombuffer(data, "<i4", 1, at)
        ids = np.frombuffer(data, "<i4", count, at + 4)
        at += 4 + 4 * count
        states = np.frombuffer(data, "<f4", count * dimensions, at).reshape(count, dimensions).astype(np.float64)
        at += 4 * count * dimensions
        result[text] = (ids, states)
    if at != len(data):
        sys.exit(f"error: token-states wrote {len(data)} bytes, {at} expected")
    return result


def unit_rows(x):
    return x / np.linalg.norm(x, axis=1, keepdims=True)


def f1(similarities, row_weights=None, column_weights=None):
    recall = np.average(similarities.max(axis=1), weights=row_weights)
    precision = np.average(similarities.max(axis=0), weights=column_weights)
    return 2 * recall * precision / (recall + precision)


def main():
    texts = sorted({t for language in calibration.LANGUAGES for row in calibration.groups(language) for t in row})
    states = token_states(texts)
    # Tokens every text starts with: the start token and the prefix's own tokens.
    lead = min(next((i for i, (a, b) in enumerate(zip(states[texts[0]][0], ids)) if a != b), len(ids))
               for ids, _ in states.values())
    content = {t: (ids[lead:-1], s[lead:-1]) for t, (ids, s) in states.items()}
    sentence = {t: s.mean(axis=0) / np.linalg.norm(s.mean(axis=0)) for t, (_, s) in states.items()}
    tuning_texts = {t for language in calibration.LANGUAGES
                    for half, _, base, other in calibration.labelled_pairs(language) if half == "tuning" for t in (base, other)}
    centre = np.concatenate([content[t][1] for t in sorted(tuning_texts)]).mean(axis=0)
    lines_with = {}
    for t in tuning_texts:
        for i in set(content[t][0].tolist()):
            lines_with[i] = lines_with.get(i, 0) + 1
    idf = lambda ids: np.array([np.log((len(tuning_texts) + 1) / (lines_with.get(int(i), 0) + 1)) for i in ids])
    print(f"{len(texts)} lines; {lead} leading tokens (start and prefix) left out of the alignment; "
          f"centre from {len(tuning_texts)} tuning lines")

    def features(base, other):
        (ia, xa), (ib, xb) = content[base], content[other]
        similarities = unit_rows(xa - centre) @ unit_rows(xb - centre).T
        only_a, only_b = ~np.isin(ia, ib), ~np.isin(ib, ia)
        if only_a.any() and only_b.any():
            between = similarities[np.ix_(only_a, only_b)]
            unshared, weighted = f1(between), f1(between, idf(ia[only_a]), idf(ib[only_b]))
        else:
            unshared = weighted = 1.0
        cosine = float(sentence[base] @ sentence[other])
        _, shared_words, shared_trigrams = calibration.features(cosine, base, other)
        return dict(cosine=cosine, alignment=f1(similarities), unsharedAlignment=unshared, weightedUnsharedAlignment=weighted,
                    sharedTokens=1 - (only_a.sum() + only_b.sum()) / (len(ia) + len(ib)),
                    sharedWords=shared_words, sharedTrigrams=shared_trigrams)

    rows = [(language, half, kind, features(base, other))
            for language in calibration.LANGUAGES for half, kind, base, other in calibration.labelled_pairs(language)]
    def tuning_auc(name):
        paraphrase = np.array([f[name] for _, half, kind, f in rows if half == "tuning" and kind == "paraphrase"])
        distinct = np.array([f[name] for _, half, kind, f in rows if half == "tuning" and kind == "distinct"])
        above = paraphrase[:, None] > distinct[None, :]
        return above.mean() + 0.5 * (paraphrase[:, None] == distinct[None, :]).mean()
    print("tuning AUC, paraphrase against distinct: " + ", ".join(f"{n} {tuning_auc(n):.3f}" for n in rows[0][3]))
    for names in FEATURE_SETS:
        print(f"\nfeatures: {', '.join(names)}")
        decision = calibration.Decision([(lang, half, kind, [f[n] for n in names], f["cosine"]) for lang, half, kind, f in rows])
        print(f"threshold {decision.threshold:.4f}")
        decision.report(names)


if __name__ == "__main__":
    main()
