import Foundation
import Testing
@testable import LlamaEngine

/// EmbeddingGemma-300m (architecture `gemma-embedding`: Gemma 3 run bidirectionally, mean
/// pooling, two dense projections) on the engine against an independent float32 numpy
/// implementation of the model on its original weights, tokenised by Hugging Face's tokenizer:
/// token ids exactly, embeddings to cosine ≥ 0.99, over the 69 texts of the e5 reference and one
/// of 649 tokens, past the sliding window (Tests/Reference/embeddinggemma-300m).
@Suite(.serialized) struct EmbeddingGemmaReferenceTests {
    static let model: LlamaModel = try! LlamaModel(path: TestPaths.embeddingGemmaModel, threads: 2)
    static let reference: EncoderReferenceTests.Reference = try! JSONDecoder().decode(
        EncoderReferenceTests.Reference.self, from: Data(contentsOf: URL(fileURLWithPath: TestPaths.embeddingGemmaReference)))

    @Test func theFileIsASentenceEncoderOf768Dimensions() {
        #expect(Self.model.hyperparameters.traits.sentenceEncoder)
        #expect(Self.model.hyperparameters.projectionWidths == [3072, 768])
        #expect(Self.model.dimensions == 768)
        #expect(Self.reference.items.count >= 50)
    }

    @Test func tokenIdsMatchTheReferenceExactly() {
        for item in Self.reference.items {
            #expect(Self.model.tokens(for: Self.reference.prefix + item.text) == item.tokens, "\(item.text.debugDescription)")
        }
    }

    @Test func embeddingsAgreeWithTheReference() throws {
        let worst = try EncoderReferenceTests.expectAgreement(Self.reference, dimensions: 768) {
            try Self.model.embed(tokens: Self.model.tokens(for: $0))
        }
        print("EmbeddingGemma Q8_0 vs float32 numpy: lowest cosine \(worst.cosine) on \(worst.text.debugDescription)")
    }

    /// Bidirectional: an early token's state depends on the tokens after it (a causal pass
    /// would leave it unchanged), and the pooled vector is the one embed gives.
    @Test func everyPositionSeesTheWholeText() throws {
        let a = Self.model.tokens(for: "The cat sleeps on the warm windowsill.")
        let b = Self.model.tokens(for: "The cat sleeps on the cold stone floor.")
        let statesA = try Self.model.tokenStates(tokens: a), statesB = try Self.model.tokenStates(tokens: b)
        #expect(a[0..<4] == b[0..<4])
        #expect(statesA[2] != statesB[2])
        #expect(Self.model.pooled(statesA) == (try Self.model.embed(tokens: a)))
    }

    /// Texts sharing a pass (each positioned from 0, attending to its own tokens) get the very
    /// states a pass of their own gives, bit for bit: the reference texts, several per pass, and
    /// the 649-token one past the sliding window beside short ones.
    @Test func textsSharingAPassGetTheStatesOfAPassOfTheirOwn() throws {
        let texts = Self.reference.items.prefix(20).map { Self.reference.prefix + $0.text }
            + [Array(repeating: "Der Fluss trägt das Licht der Stadt bis zum Meer,", count: 40).joined(separator: " "), "Olá."]
        let lists = texts.map(Self.model.tokens(for:))
        let together = try Self.model.tokenStates(tokenLists: lists)
        #expect(together.count == lists.count)
        for (list, states) in zip(lists, together) {
            #expect(states == (try Self.model.tokenStates(tokens: list)), "\(list.count) tokens")
        }
        #expect(try Self.model.embed(tokenLists: lists) == lists.map { try Self.model.embed(tokens: $0) })
        #expect(throws: LlamaError(.invalidRequest, "text 1: nothing to embed: no tokens")) {
            try Self.model.tokenStates(tokenLists: [lists[0], []])
        }
    }

    @Test func aSentenceEncoderGivesNoLogitsAndTakesOneTextPerSession() throws {
        let session = LlamaSession(model: Self.model, contextLength: 16)
        #expect(throws: LlamaError.self) { try session.evaluate([2, 100, 1], outputs: .lastLogits) { _, _ in } }
        try session.evaluate([2, 100, 1], outputs: .hiddenStates) { _, _ in }
        #expect(throws: LlamaError.self) { try session.evaluate([100], outputs: .hiddenStates) { _, _ in } }
    }

    @Test func aLongTextIsCutToTheContextKeepingItsEndToken() throws {
        let text = Array(repeating: "word", count: 10_000).joined(separator: " ")
        let tokens = Self.model.tokens(for: text)
        #expect(tokens.count == Self.model.contextLength)
        #expect(tokens.first == 2 && tokens.last == 1)
    }
}
