/// Splits text into the chunks BPE runs inside, as llama.cpp does for each `tokenizer.ggml.pre`.
///
/// A pre-tokenizer is a chain of passes; each pass splits every chunk the previous one made
/// (a chunk's end is a hard boundary for the next pass). The regexes are hand-written scanners
/// over code points with the same semantics as llama.cpp's custom splitters.
struct PreTokenizer: Sendable {
    enum Pass: Sendable {
        /// `\p{N}`: every number code point alone.
        case eachNumber
        /// `\p{N}+`.
        case numberRuns
        /// `[0-9][0-9][0-9]`.
        case asciiDigitTriples
        /// `[\p{P}\$\+<=>\^~\|]+`.
        case punctuationRuns
        /// `'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+`.
        case gpt2
        /// `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,maxDigits}|
        /// ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+` (Llama 3: 3 digits, Qwen2: 1).
        case llama3(maxDigits: Int)
    }

    let name: String
    let passes: [Pass]
    /// Llama 3 vocabularies take a whole chunk as one token when it is in the vocabulary,
    /// without running merges (llama.cpp's `ignore_merges`).
    let ignoresMerges: Bool

    /// The pre-tokenizer for a `tokenizer.ggml.pre` value (nil: llama.cpp's default chain).
    init(named name: String?) throws {
        switch name {
        case nil, "default":
            self.init(name: "default", passes: [.punctuationRuns, .gpt2, .numberRuns, .asciiDigitTriples])
        case "gpt2", "gpt-2", "phi-2", "jina-es", "jina-de", "jina-v2-es", "jina-v2-de", "mpt", "olmo":
            self.init(name: name!, passes: [.gpt2])
        case "smollm":
            self.init(name: "smollm", passes: [.eachNumber, .gpt2])
        case "llama3", "llama-v3", "llama-bpe", "falcon3", "pixtral":
            self.init(name: name!, passes: [.llama3(maxDigits: 3)], ignoresMerges: true)
        case "qwen2", "qwen2.5", "qwen-2.5", "deepseek-r1-qwen", "megrez":
            self.init(name: name!, passes: [.llama3(maxDigits: 1)])
        case let other?:
            throw TokenizerError(.unsupportedPreTokenizer,
                "tokenizer.ggml.pre '\(other)' is not supported (supported: smollm, gpt2, llama3, qwen2 and their aliases, default)")
        }
    }

    init(name: String, passes: [Pass], ignoresMerges: Bool = false) {
        self.name = name
        self.passes = passes
        self.ignoresMerges = ignoresMerges
    }

    /// The chunks of `text`, as strings (for tools and tests; encoding works on buffers).
    func chunks(of text: String) -> [String] {
        let scalars = text.unicodeScalars.map(\.value)
        let classes = scalars.map { ScalarClass.of($0).rawValue }
        let ends = scalars.withUnsafeBufferPointer { s in classes.withUnsafeBufferPointer { split(s, $0) } }
        var start = 0
        return ends.map { end in
            defer { start = end }
            return String(String.UnicodeScalarView(scalars[start..<end].map { Unicode.Scalar($0)! }))
        }
    }

    /// Splits `scalars` (with their classes, `present` set) into chunks; returns the chunk ends.
    func split(_ scalars: UnsafeBufferPointer<UInt32>, _ classes: UnsafeBufferPointer<UInt8>) -> [Int] {
        var ends = scalars.isEmpty ? [] : [scalars.count]
        for pass in passes {
            var next: [Int] = []
            next.reserveCapacity(ends.count * 2 + 8)
            var start = 0
            for end in ends {
                let scanner = ChunkScanner(scalars: scalars, classes: classes, start: start, end: end)
                switch pass {
                case .eachNumber: scanner.splitMatches(into: &next, matchLength: scanner.singleNumber)
                case .numberRuns: scanner.splitMatches(into: &next, matchLength: scanner.numberRun)
                case .asciiDigitTriples: scanner.splitMatches(into: &next, matchLength: scanner.asciiDigitTriple)
                case .punctuationRuns: scanner.splitMatches(into: &next, matchLength: scanner.punctuationRun)
                case .gpt2: scanner.splitGPT2(into: &next)
                case .llama3(let maxDigits): scanner.splitLlama3(into: &next, maxDigits: maxDigits)
                }
                start = end
            }
            ends = next
        }
        return ends
    }
}
