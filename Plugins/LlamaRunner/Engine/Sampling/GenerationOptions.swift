/// What a generation call may do and when it stops.
public struct GenerationOptions: Sendable {
    public var maxTokens: Int
    public var sampling: SamplingOptions
    /// Text that ends the generation when it appears (not included in the output).
    public var stopSequences: [String]
    /// Stop on the model's end-of-turn / end-of-text tokens (true for chat use).
    public var stopAtEndOfGeneration: Bool
    /// Report the top-k next-token probabilities (full softmax) at every step; 0 for none.
    public var topProbabilities: Int

    public init(maxTokens: Int, sampling: SamplingOptions = .greedy, stopSequences: [String] = [],
                stopAtEndOfGeneration: Bool = true, topProbabilities: Int = 0) {
        self.maxTokens = maxTokens
        self.sampling = sampling
        self.stopSequences = stopSequences
        self.stopAtEndOfGeneration = stopAtEndOfGeneration
        self.topProbabilities = topProbabilities
    }
}

/// Why a generation ended.
public enum StopReason: String, Sendable {
    case endOfGeneration, maxTokens, stopSequence, cancelled
}

/// What a generation produced.
public struct GenerationResult: Sendable {
    /// Generated ids; an end-of-generation token is included as the last id when it ended the call.
    public var tokens: [Int32]
    /// The text streamed to the caller (end-of-generation tokens and stop sequences excluded).
    public var text: String
    public var stopReason: StopReason
    /// Prompt tokens actually computed (the rest came from the session's cache).
    public var promptTokensEvaluated: Int
    /// Per generated token, the top candidates before sampling (when requested).
    public var topCandidates: [[TopCandidates.Candidate]]
}
