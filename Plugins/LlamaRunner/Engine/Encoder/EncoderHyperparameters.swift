/// The shape of a BERT-family encoder (BERT, XLM-RoBERTa), read from `bert.*` metadata as
/// llama.cpp's converter writes it.
public struct EncoderHyperparameters: ModelArchitecture, Equatable {
    public typealias ModelTokenizer = UnigramTokenizer

    /// Architectures this engine runs as encoders.
    public static let supportedArchitectures: Set<String> = ["bert"]
    public static var architectureNames: [String] { supportedArchitectures.sorted() }

    public let architecture: String
    public let layers: Int
    public let embedding: Int
    public let feedForward: Int
    public let heads: Int
    /// Positions the model has embeddings for: the most tokens (specials included) one pass takes.
    public let contextLength: Int
    public let layerNormEpsilon: Float

    public var headDim: Int { embedding / heads }

    /// Whether `architecture` names an encoder this engine runs (to tell encoders from chat models).
    public static func isEncoder(architecture: String) -> Bool { supportedArchitectures.contains(architecture) }

    public init(file: GGUFFile) throws(GGUFError) {
        let path = file.path
        guard let arch = try file.string("general.architecture") else { throw file.missing("general.architecture") }
        guard Self.supportedArchitectures.contains(arch) else {
            throw GGUFError(.unsupportedArchitecture, path: path, "architecture \"\(arch)\" is not an encoder this engine runs (supported: \(Self.supportedArchitectures.sorted().joined(separator: ", ")))")
        }
        func int(_ key: String, _ range: ClosedRange<Int>) throws(GGUFError) -> Int {
            try file.integer("\(arch).\(key)", in: range)
        }
        architecture = arch
        layers = try int("block_count", 1...1024)
        embedding = try int("embedding_length", 32...65536)
        feedForward = try int("feed_forward_length", 32...1 << 20)
        heads = try int("attention.head_count", 1...1024)
        contextLength = try int("context_length", 3...1 << 16)
        guard embedding % heads == 0, embedding % 32 == 0, feedForward % 32 == 0 else {
            throw GGUFError(.absurdDimensions, path: path, "embedding \(embedding) and feed-forward \(feedForward) must be multiples of 32, and the \(heads) heads must divide the embedding")
        }
        let eps = try file.float("\(arch).attention.layer_norm_epsilon") ?? 1e-12
        guard eps > 0, eps < 1 else {
            throw GGUFError(.absurdCount, path: path, "\(arch).attention.layer_norm_epsilon is \(eps), outside (0, 1)")
        }
        layerNormEpsilon = Float(eps)
        // This engine pools by the mean and attends both ways; a file that says otherwise is
        // a different model.
        if let causal = try file.bool("\(arch).attention.causal"), causal {
            throw GGUFError(.wrongMetadataType, path: path, "\(arch).attention.causal is true; an encoder attends both ways")
        }
        if let pooling = try file.integer("\(arch).pooling_type"), pooling != 1 {
            throw GGUFError(.wrongMetadataType, path: path, "\(arch).pooling_type is \(pooling); this engine pools by the mean (1)")
        }
    }

    /// The tensors of one layer, named as llama.cpp's BERT layout names them (`blk.<i>.<name>`).
    enum LayerTensor: String, CaseIterable {
        case query = "attn_q", key = "attn_k", value = "attn_v", attentionOutput = "attn_output"
        case attentionNorm = "attn_output_norm", up = "ffn_up", down = "ffn_down", outputNorm = "layer_output_norm"

        func weight(layer: Int) -> String { "blk.\(layer).\(rawValue).weight" }
        func bias(layer: Int) -> String { "blk.\(layer).\(rawValue).bias" }
    }

    static let tokenEmbedding = "token_embd.weight", positionEmbedding = "position_embd.weight"
    static let tokenTypes = "token_types.weight", embeddingNorm = "token_embd_norm"

    /// Matrices are [columns, rows]; every tensor has a bias (LayerNorms: a weight and a bias)
    /// of its output width. The token embedding may have more rows than the tokenizer has
    /// tokens; the position table at least `contextLength` rows; the token-type table (type 0
    /// read, zero when absent) at least one.
    public func tensorLayout(vocabularySize: Int) -> [TensorSpec] {
        let d = embedding, ff = feedForward
        var layout = [
            TensorSpec(Self.tokenEmbedding, [d, vocabularySize], rowsAtLeast: true),
            TensorSpec(Self.positionEmbedding, [d, contextLength], rowsAtLeast: true),
            TensorSpec(Self.tokenTypes, [d, 1], optional: true, rowsAtLeast: true),
            TensorSpec(Self.embeddingNorm + ".weight", [d]), TensorSpec(Self.embeddingNorm + ".bias", [d]),
        ]
        for layer in 0..<layers {
            for tensor in LayerTensor.allCases {
                let (columns, rows): (Int, Int?) = switch tensor {
                case .query, .key, .value, .attentionOutput: (d, d)
                case .attentionNorm, .outputNorm: (d, nil)
                case .up: (d, ff)
                case .down: (ff, d)
                }
                layout.append(TensorSpec(tensor.weight(layer: layer), rows.map { [columns, $0] } ?? [columns]))
                layout.append(TensorSpec(tensor.bias(layer: layer), [rows ?? columns]))
            }
        }
        return layout
    }
}
