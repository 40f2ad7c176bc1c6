import LlamaEngine

/// What the model file's header says, read without loading weights: whether this engine can run
/// it, its identity, context, declared languages, and the memory it needs at a given context.
struct ModelFileFacts: Sendable, Equatable {
    let modelVersion: String
    let architecture: String
    /// A sentence encoder (embeddings only), not a chat model.
    let isEncoder: Bool
    let contextLength: Int
    /// `general.languages`, lower-cased; empty when the file declares none.
    let languages: [String]
    let fileBytes: Int
    /// Width of the hidden state, the embedding vectors' dimensions.
    let embeddingLength: Int
    /// KV cache bytes per token of context: layers × 2 (keys, values) × kvDim × 4 bytes.
    let cacheBytesPerToken: Int

    /// The outcome of reading a file's header.
    enum Outcome: Sendable, Equatable {
        case usable(ModelFileFacts)
        /// The file ends before its header or tensor data does: a copy or download cut short
        /// (or damaged so that it looks so).
        case partial(String)
        /// Not a model this engine can run (wrong magic, unsupported architecture or type, ...).
        case unusable(String)
    }

    static func read(path: String) -> Outcome {
        do throws(GGUFError) {
            let file = try GGUFFile(path: path)
            if try EncoderModel.isEncoder(file: file) {
                let probe = try EncoderModel.probe(file: file)
                return .usable(ModelFileFacts(
                    modelVersion: probe.modelVersion, architecture: probe.architecture, isEncoder: true, contextLength: probe.contextLength,
                    languages: probe.languages.map { $0.lowercased() }, fileBytes: probe.fileBytes,
                    embeddingLength: Int(try file.integer("\(probe.architecture).embedding_length") ?? 0), cacheBytesPerToken: 0))
            }
            let probe = try LlamaModel.probe(path: path)
            let arch = probe.architecture
            let layers = Int(try file.integer("\(arch).block_count") ?? 0)
            let embedding = Int(try file.integer("\(arch).embedding_length") ?? 0)
            let heads = max(1, Int(try file.integer("\(arch).attention.head_count") ?? 1))
            let kvHeads = Int(try file.integer("\(arch).attention.head_count_kv") ?? Int64(heads))
            let headDim = Int(try file.integer("\(arch).attention.key_length") ?? Int64(embedding / heads))
            // A sentence encoder's vectors are as wide as its last projection.
            let sentenceEncoder = LlamaHyperparameters.traitsByArchitecture[arch]?.sentenceEncoder ?? false
            let dimensions = sentenceEncoder ? Int(try file.integer("\(arch).dense_3_feat_out") ?? Int64(embedding)) : embedding
            return .usable(ModelFileFacts(
                modelVersion: probe.modelVersion, architecture: arch, isEncoder: sentenceEncoder, contextLength: probe.contextLength,
                languages: probe.languages.map { $0.lowercased() }, fileBytes: probe.fileBytes, embeddingLength: dimensions,
                cacheBytesPerToken: layers * 2 * kvHeads * headDim * MemoryLayout<UInt16>.size))  // f16 keys and values
        } catch {
            switch error.code {
            // What a file cut short looks like to the reader: counts and offsets that run past
            // its end. (A damaged file can look the same; the detail says what was found.)
            case .truncatedHeader, .truncatedTensorData, .emptyFile, .offsetPastEnd, .absurdCount:
                return .partial(error.detail)
            default: return .unusable("\(error.code.rawValue): \(error.detail)")
            }
        }
    }

    /// Bytes needed to run at `context` tokens: the mapped weights, the KV cache, and a margin
    /// for activations, logits and the runtime.
    func memoryNeeded(context: Int) -> Int {
        fileBytes + cacheBytesPerToken * context + 64 << 20
    }

    /// Whether the model declares `locale`'s language (its primary subtag, case-insensitive:
    /// "en-GB" matches "en"). A file that declares no languages accepts every locale.
    func accepts(locale: String) -> Bool {
        guard !languages.isEmpty else { return true }
        let primary = locale.split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map { $0.lowercased() } ?? ""
        return languages.contains { $0 == primary || $0.split(separator: "-").first.map(String.init) == primary }
    }
}
