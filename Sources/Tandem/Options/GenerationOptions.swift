/// Options for a local model, named as in Foundation Models' `GenerationOptions`.
/// `nil` leaves the backend's default.
public struct GenerationOptions: Hashable, Sendable {
    /// How the next token is chosen.
    public struct SamplingMode: Hashable, Sendable {
        fileprivate enum Wrapped: Hashable, Sendable {
            case greedy
            case top(Int, seed: UInt64?)
            case threshold(Double, seed: UInt64?)
        }
        fileprivate let wrapped: Wrapped

        /// Always the most likely token.
        public static let greedy = SamplingMode(wrapped: .greedy)
        /// Sample among the `k` most likely tokens.
        public static func random(top k: Int, seed: UInt64? = nil) -> SamplingMode {
            SamplingMode(wrapped: .top(k, seed: seed))
        }
        /// Sample within cumulative probability `threshold` (top-p, nucleus).
        public static func random(probabilityThreshold threshold: Double, seed: UInt64? = nil) -> SamplingMode {
            SamplingMode(wrapped: .threshold(threshold, seed: seed))
        }
    }

    public var sampling: SamplingMode?
    public var temperature: Double?
    public var maximumResponseTokens: Int?
    public var stopSequences: [String]?

    public init(
        sampling: SamplingMode? = nil, temperature: Double? = nil, maximumResponseTokens: Int? = nil,
        stopSequences: [String]? = nil
    ) {
        self.sampling = sampling
        self.temperature = temperature
        self.maximumResponseTokens = maximumResponseTokens
        self.stopSequences = stopSequences
    }

    /// The ABI options a local backend receives.
    public var backendOptions: BackendOptions {
        var options = BackendOptions(
            temperature: temperature.map(Float.init), maxTokens: maximumResponseTokens, stopSequences: stopSequences)
        switch sampling?.wrapped {
        case nil: break
        case .greedy: options.sampling = .greedy
        case .top(let k, let seed):
            options.sampling = .topK
            options.topK = k
            options.seed = seed
        case .threshold(let p, let seed):
            options.sampling = .topP
            options.topP = Float(p)
            options.seed = seed
        }
        return options
    }
}
