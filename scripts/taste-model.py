#!/usr/bin/env python3
"""Fits the taste classifier of the quote pipeline: a logistic regression over the sentence
embedding of a line (the repo's quote embedder), good against generic, clichéd or no sentence
at all.

Usage: taste-model.py [--write]

Data, the six languages together: eval/lines/<language>.good.txt and <language>.generic.txt
(a line is in the tuning half when the 64-bit FNV-1a hash of its UTF-8 text is even, as
LabelledLines.isTuning splits it), and the good, generic and fragment lines of
eval/drafts/tuning, written apart by writers who never saw the rules (eval/drafts/README.md). A
model fitted on our lines alone knew our clichés and rejected plain good lines of other writers;
one fitted without the fragments (strings of phrases with no finite verb) took the small chat
model's fragments for good lines ("A night at the kitchen table with a mug of sweet chai.").
Only tuning lines are fitted; eval/lines' held-out half and eval/drafts/held-out's good and
generic lines are measured.

Fit: Newton's method on the vector components and an intercept, with a ridge penalty on
the weights. The ridge strength is the one of RIDGES with the best mean log-loss over a 5-fold
split of the tuning half (fold = line index mod 5 within each file, so the choice is fixed).
The acceptance cutoff is even odds (log-odds 0, the regression's own boundary), lowered when
needed so that it keeps at least 97.5% of the tuning good lines (a lost good line costs a whole
new draft; the judge and distinctiveness also stand against generic ones).

Vectors come from the built `tandem embed` with the repo's tandem.json, or TANDEM_VECTORS_CONFIG
(scripts/tandem_vectors.py), as the pipeline embeds a draft. --write writes that model's entry,
Sources/QuoteLibrary/Taste/Models/TasteModel+<model id>.swift, keyed by the model id tandem embed reports;
`TasteModels.all` lists the entries.
"""
import argparse
import os
import sys

import numpy as np

import logistic
from labelled_lines import LANGUAGES, ROOT, drafts, is_tuning, lines
from tandem_vectors import embed_all, swift_identifier

RIDGES = [0.1, 0.3, 1.0, 3.0, 10.0, 30.0]
FOLDS = 5
KEEP_GOOD = 0.975
OUTPUTS = os.path.join(ROOT, "Sources/QuoteLibrary/Taste/Models")


def auc(scores, labels):
    good = scores[labels == 1]
    generic = scores[labels == 0]
    wins = (good[:, None] > generic[None, :]).sum() + 0.5 * (good[:, None] == generic[None, :]).sum()
    return wins / (len(good) * len(generic))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--write", action="store_true", help="regenerate the model's entry in " + os.path.relpath(OUTPUTS, ROOT))
    args = parser.parse_args()
    labelled = []  # (language, half, label, fold, line)
    for language in LANGUAGES:
        for kind, label in (("good", 1), ("generic", 0)):
            for index, line in enumerate(lines(language, kind)):
                labelled.append((language, "tuning" if is_tuning(line) else "held-out", label, index % FOLDS, line))
        for kind, label in (("good", 1), ("generic", 0), ("fragment", 0)):
            for index, line in enumerate(drafts("tuning", language, kind)):
                labelled.append((language, "tuning", label, index % FOLDS, line))
    written_apart = [(language, kind, line) for language in LANGUAGES for kind in ("good", "generic")
                     for line in drafts("held-out", language, kind)]
    vectors, model_id = embed_all([r[4] for r in labelled] + [line for *_, line in written_apart])
    rows = [r[:4] + (vectors[r[4]],) for r in labelled]  # (language, half, label, fold, vector)
    tuning = [r for r in rows if r[1] == "tuning"]
    x = np.stack([r[4] for r in tuning]).astype(np.float64)
    y = np.array([r[2] for r in tuning], dtype=np.float64)
    folds = np.array([r[3] for r in tuning])
    ridge, losses = logistic.choose_ridge(x, y, folds, RIDGES)
    weights, bias = logistic.fit(x, y, ridge)
    logit = lambda v: float(v @ weights + bias)
    good_tuning = sorted(logit(r[4]) for r in tuning if r[2] == 1)
    cutoff = min(0.0, good_tuning[int(np.floor((1 - KEEP_GOOD) * len(good_tuning)))])
    print(f"model {model_id}: ridge {ridge} (5-fold log-loss " + ", ".join(f"{r}: {l:.4f}" for r, l in losses.items())
          + f"), cutoff log-odds {cutoff:.4f}")
    figures = {}
    for half in ("tuning", "held-out"):
        for language in LANGUAGES + ["all"]:
            chosen = [r for r in rows if r[1] == half and language in (r[0], "all")]
            scores = np.array([logit(r[4]) for r in chosen])
            labels = np.array([r[2] for r in chosen])
            accepted_good = np.mean(scores[labels == 1] >= cutoff)
            rejected_generic = np.mean(scores[labels == 0] < cutoff)
            accuracy = np.mean((scores >= cutoff) == (labels == 1))
            figures[(half, language)] = (auc(scores, labels), accuracy, accepted_good, rejected_generic, len(chosen))
            if language == "all":
                print(f"  {half}: lowest good log-odds {scores[labels == 1].min():.3f}, "
                      f"highest generic {scores[labels == 0].max():.3f}")
            print(f"  {half} {language}: AUC {figures[(half, language)][0]:.3f}, accuracy {accuracy:.1%}, "
                  f"good accepted {accepted_good:.1%}, generic rejected {rejected_generic:.1%} ({len(chosen)} lines)")
    for language in LANGUAGES + ["all"]:
        good = [logit(vectors[line]) for l, kind, line in written_apart if language in (l, "all") and kind == "good"]
        generic = [logit(vectors[line]) for l, kind, line in written_apart if language in (l, "all") and kind == "generic"]
        print(f"  eval/drafts/held-out {language}: good {sum(o >= cutoff for o in good)}/{len(good)} accepted, "
              f"generic {sum(o < cutoff for o in generic)}/{len(generic)} rejected")
    if args.write:
        held = figures[("held-out", "all")]
        output = os.path.join(OUTPUTS, f"TasteModel+{model_id}.swift")
        os.makedirs(OUTPUTS, exist_ok=True)
        with open(output, "w", encoding="utf-8") as f:
            f.write("// Written by scripts/taste-model.py --write; do not edit by hand (run the script again).\n")
            f.write("extension TasteModels {\n")
            f.write(f'    static let {swift_identifier(model_id)} = TasteModel(model: "{model_id}", bias: {bias:.6f}, cutoff: {cutoff:.6f},\n')
            f.write(f"                   heldOutAUC: {held[0]:.4f}, heldOutAccuracy: {held[1]:.4f}, heldOutLines: {held[4]},\n")
            f.write("                   weights: [\n")
            for start in range(0, len(weights), 8):
                f.write("                       " + ", ".join(f"{w:.6f}" for w in weights[start:start + 8]) + ",\n")
            f.write("                   ])\n}\n")
        print(f"wrote {os.path.relpath(output, ROOT)}")


if __name__ == "__main__":
    main()
