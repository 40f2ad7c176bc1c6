#!/usr/bin/env python3
"""Writes tiny random-weight GGUF files, one per architecture the local runner reads and has no
real file for here (qwen2, qwen3, phi3) plus a gemma3 one with a short sliding window, with the PyPI
`gguf` package. The same seed and package version give the same bytes: the reference logits in
Tests/Reference/architectures/ were made by llama.cpp from these files, and the tests check each
file's SHA-256 against the one recorded there before comparing.

Usage: random-weight-models.py OUT_DIR
"""
import os
import sys

import gguf
import numpy as np

VOCAB = 320          # <unk> <s> </s>, 256 byte tokens, 61 word pieces
EMBED = 64
FEED_FORWARD = 128
CONTEXT = 256

# What each file exercises; the keys are gguf's names.
MODELS = {
    # Q/K/V biases, NeoX RoPE, grouped-query attention.
    "qwen2": dict(layers=2, heads=4, kv_heads=2, head_dim=16, biases=True),
    # Per-head Q/K RMSNorm, a head size decoupled from the embedding (4 × 32 ≠ 64).
    "qwen3": dict(layers=2, heads=4, kv_heads=2, head_dim=32, head_norms=True, key_length=True),
    # Gemma 3: √n_embd embedding scale, head norms, norms after attention and FFN, GeGLU, a
    # sliding window of 8 on every other layer (pattern 2) with its own RoPE base, 1e6 on the
    # global layers, one KV head.
    "gemma3": dict(layers=4, heads=4, kv_heads=1, head_dim=32, head_norms=True, key_length=True,
                   output_norms=True, window=8, pattern=2, rope_base=1e6, rope_base_swa=20000.0),
    # Phi-3: Q/K/V fused in attn_qkv and gate/up in ffn_up (gate first), NeoX RoPE; its files
    # declare a sliding window that llama.cpp ignores (so the reference shows it is ignored).
    "phi3": dict(layers=2, heads=4, kv_heads=2, head_dim=16, fused=True, declared_window=8),
}


def write(arch, spec, path, rng):
    w = gguf.GGUFWriter(path, arch)
    hd, heads, kv = spec["head_dim"], spec["heads"], spec["kv_heads"]
    w.add_block_count(spec["layers"])
    w.add_context_length(CONTEXT)
    w.add_embedding_length(EMBED)
    w.add_feed_forward_length(FEED_FORWARD)
    w.add_head_count(heads)
    w.add_head_count_kv(kv)
    if spec.get("key_length"):
        w.add_key_length(hd)
        w.add_value_length(hd)
    w.add_rope_freq_base(spec.get("rope_base", 10000.0))
    w.add_layer_norm_rms_eps(1e-6)
    if "declared_window" in spec:
        w.add_sliding_window(spec["declared_window"])
    if "window" in spec:
        w.add_sliding_window(spec["window"])
        w.add_sliding_window_pattern(spec["pattern"])
        w.add_rope_freq_base_swa(spec["rope_base_swa"])
    w.add_file_type(gguf.LlamaFileType.ALL_F32)

    tokens = ["<unk>", "<s>", "</s>"] + [f"<0x{b:02X}>" for b in range(256)]
    tokens += [f"\u2581w{i}" for i in range(VOCAB - len(tokens))]
    types = [gguf.TokenType.UNKNOWN, gguf.TokenType.CONTROL, gguf.TokenType.CONTROL]
    types += [gguf.TokenType.BYTE] * 256 + [gguf.TokenType.NORMAL] * (VOCAB - 259)
    w.add_tokenizer_model("llama")
    w.add_tokenizer_pre("default")
    w.add_token_list(tokens)
    w.add_token_scores([0.0] * 259 + [-float(i) for i in range(VOCAB - 259)])
    w.add_token_types(types)
    w.add_unk_token_id(0)
    w.add_bos_token_id(1)
    w.add_eos_token_id(2)
    w.add_add_bos_token(True)

    def matrix(rows, cols):
        # [rows, cols] in numpy is ggml's [cols, rows]: one output per row.
        return (rng.standard_normal((rows, cols)) / np.sqrt(cols)).astype(np.float32)

    def norm(n):
        # As converters store them (Gemma's already 1 + w): around 1.
        return (1 + 0.2 * rng.standard_normal(n)).astype(np.float32)

    w.add_tensor("token_embd.weight", matrix(VOCAB, EMBED))
    for l in range(spec["layers"]):
        p = f"blk.{l}."
        w.add_tensor(p + "attn_norm.weight", norm(EMBED))
        if spec.get("fused"):
            w.add_tensor(p + "attn_qkv.weight", matrix((heads + 2 * kv) * hd, EMBED))
        else:
            w.add_tensor(p + "attn_q.weight", matrix(heads * hd, EMBED))
            w.add_tensor(p + "attn_k.weight", matrix(kv * hd, EMBED))
            w.add_tensor(p + "attn_v.weight", matrix(kv * hd, EMBED))
        if spec.get("biases"):
            w.add_tensor(p + "attn_q.bias", (0.5 * rng.standard_normal(heads * hd)).astype(np.float32))
            w.add_tensor(p + "attn_k.bias", (0.5 * rng.standard_normal(kv * hd)).astype(np.float32))
            w.add_tensor(p + "attn_v.bias", (0.5 * rng.standard_normal(kv * hd)).astype(np.float32))
        if spec.get("head_norms"):
            w.add_tensor(p + "attn_q_norm.weight", norm(hd))
            w.add_tensor(p + "attn_k_norm.weight", norm(hd))
        w.add_tensor(p + "attn_output.weight", matrix(EMBED, heads * hd))
        if spec.get("output_norms"):
            w.add_tensor(p + "post_attention_norm.weight", norm(EMBED))
        w.add_tensor(p + "ffn_norm.weight", norm(EMBED))
        if spec.get("fused"):
            w.add_tensor(p + "ffn_up.weight", matrix(2 * FEED_FORWARD, EMBED))
        else:
            w.add_tensor(p + "ffn_gate.weight", matrix(FEED_FORWARD, EMBED))
            w.add_tensor(p + "ffn_up.weight", matrix(FEED_FORWARD, EMBED))
        w.add_tensor(p + "ffn_down.weight", matrix(EMBED, FEED_FORWARD))
        if spec.get("output_norms"):
            w.add_tensor(p + "post_ffw_norm.weight", norm(EMBED))
    w.add_tensor("output_norm.weight", norm(EMBED))
    # Gemma ties the output to the embedding; the others get their own.
    if arch != "gemma3":
        w.add_tensor("output.weight", matrix(VOCAB, EMBED))

    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for i, (arch, spec) in enumerate(MODELS.items()):
        path = os.path.join(out, f"{arch}-random.gguf")
        write(arch, spec, path + ".tmp", np.random.default_rng(1000 + i))
        os.replace(path + ".tmp", path)


if __name__ == "__main__":
    main()
