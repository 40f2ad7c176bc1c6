#!/usr/bin/env python3
"""Converts wordfreq's "large" frequency lists into the compact tables the distinctiveness
score reads (Sources/QuoteLibrary/Distinctiveness/WordFrequencies.swift).

Usage: word-frequencies.py WHEEL OUT_DIR LANG...

The lists are read by wordfreq_lists.py (their format is described there).

Words are folded the way the scorer folds them (case folded, accents removed, so "Straße"
becomes "strasse"), and split at apostrophes and hyphens, as the scorer splits them; folded
forms that collide add their frequencies. Every word of the list is kept, down to its end at
Zipf 1 (one in 10^8 words): the score reads any word below Zipf 3 as rare, so the words between
Zipf 1 and 2 score as an unknown word would, and the gate's word check (DeterministicGate,
Sources/QuoteLibrary/Gate/RealWords.swift) needs them to know rare inflections ("quicarem").

Output, one file per language, <OUT_DIR>/<lang>.txt:
    wordfreq-zipf 1 <lang> <source member>
    <zipf × 100> <word> <word> …          (one line per value, most frequent first)
"""
import os
import sys
import unicodedata
import zipfile

from wordfreq_lists import zipf_table

MIN_ZIPF = 1.0


def fold(word):
    decomposed = unicodedata.normalize("NFD", word.casefold())
    return "".join(c for c in decomposed if unicodedata.category(c) != "Mn")


def parts(word):
    return [p for p in fold(word).replace("’", "'").replace("-", "'").split("'") if p]


def convert(wheel, language, out_dir):
    member = f"wordfreq/data/large_{language}.msgpack.gz"
    with zipfile.ZipFile(wheel) as archive:
        by_zipf = zipf_table(archive, member, lambda word: [p for p in parts(word) if p.isalnum()], MIN_ZIPF)
    temporary = os.path.join(out_dir, f".{language}.txt.part")
    with open(temporary, "w", encoding="utf-8") as out:
        out.write(f"wordfreq-zipf 1 {language} {member}\n")
        for zipf in sorted(by_zipf, reverse=True):
            out.write(f"{zipf} {' '.join(sorted(by_zipf[zipf]))}\n")
    os.replace(temporary, os.path.join(out_dir, f"{language}.txt"))
    print(f"{language}: {sum(map(len, by_zipf.values()))} words", file=sys.stderr)


def main():
    wheel, out_dir, languages = sys.argv[1], sys.argv[2], sys.argv[3:]
    os.makedirs(out_dir, exist_ok=True)
    for language in languages:
        convert(wheel, language, out_dir)


if __name__ == "__main__":
    main()
