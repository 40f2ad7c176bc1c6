import Foundation
import Testing
@testable import LlamaEngine

/// Gemma 3 270M (base, Q4_K_M) against llama.cpp's reference data (Tests/Reference/gemma3-270m;
/// tolerances from its README §5 and §8): the SentencePiece tokenizer id for id, prompt logits,
/// and teacher-forced greedy steps, including the two prompts longer than the 512-token sliding
/// window.
@Suite(.serialized) struct GemmaReferenceTests {
    static let model: Result<LlamaModel, any Error> = Result { try LlamaModel(path: TestPaths.gemmaModel) }
    static let reference = LlamaCppReference(folder: TestPaths.gemmaReference)

    struct TokenizeLine: Decodable {
        var text: String
        var ids: [Int32]
        var category: String
    }

    struct PromptLine: Decodable {
        var name: String
        var prompt: String
        var rendered: String
        var prompt_ids: [Int32]
    }

    static func lines<T: Decodable>(_ file: String, as type: T.Type) throws -> [T] {
        let data = try String(contentsOfFile: TestPaths.gemmaReference + "/" + file, encoding: .utf8)
        return try data.split(separator: "\n").map { try JSONDecoder().decode(T.self, from: Data($0.utf8)) }
    }

    @Test func theFileIsGemma3WithItsSlidingWindowAndRopeBases() throws {
        let hp = try Self.model.get().hyperparameters
        #expect(hp.architecture == "gemma3")
        #expect(hp.headDim == 256 && hp.qDim == 1024 && hp.embedding == 640)
        #expect(hp.slidingWindow == 512)
        #expect((0..<18).filter { !hp.slidingLayers[$0] } == [5, 11, 17])
        #expect(hp.ropeBase(layer: 0) == 10_000 && hp.ropeBase(layer: 5) == 1_000_000)
        #expect(hp.attentionScale == 1.0 / 16)
    }

    @Test func everyTokenizeLineMatchesLlamaCppIdForId() throws {
        let tokenizer = try Self.model.get().tokenizer
        let lines = try Self.lines("tokenize.jsonl", as: TokenizeLine.self)
        #expect(lines.count == 50)
        for line in lines {
            #expect(tokenizer.encode(line.text, addSpecial: false, parseSpecial: true) == line.ids, "\(line.category): \(line.text.debugDescription)")
            #expect(try tokenizer.decode(line.ids) == line.text, "\(line.category)")
        }
    }

    @Test func everyPromptTokenizesToItsIdsWithOneBos() throws {
        let tokenizer = try Self.model.get().tokenizer
        let lines = try Self.lines("greedy.jsonl", as: PromptLine.self)
        #expect(lines.count == 9)
        for line in lines {
            #expect(tokenizer.encode(line.prompt, addSpecial: true, parseSpecial: true) == line.prompt_ids, "\(line.name)")
            #expect(tokenizer.encode(line.rendered, addSpecial: false, parseSpecial: true) == line.prompt_ids, "\(line.name)")
            #expect(try tokenizer.decode(line.prompt_ids) == line.rendered, "\(line.name)")
        }
    }

    /// README §2: `</s>` (212) is stored as user-defined, but llama.cpp makes it a control and
    /// end-of-generation token; BOS is added once, even before a written `<bos>`.
    @Test func endOfSentenceIsControlAndBosIsAddedOnce() throws {
        let model = try Self.model.get(), tokenizer = model.tokenizer
        #expect(tokenizer.encode("a</s>b", addSpecial: false, parseSpecial: true).contains(212))
        #expect(!tokenizer.encode("a</s>b", addSpecial: false, parseSpecial: false).contains(212))
        #expect(tokenizer.encode("<bos>Hi", addSpecial: true, parseSpecial: true) == [2, 2, 10979])
        #expect(model.endOfGenerationTokens == [1, 106, 212])
    }

    @Test func promptLogitsAgreeWithLlamaCpp() throws {
        let model = try Self.model.get()
        let entries = try Self.reference.logitsEntries()
        #expect(entries.count == 4)
        for entry in entries {
            let logits = try LlamaCppReference.promptLogits(model, entry.promptIds)
            try #require(logits.count == entry.logits.count)
            let agreement = LogitAgreement(logits, reference: entry.logits)
            print("gemma3 \(entry.file) (\(entry.promptIds.count) tokens): \(agreement)")
            #expect(agreement.centeredRMS <= 0.4, "\(entry.file): \(agreement)")
            // The reference's own limit (README §8): KL up to ~0.03 on the 1,594-token prompt, where
            // its exact float64 implementation measures 0.0209 (this runner: 0.0215; the f16 cache
            // leaves it unchanged, Engine README "Numerics"); 0.02 everywhere else.
            #expect(agreement.kl <= (entry.promptIds.count > 1000 ? 0.03 : 0.02), "\(entry.file): \(agreement)")
            #expect(agreement.top5Overlap >= 4, "\(entry.file): \(agreement)")
        }
    }

    /// §5.3: every step whose reference gap is ≥ 0.6 must match; a flip in [0.4, 0.6) is inside
    /// llama.cpp's own spread (counted, not failed).
    @Test func teacherForcedGreedyAgreesWhereverTheReferenceGapIsClear() throws {
        let model = try Self.model.get()
        let lines = try Self.reference.greedyLines()
        #expect(lines.count == 9)
        var checked = 0, spreadFlips = 0, nearTieFlips = 0
        for line in lines {
            let argmaxes = try LlamaCppReference.teacherForcedArgmaxes(model, line)
            #expect(argmaxes.count == line.steps.count)
            for (i, step) in line.steps.enumerated() where i < argmaxes.count {
                if step.gap >= 0.6 {
                    checked += 1
                    #expect(argmaxes[i] == step.id, "\(line.name) step \(i): \(argmaxes[i]) vs reference \(step.id) (gap \(step.gap))")
                } else if argmaxes[i] != step.id {
                    if step.gap >= 0.4 { spreadFlips += 1 } else { nearTieFlips += 1 }
                }
            }
        }
        print("gemma3 teacher-forced: \(checked) steps with gap ≥ 0.6 checked, \(spreadFlips) flips in [0.4, 0.6), \(nearTieFlips) below 0.4")
        #expect(checked == 317)
    }
}
