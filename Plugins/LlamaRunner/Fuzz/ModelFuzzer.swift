import LlamaEngine

/// Structured fuzzing of model files: each case starts from a valid tiny model
/// (`SyntheticGGUF.tinyLlama`, full tokenizer metadata), changes model-level fields (token ids,
/// counts, array lengths, tokenizer kind and merges, hyperparameters, tensor shapes, types,
/// offsets and names, keys), encodes it, and loads it the way the runner does: the model check,
/// the weights and the tokenizer; a model that loads then encodes and decodes text, and on
/// request evaluates two tokens. A case ends loaded or refused with a message; anything else (a
/// trap, a hang) is a bug. A case is a pure function of its seed.
public struct ModelFuzzer: Sendable {
    public enum Outcome: Sendable, Equatable {
        case loaded(forward: Bool)
        /// The error's type and code (`GGUFError.noTensors`) and its full message.
        case refused(kind: String, message: String)
    }

    public struct Case: Sendable {
        public let seed: UInt64
        /// What was changed, in order, for a report.
        public let mutations: [String]
        public let bytes: [UInt8]
    }

    /// The usual starting points, made once: four weight draws of the tiny model, the tiny model
    /// as each other architecture the engine runs, and with its down projection in each K-quant
    /// (so that re-typing, re-shaping and truncating reach the 256-value superblocks).
    private let bases: [SyntheticGGUF]

    public init() {
        bases = (1...4).map { SyntheticGGUF.tinyLlama(seed: UInt64($0)) }
            + ["qwen2", "qwen3", "gemma3", "gemma3", "phi3"].map { SyntheticGGUF.tiny(architecture: $0) }
            + TensorType.allCases.filter { $0.blockSize == 256 }.map { SyntheticGGUF.tinyLlama(feedForwardDown: $0) }
    }

    public func makeCase(seed: UInt64) -> Case {
        var rng = SeededGenerator(seed: seed ^ 0x5EED_F00D_CAFE_0001)
        var model: SyntheticGGUF
        var mutations: [String] = []
        if rng.below(6) == 0 {
            let vocabulary = 3 + rng.below(40), context = UInt32(1 + rng.below(80))
            model = SyntheticGGUF.tinyLlama(seed: rng.next(), vocabulary: vocabulary, contextLength: context)
            mutations.append("base: \(vocabulary) tokens, context \(context)")
        } else {
            model = bases[rng.below(bases.count)]
        }
        // One case in eight is the base model as it is (so the load and forward paths run).
        let count = rng.below(8) == 0 ? 0 : 1 + rng.below(3)
        for _ in 0..<count {
            let mutation = rng.pick(Self.mutations)
            mutations.append(mutation(&model, &rng))
        }
        var bytes = model.encoded(version: rng.below(16) == 0 ? 2 : 3)
        switch rng.below(32) {
        case 0:
            let cut = rng.below(bytes.count)
            bytes.removeLast(cut)
            mutations.append("truncated by \(cut) bytes")
        case 1:
            let at = rng.below(min(bytes.count, 2048))
            bytes[at] ^= UInt8(1 << rng.below(8))
            mutations.append("flipped a bit of byte \(at)")
        default: break
        }
        return Case(seed: seed, mutations: mutations, bytes: bytes)
    }

    /// The case of `seed`, run; one seed in `forwardEvery` also runs the forward pass.
    public func run(seed: UInt64, forwardEvery: UInt64) -> Outcome {
        Self.run(makeCase(seed: seed).bytes, forward: seed % forwardEvery == 0)
    }

    /// Loads `bytes` as the runner does; `forward` also evaluates two tokens.
    public static func run(_ bytes: [UInt8], forward: Bool) -> Outcome {
        do {
            let model = try LlamaModel(file: GGUFFile(bytes: bytes, path: "fuzz.gguf"), threads: 1)
            let tokenizer = model.tokenizer
            let ids = tokenizer.encode("bcde <|im_end|> hé 7", addSpecial: true, parseSpecial: true)
            _ = try tokenizer.decode(ids)
            if forward {
                let session = LlamaSession(model: model, contextLength: 8)
                try session.evaluate([0, Int32(model.vocabularySize - 1)]) { _, _ in }
            }
            return .loaded(forward: forward)
        } catch let error as GGUFError {
            return .refused(kind: "GGUFError.\(error.code.rawValue)", message: error.description)
        } catch let error as LlamaError {
            return .refused(kind: "LlamaError.\(error.code.rawValue)", message: error.description)
        } catch let error as TokenizerError {
            return .refused(kind: "TokenizerError.\(error.code.rawValue)", message: error.description)
        } catch {
            return .refused(kind: "\(type(of: error))", message: "\(error)")
        }
    }

    // MARK: Mutations

    typealias Mutation = @Sendable (inout SyntheticGGUF, inout SeededGenerator) -> String

    static let specialIdKeys = ["bos", "eos", "eot", "eom", "unknown", "padding", "sep", "cls"].map { "tokenizer.ggml.\($0)_token_id" }
    static let hyperparameterKeys = ["block_count", "embedding_length", "feed_forward_length", "attention.head_count",
                                     "attention.head_count_kv", "context_length", "rope.dimension_count",
                                     "attention.key_length", "attention.value_length", "attention.sliding_window",
                                     "attention.sliding_window_pattern"]

    /// The model's `general.architecture`, the prefix of its hyperparameter keys.
    static func architecture(_ m: SyntheticGGUF) -> String {
        if let i = m.index(of: "general.architecture"), case .string(let a) = m.metadata[i].1 { return a }
        return "llama"
    }

    static func vocabularySize(_ m: SyntheticGGUF) -> Int {
        if let i = m.index(of: "tokenizer.ggml.tokens"), case .strings(let t) = m.metadata[i].1 { return t.count }
        return 0
    }

    static func someInteger(_ rng: inout SeededGenerator, near n: Int) -> SyntheticGGUF.Value {
        switch rng.below(8) {
        case 0: .i32(-1)
        case 1: .i64(Int64.min)
        case 2: .u32(UInt32.max)
        case 3: .i64(1 << 40)
        case 4: .string("\(n)")
        case 5: .f32(Float(n))
        default: .u32(UInt32(rng.below(2 * max(n, 1) + 2)))
        }
    }

    static let mutations: [Mutation] = [
        { m, rng in  // a special token id: in range, at the end, negative, huge, of the wrong type
            let key = rng.pick(specialIdKeys)
            let value = someInteger(&rng, near: vocabularySize(m))
            m.set(key, value)
            return "\(key) = \(value)"
        },
        { m, rng in  // an array's declared length differs from its content
            let key = rng.pick(["tokenizer.ggml.tokens", "tokenizer.ggml.token_type", "tokenizer.ggml.merges"])
            let declared: UInt64 = rng.pick([0, 1, 7, 9, 1 << 24, 1 << 40, UInt64.max])
            m.overrides.arrayLength[key] = declared
            return "\(key) declared length \(declared)"
        },
        { m, rng in  // token, type and score arrays of different lengths
            let n = vocabularySize(m)
            switch rng.below(4) {
            case 0:
                let types = (0..<max(0, n + rng.pick([-1, 1, -n]))).map { _ in Int32(1) }
                m.set("tokenizer.ggml.token_type", .i32s(types))
                return "token_type has \(types.count) entries for \(n) tokens"
            case 1:
                let scores = (0..<max(0, n + rng.pick([-1, 0, 1]))).map { _ in Float(rng.below(100)) / -10 }
                m.set("tokenizer.ggml.scores", .f32s(scores))
                return "scores has \(scores.count) entries for \(n) tokens"
            case 2:
                guard let i = m.index(of: "tokenizer.ggml.tokens"), case .strings(var t) = m.metadata[i].1, t.count > 1 else { return "no tokens" }
                t.removeLast()
                m.metadata[i].1 = .strings(t)
                return "tokens lost its last entry"
            default:
                guard let i = m.index(of: "tokenizer.ggml.tokens"), case .strings(var t) = m.metadata[i].1 else { return "no tokens" }
                t.append("zz")
                m.metadata[i].1 = .strings(t)
                return "tokens gained an entry"
            }
        },
        { m, rng in  // a token type value
            guard let i = m.index(of: "tokenizer.ggml.token_type"), case .i32s(var types) = m.metadata[i].1, !types.isEmpty else { return "no token types" }
            let at = rng.below(types.count), value: Int32 = rng.pick([0, 1, 2, 3, 4, 5, 6, 7, -1, Int32.max])
            types[at] = value
            m.metadata[i].1 = .i32s(types)
            return "token_type[\(at)] = \(value)"
        },
        { m, rng in  // a token's text
            guard let i = m.index(of: "tokenizer.ggml.tokens"), case .strings(var t) = m.metadata[i].1, !t.isEmpty else { return "no tokens" }
            let at = rng.below(t.count)
            let text = rng.pick(["", " ", "\u{1}", "<0x41>", "<0xZZ>", "<0x>", "<|im_end|>", "<|endoftext|>", "bc", "Ġ", "▁",
                                 String(repeating: "ab", count: 300), "\u{FFFD}", "👍", "b", "<s>"])
            t[at] = text
            m.metadata[i].1 = .strings(t)
            return "tokens[\(at)] = \(text.prefix(20).debugDescription)"
        },
        { m, rng in  // the tokenizer kind, sometimes with what SentencePiece needs
            let kind = rng.pick(["gpt2", "llama", "bert", "t5", "rwkv", "", "GPT2", "llama\u{0}"])
            m.set("tokenizer.ggml.model", .string(kind))
            if kind == "llama", rng.below(2) == 0 {
                let n = vocabularySize(m)
                m.set("tokenizer.ggml.scores", .f32s((0..<n).map { Float(-$0) }))
                m.set("tokenizer.ggml.unknown_token_id", .u32(UInt32(rng.below(n))))
            }
            return "tokenizer.ggml.model = \(kind.debugDescription)"
        },
        { m, rng in  // the pre-tokenizer
            if rng.below(5) == 0, let i = m.index(of: "tokenizer.ggml.pre") {
                m.metadata.remove(at: i)
                return "tokenizer.ggml.pre removed"
            }
            let pre = rng.pick(["smollm", "gpt2", "llama3", "qwen2", "default", "unknown-pre", ""])
            m.set("tokenizer.ggml.pre", .string(pre))
            return "tokenizer.ggml.pre = \(pre.debugDescription)"
        },
        { m, rng in  // merges: well-formed, without a space, with spaces at the ends, unknown symbols
            let merges = (0..<rng.below(7)).map { _ in
                rng.pick(["b c", "bc", "b  c", " b", "b ", " ", "", "<|im_end|> b", "d e", "b c d", "x y", "ĠĠ Ġ", "bc d", "c b"])
            }
            m.set("tokenizer.ggml.merges", .strings(merges))
            return "merges = \(merges)"
        },
        { m, rng in  // add BOS without a BOS id
            if let i = m.index(of: "tokenizer.ggml.bos_token_id") { m.metadata.remove(at: i) }
            m.set("tokenizer.ggml.add_bos_token", .bool(true))
            if rng.below(2) == 0 { m.set("tokenizer.ggml.add_eos_token", .bool(true)) }
            return "add_bos_token without bos_token_id"
        },
        { m, rng in  // an integer hyperparameter: zero, not dividing, huge, negative, of the wrong type, missing
            let key = architecture(m) + "." + rng.pick(hyperparameterKeys)
            if rng.below(8) == 0, let i = m.index(of: key) {
                m.metadata.remove(at: i)
                return "\(key) removed"
            }
            let value: SyntheticGGUF.Value = switch rng.below(10) {
            case 0: .i32(-1)
            case 1: .string("2")
            default: .u32(rng.pick([0, 1, 2, 3, 4, 8, 15, 16, 31, 32, 33, 48, 64, 96, 1024, 1025, 65536, UInt32.max]))
            }
            m.set(key, value)
            return "\(key) = \(value)"
        },
        { m, rng in  // a float hyperparameter
            let key = architecture(m) + "." + rng.pick(["rope.freq_base", "attention.layer_norm_rms_epsilon", "rope.freq_base_swa"])
            let value: Float = rng.pick([0, -1, 1, .nan, .infinity, -.infinity, 1e-30, 1e30, 10000, 0.5, 1e-6])
            m.set(key, rng.below(8) == 0 ? .string("1e-5") : .f32(value))
            return "\(key) = \(value)"
        },
        { m, rng in  // the architecture: renamed with its keys (a valid qwen2 model), or alone
            let arch = rng.pick(["qwen2", "mamba", "", "bert", "LLAMA", "qwen3", "gemma3", "phi3"])
            let old = architecture(m)
            m.set("general.architecture", .string(arch))
            if rng.below(2) == 0 {
                for i in m.metadata.indices where m.metadata[i].0.hasPrefix(old + ".") {
                    m.metadata[i].0 = arch + m.metadata[i].0.dropFirst(old.count)
                }
                return "architecture \(arch.debugDescription) with its keys renamed"
            }
            return "general.architecture = \(arch.debugDescription)"
        },
        { m, rng in  // the sliding-window layer pattern as booleans: one per layer, too few, too many, not booleans
            let key = architecture(m) + ".attention.sliding_window_pattern"
            let layers = rng.pick([0, 1, 2, 3])
            if rng.below(4) == 0 {
                m.set(key, .i32s([Int32](repeating: 1, count: layers)))
            } else {
                m.set(key, .bools((0..<layers).map { _ in rng.below(2) == 0 }))
            }
            if rng.below(2) == 0 { m.set(architecture(m) + ".attention.sliding_window", .u32(UInt32(rng.pick([0, 1, 4, 64, 65])))) }
            return "\(key) with \(layers) entries"
        },
        { m, rng in  // a tensor's shape: the same element count arranged otherwise, or a wrong size
            guard !m.tensors.isEmpty else { return "no tensors" }
            let at = rng.below(m.tensors.count)
            var dims = m.tensors[at].dims
            switch rng.below(5) {
            case 0: dims.reverse()
            case 1 where dims.count == 2 && dims[1] % 2 == 0: dims = [dims[0] * 2, dims[1] / 2]
            case 2: dims.append(1)
            case 3 where dims.count > 1: dims.removeLast()
            default: dims[rng.below(dims.count)] = rng.pick([0, 1, 31, 32, 33, 64, 1 << 40])
            }
            m.tensors[at].dims = dims
            return "\(m.tensors[at].name) shape \(dims)"
        },
        { m, rng in  // a tensor's type: with its data re-made (a valid file), kept (wrong size), or unknown
            guard !m.tensors.isEmpty else { return "no tensors" }
            let at = rng.below(m.tensors.count)
            let t = m.tensors[at]
            switch rng.below(3) {
            case 0:
                let type = rng.pick(TensorType.allCases)
                let rows = t.dims.dropFirst().reduce(1) { $0.multipliedReportingOverflow(by: $1).partialValue }
                guard t.dims[0] % type.blockSize == 0, t.dims[0] <= 1 << 12, rows >= 1, rows <= 1 << 12 else { return "kept \(t.name)'s type" }
                m.tensors[at].type = type
                m.tensors[at].data = SyntheticGGUF.weights(type, rows: rows, cols: t.dims[0], &rng)
                if t.dims.count == 1 {  // norm weights near 1, so activations stay finite
                    m.tensors[at].type = .f32
                    m.tensors[at].data = [Float](repeating: 1, count: t.dims[0]).withUnsafeBytes { Array($0) }
                }
                return "\(t.name) re-made as \(m.tensors[at].type.name)"
            case 1:
                m.tensors[at].type = rng.pick(TensorType.allCases)
                return "\(t.name) typed \(m.tensors[at].type.name), data kept"
            default:
                let code: UInt32 = rng.pick([4, 5, 9, 15, 16, 39, 1000, UInt32.max])
                m.overrides.tensorTypeCode[at] = code
                return "\(t.name) type code \(code)"
            }
        },
        { m, rng in  // a tensor's offset: another tensor's, misaligned, into the next, past the end
            guard m.tensors.count > 1 else { return "one tensor" }
            let at = rng.below(m.tensors.count)
            var offsets: [UInt64] = []
            var offset: UInt64 = 0
            for t in m.tensors {
                offsets.append(offset)
                offset = (offset + UInt64(t.data.count) + 31) / 32 * 32
            }
            let value: UInt64 = switch rng.below(5) {
            case 0: offsets[rng.below(offsets.count)]
            case 1: offsets[at] + 1
            case 2: offsets[at] + 32
            case 3: offset + 32
            default: rng.pick([UInt64.max, 1 << 63, UInt64(Int.max)])
            }
            m.overrides.tensorOffset[at] = value
            return "\(m.tensors[at].name) offset \(value)"
        },
        { m, rng in  // a tensor removed, duplicated or renamed
            guard !m.tensors.isEmpty else { return "no tensors" }
            let at = rng.below(m.tensors.count)
            let name = m.tensors[at].name
            switch rng.below(4) {
            case 0:
                m.tensors.remove(at: at)
                return "\(name) removed"
            case 1:
                m.tensors.append(m.tensors[at])
                return "\(name) twice"
            case 2:
                m.tensors.removeAll()
                return "every tensor removed"
            default:
                let newName = rng.pick(["", "a\u{0}b", String(repeating: "n", count: 65), String(repeating: "n", count: 64),
                                        "blk.0.attn_q.weight", "\u{7}", "blk.0.attn_q.bias", "output.weight"])
                m.tensors[at].name = newName
                return "\(name) renamed \(newName.prefix(20).debugDescription)"
            }
        },
        { m, rng in  // a key duplicated, emptied, with NUL, too long, removed
            guard !m.metadata.isEmpty else { return "no metadata" }
            let at = rng.below(m.metadata.count)
            let key = m.metadata[at].0
            switch rng.below(6) {
            case 0: m.metadata.append(m.metadata[at])
            case 1: m.metadata[at].0 = ""
            case 2: m.metadata[at].0 = key + "\u{0}"
            case 3: m.metadata[at].0 = String(repeating: "k", count: rng.pick([64, 65, 65_535, 65_536]))
            case 4: m.metadata[at].0 = "x\u{1B}[2J"
            default: m.metadata.remove(at: at)
            }
            return "key \(key) changed"
        },
        { m, rng in  // the header counts lie
            if rng.below(2) == 0 {
                let count: UInt64 = rng.pick([0, UInt64(max(0, m.tensors.count - 1)), UInt64(m.tensors.count + 1), 1 << 40])
                m.overrides.tensorCount = count
                return "tensor count \(count)"
            }
            let count: UInt64 = rng.pick([0, UInt64(max(0, m.metadata.count - 1)), UInt64(m.metadata.count + 1), UInt64.max])
            m.overrides.metadataCount = count
            return "metadata count \(count)"
        },
        { m, rng in  // the alignment, sometimes followed by the writer (a valid file)
            let value: UInt32 = rng.pick([0, 1, 3, 16, 32, 64, 1 << 16, 1 << 17])
            m.set("general.alignment", .u32(value))
            if value.nonzeroBitCount == 1, value >= 8, value <= 1 << 16, rng.below(2) == 0 { m.alignment = Int(value) }
            return "general.alignment = \(value) (written with \(m.alignment))"
        },
        { m, rng in  // a second layer: complete (a valid file) or partial
            m.set("llama.block_count", .u32(2))
            let layer0 = m.tensors.filter { $0.name.hasPrefix("blk.0.") }
            let copies = rng.below(2) == 0 ? layer0 : Array(layer0.dropLast(1 + rng.below(layer0.count)))
            m.tensors += copies.map { t in var t = t; t.name = "blk.1." + t.name.dropFirst("blk.0.".count); return t }
            return "second layer with \(copies.count) of \(layer0.count) tensors"
        },
        { m, rng in  // optional tensors: attention biases or a separate output matrix, of a right or wrong shape
            let vocabulary = vocabularySize(m)
            let wrong = rng.below(2) == 0
            let (name, dims): (String, [Int]) = rng.pick([
                ("blk.0.attn_q.bias", [SyntheticGGUF.embedding]), ("blk.0.attn_k.bias", [SyntheticGGUF.kvDim]),
                ("blk.0.attn_v.bias", [SyntheticGGUF.kvDim]), ("output.weight", [SyntheticGGUF.embedding, vocabulary]),
            ])
            let shape = wrong ? [dims[0] + 32] + dims.dropFirst() : dims
            let rows = shape.dropFirst().reduce(1, *)
            m.tensors.append(.init(name: name, dims: shape, type: .f32, data: SyntheticGGUF.weights(.f32, rows: rows, cols: shape[0], &rng)))
            return "\(name) added with shape \(shape)"
        },
    ]
}
