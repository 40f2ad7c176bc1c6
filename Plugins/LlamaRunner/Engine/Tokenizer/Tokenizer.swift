/// Text to token ids and back for a model's vocabulary, matching llama.cpp id for id.
///
/// Built once per model from `TokenizerVocabulary`; immutable and safe to share across threads
/// (each `encode` call uses its own scratch buffers).
///
/// Encoding: `SpecialTokenSplitter` cuts special tokens out of the text; each remaining piece goes
/// to `BytePairEncoder` (`PreTokenizer` + `ChunkScanner` split it into chunks, `BytePairMerger`
/// merges each chunk's bytes, spelled in `ByteLevelAlphabet`) or to `SentencePieceEncoder`.
/// Decoding: every token's bytes are precomputed; `StreamingDetokenizer` holds back partial
/// UTF-8 characters.
public final class Tokenizer: Sendable {
    public enum Kind: String, Sendable {
        /// `gpt2`: byte-level BPE with merges and a pre-tokenizer.
        case bytePairEncoding = "gpt2"
        /// `llama`: SentencePiece with scores and byte fallback.
        case sentencePiece = "llama"
    }

    public let kind: Kind
    public let vocabularySize: Int
    public let bosTokenId: Int32?
    public let eosTokenId: Int32?
    /// Whether `encode(addSpecial: true)` prepends BOS / appends EOS.
    public let addsBos: Bool
    public let addsEos: Bool
    /// The pre-tokenizer in use (byte-level BPE only).
    public var preTokenizerName: String? {
        if case .bytePair(let encoder) = encoder { return encoder.preTokenizer.name }
        return nil
    }

    enum Encoder: Sendable {
        case bytePair(BytePairEncoder)
        case sentencePiece(SentencePieceEncoder)
    }

    let encoder: Encoder
    private let specialSplitter: SpecialTokenSplitter
    private let tokenIds: ByteStringTable
    private let types: [TokenType]
    private let addSpacePrefix: Bool
    /// Every token's bytes, concatenated; token i is `pieceBytes[pieceStarts[i]..<pieceStarts[i+1]]`.
    private let pieceBytes: [UInt8]
    private let pieceStarts: [Int]
    /// Tokens that end a generation: EOS, EOT and the end tokens llama.cpp knows by text.
    public let endOfGeneration: Set<Int32>

    /// Token texts llama.cpp (b11434) treats as ending generation whatever the metadata says;
    /// it also makes each of them a control token (Gemma 3 stores `</s>` as user-defined).
    private static let endOfGenerationTexts: Set<String> = [
        "<|eot_id|>", "<|im_end|>", "<|end|>", "<|return|>", "<|call|>", "<|flush|>", "<|calls|>",
        "<end_of_turn>", "<|endoftext|>", "</s>", "<|eom_id|>", "<EOT>", "_<EOT>", "[EOT]", "[EOS]",
        "<|end_of_text|>", "<end_of_utterance>", "<eos>", "<turn|>", "<|tool_response>",
        "<｜end▁of▁sentence｜>", "[e~[",
    ]
    /// With one of these in the vocabulary, `</s>` is an ordinary token (llama.cpp's exception).
    private static let normalEndOfSentenceMarkers: Set<String> = ["<|tool_response>", "<|plamo:eos|>"]

    public init(vocabulary: TokenizerVocabulary) throws {
        let count = vocabulary.tokens.count
        guard count > 0 else { throw TokenizerError(.malformedVocabulary, "tokenizer.ggml.tokens is empty") }
        guard vocabulary.tokenTypes.isEmpty || vocabulary.tokenTypes.count == count else {
            throw TokenizerError(.malformedVocabulary,
                "tokenizer.ggml.token_type has \(vocabulary.tokenTypes.count) entries, expected one per token (\(count), as tokenizer.ggml.tokens)")
        }
        guard vocabulary.scores.isEmpty || vocabulary.scores.count == count else {
            throw TokenizerError(.malformedVocabulary,
                "tokenizer.ggml.scores has \(vocabulary.scores.count) entries, expected one per token (\(count), as tokenizer.ggml.tokens)")
        }
        let specialIds: [(String, Int32?)] = [
            ("bos_token_id", vocabulary.bosTokenId), ("eos_token_id", vocabulary.eosTokenId),
            ("eot_token_id", vocabulary.eotTokenId), ("unknown_token_id", vocabulary.unknownTokenId),
            ("padding_token_id", vocabulary.paddingTokenId),
        ]
        for case let (name, id?) in specialIds where id < 0 || Int(id) >= count {
            throw TokenizerError(.malformedVocabulary, "tokenizer.ggml.\(name) \(id) is outside the vocabulary of \(count) tokens")
        }
        if vocabulary.addBos && vocabulary.bosTokenId == nil {
            throw TokenizerError(.malformedVocabulary, "tokenizer.ggml.add_bos_token is set but there is no bos_token_id")
        }
        if vocabulary.addEos && vocabulary.eosTokenId == nil {
            throw TokenizerError(.malformedVocabulary, "tokenizer.ggml.add_eos_token is set but there is no eos_token_id")
        }

        var types = vocabulary.tokenTypes.isEmpty
            ? [TokenType](repeating: .normal, count: count)
            : vocabulary.tokenTypes.map(TokenType.init(gguf:))
        var endOfGeneration = Set<Int32>()
        for case let id? in [vocabulary.eosTokenId, vocabulary.eotTokenId] { endOfGeneration.insert(id) }
        let sentenceEndIsNormal = vocabulary.tokens.contains(where: Self.normalEndOfSentenceMarkers.contains)
        for (id, text) in vocabulary.tokens.enumerated() where Self.endOfGenerationTexts.contains(text) {
            if text == "</s>" && sentenceEndIsNormal { continue }
            endOfGeneration.insert(Int32(id))
            // Byte and unused entries keep their type: only text llama.cpp would match as a
            // token becomes control (matched only when special tokens are parsed).
            if types[id] == .normal || types[id] == .userDefined { types[id] = .control }
        }
        let table = ByteStringTable(tokens: vocabulary.tokens)

        switch vocabulary.model {
        case Kind.bytePairEncoding.rawValue:
            kind = .bytePairEncoding
            encoder = .bytePair(try BytePairEncoder(vocabulary: vocabulary, tokenIds: table))
            addSpacePrefix = vocabulary.addSpacePrefix ?? false
        case Kind.sentencePiece.rawValue:
            kind = .sentencePiece
            encoder = .sentencePiece(try SentencePieceEncoder(vocabulary: vocabulary, tokenIds: table))
            addSpacePrefix = vocabulary.addSpacePrefix ?? true
        default:
            throw TokenizerError(.unsupportedModel,
                "tokenizer.ggml.model '\(vocabulary.model)' is not supported (supported: gpt2, llama)")
        }

        var bytes: [UInt8] = []
        var starts: [Int] = [0]
        starts.reserveCapacity(count + 1)
        for (id, text) in vocabulary.tokens.enumerated() {
            bytes.append(contentsOf: Self.pieceBytes(text: text, type: types[id], kind: kind))
            starts.append(bytes.count)
        }

        vocabularySize = count
        bosTokenId = vocabulary.bosTokenId
        eosTokenId = vocabulary.eosTokenId
        addsBos = vocabulary.addBos
        addsEos = vocabulary.addEos
        specialSplitter = SpecialTokenSplitter(tokens: vocabulary.tokens, types: types)
        tokenIds = table
        self.types = types
        pieceBytes = bytes
        pieceStarts = starts
        self.endOfGeneration = endOfGeneration
    }

    /// What a token stands for in text. Special (control, unknown) tokens are their literal text.
    private static func pieceBytes(text: String, type: TokenType, kind: Kind) -> [UInt8] {
        switch (type, kind) {
        case (.control, _), (.unknown, _), (.userDefined, _):
            return Array(text.utf8)
        case (.normal, .bytePairEncoding):
            return ByteLevelAlphabet.bytes(spelledBy: text)
        case (.normal, .sentencePiece):
            return Array(String(String.UnicodeScalarView(text.unicodeScalars.map { $0 == "\u{2581}" ? " " : $0 })).utf8)
        case (.byte, .sentencePiece):
            // "<0xNN>"
            let utf8 = Array(text.utf8)
            if utf8.count == 6, let value = UInt8(String(decoding: utf8[3..<5], as: UTF8.self), radix: 16) {
                return [value]
            }
            return Array(text.utf8)
        default:
            // Unused and undefined tokens, and byte tokens in a byte-level vocabulary, print nothing.
            return []
        }
    }

    // MARK: Encoding

    /// Token ids for `text`. `addSpecial` adds BOS/EOS when the vocabulary asks for them;
    /// `parseSpecial` recognises control tokens written in the text (user-defined tokens are
    /// always recognised).
    public func encode(_ text: String, addSpecial: Bool, parseSpecial: Bool) -> [Int32] {
        encode(text, addSpecial: addSpecial, parseSpecial: parseSpecial, plainText: [])
    }

    /// `encode`, with control tokens not recognised where they would overlap a `plainText` range.
    private func encode(_ text: String, addSpecial: Bool, parseSpecial: Bool, plainText: [Range<Int>]) -> [Int32] {
        var utf8 = Array(text.utf8)
        var output: [Int32] = []
        output.reserveCapacity(utf8.count / 3 + 4)
        if addSpecial && addsBos, let bos = bosTokenId { output.append(bos) }
        utf8.withUnsafeMutableBufferPointer { mutableBytes in
            let bytes = UnsafeBufferPointer(mutableBytes)
            let fragments = specialSplitter.split(bytes, parseSpecial: parseSpecial, plainText: plainText)
            switch encoder {
            case .bytePair(let bpe):
                var scratch = BytePairEncoder.Scratch()
                for fragment in fragments {
                    switch fragment {
                    case .token(let id): output.append(id)
                    case .text(let range): bpe.encode(UnsafeBufferPointer(rebasing: bytes[range]), into: &output, scratch: &scratch)
                    }
                }
            case .sentencePiece(let spm):
                var previousWasSpecial = true
                for fragment in fragments {
                    switch fragment {
                    case .token(let id):
                        output.append(id)
                        previousWasSpecial = true
                    case .text(let range):
                        let escaped = SentencePieceEncoder.escapeSpaces(
                            UnsafeBufferPointer(rebasing: bytes[range]), prefixSpace: addSpacePrefix && previousWasSpecial)
                        spm.encode(escaped, into: &output)
                        previousWasSpecial = false
                    }
                }
            }
        }
        if addSpecial && addsEos, let eos = eosTokenId { output.append(eos) }
        return output
    }

    func specialTokenFragments(_ bytes: UnsafeBufferPointer<UInt8>) -> [SpecialTokenSplitter.Fragment] {
        specialSplitter.split(bytes, parseSpecial: true)
    }

    /// Token ids for a prompt rendered by the model's chat template: the template's control
    /// tokens parsed, BOS/EOS added as the vocabulary asks, but no second BOS when the template
    /// already wrote one (templates such as Llama 3's start with `bos_token`).
    ///
    /// Control tokens are read only from the template's own text: a token written inside (or
    /// across the edge of) message content is plain text, as `encode(parseSpecial: false)` reads
    /// it, so a message cannot forge turns. Nothing else changes: text runs are cut at the same
    /// places, so a conversation without such text encodes exactly as with every token parsed.
    public func encodeChatPrompt(_ prompt: ChatTemplate.Rendering) -> [Int32] {
        var ids = encode(prompt.text, addSpecial: true, parseSpecial: true, plainText: prompt.contentRanges)
        if addsBos, let bos = bosTokenId, ids.count >= 2, ids[0] == bos, ids[1] == bos { ids.removeFirst() }
        return ids
    }

    // MARK: Decoding

    /// The bytes token `id` stands for (possibly part of a UTF-8 character). Control and
    /// unknown tokens give their literal text only when `renderSpecial`.
    /// - Precondition: `0 <= id < vocabularySize` (check untrusted ids with `validate`).
    public func piece(_ id: Int32, renderSpecial: Bool = true) -> [UInt8] {
        precondition(id >= 0 && Int(id) < vocabularySize, "token id \(id) outside the vocabulary of \(vocabularySize)")
        if !renderSpecial && (types[Int(id)] == .control || types[Int(id)] == .unknown) { return [] }
        return Array(pieceBytes[pieceStarts[Int(id)]..<pieceStarts[Int(id) + 1]])
    }

    /// Throws `tokenOutOfRange` naming the first id outside the vocabulary.
    public func validate(_ ids: [Int32]) throws {
        if let index = ids.firstIndex(where: { $0 < 0 || Int($0) >= vocabularySize }) {
            throw TokenizerError(.tokenOutOfRange,
                "token id \(ids[index]) at position \(index) is outside the vocabulary of \(vocabularySize) tokens")
        }
    }

    /// The bytes of `ids` joined. SentencePiece drops the first token's prefix space, as
    /// llama.cpp's detokenizer does.
    public func decodeBytes(_ ids: [Int32], renderSpecial: Bool = true) throws -> [UInt8] {
        try validate(ids)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(ids.count * 4)
        for (index, id) in ids.enumerated() {
            let token = Int(id)
            if !renderSpecial && (types[token] == .control || types[token] == .unknown) { continue }
            var start = pieceStarts[token]
            if index == 0 && kind == .sentencePiece && addSpacePrefix && start < pieceStarts[token + 1] && pieceBytes[start] == 0x20 {
                start += 1
            }
            bytes.append(contentsOf: pieceBytes[start..<pieceStarts[token + 1]])
        }
        return bytes
    }

    /// The text of `ids`; bytes that do not form UTF-8 become U+FFFD.
    public func decode(_ ids: [Int32], renderSpecial: Bool = true) throws -> String {
        String(decoding: try decodeBytes(ids, renderSpecial: renderSpecial), as: UTF8.self)
    }

    // MARK: Token facts

    /// Whether generating `id` ends the turn (EOS, EOT and the end tokens llama.cpp knows by text).
    public func isEndOfGeneration(_ id: Int32) -> Bool { endOfGeneration.contains(id) }

    /// Whether `id` is a control token (`<|im_start|>`, BOS, ...), which text output usually hides.
    public func isControl(_ id: Int32) -> Bool {
        id >= 0 && Int(id) < vocabularySize && types[Int(id)] == .control
    }

    /// The token's text as the vocabulary spells it for control and user-defined tokens
    /// (`<|im_start|>`); for other tokens, the text its bytes decode to.
    public func tokenText(_ id: Int32) -> String {
        String(decoding: piece(id, renderSpecial: true), as: UTF8.self)
    }

    /// The id of the token whose vocabulary text is exactly `text`.
    public func tokenId(forText text: String) -> Int32? {
        tokenIds.lookup(Array(text.utf8)).flatMap { Int($0) < vocabularySize ? $0 : nil }
    }
}
