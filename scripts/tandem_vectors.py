"""Sentence vectors from the built `tandem embed`, and per-token states from the built `tandem-llama
token-states`, for the scripts that fit the quote library's learned decisions on them
(novelty-calibration.py, novelty-token-alignment.py, taste-model.py, register-model.py): the very
vectors and states the novelty gate, the register and the taste step see at run time, from the repo's tandem.json embedder
(EmbeddingGemma-300m via tandem.llama, the model card's "task: sentence similarity | query: "
before every text: quotes are compared with quotes, so both sides of a pair get the same prompt).

Needs `make build plugins embeddinggemma-model` first. TANDEM_VECTORS_CONFIG names another config
whose quote.embedder is used instead (eval/real-model/e5.json: multilingual-e5-small, "query: ").
"""
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TANDEM = os.path.join(ROOT, ".build/release/tandem")
TANDEM_LLAMA = os.path.join(ROOT, ".build/release/tandem-llama")
CONFIG = os.environ.get("TANDEM_VECTORS_CONFIG", os.path.join(ROOT, "tandem.json"))
BATCH = 200


def embed_all(texts, config=CONFIG):
    """{text: unit vector} for every distinct text, and the model id tandem reports."""
    if not os.path.exists(TANDEM):
        sys.exit(f"error: {TANDEM} is missing (run `make build plugins embedding-model`)")
    unique = sorted(set(texts))
    vectors, model = {}, None
    for start in range(0, len(unique), BATCH):
        batch = unique[start:start + BATCH]
        done = subprocess.run([TANDEM, "embed", "--json", "--config", config, "--"] + batch, capture_output=True, text=True)
        if done.returncode != 0:
            sys.exit(f"error: tandem embed exited {done.returncode}: {done.stderr.strip()}")
        answer = json.loads(done.stdout)
        if model not in (None, answer["model"]):
            sys.exit(f"error: tandem embed changed model from {model} to {answer['model']}")
        model = answer["model"]
        for text, vector in zip(batch, answer["vectors"]):
            v = np.asarray(vector, dtype=np.float64)
            vectors[text] = unit_rows(v)
    return vectors, model



def unit_rows(rows):
    """Each row (or the one vector) divided by its length, as EmbeddingMatrix.unit does in Swift: a
    row of length zero (a token state equal to the centre) stays zero instead of becoming NaN."""
    norms = np.linalg.norm(rows, axis=-1, keepdims=True)
    return np.divide(rows, norms, out=np.zeros_like(rows, dtype=np.float64), where=norms > 0)


def embedder_settings(config=CONFIG):
    """The quote embedder's model file (resolved as tandem resolves it: relative to the config)
    and embedding prefix in `config`."""
    with open(config, encoding="utf-8") as f:
        loaded = json.load(f)
    settings = loaded["backends"][loaded["quote"]["embedder"]]["settings"]
    return os.path.join(os.path.dirname(os.path.abspath(config)), settings["model"]), settings.get("embedding_prefix", "")


def token_states(texts, config=CONFIG, batch=4000):
    """{text: (ids, states)} from `tandem-llama token-states` on the quote embedder's model file
    with its prefix before every text, start and end tokens included, and the ids of the prefix
    tokenised alone (start and end tokens included). The texts go `batch` at a time, so that each
    states file, read whole, stays under a gigabyte (the labelled lines' states together pass 2 GiB)."""
    model, prefix = embedder_settings(config)
    for path, what in ((TANDEM_LLAMA, "swift build -c release --product tandem-llama"), (model, "make embedding-model")):
        if not os.path.exists(path):
            sys.exit(f"error: {path} is missing (run `{what}`)")
    if any("\n" in t for t in texts):
        sys.exit("error: a labelled line contains a line break")
    result = {}
    for start in range(0, max(len(texts), 1), batch):
        part = [""] + texts[start:start + batch]
        with tempfile.TemporaryDirectory() as scratch:
            out = os.path.join(scratch, "states.bin")
            done = subprocess.run([TANDEM_LLAMA, "token-states", model, out], input="".join(prefix + t + "\n" for t in part),
                                  capture_output=True, text=True)
            if done.returncode != 0:
                sys.exit(f"error: tandem-llama token-states exited {done.returncode}: {done.stderr.strip()}")
            data = open(out, "rb").read()
        dimensions = int(done.stderr.split(" dimensions")[0].split(", ")[-1])
        at = 0
        for text in part:
            count = int(np.frombuffer(data, "<i4", 1, at)[0])
            ids = np.frombuffer(data, "<i4", count, at + 4)
            at += 4 + 4 * count
            states = np.frombuffer(data, "<f4", count * dimensions, at).reshape(count, dimensions).astype(np.float64)
            at += 4 * count * dimensions
            result[text] = (ids, states)
        if at != len(data):
            sys.exit(f"error: token-states wrote {len(data)} bytes, {at} expected")
    prefix_ids = result.pop("")[0]
    return result, prefix_ids


def own_tokens(ids, prefix_ids):
    """The slice of a text's tokens that is its own: after the leading tokens it shares with the
    prefix tokenised alone (its end token dropped), before the end token (EncoderRunnerModel's
    rule for tandem.token_embeddings/1)."""
    lead = prefix_ids[:-1]
    start = next((i for i, (a, b) in enumerate(zip(lead, ids)) if a != b), min(len(lead), len(ids)))
    return slice(start, max(start, len(ids) - 1))


def swift_identifier(model_id):
    """A model id as a Swift name (multilingual-e5-small-q4_0 -> multilingualE5SmallQ4_0): the
    name of its entry in the generated per-model files."""
    parts = [p for p in model_id.replace("_", "-_-").split("-") if p]
    name = parts[0] + "".join(p if p == "_" else p[:1].upper() + p[1:] for p in parts[1:])
    return name

