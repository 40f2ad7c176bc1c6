/// Byte-level BPE (`tokenizer.ggml.model = gpt2`): pre-tokenize, spell each chunk's bytes in the
/// GPT-2 byte alphabet, apply the merges, map the resulting symbols to token ids.
///
/// Symbols are ids: vocabulary tokens keep their token id; the few strings a merge produces
/// that are not tokens get ids past the vocabulary and fall back to single-byte tokens at the
/// end, as in llama.cpp.
struct BytePairEncoder: Sendable {
    let preTokenizer: PreTokenizer
    let merger: BytePairMerger
    private let vocabularyCount: Int
    /// Token texts (UTF-8 of their alphabet spelling) to ids, vocabulary first.
    private let tokenIds: ByteStringTable
    /// The symbol id of each byte's one-character spelling.
    private let byteSymbols: [Int32]
    /// Alphabet-spelled UTF-8 of symbols that are not tokens, by id - vocabularyCount.
    private let extraSymbolTexts: [[UInt8]]

    struct Scratch {
        var scalars: [UInt32] = []
        var classes: [UInt8] = []
        var byteOffsets: [Int] = []
        var symbols: [Int32] = []
        var spelled: [UInt8] = []
        var merge = BytePairMerger.Scratch()
    }

    init(vocabulary: TokenizerVocabulary, tokenIds: ByteStringTable) throws {
        preTokenizer = try PreTokenizer(named: vocabulary.preTokenizer)
        vocabularyCount = vocabulary.tokens.count
        var symbolIds = tokenIds
        var extras: [[UInt8]] = []
        func symbol(for text: [UInt8]) -> Int32 {
            if let id = symbolIds.lookup(text) { return id }
            let id = Int32(vocabulary.tokens.count + extras.count)
            extras.append(text)
            symbolIds.insert(text, value: id)
            return id
        }
        var bytes = [Int32](repeating: 0, count: 256)
        for byte in 0..<256 {
            var text: [UInt8] = []
            ByteLevelAlphabet.appendUTF8(ByteLevelAlphabet.scalarForByte[byte], to: &text)
            bytes[byte] = symbol(for: text)
        }
        var table = MergeRankTable(minimumCapacity: vocabulary.merges.count)
        for (rank, line) in vocabulary.merges.enumerated() {
            let utf8 = Array(line.utf8)
            // The separator is the first space after the first character (a merge's left side
            // may itself start with a space character in hand-made vocabularies).
            guard utf8.count > 2, let space = utf8[1...].firstIndex(of: 0x20) else {
                throw TokenizerError(.malformedVocabulary,
                    "tokenizer.ggml.merges[\(rank)] '\(line)' is not two symbols separated by a space")
            }
            let left = Array(utf8[..<space])
            let right = Array(utf8[(space + 1)...])
            table.insertIfAbsent(
                left: symbol(for: left), right: symbol(for: right),
                merge: .init(rank: Int32(rank), result: symbol(for: left + right)))
        }
        self.tokenIds = symbolIds
        byteSymbols = bytes
        extraSymbolTexts = extras
        merger = BytePairMerger(table: table)
    }

    /// Encodes one piece of plain text (no special tokens in it), appending to `output`.
    func encode(_ text: UnsafeBufferPointer<UInt8>, into output: inout [Int32], scratch: inout Scratch) {
        let ends = preTokenize(text, scratch: &scratch)
        var start = 0
        for end in ends {
            let chunk = UnsafeBufferPointer(rebasing: text[scratch.byteOffsets[start]..<scratch.byteOffsets[end]])
            encodeChunk(chunk, into: &output, scratch: &scratch)
            start = end
        }
    }

    /// Calls `body` with each pre-tokenizer chunk of `text` (benchmarks time the merge loop alone).
    func forEachChunk(_ text: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        var scratch = Scratch()
        var start = 0
        for end in preTokenize(text, scratch: &scratch) {
            body(UnsafeBufferPointer(rebasing: text[scratch.byteOffsets[start]..<scratch.byteOffsets[end]]))
            start = end
        }
    }

    /// Chunk ends in code points; `scratch.byteOffsets` maps them to bytes.
    private func preTokenize(_ text: UnsafeBufferPointer<UInt8>, scratch: inout Scratch) -> [Int] {
        guard !text.isEmpty else { return [] }
        Self.decodeScalars(text, into: &scratch)
        return scratch.scalars.withUnsafeBufferPointer { scalars in
            scratch.classes.withUnsafeBufferPointer { classes in preTokenizer.split(scalars, classes) }
        }
    }

    /// The initial symbols of a chunk: one per byte.
    func initialSymbols(_ chunk: UnsafeBufferPointer<UInt8>) -> [Int32] {
        chunk.map { byteSymbols[Int($0)] }
    }

    private func encodeChunk(_ chunk: UnsafeBufferPointer<UInt8>, into output: inout [Int32], scratch: inout Scratch) {
        if preTokenizer.ignoresMerges {
            scratch.spelled.removeAll(keepingCapacity: true)
            ByteLevelAlphabet.spell(chunk, into: &scratch.spelled)
            if let id = tokenIds.lookup(scratch.spelled), Int(id) < vocabularyCount {
                output.append(id)
                return
            }
        }
        scratch.symbols.removeAll(keepingCapacity: true)
        for byte in chunk { scratch.symbols.append(byteSymbols[Int(byte)]) }
        merger.merge(&scratch.symbols, scratch: &scratch.merge)
        appendTokens(for: scratch.symbols, to: &output)
    }

    /// Maps merged symbols to tokens; a symbol that is not a token becomes the single-byte
    /// tokens of its spelling's UTF-8 bytes that exist (llama.cpp's fallback).
    func appendTokens(for symbols: [Int32], to output: inout [Int32]) {
        for symbol in symbols {
            if Int(symbol) < vocabularyCount {
                output.append(symbol)
                continue
            }
            for byte in extraSymbolTexts[Int(symbol) - vocabularyCount] {
                if let id = tokenIds.lookup([byte]), Int(id) < vocabularyCount { output.append(id) }
            }
        }
    }

    /// Code points, their classes and their byte offsets (plus the end offset).
    private static func decodeScalars(_ text: UnsafeBufferPointer<UInt8>, into scratch: inout Scratch) {
        scratch.scalars.removeAll(keepingCapacity: true)
        scratch.classes.removeAll(keepingCapacity: true)
        scratch.byteOffsets.removeAll(keepingCapacity: true)
        var index = 0
        let count = text.count
        let basicPlane = ScalarClass.basicPlane
        while index < count {
            let lead = text[index]
            var value: UInt32
            var length: Int
            // The input is a Swift String's UTF-8, hence valid.
            if lead < 0x80 {
                value = UInt32(lead); length = 1
            } else if lead < 0xE0 {
                value = UInt32(lead & 0x1F); length = 2
            } else if lead < 0xF0 {
                value = UInt32(lead & 0x0F); length = 3
            } else {
                value = UInt32(lead & 0x07); length = 4
            }
            for offset in 1..<max(length, 1) {
                value = value << 6 | UInt32(text[index + offset] & 0x3F)
            }
            scratch.scalars.append(value)
            scratch.classes.append(value < 0x10000 ? basicPlane[Int(value)] : ScalarClass.of(value).rawValue)
            scratch.byteOffsets.append(index)
            index += length
        }
        scratch.byteOffsets.append(count)
    }
}
