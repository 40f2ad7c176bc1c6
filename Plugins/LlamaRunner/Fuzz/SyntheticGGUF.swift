import Foundation
import LlamaEngine

/// Builds small GGUF files in memory: a tiny but complete llama model (full tokenizer metadata
/// and a chat template) for load, fuzz and generation tests, without the real model.
/// `overrides` makes the encoding lie (counts, array lengths, offsets, type codes), for files
/// a correct writer never produces.
public struct SyntheticGGUF: Sendable {
    public enum Value: Sendable {
        case u32(UInt32), i32(Int32), i64(Int64), f32(Float), bool(Bool), string(String)
        case strings([String]), i32s([Int32]), f32s([Float]), bools([Bool])
    }

    public struct Tensor: Sendable {
        public var name: String
        public var dims: [Int]
        public var type: TensorType
        public var data: [UInt8]
    }

    /// Header fields written as given instead of as the content implies.
    public struct Overrides: Sendable {
        public var tensorCount: UInt64?
        public var metadataCount: UInt64?
        /// Declared length of the array under a metadata key.
        public var arrayLength: [String: UInt64] = [:]
        /// Data offset of the tensor at an index of `tensors`.
        public var tensorOffset: [Int: UInt64] = [:]
        /// Type code of the tensor at an index (codes this engine has no `TensorType` for).
        public var tensorTypeCode: [Int: UInt32] = [:]
        public init() {}
    }

    public var metadata: [(String, Value)] = []
    public var tensors: [Tensor] = []
    public var alignment = 32
    public var overrides = Overrides()

    public init() {}

    /// Model width and sizes of `tinyLlama`.
    public static let embedding = 32, feedForward = 64, kvDim = 16

    /// A one-layer llama with embedding 32, 2 heads (1 KV head), feed-forward 64, `vocabulary`
    /// tokens (two control tokens, then letters), two merges and a chat template.
    public static func tinyLlama(seed: UInt64 = 1, vocabulary: Int = 8, contextLength: UInt32 = 64) -> SyntheticGGUF {
        var g = SyntheticGGUF()
        var rng = SeededGenerator(seed: seed)
        let d = embedding, ff = feedForward, kv = kvDim
        var tokens = ["<|endoftext|>", "<|im_end|>"]
        for i in 2..<vocabulary { tokens.append(String(UnicodeScalar(UInt8(96 + i)))) }
        let types: [Int32] = (0..<vocabulary).map { $0 < 2 ? 3 : 1 }
        let header: [(String, Value)] = [
            ("general.architecture", .string("llama")), ("general.name", .string("tiny")), ("general.file_type", .u32(3)),
            ("llama.block_count", .u32(1)), ("llama.context_length", .u32(contextLength)), ("llama.embedding_length", .u32(UInt32(d))),
            ("llama.feed_forward_length", .u32(UInt32(ff))), ("llama.attention.head_count", .u32(2)),
            ("llama.attention.head_count_kv", .u32(1)), ("llama.rope.freq_base", .f32(10000)),
            ("llama.attention.layer_norm_rms_epsilon", .f32(1e-5)),
        ]
        g.metadata = header + [
            ("tokenizer.ggml.model", .string("gpt2")), ("tokenizer.ggml.pre", .string("smollm")),
            ("tokenizer.ggml.tokens", .strings(tokens)), ("tokenizer.ggml.token_type", .i32s(types)),
            ("tokenizer.ggml.merges", .strings(["b c", "d e"])), ("tokenizer.ggml.bos_token_id", .u32(0)),
            ("tokenizer.ggml.eos_token_id", .u32(1)), ("tokenizer.ggml.padding_token_id", .u32(0)),
            ("tokenizer.ggml.add_bos_token", .bool(false)),
            ("tokenizer.chat_template", .string("{% for m in messages %}{{ m.content }}<|im_end|>{% endfor %}")),
        ]
        func ones(_ n: Int) -> [UInt8] { [Float](repeating: 1, count: n).withUnsafeBytes { Array($0) } }
        g.tensors = [
            Tensor(name: "token_embd.weight", dims: [d, vocabulary], type: .q8_0, data: weights(.q8_0, rows: vocabulary, cols: d, &rng)),
            Tensor(name: "blk.0.attn_norm.weight", dims: [d], type: .f32, data: ones(d)),
            Tensor(name: "blk.0.attn_q.weight", dims: [d, d], type: .q4_1, data: weights(.q4_1, rows: d, cols: d, &rng)),
            Tensor(name: "blk.0.attn_k.weight", dims: [d, kv], type: .q4_1, data: weights(.q4_1, rows: kv, cols: d, &rng)),
            Tensor(name: "blk.0.attn_v.weight", dims: [d, kv], type: .q4_0, data: weights(.q4_0, rows: kv, cols: d, &rng)),
            Tensor(name: "blk.0.attn_output.weight", dims: [d, d], type: .q8_0, data: weights(.q8_0, rows: d, cols: d, &rng)),
            Tensor(name: "blk.0.ffn_norm.weight", dims: [d], type: .f32, data: ones(d)),
            Tensor(name: "blk.0.ffn_gate.weight", dims: [d, ff], type: .q4_1, data: weights(.q4_1, rows: ff, cols: d, &rng)),
            Tensor(name: "blk.0.ffn_up.weight", dims: [d, ff], type: .q4_1, data: weights(.q4_1, rows: ff, cols: d, &rng)),
            Tensor(name: "blk.0.ffn_down.weight", dims: [ff, d], type: .q4_1, data: weights(.q4_1, rows: d, cols: ff, &rng)),
            Tensor(name: "output_norm.weight", dims: [d], type: .f32, data: ones(d)),
        ]
        return g
    }

    /// `tinyLlama` with a feed-forward width of 256, so that its down projection (rows of 256
    /// values) can be of a K-quant `type`: the fuzz bases and error tests for the superblock types.
    public static func tinyLlama(seed: UInt64 = 1, feedForwardDown type: TensorType) -> SyntheticGGUF {
        var g = tinyLlama(seed: seed)
        var rng = SeededGenerator(seed: seed ^ 0x4B51)
        let d = embedding, ff = 256
        g.set("llama.feed_forward_length", .u32(UInt32(ff)))
        for i in g.tensors.indices {
            switch g.tensors[i].name {
            case "blk.0.ffn_gate.weight", "blk.0.ffn_up.weight":
                g.tensors[i].dims = [d, ff]
                g.tensors[i].data = weights(g.tensors[i].type, rows: ff, cols: d, &rng)
            case "blk.0.ffn_down.weight":
                g.tensors[i].dims = [ff, d]
                g.tensors[i].type = type
                g.tensors[i].data = weights(type, rows: d, cols: ff, &rng)
            default: break
            }
        }
        return g
    }

    /// `tinyLlama` as a model of another architecture the engine runs (qwen2, qwen3, gemma3, phi3,
    /// gemma-embedding): its keys renamed, and the tensors and keys that architecture adds
    /// (`LlamaHyperparameters.Traits`): Q/K/V biases, per-head Q/K norms, output norms, fused
    /// projections (phi3), for gemma3 a sliding window of 4 on layer 0 with an explicit head size,
    /// and for a sentence encoder its two projections (32 -> 64 -> 32).
    public static func tiny(architecture arch: String, seed: UInt64 = 1) -> SyntheticGGUF {
        var g = tinyLlama(seed: seed)
        guard let traits = LlamaHyperparameters.traitsByArchitecture[arch], arch != "llama" else { return g }
        var rng = SeededGenerator(seed: seed ^ 0xA5C4)
        g.set("general.architecture", .string(arch))
        for i in g.metadata.indices where g.metadata[i].0.hasPrefix("llama.") {
            g.metadata[i].0 = arch + g.metadata[i].0.dropFirst("llama".count)
        }
        let d = embedding, headDim = 16
        func ones(_ n: Int) -> [UInt8] { [Float](repeating: 1, count: n).withUnsafeBytes { Array($0) } }
        func add(_ name: String, _ n: Int, random: Bool = false) {
            let data = random ? weights(.f32, rows: 1, cols: n, &rng) : ones(n)
            g.tensors.append(Tensor(name: "blk.0." + name, dims: [n], type: .f32, data: data))
        }
        if traits.attentionBiases {
            add("attn_q.bias", d, random: true)
            add("attn_k.bias", kvDim, random: true)
            add("attn_v.bias", kvDim, random: true)
        }
        if traits.headNorms {
            add("attn_q_norm.weight", headDim)
            add("attn_k_norm.weight", headDim)
        }
        if traits.outputNorms {
            add("post_attention_norm.weight", d)
            add("post_ffw_norm.weight", d)
        }
        if traits.fusedProjections {
            // Q, K and V in one matrix, and gate and up in one (gate rows first).
            let q = g.tensors.first { $0.name == "blk.0.attn_q.weight" }!
            g.tensors.removeAll { ["blk.0.attn_q.weight", "blk.0.attn_k.weight", "blk.0.attn_v.weight"].contains($0.name) }
            g.tensors.append(Tensor(name: "blk.0.attn_qkv.weight", dims: [d, d + 2 * kvDim], type: q.type,
                                    data: weights(q.type, rows: d + 2 * kvDim, cols: d, &rng)))
            let gate = g.tensors.first { $0.name == "blk.0.ffn_gate.weight" }!, up = g.tensors.first { $0.name == "blk.0.ffn_up.weight" }!
            g.tensors.removeAll { $0.name == gate.name || $0.name == up.name }
            g.tensors.append(Tensor(name: up.name, dims: [d, 2 * feedForward], type: up.type, data: gate.data + up.data))
        }
        if traits.slidingWindow {
            g.set("\(arch).attention.key_length", .u32(UInt32(headDim)))
            g.set("\(arch).attention.value_length", .u32(UInt32(headDim)))
            g.set("\(arch).attention.sliding_window", .u32(4))
            g.set("\(arch).attention.sliding_window_pattern", .u32(2))
        }
        if traits.sentenceEncoder {
            for (name, inputs, outputs) in [("dense_2", d, 2 * d), ("dense_3", 2 * d, d)] {
                g.set("\(arch).\(name)_feat_in", .u32(UInt32(inputs)))
                g.set("\(arch).\(name)_feat_out", .u32(UInt32(outputs)))
                g.tensors.append(Tensor(name: "\(name).weight", dims: [inputs, outputs], type: .f32,
                                        data: weights(.f32, rows: outputs, cols: inputs, &rng)))
            }
        }
        return g
    }

    /// Random weights of `type` with small finite scales (so a forward pass stays finite).
    public static func weights(_ type: TensorType, rows: Int, cols: Int, _ rng: inout SeededGenerator) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: rows * cols / type.blockSize * type.blockBytes)
        func half(_ at: Int) {
            let h = Float16(Float(Int(rng.next() % 200) - 100) / 1000).bitPattern
            bytes[at] = UInt8(h & 0xFF)
            bytes[at + 1] = UInt8(h >> 8)
        }
        switch type {
        case .f32:
            for i in 0..<(rows * cols) {
                withUnsafeBytes(of: Float(Int(rng.next() % 200) - 100) / 1000) { for j in 0..<4 { bytes[4 * i + j] = $0[j] } }
            }
        case .f16:
            for i in 0..<(rows * cols) { half(2 * i) }
        case .bf16:
            for i in 0..<(rows * cols) {
                let bits = (Float(Int(rng.next() % 200) - 100) / 1000).bitPattern >> 16
                bytes[2 * i] = UInt8(bits & 0xFF)
                bytes[2 * i + 1] = UInt8(bits >> 8)
            }
        default:
            for i in bytes.indices { bytes[i] = UInt8(truncatingIfNeeded: rng.next()) }
            for b in 0..<(rows * cols / type.blockSize) {
                for o in type.halfFields { half(b * type.blockBytes + o) }
            }
        }
        return bytes
    }

    /// Index of a metadata key, nil when absent.
    public func index(of key: String) -> Int? { metadata.firstIndex { $0.0 == key } }

    /// Sets a metadata value, appending the key when absent.
    public mutating func set(_ key: String, _ value: Value) {
        if let i = index(of: key) { metadata[i].1 = value } else { metadata.append((key, value)) }
    }

    public func encoded(version: UInt32 = 3) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(tensors.reduce(4096) { $0 + $1.data.count + alignment })
        func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { out += $0 } }
        func u64(_ v: UInt64) { withUnsafeBytes(of: v.littleEndian) { out += $0 } }
        func str(_ s: String) { u64(UInt64(s.utf8.count)); out += Array(s.utf8) }
        func count(_ key: String, _ n: Int) { u64(overrides.arrayLength[key] ?? UInt64(n)) }
        out += Array("GGUF".utf8)
        u32(version)
        u64(overrides.tensorCount ?? UInt64(tensors.count))
        u64(overrides.metadataCount ?? UInt64(metadata.count))
        for (key, value) in metadata {
            str(key)
            switch value {
            case .u32(let v): u32(GGUFValueType.uint32.rawValue); u32(v)
            case .i32(let v): u32(GGUFValueType.int32.rawValue); u32(UInt32(bitPattern: v))
            case .i64(let v): u32(GGUFValueType.int64.rawValue); u64(UInt64(bitPattern: v))
            case .f32(let v): u32(GGUFValueType.float32.rawValue); u32(v.bitPattern)
            case .bool(let v): u32(GGUFValueType.bool.rawValue); out.append(v ? 1 : 0)
            case .string(let s): u32(GGUFValueType.string.rawValue); str(s)
            case .strings(let a): u32(GGUFValueType.array.rawValue); u32(GGUFValueType.string.rawValue); count(key, a.count); a.forEach(str)
            case .i32s(let a): u32(GGUFValueType.array.rawValue); u32(GGUFValueType.int32.rawValue); count(key, a.count); a.forEach { u32(UInt32(bitPattern: $0)) }
            case .f32s(let a): u32(GGUFValueType.array.rawValue); u32(GGUFValueType.float32.rawValue); count(key, a.count); a.forEach { u32($0.bitPattern) }
            case .bools(let a): u32(GGUFValueType.array.rawValue); u32(GGUFValueType.bool.rawValue); count(key, a.count); a.forEach { out.append($0 ? 1 : 0) }
            }
        }
        var offset = 0
        var offsets: [Int] = []
        for t in tensors {
            offsets.append(offset)
            offset = (offset + t.data.count + alignment - 1) / alignment * alignment
        }
        for (i, (t, o)) in zip(tensors, offsets).enumerated() {
            str(t.name)
            u32(UInt32(t.dims.count))
            t.dims.forEach { u64(UInt64($0)) }
            u32(overrides.tensorTypeCode[i] ?? t.type.rawValue)
            u64(overrides.tensorOffset[i] ?? UInt64(o))
        }
        while out.count % alignment != 0 { out.append(0) }
        for t in tensors {
            out += t.data
            while out.count % alignment != 0 { out.append(0) }
        }
        return out
    }

    /// Writes bytes to a fresh file in `directory` and returns its path.
    public static func write(_ bytes: [UInt8], in directory: String, name: String = "model.gguf") -> String {
        let path = directory + "/" + name
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        return path
    }

    public static func temporaryDirectory() -> String {
        let dir = NSTemporaryDirectory() + "llama-engine-tests-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }
}

/// Draws for test data and fuzz cases, from the engine's seeded generator (SplitMix64).
extension SeededGenerator {
    /// A value in 0..<bound.
    public mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(max(bound, 1))) }

    /// One element of a non-empty array.
    public mutating func pick<T>(_ options: [T]) -> T { options[below(options.count)] }
}
