#!/usr/bin/env python3
"""Measures two more paraphrase signals of multilingual-e5-small on the labelled pairs in
eval/novelty/, beside the gate's decision, with one procedure for all (tuning half only for
every choice; the held-out half reported once per signal).

Usage: novelty-signals.py

Signals (each a feature set of one logistic decision, as in novelty-calibration.py):
- gate: the shipped decision's cosine, shared content-word stems, shared character 3-grams;
- diagonal metric: the products uᵢvᵢ of the two unit vectors' values (384 weights: a learned
  diagonal metric, one dot product per stored row at run time) with the two word overlaps;
- remainders: the gate's three, and two similarities of what the lines do not share. A line's
  remainder is its folded words that the other line lacks, in order (novelty-calibration.py's
  words), embedded as a text of its own: remainderCosine is the cosine of the two remainders,
  remainderCoverage the mean cosine of each remainder with the other whole line (an empty
  remainder counts 1). A same-topic line reuses the frame and swaps the content, a paraphrase
  swaps the words and keeps the content, so what differs should still mean the same;
- both: the diagonal metric with the two remainder similarities.

Fitting: novelty-calibration.py's Decision with cross-validation. 5 folds over the tuning half
that keep a topic together (the six files share topics: a base line's topic is the English base
line nearest to it); each tuning pair is scored by the fit without its fold; the cutoff is the
lowest out-of-fold log-odds at which threshold and decision together catch ≤ 2.5% of the tuning
distinct and unrelated pairs; the ridge is the candidate whose cutoff catches the most tuning
paraphrases out of fold. The weights are then fitted on the whole tuning half. Printed per
signal: the out-of-fold figures for each ridge, the out-of-fold AUC of paraphrase against
distinct at the chosen ridge, then the held-out figures.

Vectors come from the built `tandem embed` (scripts/tandem_vectors.py), remainders included.
"""
import importlib.util
import os

import numpy as np

from tandem_vectors import embed_all

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
spec = importlib.util.spec_from_file_location("novelty_calibration", os.path.join(ROOT, "scripts/novelty-calibration.py"))
calibration = importlib.util.module_from_spec(spec)
spec.loader.exec_module(calibration)

LOW_RIDGES = [0.01, 1, 10]
METRIC_RIDGES = [3, 10, 30, 100, 300]
SIGNALS = [
    ("gate", ["cosine", "sharedWords", "sharedTrigrams"], LOW_RIDGES),
    ("diagonal metric", ["uv", "sharedWords", "sharedTrigrams"], METRIC_RIDGES),
    ("remainders", ["cosine", "sharedWords", "sharedTrigrams", "remainderCosine", "remainderCoverage"], LOW_RIDGES),
    ("both", ["uv", "sharedWords", "sharedTrigrams", "remainderCosine", "remainderCoverage"], METRIC_RIDGES),
]


def remainder(line, other):
    """The folded words of `line` that `other` lacks, in order."""
    theirs = set(calibration.words(other))
    return " ".join(w for w in calibration.words(line) if w not in theirs)


def main():
    labelled = [(language,) + pair for language in calibration.LANGUAGES for pair in calibration.labelled_pairs(language)]
    remainders = {text for *_, base, other in labelled for text in (remainder(base, other), remainder(other, base))} - {""}
    texts = calibration.every_text()
    vectors, model_id = embed_all(texts + sorted(remainders))
    embed = vectors.__getitem__
    topic = calibration.topics(embed)
    print(f"model {model_id}: {len(labelled)} pairs, {len(remainders)} remainders embedded")

    def similarity(text, vector):
        return float(embed(text) @ vector) if text else 1.0

    def features(base, other):
        u, v = embed(base), embed(other)
        cosine = float(u @ v)
        _, shared_words, shared_trigrams = calibration.features(cosine, base, other)
        mine, theirs = remainder(base, other), remainder(other, base)
        return dict(cosine=cosine, uv=list(u * v), sharedWords=shared_words, sharedTrigrams=shared_trigrams,
                    remainderCosine=similarity(mine, embed(theirs)) if mine and theirs else 1.0,
                    remainderCoverage=(similarity(mine, v) + similarity(theirs, u)) / 2)

    rows = [(language, half, kind, features(base, other), topic[base]) for language, half, kind, base, other in labelled]
    for name, names, ridges in SIGNALS:
        flat = lambda f: [x for n in names for x in (f[n] if n == "uv" else [f[n]])]
        every = [(language, half, kind, flat(f), f["cosine"], t) for language, half, kind, f, t in rows]
        print(f"\n{name}: {', '.join(names)}")
        decision = calibration.Decision(every, ridges)
        print(f"threshold {decision.threshold:.4f}")
        dimensions = len(rows[0][3]["uv"])
        decision.report([n for n in names for _ in range(dimensions if n == "uv" else 1)])
        kinds = np.array([p[2] for p in decision.tuning])
        paraphrase, distinct = decision.out_of_fold[kinds == "paraphrase"], decision.out_of_fold[kinds == "distinct"]
        print(f"  tuning out-of-fold AUC, paraphrase against distinct: {(paraphrase[:, None] > distinct[None, :]).mean():.3f}")


if __name__ == "__main__":
    main()
