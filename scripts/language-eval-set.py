#!/usr/bin/env python3
"""Builds the labelled language-identification set from the GNOME user help (Debian package
gnome-user-docs): the same pages written in English and translated by people into many
languages. Nothing of it was written for this project.

Usage: language-eval-set.py PACKAGE.deb OUT.tsv

Rules (fixed; nothing here looks at what the identifier answers):
- Text: every <p> of gnome-help/*.page without code-like markup (commands, files, keys typed,
  output), split into sentences at . ! ? followed by a space; a sentence keeps only letters,
  spaces and ordinary punctuation (no digits, paths or symbols) and has at least 4 words.
- Untranslated text is dropped: a translated page keeps English strings its translators have
  not reached, so a sentence that also appears in the English pages is not that language's.
- Split: by page, so one topic never lands in both halves: a page whose SHA-256 of its file
  name starts with an even byte is `tune`, odd is `held-out`.
- Spans: from each sentence of 8 or more words, one run of 4-7 consecutive words; its length and
  start come from the SHA-256 of the sentence.
- Sample: per language, half and kind, at most 400 items, the first by SHA-256 of the text.
Columns: half, label (en de es fr it pt, or other), folder language, kind (sentence|span), text.
"""
import hashlib
import io
import re
import subprocess
import sys
import tarfile
import xml.etree.ElementTree as ET

# Help folder -> label. pt and pt_BR are both Portuguese; every other folder is `other`.
SUPPORTED = {"C": "en", "de": "de", "es": "es", "fr": "fr", "it": "it", "pt": "pt", "pt_BR": "pt"}
OTHERS = ["nl", "ca", "gl", "ro", "sv", "da", "pl", "cs", "hr", "hu", "fi", "id", "sl", "lv"]
MALLARD = "{http://projectmallard.org/1.0/}"
CODE_LIKE = {"cmd", "code", "file", "input", "output", "sys", "var", "screen", "key", "keyseq", "link"}
SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
PROSE = re.compile(r"^[^\W\d_][\w\s,;:'’()«»“”\"¿¡\-–—…]*[.!?]$")
LIMIT = 400


def digest(text):
    return hashlib.sha256(text.encode("utf-8")).digest()


def sentences(page_xml):
    root = ET.fromstring(page_xml)
    for p in root.iter(MALLARD + "p"):
        if any(child.tag.removeprefix(MALLARD) in CODE_LIKE for child in p.iter()):
            continue
        text = " ".join("".join(p.itertext()).split())
        for sentence in SENTENCE_END.split(text):
            if PROSE.match(sentence) and not re.search(r"\d", sentence) and len(sentence.split()) >= 4:
                yield sentence


def span(sentence):
    words = sentence.split()
    h = digest(sentence)
    length = 4 + h[0] % 4
    start = int.from_bytes(h[1:3], "big") % (len(words) - length + 1)
    return " ".join(words[start:start + length]).strip(",;:()«»“”\"-–—")


def main(deb, out):
    tar_bytes = subprocess.run(["dpkg-deb", "--fsys-tarfile", deb], check=True, stdout=subprocess.PIPE).stdout
    pages = {}
    with tarfile.open(fileobj=io.BytesIO(tar_bytes)) as tar:
        for member in tar.getmembers():
            match = re.search(r"/share/help/([^/]+)/gnome-help/([^/]+\.page)$", member.name)
            if match and member.isfile():
                pages.setdefault(match.group(1), {})[match.group(2)] = tar.extractfile(member).read()
    folders = list(SUPPORTED) + OTHERS
    missing = [f for f in folders if f not in pages]
    if missing:
        sys.exit(f"error: {deb} has no help pages for {missing}")
    english = {s for page in pages["C"].values() for s in sentences(page)}
    rows = []
    for folder in folders:
        buckets = {}
        seen = set()
        for name, page in sorted(pages[folder].items()):
            half = "tune" if digest(name)[0] % 2 == 0 else "held-out"
            for sentence in sentences(page):
                if sentence in seen or (folder != "C" and sentence in english):
                    continue
                seen.add(sentence)
                buckets.setdefault((half, "sentence"), []).append(sentence)
                if len(sentence.split()) >= 8:
                    buckets.setdefault((half, "span"), []).append(span(sentence))
        label = SUPPORTED.get(folder, "other")
        for (half, kind), texts in sorted(buckets.items()):
            for text in sorted(set(texts), key=digest)[:LIMIT]:
                rows.append((half, label, folder, kind, text))
    with open(out, "w", encoding="utf-8") as f:
        f.write("half\tlabel\tfolder\tkind\ttext\n")
        for row in rows:
            f.write("\t".join(row) + "\n")
    print(f"{len(rows)} labelled texts from {len(folders)} help folders", file=sys.stderr)


if __name__ == "__main__":
    main(*sys.argv[1:])
