/// The shape of a llama-family model, read from `<architecture>.*` metadata.
public struct LlamaHyperparameters: Sendable, Equatable {
    /// How RoPE pairs up dimensions: llama rotates adjacent pairs (2i, 2i+1); NeoX-style models
    /// (e.g. Qwen2) rotate (i, i + d/2).
    public enum RopeStyle: String, Sendable { case adjacentPairs, neox }

    /// Architectures this engine runs, and their RoPE style.
    static let supportedArchitectures: [String: RopeStyle] = ["llama": .adjacentPairs, "qwen2": .neox]

    public let architecture: String
    public let layers: Int
    public let embedding: Int
    public let feedForward: Int
    public let heads: Int
    public let kvHeads: Int
    public let headDim: Int
    public let contextLength: Int
    public let ropeBase: Float
    public let ropeDimensions: Int
    public let ropeStyle: RopeStyle
    public let rmsEpsilon: Float

    public var kvDim: Int { kvHeads * headDim }
    public var qDim: Int { heads * headDim }

    init(file: GGUFFile) throws(GGUFError) {
        let path = file.path
        guard let arch = try file.string("general.architecture") else { throw file.missing("general.architecture") }
        guard let style = Self.supportedArchitectures[arch] else {
            throw GGUFError(.unsupportedArchitecture, path: path, "architecture \"\(arch)\" is not supported (supported: \(Self.supportedArchitectures.keys.sorted().joined(separator: ", ")))")
        }
        func int(_ key: String, _ range: ClosedRange<Int>, default value: Int? = nil) throws(GGUFError) -> Int {
            try file.integer("\(arch).\(key)", in: range, default: value)
        }
        architecture = arch
        layers = try int("block_count", 1...1024)
        embedding = try int("embedding_length", 32...65536)
        feedForward = try int("feed_forward_length", 32...1 << 20)
        heads = try int("attention.head_count", 1...1024)
        kvHeads = try int("attention.head_count_kv", 1...1024, default: heads)
        contextLength = try int("context_length", 1...1 << 22)
        guard embedding % heads == 0, heads % kvHeads == 0 else {
            throw GGUFError(.absurdDimensions, path: path, "\(heads) heads and \(kvHeads) KV heads do not divide embedding \(embedding)")
        }
        headDim = embedding / heads
        guard embedding % 32 == 0, feedForward % 32 == 0, headDim % 2 == 0 else {
            throw GGUFError(.absurdDimensions, path: path, "embedding \(embedding) and feed-forward \(feedForward) must be multiples of 32")
        }
        ropeDimensions = try int("rope.dimension_count", 2...headDim, default: headDim)
        ropeStyle = style
        let base = try file.float("\(arch).rope.freq_base") ?? 10000
        let eps = try file.float("\(arch).attention.layer_norm_rms_epsilon") ?? 1e-5
        guard base > 1, base.isFinite, eps > 0, eps < 1 else {
            throw GGUFError(.absurdCount, path: path, "rope base \(base) or RMS epsilon \(eps) out of range")
        }
        ropeBase = Float(base)
        rmsEpsilon = Float(eps)
    }
}
