/// The shape of a llama-family model, read from `<architecture>.*` metadata.
public struct LlamaHyperparameters: ModelArchitecture, Equatable {
    public typealias ModelTokenizer = Tokenizer

    /// How RoPE pairs up dimensions: llama rotates adjacent pairs (2i, 2i+1); NeoX-style models
    /// (e.g. Qwen2) rotate (i, i + d/2).
    public enum RopeStyle: String, Sendable { case adjacentPairs, neox }

    /// The gated feed-forward's activation: SwiGLU (silu(gate) × up) or GeGLU with the tanh
    /// approximation of GELU (gelu(gate) × up).
    public enum Activation: String, Sendable { case silu, geluTanh }

    /// Everything one architecture changes in the llama forward pass. These are the only
    /// differences between the families this engine runs; the forward pass
    /// (`LlamaSession.forward`) reads them and nothing else about the architecture.
    public struct Traits: Sendable, Equatable {
        public let ropeStyle: RopeStyle
        /// Q, K and V may carry bias vectors (`attn_{q,k,v}.bias`; optional).
        public let attentionBiases: Bool
        /// Each head's query and key are RMS-normalised before RoPE (`attn_q_norm`, `attn_k_norm`).
        public let headNorms: Bool
        /// The attention and feed-forward outputs are RMS-normalised before they join the
        /// residual stream (`post_attention_norm`, `post_ffw_norm`).
        public let outputNorms: Bool
        /// Token embeddings are multiplied by √n_embd.
        public let scalesEmbedding: Bool
        public let activation: Activation
        /// Layers may attend to a sliding window (`attention.sliding_window`, its layer pattern
        /// and `rope.freq_base_swa`).
        public let slidingWindow: Bool
        /// Q, K and V come as one matrix (`attn_qkv`, rows in that order) and the feed-forward's
        /// gate and up as one (`ffn_up` of 2 × n_ff rows, gate first), as Phi-3 files store them.
        /// The weights split them into row ranges at load; the forward pass never sees the difference.
        public let fusedProjections: Bool
        /// A sentence encoder, not a chat model: every position attends to every other (a
        /// sliding window reaches both ways), one text is one forward chunk, and the mean of the
        /// final states goes through two dense projections (`dense_2`, `dense_3`) before it is
        /// L2-normalised (EmbeddingGemma; scripts/embeddinggemma-to-gguf.py). No logits.
        public let sentenceEncoder: Bool

        static let llama = Traits(ropeStyle: .adjacentPairs, attentionBiases: false, headNorms: false, outputNorms: false,
                                  scalesEmbedding: false, activation: .silu, slidingWindow: false,
                                  fusedProjections: false, sentenceEncoder: false)
        static let qwen2 = Traits(ropeStyle: .neox, attentionBiases: true, headNorms: false, outputNorms: false,
                                  scalesEmbedding: false, activation: .silu, slidingWindow: false,
                                  fusedProjections: false, sentenceEncoder: false)
        static let qwen3 = Traits(ropeStyle: .neox, attentionBiases: false, headNorms: true, outputNorms: false,
                                  scalesEmbedding: false, activation: .silu, slidingWindow: false,
                                  fusedProjections: false, sentenceEncoder: false)
        static let gemma3 = Traits(ropeStyle: .neox, attentionBiases: false, headNorms: true, outputNorms: true,
                                   scalesEmbedding: true, activation: .geluTanh, slidingWindow: true,
                                   fusedProjections: false, sentenceEncoder: false)
        static let gemmaEmbedding = Traits(ropeStyle: .neox, attentionBiases: false, headNorms: true, outputNorms: true,
                                           scalesEmbedding: true, activation: .geluTanh, slidingWindow: true,
                                           fusedProjections: false, sentenceEncoder: true)
        // Phi-3 (4k-context files): NeoX RoPE, fused projections. llama.cpp ignores the
        // sliding window its files declare, and so does this engine.
        static let phi3 = Traits(ropeStyle: .neox, attentionBiases: false, headNorms: false, outputNorms: false,
                                 scalesEmbedding: false, activation: .silu, slidingWindow: false, fusedProjections: true,
                                 sentenceEncoder: false)
    }

    /// Architectures this engine runs (`general.architecture`), and what sets each apart.
    public static let traitsByArchitecture: [String: Traits] = [
        "llama": .llama, "qwen2": .qwen2, "qwen3": .qwen3, "gemma3": .gemma3, "phi3": .phi3,
        "gemma-embedding": .gemmaEmbedding,
    ]
    public static var architectureNames: [String] { traitsByArchitecture.keys.sorted() }

    public let architecture: String
    public let traits: Traits
    public let layers: Int
    public let embedding: Int
    public let feedForward: Int
    public let heads: Int
    public let kvHeads: Int
    /// Per head, for queries, keys and values alike (`attention.key_length`, else
    /// embedding / heads): Gemma 3 and Qwen 3 decouple it from the embedding.
    public let headDim: Int
    public let contextLength: Int
    public let ropeBase: Float
    public let ropeDimensions: Int
    public let rmsEpsilon: Float
    /// Multiplies every attention score (1/√headDim, except Gemma 3 27B).
    public let attentionScale: Float
    /// A sliding-window layer lets position p see positions p − window + 1 … p; nil when no
    /// layer has a window.
    public let slidingWindow: Int?
    /// Which layers use the window (all false without one).
    public let slidingLayers: [Bool]
    /// The RoPE base of the sliding-window layers (`rope.freq_base_swa`, default 10,000).
    public let slidingRopeBase: Float
    /// A sentence encoder's two projections after the pooling: the widths `dense_2` and
    /// `dense_3` produce (`dense_2_feat_out`, `dense_3_feat_out`); empty for other models.
    public let projectionWidths: [Int]

    public var ropeStyle: RopeStyle { traits.ropeStyle }
    public var kvDim: Int { kvHeads * headDim }
    public var qDim: Int { heads * headDim }

    /// The RoPE base of layer `layer`.
    public func ropeBase(layer: Int) -> Float { slidingLayers[layer] ? slidingRopeBase : ropeBase }

    public init(file: GGUFFile) throws(GGUFError) {
        let path = file.path
        guard let arch = try file.string("general.architecture") else { throw file.missing("general.architecture") }
        guard let traits = Self.traitsByArchitecture[arch] else {
            throw GGUFError(.unsupportedArchitecture, path: path, "general.architecture is \"\(arch)\", expected one of \(Self.architectureNames.joined(separator: ", "))")
        }
        func invalid(_ detail: String) -> GGUFError { GGUFError(.invalidHyperparameter, path: path, detail) }
        func int(_ key: String, _ range: ClosedRange<Int>, default value: Int? = nil) throws(GGUFError) -> Int {
            try file.integer("\(arch).\(key)", in: range, default: value)
        }
        func float(_ key: String, default value: Double) throws(GGUFError) -> Double { try file.float("\(arch).\(key)") ?? value }
        /// The value of `key` must be a multiple of `divisor` (`divisorName` says what that is).
        func divisible(_ key: String, _ value: Int, by divisor: Int, _ divisorName: String) throws(GGUFError) {
            guard value % divisor == 0 else {
                throw invalid("\(arch).\(key) (\(value)) is not a multiple of \(divisorName) (\(divisor)), expected it to divide exactly")
            }
        }
        architecture = arch
        self.traits = traits
        layers = try int("block_count", 1...1024)
        embedding = try int("embedding_length", 32...65536)
        feedForward = try int("feed_forward_length", 32...1 << 20)
        heads = try int("attention.head_count", 1...1024)
        kvHeads = try int("attention.head_count_kv", 1...heads, default: heads)
        contextLength = try int("context_length", 1...1 << 22)
        try divisible("attention.head_count", heads, by: kvHeads, "\(arch).attention.head_count_kv")
        if try file.integer("\(arch).attention.key_length") == nil {
            try divisible("embedding_length", embedding, by: heads, "\(arch).attention.head_count")
        }
        headDim = try int("attention.key_length", 2...4096, default: embedding / heads)
        let qDimension = headDim * heads
        // The cache holds keys and values of one width per head.
        _ = try int("attention.value_length", headDim...headDim, default: headDim)
        // The kernels take rows in blocks of 32 values; RoPE rotates pairs.
        try divisible("embedding_length", embedding, by: 32, "the kernels' block")
        try divisible("feed_forward_length", feedForward, by: 32, "the kernels' block")
        guard headDim % 2 == 0 else {
            throw invalid("\(arch) head size (attention.key_length, else embedding_length / attention.head_count) is \(headDim), expected an even number")
        }
        guard qDimension % 32 == 0 else {
            throw invalid("\(arch) head size \(headDim) × \(heads) heads is \(qDimension), expected a multiple of the kernels' block (32)")
        }
        ropeDimensions = try int("rope.dimension_count", 2...headDim, default: headDim)
        guard ropeDimensions % 2 == 0 else { throw invalid("\(arch).rope.dimension_count is \(ropeDimensions), expected an even number") }
        func ropeBaseValue(_ key: String) throws(GGUFError) -> Float {
            let base = try float(key, default: 10000)
            guard base > 1, base.isFinite, base <= 1e12 else { throw invalid("\(arch).\(key) is \(base), expected a finite number above 1") }
            return Float(base)
        }
        ropeBase = try ropeBaseValue("rope.freq_base")
        // Phi-3's long-context files rescale RoPE per dimension (LongRoPE); this engine does not.
        for factors in Self.ropeFactorTensors where file.tensor(named: factors) != nil {
            throw GGUFError(.unsupportedArchitecture, path: path,
                            "\(arch) file has \(factors): per-dimension RoPE scaling (LongRoPE) is not supported; use a file without it (a 4k-context variant)")
        }
        let eps = try float("attention.layer_norm_rms_epsilon", default: 1e-5)
        guard eps > 0, eps < 1 else { throw invalid("\(arch).attention.layer_norm_rms_epsilon is \(eps), expected a number in (0, 1)") }
        rmsEpsilon = Float(eps)
        // Gemma 3 27B scales by the embedding's share per head, the others by the head size
        // (llama.cpp's gemma3 loader).
        attentionScale = 1 / Float(arch == "gemma3" && layers == 62 ? embedding / heads : headDim).squareRoot()

        if traits.slidingWindow, try file.integer("\(arch).attention.sliding_window") != nil {
            let window = try int("attention.sliding_window", 1...contextLength)
            slidingWindow = window
            slidingLayers = try Self.slidingPattern(file, arch, layers: layers)
            slidingRopeBase = try ropeBaseValue("rope.freq_base_swa")
        } else {
            slidingWindow = nil
            slidingLayers = [Bool](repeating: false, count: layers)
            slidingRopeBase = ropeBase
        }
        if traits.sentenceEncoder {
            // Each projection reads what the one before it wrote: the first the pooled state.
            var width = embedding
            var widths: [Int] = []
            for dense in Self.projectionTensors {
                _ = try int("\(dense)_feat_in", width...width, default: width)
                width = try int("\(dense)_feat_out", 32...65536)
                try divisible("\(dense)_feat_out", width, by: 32, "the kernels' block")
                widths.append(width)
            }
            projectionWidths = widths
        } else {
            projectionWidths = []
        }
    }

    /// `attention.sliding_window_pattern`: one boolean per layer, or n (every n-th layer, the
    /// last of each n, is global; 0 makes every layer slide), default 6 as llama.cpp's gemma3.
    private static func slidingPattern(_ file: GGUFFile, _ arch: String, layers: Int) throws(GGUFError) -> [Bool] {
        let key = "\(arch).attention.sliding_window_pattern"
        if case .array = file.metadata[key], let values = try file.array(key) {
            guard values.count == layers else {
                throw GGUFError(.invalidHyperparameter, path: file.path, "\(key) has \(values.count) entries, expected one per layer (\(layers))")
            }
            var pattern: [Bool] = []
            for (i, v) in values.enumerated() {
                guard let b = v.bool else { throw GGUFError(.wrongMetadataType, path: file.path, "\(key)[\(i)] is \(v.type), expected bool") }
                pattern.append(b)
            }
            return pattern
        }
        let n = try file.integer(key, in: 0...1024, default: 6)
        return (0..<layers).map { n == 0 || $0 % n < n - 1 }
    }

    /// The tensors of one layer, named as ggml names them (`blk.<i>.<name>`).
    enum LayerTensor: String, CaseIterable {
        case attentionNorm = "attn_norm.weight", query = "attn_q.weight", key = "attn_k.weight"
        case value = "attn_v.weight", attentionOutput = "attn_output.weight"
        case queryBias = "attn_q.bias", keyBias = "attn_k.bias", valueBias = "attn_v.bias"
        case queryNorm = "attn_q_norm.weight", keyNorm = "attn_k_norm.weight"
        case postAttentionNorm = "post_attention_norm.weight"
        case ffnNorm = "ffn_norm.weight", gate = "ffn_gate.weight", up = "ffn_up.weight", down = "ffn_down.weight"
        case queryKeyValue = "attn_qkv.weight"
        case postFeedForwardNorm = "post_ffw_norm.weight"

        func name(layer: Int) -> String { "blk.\(layer).\(rawValue)" }
    }

    static let tokenEmbedding = "token_embd.weight", outputNorm = "output_norm.weight", output = "output.weight"
    static let ropeFactorTensors = ["rope_factors_long.weight", "rope_factors_short.weight"]
    /// A sentence encoder's projections after the pooling, in order (`<name>.weight`).
    static let projectionTensors = ["dense_2", "dense_3"]

    /// Whether the architecture reads `tensor`, and whether a file may leave it out.
    func presence(_ tensor: LayerTensor) -> (read: Bool, optional: Bool) {
        switch tensor {
        case .queryBias, .keyBias, .valueBias: (traits.attentionBiases, true)
        case .queryNorm, .keyNorm: (traits.headNorms, false)
        case .postAttentionNorm, .postFeedForwardNorm: (traits.outputNorms, false)
        case .query, .key, .value, .gate: (!traits.fusedProjections, false)
        case .queryKeyValue: (traits.fusedProjections, false)
        default: (true, false)
        }
    }

    /// Dimensions, innermost first: a matrix is [columns, rows] and computes one output per row.
    func dimensions(_ tensor: LayerTensor) -> [Int] {
        switch tensor {
        case .attentionNorm, .ffnNorm, .postAttentionNorm, .postFeedForwardNorm: [embedding]
        case .query: [embedding, qDim]
        case .key, .value: [embedding, kvDim]
        case .attentionOutput: [qDim, embedding]
        case .queryBias: [qDim]
        case .keyBias, .valueBias: [kvDim]
        case .queryNorm, .keyNorm: [headDim]
        case .gate: [embedding, feedForward]
        case .up: [embedding, traits.fusedProjections ? 2 * feedForward : feedForward]
        case .queryKeyValue: [embedding, qDim + 2 * kvDim]
        case .down: [feedForward, embedding]
        }
    }

    public func tensorLayout(vocabularySize: Int) -> [TensorSpec] {
        var layout = [TensorSpec(Self.tokenEmbedding, [embedding, vocabularySize])]
        for layer in 0..<layers {
            for tensor in LayerTensor.allCases {
                let (read, optional) = presence(tensor)
                if read { layout.append(TensorSpec(tensor.name(layer: layer), dimensions(tensor), optional: optional)) }
            }
        }
        layout.append(TensorSpec(Self.outputNorm, [embedding]))
        // Files that tie the output to the token embedding leave it out.
        layout.append(TensorSpec(Self.output, [embedding, vocabularySize], optional: true))
        var width = embedding
        for (dense, out) in zip(Self.projectionTensors, projectionWidths) {
            layout.append(TensorSpec("\(dense).weight", [width, out]))
            width = out
        }
        return layout
    }
}
