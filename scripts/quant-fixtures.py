#!/usr/bin/env python3
"""Writes random quantised blocks and their dequantisation by the reference `gguf.quants`
(PyPI `gguf`) for the engine's dequantiser tests. Usage: quant-fixtures.py OUT_DIR

For each type: OUT_DIR/<TYPE>.bin holds the raw blocks, OUT_DIR/<TYPE>.f32 the expected floats
(little-endian float32); OUT_DIR/layouts.txt gguf's block sizes. Scale fields get finite random half floats so every block is valid."""
import os
import sys

import numpy as np
from gguf import GGML_QUANT_SIZES
from gguf import GGMLQuantizationType as T
from gguf import quants

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(1234)
BLOCKS = 64


def half_bytes(n, scale):
    return (rng.standard_normal(n) * scale).astype(np.float16).view(np.uint8).reshape(n, 2)


# type → offsets of the f16 scale fields inside a block (filled with finite values). Block sizes
# are gguf's own (GGML_QUANT_SIZES); OUT_DIR/layouts.txt lists them ("NAME values bytes" per
# line) for the engine's test of its block layouts.
half_fields = {
    "F32": [],
    "F16": [0],
    "BF16": [],
    "Q4_0": [0],
    "Q4_1": [0, 2],
    "Q5_0": [0],
    "Q5_1": [0, 2],
    "Q8_0": [0],
    "IQ4_NL": [0],
    "Q2_K": [80, 82],
    "Q3_K": [108],
    "Q4_K": [0, 2],
    "Q5_K": [0, 2],
    "Q6_K": [208],
}

layouts = []
for name, fields in half_fields.items():
    qtype = T[name]
    values, nbytes = GGML_QUANT_SIZES[qtype]
    layouts.append(f"{name} {values} {nbytes}\n")
    count = BLOCKS * (8 if nbytes <= 4 else 1)
    raw = rng.integers(0, 256, size=(count, nbytes), dtype=np.uint8)
    for off in fields:
        raw[:, off:off + 2] = half_bytes(count, 0.05)
    if name == "F32":
        raw = rng.standard_normal(count).astype(np.float32).view(np.uint8).reshape(count, 4)
    if name == "BF16":
        raw = (rng.standard_normal(count).astype(np.float32).view(np.uint32) >> 16).astype(np.uint16).view(np.uint8).reshape(count, 2)
    flat = raw.reshape(-1)
    expected = quants.dequantize(flat, qtype).astype(np.float32).reshape(-1)
    flat.tofile(os.path.join(out, name + ".bin"))
    expected.astype("<f4").tofile(os.path.join(out, name + ".f32"))
with open(os.path.join(out, "layouts.txt"), "w") as f:
    f.writelines(layouts)
print(f"quant fixtures written to {out}")
