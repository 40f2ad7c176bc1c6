/// The shape of a llama-family model, read from `<architecture>.*` metadata.
public struct LlamaHyperparameters: ModelArchitecture, Equatable {
    public typealias ModelTokenizer = Tokenizer

    /// How RoPE pairs up dimensions: llama rotates adjacent pairs (2i, 2i+1); NeoX-style models
    /// (e.g. Qwen2) rotate (i, i + d/2).
    public enum RopeStyle: String, Sendable { case adjacentPairs, neox }

    /// Architectures this engine runs, and their RoPE style.
    static let ropeStyles: [String: RopeStyle] = ["llama": .adjacentPairs, "qwen2": .neox]
    public static var architectureNames: [String] { ropeStyles.keys.sorted() }

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

    public init(file: GGUFFile) throws(GGUFError) {
        let path = file.path
        guard let arch = try file.string("general.architecture") else { throw file.missing("general.architecture") }
        guard let style = Self.ropeStyles[arch] else {
            throw GGUFError(.unsupportedArchitecture, path: path, "general.architecture is \"\(arch)\", expected one of \(Self.architectureNames.joined(separator: ", "))")
        }
        func invalid(_ detail: String) -> GGUFError { GGUFError(.invalidHyperparameter, path: path, detail) }
        func int(_ key: String, _ range: ClosedRange<Int>, default value: Int? = nil) throws(GGUFError) -> Int {
            try file.integer("\(arch).\(key)", in: range, default: value)
        }
        /// The value of `key` must be a multiple of `divisor` (`divisorName` says what that is).
        func divisible(_ key: String, _ value: Int, by divisor: Int, _ divisorName: String) throws(GGUFError) {
            guard value % divisor == 0 else {
                throw invalid("\(arch).\(key) (\(value)) is not a multiple of \(divisorName) (\(divisor)), expected it to divide exactly")
            }
        }
        architecture = arch
        layers = try int("block_count", 1...1024)
        embedding = try int("embedding_length", 32...65536)
        feedForward = try int("feed_forward_length", 32...1 << 20)
        heads = try int("attention.head_count", 1...1024)
        kvHeads = try int("attention.head_count_kv", 1...heads, default: heads)
        contextLength = try int("context_length", 1...1 << 22)
        try divisible("embedding_length", embedding, by: heads, "\(arch).attention.head_count")
        try divisible("attention.head_count", heads, by: kvHeads, "\(arch).attention.head_count_kv")
        headDim = embedding / heads
        // The kernels take rows in blocks of 32 values; RoPE rotates pairs.
        try divisible("embedding_length", embedding, by: 32, "the kernels' block")
        try divisible("feed_forward_length", feedForward, by: 32, "the kernels' block")
        guard headDim % 2 == 0 else {
            throw invalid("\(arch).embedding_length / \(arch).attention.head_count is \(headDim), expected an even head size")
        }
        ropeDimensions = try int("rope.dimension_count", 2...headDim, default: headDim)
        guard ropeDimensions % 2 == 0 else { throw invalid("\(arch).rope.dimension_count is \(ropeDimensions), expected an even number") }
        ropeStyle = style
        let base = try file.float("\(arch).rope.freq_base") ?? 10000
        guard base > 1, base.isFinite, base <= 1e12 else { throw invalid("\(arch).rope.freq_base is \(base), expected a finite number above 1") }
        let eps = try file.float("\(arch).attention.layer_norm_rms_epsilon") ?? 1e-5
        guard eps > 0, eps < 1 else { throw invalid("\(arch).attention.layer_norm_rms_epsilon is \(eps), expected a number in (0, 1)") }
        ropeBase = Float(base)
        rmsEpsilon = Float(eps)
    }

    /// The tensors of one layer, named as ggml names them (`blk.<i>.<name>`).
    enum LayerTensor: String, CaseIterable {
        case attentionNorm = "attn_norm.weight", query = "attn_q.weight", key = "attn_k.weight"
        case value = "attn_v.weight", attentionOutput = "attn_output.weight"
        case queryBias = "attn_q.bias", keyBias = "attn_k.bias", valueBias = "attn_v.bias"
        case ffnNorm = "ffn_norm.weight", gate = "ffn_gate.weight", up = "ffn_up.weight", down = "ffn_down.weight"

        func name(layer: Int) -> String { "blk.\(layer).\(rawValue)" }

        /// Only Qwen2-style files carry the attention biases.
        var isOptional: Bool { self == .queryBias || self == .keyBias || self == .valueBias }
    }

    static let tokenEmbedding = "token_embd.weight", outputNorm = "output_norm.weight", output = "output.weight"

    /// Dimensions, innermost first: a matrix is [columns, rows] and computes one output per row.
    func dimensions(_ tensor: LayerTensor) -> [Int] {
        switch tensor {
        case .attentionNorm, .ffnNorm: [embedding]
        case .query: [embedding, qDim]
        case .key, .value: [embedding, kvDim]
        case .attentionOutput: [qDim, embedding]
        case .queryBias: [qDim]
        case .keyBias, .valueBias: [kvDim]
        case .gate, .up: [embedding, feedForward]
        case .down: [feedForward, embedding]
        }
    }

    public func tensorLayout(vocabularySize: Int) -> [TensorSpec] {
        var layout = [TensorSpec(Self.tokenEmbedding, [embedding, vocabularySize])]
        for layer in 0..<layers {
            for tensor in LayerTensor.allCases {
                layout.append(TensorSpec(tensor.name(layer: layer), dimensions(tensor), optional: tensor.isOptional))
            }
        }
        layout.append(TensorSpec(Self.outputNorm, [embedding]))
        // Files that tie the output to the token embedding leave it out.
        layout.append(TensorSpec(Self.output, [embedding, vocabularySize], optional: true))
        return layout
    }
}
