#!/usr/bin/env python3
"""Fits the register model of the quote pipeline: two heads over what the encoder made of a draft
(its sentence embedding, and the mean and the componentwise maximum of its token states, each
state centred by the tuning lines' mean token state and made unit: RegisterModel.features) that
tell a line from chat talk about the exchange ("I hope this captures the warmth you were looking
for!") and from a saying credited to someone ("My neighbour swears that …"), the forms the
deterministic gate's rules do not know (Sources/QuoteLibrary/README.md, "Register").

Usage: register-model.py [--write]

Data (eval/drafts/README.md): the `leftover` and `attribution` lines of eval/drafts/tuning are the
positives of the two heads; the negatives are every line of eval/drafts/tuning of another kind
(good, generic, odd, fragment, and the other head's positives) and the tuning half of eval/lines
(its held-out half stays out, so that the held-out good-line figures stay clean). eval/drafts/held-out
is only measured.

Fit: each head is two logistic regressions, one on the sentence vector, one on the pooled token
states (`fit_head`), each by Newton's method on the components and an intercept, with a ridge
penalty chosen by 5-fold log-loss on the tuning data (fold = line index mod 5 within each file);
the head's score is their sum, each scaled by its out-of-fold spread. The cutoff is the score
above which lie 0.5% of the tuning good lines the rules pass (`GOOD_FLAGGED`; the register
only sees what the rules pass, and a lost good line costs a whole new draft), each scored out of
fold, by the fit on the other four folds, as an unseen line would be.

Vectors come from the built `tandem embed` with the repo's tandem.json, or TANDEM_VECTORS_CONFIG, and
token states from the built `tandem-llama token-states` on that embedder's model file and prefix
(scripts/tandem_vectors.py). --write writes Sources/QuoteLibrary/Register/Models/RegisterModel+<model
id>.swift; `RegisterModels.all` lists the entries.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

import logistic
from labelled_lines import LANGUAGES, ROOT, drafts, is_tuning, lines
from tandem_vectors import TANDEM, embed_all, own_tokens, swift_identifier, token_states, unit_rows

RIDGES = [0.01, 0.03, 0.1, 0.3, 1.0, 3.0, 10.0]
FOLDS = 5  # fold = line index mod 5 within each file
KINDS = ["good", "generic", "odd", "fragment", "leftover", "attribution"]
# (head, the kind it catches); each may flag this share of the tuning good lines the rules pass
HEADS = [("talk", "leftover"), ("attribution", "attribution")]
GOOD_FLAGGED = 0.005
RULE_GATES = {"attribution", "promptFragment"}
OUTPUTS = os.path.join(ROOT, "Sources/QuoteLibrary/Register/Models")


def token_features(texts, tuning_texts):
    """{text: mean and componentwise maximum of its own token states, centred and made unit} and the
    centre: the mean own-token state of `tuning_texts` (RegisterModel.tokenCentre)."""
    states, prefix_ids = token_states(texts)
    own = {text: rows[own_tokens(ids, prefix_ids)] for text, (ids, rows) in states.items()}
    if empty := [text for text, rows in own.items() if len(rows) == 0]:
        sys.exit(f"error: no tokens of their own in {len(empty)} lines, e.g. {empty[0]!r}")
    centre = np.concatenate([own[text] for text in sorted(set(tuning_texts))]).mean(axis=0)
    pooled = {}
    for text, rows in own.items():
        centred = rows - centre
        unit = unit_rows(centred)
        pooled[text] = np.concatenate([unit.mean(axis=0), unit.max(axis=0)])
    return pooled, centre


def fit_head(parts, y, folds):
    """One logistic regression per part of the features (the sentence vector; the pooled token
    states), each with its own ridge, summed after each part's out-of-fold log-odds are scaled to
    mean 0 and deviation 1: one affine function over the parts side by side. A single regression
    over all of them, with one ridge for both, caught fewer tuning attributions out of fold
    (Sources/QuoteLibrary/README.md, "Register"). Returns the ridges and losses, the weights, the
    bias and every row's out-of-fold score."""
    choices, weights, bias, unseen = [], [], 0.0, np.zeros(len(y))
    for x in parts:
        ridge, losses = logistic.choose_ridge(x, y, folds, RIDGES)
        w, b = logistic.fit(x, y, ridge)
        part_unseen = logistic.out_of_fold(x, y, folds, ridge)
        centre, scale = part_unseen.mean(), part_unseen.std()
        choices.append((ridge, losses))
        weights.append(w / scale)
        bias += (b - centre) / scale
        unseen += (part_unseen - centre) / scale
    return choices, np.concatenate(weights), bias, unseen


def taken_by_the_rules(texts_by_language):
    """The texts the deterministic gate's rules reject as a leftover or an attribution: `tandem
    quote check --file` per language, with a config that names no embedder (so no register)."""
    taken = set()
    with tempfile.TemporaryDirectory() as folder:
        config = os.path.join(folder, "tandem.json")
        with open(config, "w", encoding="utf-8") as f:
            json.dump({"plugins_dir": os.path.join(ROOT, "plugins.d"), "backends": {}, "store": "library.sqlite",
                       "quote": {"word_frequencies": os.path.join(ROOT, "models/word-frequencies")}}, f)
        for language, texts in texts_by_language.items():
            drafts_file = os.path.join(folder, f"{language}.txt")
            with open(drafts_file, "w", encoding="utf-8") as f:
                f.write("".join(text + "\n" for text in texts))
            done = subprocess.run([TANDEM, "quote", "check", "--config", config, "--locale", language, "--file", drafts_file, "--json"],
                                  capture_output=True, text=True)
            if done.returncode not in (0, 1):
                sys.exit(f"error: tandem quote check exited {done.returncode}: {done.stderr.strip()[-500:]}")
            reports = [json.loads(line) for line in done.stdout.splitlines()]
            if [r["text"] for r in reports] != texts:
                sys.exit(f"error: tandem quote check --file answered {len(reports)} drafts of {len(texts)} ({language})")
            taken |= {r["text"] for r in reports if any(g["gate"] in RULE_GATES and not g["passed"] for g in r["gates"])}
    return taken


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--write", action="store_true", help="regenerate the model's entry in " + os.path.relpath(OUTPUTS, ROOT))
    args = parser.parse_args()
    rows = []  # (half, language, kind, fold, text)
    for language in LANGUAGES:
        for kind in ("good", "generic"):
            for index, line in enumerate(l for l in lines(language, kind) if is_tuning(l)):
                rows.append(("tuning", language, kind, index % FOLDS, line))
        for half in ("tuning", "held-out"):
            for kind in KINDS:
                for index, line in enumerate(drafts(half, language, kind)):
                    rows.append((half, language, kind, index % FOLDS, line))
    held_out_good = [(language, line) for language in LANGUAGES for line in lines(language, "good") if not is_tuning(line)]
    texts = [r[4] for r in rows] + [line for _, line in held_out_good]
    vectors, model_id = embed_all(texts)
    tuning = [r for r in rows if r[0] == "tuning"]
    pooled, centre = token_features(sorted(set(texts)), [r[4] for r in tuning])
    features = {text: np.concatenate([vectors[text], pooled[text]]) for text in vectors}
    parts = [np.stack([vectors[r[4]] for r in tuning]), np.stack([pooled[r[4]] for r in tuning])]
    folds = np.array([r[3] for r in tuning])
    taken = taken_by_the_rules({language: sorted({r[4] for r in tuning if r[1] == language and r[2] == "good"}) for language in LANGUAGES})
    heads = {}
    for head, kind in HEADS:
        y = np.array([1.0 if r[2] == kind else 0.0 for r in tuning])
        choices, weights, bias, unseen = fit_head(parts, y, folds)
        logit = lambda text: float(features[text] @ weights + bias)
        good = sorted((unseen[i] for i, r in enumerate(tuning) if r[2] == "good" and r[4] not in taken), reverse=True)
        cutoff = float(good[int(GOOD_FLAGGED * len(good))])
        print(f"{head}: model {model_id}, "
              + "; ".join(f"{part} ridge {ridge} (5-fold log-loss " + ", ".join(f"{r}: {l:.4f}" for r, l in losses.items()) + ")"
                          for part, (ridge, losses) in zip(("sentence", "tokens"), choices))
              + f", cutoff {cutoff:.4f} "
              + f"(over {len(good)} tuning good lines the rules pass, {sum(1 for r in tuning if r[2] == 'good' and r[4] in taken)} taken)")
        figures = {}
        for half in ("tuning", "held-out"):
            for language in LANGUAGES + ["all"]:
                chosen = [r for r in rows if r[0] == half and language in (r[1], "all")]
                caught = [logit(r[4]) > cutoff for r in chosen if r[2] == kind]
                flagged = [logit(r[4]) > cutoff for r in chosen if r[2] == "good"]
                figures[(half, language)] = (sum(caught), len(caught), sum(flagged), len(flagged))
                print(f"  {half} {language}: {kind} caught {sum(caught)}/{len(caught)}, good lines flagged {sum(flagged)}/{len(flagged)}")
        flagged = [line for language, line in held_out_good if logit(line) > cutoff]
        print(f"  eval/lines held-out good lines flagged: {len(flagged)}/{len(held_out_good)}")
        heads[head] = (bias, cutoff, weights, figures[("held-out", "all")])
    if args.write:
        output = os.path.join(OUTPUTS, f"RegisterModel+{model_id}.swift")
        os.makedirs(OUTPUTS, exist_ok=True)
        with open(output, "w", encoding="utf-8") as f:
            f.write("// Written by scripts/register-model.py --write; do not edit by hand (run the script again).\n")
            f.write("extension RegisterModels {\n")
            f.write(f'    static let {swift_identifier(model_id)} = RegisterModel(model: "{model_id}",\n')
            f.write("        tokenCentre: [\n")
            for start in range(0, len(centre), 8):
                f.write("            " + ", ".join(f"{c:.6f}" for c in centre[start:start + 8]) + ",\n")
            f.write("        ],\n")
            for head, _ in HEADS:
                bias, cutoff, weights, held = heads[head]
                f.write(f"        {head}: LinearHead(bias: {bias:.6f}, cutoff: {cutoff:.6f},\n")
                f.write(f"                           heldOutCaught: {held[0]}, heldOutLines: {held[1]}, heldOutGoodFlagged: {held[2]}, heldOutGood: {held[3]},\n")
                f.write("                           weights: [\n")
                for start in range(0, len(weights), 8):
                    f.write("                               " + ", ".join(f"{w:.6f}" for w in weights[start:start + 8]) + ",\n")
                f.write("                           ])" + (",\n" if head == "talk" else ")\n"))
            f.write("}\n")
        print(f"wrote {os.path.relpath(output, ROOT)}")


if __name__ == "__main__":
    main()
