/// The shape of a BERT-family encoder (BERT, XLM-RoBERTa), read from `bert.*` metadata as
/// llama.cpp's converter writes it.
public struct EncoderHyperparameters: Sendable, Equatable {
    /// Architectures this engine runs as encoders.
    public static let supportedArchitectures: Set<String> = ["bert"]

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

    init(file: GGUFFile) throws(GGUFError) {
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
}
