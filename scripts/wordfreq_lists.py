"""Reads one of wordfreq's frequency lists (shared by word-frequencies.py and language-words.py).

wordfreq stores each list as gzip'd msgpack: a header {"format": "cB", "version": 1}, then
buckets, bucket i holding the words whose frequency is 10^(-i/100) (i centibels below 1).
The Zipf value of a word is 9 - i/100.
"""
import gzip
import io
import math
import sys

import msgpack


def zipf_table(archive, member, forms, minimum):
    """{Zipf × 100: [form, …]} of the list `member` of the wheel `archive` (a ZipFile): each word
    counted as the forms `forms(word)` gives, forms that collide adding their frequencies, those
    at Zipf >= `minimum` kept."""
    table = msgpack.load(gzip.GzipFile(fileobj=io.BytesIO(archive.read(member))), raw=False)
    header, buckets = table[0], table[1:]
    if header != {"format": "cB", "version": 1}:
        sys.exit(f"error: {member}: unexpected header {header}")
    frequency = {}
    for index, words in enumerate(buckets):
        value = 10 ** (-index / 100)
        for word in words:
            for form in forms(word):
                frequency[form] = frequency.get(form, 0.0) + value
    by_zipf = {}
    for form, value in frequency.items():
        zipf = round(100 * (math.log10(value) + 9))
        if zipf >= minimum * 100:
            by_zipf.setdefault(zipf, []).append(form)
    return by_zipf
