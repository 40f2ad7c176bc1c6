import Testing
@testable import LlamaEngine

/// SentencePiece on a small hand-built vocabulary (no SentencePiece model file ships with the
/// project). Every expected id sequence below was derived by hand from the algorithm llama.cpp
/// runs: spaces become "▁" (plus one in front of text that starts the input or follows a special
/// token), the text starts as one symbol per character, the adjacent pair whose joined text is a
/// token with the highest score is joined (leftmost on a tie), and characters that are not
/// tokens become `<0xNN>` byte tokens.
@Suite struct TokenizerSentencePieceTests {
    /// ids 0-2: <unk> <s> </s>; 3...258: <0x00>...<0xFF>; then the scored pieces below.
    static let pieces: [(String, Float)] = [
        ("▁hello", -1), ("▁world", -1.5), ("hello", -2), ("llo", -3), ("ll", -4), ("he", -5), ("▁w", -6),
        ("or", -7), ("ld", -8), ("wor", -9), ("▁", -20), ("h", -21), ("e", -22), ("l", -23), ("o", -24),
        ("w", -25), ("r", -26), ("d", -27),
    ]

    static func vocabulary(addSpacePrefix: Bool? = nil, byteTokens: Bool = true, unknown: Bool = true) -> TokenizerVocabulary {
        var tokens = ["<unk>", "<s>", "</s>"]
        var types: [Int32] = [2, 3, 3]
        var scores: [Float] = [0, 0, 0]
        if byteTokens {
            for byte in 0..<256 {
                let hex = String(byte, radix: 16, uppercase: true)
                tokens.append("<0x" + (hex.count == 1 ? "0" + hex : hex) + ">")
                types.append(6)
                scores.append(0)
            }
        }
        for (text, score) in pieces {
            tokens.append(text)
            types.append(1)
            scores.append(score)
        }
        var vocabulary = TokenizerVocabulary(
            model: "llama", preTokenizer: nil, tokens: tokens, tokenTypes: types, scores: scores, merges: [],
            bosTokenId: 1, eosTokenId: 2, eotTokenId: nil, unknownTokenId: unknown ? 0 : nil, paddingTokenId: nil,
            addBos: true, addEos: false)
        vocabulary.addSpacePrefix = addSpacePrefix
        return vocabulary
    }

    static let tokenizer: Result<Tokenizer, any Error> = Result { try Tokenizer(vocabulary: vocabulary()) }

    func id(_ text: String) throws -> Int32 {
        try #require(try Self.tokenizer.get().tokenId(forText: text))
    }

    @Test func joinsPairsByScoreNotLongestMatch() throws {
        let tokenizer = try Self.tokenizer.get()
        // "▁hello▁world": ll(-4), then llo(-3), he(-5), hello(-2), ▁hello(-1); then ▁w(-6), or(-7),
        // ld(-8). "▁world" is a token but no chain of pairs reaches it: ▁w + or + ld stay apart.
        #expect(tokenizer.encode("hello world", addSpecial: false, parseSpecial: false)
                == [try id("▁hello"), try id("▁w"), try id("or"), try id("ld")])
    }

    @Test func equalScoresJoinTheLeftmostPairFirst() throws {
        let tokenizer = try Self.tokenizer.get()
        // "▁lll": pairs l+l at 1 and at 2 tie at -4; the left one wins and "lll" is no token.
        #expect(tokenizer.encode("lll", addSpecial: false, parseSpecial: false) == [try id("▁"), try id("ll"), try id("l")])
    }

    @Test func charactersOutsideTheVocabularyBecomeByteTokens() throws {
        let tokenizer = try Self.tokenizer.get()
        // "▁hi▁ü": i (0x69) and ü (0xC3 0xBC) are not pieces; byte token id = 3 + byte.
        let space = try id("▁")
        let expected: [Int32] = [space, try id("h"), 3 + 0x69, space, 3 + 0xC3, 3 + 0xBC]
        #expect(tokenizer.encode("hi ü", addSpecial: false, parseSpecial: false) == expected)
        #expect(try tokenizer.decode([3 + 0xC3, 3 + 0xBC]) == "ü")
    }

    @Test func bosAndSpecialTokensAndThePrefixSpace() throws {
        let tokenizer = try Self.tokenizer.get()
        // BOS first; after a special token the next text gets the "▁" prefix again.
        #expect(tokenizer.encode("hello</s>hello", addSpecial: true, parseSpecial: true)
                == [1, try id("▁hello"), 2, try id("▁hello")])
        // Not parsed: "</s>" is text; '<', '/', 's', '>' are byte tokens.
        let bytes: [Int32] = [3 + 0x3C, 3 + 0x2F, 3 + 0x73, 3 + 0x3E]
        #expect(tokenizer.encode("</s>", addSpecial: false, parseSpecial: false) == [try id("▁")] + bytes)
    }

    @Test func chatPromptsGetOneBosEvenWhenTheTemplateWroteIt() throws {
        let tokenizer = try Self.tokenizer.get()
        #expect(tokenizer.encodeChatPrompt(ChatTemplate.Rendering(text: "<s>hello", contentRanges: [])) == [1, try id("▁hello")])
        #expect(tokenizer.encodeChatPrompt(ChatTemplate.Rendering(text: "hello", contentRanges: [])) == [1, try id("▁hello")])
    }

    /// "</s>" inside message content is text (byte tokens), and the text after it keeps no new
    /// "▁" prefix, exactly as when the whole text is encoded without parsing specials.
    @Test func chatPromptsReadNoControlTokenFromMessageContent() throws {
        let tokenizer = try Self.tokenizer.get()
        let prompt = ChatTemplate.Rendering(text: "<s>hello</s>hello</s>", contentRanges: [3..<17])
        let bytes: [Int32] = [3 + 0x3C, 3 + 0x2F, 3 + 0x73, 3 + 0x3E]
        #expect(tokenizer.encodeChatPrompt(prompt) == [1, try id("▁hello")] + bytes + [try id("hello"), 2])
    }

    @Test func withoutPrefixSpaceTheTextStartsBare() throws {
        let tokenizer = try Tokenizer(vocabulary: Self.vocabulary(addSpacePrefix: false))
        #expect(tokenizer.encode("hello", addSpecial: false, parseSpecial: false) == [try id("hello")])
        #expect(try tokenizer.decode([try id("▁hello")]) == " hello")
    }

    @Test func decodeDropsThePrefixSpaceOfTheFirstToken() throws {
        let tokenizer = try Self.tokenizer.get()
        let ids = tokenizer.encode("hello world", addSpecial: false, parseSpecial: false)
        #expect(try tokenizer.decode(ids) == "hello world")
        #expect(tokenizer.piece(try id("▁world")) == Array(" world".utf8))
    }

    @Test func vocabularyWithoutByteFallbackOrUnknownIsRejected() {
        #expect(throws: TokenizerError.self) {
            try Tokenizer(vocabulary: Self.vocabulary(byteTokens: false, unknown: false))
        }
    }

    @Test func unknownModelIsAnErrorNamingIt() {
        var vocabulary = Self.vocabulary()
        vocabulary.model = "wordpiece"
        #expect(throws: TokenizerError(.unsupportedModel, "tokenizer.ggml.model 'wordpiece' is not supported (supported: gpt2, llama)")) {
            try Tokenizer(vocabulary: vocabulary)
        }
    }
}
