#!/usr/bin/env python3
"""Calibrates the novelty threshold of multilingual-e5-small on the labelled pairs in eval/novelty/.

Usage: novelty-calibration.py [--curated]

Each eval/novelty/<half>/<language>.tsv row is a group: a base line, a near-duplicate of it (one
word changed, added or dropped, or its parts reordered), a paraphrase (the same meaning in other
words), and a distinct line on the same topic. Every pair is (base, other).

Split, fixed: the files in eval/novelty/tuning/ tune, those in eval/novelty/held-out/ (written
later, on other topics, and never fitted on) are held out. Besides the written pairs, each base
line is paired with the distinct line two rows further down (same file, another topic):
unrelated lines, which must never be caught either.

Fitted on the tuning half only, in two parts:
1. the threshold: the lowest cosine at which at most 2.5% of the tuning distinct pairs are
   caught (half the 5% false-alarm budget, as margin for unseen lines);
2. the paraphrase decision (ParaphraseDecision.swift): a logistic regression of paraphrase
   against distinct and unrelated pairs over (cosine, shared content-word stems, shared
   character 3-grams), by Newton's method with a small ridge (deterministic); its cutoff is the
   lowest log-odds at which threshold and decision together still catch at most 2.5% of the
   tuning distinct pairs and of the unrelated ones.
The held-out figures are reported for both together, per language, with the held-out curve of
paraphrases caught against false alarms as the cutoff moves.

Vectors come from the built `tandem embed` with the repo's tandem.json (scripts/tandem_vectors.py):
the vectors the gate compares at run time, "query: " prefix on both sides of every pair.

This script measures; the gate's calibration (this threshold and decision refitted on the same
split, with the token-aligned decision beside them) is written by
`novelty-token-alignment.py --write`, keyed by the model id tandem embed reports
(multilingual-e5-small-q4_0).

--curated also embeds every curated quote (Sources/QuoteLibrary/Catalog/CuratedCatalogData.swift)
and two one-word edits of each (its middle word dropped; its two middle words swapped), and
counts the edits whose nearest curated quote is their source at or above the threshold.
"""
import json
import argparse
import re
import unicodedata
import os
import sys

import numpy as np

import logistic
from tandem_vectors import embed_all
LANGUAGES = os.environ.get("NOVELTY_LANGUAGES", "en de es fr it pt").split()
KINDS = ["near_duplicate", "paraphrase", "distinct"]
TUNING_FALSE_ALARMS = 0.025
RIDGE = 0.01
FOLDS = 5
FEATURES = ["cosine", "sharedWords", "sharedTrigrams"]
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


HALVES = ["tuning", "held-out"]


def groups(language, half):
    path = os.path.join(ROOT, "eval/novelty", half, f"{language}.tsv")
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


def words(text):
    """Folded words split at apostrophes and hyphens, as ParaphraseDecision.words folds them."""
    text = unicodedata.normalize("NFKD", text.lower())
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return re.findall(r"[^\W_]+", text)


def jaccard(a, b):
    return len(a & b) / len(a | b) if a | b else 0.0


def features(cosine, first, second):
    a, b = words(first), words(second)
    stems = lambda ws: {w[:5] for w in ws if len(w) >= 4}
    def trigrams(ws):
        s = " " + " ".join(ws) + " "
        return {s[i:i + 3] for i in range(len(s) - 2)}
    return [cosine, jaccard(stems(a), stems(b)), jaccard(trigrams(a), trigrams(b))]


def every_text(languages=None):
    """Every line of both halves, each once, in file order."""
    texts = [t for language in languages or LANGUAGES for half in HALVES for row in groups(language, half) for t in row]
    return list(dict.fromkeys(texts))


def labelled_pairs(language):
    """(half, kind, base, other) of every pair of one language's two files."""
    out = []
    for half in HALVES:
        body = groups(language, half)
        for number, row in enumerate(body):
            others = list(zip(KINDS, row[1:]))
            if number + 2 < len(body):
                others.append(("unrelated", body[number + 2][3]))
            out.extend((half, kind, row[0], other) for kind, other in others)
    return out


def topics(embed):
    """{base line: topic}: the index of the English base line nearest to it (itself in English),
    so that cross-validation folds keep a topic's rows in all six files together."""
    english = [row[0] for row in groups("en" if "en" in LANGUAGES else LANGUAGES[0], "tuning")]
    matrix = np.stack([embed(t) for t in english])
    return {row[0]: int(np.argmax(matrix @ embed(row[0])))
            for language in LANGUAGES for half in HALVES for row in groups(language, half)}


def pairs(embed, language):
    """(half, kind, features, cosine) of every pair of one language's file."""
    out = []
    for half, kind, base, other in labelled_pairs(language):
        cosine = float(embed(base) @ embed(other))
        out.append((half, kind, features(cosine, base, other), cosine))
    return out


class Decision:
    """The threshold and the paraphrase decision fitted on the tuning pairs of `every`
    ((language, half, kind, features, cosine) rows, a topic after them when cross-validated), as
    the module docstring describes, with the rates they give. Without `ridges`, the ridge is RIDGE
    and the cutoff is chosen on the tuning pairs' own log-odds (novelty-token-alignment.py's
    few features); with them, both come from the topic-grouped cross-validation, and so does the
    threshold when `allowances` (shares of tuning distinct pairs the threshold alone may catch)
    are given: a lower threshold spends the false-alarm budget on every same-topic line close
    enough, whatever its wording, where the decision would spend it on the pairs it ranks as
    paraphrases. `threshold` fixes the threshold instead (the word-overlap decision shares the
    token-aligned one's: the gate has one per model)."""

    def __init__(self, every, ridges=None, allowances=(TUNING_FALSE_ALARMS,), threshold=None):
        self.every = every
        self.tuning = [p for p in every if p[1] == "tuning"]
        self.held = [p for p in every if p[1] == "held-out"]
        self.distinct = sorted(p[4] for p in self.tuning if p[2] == "distinct")
        self.tuning_distinct = len(self.distinct)
        self.set_threshold(allowances[0], threshold)
        x = np.array([p[3] for p in self.tuning], dtype=np.float64)
        kinds = np.array([p[2] for p in self.tuning])
        fitted = np.isin(kinds, ["paraphrase", "distinct", "unrelated"])
        self.cross_validation = {}
        if ridges is None:
            self.ridge = RIDGE
            self.weights, self.bias = logistic.fit(x[fitted], kinds[fitted] == "paraphrase", RIDGE, standardise=True)
            self.cutoff = self.lowest_cutoff(x @ self.weights + self.bias)
            return
        order = sorted({p[5] for p in self.tuning})
        fold_of = {topic: index % FOLDS for index, topic in enumerate(order)}
        folds = np.array([fold_of[p[5]] for p in self.tuning])
        for ridge in ridges:
            scores = np.zeros(len(self.tuning))
            for fold in range(FOLDS):
                train = fitted & (folds != fold)
                w, b = logistic.fit(x[train], kinds[train] == "paraphrase", ridge, standardise=True)
                scores[folds == fold] = x[folds == fold] @ w + b
            for allowance in allowances:
                self.set_threshold(allowance, threshold)
                cutoff = self.lowest_cutoff(scores)
                self.cross_validation[(allowance, ridge)] = (
                    cutoff, {kind: self.caught_share(scores, cutoff, kind) for kind in KINDS + ["unrelated"]}, scores)
        # Every near-duplicate caught out of fold, then the most paraphrases; on a tie the
        # stronger ridge and the larger allowance.
        def merit(key):
            shares = self.cross_validation[key][1]
            return (shares["near_duplicate"] == 1, shares["paraphrase"], key[1], key[0])
        allowance, self.ridge = max(self.cross_validation, key=merit)
        self.set_threshold(allowance, threshold)
        self.cutoff, _, self.out_of_fold = self.cross_validation[(allowance, self.ridge)]
        self.weights, self.bias = logistic.fit(x[fitted], kinds[fitted] == "paraphrase", self.ridge, standardise=True)

    def set_threshold(self, allowance, threshold=None):
        """`threshold`, or the lowest with at most `allowance` of the tuning distinct pairs at or
        above it."""
        self.allowance = allowance
        self.allowed = int(np.floor(allowance * self.tuning_distinct))
        self.threshold = threshold if threshold is not None else float(
            np.nextafter(np.float32(self.distinct[self.tuning_distinct - 1 - self.allowed]), np.float32(2)))

    def caught_share(self, scores, cutoff, kind):
        chosen = np.array([p[2] == kind for p in self.tuning])
        cosines = np.array([p[4] for p in self.tuning])
        return float(np.mean((cosines[chosen] >= self.threshold) | (scores[chosen] >= cutoff)))

    def lowest_cutoff(self, scores):
        """The lowest of the tuning pairs' `scores` at which threshold and decision together catch
        at most TUNING_FALSE_ALARMS of the distinct and of the unrelated tuning pairs."""
        cutoff = float(np.max(scores)) + 1
        for candidate in sorted(set(scores.tolist()), reverse=True):
            if all(self.caught_share(scores, candidate, kind) <= TUNING_FALSE_ALARMS for kind in ("distinct", "unrelated")):
                cutoff = candidate
            else:
                break
        return cutoff

    def odds(self, f):
        return float(self.bias + self.weights @ np.asarray(f))

    def caught(self, pair, cutoff):
        return pair[4] >= self.threshold or self.odds(pair[3]) >= cutoff

    def rate(self, selection, kind, cutoff=None):
        cutoff = self.cutoff if cutoff is None else cutoff
        chosen = [p for p in selection if p[2] == kind]
        return sum(self.caught(p, cutoff) for p in chosen) / len(chosen), len(chosen)

    def report(self, names):
        kinds = KINDS + ["unrelated"]
        # Weights named "uv" are a diagonal metric's (one per dimension): summarised, not listed.
        metric = np.array([w for w, n in zip(self.weights, names) if n == "uv"])
        terms = ([f"Σ mᵢ uᵢvᵢ ({len(metric)} weights m, mean {metric.mean():.2f}, deviation {metric.std():.2f})"]
                 if len(metric) else []) + [f"{w:.4f} {n}" for w, n in zip(self.weights, names) if n != "uv"]
        print(f"paraphrase decision: log-odds = {self.bias:.4f} + " + " + ".join(terms)
              + f", ridge {self.ridge}, cutoff {self.cutoff:.4f}")
        for (allowance, ridge), (cutoff, shares, _) in self.cross_validation.items():
            print(f"  tuning {FOLDS}-fold, threshold allowance {allowance:.1%}, ridge {ridge}: cutoff {cutoff:.3f}, "
                  + ", ".join(f"{kind} {share:.1%}" for kind, share in shares.items()))
        for half, selection in (("tuning", self.tuning), ("held-out", self.held)):
            print(f"  {half}: " + ", ".join(f"{kind} {self.rate(selection, kind)[0]:.1%} of {self.rate(selection, kind)[1]}"
                                            for kind in kinds))
        for language in LANGUAGES:
            mine = [p for p in self.held if p[0] == language]
            print(f"  held-out {language}: " + ", ".join(f"{kind} {self.rate(mine, kind)[0]:.0%}" for kind in kinds))
        print("  held-out curve (cutoff: paraphrases caught / distinct caught / unrelated caught):")
        for shift in (-2, -1.5, -1, -0.5, 0, 0.5, 1):
            print(f"    {self.cutoff + shift:.2f}: " + " / ".join(f"{self.rate(self.held, kind, self.cutoff + shift)[0]:.1%}"
                                                        for kind in ("paraphrase", "distinct", "unrelated")))
        cosine_only = {kind: sum(p[4] >= self.threshold for p in self.held if p[2] == kind)
                       / sum(p[2] == kind for p in self.held) for kind in kinds}
        print("  held-out, threshold alone: " + ", ".join(f"{k} {v:.1%}" for k, v in cosine_only.items()))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--curated", action="store_true", help="also check one-word edits of every curated quote")
    args = parser.parse_args()
    texts = every_text()
    if args.curated:
        texts += [edited for text in curated_texts() for edited in [text] + [e for _, e in one_word_edits(text)]]
    vectors, model_id = embed_all(texts)
    embed = vectors.__getitem__
    every = [(language,) + pair for language in LANGUAGES for pair in pairs(embed, language)]
    decision = Decision(every)
    threshold = decision.threshold
    if args.curated:
        curated_check(embed, threshold)
    print(f"model {model_id}: threshold {threshold:.4f} ({decision.allowed} of {decision.tuning_distinct} tuning distinct pairs allowed above)")
    decision.report(FEATURES)


if __name__ == "__main__":
    main()
