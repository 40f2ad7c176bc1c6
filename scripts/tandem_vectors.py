"""Sentence vectors from the built `tandem embed`, for the scripts that fit the quote library's
learned decisions on them (novelty-calibration.py, taste-model.py): the very vectors the novelty
gate and the taste step see at run time, from the repo's tandem.json embedder
(EmbeddingGemma-300m via tandem.llama, the model card's "task: sentence similarity | query: "
before every text: quotes are compared with quotes, so both sides of a pair get the same prompt).

Needs `make build plugins embeddinggemma-model` first. TANDEM_VECTORS_CONFIG names another config
whose quote.embedder is used instead (eval/real-model/e5.json: multilingual-e5-small, "query: ").
"""
import json
import os
import subprocess
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TANDEM = os.path.join(ROOT, ".build/release/tandem")
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
            vectors[text] = v / np.linalg.norm(v)
    return vectors, model


def embedder_settings(config=CONFIG):
    """The quote embedder's model file (resolved as tandem resolves it: relative to the config)
    and embedding prefix in `config`."""
    with open(config, encoding="utf-8") as f:
        loaded = json.load(f)
    settings = loaded["backends"][loaded["quote"]["embedder"]]["settings"]
    return os.path.join(os.path.dirname(os.path.abspath(config)), settings["model"]), settings.get("embedding_prefix", "")


def swift_identifier(model_id):
    """A model id as a Swift name (multilingual-e5-small-q4_0 -> multilingualE5SmallQ4_0): the
    name of its entry in the generated per-model files."""
    parts = [p for p in model_id.replace("_", "-_-").split("-") if p]
    name = parts[0] + "".join(p if p == "_" else p[:1].upper() + p[1:] for p in parts[1:])
    return name

