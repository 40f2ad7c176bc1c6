#!/usr/bin/env python3
"""Converts wordfreq's "small" frequency lists into the word evidence of the language
identifier (Sources/QuoteLibrary/Language/LanguageWords.swift).

Usage: language-words.py WHEEL OUT

The "small" lists are the ones wordfreq ships for every language it covers (42 of them, 40 of
which are among langdetect's 55 profiles); the "large" lists exist for only 21, and mixing the two
would give some languages more words than others. Only words at Zipf >= 4.5 (more often than
about 30 in a million words) are kept: for short texts the common words are what tells one
language from its neighbour; a rarer word counts as absent (the cutoff was chosen on the tuning
half of the labelled set, README "Language identification").

Words are lower-cased (accents kept: "não" and "nao" are different evidence), in NFC, and split
into runs of letters as the identifier splits a text; forms that collide add their frequencies.

Output (UTF-8 text):
    tandem-language-words 1 <cutoff × 100>
    <profile code> <zipf × 100> <word> <word> …     (one line per language and value)
"""
import re
import sys
import unicodedata
import zipfile

from wordfreq_lists import zipf_table

CUTOFF = 4.5
# wordfreq's codes that langdetect's profiles spell differently.
PROFILE_CODES = {"nb": "no", "sh": "hr", "fil": "tl", "zh": "zh-cn"}
# wordfreq languages with no langdetect profile: no n-gram evidence to combine with.
WITHOUT_PROFILE = {"is", "ms"}


def letter_runs(word):
    runs, current = [], []
    for ch in unicodedata.normalize("NFC", word.lower()):
        if ch.isalpha():
            current.append(ch)
        elif current:
            runs.append("".join(current))
            current = []
    if current:
        runs.append("".join(current))
    return runs


def main(wheel, out):
    lines = []
    with zipfile.ZipFile(wheel) as archive:
        members = sorted(n for n in archive.namelist() if re.fullmatch(r"wordfreq/data/small_\w+\.msgpack\.gz", n))
        for member in members:
            language = member.split("small_")[1].split(".")[0]
            if language in WITHOUT_PROFILE:
                continue
            by_zipf = zipf_table(archive, member, letter_runs, CUTOFF)
            code = PROFILE_CODES.get(language, language)
            for zipf in sorted(by_zipf, reverse=True):
                lines.append(f"{code} {zipf} {' '.join(sorted(by_zipf[zipf]))}\n")
            print(f"{code}: {sum(map(len, by_zipf.values()))} words", file=sys.stderr)
    if not lines:
        sys.exit(f"error: {wheel} has no small_<lang> lists")
    with open(out, "w", encoding="utf-8") as f:
        f.write(f"tandem-language-words 1 {round(CUTOFF * 100)}\n")
        f.writelines(lines)


if __name__ == "__main__":
    main(*sys.argv[1:])
