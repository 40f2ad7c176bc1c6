#!/usr/bin/env python3
"""Writes random strings and how each pre-tokenizer's patterns split them, using the PyPI `regex`
module (Unicode properties, lookahead) as the reference, for the tokenizer's pre-tokenizer tests.
Usage: pretokenizer-fixtures.py OUT_FILE

The patterns are those llama.cpp applies for each `tokenizer.ggml.pre`; a chain applies each
pattern inside the chunks the previous one made (matches and the text between them)."""
import json
import os
import random
import sys

import regex

GPT2 = r"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"
LLAMA3 = (r"(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}"
          r"| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+")
QWEN2 = LLAMA3.replace(r"\p{N}{1,3}", r"\p{N}")
CHAINS = {
    "gpt2": [GPT2],
    "llama3": [LLAMA3],
    "qwen2": [QWEN2],
    "smollm": [r"\p{N}", GPT2],
    "default": [r"[\p{P}\$\+<=>\^~\|]+", GPT2, r"\p{N}+", r"[0-9][0-9][0-9]"],
}
# Letters, digits, \p{N} symbols, apostrophe forms, punctuation, line breaks, Unicode spaces,
# combining marks, emoji. (U+001C-U+001F are left out: `regex` counts them as \s, llama.cpp not.)
PIECES = list("abcXYZ019 ") + [" "] * 6 + ["\n", "\r", "\t", "'", "'s", "'t", "'re", "'LL", "'Ve", "'m", "'D",
          "!", ".", "$", "+", "<", "=", "|", "~", "^", "(", "_", "-", "é", "中", "Ж", "٣", "²", "½", "Ⅻ",
          "\u00a0", "\u3000", "😀", "\u0301", "\u200d", "\u2028", "“", "§", "\x0b", "\x85"]


def split(text, patterns):
    chunks = [text] if text else []
    for pattern in patterns:
        out = []
        for chunk in chunks:
            position = 0
            for match in regex.finditer(pattern, chunk):
                if match.start() > position:
                    out.append(chunk[position:match.start()])
                if match.end() > match.start():
                    out.append(match.group())
                position = match.end()
            if position < len(chunk):
                out.append(chunk[position:])
        chunks = out
    return chunks


random.seed(7)
cases = []
for _ in range(3000):
    text = "".join(random.choice(PIECES) for _ in range(random.randint(0, 14)))
    cases.append({"text": text, **{name: split(text, patterns) for name, patterns in CHAINS.items()}})
os.makedirs(os.path.dirname(sys.argv[1]) or ".", exist_ok=True)
with open(sys.argv[1], "w", encoding="utf-8") as f:
    json.dump(cases, f, ensure_ascii=False)
