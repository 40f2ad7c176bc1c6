#!/usr/bin/env python3
"""Converts wordfreq's "large" frequency lists into the compact tables the distinctiveness
score reads (Sources/QuoteLibrary/Distinctiveness/WordFrequencies.swift).

Usage: word-frequencies.py WHEEL OUT_DIR LANG...

wordfreq stores each list as gzip'd msgpack: a header {"format": "cB", "version": 1}, then
buckets, bucket i holding the words whose frequency is 10^(-i/100) (i centibels below 1).
The Zipf value of a word is 9 - i/100.

Words are folded the way the scorer folds them (case folded, accents removed, so "Straße"
becomes "strasse"), and split at apostrophes and hyphens, as the scorer splits them; folded
forms that collide add their frequencies. Words below Zipf 2 (rarer than one in 10^7 words)
are left out: the scorer treats them like unknown words.

Output, one file per language, <OUT_DIR>/<lang>.txt:
    wordfreq-zipf 1 <lang> <source member>
    <zipf × 100> <word> <word> …          (one line per value, most frequent first)
"""
import gzip
import io
import math
import os
import sys
import unicodedata
import zipfile

import msgpack

MIN_ZIPF = 2.0


def fold(word):
    decomposed = unicodedata.normalize("NFD", word.casefold())
    return "".join(c for c in decomposed if unicodedata.category(c) != "Mn")


def parts(word):
    return [p for p in fold(word).replace("’", "'").replace("-", "'").split("'") if p]


def convert(wheel, language, out_dir):
    member = f"wordfreq/data/large_{language}.msgpack.gz"
    with zipfile.ZipFile(wheel) as archive:
        packed = archive.read(member)
    table = msgpack.load(gzip.GzipFile(fileobj=io.BytesIO(packed)), raw=False)
    header, buckets = table[0], table[1:]
    if header != {"format": "cB", "version": 1}:
        sys.exit(f"error: {member}: unexpected header {header}")
    frequency = {}
    for index, words in enumerate(buckets):
        value = 10 ** (-index / 100)
        for word in words:
            for part in parts(word):
                if part.isalnum():
                    frequency[part] = frequency.get(part, 0.0) + value
    by_zipf = {}
    for word, value in frequency.items():
        zipf = round(100 * (math.log10(value) + 9))
        if zipf >= MIN_ZIPF * 100:
            by_zipf.setdefault(zipf, []).append(word)
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
