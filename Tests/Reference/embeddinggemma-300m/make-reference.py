#!/usr/bin/env python3
"""Makes reference.json: token ids and embeddings of ../multilingual-e5-small/sentences.json by
an independent float32 implementation of EmbeddingGemma-300m, in numpy.

Usage: make-reference.py MODEL.zip [OUTPUT]   (default: reference.json beside this script)

The texts: the 69 of ../multilingual-e5-small/sentences.json and LONG_TEXT below.

MODEL.zip is the file the set-up fetches (Makefile, `embeddinggemma-model`). This script reads its
float32 safetensors directly (not the Q8_0 GGUF the engine runs) and tokenises with Hugging
Face's `tokenizers` on the model's own tokenizer.json (pip install tokenizers), so neither the
weights' conversion nor the engine's tokenizer is shared with what the test checks. The forward
pass follows the model's config.json: Gemma 3 with bidirectional attention, (1 + w) RMSNorms,
query/key norms, RoPE at 10,000 on the sliding layers and 1,000,000 on every 6th, GELU (tanh)
gating, mean pooling, the two dense projections, L2 normalisation. On the model card's example
(its query and four documents) it gives 0.3008, 0.6361, 0.4927, 0.4889 against the card's
0.3011, 0.6359, 0.4930, 0.4889. Each text is embedded with PREFIX, the model card's prompt for
sentence similarity.
"""
import io
import json
import os
import struct
import sys
import zipfile

import numpy as np
from tokenizers import Tokenizer

PREFIX = "task: sentence similarity | query: "
# One text past the 512-position sliding window (649 tokens with the prefix), so the reference
# also covers the sliding layers' window reaching both ways.
WINDOW_WORDS = "the old keeper painted his door yellow every spring while children played near the water and the boats".split()
LONG_TEXT = " ".join(WINDOW_WORDS[i % len(WINDOW_WORDS)] + ("," if i % 7 == 6 else "") for i in range(560)) + "."
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = "model_download/"


def tensors(data):
    (length,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8:8 + length])
    body = memoryview(data)[8 + length:]
    return {name: np.frombuffer(body[i["data_offsets"][0]:i["data_offsets"][1]], dtype="<f4").reshape(i["shape"])
            for name, i in header.items() if name != "__metadata__"}


class EmbeddingGemma:
    def __init__(self, archive):
        self.cfg = json.loads(archive.read(ROOT + "config.json"))
        self.w = tensors(archive.read(ROOT + "model.safetensors"))
        self.dense = [tensors(archive.read(ROOT + f"{d}/model.safetensors"))["linear.weight"] for d in ("2_Dense", "3_Dense")]
        self.tokenizer = Tokenizer.from_str(archive.read(ROOT + "tokenizer.json").decode())

    @staticmethod
    def rms(x, w, eps):
        return x / np.sqrt((x * x).mean(-1, keepdims=True) + eps) * (1.0 + w)

    @staticmethod
    def rope(x, positions, base):
        half = x.shape[-1] // 2
        inverse = 1.0 / base ** (np.arange(half, dtype=np.float64) * 2 / x.shape[-1])
        angle = positions[:, None] * inverse[None, :]
        cos, sin = np.cos(angle).astype(np.float32), np.sin(angle).astype(np.float32)
        if x.ndim == 3:
            cos, sin = cos[:, None, :], sin[:, None, :]
        a, b = x[..., :half], x[..., half:]
        return np.concatenate([a * cos - b * sin, b * cos + a * sin], -1)

    def embed(self, ids):
        c, w = self.cfg, self.w
        n, d, heads, hd, eps = len(ids), c["hidden_size"], c["num_attention_heads"], c["head_dim"], c["rms_norm_eps"]
        positions = np.arange(n, dtype=np.float64)
        h = w["embed_tokens.weight"][ids] * np.float32(np.sqrt(d))
        distance = np.abs(np.arange(n)[:, None] - np.arange(n)[None, :])
        for l in range(c["num_hidden_layers"]):
            p = f"layers.{l}."
            full = c["layer_types"][l] == "full_attention"
            base = c["rope_theta"] if full else c["rope_local_base_freq"]
            x = self.rms(h, w[p + "input_layernorm.weight"], eps)
            q = (x @ w[p + "self_attn.q_proj.weight"].T).reshape(n, heads, hd)
            k = (x @ w[p + "self_attn.k_proj.weight"].T).reshape(n, hd)
            v = x @ w[p + "self_attn.v_proj.weight"].T
            q = self.rope(self.rms(q, w[p + "self_attn.q_norm.weight"], eps), positions, base)
            k = self.rope(self.rms(k, w[p + "self_attn.k_norm.weight"], eps), positions, base)
            scores = np.einsum("qhd,kd->hqk", q, k) / np.sqrt(c["query_pre_attn_scalar"])
            if not full:
                scores = np.where(distance < c["sliding_window"], scores, -np.inf)
            scores = np.exp(scores - scores.max(-1, keepdims=True))
            scores /= scores.sum(-1, keepdims=True)
            o = np.einsum("hqk,kd->qhd", scores, v).reshape(n, heads * hd) @ w[p + "self_attn.o_proj.weight"].T
            h = h + self.rms(o, w[p + "post_attention_layernorm.weight"], eps)
            x = self.rms(h, w[p + "pre_feedforward_layernorm.weight"], eps)
            g = x @ w[p + "mlp.gate_proj.weight"].T
            g = 0.5 * g * (1 + np.tanh(np.sqrt(2 / np.pi) * (g + 0.044715 * g ** 3)))
            m = (g * (x @ w[p + "mlp.up_proj.weight"].T)) @ w[p + "mlp.down_proj.weight"].T
            h = h + self.rms(m, w[p + "post_feedforward_layernorm.weight"], eps)
        vector = self.rms(h, w["norm.weight"], eps).mean(0)
        for dense in self.dense:
            vector = dense @ vector
        return vector / np.linalg.norm(vector)


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    out = sys.argv[2] if len(sys.argv) == 3 else os.path.join(HERE, "reference.json")
    model = EmbeddingGemma(zipfile.ZipFile(sys.argv[1]))
    with open(os.path.join(HERE, "..", "multilingual-e5-small", "sentences.json")) as f:
        sentences = json.load(f)
    items = []
    for s in sentences + [{"lang": "en", "text": LONG_TEXT}]:
        ids = model.tokenizer.encode(PREFIX + s["text"]).ids
        vector = model.embed(np.array(ids))
        items.append({"lang": s["lang"], "text": s["text"], "tokens": ids, "vector": [round(float(x), 6) for x in vector]})
    with open(out, "w") as f:
        json.dump({"prefix": PREFIX, "items": items}, f, ensure_ascii=False, indent=0)
        f.write("\n")
    print(f"{len(items)} texts -> {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
