#!/usr/bin/env python3
"""Fits the register model of the quote pipeline: two heads over what the encoder made of a draft
(its sentence embedding, and the mean and the componentwise maximum of its token states, each
state centred by the tuning lines' mean token state and made unit: RegisterModel.features) that
tell a line from chat talk about the exchange ("I hope this captures the warmth you were looking
for!") and from a saying credited to someone ("My neighbour swears that …"), the forms the
deterministic gate's rules do not know (Sources/QuoteLibrary/README.md, "Register").

Usage: register-model.py [--write] [--states-cache DIR]

Data (eval/drafts/README.md): the `leftover` and `attribution` lines of eval/drafts/tuning are the
positives of the two heads; the negatives are every line of eval/drafts/tuning of another kind
(good, generic, odd, fragment, and the other head's positives) and the tuning half of eval/lines
(its held-out half stays out, so that the held-out good-line figures stay clean). eval/drafts/held-out
is only measured.

Fit: the talk head is two logistic regressions, one on the sentence vector, one on the pooled token
states (`fit_linear`), each by Newton's method on the components and an intercept, with a ridge
penalty chosen by 5-fold log-loss on the tuning data (fold = line index mod 5 within each file);
its score is their sum, each scaled by its out-of-fold spread. The attribution head is the mean
log-odds of four networks (network.py: a hidden layer of 32 rectified units under one sigmoid
output) over all the features, fitted from four seeds, and written as one layer of 128 units whose
output weights are divided by four: it caught more tuning attributions out of fold than the
regressions, and than one network, whose catches moved with its seed; a network for talk caught no
more talk (Sources/QuoteLibrary/README.md, "Register"). The cutoff is the score
above which lie 0.5% of the tuning good lines the rules pass (`GOOD_FLAGGED`; the register
only sees what the rules pass, and a lost good line costs a whole new draft), each scored out of
fold, by the fit on the other four folds, as an unseen line would be.

Vectors come from the built `tandem embed` with the repo's tandem.json, or TANDEM_VECTORS_CONFIG, and
token states from the built `tandem-llama token-states` on that embedder's model file and prefix
(scripts/tandem_vectors.py). Reading the states of every line takes about half an hour: with
--states-cache DIR, the vectors and each line's own token states are kept in DIR, in one file per
embedding model file and prefix, and only lines not in it are read again (delete the file when the
encoder's code changes). --write writes Sources/QuoteLibrary/Register/Models/RegisterModel+<model
id>.swift; `RegisterModels.all` lists the entries.
"""
import argparse
import base64
import hashlib
import json
import os
import pickle
import subprocess
import sys
import tempfile

import numpy as np

import logistic
import network
from labelled_lines import LANGUAGES, ROOT, drafts, is_tuning, lines
from tandem_vectors import TANDEM, embed_all, embedder_settings, own_tokens, swift_identifier, token_states, unit_rows

RIDGES = [0.01, 0.03, 0.1, 0.3, 1.0, 3.0, 10.0]
# The attribution head's networks (network.fit), one per seed, chosen by out-of-fold catches on the tuning lines.
NETWORK = dict(hidden=32, decay=1e-3, epochs=30)
SEEDS = range(4)
FOLDS = 5  # fold = line index mod 5 within each file
KINDS = ["good", "generic", "odd", "fragment", "leftover", "attribution"]
# (head, the kind it catches); each may flag this share of the tuning good lines the rules pass
HEADS = [("talk", "leftover"), ("attribution", "attribution")]
GOOD_FLAGGED = 0.005
RULE_GATES = {"attribution", "promptFragment"}
OUTPUTS = os.path.join(ROOT, "Sources/QuoteLibrary/Register/Models")


def encoded(texts, cache_folder):
    """{text: unit sentence vector}, the model id, and {text: its own token states (float32)}, read
    from the built binaries, or from `cache_folder` for the texts read before with the same model
    file and prefix."""
    model, prefix = embedder_settings()
    digest = hashlib.sha256(prefix.encode() + b"\0")
    with open(model, "rb") as f:
        for block in iter(lambda: f.read(1 << 24), b""):
            digest.update(block)
    cache = os.path.join(cache_folder, f"register-states-{digest.hexdigest()[:16]}.pkl") if cache_folder else None
    known = {"model_id": None, "vectors": {}, "own": {}}
    if cache and os.path.exists(cache):
        with open(cache, "rb") as f:
            known = pickle.load(f)
    missing = sorted(set(texts) - set(known["own"]))
    if missing:
        vectors, model_id = embed_all(missing)
        if known["model_id"] not in (None, model_id):
            sys.exit(f"error: {cache} holds {known['model_id']}'s states, but tandem embed answers {model_id}")
        states, prefix_ids = token_states(missing)
        known["model_id"] = model_id
        known["vectors"].update(vectors)
        known["own"].update({text: rows[own_tokens(ids, prefix_ids)].astype(np.float32) for text, (ids, rows) in states.items()})
        if cache:
            os.makedirs(cache_folder, exist_ok=True)
            with open(cache + ".partial", "wb") as f:
                pickle.dump(known, f, protocol=4)
            os.replace(cache + ".partial", cache)
    return {text: known["vectors"][text] for text in texts}, known["model_id"], {text: known["own"][text] for text in texts}


def token_features(own, tuning_texts):
    """{text: mean and componentwise maximum of its own token states (`own`), centred and made unit}
    and the centre: the mean own-token state of `tuning_texts` (RegisterModel.tokenCentre)."""
    if empty := [text for text, rows in own.items() if len(rows) == 0]:
        sys.exit(f"error: no tokens of their own in {len(empty)} lines, e.g. {empty[0]!r}")
    centre = np.concatenate([own[text] for text in sorted(set(tuning_texts))]).astype(np.float64).mean(axis=0)
    pooled = {}
    for text, rows in own.items():
        centred = rows.astype(np.float64) - centre
        unit = unit_rows(centred)
        pooled[text] = np.concatenate([unit.mean(axis=0), unit.max(axis=0)])
    return pooled, centre


def fit_linear(parts, y, folds):
    """One logistic regression per part of the features (the sentence vector; the pooled token
    states), each with its own ridge, summed after each part's out-of-fold log-odds are scaled to
    mean 0 and deviation 1: one affine function over the parts side by side. A single regression
    over all of them, with one ridge for both, caught fewer tuning attributions out of fold
    (Sources/QuoteLibrary/README.md, "Register"). Returns what was chosen, the head (hidden layer
    None, weights, bias) and every row's out-of-fold score."""
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
    chosen = "; ".join(f"{part} ridge {ridge} (5-fold log-loss " + ", ".join(f"{r}: {l:.4f}" for r, l in losses.items()) + ")"
                       for part, (ridge, losses) in zip(("sentence", "tokens"), choices))
    return chosen, (None, np.concatenate(weights), bias), unseen


def fit_network(parts, y, folds):
    """The networks over the parts side by side (NETWORK, one per seed of SEEDS), their log-odds
    averaged, as `fit_linear` returns them: the hidden layer of all their units (weights d × units,
    bias), the output weights each divided by the number of networks, the mean output bias, and every
    row's out-of-fold score (the mean of the networks fitted on the other folds)."""
    x = np.concatenate(parts, axis=1)
    unseen = np.zeros(len(y))
    for fold in range(FOLDS):
        others = [network.fit(x[folds != fold], y[folds != fold], **NETWORK, seed=seed) for seed in SEEDS]
        unseen[folds == fold] = np.mean([network.log_odds(one, x[folds == fold]) for one in others], axis=0)
    fitted = [network.fit(x, y, **NETWORK, seed=seed) for seed in SEEDS]
    layers = [network.first_layer(one) for one in fitted]
    hidden = (np.concatenate([weights for weights, _ in layers], axis=1), np.concatenate([bias for _, bias in layers]))
    output = np.concatenate([one[4] for one in fitted]) / len(fitted)
    return f"mean of {len(fitted)} networks {NETWORK}", (hidden, output, float(np.mean([one[5] for one in fitted]))), unseen


def head_score(head, features):
    """A fitted head's score for one line's features (LinearHead.score)."""
    hidden, weights, bias = head
    values = features if hidden is None else np.maximum(features @ hidden[0] + hidden[1], 0)
    return float(values @ weights + bias)


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


def write_hidden_layer(f, weights, bias):
    """A HiddenLayer argument: its weights one unit's row after another as little-endian 32-bit
    floats in Base64 (as a Swift array literal, 147k such numbers took the compiler half a minute)."""
    f.write(f"                           hidden: HiddenLayer(inputs: {weights.shape[0]}, bias: [\n")
    for start in range(0, len(bias), 8):
        f.write("                               " + ", ".join(f"{b:.6f}" for b in bias[start:start + 8]) + ",\n")
    f.write('                           ], weightsBase64: """\n')
    encoded_rows = base64.b64encode(np.ascontiguousarray(weights.T, dtype="<f4").tobytes()).decode("ascii")
    for start in range(0, len(encoded_rows), 120):
        f.write("                               " + encoded_rows[start:start + 120] + "\n")
    f.write('                               """),\n')


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--write", action="store_true", help="regenerate the model's entry in " + os.path.relpath(OUTPUTS, ROOT))
    parser.add_argument("--states-cache", metavar="DIR", help="keep the lines' vectors and token states in DIR and reuse them")
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
    vectors, model_id, own = encoded(sorted(set(texts)), args.states_cache)
    tuning = [r for r in rows if r[0] == "tuning"]
    pooled, centre = token_features(own, [r[4] for r in tuning])
    del own
    features = {text: np.concatenate([vectors[text], pooled[text]]) for text in vectors}
    parts = [np.stack([vectors[r[4]] for r in tuning]), np.stack([pooled[r[4]] for r in tuning])]
    folds = np.array([r[3] for r in tuning])
    taken = taken_by_the_rules({language: sorted({r[4] for r in tuning if r[1] == language and r[2] == "good"}) for language in LANGUAGES})
    heads = {}
    for (head, kind), fit in zip(HEADS, (fit_linear, fit_network)):
        y = np.array([1.0 if r[2] == kind else 0.0 for r in tuning])
        described, fitted, unseen = fit(parts, y, folds)
        logit = lambda text: head_score(fitted, features[text])
        good = sorted((unseen[i] for i, r in enumerate(tuning) if r[2] == "good" and r[4] not in taken), reverse=True)
        cutoff = float(good[int(GOOD_FLAGGED * len(good))])
        caught_unseen = sum(1 for i, r in enumerate(tuning) if r[2] == kind and unseen[i] > cutoff)
        print(f"{head}: model {model_id}, {described}, cutoff {cutoff:.4f}, tuning {kind} caught out of fold {caught_unseen}/{int(y.sum())} "
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
        heads[head] = (fitted, cutoff, figures[("held-out", "all")])
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
                (hidden, weights, bias), cutoff, held = heads[head]
                f.write(f"        {head}: LinearHead(\n")
                if hidden is not None:
                    write_hidden_layer(f, *hidden)
                f.write(f"                           bias: {bias:.6f}, cutoff: {cutoff:.6f},\n")
                f.write(f"                           heldOutCaught: {held[0]}, heldOutLines: {held[1]}, heldOutGoodFlagged: {held[2]}, heldOutGood: {held[3]},\n")
                f.write("                           weights: [\n")
                for start in range(0, len(weights), 8):
                    f.write("                               " + ", ".join(f"{w:.6f}" for w in weights[start:start + 8]) + ",\n")
                f.write("                           ])" + (",\n" if head == "talk" else ")\n"))
            f.write("}\n")
        print(f"wrote {os.path.relpath(output, ROOT)}")


if __name__ == "__main__":
    main()
