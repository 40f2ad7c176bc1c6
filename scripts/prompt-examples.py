#!/usr/bin/env python3
"""Picks the example lines the quote pipeline shows its models, from the tuning half of eval/lines
only, so no held-out line is ever shown to a model (Sources/QuoteLibrary/README.md, "Judge" and
"Draft prompt"):

- the likelihood judge: per language, the first JUDGE_EXAMPLES good and the first JUDGE_EXAMPLES
  generic lines, in file order (Sources/QuoteLibrary/Judge/JudgeExamples.swift);
- the few-shot draft prompt: per language, the rest of the tuning half's good lines, which the
  judge is never shown (Sources/QuoteLibrary/Pipeline/DraftExamples.swift).

Usage: prompt-examples.py [--write]   (prints both tables; --write writes the two files)
"""
import argparse
import os

from labelled_lines import LANGUAGES, ROOT, is_tuning, lines

JUDGE_EXAMPLES = 6
HEADER = "// Written by scripts/prompt-examples.py --write; do not edit by hand (run the script again)."


def swift_string(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def swift_list(lines, indent):
    return [f"{indent}{swift_string(line)}," for line in lines]


def swift_table(extension, doc, declaration, entry):
    """A generated `extension` holding one dictionary literal, `entry(language)` giving each
    language's lines."""
    out = [HEADER, f"extension {extension} {{", f"    /// {doc}", f"    static let {declaration} = ["]
    for language in LANGUAGES:
        out += entry(language)
    return out + ["    ]", "}", ""]


def judge_table(tuning):
    def entry(language):
        return ([f'        "{language}": JudgeExamples(', "            good: ["]
                + swift_list(tuning[language]["good"][:JUDGE_EXAMPLES], " " * 16)
                + ["            ],", "            generic: ["]
                + swift_list(tuning[language]["generic"][:JUDGE_EXAMPLES], " " * 16)
                + ["            ]),"])
    return swift_table("JudgeExamples", "Per language: the tuning half's first good and generic lines of eval/lines.",
                       "byLanguage: [String: JudgeExamples]", entry)


def draft_table(tuning):
    def entry(language):
        return ([f'        "{language}": ['] + swift_list(tuning[language]["good"][JUDGE_EXAMPLES:], " " * 12)
                + ["        ],"])
    return swift_table("DraftPrompt",
                       "Per language: the tuning half's good lines of eval/lines that the likelihood judge is not shown.",
                       "fewShotPool: [String: [String]]", entry)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    tuning = {language: {kind: [line for line in lines(language, kind) if is_tuning(line)]
                         for kind in ("good", "generic")} for language in LANGUAGES}
    outputs = {"Sources/QuoteLibrary/Judge/JudgeExamples.swift": judge_table(tuning),
               "Sources/QuoteLibrary/Pipeline/DraftExamples.swift": draft_table(tuning)}
    for path, out in outputs.items():
        text = "\n".join(out)
        if args.write:
            with open(os.path.join(ROOT, path), "w", encoding="utf-8") as f:
                f.write(text)
            print(f"wrote {path}")
        else:
            print(text)


if __name__ == "__main__":
    main()
