"""The labelled lines the quote library's learned decisions are fitted on: the hand-labelled lines
of eval/lines, split as LabelledLines.swift splits them (a line is in the tuning half when the
64-bit FNV-1a hash of its UTF-8 text is even), and the drafts written apart of eval/drafts, split
into folders. Shared by taste-model.py, register-model.py and prompt-examples.py."""
import os
import sys

LANGUAGES = ["en", "de", "es", "fr", "it", "pt"]
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def is_tuning(line):
    value = 0xCBF29CE484222325
    for byte in line.encode("utf-8"):
        value = ((value ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return value % 2 == 0


def lines(language, kind):
    path = os.path.join(ROOT, "eval/lines", f"{language}.{kind}.txt")
    with open(path, encoding="utf-8") as f:
        found = [line.rstrip("\n") for line in f if line.strip()]
    if not found:
        sys.exit(f"error: {path}: no lines")
    return found


def drafts(half, language, kind):
    """eval/drafts/<half>/<language>.<kind>.txt; a kind the half lacks reads as no lines."""
    path = os.path.join(ROOT, "eval/drafts", half, f"{language}.{kind}.txt")
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as f:
        return [line.rstrip("\n") for line in f if line.strip()]
