#!/usr/bin/env python3
"""Picks the example lines the likelihood judge shows the model (Sources/QuoteLibrary/README.md,
"Judge"): per language, the first EXAMPLES good and the first EXAMPLES generic lines of
eval/lines, in file order, from the tuning half only, so the judge's calibration
(`tandem eval --judge`, measured on the held-out half) never sees a line it was shown.

Usage: judge-examples.py [--write]   (prints the table; --write writes
Sources/QuoteLibrary/Judge/JudgeExamples.swift)
"""
import argparse
import os

from labelled_lines import LANGUAGES, ROOT, is_tuning, lines

EXAMPLES = 6
OUTPUT = os.path.join(ROOT, "Sources/QuoteLibrary/Judge/JudgeExamples.swift")


def swift_string(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    picked = {language: {kind: [line for line in lines(language, kind) if is_tuning(line)][:EXAMPLES]
                         for kind in ("good", "generic")} for language in LANGUAGES}
    out = ["// Written by scripts/judge-examples.py --write; do not edit by hand (run the script again).",
           "extension JudgeExamples {",
           "    /// Per language: the tuning half's first good and generic lines of eval/lines.",
           "    static let byLanguage: [String: JudgeExamples] = ["]
    for language in LANGUAGES:
        out.append(f'        "{language}": JudgeExamples(')
        for kind, label in (("good", "good"), ("generic", "generic")):
            end = "," if kind == "good" else "),"
            out.append(f"            {label}: [")
            out += [f"                {swift_string(line)}," for line in picked[language][kind]]
            out.append(f"            ]{end}")
    out += ["    ]", "}", ""]
    text = "\n".join(out)
    if args.write:
        with open(OUTPUT, "w", encoding="utf-8") as f:
            f.write(text)
        print(f"wrote {os.path.relpath(OUTPUT, ROOT)}")
    else:
        print(text)


if __name__ == "__main__":
    main()
