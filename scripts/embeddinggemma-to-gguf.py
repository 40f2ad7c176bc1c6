#!/usr/bin/env python3
"""Converts EmbeddingGemma-300m (sentence-transformers layout, float32 safetensors, in one zip)
to a GGUF with Q8_0 matrices, under llama.cpp's names for it (architecture `gemma-embedding`).

Usage: embeddinggemma-to-gguf.py MODEL.zip GEMMA3.gguf DEST.gguf SHA256

MODEL.zip holds `model_download/` as the Makefile fetches it: the Gemma 3 encoder
(`model.safetensors`, `config.json`), the two dense projections after the mean pooling
(`2_Dense/`, `3_Dense/`) and `tokenizer.json`. The encoder is Gemma 3 run with bidirectional
attention; the sentence vector is the mean of the final normalised states, through dense_2
(768 -> 3072) and dense_3 (3072 -> 768), L2-normalised.

EmbeddingGemma shares Gemma 3's tokenizer. Its SentencePiece scores and token types are not in
the zip in a form the gguf package reads without the `sentencepiece` module, so they are copied
from GEMMA3.gguf (the pinned Gemma 3 270M file), after checking that all 262,144 pieces are the
tokenizer.json pieces (the user-defined runs of spaces are stored as spaces there, as
llama.cpp's converter stores them). EmbeddingGemma appends `<eos>` to every text
(tokenizer.json's post-processor), so `add_eos_token` is set.

Gemma's RMSNorm multiplies by (1 + weight); the file stores 1 + weight, as llama.cpp's
converter does, so the engine's plain RMSNorm applies it. Matrices are quantised to Q8_0 by the
gguf package; vectors stay F32. The output is written to a temporary name, its SHA-256 checked,
then renamed. The same inputs and gguf version (the Makefile pins 0.19.0) give the same bytes.
"""
import json
import struct
import sys
import zipfile

import numpy as np
import gguf

from pinned_output import write_pinned

ARCH = "gemma-embedding"
ROOT = "model_download/"
# Hugging Face names of one layer -> GGUF names; norms get 1 added.
LAYER_TENSORS = {
    "input_layernorm.weight": "attn_norm.weight",
    "self_attn.q_proj.weight": "attn_q.weight",
    "self_attn.k_proj.weight": "attn_k.weight",
    "self_attn.v_proj.weight": "attn_v.weight",
    "self_attn.o_proj.weight": "attn_output.weight",
    "self_attn.q_norm.weight": "attn_q_norm.weight",
    "self_attn.k_norm.weight": "attn_k_norm.weight",
    "post_attention_layernorm.weight": "post_attention_norm.weight",
    "pre_feedforward_layernorm.weight": "ffn_norm.weight",
    "mlp.gate_proj.weight": "ffn_gate.weight",
    "mlp.up_proj.weight": "ffn_up.weight",
    "mlp.down_proj.weight": "ffn_down.weight",
    "post_feedforward_layernorm.weight": "post_ffw_norm.weight",
}


def fail(message):
    sys.exit(f"error: {message}")


def safetensors(data, what):
    """{name: float32 array} of one safetensors file's bytes."""
    if len(data) < 8:
        fail(f"{what}: {len(data)} bytes, too short for a safetensors header")
    (length,) = struct.unpack("<Q", data[:8])
    if 8 + length > len(data):
        fail(f"{what}: header of {length} bytes runs past the end of the file ({len(data)} bytes)")
    header = json.loads(data[8:8 + length])
    body = memoryview(data)[8 + length:]
    out = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        if info["dtype"] != "F32":
            fail(f"{what}: {name} is {info['dtype']}, expected F32")
        start, end = info["data_offsets"]
        count = int(np.prod(info["shape"]))
        if end - start != 4 * count or end > len(body):
            fail(f"{what}: {name} spans bytes {start}..{end}, expected {4 * count} bytes inside the file")
        out[name] = np.frombuffer(body[start:end], dtype="<f4").reshape(info["shape"])
    return out


def gemma_tokenizer(path):
    """The tokenizer fields of the Gemma 3 GGUF: pieces, scores, token types."""
    reader = gguf.GGUFReader(path)
    def field(key):
        f = reader.fields.get(key)
        if f is None:
            fail(f"{path}: no {key}")
        return f
    tokens = field("tokenizer.ggml.tokens")
    pieces = [bytes(tokens.parts[i]).decode("utf-8") for i in tokens.data]
    scores = [float(field("tokenizer.ggml.scores").parts[i][0]) for i in field("tokenizer.ggml.scores").data]
    types = [int(field("tokenizer.ggml.token_type").parts[i][0]) for i in field("tokenizer.ggml.token_type").data]
    model = bytes(field("tokenizer.ggml.model").parts[-1]).decode()
    return model, pieces, scores, types


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    zip_path, gemma_path, out_path, expected = sys.argv[1:]
    archive = zipfile.ZipFile(zip_path)
    def member(name):
        try:
            return archive.read(ROOT + name)
        except KeyError:
            fail(f"{zip_path}: no member {ROOT + name}")
    config = json.loads(member("config.json"))
    if config.get("model_type") != "gemma3_text" or not config.get("use_bidirectional_attention"):
        fail(f"{zip_path}: config.json describes {config.get('model_type')!r} "
             f"(bidirectional: {config.get('use_bidirectional_attention')}), expected a bidirectional gemma3_text")
    pooling = json.loads(member("1_Pooling/config.json"))
    if not pooling.get("pooling_mode_mean_tokens"):
        fail(f"{zip_path}: 1_Pooling/config.json is not mean pooling")
    weights = safetensors(member("model.safetensors"), "model.safetensors")
    dense2 = safetensors(member("2_Dense/model.safetensors"), "2_Dense/model.safetensors")["linear.weight"]
    dense3 = safetensors(member("3_Dense/model.safetensors"), "3_Dense/model.safetensors")["linear.weight"]

    model, pieces, scores, types = gemma_tokenizer(gemma_path)
    vocab = json.loads(member("tokenizer.json"))["model"]["vocab"]
    by_id = {i: p for p, i in vocab.items()} if isinstance(vocab, dict) else {i: p[0] for i, p in enumerate(vocab)}
    if len(by_id) != len(pieces):
        fail(f"tokenizer.json has {len(by_id)} pieces, {gemma_path} {len(pieces)}")
    for i, piece in enumerate(pieces):
        if by_id[i] != piece and by_id[i].replace("\u2581", " ") != piece:
            fail(f"piece {i} is {by_id[i]!r} in tokenizer.json and {piece!r} in {gemma_path}")

    layers = config["num_hidden_layers"]
    window_pattern = config["_sliding_window_pattern"]
    expected_types = ["full_attention" if l % window_pattern == window_pattern - 1 else "sliding_attention" for l in range(layers)]
    if config["layer_types"] != expected_types:
        fail(f"config.json layer_types is not every {window_pattern}th layer global")

    def write(path):
        w = gguf.GGUFWriter(path, ARCH, use_temp_file=False)
        w.add_name("embeddinggemma-300m")
        w.add_file_type(gguf.LlamaFileType.MOSTLY_Q8_0)
        w.add_context_length(config["max_position_embeddings"])
        w.add_embedding_length(config["hidden_size"])
        w.add_feed_forward_length(config["intermediate_size"])
        w.add_block_count(layers)
        w.add_head_count(config["num_attention_heads"])
        w.add_head_count_kv(config["num_key_value_heads"])
        w.add_key_length(config["head_dim"])
        w.add_value_length(config["head_dim"])
        w.add_layer_norm_rms_eps(config["rms_norm_eps"])
        w.add_rope_freq_base(config["rope_theta"])
        w.add_uint32(f"{ARCH}.attention.sliding_window", config["sliding_window"])
        w.add_uint32(f"{ARCH}.attention.sliding_window_pattern", window_pattern)
        w.add_float32(f"{ARCH}.rope.freq_base_swa", config["rope_local_base_freq"])
        w.add_causal_attention(False)
        w.add_pooling_type(gguf.PoolingType.MEAN)
        w.add_uint32(f"{ARCH}.dense_2_feat_in", dense2.shape[1])
        w.add_uint32(f"{ARCH}.dense_2_feat_out", dense2.shape[0])
        w.add_uint32(f"{ARCH}.dense_3_feat_in", dense3.shape[1])
        w.add_uint32(f"{ARCH}.dense_3_feat_out", dense3.shape[0])
        w.add_string("tokenizer.ggml.model", model)
        w.add_string("tokenizer.ggml.pre", "default")
        w.add_token_list(pieces)
        w.add_token_scores(scores)
        w.add_token_types(types)
        w.add_bos_token_id(config["bos_token_id"])
        w.add_eos_token_id(config["eos_token_id"])
        w.add_pad_token_id(config["pad_token_id"])
        w.add_unk_token_id(3)
        w.add_add_bos_token(True)
        w.add_add_eos_token(True)
        w.add_add_space_prefix(False)

        def matrix(name, array):
            q = gguf.quants.quantize(np.ascontiguousarray(array, dtype=np.float32), gguf.GGMLQuantizationType.Q8_0)
            w.add_tensor(name, q, raw_dtype=gguf.GGMLQuantizationType.Q8_0)

        def norm(name, array):
            w.add_tensor(name, (np.asarray(array, dtype=np.float32) + 1.0).astype(np.float32))

        matrix("token_embd.weight", weights["embed_tokens.weight"])
        for l in range(layers):
            for source, target in LAYER_TENSORS.items():
                array = weights[f"layers.{l}.{source}"]
                (norm if array.ndim == 1 else matrix)(f"blk.{l}.{target}", array)
        norm("output_norm.weight", weights["norm.weight"])
        matrix("dense_2.weight", dense2)
        matrix("dense_3.weight", dense3)
        w.write_header_to_file()
        w.write_kv_data_to_file()
        w.write_tensors_to_file()
        w.close()

    write_pinned(out_path, expected, write)

if __name__ == "__main__":
    main()
