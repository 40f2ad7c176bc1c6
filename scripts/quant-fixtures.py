#!/usr/bin/env python3
"""Writes random quantised blocks and their dequantisation by the reference `gguf.quants`
(PyPI `gguf`) for the engine's dequantiser tests. Usage: quant-fixtures.py OUT_DIR

For each type: OUT_DIR/<TYPE>.bin holds the raw blocks, OUT_DIR/<TYPE>.f32 the expected floats
(little-endian float32). Scale fields get finite random half floats so every block is valid."""
import os
import sys

import numpy as np
from gguf import GGMLQuantizationType as T
from gguf import quants

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(1234)
BLOCKS = 64


def half_bytes(n, scale):
    return (rng.standard_normal(n) * scale).astype(np.float16).view(np.uint8).reshape(n, 2)


# (type, block bytes, offsets of f16 scale fields inside a block)
layouts = {
    "F32": (T.F32, 4, []),
    "F16": (T.F16, 2, [0]),
    "BF16": (T.BF16, 2, []),
    "Q4_0": (T.Q4_0, 18, [0]),
    "Q4_1": (T.Q4_1, 20, [0, 2]),
    "Q5_0": (T.Q5_0, 22, [0]),
    "Q8_0": (T.Q8_0, 34, [0]),
    "Q4_K": (T.Q4_K, 144, [0, 2]),
    "Q6_K": (T.Q6_K, 210, [208]),
}

for name, (qtype, nbytes, half_fields) in layouts.items():
    count = BLOCKS * (8 if nbytes <= 4 else 1)
    raw = rng.integers(0, 256, size=(count, nbytes), dtype=np.uint8)
    for off in half_fields:
        raw[:, off:off + 2] = half_bytes(count, 0.05)
    if name == "F32":
        raw = rng.standard_normal(count).astype(np.float32).view(np.uint8).reshape(count, 4)
    if name == "BF16":
        raw = (rng.standard_normal(count).astype(np.float32).view(np.uint32) >> 16).astype(np.uint16).view(np.uint8).reshape(count, 2)
    flat = raw.reshape(-1)
    expected = quants.dequantize(flat, qtype).astype(np.float32).reshape(-1)
    flat.tofile(os.path.join(out, name + ".bin"))
    expected.astype("<f4").tofile(os.path.join(out, name + ".f32"))
print(f"quant fixtures written to {out}")
