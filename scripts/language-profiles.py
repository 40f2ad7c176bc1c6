#!/usr/bin/env python3
"""Converts the character n-gram profiles of the `langdetect` source archive (55 languages,
built from Wikipedia) into the compact file the quote library's language identifier reads.

Usage: language-profiles.py ARCHIVE.tar.gz OUT

The layout (little-endian; Sources/QuoteLibrary/Language/LanguageModel.swift reads it):
  magic     8 bytes  b"TLANGID1"
  counts    3 x u32  languages L, n-grams N, entries E
  checksum  u32      FNV-1a (32-bit) of every byte after the header
  codes     L x 8 bytes, ASCII, NUL-padded
  totals    L x 3 x u64: how many 1-, 2- and 3-grams each profile counted
  keys      N x u64, ascending: an n-gram's Unicode scalars, 21 bits each, first one highest
  starts    (N + 1) x u32: n-gram i owns entries starts[i] ..< starts[i + 1]
  counts    E x u32: how often the language counted that n-gram
  languages E x u8: index into codes
"""
import json
import struct
import sys
import tarfile

MAGIC = b"TLANGID1"
HEADER = struct.Struct("<8sIIII")


def pack(gram):
    key = 0
    for ch in gram:
        key = (key << 21) | ord(ch)
    return key


def fnv1a32(data):
    h = 0x811C9DC5
    for byte in data:
        h = ((h ^ byte) * 0x01000193) & 0xFFFFFFFF
    return h


def main(archive, out):
    profiles = {}
    with tarfile.open(archive) as tar:
        for member in tar.getmembers():
            parts = member.name.split("/")
            if member.isfile() and len(parts) >= 2 and parts[-2] == "profiles":
                profile = json.load(tar.extractfile(member))
                profiles[profile["name"]] = profile
    if len(profiles) != 55:
        sys.exit(f"error: {archive} holds {len(profiles)} profiles, expected 55")
    codes = sorted(profiles)
    table = {}
    for index, code in enumerate(codes):
        for gram, count in profiles[code]["freq"].items():
            if not 1 <= len(gram) <= 3 or count <= 0:
                sys.exit(f"error: profile {code}: unexpected n-gram {gram!r} ({count})")
            table.setdefault(pack(gram), []).append((index, count))
    keys = sorted(table)
    payload = bytearray()
    for code in codes:
        payload += code.encode("ascii").ljust(8, b"\0")
    for code in codes:
        payload += struct.pack("<3Q", *profiles[code]["n_words"])
    payload += struct.pack(f"<{len(keys)}Q", *keys)
    starts, counts, languages = [0], [], []
    for key in keys:
        for index, count in table[key]:
            languages.append(index)
            counts.append(count)
        starts.append(len(counts))
    payload += struct.pack(f"<{len(starts)}I", *starts)
    payload += struct.pack(f"<{len(counts)}I", *counts)
    payload += bytes(languages)
    with open(out, "wb") as f:
        f.write(HEADER.pack(MAGIC, len(codes), len(keys), len(counts), fnv1a32(payload)))
        f.write(payload)
    print(f"{len(codes)} languages, {len(keys)} n-grams, {len(counts)} entries", file=sys.stderr)


if __name__ == "__main__":
    main(*sys.argv[1:])
