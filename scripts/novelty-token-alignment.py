#!/usr/bin/env python3
"""Measures token-level alignment as a paraphrase signal on the labelled pairs in eval/novelty/.

Usage: novelty-token-alignment.py [--write]

The sentence cosine of multilingual-e5-small puts paraphrases and distinct same-topic lines in
one band (see the novelty section of Sources/QuoteLibrary/README.md). This script asks whether
the encoder's per-token states, before pooling, separate them better, in the style of BERTScore:
every token of one line is matched greedily to its most similar token of the other.

Features of a pair (base, other), besides novelty-calibration.py's three (cosine, shared
content-word stems, shared character 3-grams):
- alignment: BERTScore F1 over the content tokens (a text's own tokens: not the start and end
  tokens, nor the leading tokens it shares with the prefix tokenised alone, "query: " here: the
  tokens tandem.llama's tandem.token_embeddings/1 extension returns),
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
the tuning distinct and unrelated pairs) are novelty-calibration.py's, fitted on the tuning files
only; the held-out figures (eval/novelty/held-out, written after the rules were chosen) are
printed for each feature set.

The gate's two decisions (--write regenerates the model's Sources/QuoteLibrary/Novelty/Calibrations/ file
with both, the threshold, the alignment's centre and the tuning lines' token document frequencies):
- tokenAligned (cosine, weightedUnsharedAlignment, sharedWords, sharedTrigrams;
  AlignedParaphraseDecision): the threshold, the ridge and the cutoff from 5-fold
  cross-validation on the tuning half whose folds keep a topic together (novelty-calibration.py's
  Decision with ridges and allowances): for each ridge and each share of the tuning distinct
  pairs the threshold alone may catch (THRESHOLD_ALLOWANCES), the cutoff is the lowest
  out-of-fold log-odds at which the threshold and the decision catch ≤ 2.5% of the tuning
  distinct and unrelated pairs; the choice catches every near-duplicate and the most
  paraphrases out of fold. A cutoff chosen on the fitted pairs' own log-odds is optimistic (it
  gave 5.8% held-out false alarms for 2.5% on tuning); out-of-fold log-odds are what unseen
  lines get. A threshold that may catch 2.5% of the tuning distinct pairs left the decision no
  budget, and on lines written later the same-topic pairs above it were 8.3% (EmbeddingGemma):
  the cosine alone cannot tell a close same-topic line from a paraphrase, the wording can;
- wordOverlaps (cosine, sharedWords, sharedTrigrams; ParaphraseDecision), used when the embedder
  gives no per-token states: fitted as novelty-calibration.py fits it, with tokenAligned's
  threshold (the gate has one per model), the cutoff on the tuning pairs' own log-odds.

States come from the built `tandem-llama token-states` on the quote embedder's model file with
its embedding prefix, from tandem.json (or TANDEM_VECTORS_CONFIG, as scripts/tandem_vectors.py
reads it): the tokens and states the gate's encoder computes. --write writes that model's entry,
`Sources/QuoteLibrary/Novelty/Calibrations/NoveltyCalibration+<model id>.swift`; `NoveltyCalibrations.all` lists the
entries. Needs `swift build -c release --product tandem-llama` and the model file first.
"""
import argparse
import importlib.util
import os

import numpy as np

from tandem_vectors import embed_all, own_tokens, swift_identifier, token_states, unit_rows

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
spec = importlib.util.spec_from_file_location("novelty_calibration", os.path.join(ROOT, "scripts/novelty-calibration.py"))
calibration = importlib.util.module_from_spec(spec)
spec.loader.exec_module(calibration)

OUTPUTS = os.path.join(ROOT, "Sources/QuoteLibrary/Novelty/Calibrations")
WORD_OVERLAPS = ["cosine", "sharedWords", "sharedTrigrams"]
TOKEN_ALIGNED = ["cosine", "weightedUnsharedAlignment", "sharedWords", "sharedTrigrams"]
RIDGES = [0.01, 1, 10]
# Shares of the tuning distinct pairs the threshold alone may catch, tried in the cross-validation.
THRESHOLD_ALLOWANCES = [0.025, 0.01, 0.0]
FEATURE_SETS = [
    ["cosine", "sharedWords", "sharedTrigrams"],
    ["cosine", "alignment", "sharedWords", "sharedTrigrams"],
    ["cosine", "unsharedAlignment", "sharedWords", "sharedTrigrams"],
    ["cosine", "unsharedAlignment", "sharedTokens", "sharedWords", "sharedTrigrams"],
    ["cosine", "weightedUnsharedAlignment", "sharedWords", "sharedTrigrams"],
    ["cosine", "weightedUnsharedAlignment", "sharedTokens", "sharedWords", "sharedTrigrams"],
]


def f1(similarities, row_weights=None, column_weights=None):
    recall = np.average(similarities.max(axis=1), weights=row_weights)
    precision = np.average(similarities.max(axis=0), weights=column_weights)
    return 2 * recall * precision / (recall + precision)


def main():
    texts = sorted(calibration.every_text())
    parser = argparse.ArgumentParser()
    parser.add_argument("--write", action="store_true", help="regenerate the model's entry in " + os.path.relpath(OUTPUTS, ROOT))
    args = parser.parse_args()
    states, prefix_ids = token_states(texts)
    own = {t: own_tokens(ids, prefix_ids) for t, (ids, _) in states.items()}
    content = {t: (ids[own[t]], s[own[t]]) for t, (ids, s) in states.items()}
    # The cosine is the gate's: of the vectors tandem embed gives (for e5 the states' mean itself;
    # EmbeddingGemma projects the mean before normalising).
    sentence, model_id = embed_all(texts)
    tuning_texts = {t for language in calibration.LANGUAGES
                    for half, _, base, other in calibration.labelled_pairs(language) if half == "tuning" for t in (base, other)}
    centre = np.concatenate([content[t][1] for t in sorted(tuning_texts)]).mean(axis=0)
    lines_with = {}
    for t in tuning_texts:
        for i in set(content[t][0].tolist()):
            lines_with[i] = lines_with.get(i, 0) + 1
    idf = lambda ids: np.array([np.log((len(tuning_texts) + 1) / (lines_with.get(int(i), 0) + 1)) for i in ids])
    leads = sorted({own[t].start for t in texts})
    print(f"{len(texts)} lines; {', '.join(map(str, leads))} leading tokens (start and prefix) left out of the alignment; "
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

    labelled = [(language, half, kind, base, other)
                for language in calibration.LANGUAGES for half, kind, base, other in calibration.labelled_pairs(language)]
    rows = [(language, half, kind, features(base, other)) for language, half, kind, base, other in labelled]
    bases = [base for _, _, _, base, _ in labelled]
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

    topic = calibration.topics(sentence.__getitem__)
    print(f"\nthe gate's token-aligned decision, cross-validated over topics: {', '.join(TOKEN_ALIGNED)}")
    aligned = calibration.Decision([(lang, half, kind, [f[n] for n in TOKEN_ALIGNED], f["cosine"], topic[base])
                                    for (lang, half, kind, f), base in zip(rows, bases)], ridges=RIDGES,
                                   allowances=THRESHOLD_ALLOWANCES)
    print(f"threshold {aligned.threshold:.4f} ({aligned.allowed} of {aligned.tuning_distinct} tuning distinct pairs above it)")
    aligned.report(TOKEN_ALIGNED)
    words = calibration.Decision([(lang, half, kind, [f[n] for n in WORD_OVERLAPS], f["cosine"]) for lang, half, kind, f in rows],
                                 threshold=aligned.threshold)
    if args.write:
        write(words, aligned, centre, len(tuning_texts), lines_with, model_id)


def swift_numbers(values, per_line):
    text = lambda v: str(v) if isinstance(v, int) else f"{v:.7g}"
    chunks = [", ".join(text(v) for v in values[i:i + per_line]) for i in range(0, len(values), per_line)]
    return ",\n                ".join(chunks)


def write(words, aligned, centre, lines, lines_with, model_id):
    kinds = calibration.KINDS + ["unrelated"]
    held = lambda decision: {kind: decision.rate(decision.held, kind)[0] for kind in kinds}
    plain, tokens = held(words), held(aligned)
    pairs_count = sum(p[2] in calibration.KINDS for p in words.held)
    ids = sorted(lines_with)
    name = swift_identifier(model_id)
    output = os.path.join(OUTPUTS, f"NoveltyCalibration+{model_id}.swift")
    os.makedirs(OUTPUTS, exist_ok=True)
    with open(output, "w", encoding="utf-8") as f:
        f.write("// Written by scripts/novelty-token-alignment.py --write; do not edit by hand (run the script again).\n")
        f.write("extension NoveltyCalibrations {\n")
        f.write(f'    static let {name} = NoveltyCalibration(model: "{model_id}", threshold: {words.threshold:.6f},\n')
        f.write("                           paraphrase: ParaphraseDecision(weights: ["
                + ", ".join(f"{w:.6f}" for w in words.weights) + f"], bias: {words.bias:.6f}, cutoff: {words.cutoff:.6f}),\n")
        f.write(f"                           tokenAligned: {name}TokenAligned,\n")
        f.write(f"                           heldOutNearDuplicatesCaught: {plain['near_duplicate']:.4f}, "
                f"heldOutParaphrasesCaught: {plain['paraphrase']:.4f},\n")
        f.write(f"                           heldOutFalseAlarms: {plain['distinct']:.4f}, heldOutPairs: {pairs_count})\n\n")
        f.write(f"    /// {model_id}: ridge {aligned.ridge}; held out, near-duplicates {tokens['near_duplicate']:.1%}, "
                f"unrelated {tokens['unrelated']:.1%}.\n")
        f.write(f"    static let {name}TokenAligned = AlignedParaphraseDecision(\n        weights: ["
                + ", ".join(f"{w:.6f}" for w in aligned.weights) + f"], bias: {aligned.bias:.6f}, cutoff: {aligned.cutoff:.6f},\n")
        f.write(f"        alignment: TokenAlignment(\n            centre: [\n                {swift_numbers([float(v) for v in centre], 8)}],\n")
        f.write(f"            lines: {lines},\n")
        f.write(f"            tokenIDs: [\n                {swift_numbers(ids, 16)}],\n")
        f.write(f"            linesWith: [\n                {swift_numbers([lines_with[i] for i in ids], 24)}]),\n")
        f.write(f"        heldOutParaphrasesCaught: {tokens['paraphrase']:.4f}, heldOutFalseAlarms: {tokens['distinct']:.4f}, "
                f"heldOutUnrelatedCaught: {tokens['unrelated']:.4f})\n")
        f.write("}\n")
    print(f"wrote {os.path.relpath(output, ROOT)}")


if __name__ == "__main__":
    main()
