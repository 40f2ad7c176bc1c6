import Foundation
import PluginFixtures
import LlamaEngine
import LlamaFuzz
import Tandem
@testable import TandemLlama
import Testing

/// Hostile model files (one case each) are refused with the same message by
/// every path that opens a model: the runner's load (`LoadedLlama`, what `generate` calls), its
/// availability through the installed plugin, and the built `tandem-llama inspect`. The loads
/// repeat with two threads: a refused load once released a half-made thread pool, which
/// crashed about one load in four.
final class HostileModelFileTests {
    let folder: String

    init() throws { folder = try RunnerPlugin.temporaryFolder() }
    deinit { try? FileManager.default.removeItem(atPath: folder) }

    struct Hostile: Sendable, CustomStringConvertible {
        let description: String
        let bytes: [UInt8]
        /// What the message must say: the code, the key or tensor, and what was expected.
        let fragments: [String]
    }

    /// The tiny valid model (`SyntheticGGUF.tinyLlama`: 8 tokens, embedding 32, 2 heads, 1 KV
    /// head) with one change.
    static func tiny(_ architecture: Architecture = .llama, _ change: (inout SyntheticGGUF) -> Void) -> [UInt8] {
        var model = SyntheticGGUF.tiny(architecture: architecture.rawValue)
        change(&model)
        return model.encoded()
    }

    enum Architecture: String { case llama, qwen3, gemma3, phi3, gemmaEmbedding = "gemma-embedding" }

    static let hostile: [Hostile] = [
        Hostile(description: "BOS id out of range", bytes: tiny { $0.set("tokenizer.ggml.bos_token_id", .u32(8)) },
                fragments: ["tokenIdOutOfRange", "tokenizer.ggml.bos_token_id is 8", "expected a token id in 0...7"]),
        Hostile(description: "EOS id out of range", bytes: tiny { $0.set("tokenizer.ggml.eos_token_id", .i32(-1)) },
                fragments: ["tokenIdOutOfRange", "tokenizer.ggml.eos_token_id is -1", "expected a token id in 0...7"]),
        Hostile(description: "a merge without a space", bytes: tiny { $0.set("tokenizer.ggml.merges", .strings(["b c", "de"])) },
                fragments: ["invalidTokenizer", "tokenizer.ggml.merges[1] 'de'", "separated by a space"]),
        Hostile(description: "an unknown tokenizer model", bytes: tiny { $0.set("tokenizer.ggml.model", .string("wordpiece-x")) },
                fragments: ["unsupportedTokenizer", "tokenizer.ggml.model 'wordpiece-x'", "supported: gpt2, llama"]),
        Hostile(description: "token types shorter than the tokens", bytes: tiny { $0.set("tokenizer.ggml.token_type", .i32s([3, 3, 1, 1, 1, 1, 1])) },
                fragments: ["invalidTokenizer", "tokenizer.ggml.token_type has 7 entries", "one per token (8"]),
        Hostile(description: "scores longer than the tokens", bytes: tiny { $0.set("tokenizer.ggml.scores", .f32s([Float](repeating: 0, count: 9))) },
                fragments: ["invalidTokenizer", "tokenizer.ggml.scores has 9 entries", "one per token (8"]),
        Hostile(description: "a key containing NUL", bytes: tiny { $0.metadata[1].0 = "general.na\u{0}me" },
                fragments: ["invalidName", "metadata key #1", "contains NUL"]),
        Hostile(description: "an empty key", bytes: tiny { $0.metadata[1].0 = "" },
                fragments: ["invalidName", "metadata key #1", "is empty"]),
        Hostile(description: "a duplicate key", bytes: tiny { $0.metadata.append($0.metadata[3]) },
                fragments: ["duplicateKey", "llama.block_count", "appears twice"]),
        Hostile(description: "a key over 65,535 bytes", bytes: tiny { $0.metadata[1].0 = String(repeating: "k", count: 65_536) },
                fragments: ["nameTooLong", "metadata key #1", "65536 bytes long, expected at most 65535"]),
        Hostile(description: "two tensors at the same offset", bytes: tiny { $0.overrides.tensorOffset[3] = 0 },
                fragments: ["overlappingTensors", "token_embd.weight", "blk.0.attn_k.weight", "bytes of its own"]),
        Hostile(description: "a tensor of a type the engine does not run", bytes: tiny { $0.overrides.tensorTypeCode[2] = 16 },
                fragments: ["unsupportedTensorType", "tensor blk.0.attn_q.weight has type IQ2_XXS"]),
        Hostile(description: "a tensor name of 1 MiB", bytes: tiny { $0.tensors[2].name = String(repeating: "n", count: 1 << 20) },
                fragments: ["nameTooLong", "tensor #2 name", "1048576 bytes long, expected at most 64"]),
        Hostile(description: "a tensor name of 65 bytes", bytes: tiny { $0.tensors[2].name = String(repeating: "n", count: 65) },
                fragments: ["nameTooLong", "tensor #2 name", "65 bytes long, expected at most 64"]),
        Hostile(description: "a header with zero tensors", bytes: tiny { $0.tensors = [] },
                fragments: ["noTensors", "lists no tensors"]),
        Hostile(description: "a missing required tensor", bytes: tiny { $0.tensors.removeAll { $0.name == "blk.0.ffn_down.weight" } },
                fragments: ["missingTensor", "blk.0.ffn_down.weight is missing", "expected shape [64, 32]"]),
        Hostile(description: "a wrong tensor shape with the right byte count", bytes: tiny { $0.tensors[2].dims = [64, 16] },
                fragments: ["wrongTensorShape", "blk.0.attn_q.weight has shape [64, 16], expected [32, 32]"]),
        Hostile(description: "zero heads", bytes: tiny { $0.set("llama.attention.head_count", .u32(0)) },
                fragments: ["invalidHyperparameter", "llama.attention.head_count is 0, expected 1...1024"]),
        Hostile(description: "zero KV heads", bytes: tiny { $0.set("llama.attention.head_count_kv", .u32(0)) },
                fragments: ["invalidHyperparameter", "llama.attention.head_count_kv is 0, expected 1...2"]),
        Hostile(description: "heads that do not divide the embedding",
                bytes: tiny { $0.set("llama.attention.head_count", .u32(3)); $0.set("llama.attention.head_count_kv", .u32(3)) },
                fragments: ["invalidHyperparameter", "llama.embedding_length (32) is not a multiple of llama.attention.head_count (3)"]),
        Hostile(description: "KV heads that do not divide the heads",
                bytes: tiny { $0.set("llama.attention.head_count", .u32(4)); $0.set("llama.attention.head_count_kv", .u32(3)) },
                fragments: ["invalidHyperparameter", "llama.attention.head_count (4) is not a multiple of llama.attention.head_count_kv (3)"]),
        // The architectures beyond llama: the tiny model as gemma3 (head size 16 given by
        // attention.key_length, window 4 on layer 0, context 64) and as qwen3.
        Hostile(description: "a sliding window of 0", bytes: tiny(.gemma3) { $0.set("gemma3.attention.sliding_window", .u32(0)) },
                fragments: ["invalidHyperparameter", "gemma3.attention.sliding_window is 0, expected 1...64"]),
        Hostile(description: "a sliding window longer than the context", bytes: tiny(.gemma3) { $0.set("gemma3.attention.sliding_window", .u32(65)) },
                fragments: ["invalidHyperparameter", "gemma3.attention.sliding_window is 65, expected 1...64"]),
        Hostile(description: "a head size of 0", bytes: tiny(.gemma3) { $0.set("gemma3.attention.key_length", .u32(0)) },
                fragments: ["invalidHyperparameter", "gemma3.attention.key_length is 0, expected 2...4096"]),
        Hostile(description: "a head size the tensors do not have", bytes: tiny(.gemma3) { $0.set("gemma3.attention.key_length", .u32(32)); $0.set("gemma3.attention.value_length", .u32(32)) },
                fragments: ["wrongTensorShape", "blk.0.attn_q.weight has shape [32, 32], expected [32, 64]"]),
        Hostile(description: "a value size other than the key size", bytes: tiny(.gemma3) { $0.set("gemma3.attention.value_length", .u32(8)) },
                fragments: ["invalidHyperparameter", "gemma3.attention.value_length is 8, expected 16...16"]),
        Hostile(description: "a sliding-window pattern of the wrong length", bytes: tiny(.gemma3) { $0.set("gemma3.attention.sliding_window_pattern", .bools([true, false])) },
                fragments: ["invalidHyperparameter", "gemma3.attention.sliding_window_pattern has 2 entries, expected one per layer (1)"]),
        Hostile(description: "a missing key norm", bytes: tiny(.gemma3) { $0.tensors.removeAll { $0.name == "blk.0.attn_k_norm.weight" } },
                fragments: ["missingTensor", "blk.0.attn_k_norm.weight is missing", "expected shape [16]"]),
        Hostile(description: "a missing query norm (qwen3)", bytes: tiny(.qwen3) { $0.tensors.removeAll { $0.name == "blk.0.attn_q_norm.weight" } },
                fragments: ["missingTensor", "blk.0.attn_q_norm.weight is missing", "expected shape [16]"]),
        Hostile(description: "a query norm of the wrong size", bytes: tiny(.gemma3) { m in
                    let i = m.tensors.firstIndex { $0.name == "blk.0.attn_q_norm.weight" }!
                    m.tensors[i].dims = [32]
                    m.tensors[i].data += m.tensors[i].data
                },
                fragments: ["wrongTensorShape", "blk.0.attn_q_norm.weight has shape [32], expected [16]"]),
        Hostile(description: "a missing post-attention norm", bytes: tiny(.gemma3) { $0.tensors.removeAll { $0.name == "blk.0.post_attention_norm.weight" } },
                fragments: ["missingTensor", "blk.0.post_attention_norm.weight is missing", "expected shape [32]"]),
        // phi3: fused Q/K/V (32 + 2 × 16 rows) and gate/up (2 × 64 rows).
        Hostile(description: "a missing fused QKV matrix (phi3)", bytes: tiny(.phi3) { $0.tensors.removeAll { $0.name == "blk.0.attn_qkv.weight" } },
                fragments: ["missingTensor", "blk.0.attn_qkv.weight is missing", "expected shape [32, 64]"]),
        Hostile(description: "a fused gate/up of one part only (phi3)", bytes: tiny(.phi3) { m in
                    let i = m.tensors.firstIndex { $0.name == "blk.0.ffn_up.weight" }!
                    m.tensors[i].dims = [32, 64]
                    m.tensors[i].data = Array(m.tensors[i].data.prefix(m.tensors[i].data.count / 2))
                },
                fragments: ["wrongTensorShape", "blk.0.ffn_up.weight has shape [32, 64], expected [32, 128]"]),
        Hostile(description: "LongRoPE factors (phi3)", bytes: tiny(.phi3) { m in
                    var factors = m.tensors.first { $0.name == "output_norm.weight" }!
                    factors.name = "rope_factors_long.weight"
                    m.tensors.append(factors)
                },
                fragments: ["unsupportedArchitecture", "rope_factors_long.weight", "LongRoPE"]),
        Hostile(description: "a sentence encoder without its second projection",
                bytes: tiny(.gemmaEmbedding) { $0.tensors.removeAll { $0.name == "dense_3.weight" } },
                fragments: ["dense_3.weight"]),
        Hostile(description: "a sentence encoder whose projection does not read the pooled state",
                bytes: tiny(.gemmaEmbedding) { $0.set("gemma-embedding.dense_2_feat_in", .u32(48)) },
                fragments: ["invalidHyperparameter", "gemma-embedding.dense_2_feat_in", "48"]),
    ]

    /// `tandem-llama inspect PATH`.
    func inspect(_ path: String) throws -> TestProcess.Outcome {
        try runBuilt(["inspect", path], binary: "tandem-llama")
    }

    @Test(arguments: ["qwen2", "qwen3", "gemma3", "phi3"])
    func theTinyModelOfEachArchitectureLoadsAndRuns(_ architecture: String) throws {
        let path = SyntheticGGUF.write(SyntheticGGUF.tiny(architecture: architecture).encoded(), in: folder, name: "\(architecture).gguf")
        let loaded = try LoadedLlama(path: path, threads: 2, context: 64)
        #expect(loaded.model.hyperparameters.architecture == architecture)
        let session = LlamaSession(model: loaded.model, contextLength: 64)
        var logits: [Float] = []
        try session.evaluate([0, 2, 3, 4, 5, 6, 7, 2, 3], outputs: .allLogits) { _, v in logits += v }
        #expect(logits.count == 9 * 8 && logits.allSatisfy(\.isFinite))
        #expect(try RunnerPlugin.open(["model": path]).availability(locale: nil) == .available)
    }

    /// A sentence encoder file opens as an embeddings-only backend: unit vectors as wide as its
    /// last projection, and no generation.
    @Test func theTinySentenceEncoderEmbedsThroughThePlugin() throws {
        let path = SyntheticGGUF.write(SyntheticGGUF.tiny(architecture: "gemma-embedding").encoded(), in: folder, name: "encoder.gguf")
        let backend = try RunnerPlugin.open(["model": path, "embedding_prefix": "q: "])
        #expect(backend.availability(locale: nil) == .available)
        #expect(backend.info.capabilities.contains(.embeddingsOnly) && backend.info.embeddingDimensions == 32)
        let vectors = try backend.embed(["b c", "d e f", ""], cancellation: CancellationToken())
        #expect(vectors.map(\.count) == [32, 32, 32])
        #expect(abs(vectors[0].reduce(0) { $0 + $1 * $1 } - 1) < 1e-4 && vectors[2].allSatisfy { $0 == 0 })
        #expect(vectors[0] != vectors[1])
    }

    @Test func theTinyModelLoadsThroughEveryPath() throws {
        let path = SyntheticGGUF.write(SyntheticGGUF.tinyLlama().encoded(), in: folder, name: "tiny.gguf")
        let loaded = try LoadedLlama(path: path, threads: 2, context: 64)
        #expect(loaded.model.vocabularySize == 8)
        #expect(try RunnerPlugin.open(["model": path]).availability(locale: nil) == .available)
        let inspected = try inspect(path)
        #expect(inspected.status == 0, "\(inspected.stderr)")
        #expect(inspected.stdout.contains("checked: llama, tokenizer gpt2 with 8 tokens, 11 tensors of the expected shapes"))
    }

    @Test(arguments: hostile)
    func hostileFileIsRefusedAlikeEverywhere(_ file: Hostile) throws {
        let path = SyntheticGGUF.write(file.bytes, in: folder, name: "hostile.gguf")
        let error: GGUFError
        do {
            _ = try LlamaModel(path: path, threads: 1)
            Issue.record("\(file) loaded")
            return
        } catch let refused {
            error = refused
        }
        for fragment in file.fragments {
            #expect(error.description.contains(fragment), "\(file): \(error.description) lacks \"\(fragment)\"")
        }

        // The runner's load, again and again: never a crash, always this message.
        for _ in 0..<25 {
            do {
                _ = try LoadedLlama(path: path, threads: 2, context: 64)
                Issue.record("\(file) loaded in the runner")
            } catch let failure {
                #expect(failure.status == .badModelFile)
                #expect(failure.message == "cannot load \(path): \(error.description)")
            }
        }

        let backend = try RunnerPlugin.open(["model": path])
        // Waiting does not help: calls fail with badModelFile, not as a model still getting ready.
        do {
            _ = try backend.countTokens(BackendRequest(messages: [Message(role: .user, content: "hi")]))
            Issue.record("\(file): counted tokens")
        } catch let failure {
            #expect(failure.status == .badModelFile, "\(file): \(failure)")
            #expect(failure.message.contains("unusable model file: \(error.code.rawValue): \(error.detail)"), "\(file): \(failure.message)")
        }
        let availability = try backend.availability(locale: nil)
        #expect(availability == .unavailable(.deviceNotEligible, detail: "unusable model file: \(error.code.rawValue): \(error.detail)"),
                "\(file): \(availability)")

        let inspected = try inspect(path)
        #expect(inspected.status == 1)
        #expect(inspected.stderr == "error: \(error.description)\n", "\(file): \(inspected.stderr)")
    }
}
