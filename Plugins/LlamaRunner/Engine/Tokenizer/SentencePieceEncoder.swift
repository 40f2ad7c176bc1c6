/// SentencePiece (`tokenizer.ggml.model = llama`) as llama.cpp runs it: spaces become "▁", the
/// text starts as one symbol per UTF-8 character, and the adjacent pair whose joined text is a
/// token with the highest score is joined (leftmost on a tie) until no pair is a token.
/// Characters left that are not tokens become byte tokens (`<0xNN>`).
struct SentencePieceEncoder: Sendable {
    private let tokenIds: ByteStringTable
    private let scores: [Float]
    /// The token for each byte value (byte fallback).
    private let byteTokens: [Int32]

    private struct Candidate: Comparable {
        var score: Float
        var left: Int
        var right: Int
        var length: Int

        /// Ordered so that the heap's minimum is the highest score, then the leftmost.
        static func < (a: Candidate, b: Candidate) -> Bool {
            a.score > b.score || (a.score == b.score && a.left < b.left)
        }
    }

    init(vocabulary: TokenizerVocabulary, tokenIds: ByteStringTable) throws {
        self.tokenIds = tokenIds
        scores = vocabulary.scores.isEmpty ? [Float](repeating: 0, count: vocabulary.tokens.count) : vocabulary.scores
        var bytes = [Int32](repeating: -1, count: 256)
        for byte in 0..<256 {
            let hex = String(byte, radix: 16, uppercase: true)
            let name = "<0x" + (hex.count == 1 ? "0" + hex : hex) + ">"
            if let id = tokenIds.lookup(Array(name.utf8)) ?? tokenIds.lookup([UInt8(byte)]) ?? vocabulary.unknownTokenId {
                bytes[byte] = id
            } else {
                throw TokenizerError(.malformedVocabulary,
                    "SentencePiece vocabulary has no token for byte 0x\(hex) (no \(name), no unknown token)")
            }
        }
        byteTokens = bytes
    }

    /// Encodes text whose spaces are already "▁" (see `escapeSpaces`).
    func encode(_ text: [UInt8], into output: inout [Int32]) {
        guard !text.isEmpty else { return }
        // Symbols: byte range [start, start + length) per UTF-8 character, linked.
        var starts: [Int] = []
        var lengths: [Int] = []
        var index = 0
        while index < text.count {
            let lead = text[index]
            let length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
            starts.append(index)
            lengths.append(min(length, text.count - index))
            index += length
        }
        let count = starts.count
        var next = (0..<count).map { $0 + 1 < count ? $0 + 1 : -1 }
        var prev = (0..<count).map { $0 - 1 }
        var heap = BinaryHeap<Candidate>()

        text.withUnsafeBufferPointer { bytes in
            func consider(_ left: Int, _ right: Int) {
                guard left >= 0, right >= 0 else { return }
                let length = lengths[left] + lengths[right]
                let joined = UnsafeBufferPointer(rebasing: bytes[starts[left]..<(starts[left] + length)])
                guard let id = tokenIds.lookup(joined) else { return }
                heap.push(Candidate(score: scores[Int(id)], left: left, right: right, length: length))
            }
            for left in 0..<(count - 1) { consider(left, left + 1) }
            while let candidate = heap.pop() {
                let left = candidate.left, right = candidate.right
                // Stale when either side was merged since (the joined length no longer fits).
                guard lengths[left] > 0, lengths[right] > 0,
                      lengths[left] + lengths[right] == candidate.length else { continue }
                lengths[left] += lengths[right]
                lengths[right] = 0
                next[left] = next[right]
                if next[right] >= 0 { prev[next[right]] = left }
                consider(prev[left], left)
                consider(left, next[left])
            }
            var symbol = 0
            while symbol != -1 {
                let piece = UnsafeBufferPointer(rebasing: bytes[starts[symbol]..<(starts[symbol] + lengths[symbol])])
                if let id = tokenIds.lookup(piece) {
                    output.append(id)
                } else {
                    for byte in piece { output.append(byteTokens[Int(byte)]) }
                }
                symbol = next[symbol]
            }
        }
    }

    /// SentencePiece's whitespace escape: every " " becomes "▁" (U+2581).
    static func escapeSpaces(_ text: UnsafeBufferPointer<UInt8>, prefixSpace: Bool) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(text.count + 3)
        if prefixSpace { output.append(contentsOf: [0xE2, 0x96, 0x81]) }
        for byte in text {
            if byte == 0x20 {
                output.append(contentsOf: [0xE2, 0x96, 0x81])
            } else {
                output.append(byte)
            }
        }
        return output
    }
}
