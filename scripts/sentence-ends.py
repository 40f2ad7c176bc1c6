#!/usr/bin/env python3
"""Counts, per language, how often each word occurs and how often it ends a sentence, over real
sentences written by people: the GNOME user help (gnome-user-docs), the Debian Administrator's
Handbook (debian-handbook; both translated by people into de, es, fr, it, pt) and the fortune
cookie files of fortunes (en), fortunes-de, fortunes-es, fortunes-it and fortunes-br (pt). The
gate's dangling-word check reads the table (Sources/QuoteLibrary/Gate/DanglingWords.swift): a
word that is common here but almost never ends a sentence ("of", "the", "'s") does not end a
line either.

Usage: sentence-ends.py OUT.txt PACKAGE.deb...

Rules (fixed; nothing here looks at the labelled lines):
- Text: every <p> of the help pages and of the handbook's HTML pages without code-like markup;
  every fortune (the lines between "%" lines, joined). Sentences end at . ! ? (closing quotes or
  brackets after them) followed by a space or the end of the text; a sentence ending in an
  ellipsis ("...", "…") trails off and ends nothing. Its last word is sentence-final; a text
  after the last mark is counted but ends nothing.
- Untranslated text is dropped: a sentence of a translated page that also appears in the English
  pages of the same source is not that language's.
- Each distinct sentence once per language (the help has pt and pt_BR; fortunes repeat).
- Words as the gate reads them (QuoteText.words: letters and digits with inner apostrophes or
  hyphens), in lower case, accents kept. A capitalised word after a sentence's first is a name
  (or a German noun) and is not counted: the gate does not check such a last word either, and
  initials ("Fred A.") would otherwise make "a" a sentence end. A word joined by an apostrophe or hyphen is counted by its
  last part with the joiner in front ("ariadne's" as "'s", "prends-le" as "-le", "l'eau" as
  "'eau"), since that part is what ends the line. Words with digits are left out.
- Kept: words seen at least MIN_OCCURRENCES times in a language (a rarer word is no evidence).

Output:
    sentence-ends 1 <package> <package> …
    <lang> <word> <occurrences> <sentence-final occurrences>     (sorted by language, then word)
"""
import html.parser
import io
import os
import re
import subprocess
import sys
import tarfile
import unicodedata
import xml.etree.ElementTree as ET
from collections import Counter

LANGUAGES = ["en", "de", "es", "fr", "it", "pt"]
MIN_OCCURRENCES = 3
HELP_FOLDERS = {"C": "en", "de": "de", "es": "es", "fr": "fr", "it": "it", "pt_BR": "pt", "pt": "pt"}
HANDBOOK_FOLDERS = {"en-US": "en", "de-DE": "de", "es-ES": "es", "fr-FR": "fr", "it-IT": "it", "pt-BR": "pt"}
FORTUNE_FOLDERS = {"": "en", "de": "de", "es": "es", "it": "it"}
MALLARD = "{http://projectmallard.org/1.0/}"
CODE_LIKE = {"cmd", "code", "file", "input", "output", "sys", "var", "screen", "key", "keyseq", "link",
             "command", "filename", "literal", "computeroutput", "userinput", "replaceable", "pre", "kbd", "tt"}
WORD = re.compile(r"[^\W_]+(?:['’\-](?=[^\W\d_])[^\W_]+)*")
SENTENCE = re.compile(r"(.*?[.!?]+[\"”»’'›)]*)(?=\s|$)", re.S)


def key(word):
    """The part of a word that ends a line: the whole word, or its last joined part with the joiner;
    lower case, accents kept (Spanish "él" is a pronoun, "el" an article)."""
    folded = unicodedata.normalize("NFC", word.replace("’", "'")).lower()
    cut = max(folded.rfind("'"), folded.rfind("-"))
    return folded if cut < 0 else folded[cut:]


def sentences(text):
    """(sentence, ends) pairs: each sentence up to its marks, and the text after the last one."""
    text = " ".join(text.split())
    position = 0
    for match in SENTENCE.finditer(text):
        if match.start() < position:
            continue
        piece = match.group(1).strip()
        position = match.end()
        bare = piece.rstrip("\"”»’'›)")
        yield piece, not (bare.endswith("...") or bare.endswith("…"))
    rest = text[position:].strip()
    if rest:
        yield rest, False


def help_paragraphs(page):
    root = ET.fromstring(page)
    for p in root.iter(MALLARD + "p"):
        if not any(child.tag.removeprefix(MALLARD) in CODE_LIKE for child in p.iter()):
            yield "".join(p.itertext())


class HandbookParagraphs(html.parser.HTMLParser):
    """The text of every paragraph (<div class="para">, Publican's markup): code-like markup inside
    stands as "0" (a word with a digit, which is not counted and ends nothing), index terms (not
    shown on the page) are left out."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.paragraphs, self.text, self.stack = [], [], []

    def handle_starttag(self, tag, attrs):
        classes = set((dict(attrs).get("class") or "").split())
        if not self.stack:
            if tag == "div" and "para" in classes:
                self.stack, self.text = [("div", None)], []
            return
        hidden = "indexterm" in classes or any(kind == "hidden" for _, kind in self.stack)
        code = not hidden and (tag in CODE_LIKE or bool(classes & CODE_LIKE))
        inside_code = any(kind in ("code", "hidden") for _, kind in self.stack)
        if code and not inside_code:
            self.text.append(" 0 ")
        if tag not in VOID:
            self.stack.append((tag, "hidden" if hidden else "code" if code else None))

    def handle_endtag(self, tag):
        if not self.stack or tag in VOID:
            return
        while self.stack:
            open_tag, _ = self.stack.pop()
            if open_tag == tag:
                break
        if not self.stack:
            self.paragraphs.append("".join(self.text))

    def handle_data(self, data):
        if self.stack and not any(kind in ("code", "hidden") for _, kind in self.stack):
            self.text.append(data)


VOID = {"br", "img", "hr", "meta", "link", "input", "col", "area", "base", "wbr"}


def handbook_paragraphs(page):
    parser = HandbookParagraphs()
    parser.feed(page.decode("utf-8"))
    return parser.paragraphs


def fortunes(data):
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    return [entry for entry in re.split(r"^%\s*$", text, flags=re.M) if entry.strip()]


def texts(deb):
    """{source: {language: [(document, [text, …])]}} of one package."""
    tar_bytes = subprocess.run(["dpkg-deb", "--fsys-tarfile", deb], check=True, stdout=subprocess.PIPE).stdout
    found = {}
    with tarfile.open(fileobj=io.BytesIO(tar_bytes)) as tar:
        for member in tar.getmembers():
            if not member.isfile():
                continue
            name = member.name
            if m := re.search(r"/share/help/([^/]+)/gnome-help/[^/]+\.page$", name):
                language, reader, source = HELP_FOLDERS.get(m.group(1)), help_paragraphs, "help"
            elif m := re.search(r"/debian-handbook/html/([^/]+)/[^/]+\.html$", name):
                language, reader, source = HANDBOOK_FOLDERS.get(m.group(1)), handbook_paragraphs, "handbook"
            elif m := re.search(r"/share/games/fortunes/(?:([a-z]+)/)?[^/.]+(?:\.fortunes)?$", name):
                folder = m.group(1) or ""
                language = "pt" if name.endswith("/fortunes/brasil") else FORTUNE_FOLDERS.get(folder)
                reader, source = fortunes, "fortunes"
            else:
                continue
            if language is None:
                continue
            documents = found.setdefault(source, {}).setdefault(language, [])
            documents.append(list(reader(tar.extractfile(member).read())))
    return found


def main():
    out, debs = sys.argv[1], sys.argv[2:]
    counts = {language: (Counter(), Counter()) for language in LANGUAGES}
    seen = {language: set() for language in LANGUAGES}
    for deb in debs:
        for source, by_language in texts(deb).items():
            english = set()
            if source != "fortunes":
                english = {s for doc in by_language.get("en", []) for text in doc for s, _ in sentences(text)}
            for language, documents in by_language.items():
                occurrences, finals = counts[language]
                for document in documents:
                    for text in document:
                        for sentence, ends in sentences(text):
                            if (language != "en" and sentence in english) or sentence in seen[language]:
                                continue
                            seen[language].add(sentence)
                            words = WORD.findall(sentence)
                            for index, word in enumerate(words):
                                if any(c.isdigit() for c in word) or (index > 0 and word[0].isupper()):
                                    continue
                                occurrences[key(word)] += 1
                                if ends and index == len(words) - 1:
                                    finals[key(word)] += 1
    missing = [language for language in LANGUAGES if sum(counts[language][0].values()) == 0]
    if missing:
        sys.exit(f"error: no sentences for {missing} in {debs}")
    with open(out, "w", encoding="utf-8") as file:
        file.write("sentence-ends 1 " + " ".join(os.path.basename(deb).split("_")[0] for deb in debs) + "\n")
        for language in LANGUAGES:
            occurrences, finals = counts[language]
            for word in sorted(occurrences):
                if occurrences[word] >= MIN_OCCURRENCES:
                    file.write(f"{language} {word} {occurrences[word]} {finals[word]}\n")
            print(f"{language}: {sum(occurrences.values())} words, {sum(finals.values())} sentence ends, "
                  f"{sum(1 for w in occurrences if occurrences[w] >= MIN_OCCURRENCES)} kept", file=sys.stderr)


if __name__ == "__main__":
    main()
