import Foundation
import Testing
@testable import LlamaEngine
import TandemLlama

/// The architectures without a real file here, on tiny random-weight models
/// (scripts/random-weight-models.py, written by `make fixtures`), against llama.cpp's logits at
/// every position of a 100-token prompt (Tests/Reference/architectures, made by
/// scripts/make-architecture-reference.sh): qwen2 (Q/K/V biases), qwen3 (Q/K norms, head size
/// 32 beside an embedding of 64), gemma3 with a window of 8 on every other layer, so the
/// window, its ring cache and both RoPE bases are exercised, and phi3 (fused Q/K/V and gate/up,
/// and a declared window of 8 that llama.cpp ignores). Weights are F32, so the only
/// rounding the two sides do differently is llama.cpp's half-precision attention.
@Suite(.serialized) struct ArchitectureReferenceTests {
    struct Entry: Decodable {
        var architecture: String
        var model: String
        var sha256: String
        var file: String
        var prompt_ids: [Int32]
    }

    static func entries() throws -> [Entry] {
        let data = try Data(contentsOf: URL(fileURLWithPath: TestPaths.architectureReference + "/index.json"))
        return try JSONDecoder().decode([Entry].self, from: data)
    }

    static func model(_ entry: Entry) throws -> LlamaModel {
        let path = TestPaths.architectureModels + "/" + entry.model
        var hasher = SHA256()
        hasher.update(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        let digest = hasher.finish()
        try #require(digest == entry.sha256, "\(path) is not the file the reference was made from (another gguf or numpy version?)")
        return try LlamaModel(path: path, threads: 2)
    }

    @Test func everyArchitectureHasAReference() throws {
        #expect(try Self.entries().map(\.architecture).sorted() == ["gemma3", "phi3", "qwen2", "qwen3"])
    }

    @Test(arguments: ["qwen2", "qwen3", "gemma3", "phi3"])
    func logitsAtEveryPositionAgreeWithLlamaCpp(_ architecture: String) throws {
        let entry = try #require(try Self.entries().first { $0.architecture == architecture })
        let model = try Self.model(entry)
        #expect(model.hyperparameters.architecture == architecture)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: TestPaths.architectureReference + "/" + entry.file))
        let reference = bytes.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        let vocabulary = model.vocabularySize
        try #require(reference.count == entry.prompt_ids.count * vocabulary)

        let session = LlamaSession(model: model, contextLength: entry.prompt_ids.count)
        var worst = 0.0, argmaxMismatches = 0
        try session.evaluate(entry.prompt_ids, outputs: .allLogits) { position, logits in
            let expected = Array(reference[position * vocabulary..<(position + 1) * vocabulary])
            worst = max(worst, Self.centeredMaxDifference(Array(logits), expected))
            if Sampler.argmax(logits) != expected.withUnsafeBufferPointer(Sampler.argmax) { argmaxMismatches += 1 }
        }
        print("\(architecture): largest centered logit difference \(worst) over \(entry.prompt_ids.count) positions, \(argmaxMismatches) argmax differences")
        #expect(worst < Self.tolerance, "\(architecture): \(worst)")
        #expect(argmaxMismatches == 0)
    }

    /// Logits here are of size 1–5; llama.cpp's f16 attention moves them by about 1e-3.
    static let tolerance = 0.02

    static func centeredMaxDifference(_ a: [Float], _ b: [Float]) -> Double {
        let ma = a.reduce(0.0) { $0 + Double($1) } / Double(a.count), mb = b.reduce(0.0) { $0 + Double($1) } / Double(b.count)
        return zip(a, b).reduce(0.0) { max($0, abs((Double($1.0) - ma) - (Double($1.1) - mb))) }
    }

    /// A session that reuses its cached prefix gives the logits of a fresh one, also when the
    /// sliding window's ring has reused the cells the kept prefix would need (then it starts over).
    @Test func reusedPrefixesGiveFreshLogitsDespiteTheRing() throws {
        let entry = try #require(try Self.entries().first { $0.architecture == "gemma3" })
        let model = try Self.model(entry)
        let prompt = entry.prompt_ids
        func fresh(_ ids: [Int32]) throws -> [Float] { try LlamaCppReference.promptLogits(model, ids) }
        for (shared, expectKept) in [(90, 90), (20, 0)] {
            let session = LlamaSession(model: model, contextLength: 256)
            try session.evaluate(prompt) { _, _ in }
            let next = Array(prompt.prefix(shared)) + [5, 6, 7]
            let kept = session.keepSharedPrefix(of: next)
            #expect(kept == expectKept, "sharing \(shared)")
            var logits: [Float] = []
            try session.evaluate(Array(next[kept...])) { _, v in logits = Array(v) }
            #expect(logits == (try fresh(next)), "sharing \(shared), kept \(kept)")
        }
    }
}
