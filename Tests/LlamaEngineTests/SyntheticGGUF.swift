import Foundation
@testable import LlamaEngine

/// Builds small GGUF files in memory: a tiny but complete llama model for load, fuzz and
/// generation tests, without the real model.
struct SyntheticGGUF {
    enum Value {
        case u32(UInt32), i32(Int32), f32(Float), bool(Bool), string(String), strings([String]), i32s([Int32]), f32s([Float])
    }

    var metadata: [(String, Value)] = []
    var tensors: [(name: String, dims: [Int], type: TensorType, data: [UInt8])] = []
    var alignment = 32

    /// A one-layer llama with embedding 32, 2 heads (1 KV head), feed-forward 64, 8 tokens.
    static func tinyLlama(seed: UInt64 = 1, vocabulary: Int = 8, contextLength: UInt32 = 64) -> SyntheticGGUF {
        var g = SyntheticGGUF()
        var rng = SplitMix(seed: seed)
        let d = 32, ff = 64, kv = 16
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
            ("tokenizer.ggml.merges", .strings([])), ("tokenizer.ggml.eos_token_id", .u32(1)),
        ]
        func quantized(_ type: TensorType, rows: Int, cols: Int) -> [UInt8] {
            var bytes = [UInt8](repeating: 0, count: rows * cols / type.blockSize * type.blockBytes)
            for i in bytes.indices { bytes[i] = UInt8(truncatingIfNeeded: rng.next()) }
            let scaleOffsets = type == .q4_1 ? [0, 2] : [0]
            for b in 0..<(rows * cols / type.blockSize) {
                for o in scaleOffsets {
                    let h = Float16(Float(Int(rng.next() % 200) - 100) / 1000).bitPattern
                    bytes[b * type.blockBytes + o] = UInt8(h & 0xFF)
                    bytes[b * type.blockBytes + o + 1] = UInt8(h >> 8)
                }
            }
            return bytes
        }
        func ones(_ n: Int) -> [UInt8] { [Float](repeating: 1, count: n).withUnsafeBytes { Array($0) } }
        g.tensors = [
            ("token_embd.weight", [d, vocabulary], .q8_0, quantized(.q8_0, rows: vocabulary, cols: d)),
            ("blk.0.attn_norm.weight", [d], .f32, ones(d)),
            ("blk.0.attn_q.weight", [d, d], .q4_1, quantized(.q4_1, rows: d, cols: d)),
            ("blk.0.attn_k.weight", [d, kv], .q4_1, quantized(.q4_1, rows: kv, cols: d)),
            ("blk.0.attn_v.weight", [d, kv], .q4_0, quantized(.q4_0, rows: kv, cols: d)),
            ("blk.0.attn_output.weight", [d, d], .q8_0, quantized(.q8_0, rows: d, cols: d)),
            ("blk.0.ffn_norm.weight", [d], .f32, ones(d)),
            ("blk.0.ffn_gate.weight", [d, ff], .q4_1, quantized(.q4_1, rows: ff, cols: d)),
            ("blk.0.ffn_up.weight", [d, ff], .q4_1, quantized(.q4_1, rows: ff, cols: d)),
            ("blk.0.ffn_down.weight", [ff, d], .q4_1, quantized(.q4_1, rows: d, cols: ff)),
            ("output_norm.weight", [d], .f32, ones(d)),
        ]
        return g
    }

    func encoded(version: UInt32 = 3) -> [UInt8] {
        var out: [UInt8] = []
        func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { out += $0 } }
        func u64(_ v: UInt64) { withUnsafeBytes(of: v.littleEndian) { out += $0 } }
        func str(_ s: String) { u64(UInt64(s.utf8.count)); out += Array(s.utf8) }
        out += Array("GGUF".utf8)
        u32(version)
        u64(UInt64(tensors.count))
        u64(UInt64(metadata.count))
        for (key, value) in metadata {
            str(key)
            switch value {
            case .u32(let v): u32(GGUFValueType.uint32.rawValue); u32(v)
            case .i32(let v): u32(GGUFValueType.int32.rawValue); u32(UInt32(bitPattern: v))
            case .f32(let v): u32(GGUFValueType.float32.rawValue); u32(v.bitPattern)
            case .bool(let v): u32(GGUFValueType.bool.rawValue); out.append(v ? 1 : 0)
            case .string(let s): u32(GGUFValueType.string.rawValue); str(s)
            case .strings(let a): u32(GGUFValueType.array.rawValue); u32(GGUFValueType.string.rawValue); u64(UInt64(a.count)); a.forEach(str)
            case .i32s(let a): u32(GGUFValueType.array.rawValue); u32(GGUFValueType.int32.rawValue); u64(UInt64(a.count)); a.forEach { u32(UInt32(bitPattern: $0)) }
            case .f32s(let a): u32(GGUFValueType.array.rawValue); u32(GGUFValueType.float32.rawValue); u64(UInt64(a.count)); a.forEach { u32($0.bitPattern) }
            }
        }
        var offset = 0
        var offsets: [Int] = []
        for t in tensors {
            offsets.append(offset)
            offset = (offset + t.data.count + alignment - 1) / alignment * alignment
        }
        for (t, o) in zip(tensors, offsets) {
            str(t.name)
            u32(UInt32(t.dims.count))
            t.dims.forEach { u64(UInt64($0)) }
            u32(t.type.rawValue)
            u64(UInt64(o))
        }
        while out.count % alignment != 0 { out.append(0) }
        for t in tensors {
            out += t.data
            while out.count % alignment != 0 { out.append(0) }
        }
        return out
    }

    /// Writes bytes to a fresh file in `directory` and returns its path.
    static func write(_ bytes: [UInt8], in directory: String, name: String = "model.gguf") -> String {
        let path = directory + "/" + name
        FileManager.default.createFile(atPath: path, contents: Data(bytes))
        return path
    }

    static func temporaryDirectory() -> String {
        let dir = NSTemporaryDirectory() + "llama-engine-tests-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }
}
